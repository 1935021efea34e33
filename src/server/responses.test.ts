import assert from "node:assert/strict";
import { test } from "node:test";
import { documented } from "./openapi-testing.ts";
import { serveJudge, waitFor } from "./testing.ts";

/*
 * The answers' schemas in /api/openapi.json: every successful answer has one, and a played
 * game's answers fit what is documented (every field named, none missing).
 */

const POWERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"] as const;

test("every route documents the schema of its successful answer", async (t) => {
  const s = await serveJudge(t);
  if (!s) return;
  const { doc } = await documented(s.api);
  let routes = 0;
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const ok = Object.entries(op.responses).filter(([code]) => code.startsWith("2"));
      assert.ok(ok.length > 0, `${method} ${path} documents a successful answer`);
      for (const [code, r] of ok) {
        const schema = Object.values(r.content ?? {})[0]?.schema as
          | Record<string, unknown>
          | undefined;
        assert.ok(
          schema && ("type" in schema || "anyOf" in schema),
          `${method} ${path} ${code}: the answer has a schema, not only a description: ${JSON.stringify(r)}`,
        );
        routes++;
      }
    }
  }
  assert.ok(routes >= 50, `every route is in the document (${routes})`);
});

test("a played game's answers fit the schemas /api/openapi.json documents", async (t) => {
  const s = await serveJudge(t);
  if (!s) return;
  const { api } = s;
  const { check } = await documented(api);
  const checked = new Set<string>();
  /** Calls the route and checks its answer against the documented schema. */
  const fits = async <T>(
    method: string,
    path: string,
    route: string,
    token?: string,
    body?: unknown,
  ): Promise<T> => {
    const answer = await api.call<T>(method, path, body, token);
    assert.ok(
      answer.status >= 200 && answer.status < 300,
      `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`,
    );
    check(method, route, answer.status, answer.body);
    checked.add(`${method} ${route}`);
    return answer.body;
  };

  const gm = await fits<{ token: string }>("POST", "/api/users", "/api/users", undefined, {
    name: "gamemaster",
    password: "gm secret words",
  });
  await fits("POST", "/api/login", "/api/login", undefined, {
    name: "gamemaster",
    password: "gm secret words",
  });
  await fits("GET", "/api/health", "/api/health");
  await fits("GET", "/api/variants", "/api/variants");
  await fits("GET", "/api/me", "/api/me", gm.token);
  const made = await fits<{ id: string }>("POST", "/api/tokens", "/api/tokens", gm.token, {
    label: "bot",
  });
  await fits("GET", "/api/tokens", "/api/tokens", gm.token);
  await fits("DELETE", `/api/tokens/${made.id}`, "/api/tokens/{tokenId}", gm.token);
  const game = await fits<{ id: string; invites: { code: string; role: string }[] }>(
    "POST",
    "/api/games",
    "/api/games",
    gm.token,
    { name: "Schemas", options: { resolveEarly: true } },
  );
  const id = game.id;
  const code = game.invites.find((i) => i.role === "player")!.code;
  await fits("GET", `/api/invites/${code}`, "/api/invites/{code}");
  const tok: Record<string, string> = {};
  for (const p of POWERS) {
    const u = await api.ok<{ token: string }>("POST", "/api/users", {
      name: `${p}-player`,
      password: "correct horse battery",
    });
    tok[p] = u.token;
    await fits("POST", `/api/invites/${code}`, "/api/invites/{code}", u.token, { power: p });
  }
  // Spring 1901: everybody holds, but France moves; then press, a proposal, a vote.
  await fits("POST", `/api/games/${id}/press`, "/api/games/{id}/press", tok.france, {
    to: ["england"],
    body: "Channel?",
  });
  await fits("POST", `/api/games/${id}/press`, "/api/games/{id}/press", tok.germany, {
    to: "all",
    body: "Who?",
    kind: "grey",
  });
  const proposal = await fits<{ id: number }>(
    "POST",
    `/api/games/${id}/votes`,
    "/api/games/{id}/votes",
    tok.italy,
    { kind: "draw" },
  );
  await fits(
    "POST",
    `/api/games/${id}/votes/${proposal.id}`,
    "/api/games/{id}/votes/{pid}",
    tok.austria,
    { vote: "no" },
  );
  // A humorous proposal the GM will not put to the vote (seed 002 IX(5)).
  const joke = await fits<{ id: number }>(
    "POST",
    `/api/games/${id}/votes`,
    "/api/games/{id}/votes",
    tok.turkey,
    { kind: "houserule", text: "All units wear hats" },
  );
  const refused = await fits<{ status: string }>(
    "POST",
    `/api/games/${id}/gm/refuse-proposal`,
    "/api/games/{id}/gm/refuse-proposal",
    gm.token,
    { proposal: joke.id, reason: "humorous" },
  );
  assert.equal(refused.status, "refused");
  await fits("GET", `/api/games/${id}/orders`, "/api/games/{id}/orders", tok.france);
  for (const p of POWERS) {
    const orders = p === "france" ? ["A par - bur", "A mar - spa", "F bre - mao"] : [];
    await fits("POST", `/api/games/${id}/orders`, "/api/games/{id}/orders", tok[p], {
      orders,
      final: true,
    });
  }
  await waitFor("spring to be adjudicated", async () => {
    const g = await api.ok<{ phase: string }>("GET", `/api/games/${id}`);
    return g.phase !== "S1901M";
  });
  for (const who of [undefined, gm.token, tok.france, tok.england]) {
    await fits("GET", "/api/games", "/api/games", who);
    await fits("GET", `/api/games/${id}`, "/api/games/{id}", who);
    await fits("GET", `/api/games/${id}/phases`, "/api/games/{id}/phases", who);
    await fits("GET", `/api/games/${id}/record`, "/api/games/{id}/record", who);
    await fits("GET", `/api/games/${id}/press`, "/api/games/{id}/press", who);
    await fits("GET", `/api/games/${id}/events`, "/api/games/{id}/events", who);
  }
  for (const who of [gm.token, tok.italy, tok.austria]) {
    await fits("GET", `/api/games/${id}/votes`, "/api/games/{id}/votes", who);
  }
  await fits("POST", `/api/games/${id}/gm/pause`, "/api/games/{id}/gm/pause", gm.token);
  await fits("POST", `/api/games/${id}/gm/resume`, "/api/games/{id}/gm/resume", gm.token);
  // A misplaced unit (seed 002 VIII(3)): France's army put back in Paris, its fleet disbanded.
  const moved = await fits<{ relocated: { to: string | null } }>(
    "POST",
    `/api/games/${id}/gm/relocate-unit`,
    "/api/games/{id}/gm/relocate-unit",
    gm.token,
    { power: "france", unit: "A bur", to: "par", reason: "the move should have failed" },
  );
  assert.equal(moved.relocated.to, "A par");
  const gone = await fits<{ relocated: { to: string | null } }>(
    "POST",
    `/api/games/${id}/gm/relocate-unit`,
    "/api/games/{id}/gm/relocate-unit",
    gm.token,
    { power: "france", unit: "F mao", disband: true, reason: "it should not be there" },
  );
  assert.equal(gone.relocated.to, null);
  // France's seat opened by the GM: its former player's view says how they lost it.
  await fits("POST", `/api/games/${id}/gm/replace`, "/api/games/{id}/gm/replace", gm.token, {
    seat: 2,
  });
  const former = await fits<{ lostSeat?: { cause: string } }>(
    "GET",
    `/api/games/${id}`,
    "/api/games/{id}",
    tok.france,
  );
  assert.equal(former.lostSeat?.cause, "replaced");
  // A game whose GM reviews press (seed 002 X(1)): held, listed, approved, refused.
  const reviewed = await fits<{ id: string; invites: { code: string; role: string }[] }>(
    "POST",
    "/api/games",
    "/api/games",
    gm.token,
    { name: "Reviewed", options: { press: { review: true } } },
  );
  const rcode = reviewed.invites.find((i) => i.role === "player")!.code;
  await api.ok("POST", `/api/invites/${rcode}`, { power: "italy" }, tok.italy);
  for (const body of ["Hello", "Rude"]) {
    const held = await fits<{ held?: number }>(
      "POST",
      `/api/games/${reviewed.id}/press`,
      "/api/games/{id}/press",
      tok.italy,
      { to: "all", body },
    );
    assert.ok(held.held, "held for the GM");
  }
  for (const who of [gm.token, tok.italy]) {
    await fits("GET", `/api/games/${reviewed.id}/press/held`, "/api/games/{id}/press/held", who);
  }
  await fits(
    "POST",
    `/api/games/${reviewed.id}/gm/approve-press`,
    "/api/games/{id}/gm/approve-press",
    gm.token,
    { held: 1 },
  );
  await fits(
    "POST",
    `/api/games/${reviewed.id}/gm/refuse-press`,
    "/api/games/{id}/gm/refuse-press",
    gm.token,
    { held: 2, reason: "rude" },
  );
  await fits(
    "GET",
    `/api/games/${reviewed.id}/press/held`,
    "/api/games/{id}/press/held",
    tok.italy,
  );
  assert.ok(checked.size >= 22, `the main routes were checked (${[...checked].join(", ")})`);
});

test("an Age of Discovery game's view and each viewer's own map fit their schemas", async (t) => {
  const s = await serveJudge(t);
  if (!s) return;
  const { api } = s;
  const { check } = await documented(api);
  const fits = async <T>(path: string, route: string, token: string): Promise<T> => {
    const body = await api.ok<T>("GET", path, undefined, token);
    check("GET", route, 200, body);
    return body;
  };
  const gm = await api.ok<{ token: string }>("POST", "/api/users", {
    name: "gm",
    password: "gm horse battery",
  });
  const game = await api.ok<{ id: string; invites: { code: string; role: string }[] }>(
    "POST",
    "/api/games",
    { name: "Discovery", variant: "discovery", players: 9, seed: 11 },
    gm.token,
  );
  const code = game.invites.find((i) => i.role === "player")!.code;
  const players: string[] = [];
  for (let p = 1; p <= 9; p++) {
    const u = await api.ok<{ token: string }>("POST", "/api/users", {
      name: `d${p}`,
      password: `d${p} horse battery`,
    });
    await api.ok("POST", `/api/invites/${code}`, { power: String(p) }, u.token);
    players.push(u.token);
  }
  const view = await fits<{ family: { map?: string } }>(
    `/api/games/${game.id}`,
    "/api/games/{id}",
    players[0]!,
  );
  assert.equal(view.family.map, `/api/games/${game.id}/map`, "the view names the player's map");
  const own = await fits<{ frame: number[] | null; geometry: { provinces: object } }>(
    `/api/games/${game.id}/map`,
    "/api/games/{id}/map",
    players[0]!,
  );
  assert.ok(own.frame, "a player's map is framed on what it knows");
  const whole = await fits<{ frame: null; geometry: { provinces: object } }>(
    `/api/games/${game.id}/map`,
    "/api/games/{id}/map",
    gm.token,
  );
  assert.equal(whole.frame, null, "the GM's map is whole");
  assert.ok(
    Object.keys(whole.geometry.provinces).length > Object.keys(own.geometry.provinces).length,
    "the player's holds less",
  );
  const nobody = await api.ok<{ token: string }>("POST", "/api/users", {
    name: "outsider",
    password: "outsider-password",
  });
  assert.equal(
    (await api.call("GET", `/api/games/${game.id}/map`, undefined, nobody.token)).status,
    403,
  );
});
