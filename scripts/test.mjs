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
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { bundlePlugin } from "../src/cli/bundle-plugin.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const options = args.filter((a) => !a.endsWith(".test.ts"));
/**
 * The browser files (test/e2e) are the longest (a minute or more each, mostly waiting on
 * Chromium): started first, each beside another file, so that the run does not end on one
 * of them with the other cores idle, and no more than half the files running at a time are
 * Chromium's.
 */
function ordered(all) {
  const browser = all.filter((f) => f.includes("test/e2e/"));
  const rest = all.filter((f) => !f.includes("test/e2e/"));
  const out = [];
  for (let i = 0; i < Math.max(browser.length, rest.length); i++) {
    if (i < browser.length) out.push(browser[i]);
    if (i < rest.length) out.push(rest[i]);
  }
  return out;
}
const files = ordered(args.filter((a) => a.endsWith(".test.ts")));
if (files.length === 0) {
  console.error("scripts/test.mjs: no test files given (FILE.test.ts ...)");
  process.exit(2);
}

const runs = join(root, "node_modules", ".cache", "entente-tests");
const out = join(runs, `run-${process.pid}`);
rmSync(out, { recursive: true, force: true });
// A run killed outright (SIGKILL) leaves its folder: those a day old are deleted.
try {
  for (const f of readdirSync(runs)) {
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

const started = process.hrtime.bigint();
const result = await build({
  entryPoints: files.map((f) => resolve(root, f)),
  bundle: true,
  splitting: true,
  outdir: out,
  outbase: root,
  entryNames: "[dir]/[name]",
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
const bundled = files.map((f) =>
  join(out, relative(root, resolve(root, f)).replace(/\.ts$/, ".mjs")),
);
const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
console.error(`scripts/test.mjs: ${files.length} test files bundled in ${ms} ms`);

// The runner in a process group of its own is not needed: it is our child, and a signal to us
// is passed on to it; its own children are ended by the tests (src/testing/children.ts).
// scripts/test-child.mjs, loaded into every test file's process too (the runner passes its own
// options on), makes each one's report pipe blocking, so that no result is lost at its exit.
const child = new URL("./test-child.mjs", import.meta.url).href;
const runner = spawn(
  process.execPath,
  ["--enable-source-maps", "--import", child, "--test", ...options, ...bundled],
  {
    stdio: "inherit",
    cwd: root,
  },
);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => runner.kill(signal));
}
runner.on("exit", (code, signal) => {
  clean();
  process.exit(code ?? (signal ? 128 + (signal === "SIGINT" ? 2 : 15) : 1));
});
