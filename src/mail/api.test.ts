import assert from "node:assert/strict";
import { test } from "node:test";
import { Judge } from "../judge/judge.ts";
import { startServer } from "../server/server.ts";
import { Api, accounts } from "../server/testing.ts";
import { testStore } from "../store/testing.ts";
import { MailGateway } from "./gateway.ts";
import { Postman } from "./postman.ts";
import { defaultDialects } from "./service.ts";
import { rawMail } from "./testing.ts";

/* The mail settings over the API: a player's address and secret, the game's mail, the outbox. */

test("API: addresses and secrets, the game's mail settings, the GM's outbox", async (t) => {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "sqlite store");
  const judge = new Judge({ store: ts.store });
  const server = await startServer({ judge, port: 0, host: "127.0.0.1", tickMs: 60_000 });
  t.after(() => server.close());
  const api = new Api(`http://127.0.0.1:${server.port}`);
  const tok = await accounts(api, ["gm", "ann", "bob"]);
  const game = await api.ok<{ id: string; invites: { code: string; role: string }[] }>(
    "POST",
    "/api/games",
    { name: "By mail", scenario: "2" },
    tok.gm,
  );
  const code = game.invites.find((i) => i.role === "player")!.code;
  await api.ok("POST", `/api/invites/${code}`, {}, tok.ann);
  await api.ok("POST", `/api/invites/${code}`, {}, tok.bob);

  assert.equal((await api.call("GET", "/api/me/mail", undefined, tok.ann)).status, 404, "none yet");
  const bad = await api.call("POST", "/api/me/mail", { address: "nowhere" }, tok.ann);
  assert.equal(bad.status, 400, "a bad address");
  assert.match(
    String((bad.body as { error: string }).error),
    /mail address like name@example\.org/,
    "says how",
  );
  const mine = await api.ok<{ address: string; secret: string }>(
    "POST",
    "/api/me/mail",
    { address: "Ann@Example.org" },
    tok.ann,
  );
  assert.equal(mine.address, "ann@example.org", "kept in lower case");
  assert.match(mine.secret, /^\S{12}$/, "a secret");
  assert.deepEqual(await api.ok("GET", "/api/me/mail", undefined, tok.ann), mine, "read back");
  assert.equal((await api.call("GET", "/api/me/mail")).status, 401, "only for oneself");

  const notGm = await api.call(
    "POST",
    `/api/games/${game.id}/gm/mail`,
    { abbreviation: "BYM", address: "bym@judge.test" },
    tok.ann,
  );
  assert.equal(notGm.status, 403, "only the GM sets up mail");
  assert.equal(
    (await api.call("GET", `/api/games/${game.id}/mail`)).status,
    404,
    "not by mail yet",
  );
  const settings = await api.ok<{ abbreviation: string; letters: { letter: string }[] }>(
    "POST",
    `/api/games/${game.id}/gm/mail`,
    { abbreviation: "bym", address: "bym@judge.test" },
    tok.gm,
  );
  assert.equal(settings.abbreviation, "BYM", "upper case");
  assert.deepEqual(await api.ok("GET", `/api/games/${game.id}/mail`), settings, "public");

  // A mail's reply lands in the outbox, which only the GM may read.
  const gateway = new MailGateway(judge, defaultDialects(), new Postman({ store: ts.store }));
  const r = await gateway.receive(
    rawMail({
      from: "ann@example.org",
      to: "bym@judge.test",
      subject: "BYM 14SE",
      text: `Secret: ${mine.secret}\nF lon H`,
    }),
  );
  assert.equal(r.accepted, true, `accepted: ${r.replies[0]?.text}`);
  assert.equal(
    (await api.call("GET", `/api/games/${game.id}/outbox`, undefined, tok.ann)).status,
    403,
    "not for players",
  );
  assert.equal(
    (await api.call("GET", `/api/games/${game.id}/outbox`)).status,
    401,
    "nor for strangers",
  );
  const box = await api.ok<{ id: number; to: string; subject: string; sentAt: string | null }[]>(
    "GET",
    `/api/games/${game.id}/outbox`,
    undefined,
    tok.gm,
  );
  assert.deepEqual(
    box.map((m) => [m.to, m.subject, m.sentAt]),
    [["ann@example.org", "Re: BYM 14SE", null]],
    "the GM sees the reply, not sent (no SMTP)",
  );
  const after = await api.ok<unknown[]>(
    "GET",
    `/api/games/${game.id}/outbox?after=${box[0]!.id}`,
    undefined,
    tok.gm,
  );
  assert.deepEqual(after, [], "after an id");
});
