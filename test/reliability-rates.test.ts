import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { describe, test } from "node:test";
import { bindAddress, trustProxy } from "../src/cli/serve.ts";
import { TokenBuckets } from "../src/judge/rate.ts";
import { POWERS } from "../src/judge/testing.ts";
import { clientAddress, SlidingWindow } from "../src/server/limits.ts";
import { SANDBOX_ORDERS_PER_PROVINCE } from "../src/server/web-routes.ts";
import { classical } from "../src/variants/classical/index.ts";
import { snapshot, world } from "./served.ts";

/*
 * Rate limits and quotas (docs/reliability.md): wrong passwords, logins and registrations per
 * account and address, client addresses behind a trusted proxy, games and press per user,
 * sandbox requests per address, the orders-rate token bucket and the sandbox's work per
 * request. The rest of the hardening is in reliability.test.ts.
 */

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
