import {
  type ChildProcess,
  type SpawnOptions,
  type SpawnSyncOptions,
  type SpawnSyncReturns,
  spawn,
  spawnSync,
} from "node:child_process";

/*
 * Processes the tests start (servers, command lines, scripts), ended when the test ends,
 * passed or failed (docs/reliability.md, "The test suite"):
 *
 * - `startChild` spawns a process as the leader of a process group of its own (`detached`),
 *   so that ending it ends whatever it started too: `end` sends SIGTERM to the group, waits a
 *   bounded time for the leader to exit, then sends SIGKILL to the group (and to the process
 *   itself, should the group be gone: the fallback). Every wait is bounded.
 * - Every child so started is kept in a registry until it exits. When the test file's process
 *   exits (normally, by `--test-force-exit` once its tests are done, or on SIGINT, SIGTERM or
 *   SIGHUP), whatever is still running is killed by its group, so a failed test cannot leave
 *   children that keep the runner waiting.
 * - `runChild` runs a command to its end in a group of its own, bounded likewise.
 * - `runSync` runs a short command line to its end (spawnSync) with a bound: killed with
 *   SIGKILL after `timeout` (default five minutes), the answer then says so.
 */

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface Child {
  readonly proc: ChildProcess;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<Exit>;
  /** Whether it has exited. */
  readonly done: boolean;
  /** A signal to its whole process group (to the process alone if the group is gone). */
  signal(sig: NodeJS.Signals): void;
  /**
   * Ends it: SIGTERM to its group, SIGKILL to its group after `graceMs` if it is still
   * running, then waits (bounded: `waitMs`) for it to exit. Safe to call twice.
   */
  end(graceMs?: number, waitMs?: number): Promise<Exit | null>;
  /** SIGKILL to its group; waits (bounded) for it to exit. */
  kill9(waitMs?: number): Promise<Exit | null>;
}

/** Children started and not yet seen to exit. */
const running = new Set<Child>();
let hooked = false;

/**
 * Sends `sig` to the group led by `pid`; if there is no such group and the process has not
 * been seen to exit (`alive`), to the process alone (the fallback: it may have left its group).
 * Never to a pid whose exit was seen: the system may have given that number to another.
 */
function signalGroup(pid: number, sig: NodeJS.Signals, alive: boolean): void {
  try {
    process.kill(-pid, sig);
    return;
  } catch {
    // No such group (all of it has ended), or not ours: the fallback below.
  }
  if (!alive) return;
  try {
    process.kill(pid, sig);
  } catch {
    // Gone.
  }
}

/** Kills every registered child's group at once (synchronous: safe in an 'exit' handler). */
export function killAllChildren(): void {
  for (const c of running) {
    if (c.proc.pid !== undefined) signalGroup(c.proc.pid, "SIGKILL", !c.done);
  }
  running.clear();
}

/** How many children are running (for tests of this module). */
export function runningChildren(): number {
  return running.size;
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.on("exit", killAllChildren);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    // Then the default (dying), unless someone else handles the signal.
    process.once(sig, () => {
      killAllChildren();
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    });
  }
}

/** A promise that resolves after `ms` with `value`, not keeping the process alive. */
function after<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms).unref());
}

/**
 * Spawns `cmd` as the leader of its own process group, registered until it exits (options as
 * child_process.spawn's; `detached` is always set).
 */
export function startChild(cmd: string, args: readonly string[], opts: SpawnOptions = {}): Child {
  hook();
  const proc = spawn(cmd, args, { ...opts, detached: true });
  let finished = false;
  const exited = new Promise<Exit>((resolve) => {
    const settle = (e: Exit) => {
      finished = true;
      running.delete(child);
      resolve(e);
    };
    proc.once("exit", (code, signal) => settle({ code, signal }));
    // Never started (no such program): there is no process to end.
    proc.once("error", () => {
      if (proc.pid === undefined) settle({ code: null, signal: null });
    });
  });
  const wait = (ms: number) => Promise.race([exited, after(ms, null)]);
  const child: Child = {
    proc,
    exited,
    get done() {
      return finished;
    },
    signal(sig) {
      if (proc.pid !== undefined) signalGroup(proc.pid, sig, !finished);
    },
    async end(graceMs = 5_000, waitMs = 10_000) {
      if (finished) {
        child.signal("SIGKILL"); // what it left in its group, if anything
        return exited;
      }
      child.signal("SIGTERM");
      const e = await wait(graceMs);
      if (e) {
        // The leader is gone; anything it left in its group goes too.
        child.signal("SIGKILL");
        return e;
      }
      return child.kill9(waitMs);
    },
    async kill9(waitMs = 10_000) {
      child.signal("SIGKILL");
      return wait(waitMs);
    },
  };
  if (proc.pid !== undefined) running.add(child);
  return child;
}

/**
 * spawnSync with a bound: `timeout` defaults to five minutes and the child is then killed with
 * SIGKILL (`error.code` ETIMEDOUT in the answer). For commands that are one process (such as
 * bin/entente, which execs node): spawnSync cannot start a process group.
 */
export function runSync(
  cmd: string,
  args: readonly string[],
  opts: SpawnSyncOptions & { encoding: BufferEncoding },
): SpawnSyncReturns<string>;
export function runSync(
  cmd: string,
  args: readonly string[],
  opts?: SpawnSyncOptions,
): SpawnSyncReturns<Buffer>;
export function runSync(
  cmd: string,
  args: readonly string[],
  opts: SpawnSyncOptions = {},
): SpawnSyncReturns<string | Buffer> {
  return spawnSync(cmd, args, { timeout: 300_000, killSignal: "SIGKILL", ...opts });
}

export interface Ran {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command to its end in a process group of its own, its output collected; after
 * `timeoutMs` (default two minutes) the group is ended and the promise rejects saying so.
 */
export async function runChild(
  cmd: string,
  args: readonly string[],
  opts: SpawnOptions & { input?: string; timeoutMs?: number } = {},
): Promise<Ran> {
  const { input, timeoutMs = 120_000, ...spawnOpts } = opts;
  const child = startChild(cmd, args, { ...spawnOpts, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.proc.stdout!.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.proc.stderr!.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  child.proc.stdin!.on("error", () => {}); // it may exit before reading its input
  child.proc.stdin!.end(input ?? "");
  const failed = new Promise<never>((_, reject) =>
    child.proc.once("error", (e) => reject(new Error(`${cmd} could not start: ${e.message}`))),
  );
  // Its output is complete once its pipes close, after the exit.
  const closed = new Promise<Exit>((resolve) =>
    child.proc.once("close", (code, signal) => resolve({ code, signal })),
  );
  const e = await Promise.race([closed, failed, after(timeoutMs, null)]);
  if (!e) {
    await child.end(2_000, 10_000);
    throw new Error(
      `${cmd} ${args.join(" ")} did not end within ${timeoutMs} ms (ended):\n${stdout}\n${stderr}`,
    );
  }
  // Anything it left behind in its group goes with it.
  child.signal("SIGKILL");
  return { status: e.code, signal: e.signal, stdout, stderr };
}
