import { readFileSync } from "node:fs";
import { writePosition } from "../engine/position-json.ts";
import { readRules } from "../engine/rules.ts";
import { getVariant, variantIds } from "../variants/registry.ts";
import { adjudicateJson, splitInput } from "./adjudicate.ts";
import { benchSelfPlay } from "./bench.ts";
import { CliError, cmdHistory, cmdNew, cmdPlay, cmdReplay } from "./games.ts";
import { runSelfPlay } from "./selfplay.ts";
import { serve } from "./serve.ts";
import { checkVariantFile } from "./variant-check.ts";

const HELP = `entente: a Diplomacy adjudicator

Usage:
  entente adjudicate [--rules PROFILE] < input.json    adjudicate positions (JSON or JSON Lines)
  entente variants                                     list variant ids
  entente variant show ID                              print a variant as JSON
  entente variant check FILE                           validate a variant data file (docs/variant.schema.json)
  entente new [--variant ID] [--players N] [--rules PROFILE] [--seed S] [--out FILE]
                                                       start a game record (players: 7, 6, 5, 4, 3, 3b, 2)
  entente play RECORD ORDERS_FILE [--out FILE]         adjudicate the record's next phase
  entente history RECORD                               the game as a judge publishes it
  entente replay RECORD                                check that a record replays exactly
  entente selfplay [--variant ID] [--players N] [--games N] [--seed S] [--until YEAR] [--workers K] [--out FILE]
                                                       random legal play; a JSON summary line
  entente serve [--port N] [--host H] [--data DIR]     run the judge server (docs/judge.md);
                                                       PORT, DATABASE_URL=postgres://... as env
  entente bench selfplay [--games 200] [--seed 12345] [--until 1935]
                                                       the self-play benchmark (docs/performance.md)
  entente help                                         this text

The adjudicate contract: docs/adjudicate-json.md. Rule profiles and options: docs/rules.md.
Game records and order files: docs/records.md. The judge server: docs/judge.md.
`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const v = args[i + 1];
  if (v === undefined) throw new UsageError(`${name} needs a value`);
  args.splice(i, 2);
  return v;
}

class UsageError extends Error {}

function noMore(args: string[], cmd: string): void {
  if (args.length > 0)
    throw new UsageError(`${cmd}: unexpected ${args.join(" ")}; see "entente help"`);
}

function cmdAdjudicate(args: string[]): number {
  const profile = option(args, "--rules");
  const rules = readRules(profile);
  if (!rules.ok) throw new UsageError(rules.error);
  if (args.length > 0)
    throw new UsageError(`adjudicate takes no arguments besides --rules, not ${args.join(" ")}`);
  const input = readFileSync(0, "utf8");
  let status = 0;
  const out: string[] = [];
  for (const doc of splitInput(input)) {
    const result = doc.ok ? adjudicateJson(doc.value, rules.rules) : { error: doc.error };
    if ("error" in result) status = 1;
    out.push(JSON.stringify(result));
  }
  process.stdout.write(out.length > 0 ? `${out.join("\n")}\n` : "");
  return status;
}

function cmdVariant(args: string[]): number {
  const [sub, id, ...extra] = args;
  if (sub === "check" && id && extra.length === 0) {
    const r = checkVariantFile(id);
    process.stdout.write(r.report.endsWith("\n") ? r.report : `${r.report}\n`);
    return r.ok ? 0 : 1;
  }
  if (sub !== "show" || !id || extra.length > 0) {
    throw new UsageError("usage: entente variant show ID | entente variant check FILE");
  }
  const v = getVariant(id);
  if (!v) throw new UsageError(`unknown variant "${id}"; known: ${variantIds().join(", ")}`);
  const provinces = v.map.provinces.map((p) => {
    const at = { province: p.id, coast: null };
    return {
      id: p.id,
      name: p.name,
      aliases: p.aliases,
      type: p.kind,
      coasts: p.coasts,
      supplyCenter: p.supplyCenter,
      home: p.home,
      adjacency: {
        army: v.map.armyNeighbours(p.id),
        fleet:
          p.coasts.length > 0
            ? Object.fromEntries(
                p.coasts.map((c) => [
                  c,
                  v.map
                    .fleetNeighbours({ province: p.id, coast: c })
                    .map((l) => (l.coast ? `${l.province}/${l.coast}` : l.province)),
                ]),
              )
            : v.map
                .fleetNeighbours(at)
                .map((l) => (l.coast ? `${l.province}/${l.coast}` : l.province)),
      },
    };
  });
  const out = {
    id: v.id,
    name: v.name,
    victoryCenters: v.victoryCenters,
    powers: v.powers,
    provinces,
    start: writePosition(v, v.start),
  };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  return 0;
}

export function main(argv: string[]): number {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(HELP);
        return 0;
      case "adjudicate":
        return cmdAdjudicate(rest);
      case "variants":
        process.stdout.write(`${variantIds().join("\n")}\n`);
        return 0;
      case "variant":
        return cmdVariant(rest);
      case "new": {
        const variant = option(rest, "--variant") ?? "classical";
        const players = option(rest, "--players");
        const rules = option(rest, "--rules");
        const seed = option(rest, "--seed");
        const out = option(rest, "--out");
        noMore(rest, "new");
        process.stdout.write(cmdNew({ variant, players, rules, seed, out }));
        return 0;
      }
      case "play": {
        const out = option(rest, "--out");
        const [record, orders, ...extra] = rest;
        if (!record || !orders || extra.length > 0)
          throw new UsageError("usage: entente play RECORD ORDERS_FILE [--out FILE]");
        process.stdout.write(cmdPlay(record, orders, out));
        return 0;
      }
      case "history": {
        const [record, ...extra] = rest;
        if (!record || extra.length > 0) throw new UsageError("usage: entente history RECORD");
        process.stdout.write(cmdHistory(record));
        return 0;
      }
      case "selfplay": {
        const num = (name: string, dflt: number): number => {
          const v = option(rest, name);
          if (v === undefined) return dflt;
          const n = Number(v);
          if (!Number.isInteger(n))
            throw new UsageError(`${name} must be a whole number, not ${v}`);
          return n;
        };
        const variant = option(rest, "--variant") ?? "classical";
        const players = option(rest, "--players");
        const rules = option(rest, "--rules");
        const out = option(rest, "--out");
        const games = num("--games", 1);
        const seed = num("--seed", 1);
        const until = num("--until", 1935);
        const workers = num("--workers", 1);
        noMore(rest, "selfplay");
        runSelfPlay({ variant, players, rules, out, games, seed, until, workers }).then(
          (summary) => {
            process.stdout.write(`${JSON.stringify(summary)}\n`);
            process.exitCode = summary.invariantViolations === 0 ? 0 : 1;
          },
          (e: unknown) => {
            process.stderr.write(`entente: ${e instanceof Error ? e.message : String(e)}\n`);
            process.exitCode = e instanceof CliError ? 2 : 1;
          },
        );
        return 0;
      }
      case "bench": {
        const [what, ...args] = rest;
        if (what !== "selfplay")
          throw new UsageError(
            "usage: entente bench selfplay [--games N] [--seed S] [--until YEAR]",
          );
        const whole = (name: string, dflt: number): number => {
          const v = option(args, name);
          const n = v === undefined ? dflt : Number(v);
          if (!Number.isInteger(n) || n < 1)
            throw new UsageError(`${name} must be a positive whole number`);
          return n;
        };
        const games = whole("--games", 200);
        const seed = whole("--seed", 12345);
        const until = whole("--until", 1935);
        noMore(args, "bench selfplay");
        process.stdout.write(`${JSON.stringify(benchSelfPlay(games, seed, until))}\n`);
        return 0;
      }
      case "replay": {
        const [record, ...extra] = rest;
        if (!record || extra.length > 0) throw new UsageError("usage: entente replay RECORD");
        const r = cmdReplay(record);
        process.stdout.write(r.text);
        return r.ok ? 0 : 1;
      }
      case "serve": {
        const port = option(rest, "--port");
        const host = option(rest, "--host");
        const data = option(rest, "--data");
        noMore(rest, "serve");
        serve({ port, host, data }).catch((e: unknown) => {
          process.stderr.write(`entente serve: ${e instanceof Error ? e.message : String(e)}\n`);
          process.exit(1);
        });
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${cmd}"; run "entente help" for the list`);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof CliError) {
      process.stderr.write(`entente: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

process.exitCode = main(process.argv.slice(2));
