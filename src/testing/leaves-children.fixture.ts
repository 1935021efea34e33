import { writeFileSync } from "node:fs";
import { test } from "node:test";
import { spawnServer } from "../server/process.ts";
import { runningChildren, startChild } from "./children.ts";

/*
 * Run by children.test.ts as a test file of its own (`node --test --test-force-exit`): tests
 * that fail with processes still running. The pids go to the file named by
 * ENTENTE_FIXTURE_PIDS, one a line.
 */

const out = process.env.ENTENTE_FIXTURE_PIDS!;

test("a test that fails with a child and its grandchild running", async () => {
  const c = startChild("sh", ["-c", "sleep 600 & echo $!; wait"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const grandchild = await new Promise<string>((resolve) =>
    c.proc.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())),
  );
  writeFileSync(out, `${c.proc.pid}\n${grandchild}\n`, { flag: "a" });
  throw new Error("failed on purpose, its children still running");
});

test("a server that does not start within its bound is ended", async () => {
  // ENTENTE_TEST_START_MS=1: the bound passes before it can listen.
  const before = runningChildren();
  await spawnServer({}).then(
    () => {
      throw new Error("started within 1 ms");
    },
    (e: Error) => {
      if (!/did not start/.test(e.message)) throw e;
    },
  );
  writeFileSync(out, `more running after a failed start: ${runningChildren() - before}\n`, {
    flag: "a",
  });
});
