import assert from "node:assert/strict";
import { test } from "node:test";
import { setChairMode, setChairTimer } from "../judge/chair.ts";
import { setMailAddress } from "../judge/mail.ts";
import { sevenPlayerGame } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import { notifierOf, outboxMails } from "./testing.ts";

/* The chairs' timer running out (src/judge/chair.ts) reaches a chair who takes mail. */

test("a chair with an address is mailed when the orders timer runs out; nobody else is", async (t) => {
  const ts = await testStore(t, "sqlite");
  if (!ts) return;
  const g = await sevenPlayerGame(ts.store, {});
  const { judge, clock } = g;
  const notifier = notifierOf(judge, { judgeAddress: "judge@entente.test" });
  await setMailAddress(judge, g.gm, { address: "chair@club.test" });
  await setMailAddress(judge, g.players.france, { address: "france@players.test" });
  await notifier.tick();
  await setChairMode(judge, g.gm, g.gameId, true);
  await setChairTimer(judge, g.gm, g.gameId, { action: "start", stage: "orders", seconds: 60 });
  clock.advance(61_000);
  await judge.adjudication.tick();
  await notifier.tick();
  const out = await outboxMails(ts.store);
  const up = out.filter((m) => /time is up/.test(m.subject));
  assert.deepEqual(
    up.map((m) => m.to_addr),
    ["chair@club.test"],
    "the chair alone is told the time is up",
  );
  assert.match(up[0]!.subject, /time is up: order writing/);
  assert.match(up[0]!.body, /Reveal and resolve the orders on the projector page/);
  await judge.adjudication.tick();
  await notifier.tick();
  const again = await outboxMails(ts.store);
  assert.equal(again.filter((m) => /time is up/.test(m.subject)).length, 1, "once");
});
