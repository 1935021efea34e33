import assert from "node:assert/strict";
import { test } from "node:test";
import { Judge } from "../judge/judge.ts";
import { Clock, sevenPlayerGame } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import type { LimitsConfig } from "./limits.ts";
import { serve } from "./testing.ts";

/*
 * Quotas where there were none (issue 28): tokens, invitations, vote changes, mail-address
 * changes and open event streams, each bounded per account and per address, refused with a
 * 429 that says when to try again and a Retry-After header.
 */

const HOUR = 60 * 60_000;

async function served(t: import("node:test").TestContext, limits: Partial<LimitsConfig>) {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts);
  const clock = new Clock();
  const game = await sevenPlayerGame(ts.store, {}, clock);
  const judge = new Judge({ store: ts.store, now: clock.now });
  const { base, api } = await serve(t, judge, {
    tickMs: 60_000,
    pollMs: 50,
    limits,
  });
  return { api, base, judge, clock, game };
}

const tooMany = (a: { status: number; body: unknown }, re: RegExp) => {
  assert.equal(a.status, 429, JSON.stringify(a.body));
  assert.match((a.body as { error: string }).error, re);
  assert.match((a.body as { error: string }).error, /try again in \d+ seconds?/);
};

test("tokens, invitations, vote changes and mail-address changes: bounded per account and per address", async (t) => {
  const { api, judge, clock, game } = await served(t, {
    tokensPerUser: { max: 3, windowMs: HOUR },
    tokensPerAddress: { max: 5, windowMs: HOUR },
    invitesPerUser: { max: 3, windowMs: HOUR },
    voteChangesPerUser: { max: 4, windowMs: HOUR },
    mailChangesPerUser: { max: 2, windowMs: HOUR },
  });
  const as = async (u: { id: string }) => (await judge.accounts.issueToken(u.id, "test")).token;
  const austria = await as(game.players.austria);
  const england = await as(game.players.england);
  const gm = await as(game.gm);
  // Tokens: 3 per account, 5 per address.
  for (let i = 0; i < 3; i++) await api.ok("POST", "/api/tokens", { label: `t${i}` }, austria);
  const fourth = await fetch(`${api.base}/api/tokens`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${austria}` },
    body: JSON.stringify({ label: "t3" }),
  });
  assert.equal(fourth.status, 429);
  const wait = Number(fourth.headers.get("retry-after"));
  assert.ok(wait > 0 && wait <= 3600, `Retry-After ${wait}`);
  tooMany(
    { status: 429, body: await fourth.json() },
    /too many tokens made by you \(at most 3 in 1 hour\)/,
  );
  for (let i = 0; i < 2; i++) await api.ok("POST", "/api/tokens", { label: `e${i}` }, england);
  tooMany(
    await api.call("POST", "/api/tokens", { label: "e2" }, england),
    /too many tokens made from your address \(at most 5 in 1 hour\)/,
  );
  // Invitations: 3 per account.
  for (let i = 0; i < 3; i++)
    await api.ok("POST", `/api/games/${game.gameId}/invites`, { role: "observer" }, gm);
  tooMany(
    await api.call("POST", `/api/games/${game.gameId}/invites`, { role: "observer" }, gm),
    /too many invitations made by you/,
  );
  // Vote changes: 4 per account.
  const p = await judge.votes.propose(game.players.austria, game.gameId, { kind: "draw" });
  const pid = p.id;
  for (const v of ["yes", "no", "yes", "abstain"])
    await api.ok("POST", `/api/games/${game.gameId}/votes/${pid}`, { vote: v }, england);
  tooMany(
    await api.call("POST", `/api/games/${game.gameId}/votes/${pid}`, { vote: "no" }, england),
    /too many votes cast or changed by you/,
  );
  // Mail-address changes: 2 per account.
  await api.ok("POST", "/api/me/mail", { address: "a@example.org" }, austria);
  await api.ok("POST", "/api/me/mail", { address: "b@example.org" }, austria);
  tooMany(
    await api.call("POST", "/api/me/mail", { address: "c@example.org" }, austria),
    /too many mail-address changes by you/,
  );
  // A refused request costs nothing, and the window passes.
  clock.advance(HOUR + 1000);
  await api.ok("POST", "/api/me/mail", { address: "c@example.org" }, austria);
  await api.ok("POST", "/api/tokens", { label: "later" }, austria);
});

test("event streams: bounded per address while open; one closed makes room", async (t) => {
  const { base, game } = await served(t, { eventStreamsPerAddress: 2, eventStreamsPerUser: 2 });
  const open = async () => {
    const abort = new AbortController();
    const r = await fetch(`${base}/api/games/${game.gameId}/events`, {
      headers: { accept: "text/event-stream" },
      signal: abort.signal,
    });
    return { r, abort };
  };
  const a = await open();
  const b = await open();
  assert.equal(a.r.status, 200);
  assert.equal(b.r.status, 200);
  const c = await open();
  assert.equal(c.r.status, 429);
  assert.ok(Number(c.r.headers.get("retry-after")) > 0);
  assert.match(
    ((await c.r.json()) as { error: string }).error,
    /too many event streams open from your address \(at most 2 at once\).*try again in \d+ seconds?/,
  );
  a.abort.abort();
  await a.r.body?.cancel().catch(() => {});
  // The server sees the close soon; bounded wait for it.
  const end = Date.now() + 10_000;
  let d = await open();
  while (d.r.status === 429 && Date.now() < end) {
    await d.r.body?.cancel().catch(() => {});
    await new Promise((r) => setTimeout(r, 50));
    d = await open();
  }
  assert.equal(d.r.status, 200, "a stream closed makes room for another");
  b.abort.abort();
  d.abort.abort();
});
