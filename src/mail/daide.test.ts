import assert from "node:assert/strict";
import { test } from "node:test";
import { Judge } from "../judge/judge.ts";
import { Clock } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import { gatewayOf, rawMail } from "./testing.ts";

/*
 * Seats kept for DAIDE clients in a game created by mail (docs/email.md, docs/daide.md): the
 * GM's CREATE with a line "DAIDE: England, France" keeps them and the reply names the port; a
 * judge without DAIDE ports refuses it, saying why.
 */

const JUDGE = "judge@judge.test";
const GM = "gm@club.test";

async function gm(daidePorts: { first: number; last: number } | null, t: test.TestContext) {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "sqlite store");
  const judge = new Judge({ store: ts.store, now: new Clock().now, daidePorts });
  const gw = gatewayOf(judge);
  const send = async (subject: string, text = "") => {
    const r = await gw.receive(rawMail({ from: GM, to: JUDGE, subject, text }));
    return { accepted: r.accepted, text: r.replies[0]!.text };
  };
  const reg = await send("REGISTER gamemaster");
  const secret = /Your secret: (\S+)/.exec(reg.text)?.[1] ?? "";
  return { judge, send, secret };
}

test("CREATE with a DAIDE line keeps the seats and names the port", async (t) => {
  const { judge, send, secret } = await gm({ first: 16713, last: 16714 }, t);
  const created = await send(
    "CREATE SED houserules",
    `Secret: ${secret}\nName: Speed Europa\nDAIDE: England, France`,
  );
  assert.equal(created.accepted, true, created.text);
  assert.match(
    created.text,
    /Seats kept for DAIDE clients \(England, France\): they connect to this judge's port 16713\./,
  );
  const games = await judge.games.listGames();
  const view = await judge.views.gameView(null, games[0]!.id);
  assert.equal(view.daide?.port, 16713);
  assert.deepEqual(
    view.seatList.filter((s) => s.daide).map((s) => s.name),
    ["England", "France"],
  );
});

test("CREATE with a DAIDE line on a judge without DAIDE ports is refused, saying why", async (t) => {
  const { send, secret } = await gm(null, t);
  const refused = await send(
    "CREATE SED houserules",
    `Secret: ${secret}\nName: Speed Europa\nDAIDE: England`,
  );
  assert.equal(refused.accepted, false);
  assert.match(refused.text, /--daide-ports/);
});
