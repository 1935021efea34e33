/*
 * `entente daide host`: one game on one port for DAIDE clients (docs/daide.md). Seats are
 * taken by clients in the order they send NME, --bots seats by built-in players (the last, or
 * those --bot-powers names or draws); --level 10 lets the clients send each other press;
 * the game is played on the engine (src/daide/host.ts). When it ends, the summary is one JSON
 * line on stdout and, with --data, the game's record is written there (replayable with
 * `entente replay`).
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Bot } from "../bots/bot.ts";
import { bots } from "../bots/index.ts";
import { DaideHost } from "../daide/host.ts";
import type { GameSummary } from "../daide/host-options.ts";
import { readRules } from "../engine/rules.ts";
import { getVariant, variantIds } from "../variants/registry.ts";
import { CliError } from "./errors.ts";
import { writeAtomically } from "./games.ts";
import { scenarioArg } from "./scenario-arg.ts";

export interface DaideHostArgs {
  readonly port: string;
  readonly host?: string;
  readonly variant: string;
  readonly players?: string;
  readonly moveTime: number;
  readonly until?: number;
  readonly bots: number;
  readonly bot: string;
  /** `TUR,ENG` or `random` (drawn with --seed): the built-in players' seats. */
  readonly botPowers?: string;
  /** The press level: "0" or "10". */
  readonly level?: string;
  readonly data?: string;
  readonly seed: number;
}

/** The built-in players src/bots exports (its one list, src/bots/index.ts), by id. */
export function builtInBots(): Map<string, Bot> {
  return new Map(bots.map((b) => [b.id, b]));
}

/** Checks the arguments and makes the host (not yet listening). */
export function makeHost(a: DaideHostArgs, log: (line: string) => void): DaideHost {
  const variant = getVariant(a.variant);
  if (!variant)
    throw new CliError(`unknown variant "${a.variant}"; DAIDE hosts: ${variantIds().join(", ")}`);
  const scenario = scenarioArg(a.variant, a.players);
  const rules = readRules(undefined, variant.rules);
  if (!rules.ok) throw new CliError(rules.error);
  const bots = builtInBots();
  const bot = bots.get(a.bot);
  if (!bot)
    throw new CliError(`unknown bot "${a.bot}"; built-in players: ${[...bots.keys()].join(", ")}`);
  if (a.until !== undefined && a.until <= variant.start.phase.year)
    throw new CliError(
      `--until ${a.until} is not after the start (${variant.start.phase.year}); give a later year`,
    );
  const level = a.level ?? "0";
  if (level !== "0" && level !== "10")
    throw new CliError(
      `--level ${level}: the host offers press level 0 (no press) or 10 (peace and alliances)`,
    );
  let botPowers: string[] | "random" | undefined;
  if (a.botPowers !== undefined) {
    if (a.bots === 0)
      throw new CliError("--bot-powers names the seats of --bots K built-in players: give --bots");
    botPowers =
      a.botPowers.trim().toLowerCase() === "random"
        ? "random"
        : a.botPowers
            .split(",")
            .map((x) => x.trim())
            .filter((x) => x !== "");
  }
  const id = `daide-${a.variant}-${new Date().toISOString().replace(/[-:]/g, "").slice(0, 15)}-${a.port}`;
  try {
    return new DaideHost({
      scenario,
      rules: rules.rules,
      seed: a.seed,
      moveTime: a.moveTime,
      until: a.until ?? null,
      bots: Array.from({ length: a.bots }, () => bot),
      botPowers,
      level: level === "0" ? 0 : 10,
      port: Number(a.port),
      ...(a.host ? { host: a.host } : {}),
      id,
      log,
    });
  } catch (e) {
    throw new CliError(e instanceof Error ? e.message : String(e));
  }
}

/** The summary line: everything but the record (which goes to --data). */
export function summaryLine(s: GameSummary, recordFile: string | null): string {
  const { record: _record, ...rest } = s;
  return `${JSON.stringify({ ...rest, ...(recordFile ? { recordFile } : {}) })}\n`;
}

export async function cmdDaideHost(
  a: DaideHostArgs,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  if (a.data !== undefined && existsSync(a.data) === false) mkdirSync(a.data, { recursive: true });
  const host = makeHost(a, (line) => err(`entente daide: ${line}\n`));
  let port: number;
  try {
    port = await host.listen();
  } catch (e) {
    throw new CliError(
      `cannot listen on port ${a.port}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  err(
    `entente daide: ${host.map.name} on port ${port}; waiting for ${host.openSeats} clients (dumbbot -i127.0.0.1 -p${port})\n`,
  );
  const stop = () => {
    err("entente daide: stopped before the game ended\n");
    void host.close().finally(() => process.exit(1));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const summary = await host.done;
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  let file: string | null = null;
  if (a.data !== undefined) {
    file = join(a.data, `${summary.game}.json`);
    writeAtomically(file, `${JSON.stringify(summary.record, null, 1)}\n`);
  }
  out(summaryLine(summary, file));
  return 0;
}
