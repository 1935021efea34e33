import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setMailAddress, setNotices } from "../judge/mail.ts";
import { globalGame, judgeWithGm, POWERS, sevenPlayerGame, user } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import { addressOf, elevenByMail, lastMailId, notifierOf, outboxMails } from "./testing.ts";

/*
 * A player who loses the seat is told, whether their notices are on or off: by civil disorder
 * and by the GM's replacing them, in a classical game and in Global Diplomacy (whose civil
 * disorder only the GM reads).
 */

describe("mail: web players' mail and opting out", () => {
  test("a player who loses the seat is told, notices on or off: by civil disorder and by the GM", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    // A seat silent for one phase falls into civil disorder.
    const g = await sevenPlayerGame(ts.store, { civilDisorderAfter: 1 });
    const { judge, clock } = g;
    const notifier = notifierOf(judge, { judgeAddress: "judge@entente.test", takesMail: true });
    await notifier.tick();
    await setMailAddress(judge, g.gm, { address: "gm@club.test" });
    const told = ["austria", "germany", "italy", "turkey"] as const;
    for (const p of told) await setMailAddress(judge, g.players[p], { address: addressOf(p) });
    // Italy turned off every mail, Turkey this game's; Germany and Austria did not.
    await setNotices(judge, g.players.italy, { notices: false });
    await setNotices(judge, g.players.turkey, { notices: false, game: g.gameId });
    const outbox = (after = 0) => outboxMails(ts.store, undefined, after);
    const to = async (p: (typeof told)[number], after = 0) =>
      (await outbox(after)).filter((m) => m.to_addr === addressOf(p));
    const duty = (m: { body: string; list_unsubscribe: string | null }, what: string) => {
      assert.equal(m.list_unsubscribe, null, `${what}: no List-Unsubscribe`);
      assert.doesNotMatch(m.body, /Not wanted\?|NOTICES OFF|untick it/i, `${what}: no opt-out`);
      assert.match(
        m.body,
        /\nSent even with the judge's mail turned off: it is about the seat you held\. It is the last mail of this game to you: .*\n$/,
        `${what}: why it came`,
      );
    };

    // Germany and Italy send nothing: both seats fall into civil disorder with the results.
    for (const p of POWERS)
      if (p !== "germany" && p !== "italy")
        await judge.submissions.submitOrders(g.players[p], g.gameId, { orders: [], final: true });
    clock.t = Date.parse((await judge.views.gameView(g.gm, g.gameId)).deadline!) + 1;
    assert.equal(await judge.adjudication.tick(), 1, "adjudicated");
    const view = await judge.views.gameView(g.gm, g.gameId);
    assert.equal(view.seatList[3]!.player, null, "Germany's seat is empty");
    assert.equal(view.seatList[4]!.player, null, "Italy's seat is empty");
    await notifier.tick();
    for (const p of ["germany", "italy"] as const) {
      const Name = p === "germany" ? "Germany" : "Italy";
      const mails = await to(p);
      assert.deepEqual(
        mails.map((m) => m.kind),
        ["seat"],
        `${Name}'s former player (notices ${p === "italy" ? "off" : "on"}) is told, once`,
      );
      const m = mails[0]!;
      assert.equal(
        m.subject,
        `${g.gameId}: ${Name} is in civil disorder: you no longer hold the seat`,
      );
      assert.match(
        m.body,
        new RegExp(
          `^You no longer hold ${Name} in game ${g.gameId}: you missed 1 phase in a row, and in this game a seat is declared in civil disorder once its player has missed 1 phase in a row \\(the game's option civilDisorderAfter; seed 002 VII\\(6\\)\\)\\.`,
        ),
        "why",
      );
      assert.match(
        m.body,
        /\nYou stay in the game as an observer, and can no longer send orders or press in it\.\n/,
      );
      assert.match(
        m.body,
        /\nThe seat is open for a replacement, by an invitation the GM holds: the GM decides who takes it, and may give it back to you\. If you want to play on, write to the GM\.\n/,
        "what is left to them",
      );
      assert.doesNotMatch(m.body, /invitation code|JOIN/, "the seat's invitation is the GM's");
      duty(m, Name);
    }

    // The GM gives Austria's seat to a newcomer and opens Turkey's.
    const before = Number((await outbox()).at(-1)!.id);
    const newcomer = await user(judge, "newcomer");
    await judge.gm.replacePlayer(g.gm, g.gameId, { seat: 0, user: newcomer.name });
    await judge.gm.replacePlayer(g.gm, g.gameId, { seat: 6 });
    await notifier.tick();
    for (const [p, Name, what, body] of [
      [
        "austria",
        "Austria",
        "Austria's former player is told, and not of Turkey's seat",
        new RegExp(
          `^The GM gave your seat, Austria, in game ${g.gameId} to ${newcomer.name}\\.\nYou stay in the game as an observer, and can no longer send orders or press in it\\.\nOnly the GM can give the seat back to you: if you think this is a mistake, write to the GM\\.\n`,
        ),
      ],
      [
        "turkey",
        "Turkey",
        "Turkey's former player, this game's mail off, is told",
        new RegExp(
          `^The GM took your seat, Turkey, in game ${g.gameId} and opened it for a replacement\\.\n`,
        ),
      ],
    ] as const) {
      const mails = await to(p, before);
      assert.deepEqual(
        mails.map((m) => m.subject),
        [`${g.gameId}: you no longer hold ${Name}`],
        what,
      );
      assert.match(mails[0]!.body, body);
      duty(mails[0]!, Name);
    }

    // It was the last: the next phase's results go to none of them.
    const later = Number((await outbox()).at(-1)!.id);
    clock.t = Date.parse((await judge.views.gameView(g.gm, g.gameId)).deadline!) + 1;
    assert.equal(await judge.adjudication.tick(), 1, "adjudicated");
    await notifier.tick();
    assert.ok(
      (await outbox(later)).some((m) => m.kind === "results"),
      "the results went out (to the GM)",
    );
    for (const p of told) assert.deepEqual(await to(p, later), [], `nothing more to ${p}`);
  });

  test("in Global Diplomacy, whose civil disorder only the GM reads, the player who lost the seat is told too", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const { clock, judge, gm } = await judgeWithGm(ts.store);
    const game = await globalGame(judge, gm, { civilDisorderAfter: 1 });
    const notifier = notifierOf(judge, { judgeAddress: "judge@entente.test" });
    await setMailAddress(judge, gm, { address: "gm@club.test" });
    const mailOf = (p: number) => `gd${p}@players.test`;
    // Player 5 turned the judge's mail off.
    await elevenByMail(judge, game, "gd", mailOf, async (p, u) => {
      if (p === 5) await setNotices(judge, u, { notices: false });
    });
    await notifier.tick();
    const first = await lastMailId(ts.store);
    // Nobody sends commands: every seat falls into civil disorder with the first turn.
    clock.t = Date.parse((await judge.views.gameView(gm, game.id)).deadline!) + 1;
    assert.equal(await judge.adjudication.tick(), 1, "turn 1 adjudicated");
    assert.ok(
      (await judge.views.gameView(gm, game.id)).seatList.every((x) => x.player === null),
      "every seat emptied",
    );
    await notifier.tick();
    const out = await outboxMails(ts.store, undefined, first);
    for (let p = 1; p <= 11; p++) {
      const mine = out.filter((m) => m.to_addr === mailOf(p));
      assert.deepEqual(
        mine.map((m) => m.kind),
        ["seat"],
        `player ${p}${p === 5 ? " (mail off)" : ""} is told, once`,
      );
      assert.match(mine[0]!.subject, /: .+ is in civil disorder: you no longer hold the seat$/);
      assert.match(mine[0]!.body, /adjudicated without commands/, "in the game's words");
      assert.match(mine[0]!.body, /can no longer send commands or press in it\./);
      assert.equal(mine[0]!.list_unsubscribe, null);
    }
    assert.ok(
      out.some((m) => m.to_addr === "gm@club.test" && /in civil disorder/.test(m.body)),
      "the GM reads the civil disorder",
    );
  });
});
