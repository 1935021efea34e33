import { closeSync, openSync, writeSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type AnyGameRules, GameRulesError } from "../engine/game.ts";
import { readRules } from "../engine/rules.ts";
import type { Scenario } from "../engine/scenario.ts";
import { gameRules } from "../variants/game-rules.ts";
import { gameIds, getGame, getVariant, variantIds } from "../variants/registry.ts";
import { CliError } from "./errors.ts";
import { progressBar } from "./progress.ts";
import { scenarioArg } from "./scenario-arg.ts";
import { type GameOutcome, playOne, takeGame, type WorkerJob } from "./selfplay-share.ts";
import { workerBuildOptions } from "./worker-build.mjs";
import { DEFAULT_YEARS, lastYear } from "./years.ts";

/*
 * `entente selfplay`: seeded games of random legal orders, many at once (worker threads,
 * shards of a run), written as records or counted (the research corpus and the benchmark's
 * game hash, bench/selfplay-hash.ts); the game families' self-play (playFamilyGame) beside.
 */
export interface SelfPlayArgs {
  variant: string;
  players?: string;
  games: number;
  seed: number;
  /** Game-years to play from the variant's start (default DEFAULT_YEARS), or... */
  years?: number;
  /** ...the last calendar year to play. */
  until?: number;
  rules?: string;
  out?: string;
  /** Threads playing: this one and `workers - 1` worker threads; 1 plays in this thread. */
  workers?: number;
  /**
   * `I/N`: play only the I-th of N consecutive parts of the games (game g still has seed
   * `seed + g`), so that the N parts' outputs, concatenated in order, are the whole run's.
   */
  shard?: string;
  /** Game families (global, discovery): the most turns a game is played (default 60). */
  turns?: number;
}

export { DEFAULT_YEARS, lastYear };

export interface SelfPlaySummary {
  variant: string;
  scenario: string;
  games: number;
  /** With `--shard I/N`: the part, and the game indices played (first, last + 1). */
  shard?: string;
  gameRange?: [number, number];
  /** The first and the last game-year played (the last unless a game ended sooner). */
  startYear: number;
  untilYear: number;
  workers: number;
  phases: number;
  movementPhases: number;
  seconds: number;
  phasesPerSecond: number;
  winners: Record<string, number>;
  unfinished: number;
  invariantViolations: number;
}

/** `I/N` read and checked against the number of games: the game indices of that part. */
export function shardRange(shard: string, games: number): [number, number] {
  const m = /^(\d+)\/(\d+)$/.exec(shard.trim());
  const i = m ? Number(m[1]) : Number.NaN;
  const n = m ? Number(m[2]) : Number.NaN;
  if (!m || n < 1 || i < 1 || i > n)
    throw new CliError(`--shard must be I/N with 1 <= I <= N (as 2/4), not ${shard}`);
  if (n > games) throw new CliError(`--shard ${shard}: ${games} game(s) cannot be split ${n} ways`);
  return [Math.floor(((i - 1) * games) / n), Math.floor((i * games) / n)];
}

/**
 * The worker's code: selfplay-worker.ts with the engine and the variants, bundled by esbuild
 * into one plain-JavaScript script (CommonJS, run with `eval`), from the sources as they are
 * now: nothing is cached, so a worker never runs older code than this thread. A worker then
 * needs no TypeScript loader (tsx's thread costs each worker 26 to 34 MB and its start
 * about a second of CPU). Names are not kept (tsx's `keepNames` costs the loop: see
 * docs/performance.md); a worker's stack names the bundle's lines (`[worker eval]`), and
 * the bundle marks each module's start with a comment naming its source file.
 */
export async function workerScript(): Promise<string> {
  // Run as plain JavaScript, the command line was bundled with the worker's code (plain.mjs).
  const handedOver: unknown = Reflect.get(globalThis, Symbol.for("entente.selfplayWorkerCode"));
  if (typeof handedOver === "string") return handedOver;
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    ...workerBuildOptions,
    entryPoints: [fileURLToPath(new URL("./selfplay-worker.ts", import.meta.url))],
  });
  // esbuild's service process is not needed any more (nor its memory).
  await esbuild.stop();
  // The bundle is CommonJS, where a module's URL would be empty: esbuild warns of that.
  const warning = result.warnings[0];
  if (warning) throw new Error(`bundling the self-play worker: ${warning.text}`);
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error("esbuild produced no output for src/cli/selfplay-worker.ts");
  return code;
}

/** Lets the event loop run (workers' results, the bundle arriving) between two games. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs games in this thread and `workers - 1` worker threads, all taking game indices from
 * one shared counter (a thread that finishes early takes the next game, so none waits idle).
 * This thread starts at once; the workers as soon as their code is bundled (tens of ms).
 */
async function inThreads(
  scenario: Scenario,
  job: Omit<WorkerJob, "next">,
  first: number,
  workers: number,
  onGame: (g: GameOutcome) => void,
): Promise<void> {
  const next = new Int32Array(new SharedArrayBuffer(4));
  next[0] = first;
  const shared: WorkerJob = { ...job, next };
  const started: Worker[] = [];
  const startWorkers = (code: string) =>
    Array.from(
      { length: workers - 1 },
      () =>
        new Promise<void>((resolve, reject) => {
          const w = new Worker(code, { eval: true, workerData: shared });
          started.push(w);
          w.on("message", (m: GameOutcome) => onGame(m));
          w.on("error", reject);
          w.on("exit", (status) =>
            status === 0
              ? resolve()
              : reject(new Error(`a self-play worker stopped with code ${status}`)),
          );
        }),
    );
  // The workers start when their code is ready, unless this thread has taken every game.
  const threads =
    workers === 1
      ? Promise.resolve([])
      : workerScript().then((code) =>
          Atomics.load(next, 0) < job.end ? Promise.all(startWorkers(code)) : [],
        );
  // If the bundle or a worker fails, every thread stops and the error is thrown below.
  let failed = false;
  threads.catch(() => {
    failed = true;
    for (const w of started) void w.terminate();
  });
  for (let g = takeGame(shared); g >= 0 && !failed; g = takeGame(shared)) {
    onGame(playOne(scenario, job.rules, job.seed, job.until, g, job.keepRecords));
    if (workers > 1) await turn();
  }
  await threads;
}

export async function runSelfPlay(
  a: SelfPlayArgs,
): Promise<SelfPlaySummary | FamilySelfPlaySummary> {
  const family = getGame(a.variant) ? gameRules(a.variant) : undefined;
  if (family) return runFamilySelfPlay(family, a);
  if (a.turns !== undefined)
    throw new CliError(
      `--turns is for game families (global, discovery); ${a.variant} counts game-years: --years N or --until YEAR`,
    );
  if (!getVariant(a.variant))
    throw new CliError(
      `unknown variant "${a.variant}"; known: ${[...variantIds(), ...gameIds()].join(", ")}`,
    );
  const scenario = scenarioArg(a.variant, a.players);
  const rules = readRules(a.rules, scenario.variant.rules);
  if (!rules.ok) throw new CliError(rules.error);
  if (!Number.isInteger(a.games) || a.games < 1)
    throw new CliError("--games must be a whole number of at least 1");
  const workers = a.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1 || workers > 4 * availableParallelism()) {
    throw new CliError(`--workers must be between 1 and ${4 * availableParallelism()}`);
  }
  const [first, end] = a.shard === undefined ? [0, a.games] : shardRange(a.shard, a.games);
  const startYear = scenario.variant.start.phase.year;
  const until = lastYear(startYear, a.years, a.until);
  const out = a.out ? openSync(a.out, "w") : null;
  const started = performance.now();
  const summary: SelfPlaySummary = {
    variant: a.variant,
    scenario: scenario.id,
    games: end - first,
    ...(a.shard === undefined ? {} : { shard: a.shard.trim(), gameRange: [first, end] }),
    startYear,
    untilYear: until,
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
  let nextToWrite = first;
  let done = 0;
  const progress = progressBar(end - first, "games");
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
    progress(++done);
  };
  try {
    const job = {
      variant: a.variant,
      players: a.players,
      rules: rules.rules,
      seed: a.seed,
      until,
      keepRecords: out !== null,
      end,
    };
    await inThreads(scenario, job, first, workers, onGame);
  } finally {
    if (out !== null) closeSync(out);
  }
  summary.seconds = Number(((performance.now() - started) / 1000).toFixed(3));
  summary.phasesPerSecond = Math.round(summary.phases / Math.max(summary.seconds, 1e-9));
  return summary;
}

/** Self-play of a game family (Global Diplomacy, Age of Discovery): the summary line. */
export interface FamilySelfPlaySummary {
  variant: string;
  games: number;
  turns: number;
  seconds: number;
  turnsPerSecond: number;
  /** Games won, by the winning powers (several on a tie: "3+7"). */
  winners: Record<string, number>;
  unfinished: number;
  /** Commands the adjudicator refused (random commands are meant to be legal: 0). */
  rejected: number;
  /** Positions that break the family's invariants (two units in one area), or errors. */
  invariantViolations: number;
}

/**
 * One game played to its end (or `maxTurns` phases) by random orders, through the game's
 * rules (src/engine/game.ts): every power that must order sends `random` orders (each power
 * its own seed), the phase is resolved, and the rules' invariants are checked after it. The
 * classical self-play loop (src/engine/selfplay.ts, the benchmark's hot path) stays its own.
 */
export function playFamilyGame(
  rules: AnyGameRules,
  seed: number,
  maxTurns: number,
  players?: number,
): { turns: number; winners: string[] | null; rejected: number; problems: string[] } {
  let state = rules.setup(seed, players);
  const powers = rules.powers(state).map((p) => p.id);
  const problems: string[] = [];
  let rejected = 0;
  let turns = 0;
  let winners: string[] | null = null;
  while (turns < maxTurns && winners === null) {
    const sets = new Map<string, ReturnType<typeof rules.random>>();
    // Each power its own stream (numbered from 1 in the rules' order; the rules mix in the turn).
    for (const p of rules.mustOrder(state)) {
      const n = powers.indexOf(p) + 1;
      sets.set(p, rules.random(state, p, (seed ^ Math.imul(n, 0x9e3779b1)) >>> 0));
    }
    let r: ReturnType<typeof rules.resolve>;
    try {
      r = rules.resolve(state, sets);
    } catch (e) {
      if (!(e instanceof GameRulesError)) throw e;
      problems.push(`turn ${turns + 1}: ${e.message}`);
      break;
    }
    turns++;
    rejected += r.results.filter((x) => x.outcome === "invalid").length;
    state = r.next;
    for (const p of rules.invariants(state)) problems.push(`turn ${turns}: ${p}`);
    winners = r.ended ? [...r.ended.winners] : null;
  }
  return { turns, winners, rejected, problems };
}

async function runFamilySelfPlay(
  family: AnyGameRules,
  a: SelfPlayArgs,
): Promise<FamilySelfPlaySummary> {
  if (!Number.isInteger(a.games) || a.games < 1)
    throw new CliError("--games must be a whole number of at least 1");
  // --players: how many play, where the family lets a game choose (Age of Discovery: 9-20).
  const { min, max } = family.players;
  const players = a.players === undefined ? undefined : Number(a.players);
  if (players !== undefined && !(Number.isInteger(players) && players >= min && players <= max)) {
    throw new CliError(
      min === max
        ? `${family.name} is played by ${min} players; leave out --players`
        : `--players must be a whole number from ${min} to ${max} for ${family.name}, not ${a.players}`,
    );
  }
  const unused = (
    [
      ["--rules", a.rules],
      ["--out", a.out],
      ["--shard", a.shard],
      ["--years", a.years],
      ["--until", a.until],
    ] as const
  ).find(([, v]) => v !== undefined);
  if (unused)
    throw new CliError(
      `${unused[0]} is not used by ${family.name} self-play; give --games, --seed, --turns (turns, not years), --players`,
    );
  if ((a.workers ?? 1) !== 1)
    throw new CliError(`${family.name} self-play runs in one thread: leave out --workers`);
  const maxTurns = a.turns ?? 60;
  if (!Number.isInteger(maxTurns) || maxTurns < 1)
    throw new CliError("--turns must be a whole number of at least 1");
  const progress = progressBar(a.games, "games");
  const started = performance.now();
  const summary: FamilySelfPlaySummary = {
    variant: family.id,
    games: a.games,
    turns: 0,
    seconds: 0,
    turnsPerSecond: 0,
    winners: {},
    unfinished: 0,
    rejected: 0,
    invariantViolations: 0,
  };
  for (let g = 0; g < a.games; g++) {
    const r = playFamilyGame(family, a.seed + g, maxTurns, players);
    summary.turns += r.turns;
    summary.rejected += r.rejected;
    summary.invariantViolations += r.problems.length;
    for (const p of r.problems) process.stderr.write(`game ${a.seed + g}: ${p}\n`);
    if (r.winners) {
      const k = r.winners.join("+");
      summary.winners[k] = (summary.winners[k] ?? 0) + 1;
    } else summary.unfinished++;
    progress(g + 1);
  }
  summary.seconds = Number(((performance.now() - started) / 1000).toFixed(3));
  summary.turnsPerSecond = Math.round(summary.turns / Math.max(summary.seconds, 1e-9));
  return summary;
}
