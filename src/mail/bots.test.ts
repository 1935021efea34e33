import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setMailAddress } from "../judge/mail.ts";
import { POWERS } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import { addressOf, mailTestGame, notifierOf, outboxMails } from "./testing.ts";

/*
 * Built-in players by mail (issue 31, docs/email.md): with the option botTakeover, the player
 * who missed orders and the GM are told that a bot played them (and plays on), whatever their
 * mail settings; the results say who played and list the seats bots play; the player's return
 * is told to both.
 */

describe("mail: a bot takes over after missed orders", () => {
  test("the player and the GM are told, the results say so, the hand-back is told", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const g = await mailTestGame(ts.store, "houserules", undefined, undefined, {
      botTakeover: "random",
    });
    const { judge, clock, gm } = g;
    await setMailAddress(judge, gm, { address: "gm@club.test" });
    const notifier = notifierOf(judge);
    const outbox = (after = 0) => outboxMails(ts.store, undefined, after);
    await notifier.tick();
    const start = Number((await outbox()).at(-1)?.id ?? 0);
    for (const p of POWERS) {
      if (p === "france") continue;
      const view = await judge.views.gameView(g.players[p], g.gameId);
      await judge.submissions.submitOrders(g.players[p], g.gameId, {
        orders: (view.position.units[p] ?? []).map((u) => `${u} H`),
        final: true,
      });
    }
    clock.t = Date.parse((await judge.views.gameView(gm, g.gameId)).deadline!) + 1;
    assert.equal(await judge.adjudication.tick(), 1);
    await notifier.tick();
    const after = await outbox(start);
    const nmr = after.filter((m) => m.kind === "nmr");
    assert.deepEqual(nmr.map((m) => m.to_addr).sort(), [addressOf("france"), "gm@club.test"]);
    for (const m of nmr)
      assert.match(
        m.body,
        /No orders received from France for .*: the built-in player random played them instead of holding \(the game's option botTakeover\)/,
      );
    const results = after.find((m) => m.kind === "results" && m.to_addr === addressOf("italy"))!;
    assert.match(
      results.body,
      /No orders received from France: the built-in player random played them \(the game's option botTakeover\)\./,
    );
    assert.match(
      results.body,
      /Played by built-in players:\n {2}France: the built-in player random \(after missed orders/,
    );
    // France's player is back: both are told.
    await judge.submissions.submitOrders(g.players.france, g.gameId, { orders: ["A par H"] });
    const mark = Number(after.at(-1)!.id);
    await notifier.tick();
    const back = (await outbox(mark)).filter((m) => /played by its player again/.test(m.subject));
    assert.deepEqual(back.map((m) => m.to_addr).sort(), [addressOf("france"), "gm@club.test"]);
    assert.match(back[0]!.body, /plays France again: the built-in player random/);
  });
});
