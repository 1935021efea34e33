import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/*
 * Each thread's CPU time in a command (Linux): `node --import tsx bench/threads.ts
 * bin/entente selfplay --games 200 --seed 12345 --workers 2`. Polls /proc/PID/task/TID/stat
 * until the command ends and prints one JSON line: the wall time, the process's CPU time
 * and peak resident memory, this thread's (the command's main thread) and every other
 * thread's CPU seconds (largest first: a worker, then V8's platform threads, which compile
 * and collect garbage), and the command's own last output line. docs/performance.md,
 * "Workers".
 */

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write("usage: node --import tsx bench/threads.ts COMMAND [ARGS...]\n");
  process.exit(2);
}
const tick = 100; // USER_HZ: clock ticks per second in /proc (100 on Linux)
/** utime + stime of a /proc stat line, in seconds (fields 14 and 15). */
const cpuOf = (stat: string): number => {
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / tick;
};
const started = performance.now();
const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
let out = "";
child.stdout.setEncoding("utf8").on("data", (s: string) => {
  out += s;
});
const threads = new Map<number, number>();
let processCpu = 0;
let peakKB = 0;
const poll = () => {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      try {
        threads.set(Number(t), cpuOf(readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8")));
      } catch {
        // the thread ended between the listing and the read
      }
    }
    processCpu = cpuOf(readFileSync(`/proc/${pid}/stat`, "utf8"));
    const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    if (hwm) peakKB = Number(hwm[1]);
  } catch {
    // the process is ending
  }
};
const timer = setInterval(poll, 20);
child.on("exit", (code) => {
  clearInterval(timer);
  const wall = (performance.now() - started) / 1000;
  const main = threads.get(child.pid ?? -1) ?? 0;
  const others = [...threads].filter(([t]) => t !== child.pid).map(([, c]) => c);
  others.sort((a, b) => b - a);
  const last = out.trim().split("\n").at(-1) ?? "";
  process.stdout.write(
    `${JSON.stringify({
      exit: code,
      wallSeconds: Number(wall.toFixed(2)),
      processCpuSeconds: processCpu,
      peakRssMB: Math.round(peakKB / 1024),
      mainThreadCpuSeconds: main,
      otherThreadsCpuSeconds: others.filter((c) => c > 0),
      output: last.startsWith("{") ? JSON.parse(last) : last,
    })}\n`,
  );
});
