import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { writePosition } from "../engine/position-json.ts";
import { openStore } from "../store/db.ts";
import { dropSchema, freshSchemaName, postgresForTest } from "../store/testing.ts";
import { classical } from "../variants/classical/index.ts";
import { type ServerProcess, spawnServer } from "./process.ts";
import { Api, accounts, waitFor } from "./testing.ts";

/*
 * Reliability with real processes: `bin/entente serve` killed with SIGKILL while orders
 * arrive and in the middle of an adjudication loses no accepted order and adjudicates each
 * phase exactly once after restart; two servers on one PostgreSQL database never adjudicate
 * one phase twice.
 */

const POWERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"] as const;

/** The classical start, per power (`A vie`, `F stp/sc`). */
const START_UNITS = writePosition(classical, classical.start).units as Record<
  (typeof POWERS)[number],
  string[]
>;

test("kill -9 at any moment loses no accepted order; each phase is adjudicated once after restart", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "entente-crash-"));
  const running: ServerProcess[] = [];
  t.after(async () => {
    for (const s of running) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (env: Record<string, string> = {}) => {
    const s = await spawnServer(env, ["--data", dir]);
    running.push(s);
    return s;
  };

  let server = await start();
  let api = new Api(server.base);
  const gm = (await accounts(api, ["gm"])).gm!;
  const game = await api.ok<{ id: string; invites: { code: string; role: string }[] }>(
    "POST",
    "/api/games",
    { name: "Crash", options: { deadlines: { unit: "hours", movement: 24 } } },
    gm,
  );
  const code = game.invites.find((i) => i.role === "player")!.code;
  const tokens = await accounts(api, POWERS);
  for (const p of POWERS) await api.ok("POST", `/api/invites/${code}`, { power: p }, tokens[p]);

  // Seven players send revised order sets as fast as they can; SIGKILL lands mid-stream.
  const acknowledged: { power: string; orders: string[] }[] = [];
  const inFlight = new Map<string, string[]>();
  let killed = false;
  const sender = async (power: (typeof POWERS)[number]) => {
    for (let n = 0; !killed; n++) {
      // Legal holds, and a line that marks the revision (kept as written, as any line is).
      const orders = [...START_UNITS[power].map((u) => `${u} H`), `revision ${n}`];
      inFlight.set(power, orders);
      try {
        const a = await api.call("POST", `/api/games/${game.id}/orders`, { orders }, tokens[power]);
        if (a.status === 200) acknowledged.push({ power, orders });
      } catch {
        return; // the connection died with the server
      }
    }
  };
  const senders = POWERS.map(sender);
  await waitFor(
    "some accepted orders",
    async () => acknowledged.length >= 40 + Math.floor(Math.random() * 40),
  );
  await server.kill9();
  killed = true;
  await Promise.all(senders);
  assert.ok(acknowledged.length >= 40);

  // Every acknowledged submission is in the database; each power's current set is its last
  // acknowledged one, or the one that was in flight when the process died.
  {
    const store = await openStore({ sqlitePath: join(dir, "entente.sqlite") });
    const rows = await store.db
      .selectFrom("submissions")
      .select(["power", "orders"])
      .orderBy("id")
      .execute();
    await store.close();
    const stored = new Set(rows.map((r) => `${r.power} ${r.orders}`));
    for (const a of acknowledged) {
      assert.ok(
        stored.has(`${a.power} ${JSON.stringify(a.orders)}`),
        `lost ${a.power} ${a.orders.at(-1)}`,
      );
    }
    for (const p of POWERS) {
      const last = rows.filter((r) => r.power === p).at(-1)!;
      const lastAck = acknowledged.filter((a) => a.power === p).at(-1)!;
      assert.ok(
        last.orders === JSON.stringify(lastAck.orders) ||
          last.orders === JSON.stringify(inFlight.get(p)),
        `${p}: the stored set is neither the last acknowledged nor the one in flight`,
      );
    }
  }

  // Killed in the middle of the adjudication (after the work, before the commit).
  server = await start({ ENTENTE_FAILPOINT: "adjudicate-before-commit" });
  api = new Api(server.base);
  const expected: Record<string, string[]> = {};
  for (const p of POWERS) {
    const sets = await api.ok<{ sets: { orders: string[] }[] }>(
      "GET",
      `/api/games/${game.id}/orders`,
      undefined,
      tokens[p],
    );
    expected[p] = sets.sets[0]!.orders;
  }
  // The deadline's answer waits for its commit to reach the disk; the scheduler may start the
  // adjudication (and the failpoint kill the process) meanwhile, so the answer may never come.
  // Either way the deadline was committed before the adjudication read it.
  const moved = await api
    .call("POST", `/api/games/${game.id}/gm/deadline`, { at: new Date().toISOString() }, gm)
    .catch(() => null);
  if (moved) assert.equal(moved.status, 200, JSON.stringify(moved.body));
  const death = await server.exited;
  assert.equal(death.signal, "SIGKILL", server.log());
  assert.match(server.log(), /failpoint adjudicate-before-commit/);

  // Restarted: the deadline has passed, so the phase is adjudicated at once, exactly once.
  server = await start();
  api = new Api(server.base);
  const after = await waitFor("S1901M adjudicated after restart", async () => {
    const g = await api.ok<{ phaseIndex: number; phase: string }>("GET", `/api/games/${game.id}`);
    return g.phaseIndex === 1 ? g : undefined;
  });
  assert.equal(after.phase, "F1901M");
  const phases = await api.ok<{ orders: Record<string, string[]> }[]>(
    "GET",
    `/api/games/${game.id}/phases`,
  );
  assert.equal(phases.length, 1);
  assert.deepEqual(phases[0]!.orders, expected, "adjudicated with the last accepted sets");

  // A deadline set before a crash is kept: it passes while the server is down.
  const deadline = Date.now() + 1500;
  await api.ok(
    "POST",
    `/api/games/${game.id}/gm/deadline`,
    { at: new Date(deadline).toISOString() },
    gm,
  );
  await server.kill9();
  // Down until the deadline has passed (at once when the kill itself took that long).
  await new Promise((r) => setTimeout(r, Math.max(0, deadline + 100 - Date.now())));
  server = await start();
  api = new Api(server.base);
  await waitFor("F1901M adjudicated after restart", async () => {
    const g = await api.ok<{ phaseIndex: number }>("GET", `/api/games/${game.id}`);
    return g.phaseIndex === 2;
  });
  await server.stop();
  const store = await openStore({ sqlitePath: join(dir, "entente.sqlite") });
  const rows = await store.db
    .selectFrom("phases")
    .select(["idx", "phase", "superseded"])
    .orderBy("id")
    .execute();
  const resolved = await store.db
    .selectFrom("events")
    .select("data")
    .where("kind", "=", "phase_resolved")
    .execute();
  await store.close();
  assert.deepEqual(rows, [
    { idx: 0, phase: "S1901M", superseded: 0 },
    { idx: 1, phase: "F1901M", superseded: 0 },
  ]);
  assert.equal(resolved.length, 2, "one adjudication per phase");
});

test("two server processes on one PostgreSQL database never adjudicate a phase twice", async (t) => {
  const url = await postgresForTest(t);
  if (!url) return;
  const schema = freshSchemaName();
  const env = { DATABASE_URL: url, ENTENTE_PG_SCHEMA: schema, ENTENTE_TICK_MS: "5" };
  // Both started at once; whichever did start is stopped, also when the other did not.
  const started = await Promise.allSettled([spawnServer(env), spawnServer(env)]);
  t.after(async () => {
    for (const s of started) if (s.status === "fulfilled") await s.value.stop();
    await dropSchema(url, schema);
  });
  const servers = started.map((s) => {
    if (s.status === "rejected") throw s.reason;
    return s.value;
  });
  const [a, b] = servers.map((s) => new Api(s.base)) as [Api, Api];
  const gm = (await accounts(a, ["gm"])).gm!;
  const games: string[] = [];
  const deadline = new Date(Date.now() + 1500).toISOString();
  for (let i = 0; i < 8; i++) {
    const g = await (i % 2 ? a : b).ok<{ id: string }>("POST", "/api/games", { name: `g${i}` }, gm);
    await a.ok("POST", `/api/games/${g.id}/gm/start`, undefined, gm);
    await b.ok("POST", `/api/games/${g.id}/gm/deadline`, { at: deadline }, gm);
    games.push(g.id);
  }
  for (const id of games) {
    await waitFor(`game ${id} adjudicated`, async () => {
      const g = await b.ok<{ phaseIndex: number }>("GET", `/api/games/${id}`);
      return g.phaseIndex === 1;
    });
  }
  const health = await Promise.all(
    [a, b].map((x) => x.ok<{ adjudications: number }>("GET", "/api/health")),
  );
  assert.equal(
    health[0]!.adjudications + health[1]!.adjudications,
    games.length,
    `each phase once in all: ${health.map((h) => h.adjudications).join(" + ")}`,
  );
  const store = await openStore({ url, schema });
  const resolved = await store.db
    .selectFrom("events")
    .select("game_id")
    .where("kind", "=", "phase_resolved")
    .execute();
  const rows = await store.db.selectFrom("phases").select("game_id").execute();
  await store.close();
  assert.equal(resolved.length, games.length);
  assert.equal(rows.length, games.length);
});
