// `bin/entente selfplay`, `bench`, `serve`, `adjudicate` and `agent`: the command line run as
// plain JavaScript, without tsx. esbuild bundles main.ts from the sources as they are now (a
// fresh bundle on every start, so it is never older than the sources), with the code these
// commands load; Node then runs the bundle. Self-play holds no TypeScript loader thread (26 to
// 34 MB, docs/performance.md, "Workers"); the server starts in a fraction of the time (tsx's
// loader compiled and handed over its few hundred modules one by one: about 4 s of CPU,
// docs/performance.md, "Restart"). Plain JavaScript, because it runs before any loader.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, stop } from "esbuild";

const main = fileURLToPath(new URL("./main.ts", import.meta.url));
const program = fileURLToPath(new URL("./program.ts", import.meta.url));
/** The modules the commands served here import when they run (program.ts's actions). */
const served = new Set([
  "./selfplay.ts",
  "./bench.ts",
  "./bench-bots.ts",
  "./serve.ts",
  "./adjudicate.ts",
  "./agent.ts",
]);
/** Self-play's worker code is bundled only for the commands that start such workers. */
const selfplayWorkers = process.argv[2] === "selfplay" || process.argv[2] === "bench";

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
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.text;
  // The bundle is CommonJS, where a module's URL would be empty: esbuild warns of that.
  if (!code || result.warnings.length > 0)
    throw new Error(
      `bundling src/cli/selfplay-worker.ts: ${result.warnings[0]?.text ?? "no output"}`,
    );
  return code;
}

/** The bundle, written to a new temporary directory: the file's path. */
async function bundle() {
  const [result, worker] = await Promise.all([
    mainBundle(),
    selfplayWorkers ? workerBundle() : Promise.resolve(null),
  ]);
  // esbuild's service process is not needed any more (nor its memory).
  await stop();
  const code = result.outputFiles[0]?.text;
  if (!code || result.warnings.length > 0)
    throw new Error(`bundling src/cli/main.ts: ${result.warnings[0]?.text ?? "no output"}`);
  // Node runs a module from a file (a `data:` URL would name itself, all of it, in every
  // stack trace): written to a temporary directory, which the bundle's first statement
  // removes once Node has read it. The worker's code is the statement after it.
  const file = join(mkdtempSync(join(tmpdir(), "entente-plain-")), "entente-cli.mjs");
  const handOver = worker === null ? "" : `globalThis[${WORKER_CODE}] = ${JSON.stringify(worker)};`;
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
