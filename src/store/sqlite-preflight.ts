import { accessSync, closeSync, constants, mkdirSync, openSync, readSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Worker } from "node:worker_threads";
import SQLite from "better-sqlite3";
import { StoreError } from "./db.ts";

/*
 * What `entente serve` checks before it opens a SQLite database, so that it refuses to start
 * on a file it would fail on later (or, worse, write its tables into): each refusal names the
 * path, the cause and what to do (docs/judge.md, "Start-up checks").
 *
 * - The data folder: created if missing; it must be writable (the database, its log and
 *   the lock live there).
 * - The file, if there is one: not empty, a SQLite database (its header), not shorter than
 *   its header says (a truncated copy), its schema readable, and Entente's: no tables of
 *   another program, no migrations Entente does not know.
 * - Its pages (`PRAGMA quick_check`, in a worker thread): the start waits for the answer for a
 *   bounded time; a larger database's check goes on after the server has started, and a
 *   damage it finds then makes the server not ready (src/server/readiness.ts).
 */

const MAGIC = "SQLite format 3\0";

const RESTORE = 'restore a backup (entente restore FILE --force; docs/judge.md, "Backups")';
const restoreHint = `if it should hold your games, ${RESTORE}`;
const Restore = `R${RESTORE.slice(1)}`;

/** The data folder of `path` exists (created if need be) and this process may write in it. */
export function checkDataFolder(path: string): void {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new StoreError(
      `cannot create the data folder ${dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): create it, writable by the user running the judge, or choose another --data folder`,
    );
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new StoreError(
      `the data folder ${dir} is read-only for this process (${code === "EROFS" ? "a read-only file system" : `${code}, user ${process.getuid?.() ?? "?"}`}): the judge writes its database, its log (-wal) and its lock there. Make it writable by the user running the judge, or choose another --data folder`,
    );
  }
}

/**
 * Checks the database file at `path`, if there is one, as far as can be done without
 * reading all of it. Throws a StoreError naming the path, the cause and what to do.
 */
export function checkSqliteFile(path: string, knownMigrations: readonly string[]): void {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) {
      throw new StoreError(`${path} is not a file: move it away or choose another --data folder`);
    }
    size = st.size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return; // a new judge
    throw e;
  }
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
  } catch (e) {
    throw new StoreError(
      `${path} is not writable by this process (${(e as NodeJS.ErrnoException).code}): make it writable by the user running the judge`,
    );
  }
  if (size === 0) {
    throw new StoreError(
      `${path} is empty (0 bytes): no judge's database is, so something cut it short (an interrupted copy, a full disk). If this is a new judge, delete the file and start again; ${restoreHint}`,
    );
  }
  const header = Buffer.alloc(100);
  const fd = openSync(path, "r");
  let got: number;
  try {
    got = readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (got < 100 || header.toString("latin1", 0, 16) !== MAGIC) {
    const start = JSON.stringify(header.toString("latin1", 0, Math.min(got, 16)));
    throw new StoreError(
      `${path} is not a SQLite database (${got < 16 ? `only ${got} bytes` : `it begins ${start}, not "SQLite format 3"`}): is --data the judge's folder? Move the file away, or ${restoreHint}`,
    );
  }
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const pages = header.readUInt32BE(28);
  // The page count in the header is valid when its "version valid for" equals the change counter.
  const valid = header.readUInt32BE(92) === header.readUInt32BE(24);
  if (valid && pages > 0 && size < pages * pageSize) {
    throw new StoreError(
      `${path} is truncated: its header says ${pages} pages of ${pageSize} bytes (${pages * pageSize} bytes), the file has ${size}. ${Restore}`,
    );
  }
  let db: SQLite.Database;
  try {
    db = new SQLite(path, { fileMustExist: true, timeout: 10_000 });
  } catch (e) {
    throw new StoreError(`${path} cannot be opened: ${(e as Error).message}`);
  }
  try {
    let tables: string[];
    try {
      tables = (
        db.prepare("select name from sqlite_master where type = 'table'").all() as {
          name: string;
        }[]
      )
        .map((r) => r.name)
        .filter((n) => !n.startsWith("sqlite_"));
    } catch (e) {
      throw new StoreError(
        `${path} is damaged: its schema cannot be read (${(e as Error).message}). ${Restore}`,
      );
    }
    if (tables.length === 0) return; // SQLite's empty database: the migrations fill it
    if (!tables.includes("kysely_migration")) {
      const some = tables.slice(0, 5).join(", ") + (tables.length > 5 ? ", ..." : "");
      throw new StoreError(
        `${path} is another program's SQLite database (tables ${some}; none of Entente's): is --data the judge's folder? Move the file away, or ${restoreHint}`,
      );
    }
    let applied: string[];
    try {
      applied = (db.prepare("select name from kysely_migration").all() as { name: string }[]).map(
        (r) => r.name,
      );
    } catch (e) {
      throw new StoreError(
        `${path} is damaged: its migrations cannot be read (${(e as Error).message}). ${Restore}`,
      );
    }
    const unknown = applied.filter((n) => !knownMigrations.includes(n));
    if (unknown.length > 0) {
      throw new StoreError(
        `${path} was written by another program or a newer Entente (migrations ${unknown.slice(0, 3).join(", ")} are not this version's): run the Entente that wrote it, or ${restoreHint}`,
      );
    }
  } finally {
    db.close();
  }
}

const CHECK_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.module);
let answer;
try {
  const db = new Database(workerData.path, { fileMustExist: true, readonly: true, timeout: 10000 });
  try {
    const rows = db.pragma("quick_check(5)", { simple: false }).map((r) => Object.values(r)[0]);
    answer = { ok: rows.length === 1 && rows[0] === "ok", findings: rows };
  } finally {
    db.close();
  }
} catch (e) {
  answer = { ok: false, findings: [String((e && e.message) || e)] };
}
parentPort.postMessage(answer);
`;

export interface PageCheck {
  readonly ok: boolean;
  /** SQLite's findings (at most five), or "ok". */
  readonly findings: readonly string[];
}

/**
 * Checks every page of the database at `path` (`PRAGMA quick_check`) in a worker thread, off
 * the event loop; the worker does not keep the process alive.
 */
export function checkPages(path: string): Promise<PageCheck> {
  const module = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(CHECK_WORKER, { eval: true, workerData: { module, path } });
  worker.unref();
  return new Promise((resolve) => {
    worker.once("message", (m: PageCheck) => resolve(m));
    worker.once("error", (e) => resolve({ ok: false, findings: [e.message] }));
  });
}

/** The StoreError for a failed page check. */
export function damaged(path: string, check: PageCheck): StoreError {
  return new StoreError(
    `${path} is damaged: SQLite's check of its pages found ${check.findings
      .join("\n")
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.startsWith("*** in database"))
      .join("; ")}. ${Restore} (or try sqlite3's .recover on a copy)`,
  );
}
