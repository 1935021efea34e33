import assert from "node:assert/strict";
import { type IncomingMessage, request } from "node:http";
import { describe, type TestContext, test } from "node:test";
import { sql } from "kysely";
import { bindAddress, trustProxy } from "../src/cli/serve.ts";
import { Judge } from "../src/judge/judge.ts";
import { SCRYPT_COST } from "../src/judge/password.ts";
import { type Bucket, TokenBuckets } from "../src/judge/rate.ts";
import { Clock, DAY, POWERS } from "../src/judge/testing.ts";
import { jsonErrorAt } from "../src/server/json-body.ts";
import { clientAddress, type Limits, SlidingWindow } from "../src/server/limits.ts";
import { startServer } from "../src/server/server.ts";
import { Api } from "../src/server/testing.ts";
import { SANDBOX_ORDERS_PER_PROVINCE } from "../src/server/web-routes.ts";
import type { Store } from "../src/store/db.ts";
import { testStore } from "../src/store/testing.ts";
import { classical } from "../src/variants/classical/index.ts";

/*
 * Hardening and bad input (docs/reliability.md): login and registration rate limits, bodies
 * bounded, malformed JSON located, unknown variants, orders out of phase or out of turn,
 * passwords never stored in the clear, security headers, press and names escaped in pages.
 * After every refused request the store is compared, table by table, with what it was.
 */

async function snapshot(store: Store): Promise<string> {
  const tables = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%'
    and name not like 'kysely_%' order by name`.execute(store.db);
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(
      store.db,
    );
    out[name] = rows.rows.map(({ last_used_at: _, ...rest }) => rest);
  }
  return JSON.stringify(out);
}

async function world(
  t: TestContext,
  limits: ConstructorParameters<typeof Limits>[0] = {},
  ordersRate?: Bucket,
) {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "a SQLite store");
  const clock = new Clock();
  const judge = new Judge({ store: ts.store, now: clock.now, ordersRate });
  const server = await startServer({
    judge,
    port: 0,
    host: "127.0.0.1",
    tickMs: 60_000,
    pollMs: 50,
    limits,
  });
  t.after(() => server.close());
  const base = `http://127.0.0.1:${server.port}`;
  return { judge, clock, store: ts.store, base, api: new Api(base) };
}

/** A raw request: exact bytes, optional chunked transfer (no Content-Length). */
function raw(
  base: string,
  method: string,
  path: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
  chunked = false,
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const req = request(
      url,
      {
        method,
        headers: {
          "content-type": "application/json",
          ...(chunked
            ? { "transfer-encoding": "chunked" }
            : { "content-length": Buffer.byteLength(body) }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString(),
            headers: res.headers,
          }),
        );
      },
    );
    req.on("error", reject);
    if (chunked) {
      const b = Buffer.from(body);
      for (let i = 0; i < b.length; i += 64 * 1024) req.write(b.subarray(i, i + 64 * 1024));
      req.end();
    } else req.end(body);
  });
}

describe("rate limits", () => {
  test("wrong passwords: 429 with Retry-After per account and address, lifted after the window", async (t) => {
    const { api, judge, clock } = await world(t);
    await judge.accounts.register("victim", "right-password");
    for (let i = 0; i < 10; i++) {
      const r = await api.call("POST", "/api/login", { name: "victim", password: `guess-${i}` });
      assert.equal(r.status, 401, `guess ${i} is a plain refusal`);
    }
    const res = await fetch(`${api.base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
      body: JSON.stringify({ name: "Victim", password: "right-password" }),
    });
    assert.equal(res.status, 429, "even the right password waits from that address");
    const wait = Number(res.headers.get("retry-after"));
    assert.ok(wait > 0 && wait <= 15 * 60, `Retry-After ${wait}`);
    const body = (await res.json()) as { error: string };
    assert.match(body.error, /too many wrong passwords.*try again in \d+ seconds/, body.error);
    // Another account is not affected.
    await judge.accounts.register("bystander", "second horse battery");
    const other = await api.call("POST", "/api/login", {
      name: "bystander",
      password: "second horse battery",
    });
    assert.equal(other.status, 200, "another account logs in");
    clock.advance(wait * 1000);
    const later = await api.call("POST", "/api/login", {
      name: "victim",
      password: "right-password",
    });
    assert.equal(later.status, 200, "after Retry-After the right password works again");
  });

  test("nobody locks the owner out: guesses pause the guessing address, and new addresses account-wide, never the owner's", async (t) => {
    const { base, judge, clock } = await world(t, {
      trustProxy: true,
      loginFailuresPerAccountAddress: { max: 5, windowMs: 15 * 60_000 },
      loginFailuresPerAccount: { max: 20, windowMs: 15 * 60_000 },
    });
    await judge.accounts.register("owner", "right-password");
    const login = (from: string, password: string) =>
      fetch(`${base}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": from },
        body: JSON.stringify({ name: "owner", password }),
      }).then((r) => r.status);
    assert.equal(await login("192.0.2.1", "right-password"), 200, "the owner logs in from home");
    // One guesser, one address: paused there after 5, the owner at home unaffected.
    const single: number[] = [];
    for (let i = 0; i < 8; i++) single.push(await login("203.0.113.1", `guess-${i}`));
    assert.deepEqual(single, [401, 401, 401, 401, 401, 429, 429, 429], "5 guesses, then a pause");
    assert.equal(await login("203.0.113.1", "right-password"), 429, "the paused address waits");
    assert.equal(await login("192.0.2.1", "right-password"), 200, "the owner still logs in");
    // Many guessers, many addresses (the 5 above count too): at most 20 guesses get an
    // answer in the window, account-wide.
    let answered = 5;
    let paused = 0;
    for (let a = 2; a <= 40; a++) {
      for (let i = 0; i < 3; i++) {
        const status = await login(`198.51.100.${a}`, `guess-${a}-${i}`);
        if (status === 401) answered++;
        else if (status === 429) paused++;
        else assert.fail(`a guess answered ${status}`);
      }
    }
    assert.equal(answered, 20, "guessing stays slow: 20 wrong passwords in the window, no more");
    assert.equal(paused, 39 * 3 - 15, "every other guess waits");
    assert.equal(await login("198.51.100.99", "right-password"), 429, "a new address waits too");
    assert.equal(
      await login("192.0.2.1", "right-password"),
      200,
      "the owner, from an address they logged in from, always gets in",
    );
    assert.equal(await login("192.0.2.1", "wrong"), 401, "and is told a wrong password as usual");
    clock.advance(15 * 60_000);
    assert.equal(await login("198.51.100.99", "right-password"), 200, "after the window, anywhere");
  });

  test("per address: logins and registrations; X-Forwarded-For is not trusted unless configured", async (t) => {
    const { api, store } = await world(t, {
      loginPerAddress: { max: 5, windowMs: 60_000 },
      registrationsPerAddress: { max: 3, windowMs: 3_600_000 },
    });
    for (let i = 0; i < 3; i++) {
      await api.ok("POST", "/api/users", { name: `user${i}`, password: "correct horse battery" });
    }
    const before = await snapshot(store);
    const res = await fetch(`${api.base}/api/users`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${7}` },
      body: JSON.stringify({ name: "user9", password: "correct horse battery" }),
    });
    assert.equal(res.status, 429, "the fourth account from one address waits");
    assert.equal(res.headers.get("retry-after"), "3600", "an hour's window");
    assert.match(
      ((await res.json()) as { error: string }).error,
      /accounts created from your address/,
    );
    assert.equal(await snapshot(store), before, "nothing stored");
    for (let i = 0; i < 5; i++) {
      await api.call("POST", "/api/login", {
        name: `user${i % 3}`,
        password: "correct horse battery",
      });
    }
    const r = await api.call("POST", "/api/login", {
      name: "user0",
      password: "correct horse battery",
    });
    assert.equal(r.status, 429, "the sixth login from one address in a minute waits");
  });

  test("behind a proxy (trustProxy) each client address is counted apart, by the proxy's entry", async (t) => {
    const { base } = await world(t, {
      trustProxy: true,
      registrationsPerAddress: { max: 1, windowMs: 60_000 },
    });
    const reg = (name: string, from: string) =>
      fetch(`${base}/api/users`, {
        method: "POST",
        // What the client wrote first, then the address the proxy saw (the one that counts).
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": `203.0.113.${Math.floor(Math.random() * 250)}, ${from}`,
        },
        body: JSON.stringify({ name, password: "correct horse battery" }),
      }).then((r) => r.status);
    assert.equal(await reg("alice", "192.0.2.1"), 201, "first client");
    assert.equal(await reg("bob", "192.0.2.2"), 201, "second client");
    assert.equal(await reg("carol", "192.0.2.1"), 429, "first client again");
  });

  test("the client address: X-Forwarded-For only from a trusted proxy; HOST and ENTENTE_TRUST_PROXY checked", () => {
    const req = (peer: string, xff?: string) =>
      ({
        socket: { remoteAddress: peer },
        headers: xff === undefined ? {} : { "x-forwarded-for": xff },
      }) as unknown as IncomingMessage;
    assert.equal(clientAddress(req("198.51.100.7", "192.0.2.1"), false), "198.51.100.7", "off");
    assert.equal(
      clientAddress(req("::ffff:127.0.0.1", "203.0.113.5, 192.0.2.1"), true),
      "192.0.2.1",
      "a proxy on this machine: the entry it added",
    );
    assert.equal(
      clientAddress(req("198.51.100.7", "192.0.2.1"), true),
      "198.51.100.7",
      "a peer that is not the proxy (going around it) is counted by its own address",
    );
    const proxies = ["10.0.0.2", "10.0.0.3"];
    assert.equal(
      clientAddress(req("10.0.0.2", "203.0.113.5, 192.0.2.1, 10.0.0.3"), proxies),
      "192.0.2.1",
      "two proxies in a row: the first address that is not one of them, from the right",
    );
    assert.equal(clientAddress(req("10.0.0.2"), proxies), "10.0.0.2", "no header: the proxy");
    assert.equal(trustProxy(undefined), false, "unset: off");
    assert.equal(trustProxy("1"), true, "1: this machine");
    assert.deepEqual(trustProxy("10.0.0.2, ::1"), ["10.0.0.2", "::1"], "a list of addresses");
    assert.throws(() => trustProxy("yes"), /not an IP address/, "anything else is refused");
    assert.equal(bindAddress(undefined), "0.0.0.0", "every interface unless said otherwise");
    assert.equal(bindAddress("127.0.0.1"), "127.0.0.1");
    assert.throws(() => bindAddress("example.org"), /HOST must be an IP address/);
  });

  test("quotas: games created and press sent per user, sandbox requests per address (429, Retry-After)", async (t) => {
    const { api, judge, clock } = await world(t, {
      gamesPerUser: { max: 2, windowMs: 24 * 3_600_000 },
      pressPerUser: { max: 3, windowMs: 600_000 },
      sandboxPerAddress: { max: 2, windowMs: 60_000 },
    });
    const gm = await judge.accounts.register("maker", "correct horse battery");
    const other = await judge.accounts.register("other", "correct horse battery");
    const bad = await api.call("POST", "/api/games", { name: "x", variant: "atlantis" }, gm.token);
    assert.equal(bad.status, 400, "a refused request is not counted");
    for (const n of [1, 2]) {
      const r = await api.call("POST", "/api/games", { name: `g${n}` }, gm.token);
      assert.equal(r.status, 201, `game ${n}`);
    }
    const res = await fetch(`${api.base}/api/games`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${gm.token}` },
      body: JSON.stringify({ name: "g3" }),
    });
    assert.equal(res.status, 429, "the third game in a day waits");
    assert.equal(res.headers.get("retry-after"), String(24 * 3600), "a day's window");
    const msg = ((await res.json()) as { error: string }).error;
    assert.match(msg, /too many games created by you \(at most 2 in 24 hours\)/, msg);
    const theirs = await api.call("POST", "/api/games", { name: "theirs" }, other.token);
    assert.equal(theirs.status, 201, "another user is not held up");
    // Press: three messages, then a wait.
    const game = await judge.games.createGame(other.user, { name: "talk" });
    const code = game.invites!.find((i) => i.role === "player")!.code;
    const players: Record<string, string> = {};
    for (const p of POWERS) {
      const u = await judge.accounts.register(`talker-${p}`, "correct horse battery");
      await judge.games.acceptInvite(u.user, code, { power: p });
      players[p] = u.token;
    }
    const press = (token: string) =>
      api.call("POST", `/api/games/${game.id}/press`, { to: "all", body: "hello" }, token);
    for (let i = 0; i < 3; i++)
      assert.equal((await press(players.france!)).status, 201, `press ${i}`);
    const fourth = await press(players.france!);
    assert.equal(fourth.status, 429, JSON.stringify(fourth.body));
    assert.match(String(fourth.body.error), /too many press messages sent by you/);
    assert.equal((await press(players.italy!)).status, 201, "another player writes on");
    clock.advance(600_000);
    assert.equal((await press(players.france!)).status, 201, "after the window, again");
    // The sandbox, per address.
    const start = await api.ok<{ position: Record<string, unknown> }>(
      "GET",
      "/api/variants/classical/start",
    );
    const legal = () => api.call("POST", "/api/sandbox/legal", start.position);
    assert.equal((await legal()).status, 200, "first");
    assert.equal((await legal()).status, 200, "second");
    const third = await legal();
    assert.equal(third.status, 429, JSON.stringify(third.body).slice(0, 200));
    assert.match(String(third.body.error), /too many sandbox requests from your address/);
  });

  test("the orders-rate quota: a token bucket per player and game (429, Retry-After, when to send again); nothing taken is lost", async (t) => {
    const { api, judge, clock, store } = await world(t, {}, { burst: 3, perSecond: 0.5 });
    const gm = await judge.accounts.register("orders-gm", "correct horse battery");
    const game = await judge.games.createGame(gm.user, { name: "revisions" });
    const code = game.invites!.find((i) => i.role === "player")!.code;
    const players: Record<string, string> = {};
    for (const p of POWERS) {
      const u = await judge.accounts.register(`reviser-${p}`, "correct horse battery");
      await judge.games.acceptInvite(u.user, code, { power: p });
      players[p] = u.token;
    }
    const send = (token: string, orders: string[], phase = "S1901M") =>
      fetch(`${api.base}/api/games/${game.id}/orders`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ orders, phase }),
      });
    const late = await send(players.france!, ["A par H"], "F1901M");
    assert.equal(late.status, 409, "a refused set (not the open phase) is not counted");
    for (const move of ["A par - bur", "A par - pic", "A par - gas"]) {
      assert.equal((await send(players.france!, [move])).status, 200, move);
    }
    const fourth = await send(players.france!, ["A par - bre"]);
    assert.equal(fourth.status, 429, "the fourth at once waits");
    assert.equal(fourth.headers.get("retry-after"), "2", "one every two seconds");
    const msg = ((await fourth.json()) as { error: string }).error;
    assert.equal(
      msg,
      "too many order sets from you in this game: at most 3 at once, then one every 2 seconds (is a program sending them in a loop?); this one was not stored, and your last set taken stands: send it again in 2 seconds",
    );
    const mine = await api.ok<{ sets: { power: string; orders: string[] }[] }>(
      "GET",
      `/api/games/${game.id}/orders`,
      undefined,
      players.france,
    );
    assert.deepEqual(mine.sets[0]?.orders, ["A par - gas"], "the last set taken stands");
    const stored = await store.db
      .selectFrom("submissions")
      .select("orders")
      .where("game_id", "=", game.id)
      .where("power", "=", "france")
      .orderBy("id")
      .execute();
    assert.deepEqual(
      stored.map((r) => JSON.parse(r.orders)),
      [["A par - bur"], ["A par - pic"], ["A par - gas"]],
      "every set taken is stored, the refused one is not",
    );
    assert.equal((await send(players.italy!, ["A ven H"])).status, 200, "another player sends on");
    clock.advance(1000);
    assert.equal((await send(players.france!, ["A par - bre"])).status, 429, "half a token");
    clock.advance(1000);
    assert.equal((await send(players.france!, ["A par - bre"])).status, 200, "refilled: one");
    assert.equal((await send(players.france!, ["A par H"])).status, 429, "and only one");
    clock.advance(60_000);
    for (let i = 0; i < 3; i++) {
      assert.equal((await send(players.france!, ["A par H"])).status, 200, `full again: ${i}`);
    }
  });

  test("the orders-rate quota: the token bucket refills to its burst and no further, and forgets the least used keys", () => {
    const b = new TokenBuckets({ burst: 2, perSecond: 4 }, 10);
    assert.equal(b.wait("k", 0), 0);
    b.take("k", 0);
    b.take("k", 0);
    assert.equal(b.wait("k", 0), 250, "a quarter second for one token");
    assert.equal(b.wait("k", 250), 0);
    b.take("k", 10_000);
    b.take("k", 10_000);
    assert.equal(b.wait("k", 10_000), 250, "a long pause refills to the burst only");
    for (let i = 0; i < 100; i++) b.take(`key${i}`, 10_000);
    assert.equal(b.wait("k", 10_000), 0, "the oldest keys are forgotten beyond maxKeys");
  });

  test("sandbox work per request: at most two order lines per province of the map (422), whatever the body allows", async (t) => {
    const { api } = await world(t);
    const start = await api.ok<{ position: Record<string, unknown> }>(
      "GET",
      "/api/variants/classical/start",
    );
    const most = SANDBOX_ORDERS_PER_PROVINCE * classical.map.provinces.length;
    assert.equal(most, 150, "classical: 75 provinces");
    const orders = (n: number) => ({
      france: Array.from({ length: n }, (_, i) => (i % 2 ? "A par - bur" : "A mar S A par - bur")),
    });
    const ok = await api.call("POST", "/api/sandbox/adjudicate", {
      ...start.position,
      orders: orders(most),
    });
    assert.equal(ok.status, 200, "at the bound: adjudicated");
    // 50 000 lines fit in the 1 MB body and took seconds of a core to read before the bound.
    for (const n of [most + 1, 50_000]) {
      const r = await api.call("POST", "/api/sandbox/adjudicate", {
        ...start.position,
        orders: orders(n),
      });
      assert.equal(r.status, 422, `${n} lines: ${JSON.stringify(r.body).slice(0, 200)}`);
      assert.equal(
        r.body.error,
        `${n} order lines is more than the sandbox adjudicates in one request: at most 150 (two per province of the classical map); send one order per unit`,
      );
    }
  });

  test("the sliding window: at most max per window, the wait to the oldest, bounded memory", () => {
    const w = new SlidingWindow({ max: 3, windowMs: 1000 }, 10);
    for (const at of [0, 100, 200]) {
      assert.equal(w.wait("k", at), 0, `free at ${at}`);
      w.add("k", at);
    }
    assert.equal(w.wait("k", 300), 700, "waits for the first to leave the window");
    assert.equal(w.wait("k", 999), 1, "a millisecond before the first leaves");
    assert.equal(w.wait("k", 1000), 0, "free once it has left");
    for (let i = 0; i < 100; i++) w.add(`key${i}`, 0);
    assert.equal(w.wait("k", 300), 0, "the oldest keys are forgotten beyond maxKeys");
  });
});

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
