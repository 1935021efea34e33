import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { runChild } from "../src/testing/children.ts";

/*
 * The judge benchmark (bench/judge.ts) still runs: a one-second, low-rate pass and a few
 * phases, checking that it exits 0 and prints its JSON line. It checks no figure: a
 * benchmark is not a timed test (docs/performance.md has the figures).
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

test("bench/judge.ts --seconds 1 --rate 50 exits 0 and prints its JSON line", async () => {
  // Its own process group: ended with the server it starts should the bound pass.
  const { status, stdout, stderr } = await runChild(
    process.execPath,
    ["--import", "tsx", "bench/judge.ts", "--seconds", "1", "--rate", "50", "--phases", "20"],
    { cwd: ROOT, timeoutMs: 300_000, env: { ...process.env, DATABASE_URL: "" } },
  );
  assert.equal(status, 0, stderr);
  const out = JSON.parse(stdout.trim().split("\n").pop()!);
  for (const key of ["node", "cpu", "cores", "loadAverage", "orders", "adjudicate", "targets"]) {
    assert.ok(key in out, `no "${key}" in ${stdout}`);
  }
  assert.equal(out.orders.errors, 0);
  assert.equal(out.orders.non2xx, 0);
  assert.ok(out.orders.requests > 0);
  for (const key of ["p50", "p90", "p99", "max"]) {
    assert.equal(typeof out.orders.latencyMs[key], "number", `orders.latencyMs.${key}`);
  }
  assert.equal(out.adjudicate.phases, 20);
  for (const key of ["p50", "p99", "max"]) {
    assert.equal(
      typeof out.adjudicate.sevenPowerMovementMs[key],
      "number",
      `adjudicate.sevenPowerMovementMs.${key}`,
    );
  }
});
