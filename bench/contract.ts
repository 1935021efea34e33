// The public contract as a researcher drives it (issue 33):
//   node --import tsx bench/contract.ts [--lines 20000] [--distinct 20000] [--seed 1]
//        [--phases movement|all] [--rules datc] [--pings 500] [--bin bin/entente]
// Generates a corpus from seeded random self-play (bench/contract-corpus.ts: mid-game
// classical positions, 1903 to 1915, as the contract's JSON with every order as text; the
// first --distinct positions, repeated to make --lines), pipes it through
// `bin/entente adjudicate --rules datc` as fast as the command takes it, then sends --pings
// positions one at a time, each after the answer to the one before. Prints one JSON line:
// - positionsPerSecond: lines answered per second of the clock, from the first answer to the
//   last (the start-up is not counted: `startMs` says it); positionsPerCpuSecond: the same
//   over the command's CPU time (user + system, /proc/PID/stat) in that span;
// - peakRssMB: the command's peak resident memory (VmHWM) after the last answer;
// - streamedDelayMs: from a line written to its answer when the input is piped as fast as
//   the command takes it (p50, p99, max; this includes waiting behind the lines before it);
//   pingMs: one line at a time, written to answered (p50, p99, max);
// - the machine: processor, cores, load average before and after.
// docs/performance.md ("The contract") gives the figures.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { contractCorpus } from "./contract-corpus.ts";

const { values: args } = parseArgs({
  options: {
    lines: { type: "string", default: "20000" },
    distinct: { type: "string", default: "20000" },
    seed: { type: "string", default: "1" },
    phases: { type: "string", default: "movement" },
    rules: { type: "string", default: "datc" },
    pings: { type: "string", default: "500" },
    bin: { type: "string", default: fileURLToPath(new URL("../bin/entente", import.meta.url)) },
  },
});
const lines = Number(args.lines);
const distinct = Math.min(lines, Number(args.distinct));
if (!(lines > 0 && distinct > 0)) throw new Error("--lines and --distinct must be positive");
if (args.phases !== "movement" && args.phases !== "all")
  throw new Error(`--phases is movement or all, not ${args.phases}`);

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const load = () => loadavg().map((x) => round(x, 2));

function processor(): string {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    if (m) return m[1]!.trim();
  } catch {}
  return cpus()[0]?.model ?? "unknown";
}

/** The child's CPU time so far (user + system), in seconds. */
function cpuSeconds(child: ChildProcess): number {
  const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
  // The fields after the command name in parentheses; utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function peakMB(child: ChildProcess): number {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
  return m ? round(Number(m[1]) / 1024) : Number.NaN;
}

function percentiles(ms: number[]) {
  const s = Float64Array.from(ms).sort();
  const at = (q: number) => round(s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0, 2);
  return { p50: at(0.5), p99: at(0.99), max: round(s[s.length - 1] ?? 0, 2) };
}

const loadBefore = load();
const t0 = performance.now();
const corpus = [
  ...contractCorpus({ lines: distinct, seed: Number(args.seed), phases: args.phases }),
];
const generateMs = performance.now() - t0;
const inputBytes = corpus.reduce((n, l) => n + l.length + 1, 0) * (lines / distinct);

const started = performance.now();
const child = spawn(args.bin, ["adjudicate", "--rules", args.rules], {
  stdio: ["pipe", "pipe", "inherit"],
});
child.stdout!.setEncoding("utf8");
/** When each line was written, and when its answer came. */
const written = new Float64Array(lines + Number(args.pings));
const answered = new Float64Array(lines + Number(args.pings));
let count = 0;
let errors = 0;
let outputBytes = 0;
let carry = "";
let onAnswer: (() => void) | null = null;
let firstAnswerCpu = 0;
child.stdout!.on("data", (d: string) => {
  const now = performance.now();
  outputBytes += d.length;
  let start = 0;
  for (let nl = d.indexOf("\n"); nl >= 0; nl = d.indexOf("\n", start)) {
    const line = carry + d.slice(start, nl);
    carry = "";
    if (line.startsWith('{"error"')) errors++;
    if (count === 0) firstAnswerCpu = cpuSeconds(child);
    answered[count++] = now;
    start = nl + 1;
  }
  carry += d.slice(start);
  onAnswer?.();
});
const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
const until = (n: number) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (count >= n) {
        onAnswer = null;
        resolve();
      }
    };
    onAnswer = check;
    check();
  });

// As fast as the command takes it: written in batches of 64 lines, waiting for the pipe.
const stdin = child.stdin!;
for (let i = 0; i < lines; ) {
  let batch = "";
  const end = Math.min(lines, i + 64);
  const now = performance.now();
  for (; i < end; i++) {
    batch += `${corpus[i % distinct]}\n`;
    written[i] = now;
  }
  if (!stdin.write(batch)) await new Promise<void>((resolve) => stdin.once("drain", resolve));
}
await until(lines);
const lastAnswerCpu = cpuSeconds(child);
const streamMs = answered[lines - 1]! - answered[0]!;
const delays: number[] = [];
for (let i = 0; i < lines; i++) delays.push(answered[i]! - written[i]!);

// One at a time.
const pings: number[] = [];
for (let k = 0; k < Number(args.pings); k++) {
  const i = lines + k;
  written[i] = performance.now();
  stdin.write(`${corpus[k % distinct]}\n`);
  await until(i + 1);
  pings.push(answered[i]! - written[i]!);
}
const peakRssMB = peakMB(child);
stdin.end();
const status = await exited;

console.log(
  JSON.stringify({
    lines,
    distinct,
    phases: args.phases,
    rules: args.rules,
    status,
    errors,
    positionsPerSecond: Math.round((lines - 1) / (streamMs / 1000)),
    positionsPerCpuSecond: Math.round((lines - 1) / (lastAnswerCpu - firstAnswerCpu)),
    peakRssMB,
    startMs: round(answered[0]! - started),
    streamedDelayMs: percentiles(delays),
    pingMs: percentiles(pings),
    inputMB: round(inputBytes / 1e6),
    outputMB: round(outputBytes / 1e6),
    generateMs: Math.round(generateMs),
    node: process.version,
    cpu: processor(),
    cores: cpus().length,
    loadAverage: { before: loadBefore, after: load() },
  }),
);
