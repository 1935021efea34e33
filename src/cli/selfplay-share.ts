import type { RuleOptions } from "../engine/rules.ts";
import type { Scenario } from "../engine/scenario.ts";
import { selfPlayGame } from "../engine/selfplay.ts";

/*
 * The self-play loop that every thread of `entente selfplay` runs: games taken one at a time
 * from a counter shared by all threads. This module and the worker's entry
 * (selfplay-worker.ts) import the engine and the variants, nothing of the command line:
 * the worker runs them as one plain-JavaScript bundle (selfplay.ts, docs/performance.md).
 */

/** One finished game, as a thread reports it. */
export interface GameOutcome {
  index: number;
  phases: number;
  movementPhases: number;
  winner: string | null;
  problems: number;
  /** The record as one JSON line, when records are kept. */
  line: string | null;
}

/** What a worker is given: everything to rebuild the game setup in its own thread. */
export interface WorkerJob {
  variant: string;
  players: string | undefined;
  rules: RuleOptions;
  seed: number;
  until: number;
  keepRecords: boolean;
  /** The next game index to play, shared by every thread (taken with `Atomics.add`). */
  next: Int32Array;
  /** One past the last game index to play. */
  end: number;
}

/** The next game index for this thread, or -1 when none is left. */
export function takeGame(job: Pick<WorkerJob, "next" | "end">): number {
  const g = Atomics.add(job.next, 0, 1);
  return g < job.end ? g : -1;
}

/** Plays games, taking each next index from the shared counter, until none is left. */
export function playShare(
  scenario: Scenario,
  job: Omit<WorkerJob, "variant" | "players">,
  onGame: (g: GameOutcome) => void,
): void {
  for (let g = takeGame(job); g >= 0; g = takeGame(job))
    onGame(playOne(scenario, job.rules, job.seed, job.until, g, job.keepRecords));
}

/** Game `index` of the run: seed `seed + index`, whichever thread plays it. */
export function playOne(
  scenario: Scenario,
  rules: RuleOptions,
  seed: number,
  until: number,
  index: number,
  keep: boolean,
): GameOutcome {
  const game = selfPlayGame({
    scenario,
    rules,
    seed: seed + index,
    untilYear: until,
    keepRecord: keep,
  });
  return {
    index,
    phases: game.phases,
    movementPhases: game.movementPhases,
    winner: game.winner,
    problems: game.problems.length,
    line: game.record ? JSON.stringify(game.record) : null,
  };
}
