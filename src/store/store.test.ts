import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sql } from "kysely";
import { openStore, StoreError } from "./db.ts";
import { STORE_KINDS, testStore } from "./testing.ts";

for (const kind of STORE_KINDS) {
  describe(`store on ${kind}`, () => {
    test("migrates on open, and opening again changes nothing", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const again = await ts.reopen();
      assert.equal(again.dialect, kind);
      const rows = await again.db.selectFrom("games").selectAll().execute();
      assert.deepEqual(rows, []);
    });

    test("bigint times read back as numbers; JSON text round-trips", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const { db } = ts.store;
      const at = Date.UTC(2030, 0, 1, 12);
      await db
        .insertInto("users")
        .values({ id: "u1", name: "ann", password_hash: "x", created_at: at })
        .execute();
      const u = await db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
      assert.equal(u.created_at, at);
      assert.equal(typeof u.created_at, "number");
    });

    test("one current row per phase: a second adjudication of a phase cannot be stored", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const { db } = ts.store;
      await seedGame(ts.store.db);
      const row = {
        game_id: "g1",
        idx: 0,
        phase: "S1901M",
        record: "{}",
        superseded: 0,
        adjudicated_at: 1,
      };
      await db.insertInto("phases").values(row).execute();
      await assert.rejects(db.insertInto("phases").values(row).execute());
      // A superseded row (a GM correction) may sit beside the current one.
      await db.updateTable("phases").set({ superseded: 1 }).execute();
      await db.insertInto("phases").values(row).execute();
      const n = await db
        .selectFrom("phases")
        .select(sql<number>`count(*)`.as("n"))
        .executeTakeFirstOrThrow();
      assert.equal(Number(n.n), 2);
    });

    test("the conditional claim: of concurrent claims on one phase exactly one succeeds", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      await seedGame(ts.store.db);
      // PostgreSQL: four connection pools, as four processes would have. SQLite is one
      // process's database: its transactions queue on the one connection.
      const others =
        kind === "postgres"
          ? await Promise.all([ts.reopen(), ts.reopen(), ts.reopen()])
          : [ts.store, ts.store, ts.store];
      const claim = (s: typeof ts.store) =>
        s.db.transaction().execute(async (trx) => {
          const r = await trx
            .updateTable("phase_state")
            .set({ version: sql`version + 1`, phase_idx: 1 })
            .where("game_id", "=", "g1")
            .where("phase_idx", "=", 0)
            .executeTakeFirst();
          return Number(r.numUpdatedRows);
        });
      const results = await Promise.all([ts.store, ...others].map(claim));
      assert.equal(
        results.reduce((a, b) => a + b, 0),
        1,
      );
    });
  });
}

test("a DATABASE_URL that is not postgres:// is refused with a clear message", async () => {
  await assert.rejects(openStore({ url: "mysql://x" }), (e: Error) => {
    assert.ok(e instanceof StoreError);
    assert.match(e.message, /postgres:\/\//);
    return true;
  });
});

async function seedGame(db: import("kysely").Kysely<import("./schema.ts").DB>) {
  await db
    .insertInto("users")
    .values({ id: "u1", name: "ann", password_hash: "x", created_at: 1 })
    .execute();
  await db
    .insertInto("games")
    .values({
      id: "g1",
      name: "g",
      variant: "classical",
      scenario: "7",
      options: "{}",
      record_head: "{}",
      status: "active",
      result: null,
      created_by: "u1",
      created_at: 1,
    })
    .execute();
  await db
    .insertInto("phase_state")
    .values({
      game_id: "g1",
      phase_idx: 0,
      phase: "S1901M",
      state: "open",
      deadline_at: 0,
      remaining_ms: null,
      ready: 0,
      version: 0,
      updated_at: 1,
    })
    .execute();
}
