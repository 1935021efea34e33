import type { ChildProcess } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startChild } from "../testing/children.ts";

/*
 * Starting `bin/entente serve` as a real process, for the crash and multi-process tests: in a
 * process group of its own, ended with it (src/testing/children.ts), also when it fails to
 * start and when the test file exits with it still running.
 */

/**
 * How long a server may take to say it listens: generous, as a wait for something observable
 * costs nothing when it comes early; a loaded 2-core machine (load average 16) took over 30 s
 * to start two at once.
 */
export const START_MS = Number(process.env.ENTENTE_TEST_START_MS) || 120_000;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const BIN = join(ROOT, "bin", "entente");
const LOADER = join(ROOT, "node_modules", "tsx", "dist", "loader.mjs");
const MAIN = join(ROOT, "src", "cli", "main.ts");

export interface ServerProcess {
  readonly proc: ChildProcess;
  readonly port: number;
  readonly base: string;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it printed. */
  log(): string;
  /** SIGKILL to its process group; resolves when it has exited. */
  kill9(): Promise<void>;
  /** SIGTERM to its process group (SIGKILL after a grace period); resolves when it has exited. */
  stop(): Promise<void>;
}

/**
 * `nodeArgs`: flags for node itself (`--cpu-prof`, which NODE_OPTIONS may not carry); the
 * server is then started as node with tsx's loader, as bin/entente does.
 */
export async function spawnServer(
  env: Record<string, string>,
  args: string[] = [],
  nodeArgs: readonly string[] = [],
): Promise<ServerProcess> {
  const serve = ["serve", "--port", "0", "--host", "127.0.0.1", ...args];
  const [cmd, argv] =
    nodeArgs.length === 0
      ? [BIN, serve]
      : [process.execPath, [...nodeArgs, "--import", pathToFileURL(LOADER).href, MAIN, ...serve]];
  const child = startChild(cmd, argv, {
    // No warm-up before listening unless asked for (bench/load.ts): a test starts many servers.
    env: {
      ...process.env,
      ENTENTE_TICK_MS: "25",
      ENTENTE_POLL_MS: "50",
      ENTENTE_WARMUP: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const proc = child.proc;
  let output = "";
  proc.stdout!.on("data", (d: Buffer) => {
    output += d.toString();
  });
  proc.stderr!.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const exited = child.exited;
  const started = Date.now();
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `the server did not start within ${Math.round((Date.now() - started) / 1000)} s:\n${output}`,
          ),
        ),
      START_MS,
    );
    const look = () => {
      const m = /http:\/\/localhost:(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    proc.stderr!.on("data", look);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the server exited at start:\n${output}`));
    });
  }).catch(async (e: unknown) => {
    // What was started is ended, whatever went wrong.
    await child.kill9();
    throw e;
  });
  // Bounded waits: a process that outlives SIGKILL's wait is reported, not waited on for ever.
  const gone = (what: string, e: Awaited<typeof exited> | null) => {
    if (!e) throw new Error(`the server (pid ${proc.pid}) did not exit after ${what}`);
  };
  return {
    proc,
    port,
    base: `http://127.0.0.1:${port}`,
    exited,
    log: () => output,
    async kill9() {
      gone("SIGKILL", await child.kill9(30_000));
    },
    async stop() {
      gone("SIGTERM and SIGKILL", await child.end(30_000, 30_000));
    },
  };
}
