/*
 * Global Diplomacy as a game family (`global`, in registry.ts): the JSON adjudication of a
 * map on global's rules (`adjudicateFamilyJson`; discovery/index.ts has its own for a
 * generated map), and the family's entry points re-exported.
 */
import { rngFor } from "../../engine/random.ts";
import type { GameFamily } from "../../engine/variant.ts";
import { adjudicateTurn } from "./adjudicate.ts";
import type { GlobalMap } from "./map.ts";
import {
  GlobalPositionError,
  readGlobalPosition,
  readGlobalRules,
  readOrders,
  readReportPowers,
  writeGlobalPosition,
  writeTurnResult,
} from "./position.ts";
import { randomCommands } from "./possible.ts";
import { turnReport } from "./report.ts";
import { initialState } from "./state.ts";
import { worldData, worldGame, worldMap } from "./world.ts";

export { adjudicateTurn } from "./adjudicate.ts";
export { parseCommand, readCommandSet } from "./commands.ts";
export { GlobalMap, validateMap } from "./map.ts";
export { readGlobalPosition, writeGlobalPosition, writeTurnResult } from "./position.ts";
export { possibleCommands, randomCommands } from "./possible.ts";
export { turnReport } from "./report.ts";
export { initialState } from "./state.ts";
export { worldData, worldMap } from "./world.ts";

/**
 * The position JSON of a Global-family map with orders in, the result JSON out
 * (docs/global.md). `reports`: true for every power's report, or a list of powers.
 */
export function adjudicateFamilyJson(
  map: GlobalMap,
  input: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  try {
    const state = readGlobalPosition(map, input);
    // A board with no unit on it is no game to adjudicate (every power's commands would
    // fail or do nothing): refused, as the classical reader refuses what it cannot use.
    if (state.units.length === 0)
      throw new GlobalPositionError(
        'units: no power has a unit, so there is nothing to adjudicate; give each power\'s units (e.g. {"3": ["F 233", "A 16"]}), or leave "units" out for the map\'s start',
      );
    const rules = readGlobalRules(input.rules);
    const orders = readOrders(map, input.orders, "power");
    if (state.winners)
      throw new GlobalPositionError(
        "the game is over (winners are set); there is nothing to adjudicate",
      );
    const result = adjudicateTurn(map, state, orders, rules);
    const out = writeTurnResult(result);
    const ps = readReportPowers(map, input.reports, "power");
    if (ps !== null) {
      const reports: Record<string, string> = {};
      for (const p of ps) reports[String(p)] = turnReport(map, result, p);
      out.reports = reports;
    }
    return out;
  } catch (e) {
    if (e instanceof GlobalPositionError) return { error: e.message };
    throw e;
  }
}

/** Global Diplomacy on the authored world map, as a game family. */
export const global: GameFamily = {
  ...worldGame,
  start: (seed) => writeGlobalPosition(initialState(worldMap, seed)),
  adjudicateJson: (input) => adjudicateFamilyJson(worldMap, input),
  randomOrders: (position, power, seed) => {
    const state = readGlobalPosition(worldMap, { ...position });
    return randomCommands(worldMap, state, power, rngFor(seed, state.turn));
  },
  describe: () => ({ ...worldData }),
};
