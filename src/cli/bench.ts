import { resolveMovement } from "../engine/movement.ts";
import { isMovementOrder, type MovementOrder } from "../engine/orders.ts";
import { type Step, stepParsed } from "../engine/record.ts";
import { parsedSets } from "../engine/research-parsed.ts";
import { DATC_RULES } from "../engine/rules.ts";
import { selfPlayGame } from "../engine/selfplay.ts";
import type { Position } from "../engine/types.ts";
import { classicalScenarios } from "../variants/classical/scenarios.ts";

/*
 * `entente bench selfplay`: random self-play on the classical map, timed as a whole loop
 * (legal orders, a random choice per unit, the typed path into the adjudicator, the next
 * position, the scenario's rules, the invariant checks) and, separately, two scopes of one
 * movement phase: complete (orders in, results with reasons and explanations, the next
 * position, centres, the phase sequence), the same with every result's words read, and the
 * movement resolver alone. Nothing of the
 * games is kept: the scopes are timed in a second pass that replays the same games (they are
 * deterministic for the seed), each movement phase three times over, warm.
 */

export interface BenchResult {
  games: number;
  seed: number;
  until: number;
  /** How the loop gives its orders to the adjudicator (`typed`: no text). */
  path: "typed" | "text";
  phases: number;
  movementPhases: number;
  seconds: number;
  /** CPU time of this thread in the loop (on a loaded machine, closer to the true cost). */
  cpuSeconds: number;
  phasesPerSecond: number;
  phasesPerCpuSecond: number;
  completeSeconds: number;
  completeMovementPhasesPerSecond: number;
  completeMovementPhasesPerCpuSecond: number;
  /**
   * The complete movement phase with every result's reason and explanation read, as a judge
   * or the contract reads them (the words are made when first read; the scope above reads none).
   */
  completeWordedSeconds: number;
  completeWordedMovementPhasesPerSecond: number;
  completeWordedMovementPhasesPerCpuSecond: number;
  resolveSeconds: number;
  adjudicatedMovementPhasesPerSecond: number;
  adjudicatedMovementPhasesPerCpuSecond: number;
  /** Resident memory when the bench began (the runtime and the code loaded), and at peak. */
  loadedRssMB: number;
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

/** The year the benchmark's games start (the classical game's first year). */
export const benchStartYear = (): number => classicalScenarios[0]!.variant.start.phase.year;

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

export function benchSelfPlay(
  games: number,
  seed: number,
  until: number,
  path: "typed" | "text" = "typed",
): BenchResult {
  // The classical game alone is loaded: the other variants are not part of the workload.
  const scenario = classicalScenarios[0]!;
  const loadedRss = process.memoryUsage().rss;
  const rules = DATC_RULES;
  let phases = 0;
  let movementPhases = 0;
  const started = performance.now();
  const cpuStarted = cpu();
  for (let g = 0; g < games; g++) {
    const game = selfPlayGame({
      scenario,
      rules,
      seed: seed + g,
      untilYear: until,
      keepRecord: false,
      via: path,
    });
    phases += game.phases;
    movementPhases += game.movementPhases;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpu() - cpuStarted;

  // The two scopes of a movement phase, over the same phases: each timed three times
  // (warm: the loop above ran them), by the clock the median of the three totals.
  const complete = [0, 0, 0];
  const worded = [0, 0, 0];
  const resolver = [0, 0, 0];
  // The same in this process's CPU time (on a loaded machine, closer to the true cost): the
  // three runs together, so the mean of the three.
  let completeCpu = 0;
  let wordedCpu = 0;
  let resolverCpu = 0;
  // What the words add up to: read, so that no run can skip making them.
  let wordLength = 0;
  const map = scenario.variant.map;
  for (let g = 0; g < games; g++) {
    selfPlayGame({
      scenario,
      rules,
      seed: seed + g,
      untilYear: until,
      keepRecord: false,
      onPhase: (before, played, orders) => {
        if (before.position.phase.type !== "M") return;
        const input = resolverInput(before.position, played);
        // Only the clock is read inside a timed call's window: reading the CPU time is a
        // system call (1 to 2 µs, a tenth of the resolver's time), so it brackets the three
        // runs of each scope together.
        const c0 = cpu();
        for (let k = 0; k < 3; k++) {
          const t0 = performance.now();
          stepParsed(scenario, rules, seed + g, before, parsedSets(orders));
          complete[k]! += performance.now() - t0;
        }
        const c1 = cpu();
        for (let k = 0; k < 3; k++) {
          const t0 = performance.now();
          const step = stepParsed(scenario, rules, seed + g, before, parsedSets(orders));
          for (const r of step.result.results)
            wordLength += (r.reason?.length ?? 0) + r.explanation.length;
          worded[k]! += performance.now() - t0;
        }
        const c2 = cpu();
        for (let k = 0; k < 3; k++) {
          const t0 = performance.now();
          resolveMovement(map, input, rules);
          resolver[k]! += performance.now() - t0;
        }
        const c3 = cpu();
        completeCpu += (c1 - c0) * 1000;
        wordedCpu += (c2 - c1) * 1000;
        resolverCpu += (c3 - c2) * 1000;
      },
    });
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[1]! / 1000;
  const completeSeconds = median(complete);
  const wordedSeconds = median(worded);
  if (wordLength === 0) throw new Error("bench: the worded scope read no words");
  const resolveSeconds = median(resolver);
  return {
    games,
    seed,
    until,
    path,
    phases,
    movementPhases,
    seconds: Number(seconds.toFixed(3)),
    cpuSeconds: Number(cpuSeconds.toFixed(3)),
    phasesPerSecond: Math.round(phases / seconds),
    phasesPerCpuSecond: Math.round(phases / cpuSeconds),
    completeSeconds: Number(completeSeconds.toFixed(3)),
    completeMovementPhasesPerSecond: Math.round(movementPhases / completeSeconds),
    completeMovementPhasesPerCpuSecond: Math.round((3 * movementPhases) / (completeCpu / 1000)),
    completeWordedSeconds: Number(wordedSeconds.toFixed(3)),
    completeWordedMovementPhasesPerSecond: Math.round(movementPhases / wordedSeconds),
    completeWordedMovementPhasesPerCpuSecond: Math.round((3 * movementPhases) / (wordedCpu / 1000)),
    resolveSeconds: Number(resolveSeconds.toFixed(3)),
    adjudicatedMovementPhasesPerSecond: Math.round(movementPhases / resolveSeconds),
    adjudicatedMovementPhasesPerCpuSecond: Math.round((3 * movementPhases) / (resolverCpu / 1000)),
    loadedRssMB: Math.round(loadedRss / 1048576),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    node: process.version,
  };
}
