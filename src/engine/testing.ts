/**
 * Helpers for the engine's tests: the movement positions a random game passes through, for
 * tests that check a property over many real boards.
 */

import { DATC_RULES } from "./rules.ts";
import type { Scenario } from "./scenario.ts";
import { selfPlayGame } from "./selfplay.ts";
import type { Position } from "./types.ts";

/** Every movement position of one random game (DATC rules) from `seed` until `untilYear`. */
export function movementPositions(scenario: Scenario, seed: number, untilYear: number): Position[] {
  const positions: Position[] = [];
  selfPlayGame({
    scenario,
    rules: DATC_RULES,
    seed,
    untilYear,
    keepRecord: false,
    onPhase: (before) => {
      if (before.position.phase.type === "M") positions.push(before.position);
    },
  });
  return positions;
}
