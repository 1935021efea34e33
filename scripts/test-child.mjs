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
