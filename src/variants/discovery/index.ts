/**
 * Age of Discovery (seed 004, appendix C) as a game family: Global Diplomacy's rules on a map
 * generated per game. The position JSON is global's (docs/global.md) with two more fields:
 * `map` {seed, players}, which regenerates the map, and `known` {player: [area ids]}, what
 * each player has ever been to or spied upon (absent: where each player is now).
 * docs/discovery.md describes all of it.
 */

import { rngFor } from "../../engine/random.ts";
import type { GameFamily } from "../../engine/variant.ts";
import type { GlobalMap } from "../global/map.ts";
import {
  GlobalPositionError,
  readGlobalPosition,
  readGlobalRules,
  readOrders,
  readPower,
  readReportPowers,
  writeGlobalPosition,
  writeTurnResult,
} from "../global/position.ts";
import { randomCommands } from "../global/possible.ts";
import { initialState } from "../global/state.ts";
import type { AreaId, GameState, PowerId } from "../global/types.ts";
import type { DiscoveryMap } from "./areas.ts";
import { DEFAULT_MAP_SEED, DEFAULT_PLAYERS } from "./defaults.ts";
import { initialKnowledge, type Knowledge, presentAreas, spyRange } from "./fog.ts";
import { adjudicateDiscoveryTurn, discoveryReport } from "./game.ts";
import { GenerateError, MAX_PLAYERS, MIN_PLAYERS } from "./generate.ts";
import { mapGeometry } from "./geometry.ts";
import {
  DISCOVERY_PERCENT,
  DISCOVERY_SPIES,
  DISCOVERY_TURNS,
  discoveryGlobalMap,
} from "./mapdata.ts";
import { areaName } from "./names.ts";

export { DEFAULT_MAP_SEED, DEFAULT_PLAYERS };

const cache = new Map<string, { map: DiscoveryMap; global: GlobalMap }>();

/** The generated map of a seed and player count (kept for reuse: generating takes a while). */
export function discoveryMap(
  seed: number,
  players: number,
): {
  readonly map: DiscoveryMap;
  readonly global: GlobalMap;
} {
  const key = `${seed}/${players}`;
  let m = cache.get(key);
  if (m === undefined) {
    m = discoveryGlobalMap({ seed, players });
    if (cache.size >= 16) cache.delete(cache.keys().next().value!);
    cache.set(key, m);
  }
  return m;
}

type Json = Readonly<Record<string, unknown>>;

/** The map a position names in its `map` field, with a clear error if it names none. */
export function mapOfPosition(input: Json): { map: DiscoveryMap; global: GlobalMap } {
  const m = input.map;
  const form = `"map": {"seed": 12345, "players": ${MIN_PLAYERS} to ${MAX_PLAYERS}}`;
  if (typeof m !== "object" || m === null || Array.isArray(m)) {
    throw new GlobalPositionError(`a discovery position needs the generated map's ${form}`);
  }
  const { seed, players } = m as Record<string, unknown>;
  if (typeof seed !== "number" || typeof players !== "number") {
    throw new GlobalPositionError(`map must give a seed and a player count: ${form}`);
  }
  try {
    return discoveryMap(seed, players);
  } catch (e) {
    if (e instanceof GenerateError) throw new GlobalPositionError(`map: ${e.message}`);
    throw e;
  }
}

/** The `known` field, or what each player knows at a start: where it is. */
export function readKnowledge(
  dmap: DiscoveryMap,
  gmap: GlobalMap,
  state: GameState,
  x: unknown,
): Knowledge {
  if (x === undefined) return initialKnowledge(dmap, state);
  if (typeof x !== "object" || x === null || Array.isArray(x)) {
    throw new GlobalPositionError(
      'known must be an object of player to area ids, e.g. {"1": [4, 17, 230]}',
    );
  }
  const out: Record<PowerId, AreaId[]> = initialKnowledge(dmap, state) as Record<PowerId, AreaId[]>;
  for (const [k, list] of Object.entries(x)) {
    const p = readPower(gmap, k, "known");
    if (
      !Array.isArray(list) ||
      !list.every((a) => Number.isInteger(a) && gmap.area(a) !== undefined)
    ) {
      throw new GlobalPositionError(
        `known.${k} must be a list of area ids of this map (1 to ${dmap.areas.length})`,
      );
    }
    out[p] = [...new Set([...(list as number[]), ...presentAreas(state, p)])].sort((a, b) => a - b);
  }
  return out;
}

function withMap(
  dmap: DiscoveryMap,
  position: Record<string, unknown>,
  known: Knowledge,
): Record<string, unknown> {
  return { ...position, map: { seed: dmap.seed, players: dmap.players }, known };
}

/** One discovery position with orders in, the result out (as global's, plus map and known). */
export function adjudicateDiscoveryJson(input: Json): Record<string, unknown> {
  try {
    const { map: dmap, global: gmap } = mapOfPosition(input);
    const state = readGlobalPosition(gmap, { ...input });
    const known = readKnowledge(dmap, gmap, state, input.known);
    const rules = readGlobalRules(input.rules);
    const orders = readOrders(gmap, input.orders, "player");
    if (state.winners) {
      throw new GlobalPositionError(
        "the game is over (winners are set); there is nothing to adjudicate",
      );
    }
    const turn = adjudicateDiscoveryTurn(dmap, gmap, state, known, orders, rules);
    const out = writeTurnResult(turn.result);
    out.next = withMap(dmap, out.next as Record<string, unknown>, turn.known);
    out.spies = turn.result.spies;
    const ps = readReportPowers(gmap, input.reports, "player");
    if (ps !== null) {
      const reports: Record<string, string> = {};
      for (const p of ps)
        reports[String(p)] = discoveryReport(dmap, gmap, turn.result, turn.known, p);
      out.reports = reports;
    }
    return out;
  } catch (e) {
    if (e instanceof GlobalPositionError) return { error: e.message };
    throw e;
  }
}

/** The opening position of a new map: `seed` makes the map and the moderator's choices. */
export function discoveryStart(seed: number, players = DEFAULT_PLAYERS): Record<string, unknown> {
  const { map: dmap, global: gmap } = discoveryMap(seed, players);
  const state = initialState(gmap, seed);
  return withMap(dmap, writeGlobalPosition(state), initialKnowledge(dmap, state));
}

/**
 * Random legal command lines for self-play: global's, with its spies replaced by up to twelve
 * in range, some named by square (XXYY) to exercise the names.
 */
export function discoveryRandomOrders(position: Json, power: number, seed: number): string[] {
  const { map: dmap, global: gmap } = mapOfPosition(position);
  const state = readGlobalPosition(gmap, { ...position });
  const known = readKnowledge(dmap, gmap, state, position.known);
  return discoveryRandomLines(dmap, gmap, state, known, power, seed);
}

/** `discoveryRandomOrders` on a game's map, state and knowledge already read. */
export function discoveryRandomLines(
  dmap: DiscoveryMap,
  gmap: GlobalMap,
  state: GameState,
  known: Knowledge,
  power: number,
  seed: number,
): string[] {
  // Each player its own stream, so players given one seed still choose apart.
  const r = rngFor((seed + Math.imul(power, 0x9e3779b1)) >>> 0, state.turn);
  const lines = randomCommands(gmap, state, power, r).filter((l) => !/^SP\b/i.test(l.trim()));
  if (r.next() < 0.5) {
    const range = [...spyRange(dmap, known[power] ?? [], presentAreas(state, power))].sort(
      (a, b) => a - b,
    );
    const picked = new Set<AreaId>();
    while (
      picked.size < Math.min(dmap.areas.length, 12, range.length) &&
      picked.size < 1 + r.int(12)
    ) {
      picked.add(r.pick(range));
    }
    if (picked.size > 0) {
      lines.push(
        `SP ${[...picked].map((a) => (r.next() < 0.5 ? areaName(dmap, power, a) : String(a))).join(" ")}`,
      );
    }
  }
  return lines;
}

/**
 * What can be said of the family without a game: every game has its own map, so there is no
 * one map to give; `describeMap` gives a game's (moderator data: the whole map unfogged).
 */
export function discoveryDescription(): Record<string, unknown> {
  return {
    id: "discovery",
    name: "Age of Discovery",
    generated: true,
    players: [MIN_PLAYERS, MAX_PLAYERS],
    defaultPlayers: DEFAULT_PLAYERS,
    spies: DISCOVERY_SPIES,
    percentRange: DISCOVERY_PERCENT,
    turnRange: DISCOVERY_TURNS,
    map: 'generated per game from the position\'s "map": {"seed", "players"} (docs/discovery.md)',
  };
}

/**
 * A game's map as data (global MapData: areas with adjacency, squares and anchors in grid
 * units, powers) plus its grid geometry, for the moderator and for drawing. Players must be
 * shown only `playerGeometry` (geometry.ts).
 */
export function describeMap(seed: number, players: number): Record<string, unknown> {
  const { map, global } = discoveryMap(seed, players);
  return { ...global.data, grid: mapGeometry(map) };
}

/** Age of Discovery, registered beside `global` (src/variants/registry.ts). */
export const discovery: GameFamily = {
  id: "discovery",
  name: "Age of Discovery",
  players: { min: MIN_PLAYERS, max: MAX_PLAYERS, default: DEFAULT_PLAYERS },
  start: (seed, players) => discoveryStart(seed, players),
  adjudicateJson: (input) => adjudicateDiscoveryJson(input),
  randomOrders: (position, power, seed) => discoveryRandomOrders(position, power, seed),
  describe: () => discoveryDescription(),
};
