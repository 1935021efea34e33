import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/*
 * The contract benchmark (bench/contract.ts) still runs: a few hundred positions through
 * `bin/entente adjudicate`, checking that every one is answered and the figures are printed.
 * It checks no figure: a benchmark is not a timed test (docs/performance.md has them).
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

test("bench/contract.ts --lines 300 --distinct 100 --pings 5 answers every line and reports", async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      "--import",
      "tsx",
      "bench/contract.ts",
      ...["--lines", "300", "--distinct", "100", "--pings", "5"],
    ],
    { cwd: ROOT, timeout: 120_000 },
  );
  const out = JSON.parse(stdout.trim().split("\n").pop()!);
  assert.equal(out.status, 0, "exit 0");
  assert.equal(out.errors, 0, "no error lines");
  assert.equal(out.lines, 300);
  for (const key of ["positionsPerSecond", "positionsPerCpuSecond", "peakRssMB", "startMs"])
    assert.equal(typeof out[key], "number", key);
  for (const key of ["p50", "p99", "max"]) {
    assert.equal(typeof out.streamedDelayMs[key], "number", `streamedDelayMs.${key}`);
    assert.equal(typeof out.pingMs[key], "number", `pingMs.${key}`);
  }
  for (const key of ["node", "cpu", "cores", "loadAverage"]) assert.ok(key in out, key);
});
