// The load bench's measures (bench/load.ts): latency percentiles, a process's CPU time and
// memory from /proc, and how much a series rose over a run (a soak's memory and latency).
import { readFileSync } from "node:fs";

export interface Percentiles {
  readonly count: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

export function percentiles(values: readonly number[]): Percentiles {
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) =>
    sorted.length === 0
      ? 0
      : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: sorted.length,
    p50: round(at(50)),
    p95: round(at(95)),
    p99: round(at(99)),
    max: round(sorted.at(-1) ?? 0),
    mean: round(sum / Math.max(1, sorted.length)),
  };
}

export const round = (x: number) => Math.round(x * 10) / 10;

/** A process's CPU time so far (user + system, ms) and resident memory (MB), from /proc. */
export function processStats(pid: number | undefined): { cpuMs: number; rssMB: number } | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const rss = /VmRSS:\s+(\d+) kB/.exec(status);
    return {
      cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100, // USER_HZ is 100
      rssMB: rss ? round(Number(rss[1]) / 1024) : 0,
    };
  } catch {
    return null; // not Linux, or gone
  }
}

/**
 * Whether a series stays flat: the least-squares line through it, from the second sample on
 * (the first is the warm-up), may rise over the run by at most `tolerance` of its mean.
 */
export function rise(values: readonly number[]): { rise: number; mean: number } {
  const ys = values.slice(1);
  const n = ys.length;
  if (n < 2) return { rise: 0, mean: ys[0] ?? 0 };
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  return { rise: (num / den) * (n - 1), mean: my };
}
