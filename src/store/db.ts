import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { Dialect } from "./migrations/columns.ts";
import { migrationProvider } from "./migrations.ts";
import type { DB } from "./schema.ts";
import { GroupCommitSqliteDialect } from "./sqlite-group.ts";

/** Work done for a request runs in its arrival's name: the store serves the oldest first. */
export { arrival } from "./sqlite-group.ts";

/*
 * Opening the database: embedded SQLite in ./data by default, PostgreSQL when a postgres://
 * URL is given. Either way the schema is migrated to the latest version on open, and the code
 * above sees the same Kysely<DB>.
 */

export interface Store {
  readonly db: Kysely<DB>;
  readonly dialect: Dialect;
  /** Where it is, for logs and /api/health (no password). */
  readonly description: string;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** `postgres://...` for PostgreSQL; otherwise SQLite at `sqlitePath`. */
  readonly url?: string | undefined;
  /** Default `./data/entente.sqlite`. */
  readonly sqlitePath?: string | undefined;
  /** PostgreSQL only: the schema to use (created if missing); tests use one per run. */
  readonly schema?: string | undefined;
}

export class StoreError extends Error {}

export const DEFAULT_SQLITE_PATH = "data/entente.sqlite";

const INT8_OID = 20;

/** How often the write-ahead log is checkpointed off the event loop (ms). */
const CHECKPOINT_MS = 1000;

function sqliteDb(path: string): Kysely<DB> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  // WAL lets readers go on during a write. Every commit is durable before anyone is answered:
  // the dialect below syncs the log itself after each commit, as `synchronous = FULL` would,
  // but off the event loop and once for many commits (it sets the pragma accordingly).
  database.pragma("journal_mode = WAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 10000");
  // Requests that queue up behind each other share a commit; none is answered before it; the
  // log's checkpoints run in a worker thread once a second, not inside a commit on the
  // server's thread (src/store/sqlite-group.ts, sqlite-checkpoint.ts; docs/reliability.md, "Soak").
  return new Kysely<DB>({
    dialect: new GroupCommitSqliteDialect(database, { checkpointMs: CHECKPOINT_MS }),
  });
}

/** The Kysely instances that speak to PostgreSQL (not their transactions). */
const onPostgres = new WeakSet<Kysely<DB>>();

/**
 * Runs `read` (several reads that belong together) on one snapshot of the database: on
 * PostgreSQL outside a transaction, in a read-only REPEATABLE READ transaction, for there
 * every statement of a pool sees the database as it is when that statement starts, so reads
 * run one after the other (or at once on several connections) could see a commit land
 * between them (a game's phase moved on, its phase rows not yet: docs/reliability.md).
 * Inside a transaction, or on SQLite (one connection), `read` runs as it is.
 */
export function inSnapshot<T>(db: Kysely<DB>, read: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction || !onPostgres.has(db)) return read(db);
  return db
    .transaction()
    .setIsolationLevel("repeatable read")
    .setAccessMode("read only")
    .execute(read);
}

function postgresDb(url: string, schema: string | undefined): Kysely<DB> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Who is connected, for pg_stat_activity: stop every one before pg_restore (docs/judge.md).
    application_name: `entente ${process.pid}`,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    // bigint columns hold milliseconds and ids, all well inside a double's exact range.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  onPostgres.add(db);
  return db;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Opens (and creates and migrates) the store. */
export async function openStore(opts: StoreOptions = {}): Promise<Store> {
  const url = opts.url?.trim() || undefined;
  const isPg = url !== undefined && /^postgres(ql)?:\/\//.test(url);
  if (url !== undefined && !isPg) {
    throw new StoreError(
      `DATABASE_URL must start with postgres:// (or be unset for SQLite), not "${url.slice(0, 20)}..."`,
    );
  }
  if (opts.schema !== undefined && !SCHEMA_NAME.test(opts.schema)) {
    throw new StoreError(`invalid schema name "${opts.schema}"`);
  }
  let db: Kysely<DB>;
  let description: string;
  if (isPg) {
    if (opts.schema) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`create schema if not exists ${opts.schema}`);
      } catch (e) {
        // Two processes creating it at once: the loser sees a unique violation; it exists.
        if ((e as { code?: string }).code !== "23505") throw e;
      } finally {
        await admin.end();
      }
    }
    db = postgresDb(url, opts.schema);
    const u = new URL(url);
    description = `postgresql://${u.host}${u.pathname}${opts.schema ? ` (schema ${opts.schema})` : ""}`;
  } else {
    const path = opts.sqlitePath ?? DEFAULT_SQLITE_PATH;
    db = sqliteDb(path);
    description = `sqlite:${path}`;
  }
  const dialect: Dialect = isPg ? "postgres" : "sqlite";
  try {
    await migrate(db, dialect, opts.schema);
  } catch (e) {
    await db.destroy();
    throw e;
  }
  return { db, dialect, description, close: () => db.destroy() };
}

async function migrate(db: Kysely<DB>, dialect: Dialect, schema?: string): Promise<void> {
  // With a PostgreSQL schema, Kysely's bookkeeping tables live in it too: otherwise Kysely
  // looks for them across schemas and concurrent test runs see each other's half-made tables.
  const migrator = new Migrator({
    db,
    provider: migrationProvider(dialect),
    ...(dialect === "postgres" && schema ? { migrationTableSchema: schema } : {}),
  });
  // Several processes may start at once on one PostgreSQL database: Kysely's migration lock
  // serialises the migrations, but creating its own bookkeeping tables can race; try again.
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === "Error");
    if (!error && !failed) return;
    if (attempt >= 5) {
      throw new StoreError(
        `database migration failed${failed ? ` at ${failed.migrationName}` : ""}: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
    await new Promise((r) => setTimeout(r, 100 * attempt));
  }
}

/** The current time as the database sees it, for a health check. */
export async function ping(store: Store): Promise<boolean> {
  await sql`select 1`.execute(store.db);
  return true;
}
