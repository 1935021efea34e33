import { rngFor } from "../../engine/random.ts";
import { adjudicateTurn } from "./adjudicate.ts";
import type { GlobalMap } from "./map.ts";
import {
  GlobalPositionError,
  readGlobalPosition,
  readGlobalRules,
  readPower,
  writeGlobalPosition,
  writeTurnResult,
} from "./position.ts";
import { randomCommands } from "./possible.ts";
import { turnReport } from "./report.ts";
import { initialState } from "./state.ts";
import type { GameState, GlobalRules, PowerId, TurnResult } from "./types.ts";

/**
 * A game as a moderator keeps it: the current position (position JSON), the rules, and
 * every turn's command lines, so that it can be replayed from the start. Pure: the CLI
 * reads and writes the file.
 */
export interface GlobalGame {
  readonly variant: string;
  readonly seed: number;
  readonly rules: GlobalRules;
  readonly position: Record<string, unknown>;
  readonly history: readonly { turn: number; orders: Record<string, string[]> }[];
}

export function newGlobalGame(map: GlobalMap, seed: number, rules: GlobalRules): GlobalGame {
  return {
    variant: map.data.id,
    seed,
    rules,
    position: writeGlobalPosition(initialState(map, seed)),
    history: [],
  };
}

export function readGlobalGame(map: GlobalMap, json: unknown): GlobalGame {
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new GlobalPositionError(
      "a game file is a JSON object with variant, seed, position and history",
    );
  const g = json as Record<string, unknown>;
  if (g.variant !== map.data.id)
    throw new GlobalPositionError(
      `this game file is for ${JSON.stringify(g.variant)}, not ${map.data.id}`,
    );
  if (typeof g.position !== "object" || g.position === null || !Array.isArray(g.history))
    throw new GlobalPositionError("a game file needs a position object and a history list");
  return {
    variant: map.data.id,
    seed: typeof g.seed === "number" ? g.seed : 1,
    rules: readGlobalRules(g.rules),
    position: g.position as Record<string, unknown>,
    history: g.history as GlobalGame["history"],
  };
}

/**
 * An order file: sections headed by a power (`POWER 3`, `3`, `3-England`, `England:`),
 * each followed by that power's command lines; `#` starts a comment.
 */
export function parseOrderFile(map: GlobalMap, text: string): Record<PowerId, string[]> {
  const out: Record<PowerId, string[]> = {};
  let current: PowerId | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") return;
    const head =
      /^power\s+(.+?):?$/i.exec(line) ??
      /^(\d+)(?:-\S.*?)?:?$/.exec(line) ??
      /^([A-Za-z][A-Za-z -]*):$/.exec(line) ??
      (map.powers.some((p) => p.name.toLowerCase() === line.toLowerCase()) ? [line, line] : null);
    if (head) {
      current = readPower(map, head[1]!.replace(/^(\d+)-.*$/, "$1"), `line ${i + 1}`);
      out[current] ??= [];
      return;
    }
    if (current === undefined)
      throw new GlobalPositionError(
        `line ${i + 1}: "${line}" comes before any power heading (e.g. "POWER 3")`,
      );
    out[current]!.push(line);
  });
  return out;
}

/** Plays the game's next turn with these orders: the new game, the result and the reports. */
export function playGlobalTurn(
  map: GlobalMap,
  game: GlobalGame,
  orders: Record<PowerId, string[]>,
): {
  game: GlobalGame;
  result: TurnResult;
  json: Record<string, unknown>;
  reports: Record<PowerId, string>;
} {
  const state = readGlobalPosition(map, game.position);
  if (state.winners) throw new GlobalPositionError("the game is over");
  const result = adjudicateTurn(map, state, orders, game.rules);
  const reports: Record<PowerId, string> = {};
  for (const p of map.powers)
    reports[p.id] = turnReport(map, result, p.id, `${map.data.id}-${game.seed}`);
  const ordersOut: Record<string, string[]> = {};
  for (const [p, l] of Object.entries(orders)) ordersOut[p] = [...l];
  return {
    game: {
      ...game,
      position: writeGlobalPosition(result.after),
      history: [...game.history, { turn: state.turn, orders: ordersOut }],
    },
    result,
    json: writeTurnResult(result),
    reports,
  };
}

/** Replays a game's history from the start; the position must come out the same. */
export function replayGlobalGame(
  map: GlobalMap,
  game: GlobalGame,
): { ok: boolean; state: GameState } {
  let state = initialState(map, game.seed);
  for (const h of game.history) {
    const orders: Record<PowerId, string[]> = {};
    for (const [p, l] of Object.entries(h.orders)) orders[Number(p)] = l;
    state = adjudicateTurn(map, state, orders, game.rules).after;
  }
  const stored = readGlobalPosition(map, game.position);
  return {
    ok: JSON.stringify(writeGlobalPosition(state)) === JSON.stringify(writeGlobalPosition(stored)),
    state,
  };
}

/** A whole self-play game: every power gives random commands until the game ends. */
export function selfPlayGame(
  map: GlobalMap,
  seed: number,
  maxTurns = 60,
  rules?: GlobalRules,
  onTurn?: (r: TurnResult) => void,
): GameState {
  let state = initialState(map, seed);
  for (let i = 0; i < maxTurns && !state.winners; i++) {
    const rng = rngFor(seed ^ 0x5eed, state.turn);
    const orders: Record<PowerId, string[]> = {};
    for (const p of map.powers) orders[p.id] = randomCommands(map, state, p.id, rng);
    const r = adjudicateTurn(map, state, orders, rules);
    onTurn?.(r);
    state = r.after;
  }
  return state;
}
