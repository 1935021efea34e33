import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { GlobalPositionError, readGlobalRules } from "../variants/global/position.ts";
import type { GlobalRules, TurnResult } from "../variants/global/types.ts";

/*
 * The moderator's shell shared by `entente global` and `entente discovery` (docs/global.md,
 * docs/discovery.md): whole-file writes, a new game file, playing a turn from an order file
 * and writing each player's report, and turning a user's mistake into a message with status 2.
 */

export interface ShellResult {
  readonly text: string;
  readonly status: number;
  readonly error?: string;
}

/** Whole file or nothing: write beside it, then rename. */
export function writeWhole(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** `entente global new`'s options (and, with `players`, `entente discovery new`'s). */
export interface NewGameArgs {
  seed: number;
  convoy?: string;
  out: string;
  json?: boolean;
}

/**
 * `new --out FILE`: the game `make` builds under the rules the options name (the convoy rule)
 * written to a new file, never over an existing one; what was made said in `words` after the
 * file's name, or with --json as one line (`out` and `fields`).
 */
export function newGameFile(
  o: NewGameArgs,
  make: (rules: GlobalRules) => unknown,
  fields: Record<string, unknown>,
  words: string,
): ShellResult {
  const rules = readGlobalRules(o.convoy ? { convoyDisruption: o.convoy } : undefined);
  const game = make(rules);
  if (existsSync(o.out))
    throw new GlobalPositionError(`${o.out} exists; a new game is not written over it`);
  writeWhole(o.out, `${JSON.stringify(game, null, 1)}\n`);
  return {
    text: o.json ? `${JSON.stringify({ out: o.out, ...fields })}\n` : `${o.out}: ${words}\n`,
    status: 0,
  };
}

export const readJsonFile = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"));

/** A family's turn played from its game file's JSON and an order file's text. */
export type PlayTurn = (
  game: unknown,
  orders: string,
) => { game: unknown; reports: Record<string, string>; result: TurnResult };

/**
 * A family's `play` command: `playFromFiles` with the family's turn and report names, run in
 * its shell (runShell with the family's own user errors).
 */
export const playCommand =
  (
    shell: (body: () => ShellResult) => ShellResult,
    play: PlayTurn,
    reportName: (turn: number, player: string) => string,
  ) =>
  (file: string, ordersFile: string, o: { reports?: string; json?: boolean } = {}) =>
    shell(() => playFromFiles(file, ordersFile, o.reports, play, reportName, o.json));

/**
 * `play GAME.json ORDERS.txt [--reports DIR]`: one turn from an order file; the game file is
 * rewritten whole, each player's report written to DIR (default: `reports` beside the game).
 */
export function playFromFiles(
  file: string,
  ordersFile: string,
  reportsDir: string | undefined,
  play: PlayTurn,
  reportName: (turn: number, player: string) => string,
  json = false,
): ShellResult {
  const t = play(readJsonFile(file), readFileSync(ordersFile, "utf8"));
  const dir = reportsDir ?? join(dirname(file), "reports");
  mkdirSync(dir, { recursive: true });
  for (const [p, text] of Object.entries(t.reports)) {
    writeWhole(join(dir, reportName(t.result.turn, p)), text);
  }
  writeWhole(file, `${JSON.stringify(t.game, null, 1)}\n`);
  if (json) {
    const refused = t.result.results
      .filter((c) => c.status !== "ok")
      .map((c) => ({ power: c.power, text: c.text, status: c.status, reason: c.reason ?? null }));
    const summary = {
      game: file,
      turn: t.result.turn,
      reports: dir,
      refused,
      ...(t.result.after.winners ? { winners: t.result.after.winners } : {}),
    };
    return { text: `${JSON.stringify(summary)}\n`, status: 0 };
  }
  const lines = [`turn ${t.result.turn} adjudicated; reports in ${dir}`];
  for (const c of t.result.results) {
    if (c.status !== "ok") lines.push(`  ${c.power}: ${c.text}: ${c.status}: ${c.reason ?? ""}`);
  }
  if (t.result.after.winners) lines.push(`game over: won by ${t.result.after.winners.join(", ")}`);
  return { text: `${lines.join("\n")}\n`, status: 0 };
}

const replayText = (file: string, turns: number, ok: boolean, json?: boolean): ShellResult => ({
  text: json
    ? `${JSON.stringify({ game: file, ok, turns })}\n`
    : ok
      ? `${file}: ${turns} turns replay exactly\n`
      : `${file}: the replay does not give the stored position\n`,
  status: ok ? 0 : 1,
});

/**
 * A family's `replay GAME.json [--json]` command: `replay` reads the game file's JSON and says
 * how many turns it holds and whether playing them again gives the stored position; run in the
 * family's shell.
 */
export const replayCommand =
  (
    shell: (body: () => ShellResult) => ShellResult,
    replay: (game: unknown) => { turns: number; ok: boolean },
  ) =>
  (file: string, o: { json?: boolean } = {}) =>
    shell(() => {
      const r = replay(readJsonFile(file));
      return replayText(file, r.turns, r.ok, o.json);
    });

/**
 * Runs a subcommand: a user's mistake (a bad option, unreadable JSON, a missing file, or one
 * of `userErrors`) becomes its message with status 2; anything else is a bug and is thrown.
 */
export function runShell(
  body: () => ShellResult,
  userErrors: readonly (new (...a: never[]) => Error)[] = [],
): ShellResult {
  try {
    return body();
  } catch (e) {
    const fsError = e instanceof Error && typeof (e as NodeJS.ErrnoException).code === "string";
    if (
      e instanceof GlobalPositionError ||
      e instanceof SyntaxError ||
      fsError ||
      userErrors.some((c) => e instanceof c)
    ) {
      return { text: "", status: 2, error: (e as Error).message };
    }
    throw e;
  }
}
