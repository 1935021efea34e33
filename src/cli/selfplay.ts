import { closeSync, openSync, writeSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { type RuleOptions, readRules } from "../engine/rules.ts";
import type { Scenario } from "../engine/scenario.ts";
import { selfPlayGame } from "../engine/selfplay.ts";
import { getVariant, variantIds } from "../variants/registry.ts";
import { getScenario, scenariosOf } from "../variants/scenarios.ts";
import { CliError } from "./games.ts";

export interface SelfPlayArgs {
  variant: string;
  players?: string;
  games: number;
  seed: number;
  until: number;
  rules?: string;
  out?: string;
  /** Worker threads; 1 plays in this thread. */
  workers?: number;
}

export interface SelfPlaySummary {
  variant: string;
  scenario: string;
  games: number;
  workers: number;
  phases: number;
  movementPhases: number;
  seconds: number;
  phasesPerSecond: number;
  winners: Record<string, number>;
  unfinished: number;
  invariantViolations: number;
}

/** One finished game, as a worker reports it. */
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
  /** Game indices this worker plays. */
  indices: number[];
}

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

/** A progress bar on stderr, drawn only when stderr is a terminal. */
function progress(done: number, total: number): void {
  if (!process.stderr.isTTY) return;
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(
    `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} games`,
  );
  if (done === total) process.stderr.write("\n");
}

/** Runs games in worker threads, handing each worker a share of the game indices. */
function inWorkers(
  job: Omit<WorkerJob, "indices">,
  games: number,
  workers: number,
  onGame: (g: GameOutcome) => void,
): Promise<void> {
  // A worker thread does not inherit the TypeScript loader: it registers tsx, then loads
  // the worker module.
  const url = new URL("./selfplay-worker.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(url)}); });`;
  const shares: number[][] = Array.from({ length: workers }, () => []);
  for (let g = 0; g < games; g++) shares[g % workers]!.push(g);
  return Promise.all(
    shares.map(
      (indices) =>
        new Promise<void>((resolve, reject) => {
          const w = new Worker(boot, {
            eval: true,
            workerData: { ...job, indices } satisfies WorkerJob,
          });
          w.on("message", (m: GameOutcome) => onGame(m));
          w.on("error", reject);
          w.on("exit", (code) =>
            code === 0
              ? resolve()
              : reject(new Error(`a self-play worker stopped with code ${code}`)),
          );
        }),
    ),
  ).then(() => undefined);
}

export async function runSelfPlay(a: SelfPlayArgs): Promise<SelfPlaySummary> {
  if (!getVariant(a.variant))
    throw new CliError(`unknown variant "${a.variant}"; known: ${variantIds().join(", ")}`);
  const scenario = getScenario(a.variant, a.players);
  if (!scenario) {
    throw new CliError(
      `${a.variant} has no scenario "${a.players}"; choose --players ${scenariosOf(a.variant)
        .map((s) => s.id)
        .join(", ")}`,
    );
  }
  const rules = readRules(a.rules);
  if (!rules.ok) throw new CliError(rules.error);
  if (!Number.isInteger(a.games) || a.games < 1)
    throw new CliError("--games must be a whole number of at least 1");
  const workers = a.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1 || workers > 4 * availableParallelism()) {
    throw new CliError(`--workers must be between 1 and ${4 * availableParallelism()}`);
  }
  const out = a.out ? openSync(a.out, "w") : null;
  const started = performance.now();
  const summary: SelfPlaySummary = {
    variant: a.variant,
    scenario: scenario.id,
    games: a.games,
    workers,
    phases: 0,
    movementPhases: 0,
    seconds: 0,
    phasesPerSecond: 0,
    winners: {},
    unfinished: 0,
    invariantViolations: 0,
  };
  // Records are written in game order whatever order the workers finish in.
  const waiting = new Map<number, string>();
  let nextToWrite = 0;
  let done = 0;
  const onGame = (g: GameOutcome) => {
    summary.phases += g.phases;
    summary.movementPhases += g.movementPhases;
    summary.invariantViolations += g.problems;
    if (g.winner) summary.winners[g.winner] = (summary.winners[g.winner] ?? 0) + 1;
    else summary.unfinished++;
    if (out !== null && g.line !== null) {
      waiting.set(g.index, g.line);
      for (
        let line = waiting.get(nextToWrite);
        line !== undefined;
        line = waiting.get(nextToWrite)
      ) {
        writeSync(out, `${line}\n`);
        waiting.delete(nextToWrite++);
      }
    }
    progress(++done, a.games);
  };
  try {
    if (workers === 1) {
      for (let g = 0; g < a.games; g++)
        onGame(playOne(scenario, rules.rules, a.seed, a.until, g, out !== null));
    } else {
      const job = {
        variant: a.variant,
        players: a.players,
        rules: rules.rules,
        seed: a.seed,
        until: a.until,
        keepRecords: out !== null,
      };
      await inWorkers(job, a.games, workers, onGame);
    }
  } finally {
    if (out !== null) closeSync(out);
  }
  summary.seconds = Number(((performance.now() - started) / 1000).toFixed(3));
  summary.phasesPerSecond = Math.round(summary.phases / Math.max(summary.seconds, 1e-9));
  return summary;
}
