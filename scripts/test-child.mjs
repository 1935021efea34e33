// Loaded (`--import`) into the test runner and into every test file's process it starts
// (scripts/test.mjs). A test file's process reports its results to the runner over its stdout,
// a pipe; with `--test-force-exit` it exits as soon as its tests are done, and Node's test
// runner can then lose the last results still queued on the pipe, which is non-blocking on
// Linux: the runner counts fewer tests than ran and the run still passes (nodejs/node#64833,
// open in Node 20 to 26; seen here under load, 14 DATC results of test/datc.test.ts lost in one
// of five runs). On a blocking pipe a write is done when it returns, so nothing is queued
// when the process exits: the idiom Node itself uses for a terminal's stdout before exit.
const handle = /** @type {{ _handle?: { setBlocking?: (on: boolean) => unknown } }} */ (
  process.stdout
)._handle;
if (typeof handle?.setBlocking === "function") handle.setBlocking(true);

// With ENTENTE_TEST_TIMES=FILE (scripts/test.mjs sets it), each test file's process appends one
// line of JSON to FILE at its exit: the file, when it started, its wall time, and the CPU time
// of the process and of the children it waited for (servers, Chromium, PostgreSQL clients),
// from /proc/self/stat. scripts/test.mjs keeps the wall times to start the longest files first
// next time; set it yourself to keep the lines (docs/performance.md, "The test suite's time").
const times = process.env.ENTENTE_TEST_TIMES;
// Not the runner itself (its command line names every file).
const file = process.execArgv.includes("--test")
  ? undefined
  : process.argv.find((a) => a.endsWith(".test.mjs"));
if (times && file) {
  const { appendFileSync, readFileSync } = await import("node:fs");
  const { relative } = await import("node:path");
  const start = Date.now();
  process.on("exit", () => {
    // Fields 14 to 17 (utime, stime, cutime, cstime) in clock ticks (100 a second on Linux),
    // counted after the command's name, which may hold spaces.
    const stat = readFileSync("/proc/self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const tick = (i) => Number(f[i]) / 100;
    const line = {
      // The test file's own name (test/e2e/web.test.ts), not its bundle's (scripts/test.mjs).
      file: relative(process.cwd(), file)
        .replace(/^node_modules\/\.cache\/entente-tests\/run-\d+\/(\d{4}\/)?/, "")
        .replace(/\.mjs$/, ".ts"),
      start: new Date(start).toISOString(),
      wall: (Date.now() - start) / 1000,
      cpu: tick(11) + tick(12),
      children: tick(13) + tick(14),
    };
    appendFileSync(times, `${JSON.stringify(line)}\n`);
  });
}
