import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { type GameRecord, replayRecord } from "../engine/record.ts";
import { Judge } from "../judge/judge.ts";
import { Clock, type POWERS, sevenPlayerGame, type TestGame } from "../judge/testing.ts";
import { waitFor } from "../server/testing.ts";
import { runSync } from "../testing/children.ts";
import { scenarioOfRecord } from "../variants/variant-files.ts";
import { backupSqlite, restoreSqlite } from "./backup.ts";
import { openStore, StoreError } from "./db.ts";

/*
 * Backups (issue 21): a backup taken while orders are being written restores to a store in
 * which every game replays phase by phase, holding every order acknowledged before it began.
 */

const BIN = fileURLToPath(new URL("../../bin/entente", import.meta.url));

async function playPhases(g: TestGame, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const view = await g.judge.views.gameView(g.gm, g.gameId);
    for (const p of view.toOrder) {
      const units = view.phase?.endsWith("M") ? (view.position.units[p] ?? []) : [];
      await g.judge.submissions.submitOrders(g.players[p as (typeof POWERS)[number]], g.gameId, {
        orders: units.map((u, k) => (k === 0 && p === "france" ? `${u} - bur` : `${u} H`)),
        final: true,
      });
    }
    // Every power's orders are final: the phase is resolved early, no clock moved (which
    // would make the other games' deadlines pass too).
    assert.equal(await g.judge.adjudication.tick(), 1, "one phase adjudicated");
  }
}

test("a backup taken while orders are written restores, and every game in it replays", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "entente-backup-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const live = join(dir, "live", "entente.sqlite");
  const store = await openStore({ sqlitePath: live });
  t.after(() => store.close());
  const clock = new Clock();
  const games: TestGame[] = [];
  for (let i = 0; i < 3; i++) {
    const g = await sevenPlayerGame(store, { resolveEarly: true }, clock);
    await playPhases(g, 2 + i);
    games.push(g);
  }
  // Orders keep arriving while the backup runs; each acknowledged one is noted.
  const acknowledged: { game: string; power: string; text: string; at: number }[] = [];
  let writing = true;
  let backupStarted = Number.POSITIVE_INFINITY;
  const writer = (async () => {
    let n = 0;
    while (writing) {
      const g = games[n % games.length]!;
      const view = await g.judge.views.gameView(g.gm, g.gameId);
      n++;
      const power = view.toOrder[n % Math.max(1, view.toOrder.length)];
      if (!power) {
        await new Promise((r) => setImmediate(r));
        continue;
      }
      const unit = (view.position.units[power] ?? [])[0];
      const text = unit ? `${unit} H` : "";
      const sent = Date.now();
      await g.judge.submissions.submitOrders(
        g.players[power as (typeof POWERS)[number]],
        g.gameId,
        {
          orders: text ? [text] : [],
        },
      );
      acknowledged.push({ game: g.gameId, power, text, at: sent });
      await new Promise((r) => setImmediate(r));
    }
  })();
  // The backup starts once some orders are acknowledged (bounded: a loaded machine is slow).
  await waitFor("orders acknowledged before the backup", async () => acknowledged.length >= 3);
  const target = join(dir, "backup.sqlite");
  backupStarted = Date.now();
  const summary = await backupSqlite(live, target);
  writing = false;
  await writer;
  assert.equal(summary.games, 3, "three games in the backup");
  assert.equal(summary.phases, 2 + 3 + 4, "every adjudicated phase");
  assert.ok(summary.users >= 3 * 8, `${summary.users} users`);
  assert.ok(acknowledged.length > 0, "orders were written during the backup");

  // Restored into a new data folder: every game replays; orders acknowledged before the
  // backup began are in it.
  const restoredPath = join(dir, "restored", "entente.sqlite");
  mkdirSync(join(dir, "restored"));
  const restored = await restoreSqlite(target, restoredPath);
  assert.equal(restored.games, 3, "restored: three games");
  const back = await openStore({ sqlitePath: restoredPath });
  t.after(() => back.close());
  const judge = new Judge({ store: back, now: clock.now });
  const rows = await back.db.selectFrom("games").select("id").execute();
  assert.equal(rows.length, 3, "three games restored");
  let phases = 0;
  for (const { id } of rows) {
    const record = (await judge.views.record(id)) as unknown as GameRecord;
    const scenario = scenarioOfRecord(record);
    assert.ok(scenario, `${id}: its scenario is known`);
    assert.deepEqual(replayRecord(scenario, record), { ok: true }, `${id} replays`);
    phases += record.phases.length;
  }
  assert.equal(phases, 9, "every phase replayed");
  const before = acknowledged.filter((a) => a.at < backupStarted);
  assert.ok(before.length > 0, "some orders were acknowledged before the backup began");
  const stored = await back.db
    .selectFrom("submissions")
    .select(["game_id", "power", "orders"])
    .execute();
  for (const a of before) {
    assert.ok(
      stored.some((s) => s.game_id === a.game && s.power === a.power),
      `${a.power}'s orders in ${a.game}, acknowledged before the backup, are in it`,
    );
  }
  // The live store is untouched and still serves.
  assert.equal((await store.db.selectFrom("games").select("id").execute()).length, 3);
});

test("backup and restore refuse what would lose data, saying why", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "entente-backup-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const live = join(dir, "entente.sqlite");
  const store = await openStore({ sqlitePath: live });
  await store.close();
  const refused = async (f: () => Promise<unknown>, want: RegExp) => {
    await assert.rejects(f, (e: unknown) => {
      assert.ok(e instanceof StoreError, String(e));
      assert.match(e.message, want, e.message);
      return true;
    });
  };
  await refused(() => backupSqlite(join(dir, "none.sqlite"), join(dir, "b")), /no database/);
  await refused(() => backupSqlite(live, live), /exists; choose a new file name/);
  const junk = join(dir, "junk.sqlite");
  writeFileSync(junk, "not a database at all, just text that is long enough to look like one");
  await refused(() => restoreSqlite(junk, join(dir, "x.sqlite")), /cannot be|damaged|not an/);
  const good = join(dir, "good.sqlite");
  await backupSqlite(live, good);
  await refused(() => restoreSqlite(good, live), /exists: stop the server.*--force/);
  const forced = await restoreSqlite(good, live, { force: true });
  assert.equal(forced.games, 0, "restored with --force");
  assert.ok(!existsSync(`${good}.partial`), "no partial file left");
});

test("entente backup and restore on the command line; PostgreSQL is told its tools", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "entente-backup-cli-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const run = (args: string[], env: Record<string, string> = {}) =>
    runSync(BIN, args, {
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: "", ...env },
    });
  const data = join(dir, "data");
  mkdirSync(data);
  const init = runSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "-e",
      `import("${fileURLToPath(new URL("./db.ts", import.meta.url))}").then(async (m) => (await m.openStore({ sqlitePath: process.argv[1] })).close())`,
      join(data, "entente.sqlite"),
    ],
    { encoding: "utf8" },
  );
  assert.equal(init.status, 0, init.stderr);
  const file = join(dir, "club.sqlite");
  const b = run(["backup", file, "--data", data]);
  assert.equal(b.status, 0, b.stderr);
  assert.match(b.stdout, /^\{"backup":\{"path":.*"games":0/, b.stdout);
  const again = run(["restore", file, "--data", data]);
  assert.equal(again.status, 1, "an existing database is not replaced without --force");
  assert.match(again.stderr, /--force/, again.stderr);
  const r = run(["restore", file, "--data", data, "--force"]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^\{"restored":/, r.stdout);
  const pg = run(["backup", file], { DATABASE_URL: "postgres://u@h/db" });
  assert.equal(pg.status, 1);
  assert.match(pg.stderr, /pg_dump/, pg.stderr);
  const usage = run(["backup"]);
  assert.equal(usage.status, 2, "no file: usage");
});
