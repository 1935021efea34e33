import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import SQLite from "better-sqlite3";
import { type Generated, Kysely, sql } from "kysely";
import { arrival, type GroupCommitOptions, GroupCommitSqliteDialect } from "./sqlite-group.ts";

/*
 * Group commit on SQLite (src/store/sqlite-group.ts): units of work that queue up share one
 * commit and one sync of the log, each answered only after it; a failed unit undoes only its
 * own work; the connection goes to units in the order they asked.
 */

interface T {
  t: { id: Generated<number>; v: string };
}

/** The database x.sqlite in `dir`, in WAL mode, behind the group-commit dialect. */
function open(dir: string, options?: GroupCommitOptions) {
  const database = new SQLite(join(dir, "x.sqlite"));
  database.pragma("journal_mode = WAL");
  const dialect = new GroupCommitSqliteDialect(database, options);
  return { db: new Kysely<T>({ dialect }), dialect, database };
}

async function withDb(
  f: (db: Kysely<T>, d: GroupCommitSqliteDialect, dir: string) => Promise<void>,
) {
  const dir = mkdtempSync(join(tmpdir(), "entente-group-"));
  const { db, dialect } = open(dir);
  try {
    await sql`create table t (id integer primary key, v text not null unique)`.execute(db);
    await f(db, dialect, dir);
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

test("concurrent transactions and lone statements share commits; each reads its own writes", async () => {
  await withDb(async (db, dialect, dir) => {
    const before = { ...dialect.stats };
    const n = 400;
    const seen = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        await db.selectFrom("t").selectAll().where("v", "=", `v${i}`).execute();
        return db.transaction().execute(async (trx) => {
          await trx
            .insertInto("t")
            .values({ v: `v${i}` })
            .execute();
          const row = await trx.selectFrom("t").select("v").where("v", "=", `v${i}`).execute();
          return row[0]?.v;
        });
      }),
    );
    assert.deepEqual(
      seen,
      Array.from({ length: n }, (_, i) => `v${i}`),
    );
    const units = dialect.stats.units - before.units;
    const groups = dialect.stats.groups - before.groups;
    assert.equal(units, 2 * n, "every transaction and lone statement is a unit");
    assert.ok(groups < units / 4, `units shared commits (${units} units in ${groups} groups)`);
    assert.ok(dialect.stats.syncs <= dialect.stats.groups, "at most one sync per group");
    // Everything answered is in the file, seen by another connection.
    const other = new SQLite(join(dir, "x.sqlite"), { readonly: true });
    const count = other.prepare("select count(*) as c from t").get() as { c: number };
    other.close();
    assert.equal(count.c, n);
  });
});

test("a failed transaction undoes only its own work; the others of its group are stored", async () => {
  await withDb(async (db) => {
    await db.insertInto("t").values({ v: "taken" }).execute();
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto("t")
            .values({ v: `a${i}` })
            .execute();
          // Every third one breaks the unique rule after writing its first row.
          await trx
            .insertInto("t")
            .values({ v: i % 3 === 0 ? "taken" : `b${i}` })
            .execute();
        }),
      ),
    );
    const failed = results.flatMap((r, i) => (r.status === "rejected" ? [i] : []));
    assert.deepEqual(
      failed,
      Array.from({ length: 10 }, (_, k) => 3 * k),
    );
    const rows = (await db.selectFrom("t").select("v").execute()).map((r) => r.v);
    for (let i = 0; i < 30; i++) {
      assert.equal(rows.includes(`a${i}`), i % 3 !== 0, `a${i}`);
      assert.equal(rows.includes(`b${i}`), i % 3 !== 0, `b${i}`);
    }
    // A failed lone statement fails alone too.
    const lone = await Promise.allSettled([
      db.insertInto("t").values({ v: "c1" }).execute(),
      db.insertInto("t").values({ v: "taken" }).execute(),
      db.insertInto("t").values({ v: "c2" }).execute(),
    ]);
    assert.deepEqual(
      lone.map((r) => r.status),
      ["fulfilled", "rejected", "fulfilled"],
    );
    const c = await db.selectFrom("t").select("v").where("v", "in", ["c1", "c2"]).execute();
    assert.equal(c.length, 2);
  });
});

test("the connection goes to units in the order they asked for it", async () => {
  await withDb(async (db) => {
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          order.push(i);
          // Two statements with a wait between: the unit keeps the connection meanwhile.
          await trx
            .insertInto("t")
            .values({ v: `x${i}` })
            .execute();
          await new Promise((r) => setImmediate(r));
          await trx.selectFrom("t").select("id").execute();
        }),
      ),
    );
    assert.deepEqual(
      order,
      Array.from({ length: 100 }, (_, i) => i),
    );
  });
});

test("a connection held over several lone statements (Kysely's connection()) works", async () => {
  await withDb(async (db) => {
    const got = await db.connection().execute(async (c) => {
      await c.insertInto("t").values({ v: "k1" }).execute();
      await c.insertInto("t").values({ v: "k2" }).execute();
      return c.selectFrom("t").select("v").orderBy("id").execute();
    });
    assert.deepEqual(
      got.map((r) => r.v),
      ["k1", "k2"],
    );
  });
});

test("the connection goes to the unit whose request arrived first", async () => {
  await withDb(async (db) => {
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const order: string[] = [];
    // One unit holds the connection while the others queue, asking in the order B, A, C.
    const holder = db.transaction().execute(async (trx) => {
      await trx.selectFrom("t").select("id").execute();
      await gate;
    });
    await new Promise((r) => setImmediate(r));
    const unit = (name: string) => async () => {
      await db.transaction().execute(async (trx) => {
        order.push(name);
        await trx.insertInto("t").values({ v: name }).execute();
      });
    };
    const now = performance.now();
    const b = arrival.run(now - 10, unit("B: arrived 10 ms ago"));
    const a = arrival.run(now - 20, unit("A: arrived 20 ms ago"));
    const c = unit("C: no request, counts as now")();
    await new Promise((r) => setImmediate(r));
    open();
    await Promise.all([holder, a, b, c]);
    assert.deepEqual(order, [
      "A: arrived 20 ms ago",
      "B: arrived 10 ms ago",
      "C: no request, counts as now",
    ]);
  });
});

test("checkpoints off the event loop: the connection's own are off, a worker thread's connection copies the log", async () => {
  const dir = mkdtempSync(join(tmpdir(), "entente-group-"));
  const { db, dialect, database } = open(dir, { checkpointMs: 20 });
  try {
    await sql`create table t (id integer primary key, v text not null unique)`.execute(db);
    assert.equal(
      database.pragma("wal_autocheckpoint", { simple: true }),
      0,
      "no checkpoint inside a commit on this thread",
    );
    const checkpointer = dialect.checkpointer;
    assert.ok(checkpointer, "a checkpointer");
    assert.notEqual(checkpointer.stats.threadId, 0, "in a worker thread");
    const big = "x".repeat(2000);
    for (let round = 0; round < 20; round++) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          db
            .insertInto("t")
            .values({ v: `${round}-${i}-${big}` })
            .execute(),
        ),
      );
    }
    await waitUntil(() => checkpointer.stats.copiedPages > 0);
    assert.equal(checkpointer.stats.error, null);
    assert.ok(checkpointer.stats.checkpoints > 0);
    assert.equal(checkpointer.stats.held, 0, "a quiet log is started over without holding");
  } finally {
    await db.destroy();
  }
  // Everything is in the file.
  const again = new SQLite(join(dir, "x.sqlite"), { readonly: true });
  const count = again.prepare("select count(*) as c from t").get() as { c: number };
  again.close();
  rmSync(dir, { recursive: true, force: true });
  assert.equal(count.c, 1000);
});

/**
 * 8 KB rows written by `writers` loops at once until `rows` are stored; the largest size the
 * log's file reached meanwhile, and the checkpointer's counters.
 */
async function busyWriter(restartPages: number, writers: number, rows: number) {
  const dir = mkdtempSync(join(tmpdir(), "entente-group-"));
  const { db, dialect } = open(dir, { checkpointMs: 10, restartPages });
  const wal = join(dir, "x.sqlite-wal");
  let largest = 0;
  try {
    await sql`create table t (id integer primary key, v text not null unique)`.execute(db);
    // The worker answers (it is running) before the busy part begins.
    await waitUntil(() => dialect.checkpointer!.stats.checkpoints > 0);
    const sizes = setInterval(() => {
      largest = Math.max(largest, statSync(wal).size);
    }, 2);
    const big = "y".repeat(8000);
    let n = 0;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (n < rows) {
          const i = n++;
          await db
            .insertInto("t")
            .values({ v: `${i}-${big}` })
            .execute();
        }
      }),
    );
    clearInterval(sizes);
    largest = Math.max(largest, statSync(wal).size);
    return { largest, stats: { ...dialect.checkpointer!.stats } };
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a log that a busy connection never lets start over is checkpointed holding the connection: it stays bounded", async () => {
  // 600 writers: some always wait for the connection, so it is never idle between groups
  // (the log starts over only at a write that begins once all of it is copied). 6,000 rows
  // of 8 KB: the log never starts over without the held checkpoints (its file grew to 104 MB
  // here with `restartPages` out of reach, to 21 MB with 200).
  const { largest, stats } = await busyWriter(200, 600, 6000);
  assert.equal(stats.error, null);
  assert.ok(stats.held > 0, `checkpoints held the connection (${JSON.stringify(stats)})`);
  assert.ok(largest < 52_000_000, `the log grew to ${largest} bytes (${JSON.stringify(stats)})`);
});

test("if the checkpoint worker stops, SQLite's own checkpoints take over", async () => {
  const dir = mkdtempSync(join(tmpdir(), "entente-group-"));
  const { db, dialect, database } = open(dir, { checkpointMs: 10 });
  try {
    await sql`create table t (id integer primary key, v text not null unique)`.execute(db);
    const ck = dialect.checkpointer!;
    await waitUntil(() => ck.stats.checkpoints > 0);
    assert.equal(database.pragma("wal_autocheckpoint", { simple: true }), 0);
    // The worker stopped as a failure would stop it. The checkpoint timer is unref'd and so is
    // the worker whenever a checkpoint's answer arrives (one may arrive while it is being
    // terminated): a timer of the test's own keeps the event loop running until it has exited,
    // or the test could end with its promise unresolved.
    const keep = setInterval(() => {}, 1000);
    try {
      await (ck as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    } finally {
      clearInterval(keep);
    }
    await waitUntil(() => database.pragma("wal_autocheckpoint", { simple: true }) === 1000);
    await db.insertInto("t").values({ v: "after" }).execute();
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Polls `f` until true; the bound is generous for a loaded machine (docs/reliability.md). */
async function waitUntil(f: () => boolean, ms = 60_000): Promise<void> {
  const until = performance.now() + ms;
  while (!f()) {
    if (performance.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

test("a group that only reads makes no sync of its own, yet is answered no earlier than a write it may have read", async () => {
  await withDb(async (db, dialect) => {
    await db.insertInto("t").values({ v: "first" }).execute();
    // Reads one after another, each a group of its own: none waits for the disk.
    const before = { ...dialect.stats };
    for (let i = 0; i < 50; i++) await db.selectFrom("t").selectAll().execute();
    assert.equal(dialect.stats.syncs, before.syncs, "no sync for reads");
    assert.equal(dialect.stats.readOnly - before.readOnly, 50, "50 read-only groups");
    // A write, then (once its group is committed, its sync under way) a read that sees it:
    // the read is answered only with the write's sync, never before the write is.
    for (let round = 0; round < 20; round++) {
      const order: string[] = [];
      const groups = dialect.stats.groups;
      const write = db
        .insertInto("t")
        .values({ v: `w${round}` })
        .execute()
        .then(() => order.push("write"));
      while (dialect.stats.groups === groups) await new Promise((r) => setImmediate(r));
      const read = db
        .selectFrom("t")
        .select("v")
        .where("v", "=", `w${round}`)
        .execute()
        .then((rows) => order.push(rows.length === 1 ? "read saw it" : "read missed it"));
      await Promise.all([write, read]);
      assert.deepEqual(order, ["write", "read saw it"], `round ${round}`);
    }
  });
});
