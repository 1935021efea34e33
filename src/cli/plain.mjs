// `bin/entente`'s commands run as plain JavaScript, without tsx. esbuild bundles main.ts from
// the sources as they are now; Node then runs the bundle. Each module a command imports when it
// runs (program.ts's actions, and any other `import()`) is a chunk of its own, with the packages
// it uses: a command loads its own code and packages, not every command's (`adjudicate` does
// not load fastify and the mail libraries: 0.6 s of a 1.3 s start went to them). The bundle is
// kept between starts (node_modules/.cache/entente-plain) with the list of its source files and
// a hash of each: a start whose sources all hash as listed runs the kept bundle (some 30 ms to
// check, instead of 1.6 to 1.8 s of CPU to bundle), any other start bundles again, so a kept
// bundle is never older than the sources. Self-play holds no TypeScript loader thread (26 to
// 34 MB, docs/performance.md, "Workers"); the server starts in a fraction of the time (tsx's
// loader compiled and handed over its few hundred modules one by one: about 4 s of CPU,
// docs/performance.md, "Restart"). Plain JavaScript, because it runs before any loader.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, version as esbuildVersion, stop } from "esbuild";
import { sha256, writeWhole } from "../render/whole-file.mjs";
import { bundlePlugin } from "./bundle-plugin.mjs";
import { workerBuildOptions } from "./worker-build.mjs";

/** The project's root (src/cli/../..). */
const root = fileURLToPath(new URL("../..", import.meta.url));
const main = fileURLToPath(new URL("./main.ts", import.meta.url));
/** Self-play's worker code is bundled only for the commands that start such workers. */
const selfplayWorkers = process.argv[2] === "selfplay" || process.argv[2] === "bench";

/**
 * The self-play worker's code (selfplay-worker.ts, CommonJS for `new Worker(code, { eval })`),
 * bundled in the same esbuild run as the command line and handed to it under this symbol, so
 * that `selfplay --workers N` starts its workers at once instead of bundling them again
 * (selfplay.ts's `workerScript`).
 */
const WORKER_CODE = 'Symbol.for("entente.selfplayWorkerCode")';

async function workerBundle() {
  const result = await build({
    ...workerBuildOptions,
    entryPoints: [fileURLToPath(new URL("./selfplay-worker.ts", import.meta.url))],
    metafile: true,
    absWorkingDir: root,
  });
  const code = result.outputFiles[0]?.text;
  // The bundle is CommonJS, where a module's URL would be empty: esbuild warns of that.
  if (!code || result.warnings.length > 0)
    throw new Error(
      `bundling src/cli/selfplay-worker.ts: ${result.warnings[0]?.text ?? "no output"}`,
    );
  return { code, inputs: Object.keys(result.metafile.inputs) };
}

/**
 * Where kept bundles live: ENTENTE_PLAIN_CACHE if set (tests), else node_modules/.cache
 * (the usual place for a package's build caches; `npm ci` starts it afresh).
 */
const cacheDir =
  process.env.ENTENTE_PLAIN_CACHE ?? join(root, "node_modules", ".cache", "entente-plain");

/**
 * What a kept bundle depends on besides its sources: the checkout's place (the bundle names
 * files by path), esbuild's version, the installed packages (the lock file: the bundle imports
 * them by the paths they had), whether the self-play worker is in it, and this bundler's own
 * code.
 */
function cacheKey() {
  let lock = "";
  try {
    lock = readFileSync(join(root, "package-lock.json"), "utf8");
  } catch {
    // No lock file: the key is the rest.
  }
  // This file and its plugin decide what a bundle holds: a change to either bundles again.
  const code = ["./plain.mjs", "./bundle-plugin.mjs"].map((f) =>
    sha256(readFileSync(new URL(f, import.meta.url))),
  );
  return sha256(
    JSON.stringify({ root, esbuild: esbuildVersion, lock: sha256(lock), selfplayWorkers, code }),
  ).slice(0, 24);
}

/**
 * A kept bundle's first lines: comments holding the hashes of the sources it was made from
 * and the chunks it imports (in the bundle's own file, so that the bundle and its lists are
 * written as one).
 */
const SOURCES = "// entente-plain sources: ";
const CHUNKS = "// entente-plain chunks: ";
/** Where chunks are kept, below the cache: each named by its content's hash, shared by bundles. */
const CHUNK_DIR = "chunks";
/** A chunk no kept bundle names is deleted, when a bundle is kept, a day after it was written. */
const CHUNK_LIFE_MS = 86_400_000;

/**
 * Each source's modification time and size, as kept beside its hash: a source whose time and
 * size are as they were is not read again (one `stat` instead of reading and hashing it: some
 * 200 files at every start); one whose time or size changed is hashed, and the bundle is made
 * again only if the hash differs too (a file touched but not changed keeps the bundle).
 */
const STATS = "// entente-plain stats: ";
const statOf = (path) => {
  const s = statSync(path);
  return `${s.mtimeMs} ${s.size}`;
};

/** The lists in a bundle's first lines (sources, chunks, stats), or null if it has none. */
function listsOf(text) {
  if (!text.startsWith(SOURCES)) return null;
  const first = text.indexOf("\n");
  const second = text.indexOf("\n", first + 1);
  const chunkLine = text.slice(first + 1, second);
  if (!chunkLine.startsWith(CHUNKS)) return null;
  const statLine = text.slice(second + 1, text.indexOf("\n", second + 1));
  return {
    sources: JSON.parse(text.slice(SOURCES.length, first)),
    chunks: JSON.parse(chunkLine.slice(CHUNKS.length)),
    stats: statLine.startsWith(STATS) ? JSON.parse(statLine.slice(STATS.length)) : {},
  };
}

/**
 * The kept bundle's path if every source it was made from is as it was then (its time and
 * size, else its hash) and every chunk it imports is there, else null.
 */
function keptBundle(key) {
  try {
    const file = join(cacheDir, `${key}.mjs`);
    const lists = listsOf(readFileSync(file, "utf8"));
    if (lists === null) return null;
    for (const [source, hash] of Object.entries(lists.sources)) {
      const path = resolve(root, source);
      if (lists.stats[source] === statOf(path)) continue;
      if (sha256(readFileSync(path)) !== hash) return null;
    }
    for (const chunk of lists.chunks) if (!existsSync(join(cacheDir, chunk))) return null;
    return file;
  } catch {
    // None kept, unreadable, or a source gone: bundle again.
    return null;
  }
}

/**
 * Keeps a new bundle: its chunks first (a chunk's name is its content's hash, so a chunk already
 * there is this one and is left alone: a running command may be about to import it), then the
 * entry with the hashes of its sources (as esbuild's metafile lists them) and its chunks' names.
 * A cache that cannot be written (a read-only checkout) only means that the next start bundles
 * too.
 */
function keep(key, entry, chunks, inputs) {
  try {
    mkdirSync(join(cacheDir, CHUNK_DIR), { recursive: true });
    for (const [name, text] of chunks) {
      const file = join(cacheDir, name);
      if (!existsSync(file)) writeWhole(file, text);
    }
    const hashes = {};
    const stats = {};
    for (const source of inputs) {
      const path = resolve(root, source);
      // The time first: a source changed while it is hashed is hashed again at the next start.
      stats[source] = statOf(path);
      hashes[source] = sha256(readFileSync(path));
    }
    const names = JSON.stringify(chunks.map(([name]) => name));
    const file = join(cacheDir, `${key}.mjs`);
    writeWhole(
      file,
      `${SOURCES}${JSON.stringify(hashes)}\n${CHUNKS}${names}\n${STATS}${JSON.stringify(stats)}\n${entry}`,
    );
  } catch {
    return null;
  }
  prune();
  return join(cacheDir, `${key}.mjs`);
}

/**
 * Deletes the chunks no kept bundle names once they are a day old: changed sources leave chunks
 * behind. Not at once, because a command started from an older bundle may still import its
 * chunks as it runs (a server loads a module on the first request that needs it).
 */
function prune() {
  try {
    const named = new Set();
    for (const f of readdirSync(cacheDir)) {
      if (!f.endsWith(".mjs")) continue;
      for (const chunk of listsOf(readFileSync(join(cacheDir, f), "utf8"))?.chunks ?? []) {
        named.add(chunk);
      }
    }
    const old = Date.now() - CHUNK_LIFE_MS;
    for (const f of readdirSync(join(cacheDir, CHUNK_DIR))) {
      const file = join(cacheDir, CHUNK_DIR, f);
      if (!named.has(`${CHUNK_DIR}/${f}`) && statSync(file).mtimeMs < old) rmSync(file);
    }
  } catch {
    // Another start is writing or pruning: what is left is pruned next time.
  }
}

/** The bundle to run: the kept one if its sources are unchanged, else a new one. */
async function bundle() {
  const key = cacheKey();
  const kept = keptBundle(key);
  if (kept) return kept;
  return fresh(key);
}

/** Where esbuild names its output (it writes nothing: `write: false`). */
const OUT = join(root, "node_modules", ".cache", "entente-plain-out");
const ENTRY = join(OUT, "main.mjs");

/** Bundles the sources now: kept for the next start, or written to a temporary directory. */
async function fresh(key) {
  const [result, worker] = await Promise.all([
    mainBundle(),
    selfplayWorkers ? workerBundle() : Promise.resolve(null),
  ]);
  // esbuild's service process is not needed any more (nor its memory).
  await stop();
  const entry = result.outputFiles.find((f) => f.path === ENTRY)?.text;
  if (!entry || result.warnings.length > 0)
    throw new Error(`bundling src/cli/main.ts: ${result.warnings[0]?.text ?? "no output"}`);
  const chunks = result.outputFiles
    .filter((f) => f.path !== ENTRY)
    .map((f) => [relative(OUT, f.path).split("\\").join("/"), f.text]);
  // The worker's code is a statement before the command line's.
  const handOver =
    worker === null ? "" : `globalThis[${WORKER_CODE}] = ${JSON.stringify(worker.code)};`;
  const inputs = [
    ...Object.keys(result.metafile.inputs),
    ...(worker === null ? [] : worker.inputs),
  ].filter((f) => !f.includes(":"));
  const kept = keep(key, `${handOver}\n${entry}`, chunks, inputs);
  if (kept) return kept;
  // Node runs a module from a file (a `data:` URL would name itself, all of it, in every
  // stack trace): written to a temporary directory, removed when the command ends.
  const dir = mkdtempSync(join(tmpdir(), "entente-plain-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of chunks) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  writeFileSync(join(dir, "main.mjs"), `${handOver}\n${entry}`);
  return join(dir, "main.mjs");
}

function mainBundle() {
  return build({
    entryPoints: [main],
    bundle: true,
    // Every module loaded by `import()` is a chunk of its own, read when it is imported.
    splitting: true,
    outdir: OUT,
    entryNames: "main",
    chunkNames: `${CHUNK_DIR}/[name]-[hash]`,
    outExtension: { ".js": ".mjs" },
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    metafile: true,
    absWorkingDir: root,
    logLevel: "silent",
    plugins: [bundlePlugin("entente-plain")],
  });
}

// main.ts runs the command.
await import(pathToFileURL(await bundle()).href);
