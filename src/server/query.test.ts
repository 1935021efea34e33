import assert from "node:assert/strict";
import { test } from "node:test";
import { serveJudge } from "./testing.ts";

/* What an anonymous caller reads, and query parameters a route does not take (issue 28). */

test("health tells an anonymous caller no process id", async (t) => {
  const s = await serveJudge(t);
  if (!s) return;
  const health = await s.api.ok("GET", "/api/health");
  assert.equal(health.status, "ok");
  assert.equal("pid" in health, false, JSON.stringify(health));
});

test("an unknown query parameter is a 400 naming it and the ones the route takes", async (t) => {
  const s = await serveJudge(t);
  if (!s) return;
  const { api } = s;
  const gm = await api.ok<{ token: string }>("POST", "/api/users", {
    name: "querygm",
    password: "correct horse battery",
  });
  const game = await api.ok<{ id: string }>("POST", "/api/games", { name: "Q" }, gm.token);
  const votes = await api.call<{ error: string }>(
    "POST",
    `/api/games/${game.id}/votes/1?power=england`,
    { vote: "yes" },
    gm.token,
  );
  assert.equal(votes.status, 400, JSON.stringify(votes.body));
  assert.match(
    votes.body.error,
    /unknown query parameter "power" for POST \/api\/games\/\{id\}\/votes\/\{pid\}: it takes no query parameters/,
  );
  const press = await api.call<{ error: string }>("GET", `/api/games/${game.id}/press?afer=2`);
  assert.equal(press.status, 400);
  assert.match(press.body.error, /unknown query parameter "afer".*it takes "after"/);
  const health = await api.call<{ error: string }>("GET", "/api/health?verbose=1");
  assert.equal(health.status, 400);
  // The parameters a route documents are still taken.
  const ok = await api.call("GET", `/api/games/${game.id}/press?after=0`);
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
});
