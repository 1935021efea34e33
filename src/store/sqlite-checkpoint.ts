import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/*
 * A worker thread with its own connection to the database, running the write-ahead log's
 * checkpoints (copying the log's pages into the database file, syncing the log before and the
 * file after, as SQLite's own do) off the server's event loop: src/store/sqlite-group.ts
 * turns SQLite's automatic checkpoints off and asks this for one every so often
 * (docs/reliability.md, the soak).
 */

export interface CheckpointResult {
  /** Pages in the log (since it last started over), and how many of them are now copied. */
  readonly log: number;
  readonly checkpointed: number;
}

export interface CheckpointStats {
  /** Checkpoints run by the worker. */
  checkpoints: number;
  /** Pages copied to the database file, all checkpoints together. */
  copiedPages: number;
  /** The last checkpoint's. */
  last: CheckpointResult | null;
  /** The worker thread's id (the main thread's is 0). */
  threadId: number;
  /** Checkpoints that held the server's connection (sqlite-group.ts), to start the log over. */
  held: number;
  /** The last error, if any. */
  error: string | null;
}

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true });
parentPort.on("message", (m) => {
  if (m === "close") {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const r = db.pragma("wal_checkpoint(PASSIVE)")[0];
    parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed });
  } catch (e) {
    parentPort.postMessage({ error: String((e && e.message) || e) });
  }
});
`;

export class Checkpointer {
  private readonly worker: Worker;
  readonly stats: CheckpointStats = {
    checkpoints: 0,
    copiedPages: 0,
    last: null,
    threadId: 0,
    held: 0,
    error: null,
  };
  private readonly exited: Promise<void>;
  /** The checkpoint being run: one at a time. */
  private pending: { resolve(r: CheckpointResult): void; reject(e: Error): void } | null = null;
  private copiedBefore = 0;
  private closing = false;
  /** The worker has exited (closed, or failed): no more checkpoints from it. */
  stopped = false;

  constructor(path: string) {
    const module = createRequire(import.meta.url).resolve("better-sqlite3");
    this.worker = new Worker(WORKER, { eval: true, workerData: { module, path } });
    this.stats.threadId = this.worker.threadId;
    this.worker.on("message", (m: { log: number; checkpointed: number } | { error: string }) => {
      const p = this.pending;
      this.pending = null;
      if (!this.closing) this.worker.unref();
      if ("error" in m) {
        p?.reject(new Error(`checkpoint: ${m.error}`));
        return;
      }
      this.stats.checkpoints++;
      // The copied count starts over with the log.
      const copied =
        m.checkpointed >= this.copiedBefore ? m.checkpointed - this.copiedBefore : m.checkpointed;
      this.stats.copiedPages += copied;
      this.copiedBefore = m.checkpointed;
      this.stats.last = m;
      p?.resolve(m);
    });
    this.exited = new Promise((resolve) => {
      this.worker.once("exit", () => {
        this.stopped = true;
        this.pending?.reject(new Error("the checkpoint worker stopped"));
        this.pending = null;
        resolve();
      });
    });
    this.worker.once("error", (e) => {
      this.stats.error = e.message;
    });
    // Idle, it does not keep the process alive.
    this.worker.unref();
  }

  get running(): boolean {
    return this.pending !== null;
  }

  /** One PASSIVE checkpoint: copies what the log holds; takes no lock the writer needs. */
  run(): Promise<CheckpointResult> {
    if (this.stopped) return Promise.reject(new Error("the checkpoint worker stopped"));
    if (this.pending) return Promise.reject(new Error("a checkpoint is running"));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      // Kept alive while it works: an answer is awaited.
      this.worker.ref();
      this.worker.postMessage("checkpoint");
    });
  }

  /** Stops the worker and closes its connection (before the server's own closes). */
  async close(): Promise<void> {
    this.closing = true;
    this.worker.ref();
    this.worker.postMessage("close");
    await this.exited;
  }
}
