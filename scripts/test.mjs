// Runs test files with Node's test runner as plain JavaScript: esbuild bundles the given
// `*.test.ts` files together (each an entry, the modules they share in chunks), then
// `node --test` runs the bundles. Loading a test file through tsx cost about 1.5 s of CPU a
// process (its loader hands each of a few hundred modules over one by one, and every package
// import passes through its hooks): some 200 s of the suite's CPU on 150 files
// (docs/performance.md, "The test suite's time"). The bundles are made afresh each run, in a
// folder of their own that is deleted when the run ends, so they are never older than the
// sources; stack traces name the TypeScript sources (source maps).
//
//   node scripts/test.mjs [node --test options ...] FILE.test.ts ...
//
// Options are passed to `node --test` as they are; the exit status is the runner's. Plain
// JavaScript, because it runs before any TypeScript loader. A file run alone can still be run
// through tsx (`node --import tsx --test FILE`): the tests do not depend on how they are loaded.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { bundlePlugin } from "../src/cli/bundle-plugin.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const options = args.filter((a) => !a.endsWith(".test.ts"));
const runs = join(root, "node_modules", ".cache", "entente-tests");
/** Each file's wall time in the last run that ran it (seconds), kept in the cache. */
const timesFile = join(runs, "times.json");
/** @type {Record<string, number>} */
let known = {};
try {
  known = JSON.parse(readFileSync(timesFile, "utf8"));
} catch {
  // No run yet on this checkout (a fresh clone): the order below falls back on the folders.
}
/**
 * The order the files start in: the longest first, so that the run does not end on a long
 * file with the other workers idle. Node's runner starts the files in the order of their
 * names, so each bundle's path begins with its place (0001/...). A file's length is its wall
 * time in the last run that ran it; files never timed here come first, the browser files
 * (test/e2e, the longest) each beside another file, so that no more than half the files
 * running at a time are Chromium's.
 */
function ordered(all) {
  const timed = all.filter((f) => known[f] !== undefined);
  const fresh = all.filter((f) => known[f] === undefined);
  const browser = fresh.filter((f) => f.includes("test/e2e/"));
  const rest = fresh.filter((f) => !f.includes("test/e2e/"));
  const out = [];
  for (let i = 0; i < Math.max(browser.length, rest.length); i++) {
    if (i < browser.length) out.push(browser[i]);
    if (i < rest.length) out.push(rest[i]);
  }
  return [...out, ...timed.sort((a, b) => known[b] - known[a])];
}
const files = ordered(
  args.filter((a) => a.endsWith(".test.ts")).map((f) => relative(root, resolve(root, f))),
);
if (files.length === 0) {
  console.error("scripts/test.mjs: no test files given (FILE.test.ts ...)");
  process.exit(2);
}

const out = join(runs, `run-${process.pid}`);
rmSync(out, { recursive: true, force: true });
// A run killed outright (SIGKILL) leaves its folder: those a day old are deleted.
try {
  for (const f of readdirSync(runs)) {
    if (!f.startsWith("run-")) continue;
    const dir = join(runs, f);
    if (statSync(dir).mtimeMs < Date.now() - 86_400_000)
      rmSync(dir, { recursive: true, force: true });
  }
} catch {
  // None yet.
}
mkdirSync(out, { recursive: true });
const clean = () => rmSync(out, { recursive: true, force: true });
process.on("exit", clean);

// Each bundle at its place in the order: 0001/test/e2e/web.test.mjs, ... (no extension here).
const placed = files.map((f, i) => join(String(i + 1).padStart(4, "0"), f.replace(/\.ts$/, "")));
const started = process.hrtime.bigint();
const result = await build({
  entryPoints: files.map((f, i) => ({ in: resolve(root, f), out: placed[i] })),
  bundle: true,
  splitting: true,
  outdir: out,
  chunkNames: "chunks/[name]-[hash]",
  outExtension: { ".js": ".mjs" },
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  sourcesContent: false,
  write: true,
  metafile: true,
  absWorkingDir: root,
  logLevel: "error",
  plugins: [bundlePlugin("entente-tests")],
}).catch(() => null);
if (result === null || result.errors.length > 0) {
  console.error("scripts/test.mjs: bundling the test files failed (the errors above)");
  process.exit(1);
}
const bundled = placed.map((p) => join(out, `${p}.mjs`));
const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
console.error(`scripts/test.mjs: ${files.length} test files bundled in ${ms} ms`);

// The runner in a process group of its own is not needed: it is our child, and a signal to us
// is passed on to it; its own children are ended by the tests (src/testing/children.ts).
// scripts/test-child.mjs, loaded into every test file's process too (the runner passes its own
// options on), makes each one's report pipe blocking, so that no result is lost at its exit.
const child = new URL("./test-child.mjs", import.meta.url).href;
// Each file's process notes its wall time (scripts/test-child.mjs), for the next run's order.
const times = process.env.ENTENTE_TEST_TIMES ?? join(out, "times.jsonl");
const runner = spawn(
  process.execPath,
  ["--enable-source-maps", "--import", child, "--test", ...options, ...bundled],
  {
    stdio: "inherit",
    cwd: root,
    env: { ...process.env, ENTENTE_TEST_TIMES: times },
  },
);
/** The files' times of this run, kept for the next (`ordered`). */
function keepTimes() {
  try {
    const now = {};
    for (const line of readFileSync(times, "utf8").split("\n")) {
      if (!line) continue;
      const t = JSON.parse(line);
      if (files.includes(t.file)) now[t.file] = Math.max(now[t.file] ?? 0, t.wall);
    }
    writeFileSync(timesFile, `${JSON.stringify({ ...known, ...now }, null, 1)}\n`);
  } catch {
    // No times (the run was stopped before any file ended): the order stays as it was.
  }
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => runner.kill(signal));
}
runner.on("exit", (code, signal) => {
  keepTimes();
  clean();
  process.exit(code ?? (signal ? 128 + (signal === "SIGINT" ? 2 : 15) : 1));
});
