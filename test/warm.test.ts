import assert from "node:assert/strict";
import { test } from "node:test";
import { Judge } from "../src/judge/judge.ts";
import { startServer } from "../src/server/server.ts";
import { Api } from "../src/server/testing.ts";
import { testStore } from "../src/store/testing.ts";

/*
 * The warm-up before listening (src/server/warm.ts): a throwaway game played through the real
 * routes in memory. The server then serves as before, and nothing of the throwaway game is in
 * its store.
 */

test("the warm-up before listening: the routes are run, nothing of it reaches the real store", async (t) => {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "a SQLite store");
  const logged: string[] = [];
  const t0 = performance.now();
  const server = await startServer({
    judge: new Judge({ store: ts.store }),
    port: 0,
    host: "127.0.0.1",
    tickMs: 60_000,
    warmUp: true,
    log: (m) => logged.push(m),
  });
  t.after(() => server.close());
  const ms = Math.round(performance.now() - t0);
  const line = logged.find((m) => m.startsWith("warmed up:"));
  assert.match(
    line ?? "",
    /^warmed up: 280 requests to a throwaway game in \d+ ms$/,
    logged.join("\n"),
  );
  t.diagnostic(`${line}; the server started in ${ms} ms`);
  for (const table of ["users", "games", "submissions", "tokens", "members"] as const) {
    const rows = await ts.store.db.selectFrom(table).selectAll().execute();
    assert.equal(rows.length, 0, `nothing in ${table}`);
  }
  const api = new Api(`http://127.0.0.1:${server.port}`);
  const health = await api.ok<{ status: string }>("GET", "/api/health");
  assert.equal(health.status, "ok");
});
