import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import pg from "pg";
import { openStore, type Store } from "./db.ts";

/*
 * Stores for tests: every store test runs against SQLite (a temporary file) and PostgreSQL
 * (a fresh schema in database `test` on 127.0.0.1:5432, dropped afterwards). Where PostgreSQL
 * cannot be reached the PostgreSQL variant is skipped with a message saying so; with
 * ENTENTE_REQUIRE_PG=1 (set by CI) that is a failure instead.
 */

export type StoreKind = "sqlite" | "postgres";
export const STORE_KINDS: readonly StoreKind[] = ["sqlite", "postgres"];

const CANDIDATES = process.env.ENTENTE_TEST_DATABASE_URL
  ? [process.env.ENTENTE_TEST_DATABASE_URL]
  : ["postgres://postgres@127.0.0.1:5432/test", "postgres://root@127.0.0.1:5432/test"];

let found: Promise<string | null> | null = null;

/** A PostgreSQL URL that answers, or null. */
export function postgresUrl(): Promise<string | null> {
  found ??= (async () => {
    for (const url of CANDIDATES) {
      const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
      try {
        await c.connect();
        await c.query("select 1");
        return url;
      } catch {
        // try the next
      } finally {
        await c.end().catch(() => {});
      }
    }
    return null;
  })();
  return found;
}

export const requirePg = () => process.env.ENTENTE_REQUIRE_PG === "1";

/**
 * The URL for PostgreSQL tests, or null after marking the test skipped (or throwing, when
 * PostgreSQL is required).
 */
export async function postgresForTest(t: TestContext): Promise<string | null> {
  const url = await postgresUrl();
  if (url) return url;
  const msg = `PostgreSQL not reachable at ${CANDIDATES.join(" or ")}`;
  if (requirePg()) throw new Error(`${msg}, and ENTENTE_REQUIRE_PG=1 requires it`);
  t.skip(msg);
  return null;
}

export function freshSchemaName(): string {
  return `entente_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await c.end();
  }
}

export interface TestStore {
  readonly store: Store;
  /** Opens another store on the same database (another process's view of it). */
  reopen(): Promise<Store>;
  /** For spawning servers: the environment that points at this database. */
  readonly env: Record<string, string>;
}

/**
 * A new, empty, migrated store of this kind for one test, cleaned up after it; null when the
 * test was skipped (PostgreSQL unreachable).
 */
export async function testStore(t: TestContext, kind: StoreKind): Promise<TestStore | null> {
  const opened: Store[] = [];
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "entente-test-"));
    const path = join(dir, "entente.sqlite");
    const open = async () => {
      const s = await openStore({ sqlitePath: path });
      opened.push(s);
      return s;
    };
    const store = await open();
    t.after(async () => {
      for (const s of opened) await s.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return { store, reopen: open, env: { ENTENTE_TEST_SQLITE_DIR: dir } };
  }
  const url = await postgresForTest(t);
  if (!url) return null;
  const schema = freshSchemaName();
  const open = async () => {
    const s = await openStore({ url, schema });
    opened.push(s);
    return s;
  };
  const store = await open();
  t.after(async () => {
    for (const s of opened) await s.close();
    await dropSchema(url, schema);
  });
  return { store, reopen: open, env: { DATABASE_URL: url, ENTENTE_PG_SCHEMA: schema } };
}
