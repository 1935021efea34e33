/**
 * An Age of Discovery game as a moderator keeps it (the discovery counterpart of global's
 * moderator.ts): the map's seed and player count, the rules, the current position (with what
 * each player knows) and every turn's command lines, so it replays from the start. Pure: the
 * CLI (cli.ts) reads and writes the files.
 */
import { rngFor } from "../../engine/random.ts";
import { parseOrderFile } from "../global/moderator.ts";
import {
  GlobalPositionError,
  readGlobalPosition,
  readGlobalRules,
  writeGlobalPosition,
  writeTurnResult,
} from "../global/position.ts";
import { initialState } from "../global/state.ts";
import type { GameState, GlobalRules, PowerId, TurnResult } from "../global/types.ts";
import { DEFAULT_RULES } from "../global/types.ts";
import { initialKnowledge, type Knowledge } from "./fog.ts";
import { adjudicateDiscoveryTurn, discoveryReport } from "./game.ts";
import { discoveryMap, discoveryRandomOrders, readKnowledge } from "./index.ts";

export interface DiscoveryGame {
  readonly variant: "discovery";
  /** The map's seed, also the moderator's (forced removals). */
  readonly seed: number;
  readonly players: number;
  readonly rules: GlobalRules;
  /** Position JSON, with `map` and `known`. */
  readonly position: Record<string, unknown>;
  readonly history: readonly { turn: number; orders: Record<string, string[]> }[];
}

function positionOf(seed: number, players: number, state: GameState, known: Knowledge) {
  return { ...writeGlobalPosition(state), map: { seed, players }, known };
}

export function newDiscoveryGame(
  seed: number,
  players: number,
  rules: GlobalRules = DEFAULT_RULES,
): DiscoveryGame {
  const { map: dmap, global: gmap } = discoveryMap(seed, players);
  const state = initialState(gmap, seed);
  return {
    variant: "discovery",
    seed,
    players,
    rules,
    position: positionOf(seed, players, state, initialKnowledge(dmap, state)),
    history: [],
  };
}

export function readDiscoveryGame(json: unknown): DiscoveryGame {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new GlobalPositionError(
      "a game file is a JSON object with variant, seed, players, position and history",
    );
  }
  const g = json as Record<string, unknown>;
  if (g.variant !== "discovery") {
    throw new GlobalPositionError(
      `this game file is for ${JSON.stringify(g.variant)}, not discovery`,
    );
  }
  if (typeof g.seed !== "number" || typeof g.players !== "number") {
    throw new GlobalPositionError("a discovery game file needs the map's seed and players");
  }
  if (typeof g.position !== "object" || g.position === null || !Array.isArray(g.history)) {
    throw new GlobalPositionError("a game file needs a position object and a history list");
  }
  discoveryMap(g.seed, g.players);
  return {
    variant: "discovery",
    seed: g.seed,
    players: g.players,
    rules: readGlobalRules(g.rules),
    position: g.position as Record<string, unknown>,
    history: g.history as DiscoveryGame["history"],
  };
}

/** An order file (global's format: `POWER 3` headings, command lines, `#` comments). */
export function parseDiscoveryOrders(game: DiscoveryGame, text: string): Record<PowerId, string[]> {
  return parseOrderFile(discoveryMap(game.seed, game.players).global, text);
}

/** Plays the next turn: the new game, the result, its JSON and every player's report. */
export function playDiscoveryTurn(
  game: DiscoveryGame,
  orders: Readonly<Record<PowerId, readonly string[]>>,
): {
  game: DiscoveryGame;
  result: TurnResult;
  json: Record<string, unknown>;
  reports: Record<PowerId, string>;
} {
  const { map: dmap, global: gmap } = discoveryMap(game.seed, game.players);
  const state = readGlobalPosition(gmap, game.position);
  if (state.winners) throw new GlobalPositionError("the game is over");
  const known = readKnowledge(dmap, gmap, state, game.position.known);
  const turn = adjudicateDiscoveryTurn(dmap, gmap, state, known, orders, game.rules);
  const reports: Record<PowerId, string> = {};
  for (const p of gmap.powers) {
    reports[p.id] = discoveryReport(
      dmap,
      gmap,
      turn.result,
      turn.known,
      p.id,
      `discovery-${game.seed}`,
    );
  }
  const ordersOut: Record<string, string[]> = {};
  for (const [p, l] of Object.entries(orders)) ordersOut[p] = [...l];
  return {
    game: {
      ...game,
      position: positionOf(game.seed, game.players, turn.result.after, turn.known),
      history: [...game.history, { turn: state.turn, orders: ordersOut }],
    },
    result: turn.result,
    json: writeTurnResult(turn.result),
    reports,
  };
}

/** Replays the history from the start; the stored position must come out the same. */
export function replayDiscoveryGame(game: DiscoveryGame): boolean {
  let g = newDiscoveryGame(game.seed, game.players, game.rules);
  for (const h of game.history) {
    const orders: Record<PowerId, string[]> = {};
    for (const [p, l] of Object.entries(h.orders)) orders[Number(p)] = l;
    g = playDiscoveryTurn(g, orders).game;
  }
  return JSON.stringify(g.position) === JSON.stringify(game.position);
}

/** A whole self-play game: random commands (spies in range, some by XXYY) until it ends. */
export function selfPlayDiscovery(
  seed: number,
  players: number,
  maxTurns = 60,
  onTurn?: (r: TurnResult, reports: Record<PowerId, string>) => void,
): DiscoveryGame {
  let game = newDiscoveryGame(seed, players);
  for (let i = 0; i < maxTurns && game.position.winners === undefined; i++) {
    const orders: Record<PowerId, string[]> = {};
    for (let p = 1; p <= players; p++) {
      orders[p] = discoveryRandomOrders(
        game.position,
        p,
        (seed ^ 0x5eed) + rngFor(seed, i).int(1000),
      );
    }
    const t = playDiscoveryTurn(game, orders);
    onTurn?.(t.result, t.reports);
    game = t.game;
  }
  return game;
}
