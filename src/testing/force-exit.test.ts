import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { runSync } from "./children.ts";

/*
 * The suite's runner loses no result (scripts/test-child.mjs). With `--test-force-exit`, files
 * run side by side, and a report larger than a pipe takes at once, Node's test runner could
 * drop a file's last results at its exit and still pass (nodejs/node#64833): here, without the
 * preload, 76 to 80 of these 80 results arrived in six runs; with it, 80 in every run.
 */

const CHILD = fileURLToPath(new URL("../../scripts/test-child.mjs", import.meta.url));

test("every result of every file reaches the runner when files exit as soon as they are done", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "entente-force-exit-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files: string[] = [];
  for (let f = 1; f <= 8; f++) {
    const file = join(dir, `f${f}.test.mjs`);
    // Long names make each file's report larger than the pipe's buffer.
    writeFileSync(
      file,
      `import { test } from "node:test";\nfor (let i = 1; i <= 10; i++) test(\`t\${i} ${"x".repeat(2000)}\`, () => {});\n`,
    );
    files.push(file);
  }
  // A runner of its own, not a part of this one's.
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  for (let run = 1; run <= 5; run++) {
    const r = runSync(
      process.execPath,
      [
        "--import",
        CHILD,
        "--test",
        "--test-force-exit",
        "--test-concurrency=4",
        "--test-reporter=spec",
        ...files,
      ],
      { encoding: "utf8", cwd: dir, env },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^ℹ pass 80$/m, `run ${run}: not all 80 results arrived`);
  }
});
