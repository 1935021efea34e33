import { resolveMovement } from "../engine/movement.ts";
import { isMovementOrder, type MovementOrder } from "../engine/orders.ts";
import type { Step } from "../engine/record.ts";
import { DATC_RULES } from "../engine/rules.ts";
import { selfPlayGame } from "../engine/selfplay.ts";
import type { Position } from "../engine/types.ts";
import { getScenario } from "../variants/scenarios.ts";

/*
 * `entente bench selfplay`: random self-play on the classical map, timed as a whole loop
 * (legal orders, order text, reading, adjudication, records of state) and, separately, the
 * movement resolver alone over every movement phase the games produced.
 */

export interface BenchResult {
  games: number;
  seed: number;
  until: number;
  phases: number;
  movementPhases: number;
  seconds: number;
  phasesPerSecond: number;
  resolveSeconds: number;
  adjudicatedMovementPhasesPerSecond: number;
  peakRssMB: number;
  node: string;
}

/** The orders the resolver was given in a movement phase, rebuilt from its results. */
function resolverInput(position: Position, played: Step): MovementOrder[] {
  const byUnit = new Map<string, MovementOrder>();
  for (const r of played.result.results) {
    if (r.result === "invalid" || !r.order || !isMovementOrder(r.order)) continue;
    byUnit.set(r.order.unit.province, r.order);
  }
  return position.units.map((unit) => byUnit.get(unit.province) ?? { kind: "hold", unit });
}

export function benchSelfPlay(games: number, seed: number, until: number): BenchResult {
  const scenario = getScenario("classical")!;
  const collected: MovementOrder[][] = [];
  let phases = 0;
  let movementPhases = 0;
  const started = performance.now();
  for (let g = 0; g < games; g++) {
    const game = selfPlayGame({
      scenario,
      rules: DATC_RULES,
      seed: seed + g,
      untilYear: until,
      keepRecord: false,
      onPhase: (before, played) => {
        if (before.position.phase.type === "M")
          collected.push(resolverInput(before.position, played));
      },
    });
    phases += game.phases;
    movementPhases += game.movementPhases;
  }
  const seconds = (performance.now() - started) / 1000;
  // The resolver alone, over the same phases: one pass to warm the JIT, then the median of
  // three timed passes.
  const map = scenario.variant.map;
  for (const orders of collected) resolveMovement(map, orders, DATC_RULES);
  const passes: number[] = [];
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    for (const orders of collected) resolveMovement(map, orders, DATC_RULES);
    passes.push((performance.now() - t0) / 1000);
  }
  const resolveSeconds = passes.sort((x, y) => x - y)[1]!;
  return {
    games,
    seed,
    until,
    phases,
    movementPhases,
    seconds: Number(seconds.toFixed(3)),
    phasesPerSecond: Math.round(phases / seconds),
    resolveSeconds: Number(resolveSeconds.toFixed(3)),
    adjudicatedMovementPhasesPerSecond: Math.round(collected.length / resolveSeconds),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    node: process.version,
  };
}
