import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { StoreError } from "./db.ts";
import { describeHolder, holdSqlite, openers } from "./sqlite-lock.ts";

/*
 * Backups of the SQLite store, safe while the server runs: SQLite's online backup API
 * (better-sqlite3's `backup`) copies the database page by page from a connection of its own;
 * a write by the server meanwhile restarts the copy of the pages it changed, so the copy is
 * one consistent state (every acknowledged order up to some moment, nothing half-written).
 * The copy is then checked (`PRAGMA integrity_check`) and counted. Restoring copies a
 * checked backup over the database of a stopped server: it takes the database's lock
 * (sqlite-lock.ts) for the time it works, and refuses while a server holds it or, on Linux,
 * while any other process has the file open. PostgreSQL has its own tools (pg_dump,
 * pg_restore): docs/judge.md.
 */

export interface BackupSummary {
  /** The file written. */
  readonly path: string;
  readonly bytes: number;
  readonly users: number;
  readonly games: number;
  /** Adjudicated phases in all games. */
  readonly phases: number;
}

/** Counts what a database holds, after checking it is whole and is an Entente store. */
function check(path: string): Omit<BackupSummary, "path" | "bytes"> {
  let db: SQLite.Database;
  try {
    db = new SQLite(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new StoreError(`${path} cannot be opened as SQLite: ${(e as Error).message}`);
  }
  try {
    const integrity = db.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new StoreError(`${path} is damaged: ${String(integrity)}`);
    const tables = new Set(
      (
        db.prepare("select name from sqlite_master where type = 'table'").all() as {
          name: string;
        }[]
      ).map((r) => r.name),
    );
    for (const t of ["users", "games", "phases", "kysely_migration"]) {
      if (!tables.has(t))
        throw new StoreError(`${path} is not an Entente database (no table ${t})`);
    }
    const count = (t: string) =>
      (db.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n;
    return { users: count("users"), games: count("games"), phases: count("phases") };
  } catch (e) {
    if (e instanceof StoreError) throw e;
    throw new StoreError(`${path} cannot be read as SQLite: ${(e as Error).message}`);
  } finally {
    db.close();
  }
}

/**
 * Copies the SQLite database at `source` to `target` (which must not exist) while the server
 * may be writing to it; answers what the copy holds.
 */
export async function backupSqlite(source: string, target: string): Promise<BackupSummary> {
  if (!existsSync(source)) {
    throw new StoreError(`no database at ${source} (the data folder's entente.sqlite)`);
  }
  if (existsSync(target)) throw new StoreError(`${target} exists; choose a new file name`);
  if (!existsSync(dirname(target))) throw new StoreError(`no folder ${dirname(target)}`);
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const db = new SQLite(source, { fileMustExist: true });
  try {
    // The server may hold a write lock for a moment: wait for it as the server would.
    db.pragma("busy_timeout = 10000");
    await db.backup(partial);
  } finally {
    db.close();
  }
  try {
    const counts = check(partial);
    renameSync(partial, target);
    return { path: target, bytes: statSync(target).size, ...counts };
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
}

/**
 * Replaces the SQLite database at `target` with the backup at `backup`, after checking the
 * backup. Refused while a server holds the database, or another process has it open: a server
 * would go on writing to the file replaced, and everything it acknowledged after the restore
 * would be lost at its next start. Without `force` an existing database is not replaced.
 */
export async function restoreSqlite(
  backup: string,
  target: string,
  opts: { force?: boolean } = {},
): Promise<BackupSummary> {
  if (!existsSync(backup)) throw new StoreError(`no backup file ${backup}`);
  const counts = check(backup);
  if (existsSync(target) && !opts.force) {
    throw new StoreError(
      `${target} exists: stop the server, then restore with --force to replace it (or restore into another --data folder)`,
    );
  }
  if (!existsSync(dirname(target))) throw new StoreError(`no folder ${dirname(target)}`);
  const refuse = (who: string) =>
    new StoreError(
      `${who}; nothing was restored: stop it first (a server stops on SIGTERM or Ctrl-C), then restore again`,
    );
  let hold: ReturnType<typeof holdSqlite>;
  try {
    hold = holdSqlite(target, "entente restore");
  } catch (e) {
    throw e instanceof StoreError && / is in use by /.test(e.message) ? refuse(e.message) : e;
  }
  try {
    const others = openers(target);
    if (others.length > 0) {
      throw refuse(`${target} is open in ${others.map(describeHolder).join(", ")}`);
    }
    const partial = `${target}.restoring`;
    rmSync(partial, { force: true });
    const db = new SQLite(backup, { readonly: true, fileMustExist: true });
    try {
      await db.backup(partial);
    } finally {
      db.close();
    }
    // The old database's write-ahead log belongs to the old file: it goes with it.
    for (const suffix of ["-wal", "-shm"]) rmSync(`${target}${suffix}`, { force: true });
    renameSync(partial, target);
    return { path: target, bytes: statSync(target).size, ...counts };
  } finally {
    hold.release();
  }
}
