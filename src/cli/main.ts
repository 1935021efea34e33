import { readFileSync } from "node:fs";
import { writePosition } from "../engine/position-json.ts";
import { readRules } from "../engine/rules.ts";
import { gameIds, getGame, getVariant, variantIds } from "../variants/registry.ts";
import { adjudicateAnyJson, splitInput } from "./adjudicate.ts";
import { benchSelfPlay } from "./bench.ts";
import { cmdDiscovery } from "./discovery.ts";
import { CliError, cmdHistory, cmdNew, cmdPlay, cmdReplay } from "./games.ts";
import { cmdGlobal } from "./global.ts";
import { cmdMailIngest } from "./mail.ts";
import { cmdRender, RENDER_USAGE } from "./render.ts";
import { runSelfPlay } from "./selfplay.ts";
import { serve } from "./serve.ts";
import { checkVariantFile } from "./variant-check.ts";

const HELP = `entente: a Diplomacy adjudicator

Usage:
  entente adjudicate [--rules PROFILE] < input.json    adjudicate positions (JSON or JSON Lines)
  entente variants                                     list variant ids
  entente variant show ID                              print a variant as JSON
  entente variant check FILE                           validate a variant data file (docs/variant.schema.json)
  entente new [--variant ID | --variant-file FILE.json] [--players N] [--rules PROFILE] [--seed S] [--out FILE]
                                                       start a game record (players: 7, 6, 5, 4, 3, 3b, 2);
                                                       a variant file's data is kept in the record
  entente play RECORD ORDERS_FILE [--out FILE]         adjudicate the record's next phase
  entente history RECORD                               the game as a judge publishes it
  entente replay RECORD                                check that a record replays exactly
  entente selfplay [--variant ID] [--players N] [--games N] [--seed S] [--until YEAR] [--workers K] [--out FILE]
  entente selfplay --variant global|discovery [--games N] [--seed S] [--turns N]
                                                       random legal play; a JSON summary line
  entente serve [--port N] [--host H] [--data DIR] [--smtp-port N] [--smtp-host H]
                                                       run the judge server (docs/judge.md);
                                                       PORT, DATABASE_URL=postgres://... as env;
                                                       mail: ENTENTE_SMTP_PORT, ENTENTE_SMTP_URL, ... (docs/email.md)
  entente mail ingest FILE.eml [--data DIR]            handle a raw mail as the judge's mail receiver does;
                                                       print the reply (docs/email.md)
  entente bench selfplay [--games 200] [--seed 12345] [--until 1935]
                                                       the self-play benchmark (docs/performance.md)
  entente global new|play|replay ...                   moderate a Global Diplomacy game (docs/global.md)
  entente discovery new|play|replay|map ...           moderate an Age of Discovery game (docs/discovery.md)
  entente render [--variant ID] [--record FILE [--phase P]] [--position FILE.json]
                [--palette standard|colorblind] [--width PX] --out map.svg|map.png
                                                       draw a board (docs/maps.md)
  entente render --record FILE --gif game.gif [--palette P] [--width PX]  the game animated
  entente render --variant global|discovery [--seed S --players N] [--player P] ...
                                                       the world map, a generated map (docs/maps.md)
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
    const result = doc.ok ? adjudicateAnyJson(doc.value, rules.rules) : { error: doc.error };
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
  const game = getGame(id);
  if (game) {
    process.stdout.write(`${JSON.stringify(game.describe(), null, 1)}\n`);
    return 0;
  }
  const v = getVariant(id);
  if (!v)
    throw new UsageError(
      `unknown variant "${id}"; known: ${[...variantIds(), ...gameIds()].join(", ")}`,
    );
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
        process.stdout.write(`${[...variantIds(), ...gameIds()].join("\n")}\n`);
        return 0;
      case "variant":
        return cmdVariant(rest);
      case "global":
      case "discovery": {
        const r = cmd === "global" ? cmdGlobal(rest) : cmdDiscovery(rest);
        if (r.error) throw new UsageError(r.error);
        process.stdout.write(r.text);
        return r.status;
      }
      case "new": {
        const variantFile = option(rest, "--variant-file");
        const variant = option(rest, "--variant") ?? "classical";
        const players = option(rest, "--players");
        const rules = option(rest, "--rules");
        const seed = option(rest, "--seed");
        const out = option(rest, "--out");
        noMore(rest, "new");
        if (variantFile && variant !== "classical")
          throw new UsageError("new: give --variant or --variant-file, not both");
        process.stdout.write(cmdNew({ variant, variantFile, players, rules, seed, out }));
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
        const turns = rest.includes("--turns") ? num("--turns", 60) : undefined;
        noMore(rest, "selfplay");
        runSelfPlay({ variant, players, rules, out, games, seed, until, workers, turns }).then(
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
      case "mail": {
        const [sub, ...args] = rest;
        const data = option(args, "--data");
        const [file, ...extra] = args;
        if (sub !== "ingest" || !file || extra.length > 0) {
          throw new UsageError("usage: entente mail ingest FILE.eml [--data DIR]");
        }
        cmdMailIngest({ file, data }).then(
          (r) => {
            process.stdout.write(r.text);
            process.exitCode = r.ok ? 0 : 1;
          },
          (e: unknown) => {
            process.stderr.write(`entente: ${e instanceof Error ? e.message : String(e)}\n`);
            process.exitCode = e instanceof CliError ? 2 : 1;
          },
        );
        return 0;
      }
      case "render": {
        const args = {
          variant: option(rest, "--variant"),
          record: option(rest, "--record"),
          phase: option(rest, "--phase"),
          position: option(rest, "--position"),
          palette: option(rest, "--palette"),
          width: option(rest, "--width"),
          seed: option(rest, "--seed"),
          players: option(rest, "--players"),
          player: option(rest, "--player"),
          out: option(rest, "--out"),
          gif: option(rest, "--gif"),
        };
        noMore(rest, "render");
        if (!args.out && !args.gif) throw new UsageError(RENDER_USAGE);
        process.stdout.write(cmdRender(args));
        return 0;
      }
      case "serve": {
        const port = option(rest, "--port");
        const host = option(rest, "--host");
        const data = option(rest, "--data");
        const smtpPort = option(rest, "--smtp-port");
        const smtpHost = option(rest, "--smtp-host");
        noMore(rest, "serve");
        serve({ port, host, data, smtpPort, smtpHost }).catch((e: unknown) => {
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

// A reader that stops early (`entente variant show classical | head`) closes the pipe: that
// is not an error of ours, so stop quietly instead of crashing with EPIPE.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
  process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
});

process.exitCode = main(process.argv.slice(2));
