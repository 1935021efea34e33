import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/* Starting `bin/entente serve` as a real process, for the crash and multi-process tests. */

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
  kill9(): Promise<void>;
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
  const proc = spawn(cmd, argv, {
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
  let output = "";
  proc.stdout!.on("data", (d: Buffer) => {
    output += d.toString();
  });
  proc.stderr!.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the server did not start:\n${output}`)),
      30_000,
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
  });
  return {
    proc,
    port,
    base: `http://127.0.0.1:${port}`,
    exited,
    log: () => output,
    async kill9() {
      proc.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      await exited;
    },
  };
}
