import assert from "node:assert/strict";
import { test } from "node:test";
import { accounts, serveJudge } from "./testing.ts";

/* The web client's routes (web-routes.ts) and chaired play (judge/chair.ts), over HTTP. */

interface Legal {
  phase: string;
  type: string;
  counts: Record<string, number>;
  units: {
    power: string;
    location: string;
    dislodged?: boolean;
    orders: { text: string; kind: string }[];
  }[];
}

async function setup(t: import("node:test").TestContext) {
  const { api, clock, judge } = (await serveJudge(t))!;
  const tok = await accounts(api, ["gm", "alice", "bob", "eve"]);
  const game = await api.ok<{ id: string; invites: { code: string; role: string }[] }>(
    "POST",
    "/api/games",
    { name: "Web", scenario: "4", options: { deadlines: { unit: "minutes", movement: 10 } } },
    tok.gm,
  );
  const code = game.invites.find((i) => i.role === "player")!.code;
  await api.ok("POST", `/api/invites/${code}`, { seat: 0 }, tok.alice);
  await api.ok("POST", `/api/invites/${code}`, { seat: 1 }, tok.bob);
  return { api, tok, id: game.id, clock, judge };
}

test("legal orders, typed-order checks and the sandbox", async (t) => {
  const { api, tok, id } = await setup(t);
  await api.ok("POST", `/api/games/${id}/gm/start`, undefined, tok.gm);
  const legal = await api.ok<Legal>("GET", `/api/games/${id}/legal`, undefined, tok.alice);
  assert.equal(legal.type, "M", "a movement phase");
  assert.deepEqual(
    legal.units.map((u) => u.location).sort(),
    ["edi", "lon", "lvp"],
    "England's three units, and nobody else's",
  );
  const lon = legal.units.find((u) => u.location === "lon")!;
  assert.ok(
    lon.orders.some((o) => o.text === "F lon - nth"),
    "London's fleet may move to the North Sea",
  );
  assert.ok(
    !lon.orders.some((o) => o.text === "F lon - yor" && o.kind === "hold"),
    "kinds are right",
  );
  assert.ok(!lon.orders.some((o) => /- wal.*- wal/.test(o.text)), "no nonsense orders");
  const bob = await api.ok<Legal>("GET", `/api/games/${id}/legal`, undefined, tok.bob);
  assert.deepEqual(
    [...new Set(bob.units.map((u) => u.power))].sort(),
    ["austria", "france"],
    "a seat with two powers gets both",
  );
  const gm = await api.ok<Legal>("GET", `/api/games/${id}/legal`, undefined, tok.gm);
  assert.equal(gm.units.length, 22, "the GM sees every unit's legal orders");

  const check = await api.ok<{ lines: { ok: boolean; order?: string; message?: string }[] }>(
    "POST",
    `/api/games/${id}/check`,
    { orders: "F London - North Sea\nA lvp - Burgndy" },
    tok.alice,
  );
  assert.equal(check.lines[0]?.order, "F lon - nth", "the first line read canonically");
  assert.equal(check.lines[1]?.ok, false, "the second is not possible");
  assert.ok(check.lines[1]?.message, "and says why");
  const none = await api.ok<{ sets: unknown[] }>(
    "GET",
    `/api/games/${id}/orders`,
    undefined,
    tok.alice,
  );
  assert.equal(none.sets.length, 0, "checking stored nothing");
  const eve = await api.call("POST", `/api/games/${id}/check`, { orders: "A par H" }, tok.eve);
  assert.equal(eve.status, 403, "someone without a seat has nothing to check");

  const sandbox = await api.ok<{
    orders: Record<string, { result: string; explanation: string }[]>;
  }>("POST", "/api/sandbox/adjudicate", {
    variant: "classical",
    phase: "S1901M",
    units: { england: ["F lon"], france: ["F bre"] },
    orders: { england: ["F lon - eng"], france: ["F bre - eng"] },
  });
  assert.equal(sandbox.orders.england?.[0]?.result, "fails", "a standoff in the Channel");
  assert.ok((sandbox.orders.england?.[0]?.explanation ?? "").length > 0, "explained");
  const bad = await api.call("POST", "/api/sandbox/adjudicate", {
    phase: "S1901M",
    units: { england: ["A xyz"] },
  });
  assert.equal(bad.status, 400, "a bad position is refused");
  assert.match(JSON.stringify(bad.body), /xyz/, "naming what is wrong");
  const swiss = await api.call("POST", "/api/sandbox/adjudicate", {
    variant: "europe1935",
    phase: "S1935M",
    units: { germany: ["A swi"] },
  });
  assert.equal(swiss.status, 400, "a unit in impassable Switzerland is refused");
  assert.match(JSON.stringify(swiss.body), /Switzerland is impassable/, "saying why");
  const sl = await api.ok<Legal>("POST", "/api/sandbox/legal", {
    phase: "W1901A",
    units: { england: ["F lon"] },
    centers: { england: ["lon", "edi", "lvp"] },
  });
  assert.equal(sl.counts.england, 2, "two builds due");
  assert.ok(
    sl.units.some((u) => u.orders.some((o) => o.text === "build A edi")),
    "a build in Edinburgh is offered",
  );
  const retreat = await api.ok<Legal>("POST", "/api/sandbox/legal", {
    phase: "S1901R",
    units: { france: ["A bur"] },
    dislodged: { germany: [{ unit: "A bur", from: "mar" }] },
  });
  const texts = retreat.units.flatMap((u) => u.orders.map((o) => o.text));
  assert.ok(texts.includes("A bur - mun"), `a retreat to Munich is offered: ${texts}`);
  assert.ok(texts.includes("A bur D"), "and the disband");
  assert.ok(!texts.includes("A bur - mar"), "but not where the attacker came from");
  assert.ok(
    retreat.units.every((u) => u.dislodged),
    "only the dislodged unit is ordered",
  );
  const games = await api.ok<unknown[]>("GET", "/api/games");
  assert.equal(games.length, 1, "the sandbox stores nothing");
  const mine = await api.ok<{ id: string; role: string }[]>(
    "GET",
    "/api/my/games",
    undefined,
    tok.alice,
  );
  assert.deepEqual(
    mine.map((g) => [g.id, g.role]),
    [[id, "player"]],
    "my games, with my role",
  );
});

test("chaired play: no deadline; only the chair resolves, at once", async (t) => {
  const { api, tok, id, clock, judge } = await setup(t);
  const refused = await api.call("POST", `/api/games/${id}/chair`, { on: true }, tok.alice);
  assert.equal(refused.status, 403, "only the GM chairs");
  await api.ok("POST", `/api/games/${id}/chair`, { on: true }, tok.gm);
  await api.ok("POST", `/api/games/${id}/gm/start`, undefined, tok.gm);
  const v = await api.ok<{ deadline: string | null; state: string }>("GET", `/api/games/${id}`);
  assert.equal(v.state, "open", "open for orders");
  assert.equal(v.deadline, null, "with no deadline");
  await api.ok(
    "POST",
    `/api/games/${id}/orders`,
    { orders: ["F lon - eng"], final: true },
    tok.alice,
  );
  await api.ok("POST", `/api/games/${id}/orders`, { orders: "France:\nF bre - eng" }, tok.bob);
  const status = await api.ok<{ chaired: boolean; received: { power: string }[] }>(
    "GET",
    `/api/games/${id}/chair`,
    undefined,
    tok.gm,
  );
  assert.equal(status.chaired, true, "chaired");
  assert.deepEqual(status.received.map((r) => r.power).sort(), ["england", "france"], "who sent");
  const pub = await api.ok<{ chaired: boolean; received?: unknown }>(
    "GET",
    `/api/games/${id}/chair`,
  );
  assert.equal(pub.received, undefined, "nobody else learns who sent what");
  clock.advance(400 * 86_400_000);
  assert.equal(await judge.adjudication.tick(), 0, "the scheduler never resolves a chaired phase");
  // 400 days without a request: every token has expired (docs/judge.md, "Tokens").
  for (const n of ["gm", "alice"]) {
    tok[n] = (
      await api.ok<{ token: string }>("POST", "/api/login", { name: n, password: `${n}-secret!` })
    ).token;
  }
  assert.equal(
    (await api.call("POST", `/api/games/${id}/chair/resolve`, undefined, tok.alice)).status,
    403,
    "a delegation cannot resolve",
  );
  const r = await api.ok<{
    index: number;
    phase: { phase: string; results: Record<string, { order: string; result: string }[]> };
  }>("POST", `/api/games/${id}/chair/resolve`, undefined, tok.gm);
  assert.equal(r.phase.phase, "S1901M", "the open phase was resolved");
  assert.equal(r.phase.results.england?.[0]?.result, "fails", "with both orders: a standoff");
  const next = await api.ok<{ phase: string; deadline: string | null }>("GET", `/api/games/${id}`);
  assert.equal(next.phase, "F1901M", "the next phase is open");
  assert.equal(next.deadline, null, "still without a deadline");
  await api.ok("POST", `/api/games/${id}/gm/pause`, undefined, tok.gm);
  await api.ok("POST", `/api/games/${id}/gm/resume`, undefined, tok.gm);
  const resumed = await api.ok<{ state: string; deadline: string | null }>(
    "GET",
    `/api/games/${id}`,
  );
  assert.equal(resumed.state, "open", "resumed");
  assert.equal(resumed.deadline, null, "and a resumed chaired phase gets no deadline either");
  await api.ok("POST", `/api/games/${id}/chair`, { on: false }, tok.gm);
  const off = await api.ok<{ deadline: string | null }>("GET", `/api/games/${id}`);
  assert.equal(Date.parse(off.deadline ?? "") - clock.now(), 10 * 60_000, "deadlines again");
});

test("pages: the shell with a content security policy, the bundle, JSON 404s stay", async (t) => {
  const { api } = await setup(t);
  for (const path of ["/", "/game/x", "/sandbox", "/chair/x", "/join/x"]) {
    const res = await fetch(api.base + path);
    assert.equal(res.status, 200, `${path} is a page`);
    assert.match(
      res.headers.get("content-security-policy") ?? "",
      /script-src 'self'/,
      `${path} CSP`,
    );
    assert.match(
      await res.text(),
      /<script type="module" src="\/assets\/app\.js\?v=/,
      "the script",
    );
  }
  const css = await fetch(`${api.base}/assets/app.css`);
  assert.match(css.headers.get("content-type") ?? "", /text\/css/, "the style sheet");
  const docs = await api.ok<{ paths: Record<string, unknown> }>("GET", "/api/openapi.json");
  for (const p of ["/api/sandbox/adjudicate", "/api/games/{id}/legal", "/api/games/{id}/chair"]) {
    assert.ok(docs.paths[p], `the OpenAPI document describes ${p}`);
  }
  const missing = await api.call("GET", "/nope");
  assert.equal(missing.status, 404, "other paths are still 404");
});
