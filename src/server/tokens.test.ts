import assert from "node:assert/strict";
import { test } from "node:test";
import { Judge } from "../judge/judge.ts";
import { Clock } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import type { tokensAnswer } from "./responses.ts";
import { loginLabel } from "./routes/accounts.ts";
import type { Infer } from "./schema.ts";
import { startServer } from "./server.ts";
import { Api } from "./testing.ts";

/*
 * Tokens (issue 28): they expire when unused for a set time; each device's login token is
 * listed with its label, when it was made and last used and when it expires, never the
 * secret, and can be revoked.
 */

const DAY = 86_400_000;

test("tokens unused for the idle time expire; the list shows each device, never the secret; revoking works", async (t) => {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts);
  const clock = new Clock();
  const judge = new Judge({ store: ts.store, now: clock.now, tokenIdleMs: 30 * DAY });
  const server = await startServer({ judge, port: 0, host: "127.0.0.1", tickMs: 60_000 });
  t.after(() => server.close());
  const base = `http://127.0.0.1:${server.port}`;
  const api = new Api(base);
  const PW = "lantern violet orbit";
  await judge.accounts.register("tokened", PW);
  const login = async (agent: string) => {
    const r = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": agent },
      body: JSON.stringify({ name: "tokened", password: PW }),
    });
    assert.equal(r.status, 200);
    return ((await r.json()) as { token: string }).token;
  };
  const laptop = await login(
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  );
  clock.advance(DAY);
  const phone = await login(
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  );
  const list = await api.ok<Infer<typeof tokensAnswer>>("GET", "/api/tokens", undefined, phone);
  const labels = list.map((x) => x.label);
  assert.ok(labels.includes("login: Firefox on Linux"), labels.join(", "));
  assert.ok(labels.includes("login: Safari on iOS"), labels.join(", "));
  const mine = list.find((x) => x.current);
  assert.equal(mine?.label, "login: Safari on iOS", "the caller's own token is marked");
  assert.ok(mine?.expiresAt, "each says when it expires unused");
  const text = JSON.stringify(list);
  assert.ok(!text.includes(laptop) && !text.includes(phone), "never a secret");
  assert.ok(!/token_hash|hash/.test(text), "nor its hash");
  // The laptop goes unused for 30 days: it has expired; the phone, used meanwhile, has not.
  clock.advance(20 * DAY);
  await api.ok("GET", "/api/me", undefined, phone);
  clock.advance(10 * DAY + 1000);
  const old = await api.call<{ error: string }>("GET", "/api/me", undefined, laptop);
  assert.equal(old.status, 401);
  assert.match(old.body.error, /expired/);
  const after = await api.ok<{ label: string }[]>("GET", "/api/tokens", undefined, phone);
  assert.deepEqual(
    after.map((x) => x.label),
    ["login: Safari on iOS"],
    "the expired token is gone from the list",
  );
  // Revoking one device's token: it no longer works.
  const another = await login("curl/8.5.0");
  const id = (
    await api.ok<{ id: string; label: string }[]>("GET", "/api/tokens", undefined, phone)
  ).find((x) => x.label === "login: curl")!.id;
  await api.ok("DELETE", `/api/tokens/${id}`, undefined, phone);
  assert.equal((await api.call("GET", "/api/me", undefined, another)).status, 401);
});

test("login labels name the browser and system", () => {
  assert.equal(
    loginLabel(
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0",
    ),
    "login: Edge on Windows",
  );
  assert.equal(loginLabel(undefined), "login");
});
