import assert from "node:assert/strict";
import { test } from "node:test";
import type { KyselyPlugin } from "kysely";
import { Judge } from "../judge/judge.ts";
import { Clock, sevenPlayerGame } from "../judge/testing.ts";
import type { Store } from "../store/db.ts";
import { STORE_KINDS, testStore } from "../store/testing.ts";
import { serve, waitFor } from "./testing.ts";

/*
 * Health that tells the truth (issue 28): when the store cannot write (here a full disk,
 * raised by the store's own error codes through a Kysely plugin over the real store: SQLite's
 * SQLITE_FULL, PostgreSQL's 53100), /api/health answers 503 with the cause, a request that
 * meets it answers 503 saying why (not 500), the log names the cause once, and once the
 * store can write again health is ok and the GM of the game in play is told (an event to the
 * GM with the cause and the time it lasted).
 */

const WRITES = new Set(["InsertQueryNode", "UpdateQueryNode", "DeleteQueryNode"]);

/** The store, with writes failing as a full disk fails them while `fault.on`. */
function faultyStore(store: Store): { store: Store; fault: { on: boolean } } {
  const fault = { on: false };
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (fault.on && WRITES.has(args.node.kind)) {
        throw Object.assign(
          new Error(
            store.dialect === "sqlite" ? "database or disk is full" : "could not extend file",
          ),
          { code: store.dialect === "sqlite" ? "SQLITE_FULL" : "53100" },
        );
      }
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  return { store: { ...store, db: store.db.withPlugin(plugin) }, fault };
}

for (const kind of STORE_KINDS) {
  test(`${kind}: /api/health says not ready with the cause while the store cannot write, and the GM is told`, async (t) => {
    const ts = await testStore(t, kind);
    if (!ts) return;
    const { store, fault } = faultyStore(ts.store);
    const clock = new Clock();
    const game = await sevenPlayerGame(store, {}, clock);
    const lines: string[] = [];
    const judge = new Judge({ store, now: clock.now });
    const { server, api } = await serve(t, judge, {
      log: (m) => lines.push(m),
      // No background probe in the test: /api/health probes (at most once a second) and the
      // test probes when it changes the fault. A request's fault counts for 300 ms.
      readiness: { intervalMs: 3_600_000, faultWindowMs: 300 },
    });

    const ok = await api.call<Record<string, unknown>>("GET", "/api/health");
    assert.equal(ok.status, 200);
    assert.equal(ok.body.status, "ok");
    assert.equal(ok.body.cause, undefined);

    fault.on = true;
    await server.readiness.probe();
    const down = await api.call<Record<string, unknown>>("GET", "/api/health");
    assert.equal(down.status, 503);
    assert.equal(down.body.status, "unavailable");
    assert.match(String(down.body.cause), /disk is full/);
    assert.ok(!Number.isNaN(Date.parse(String(down.body.since))));

    // A request that writes is refused with 503 and the cause, not 500; nothing stored.
    for (let i = 0; i < 5; i++) {
      const r = await api.call<{ error: string }>("POST", "/api/users", {
        name: `newcomer${i}`,
        password: "a long enough secret 42",
      });
      assert.equal(r.status, 503, JSON.stringify(r.body));
      assert.match(r.body.error, /cannot use its database just now \(.*disk is full/);
      await server.readiness.probe();
    }
    // The log names the cause once, not once per request or probe.
    assert.equal(lines.filter((l) => /the store is NOT ready: .*disk is full/.test(l)).length, 1);
    assert.equal(lines.filter((l) => /internal error/.test(l)).length, 0, lines.join("\n"));

    fault.on = false;
    await waitFor("the store to be ready again", async () => {
      await server.readiness.probe();
      return (await api.call("GET", "/api/health")).status === 200;
    });
    assert.equal(lines.filter((l) => /the store is ready again after/.test(l)).length, 1);

    // The game's GM is told, with the cause, when it began and when it ended (and maybe once
    // while it lasted, if the store could write by then: here the probe's write works again
    // while a request's fault still counts).
    const told = await ts.store.db
      .selectFrom("events")
      .select(["game_id", "kind", "audience", "data"])
      .where("kind", "=", "store_fault")
      .orderBy("id")
      .execute();
    assert.ok(told.length === 1 || told.length === 2, JSON.stringify(told));
    for (const e of told) {
      assert.equal(e.game_id, game.gameId);
      assert.equal(e.audience, "gm");
    }
    const data = JSON.parse(told.at(-1)!.data) as { cause: string; since: string; until: string };
    assert.match(data.cause, /disk is full/);
    assert.ok(Date.parse(data.until) >= Date.parse(data.since), JSON.stringify(data));
    // ... and the GM sees it in the game's events; a player does not.
    const gmEvents = await judge.views.events(game.gm, game.gameId);
    assert.ok(
      JSON.stringify(gmEvents).includes("store_fault"),
      JSON.stringify(gmEvents).slice(-600),
    );
    const playerEvents = await judge.views.events(game.players.france, game.gameId);
    assert.ok(!JSON.stringify(playerEvents).includes("store_fault"));
  });
}
