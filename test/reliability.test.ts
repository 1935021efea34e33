import assert from "node:assert/strict";
import { request } from "node:http";
import { describe, test } from "node:test";
import { SCRYPT_COST } from "../src/judge/password.ts";
import { DAY, POWERS } from "../src/judge/testing.ts";
import { jsonErrorAt } from "../src/server/json-body.ts";
import { raw, snapshot, world } from "./served.ts";

/*
 * Hardening and bad input (docs/reliability.md): bodies bounded, malformed JSON located,
 * unknown variants, orders out of phase or out of turn, inputs that once gave a 500,
 * passwords never stored in the clear, security headers, press and names escaped in pages.
 * After every refused request the store is compared, table by table, with what it was. The
 * rate limits and quotas are in reliability-rates.test.ts.
 */

describe("bodies and JSON", () => {
  test("oversized bodies: 413 with a message, announced or chunked; nothing stored", async (t) => {
    const { base, store, judge } = await world(t);
    const { token } = await judge.accounts.register("writer", "correct horse battery");
    const before = await snapshot(store);
    const big = JSON.stringify({ name: "x".repeat(1_200_000) });
    for (const chunked of [false, true]) {
      const r = await raw(
        base,
        "POST",
        "/api/games",
        big,
        { authorization: `Bearer ${token}` },
        chunked,
      );
      assert.equal(r.status, 413, `${chunked ? "chunked" : "with Content-Length"}: ${r.text}`);
      assert.match(r.text, /larger than 1 MB; nothing was stored/);
    }
    assert.equal(await snapshot(store), before, "nothing stored");
    const ok = await raw(base, "GET", "/api/health", "");
    assert.equal(ok.status, 200, "the server still answers");
  });

  test("malformed JSON: 400 saying where; nothing stored", async (t) => {
    const { base, store, judge } = await world(t);
    const { token } = await judge.accounts.register("writer", "correct horse battery");
    const cases: [string, RegExp][] = [
      ['{"name": "g",\n "variant": }', /line 2, column 13: expected a value.*found "}"/],
      ['{"name": "g"', /line 1, column 13: expected ',' or '}' after a property, found the end/],
      ["{name: 1}", /line 1, column 2: expected a property name in double quotes/],
      ['{"name": "a\u0001"}', /no control character/],
      ['["a", 1,]', /line 1, column 9: expected a value/],
      ['{"a": 1} x', /nothing more after the value/],
      ['{"a": tru}', /expected "true"/],
      ["\u00ff\u00fe", /expected a value/],
    ];
    const before = await snapshot(store);
    for (const [text, want] of cases) {
      const r = await raw(base, "POST", "/api/games", text, { authorization: `Bearer ${token}` });
      assert.equal(r.status, 400, `${JSON.stringify(text)}: ${r.text}`);
      const msg = (JSON.parse(r.text) as { error: string }).error;
      assert.match(msg, /^the body is not valid JSON: /, msg);
      assert.match(msg, want, msg);
    }
    assert.equal(await snapshot(store), before, "nothing stored");
    // Deep nesting is located, not a stack overflow.
    assert.match(jsonErrorAt(`${"[".repeat(5000)}`), /less nesting/, "deep nesting");
  });
});

describe("bad input to the judge: a clear error each, nothing stored", () => {
  test("unknown variants, orders for the wrong phase, out of turn, after the end", async (t) => {
    const { api, judge, store, clock } = await world(t);
    const gm = await judge.accounts.register("gm", "correct horse battery");
    const refused = async (
      what: string,
      method: string,
      path: string,
      body: unknown,
      token: string,
      status: number,
      want: RegExp,
    ) => {
      const before = await snapshot(store);
      const r = await api.call<{ error: string }>(method, path, body, token);
      assert.equal(r.status, status, `${what}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.error, want, `${what}: ${r.body.error}`);
      assert.equal(await snapshot(store), before, `${what}: nothing stored`);
    };
    await refused(
      "an unknown variant",
      "POST",
      "/api/games",
      { name: "g", variant: "atlantis" },
      gm.token,
      400,
      /unknown variant "atlantis"; known: classical/,
    );
    await refused(
      "an unknown scenario",
      "POST",
      "/api/games",
      { name: "g", scenario: "11" },
      gm.token,
      400,
      /no scenario "11"; choose one of/,
    );
    await refused(
      "an unknown field",
      "POST",
      "/api/games",
      { name: "g", colour: "red" },
      gm.token,
      400,
      /colour/,
    );
    await refused(
      "deeply nested JSON (100 000 levels) where options go",
      "POST",
      "/api/games",
      `{"name": "g", "options": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
      gm.token,
      400,
      /body\.options\S*: nested more than 64 levels deep/,
    );
    const game = await judge.games.createGame(gm.user, { name: "Bad input" });
    const code = game.invites!.find((i) => i.role === "player")!.code;
    const players: Record<string, string> = {};
    for (const p of POWERS.slice(0, 6)) {
      const u = await judge.accounts.register(`p-${p}`, "correct horse battery");
      await judge.games.acceptInvite(u.user, code, { power: p });
      players[p] = u.token;
    }
    const orders = `/api/games/${game.id}/orders`;
    await refused(
      "orders before the game starts",
      "POST",
      orders,
      { orders: ["A vie H"] },
      players.austria!,
      409,
      /not started/,
    );
    const last = await judge.accounts.register("p-turkey", "correct horse battery");
    await judge.games.acceptInvite(last.user, code, { power: "turkey" });
    await refused(
      "orders for a later phase",
      "POST",
      orders,
      { orders: ["A vie H"], phase: "F1901M" },
      players.austria!,
      409,
      /F1901M.*open for orders is S1901M/,
    );
    await refused(
      "orders for a past phase name",
      "POST",
      orders,
      { orders: ["A vie H"], phase: "S1900M" },
      players.austria!,
      409,
      /S1901M/,
    );
    // Early orders only for a phase that can still come in this game's sequence (issue 21).
    await refused(
      "early orders under the other rules' season names (no summer retreats with standard seasons)",
      "POST",
      orders,
      { orders: ["A vie H"], phase: "U1901R" },
      players.austria!,
      400,
      /U1901R, a phase that cannot follow S1901M .*may be sent now for S1901M, or early for S1901R/,
    );
    await refused(
      "early orders a year ahead",
      "POST",
      orders,
      { orders: ["A vie H"], phase: "S1902R" },
      players.austria!,
      400,
      /S1902R, a phase that cannot follow S1901M .*early for S1901R$/,
    );
    await refused(
      "early orders for the winter adjustments from spring (a movement phase comes first)",
      "POST",
      orders,
      { orders: ["build A vie"], phase: "W1901A" },
      players.austria!,
      400,
      /W1901A, a phase that cannot follow S1901M/,
    );
    await refused(
      "orders as a number",
      "POST",
      orders,
      { orders: 5 },
      players.austria!,
      400,
      /list of order lines or one text/,
    );
    await refused(
      "too many lines",
      "POST",
      orders,
      { orders: Array.from({ length: 501 }, () => "A vie H") },
      players.austria!,
      400,
      /list of order lines/,
    );
    await refused(
      "a vote on no proposal",
      "POST",
      `/api/games/${game.id}/votes/999`,
      { vote: "yes" },
      players.austria!,
      404,
      /no proposal 999/,
    );
    // A vote after its proposal was decided, with the phase's orders.
    const prop = await api.ok<{ id: number }>(
      "POST",
      `/api/games/${game.id}/votes`,
      { kind: "draw" },
      players.austria!,
    );
    clock.advance(3 * DAY + 1);
    await judge.adjudication.tick();
    await refused(
      "a vote on a decided proposal",
      "POST",
      `/api/games/${game.id}/votes/${prop.id}`,
      { vote: "yes" },
      players.england!,
      409,
      /this vote is over/,
    );
    await api.ok("POST", `/api/games/${game.id}/gm/end`, { result: "abandoned" }, gm.token);
    await refused(
      "orders after the end",
      "POST",
      orders,
      { orders: ["A vie H"] },
      players.austria!,
      409,
      /the game is over/,
    );
    await refused(
      "a second end",
      "POST",
      `/api/games/${game.id}/gm/end`,
      { result: "abandoned" },
      gm.token,
      409,
      /over|finished/,
    );
  });
});

describe("inputs that once gave a 500 (issue 21)", () => {
  test("a malformed percent-escape in a path parameter: 400 with a message, not a 500", async (t) => {
    const { base, judge } = await world(t);
    const { token } = await judge.accounts.register("writer", "correct horse battery");
    for (const [method, path] of [
      ["GET", "/api/games/%E0%A4%A"],
      ["GET", "/api/invites/%zz"],
      ["DELETE", "/api/tokens/%"],
      ["POST", "/api/games/%E0%A4%A/orders"],
    ] as const) {
      const r = await raw(base, method, path, method === "POST" ? '{"orders":[]}' : "", {
        authorization: `Bearer ${token}`,
      });
      assert.equal(r.status, 400, `${method} ${path}: ${r.text}`);
      const msg = (JSON.parse(r.text) as { error: string }).error;
      assert.match(msg, /percent-escape|not a valid URL/i, `${method} ${path}: ${msg}`);
    }
    const ok = await raw(base, "GET", "/api/health", "");
    assert.equal(ok.status, 200, "the server still answers");
  });

  test("valid JSON nested thousands of levels inside rules, variantData or the sandbox: 400 before anything recurses", async (t) => {
    const { base, judge, store } = await world(t);
    const { token } = await judge.accounts.register("writer", "correct horse battery");
    const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    const before = await snapshot(store);
    const cases: [string, string][] = [
      ["/api/games", `{"name":"g","rules":{"convoyParadox":${deep(5000)}}}`],
      ["/api/games", `{"name":"g","variantData":{"powers":${deep(5000)}}}`],
      ["/api/sandbox/adjudicate", `{"phase":"S1901M","units":{},"rules":{"a":${deep(5000)}}}`],
      ["/api/sandbox/legal", `{"phase":"S1901M","units":${deep(5000)}}`],
    ];
    for (const [path, text] of cases) {
      assert.ok(text.length >= 10_000, "about 10 KB, as in the issue");
      const r = await raw(base, "POST", path, text, { authorization: `Bearer ${token}` });
      assert.equal(r.status, 400, `${path}: ${r.text.slice(0, 200)}`);
      const msg = (JSON.parse(r.text) as { error: string }).error;
      assert.match(msg, /nested more than 64 levels deep/, `${path}: ${msg}`);
    }
    assert.equal(await snapshot(store), before, "nothing stored");
    // Real rule options and variant data are far shallower: a game is still created.
    const ok = await raw(
      base,
      "POST",
      "/api/games",
      '{"name":"g","rules":{"convoyParadox":"szykman"}}',
      {
        authorization: `Bearer ${token}`,
      },
    );
    assert.equal(ok.status, 201, ok.text);
  });

  test("fields named like inherited properties are unknown fields; a body that is not JSON is 415", async (t) => {
    const { base, api, judge, store } = await world(t);
    const { token } = await judge.accounts.register("writer", "correct horse battery");
    const before = await snapshot(store);
    for (const field of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const text = `{"name":"newbie","password":"correct horse battery","${field}":{"x":1}}`;
      const r = await raw(base, "POST", "/api/users", text);
      assert.equal(r.status, 400, `${field}: ${r.text}`);
      const msg = (JSON.parse(r.text) as { error: string }).error;
      assert.match(msg, new RegExp(`body\\.${field}: unknown field`), `${field}: ${msg}`);
    }
    const game = await api.call<{ error: string }>(
      "POST",
      "/api/games",
      '{"name":"g","options":{"toString":1}}',
      token,
    );
    assert.equal(game.status, 400, JSON.stringify(game.body));
    assert.match(game.body.error, /body\.options\.toString: unknown field/, game.body.error);
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const r = await raw(
        base,
        "POST",
        "/api/users",
        '{"name":"newbie","password":"correct horse battery"}',
        {
          "content-type": type,
        },
      );
      assert.equal(r.status, 415, `${type}: ${r.text}`);
      const msg = (JSON.parse(r.text) as { error: string }).error;
      assert.match(msg, /Content-Type.*application\/json/, `${type}: ${msg}`);
    }
    const missing = await new Promise<number>((resolve, reject) => {
      const req = request(`${base}/api/users`, { method: "POST" }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end('{"name":"newbie","password":"correct horse battery"}');
    });
    assert.equal(missing, 415, "a body without a Content-Type");
    assert.equal(await snapshot(store), before, "nothing stored");
    const charset = await raw(
      base,
      "POST",
      "/api/users",
      '{"name":"newbie","password":"correct horse battery"}',
      {
        "content-type": "application/json; charset=utf-8",
      },
    );
    assert.equal(charset.status, 201, `application/json with a charset: ${charset.text}`);
  });
});

describe("secrets at rest and pages", () => {
  test("passwords are scrypt hashes, tokens only their SHA-256: neither is stored in the clear", async (t) => {
    const { api, store } = await world(t);
    const password = "correct horse battery staple";
    const a = await api.ok<{ token: string }>("POST", "/api/users", { name: "alice", password });
    const b = await api.ok<{ token: string }>("POST", "/api/login", { name: "alice", password });
    const issued = await api.ok<{ token: string }>(
      "POST",
      "/api/tokens",
      { label: "bot" },
      a.token,
    );
    const dump = await snapshot(store);
    for (const secret of [password, a.token, b.token, issued.token]) {
      assert.ok(!dump.includes(secret), `"${secret.slice(0, 8)}..." is stored in the clear`);
    }
    const row = await store.db
      .selectFrom("users")
      .select("password_hash")
      .executeTakeFirstOrThrow();
    // At the cost the judge hashes with: 16,384 unless ENTENTE_SCRYPT_COST says otherwise, as
    // the test suite does (src/judge/password.test.ts checks the default).
    assert.match(
      row.password_hash,
      new RegExp(`^scrypt\\$${SCRYPT_COST}\\$8\\$1\\$[\\w-]{22}\\$[\\w-]{43}$`),
      "scrypt with salt",
    );
    const again = await api.call("POST", "/api/users", { name: "bob", password });
    const rows = await store.db.selectFrom("users").select("password_hash").execute();
    assert.equal(again.status, 201, "bob registers");
    assert.notEqual(
      rows[0]!.password_hash,
      rows[1]!.password_hash,
      "salted: the same password hashes differently",
    );
  });

  test("security headers on every response; names and press escaped in every page", async (t) => {
    const { api, judge } = await world(t);
    const evil = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`;
    const gm = await judge.accounts.register("gm", "correct horse battery");
    const game = await judge.games.createGame(gm.user, { name: `Game ${evil}`.slice(0, 80) });
    const code = game.invites!.find((i) => i.role === "player")!.code;
    for (const p of POWERS) {
      const u = await judge.accounts.register(`p-${p}`, "correct horse battery");
      await judge.games.acceptInvite(u.user, code, { power: p });
      await judge.press.sendPress(u.user, game.id, { to: "all", body: `${p}: ${evil}` });
    }
    const paths = [
      "/",
      "/index.html",
      `/game/${game.id}`,
      `/chair/${game.id}`,
      "/sandbox",
      `/join/${code}`,
      "/login",
      "/api/health",
      `/api/games/${game.id}`,
      `/api/games/${game.id}/press`,
      "/api/no-such-thing",
    ];
    let pages = 0;
    for (const path of paths) {
      const res = await fetch(api.base + path);
      const text = await res.text();
      const type = res.headers.get("content-type") ?? "";
      assert.equal(res.headers.get("x-content-type-options"), "nosniff", `${path}: nosniff`);
      const csp = res.headers.get("content-security-policy") ?? "";
      assert.match(csp, /frame-ancestors 'none'/, `${path}: no framing`);
      assert.match(csp, /script-src 'self'(;|$)/, `${path}: scripts from this origin only`);
      assert.ok(!/script-src[^;]*unsafe-inline/.test(csp), `${path}: no inline script`);
      if (type.includes("text/html")) {
        pages++;
        assert.ok(!text.includes("<script>alert"), `${path}: a script tag from user text`);
        assert.ok(!text.includes("<img src=x"), `${path}: an element from user text`);
      } else {
        assert.ok(type.startsWith("application/json"), `${path}: ${type}`);
      }
    }
    assert.ok(pages >= 1, "the pages were checked");
    const home = await (await fetch(`${api.base}/`)).text();
    assert.ok(
      home.includes("&lt;script&gt;alert(1)&lt;/script&gt;"),
      "the game's name is shown, escaped",
    );
  });
});
