import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { runChild, startChild } from "./children.ts";

/*
 * Processes started by tests end with them (docs/reliability.md, "The test suite"): a child's
 * whole process group is ended; a test file that fails with children running still exits, and
 * takes them with it; a server that does not start within its bound is ended.
 */

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls (bounded) until `pid` is gone. */
async function gone(pid: number, ms = 30_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

test("end() ends the child and what it started, by its process group", async () => {
  const c = startChild("sh", ["-c", "sleep 600 & echo $!; wait"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const grandchild = Number(
    await new Promise<string>((resolve) =>
      c.proc.stdout!.once("data", (d: Buffer) => resolve(d.toString())),
    ),
  );
  assert.ok(alive(grandchild), "the grandchild runs");
  const exit = await c.end(5_000, 10_000);
  assert.ok(exit, "the child exited");
  assert.ok(await gone(grandchild), "and so did the grandchild");
});

test("a child that ignores SIGTERM is killed after the grace period", async () => {
  const c = startChild("sh", ["-c", "trap '' TERM; echo ready; while :; do sleep 1; done"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  await new Promise((resolve) => c.proc.stdout!.once("data", resolve));
  const exit = await c.end(200, 10_000);
  assert.equal(exit?.signal, "SIGKILL");
});

test("runChild bounds a command: past the bound it is ended and the answer says so", async () => {
  const ok = await runChild("sh", ["-c", "cat; echo done >&2"], { input: "in\n" });
  assert.deepEqual([ok.status, ok.stdout, ok.stderr], [0, "in\n", "done\n"]);
  await assert.rejects(
    runChild("sh", ["-c", "sleep 600"], { timeoutMs: 200 }),
    /did not end within 200 ms/,
  );
});

test("a test file that fails with children running exits, and its children with it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "entente-children-"));
  try {
    const pids = join(dir, "pids");
    const fixture = fileURLToPath(new URL("./leaves-children.fixture.ts", import.meta.url));
    // A runner of its own, not a part of this one's.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ENTENTE_FIXTURE_PIDS: pids,
      ENTENTE_TEST_START_MS: "1",
    };
    delete env.NODE_TEST_CONTEXT;
    const run = await runChild(
      process.execPath,
      ["--import", "tsx", "--test", "--test-force-exit", "--test-reporter=tap", fixture],
      {
        env,
        timeoutMs: 120_000,
      },
    );
    assert.equal(run.status, 1, "the runner reports the failure");
    assert.match(run.stdout, /# pass 1\n# fail 1\n/, run.stdout);
    const lines = readFileSync(pids, "utf8").trim().split("\n");
    const [child, grandchild] = lines.slice(0, 2).map(Number) as [number, number];
    assert.ok(await gone(child), "the child is gone");
    assert.ok(await gone(grandchild), "the grandchild is gone");
    assert.equal(lines[2], "more running after a failed start: 0", "the server that did not start");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
