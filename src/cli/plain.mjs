// `bin/entente selfplay`, `bench`, `serve`, `adjudicate` and `agent`: the command line run as
// plain JavaScript, without tsx. esbuild bundles main.ts from the sources as they are now, with
// the code these commands load; Node then runs the bundle. The bundle is kept between starts
// (node_modules/.cache/entente-plain) beside the list of its source files and a hash of each:
// a start whose sources all hash as listed runs the kept bundle (some 30 ms to check, instead
// of 1.6 to 1.8 s of CPU to bundle), any other start bundles again, so a kept bundle is never
// older than the sources. Self-play holds no TypeScript loader thread (26 to
// 34 MB, docs/performance.md, "Workers"); the server starts in a fraction of the time (tsx's
// loader compiled and handed over its few hundred modules one by one: about 4 s of CPU,
// docs/performance.md, "Restart"). Plain JavaScript, because it runs before any loader.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, version as esbuildVersion, stop } from "esbuild";

/** The project's root (src/cli/../..). */
const root = fileURLToPath(new URL("../..", import.meta.url));
const main = fileURLToPath(new URL("./main.ts", import.meta.url));
const program = fileURLToPath(new URL("./program.ts", import.meta.url));
/**
 * The modules each command served here imports when it runs (program.ts's actions). A bundle
 * holds those of the command it is made for and no other's, so that `adjudicate` does not load
 * the server's and the mail gateway's packages (fastify, the mail libraries: some 0.6 s of a
 * start's 1.3 s of CPU went to loading them); each command's bundle is kept apart.
 */
const commands = {
  selfplay: ["./selfplay.ts"],
  bench: ["./bench.ts", "./bench-bots.ts"],
  serve: ["./serve.ts"],
  adjudicate: ["./adjudicate.ts"],
  agent: ["./agent.ts"],
};
const command = Object.hasOwn(commands, process.argv[2]) ? process.argv[2] : "";
const served = new Set(commands[command] ?? []);
/** Self-play's worker code is bundled only for the commands that start such workers. */
const selfplayWorkers = command === "selfplay" || command === "bench";

/** The bundle's first statements: its directory removed (imports are hoisted, so it is read). */
const removeDir = [
  'import { rmSync as entente_rmSync } from "node:fs";',
  'entente_rmSync(new URL(".", import.meta.url), { recursive: true, force: true });',
].join("\n");

/**
 * The self-play worker's code (selfplay-worker.ts, CommonJS for `new Worker(code, { eval })`),
 * bundled in the same esbuild run as the command line and handed to it under this symbol, so
 * that `selfplay --workers N` starts its workers at once instead of bundling them again
 * (selfplay.ts's `workerScript`).
 */
const WORKER_CODE = 'Symbol.for("entente.selfplayWorkerCode")';

async function workerBundle() {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("./selfplay-worker.ts", import.meta.url))],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    write: false,
    metafile: true,
    absWorkingDir: root,
    logLevel: "silent",
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

const sha256 = (data) => createHash("sha256").update(data).digest("hex");

/**
 * What a kept bundle depends on besides its sources: the checkout's place (the bundle names
 * files by path), esbuild's version, the installed packages (the lock file: the bundle imports
 * them by the paths they had), the command it is for and whether the self-play worker is in it.
 */
function cacheKey() {
  let lock = "";
  try {
    lock = readFileSync(join(root, "package-lock.json"), "utf8");
  } catch {
    // No lock file: the key is the rest.
  }
  return sha256(
    JSON.stringify({ root, esbuild: esbuildVersion, lock: sha256(lock), command }),
  ).slice(0, 24);
}

/**
 * A kept bundle's first line: a comment holding the hashes of the sources it was made from
 * (in the bundle's own file, so that the bundle and its hashes are written as one).
 */
const SOURCES = "// entente-plain sources: ";

/** The kept bundle's path if every source it was made from hashes as it did then, else null. */
function keptBundle(key) {
  try {
    const file = join(cacheDir, `${key}.mjs`);
    const text = readFileSync(file, "utf8");
    if (!text.startsWith(SOURCES)) return null;
    const inputs = JSON.parse(text.slice(SOURCES.length, text.indexOf("\n")));
    for (const [source, hash] of Object.entries(inputs)) {
      if (sha256(readFileSync(resolve(root, source))) !== hash) return null;
    }
    return file;
  } catch {
    // None kept, unreadable, or a source gone: bundle again.
    return null;
  }
}

/**
 * Keeps a new bundle with the hashes of its sources (as esbuild's metafile lists them), whole
 * or not at all (another start may be reading or writing it); a cache that cannot be written
 * (a read-only checkout) only means that the next start bundles too.
 */
function keep(key, code, inputs) {
  try {
    mkdirSync(cacheDir, { recursive: true });
    const hashes = {};
    for (const source of inputs) hashes[source] = sha256(readFileSync(resolve(root, source)));
    const file = join(cacheDir, `${key}.mjs`);
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, `${SOURCES}${JSON.stringify(hashes)}\n${code}`);
    renameSync(part, file);
    return file;
  } catch {
    return null;
  }
}

/** The bundle to run: the kept one if its sources are unchanged, else a new one. */
async function bundle() {
  const key = cacheKey();
  const kept = keptBundle(key);
  if (kept) return kept;
  return fresh(key);
}

/** Bundles the sources now: kept for the next start, or written to a temporary directory. */
async function fresh(key) {
  const [result, worker] = await Promise.all([
    mainBundle(),
    selfplayWorkers ? workerBundle() : Promise.resolve(null),
  ]);
  // esbuild's service process is not needed any more (nor its memory).
  await stop();
  const code = result.outputFiles[0]?.text;
  if (!code || result.warnings.length > 0)
    throw new Error(`bundling src/cli/main.ts: ${result.warnings[0]?.text ?? "no output"}`);
  // The worker's code is a statement before the command line's.
  const handOver =
    worker === null ? "" : `globalThis[${WORKER_CODE}] = ${JSON.stringify(worker.code)};`;
  const inputs = [
    ...Object.keys(result.metafile.inputs),
    ...(worker === null ? [] : worker.inputs),
  ].filter((f) => !f.includes(":"));
  const kept = keep(key, `${handOver}\n${code}`, inputs);
  if (kept) return kept;
  // Node runs a module from a file (a `data:` URL would name itself, all of it, in every
  // stack trace): written to a temporary directory, which the bundle's first statement
  // removes once Node has read it.
  const file = join(mkdtempSync(join(tmpdir(), "entente-plain-")), "entente-cli.mjs");
  writeFileSync(file, `${removeDir}\n${handOver}\n${code}`);
  return file;
}

function mainBundle() {
  return build({
    entryPoints: [main],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    metafile: true,
    absWorkingDir: root,
    logLevel: "silent",
    plugins: [
      {
        name: "entente-plain",
        setup(b) {
          // Other commands' modules are left out: their actions never run here.
          b.onResolve({ filter: /^\.\/.*\.ts$/ }, (a) =>
            a.kind === "dynamic-import" && a.importer === program && !served.has(a.path)
              ? { path: a.path, external: true }
              : undefined,
          );
          // Packages are imported from where they are installed (the bundle is in a
          // temporary directory), resolved as Node resolves an import.
          b.onResolve({ filter: /^[^./]/ }, async (a) => {
            if (a.pluginData === "inner" || a.path.startsWith("node:")) return undefined;
            const r = await b.resolve(a.path, {
              kind: a.kind,
              resolveDir: a.resolveDir,
              pluginData: "inner",
            });
            if (r.errors.length > 0 || r.external) return undefined;
            return { path: pathToFileURL(r.path).href, external: true };
          });
          // Each module keeps its own `import.meta.url` (files found beside a source file),
          // and `import.meta.resolve("package")` is resolved now, as from here (the GIF
          // worker registers tsx, src/server/pictures.ts).
          b.onLoad({ filter: /\.ts$/ }, (a) => {
            const text = readFileSync(a.path, "utf8");
            if (!text.includes("import.meta")) return undefined;
            const contents = text
              .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(a.path).href))
              .replace(/import\.meta\.resolve\(("[^"./][^"]*")\)/g, (_, spec) =>
                JSON.stringify(import.meta.resolve(JSON.parse(spec))),
              );
            if (contents.includes("import.meta"))
              return { errors: [{ text: `${a.path}: only import.meta.url is bundled` }] };
            return { contents, loader: "ts" };
          });
        },
      },
    ],
  });
}

// main.ts runs the command.
await import(pathToFileURL(await bundle()).href);
