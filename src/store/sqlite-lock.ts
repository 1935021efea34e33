import {
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import SQLite from "better-sqlite3";
import { StoreError } from "./db.ts";

/*
 * Who holds a SQLite database (docs/reliability.md, "Who holds the database").
 *
 * SQLite's own locks cannot tell: in WAL mode a connection between transactions holds no lock
 * on the database file (its readers and writers lock bytes of the `-shm` file, and only for a
 * transaction), and the `-wal` and `-shm` files outlive a killed process. So the server holds
 * a lock of its own for its whole life: a write lock (`BEGIN IMMEDIATE`, never committed) on
 * a small SQLite file beside the database, `entente.sqlite.lock`. SQLite takes it with the
 * operating system's advisory locks (fcntl on Unix, LockFileEx on Windows), which the system
 * releases when the process ends however it ends: a server killed with -9 leaves nothing that
 * blocks a later restore or start. Whoever takes the lock writes who it is (PID, command,
 * start, host) to `entente.sqlite.holder` beside it, so a refusal can name them.
 *
 * `entente serve` takes the lock at start (a second server on the same folder is refused) and
 * `entente restore` takes it while it replaces the file (a server starting meanwhile is
 * refused). Other processes may read and write the database while a server runs (`entente
 * mail ingest`, an `sqlite3` shell); on Linux `openers` finds them too, by the open files in
 * /proc, and restore refuses while any is open.
 */

export interface Holder {
  readonly pid: number;
  /** Its command line, as far as known. */
  readonly command: string;
  /** What it is doing with the database: "entente serve", "entente restore". */
  readonly role: string;
  readonly started?: string;
  readonly host?: string;
}

/** A lock held by this process; `release` gives it back (the system does when it ends). */
export interface DatabaseHold {
  readonly lockPath: string;
  release(): void;
}

/** Holds are kept referenced here for the life of the process. */
const held = new Set<SQLite.Database>();

function commandOf(pid: number): string | null {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    const cmd = raw.split("\0").filter(Boolean).join(" ");
    return cmd.length > 300 ? `${cmd.slice(0, 300)}...` : cmd;
  } catch {
    return null;
  }
}

function readHolder(path: string): Holder | null {
  try {
    const h = JSON.parse(readFileSync(`${path}.holder`, "utf8")) as Holder;
    return Number.isInteger(h.pid) ? h : null;
  } catch {
    return null;
  }
}

/** Says who a holder is, in a sentence's words. */
export function describeHolder(h: Holder): string {
  const where = h.host && h.host !== hostname() ? ` on ${h.host}` : "";
  const since = h.started ? `, since ${h.started}` : "";
  return `PID ${h.pid}${where} (${h.role}: ${h.command}${since})`;
}

/**
 * Takes the lock of the database at `path` for this process (`role` says why). Throws a
 * StoreError naming the holder when another process holds it.
 */
export function holdSqlite(path: string, role: string): DatabaseHold {
  const lockPath = `${path}.lock`;
  let db: SQLite.Database;
  try {
    // timeout 0: a held lock answers SQLITE_BUSY at once.
    db = new SQLite(lockPath, { timeout: 0 });
  } catch (e) {
    throw new StoreError(`cannot create the lock file ${lockPath}: ${(e as Error).message}`);
  }
  try {
    db.exec("begin immediate");
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code === "SQLITE_BUSY") {
      const h = readHolder(path);
      throw new StoreError(
        `${path} is in use by ${h ? describeHolder(h) : "another process (it has not yet said which)"}`,
      );
    }
    throw new StoreError(`cannot lock ${lockPath}: ${(e as Error).message}`);
  }
  const me: Holder = {
    pid: process.pid,
    command: commandOf(process.pid) ?? process.argv.join(" "),
    role,
    started: new Date().toISOString(),
    host: hostname(),
  };
  try {
    writeFileSync(`${path}.holder.tmp`, `${JSON.stringify(me)}\n`);
    renameSync(`${path}.holder.tmp`, `${path}.holder`);
  } catch (e) {
    db.close();
    throw new StoreError(`cannot write ${path}.holder: ${(e as Error).message}`);
  }
  held.add(db);
  return {
    lockPath,
    release() {
      if (!held.delete(db)) return;
      db.close();
    },
  };
}

/**
 * Other processes with the database (or its log) open, found by their open files in /proc
 * (Linux; elsewhere, or for other users' processes without the right to look, none are found).
 */
export function openers(path: string): Holder[] {
  let targets: Set<string>;
  try {
    const real = realpathSync(path);
    targets = new Set([real, `${real}-wal`, `${real}-shm`]);
  } catch {
    return [];
  }
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  const found: Holder[] = [];
  for (const p of pids) {
    const pid = Number(p);
    if (pid === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${p}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = readlinkSync(`/proc/${p}/fd/${fd}`);
      } catch {
        continue;
      }
      if (targets.has(link)) {
        found.push({ pid, command: commandOf(pid) ?? "?", role: "has the database open" });
        break;
      }
    }
  }
  return found;
}
