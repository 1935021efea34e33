import assert from "node:assert/strict";
import { test } from "node:test";
import { Judge } from "../judge/judge.ts";
import { Clock } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import { serve } from "./testing.ts";

/*
 * Nobody in, nobody locked out (issue 28): guessing a password from many addresses stays
 * bounded per account, while the owner with the right password gets in from a new address
 * with the login device token an earlier login gave, or with the one-time code mailed to
 * them once when the attack began.
 */

test("guessing from many addresses is bounded; the owner gets in from anywhere with a device or the mailed code", async (t) => {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts);
  const clock = new Clock();
  const judge = new Judge({ store: ts.store, now: clock.now });
  const { base, api } = await serve(t, judge, {
    tickMs: 60_000,
    pollMs: 50,
    mailFrom: "judge@example.org",
    limits: {
      trustProxy: true,
      loginFailuresPerAccountAddress: { max: 5, windowMs: 15 * 60_000 },
      loginFailuresPerAccount: { max: 12, windowMs: 60 * 60_000 },
    },
  });
  const from = async (address: string, path: string, body: unknown) => {
    const r = await fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": address },
      body: JSON.stringify(body),
    });
    return {
      status: r.status,
      retryAfter: r.headers.get("retry-after"),
      body: (await r.json()) as { token?: string; device?: string; error?: string },
    };
  };
  const PW = "lantern violet orbit";
  const reg = await from("192.0.2.1", "/api/users", { name: "owner", password: PW });
  assert.equal(reg.status, 201);
  assert.match(reg.body.device ?? "", /^[\w-]+\.[\w-]+$/, "registration gives a device token");
  await api.ok("POST", "/api/me/mail", { address: "owner@example.org" }, reg.body.token);

  // Strangers guess from 40 addresses, 3 guesses each: at most 12 are looked at in the hour.
  let answered = 0;
  let paused = 0;
  for (let a = 2; a <= 41; a++) {
    for (let i = 0; i < 3; i++) {
      const r = await from(`198.51.100.${a}`, "/api/login", {
        name: "owner",
        password: `g-${a}-${i}`,
      });
      if (r.status === 401) answered++;
      else if (r.status === 429) {
        paused++;
        assert.ok(Number(r.retryAfter) > 0, "a 429 says when to retry");
        assert.match(r.body.error ?? "", /try again in \d+ seconds?/);
      } else assert.fail(`a guess answered ${r.status}`);
    }
  }
  assert.equal(answered, 12, "guessing stays slow: 12 wrong passwords an hour, no more");
  assert.equal(paused, 120 - 12);

  // A new address with the right password and nothing else waits (else guessing would go on).
  assert.equal(
    (await from("203.0.113.7", "/api/login", { name: "owner", password: PW })).status,
    429,
  );
  // The owner on the phone, a new address, with the device token of the registration: in.
  const phone = await from("203.0.113.8", "/api/login", {
    name: "owner",
    password: PW,
    device: reg.body.device,
  });
  assert.equal(phone.status, 200, JSON.stringify(phone.body));
  assert.equal(phone.body.device, reg.body.device, "the same device keeps its token");
  // A forged or another account's device token does not help.
  const forged = await from("203.0.113.9", "/api/login", {
    name: "owner",
    password: PW,
    device: `${reg.body.device!.split(".")[0]}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
  });
  assert.equal(forged.status, 429);

  // The owner was mailed once for the attack, with a one-time code.
  const mails = await ts.store.db
    .selectFrom("outbox")
    .selectAll()
    .where("kind", "=", "account")
    .execute();
  assert.equal(mails.length, 1, "one mail for the attack, not one per guess");
  assert.equal(mails[0]!.to_addr, "owner@example.org");
  assert.equal(mails[0]!.from_addr, "judge@example.org");
  assert.match(mails[0]!.subject, /guessing your Entente password/);
  const code = /one-time code .*: ([a-z2-9]{10})$/m.exec(mails[0]!.body)?.[1];
  assert.ok(code, mails[0]!.body);
  // A new computer, no device token: the code lets the owner in; a wrong password with it does not.
  const withCode = await from("203.0.113.10", "/api/login", { name: "owner", password: PW, code });
  assert.equal(withCode.status, 200, JSON.stringify(withCode.body));
  assert.equal(
    (await from("203.0.113.11", "/api/login", { name: "owner", password: "nope nope", code }))
      .status,
    401,
  );
  // A device still cannot guess on: its own wrong passwords are bounded too.
  const guesses: number[] = [];
  for (let i = 0; i < 7; i++) {
    guesses.push(
      (
        await from("203.0.113.12", "/api/login", {
          name: "owner",
          password: `d-${i}`,
          device: phone.body.device,
        })
      ).status,
    );
  }
  assert.deepEqual(guesses, [401, 401, 401, 401, 401, 429, 429]);

  // More guessing within the hour is the same attack: no second mail.
  await from("198.51.100.200", "/api/login", { name: "owner", password: "again" });
  assert.equal(
    (await ts.store.db.selectFrom("outbox").select("id").where("kind", "=", "account").execute())
      .length,
    1,
  );
  // An hour after the last guess, anyone with the right password logs in again.
  clock.advance(61 * 60_000);
  assert.equal(
    (await from("203.0.113.7", "/api/login", { name: "owner", password: PW })).status,
    200,
  );
});
