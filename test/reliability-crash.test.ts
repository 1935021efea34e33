import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type TestContext, test } from "node:test";
import { writePosition } from "../src/engine/position-json.ts";
import { type ServerProcess, spawnServer } from "../src/server/process.ts";
import { Api, waitFor } from "../src/server/testing.ts";
import { openStore, type Store } from "../src/store/db.ts";
import { dropSchema, freshSchemaName, postgresForTest } from "../src/store/testing.ts";
import { classical } from "../src/variants/classical/index.ts";

/*
 * Faults with many players (docs/reliability.md): `bin/entente serve` killed with SIGKILL at
 * random moments while 21 players in three games send final orders as fast as they can, so
 * that phases are adjudicated all the time (early resolution). After the last restart: every
 * acknowledged order set is stored; every game's phases run 0..n without a gap or a repeat,
 * one phase_resolved event each; and each phase was adjudicated with the last set stored for
 * it before the adjudication (so with every accepted set that arrived in time).
 * ENTENTE_LONG=1 kills ten times instead of three. The players send in a loop on purpose, so
 * the orders-rate quota is off (ENTENTE_ORDERS_BURST=0; test/reliability.test.ts checks it).
 */

const POWERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"] as const;
const UNITS = writePosition(classical, classical.start).units as Record<string, string[]>;
const KILLS = process.env.ENTENTE_LONG === "1" ? 10 : 3;

interface Ack {
  game: string;
  power: string;
  phase: string;
  orders: string;
}

interface Place {
  readonly env: Record<string, string>;
  readonly args: string[];
  open(): Promise<Store>;
}

/** SQLite in a temporary directory, or a fresh schema on PostgreSQL (null: skipped). */
async function place(t: TestContext, kind: "sqlite" | "postgres"): Promise<Place | null> {
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "entente-faults-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    return {
      env: { ENTENTE_TICK_MS: "10", ENTENTE_ORDERS_BURST: "0" },
      args: ["--data", dir],
      open: () => openStore({ sqlitePath: join(dir, "entente.sqlite") }),
    };
  }
  const url = await postgresForTest(t);
  if (!url) return null;
  const schema = freshSchemaName();
  t.after(() => dropSchema(url, schema));
  return {
    env: {
      ENTENTE_TICK_MS: "10",
      ENTENTE_ORDERS_BURST: "0",
      DATABASE_URL: url,
      ENTENTE_PG_SCHEMA: schema,
    },
    args: [],
    open: () => openStore({ url, schema }),
  };
}

const CASES = [
  { kind: "sqlite", processes: 1 },
  { kind: "postgres", processes: 2 },
] as const;

for (const { kind, processes } of CASES) {
  test(`${kind}, ${processes} server process(es): kill -9 ${KILLS} times at random while 21 players submit and phases resolve; nothing lost, no phase twice or skipped`, async (t) => {
    const where = await place(t, kind);
    if (!where) return;
    const running: ServerProcess[] = [];
    t.after(async () => {
      for (const s of running) await s.stop();
    });
    const start = async () => {
      const s = await spawnServer(where.env, where.args);
      running.push(s);
      return s;
    };
    // One after the other: the first one migrates the database.
    const servers: ServerProcess[] = [];
    for (let i = 0; i < processes; i++) servers.push(await start());
    const dead = servers.map(() => false);
    const api = new Api(servers[0]!.base);
    const gm = await api.ok<{ token: string }>("POST", "/api/users", {
      name: "gm",
      password: "correct horse battery",
    });
    const players: { game: string; power: string; token: string }[] = [];
    for (let g = 0; g < 3; g++) {
      const game = await api.ok<{ id: string; invites: { code: string; role: string }[] }>(
        "POST",
        "/api/games",
        { name: `Faults ${g}`, options: { resolveEarly: true } },
        gm.token,
      );
      const code = game.invites.find((i) => i.role === "player")!.code;
      for (const p of POWERS) {
        const u = await api.ok<{ token: string }>("POST", "/api/users", {
          name: `${p}-${g}`,
          password: "correct horse battery",
        });
        await api.ok("POST", `/api/invites/${code}`, { power: p }, u.token);
        players.push({ game: game.id, power: p, token: u.token });
      }
    }

    const acks: Ack[] = [];
    let refusedLate = 0;
    const unexpected: string[] = [];
    let stop = false;
    /** Each request goes to a server that is up (any of them: they share the database). */
    const play = async (p: (typeof players)[number]) => {
      for (let n = 0; !stop; n++) {
        const live = servers.map((_, i) => i).filter((i) => !dead[i]);
        if (live.length === 0) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        const i = live[n % live.length]!;
        const on = new Api(servers[i]!.base);
        try {
          const g = await on.ok<{ phase: string }>("GET", `/api/games/${p.game}`);
          const orders = [...UNITS[p.power]!.map((u) => `${u} H`), `revision ${n}`];
          const a = await on.call(
            "POST",
            `/api/games/${p.game}/orders`,
            { orders, final: true, phase: g.phase },
            p.token,
          );
          if (a.status === 200) {
            acks.push({
              game: p.game,
              power: p.power,
              phase: g.phase,
              orders: JSON.stringify(orders),
            });
          } else if (a.status === 409) refusedLate++;
          else unexpected.push(`${a.status} ${JSON.stringify(a.body)}`);
        } catch (e) {
          // The server died under this request; anything else is a failure.
          if (!dead[i]) unexpected.push(`server ${i} up: ${(e as Error).message}`);
        }
      }
    };
    const loops = players.map(play);
    for (let k = 0; k < KILLS; k++) {
      // A random moment once the players are at it again (on a loaded machine a restarted
      // server may take seconds to serve its first answers): some sets acknowledged since.
      const acked = acks.length;
      await waitFor(
        "order sets acknowledged since the start",
        async () => acks.length >= acked + 5,
      );
      await new Promise((r) => setTimeout(r, Math.random() * 900));
      const victim = Math.floor(Math.random() * servers.length);
      dead[victim] = true;
      await servers[victim]!.kill9();
      // Alone, the players wait for the restart; with two, the other one goes on serving
      // (and adjudicating) meanwhile.
      servers[victim] = await start();
      dead[victim] = false;
    }
    // Phases were adjudicated while killing: at least three in all (bounded wait).
    const games = [...new Set(players.map((p) => p.game))];
    await waitFor("three phases adjudicated in all", async () => {
      const on = new Api(servers[0]!.base);
      let n = 0;
      for (const id of games)
        n += (await on.ok<{ phaseIndex: number }>("GET", `/api/games/${id}`)).phaseIndex;
      return n >= 3;
    });
    stop = true;
    await Promise.all(loops);
    for (const s of servers) await s.stop();

    assert.deepEqual(unexpected, [], "every answer was 200, or 409 for a phase just closed");
    const store = await where.open();
    try {
      const subs = await store.db
        .selectFrom("submissions")
        .select(["id", "game_id", "phase_idx", "phase", "power", "orders"])
        .orderBy("id")
        .execute();
      const stored = new Set(subs.map((s) => `${s.game_id} ${s.phase} ${s.power} ${s.orders}`));
      for (const a of acks) {
        assert.ok(
          stored.has(`${a.game} ${a.phase} ${a.power} ${a.orders}`),
          `lost: ${JSON.stringify(a)}`,
        );
      }
      const phases = await store.db
        .selectFrom("phases")
        .select(["game_id", "idx", "phase", "record", "adjudicated_at"])
        .where("superseded", "=", 0)
        .orderBy("id")
        .execute();
      const events = await store.db
        .selectFrom("events")
        .select(["game_id", "data"])
        .where("kind", "=", "phase_resolved")
        .orderBy("id")
        .execute();
      let adjudicated = 0;
      for (const game of new Set(players.map((p) => p.game))) {
        const mine = phases.filter((p) => p.game_id === game);
        assert.deepEqual(
          mine.map((p) => p.idx),
          mine.map((_, i) => i),
          `game ${game}: phases 0..n, each once`,
        );
        const resolved = events
          .filter((e) => e.game_id === game)
          .map((e) => (JSON.parse(e.data) as { index: number }).index);
        assert.deepEqual(
          resolved,
          mine.map((p) => p.idx),
          `game ${game}: one phase_resolved each`,
        );
        for (const p of mine) {
          const record = JSON.parse(p.record) as { orders: Record<string, string[]> };
          for (const power of POWERS) {
            const last = subs
              .filter((s) => s.game_id === game && s.phase_idx === p.idx && s.power === power)
              .at(-1);
            assert.ok(last, `game ${game} ${p.phase}: ${power} had orders in`);
            assert.equal(
              JSON.stringify(record.orders[power]),
              last.orders,
              `game ${game} ${p.phase}: ${power} adjudicated with its last stored set`,
            );
          }
        }
        adjudicated += mine.length;
      }
      assert.ok(adjudicated >= 3, `phases were adjudicated while killing (${adjudicated})`);
      t.diagnostic(
        `${kind}, ${processes} process(es): ${KILLS} kills; ${acks.length} sets acknowledged, all stored; ${refusedLate} refused as late (409); ${adjudicated} phases adjudicated, each once`,
      );
    } finally {
      await store.close();
    }
  });
}
