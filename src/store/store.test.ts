import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type Kysely, Migrator, sql } from "kysely";
import { inSnapshot, openStore, StoreError } from "./db.ts";
import { migrationProvider } from "./migrations.ts";
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

    test("0007 numbers the proposals made before it per game, and the events that name them", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      // The shape before 0007 (no `num`): written through an untyped view of the store.
      // biome-ignore lint/suspicious/noExplicitAny: the schema of an earlier migration
      const db = ts.store.db as unknown as Kysely<any>;
      const schema = ts.env.ENTENTE_PG_SCHEMA;
      const migrator = new Migrator({
        db,
        provider: migrationProvider(kind),
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      const back = await migrator.migrateTo("0006_labels_notices");
      assert.equal(back.error, undefined);
      await seedGame(ts.store.db);
      await db
        .insertInto("games")
        .values({ ...GAME, id: "g2" })
        .execute();
      // Made in turn: g1, g2, g1, g2, g2 (row ids 1 to 5), with an event naming each by row id.
      const made = ["g1", "g2", "g1", "g2", "g2"];
      for (const [i, game] of made.entries()) {
        const row = await db
          .insertInto("proposals")
          .values({
            game_id: game,
            kind: "houserule",
            powers: null,
            text: `rule ${i}`,
            options: null,
            proposer_user: "u1",
            proposer_seat: null,
            due_idx: 0,
            status: "open",
            counts: null,
            created_at: i,
            closed_at: null,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        await db
          .insertInto("events")
          .values({
            game_id: game,
            kind: "proposal",
            audience: "public",
            data: JSON.stringify({ id: Number(row.id), text: `rule ${i}` }),
            at: i,
          })
          .execute();
      }
      const forward = await migrator.migrateToLatest();
      assert.equal(forward.error, undefined);
      const rows = await ts.store.db
        .selectFrom("proposals")
        .select(["game_id", "num", "text"])
        .orderBy("id")
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.game_id, r.num, r.text]),
        [
          ["g1", 1, "rule 0"],
          ["g2", 1, "rule 1"],
          ["g1", 2, "rule 2"],
          ["g2", 2, "rule 3"],
          ["g2", 3, "rule 4"],
        ],
      );
      const events = await ts.store.db
        .selectFrom("events")
        .select(["game_id", "data"])
        .orderBy("id")
        .execute();
      assert.deepEqual(
        events.map((e) => [e.game_id, JSON.parse(e.data).id, JSON.parse(e.data).text]),
        [
          ["g1", 1, "rule 0"],
          ["g2", 1, "rule 1"],
          ["g1", 2, "rule 2"],
          ["g2", 2, "rule 3"],
          ["g2", 3, "rule 4"],
        ],
      );
      // One number per proposal in a game.
      const { id: _, ...third } = await ts.store.db
        .selectFrom("proposals")
        .selectAll()
        .where("num", "=", 3)
        .executeTakeFirstOrThrow();
      await assert.rejects(ts.store.db.insertInto("proposals").values(third).execute());
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

const GAME = {
  id: "g1",
  name: "g",
  variant: "classical",
  scenario: "7",
  options: "{}",
  record_head: "{}",
  status: "active" as const,
  result: null,
  created_by: "u1",
  created_at: 1,
};

async function seedGame(db: import("kysely").Kysely<import("./schema.ts").DB>) {
  await db
    .insertInto("users")
    .values({ id: "u1", name: "ann", password_hash: "x", created_at: 1 })
    .execute();
  await db.insertInto("games").values(GAME).execute();
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

test("on PostgreSQL, reads in inSnapshot see one snapshot: a commit landing between them is not seen", async (t) => {
  const ts = await testStore(t, "postgres");
  if (!ts) return;
  const { db } = ts.store;
  const other = await ts.reopen();
  await seedGame(db);
  const phaseOf = async (d: typeof db) =>
    (await d.selectFrom("phase_state").select("phase_idx").executeTakeFirstOrThrow()).phase_idx;
  // Without it, each statement sees the database as it is when it starts (as a game view
  // once read the game moved on and its phase rows not yet: the committee test's failure).
  let bump = 1;
  const commitBetween = (read: (d: typeof db) => Promise<number>) => async (d: typeof db) => {
    const first = await read(d);
    await other.db.updateTable("phase_state").set({ phase_idx: bump++ }).execute();
    return [first, await read(d)];
  };
  assert.deepEqual(await commitBetween(phaseOf)(db), [0, 1], "plain reads see the commit");
  assert.deepEqual(await inSnapshot(db, commitBetween(phaseOf)), [1, 1], "one snapshot");
  assert.equal(await phaseOf(db), 2, "the commit itself stands");
  // Inside a transaction it runs as it is.
  await db.transaction().execute(async (trx) => {
    assert.equal(await inSnapshot(trx, phaseOf), 2);
  });
});
