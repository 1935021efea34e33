import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Judge } from "../judge/judge.ts";
import { readPublicUrl } from "../judge/links.ts";
import { noticeSettings, setMailAddress, setNotices } from "../judge/mail.ts";
import { Clock, POWERS, sevenPlayerGame, user } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import {
  addressOf,
  GAME_ADDRESS,
  gameByMail,
  gatewayOf,
  lastMailId,
  notifierOf,
  outboxMails,
  rawMail,
} from "./testing.ts";

/*
 * Players of the web page who gave an address get the judge's mail as mail players do, and
 * anybody may opt out of it, for one game or all (the API, the NOTICES mail command; every
 * such mail says how). With a public address the mails link to the game and its invitations;
 * without one they carry no link. The GM's duties are mailed with notices off. (A player who
 * loses a seat: seat-notices.test.ts; a game never set up for mail: judge-address.test.ts.)
 */

describe("mail: web players' mail and opting out", () => {
  test("results and reminders to every address but those who opted out; each mail says how", async (t) => {
    const { g, gw } = await gameByMail(t);
    const { judge, clock } = g;
    const notifier = notifierOf(judge, { reminderMs: 12 * 3_600_000 });
    const mails = (kind: string, after = 0) => outboxMails(g.judge.store, kind, after);
    const last = () => lastMailId(g.judge.store);
    await notifier.tick();
    assert.equal((await mails("started")).length, 7, "every address gets the start");

    // France plays on the web page: its orders by the API, and opts out of this game's mail.
    const fr = await setNotices(judge, g.players.france, { notices: false, game: "sed" });
    assert.equal(fr.games.find((x) => x.label === "SED")?.notices, false, "off for SED");
    assert.equal(fr.notices, true, "the account's mail stays on");
    await judge.submissions.submitOrders(g.players.france, g.gameId, {
      orders: ["A par H"],
      final: true,
    });
    // Germany opts out of everything by mail, without its secret (as an unsubscribe).
    const off = await gw.receive(
      rawMail({ from: addressOf("germany"), to: GAME_ADDRESS, subject: "NOTICES OFF", text: "" }),
    );
    assert.equal(off.accepted, true, off.replies[0]?.text);
    assert.equal(off.replies[0]?.to, addressOf("germany"), "the answer to the registered address");
    assert.match(off.replies[0]!.text, /the judge's mail for every game of \S+ is OFF/);
    assert.equal((await noticeSettings(judge, g.players.germany)).notices, false, "stored");
    const bad = await gw.receive(
      rawMail({ from: addressOf("italy"), to: GAME_ADDRESS, subject: "NOTICES MAYBE", text: "" }),
    );
    assert.equal(bad.accepted, false);
    assert.match(bad.replies[0]!.text, /"NOTICES" needs ON or OFF, not "MAYBE"/, "what is wrong");
    assert.match(bad.replies[0]!.text, /"NOTICES OFF <game id>"/, "and what to send");
    const stranger = await gw.receive(
      rawMail({ from: "who@else.test", to: GAME_ADDRESS, subject: "NOTICES OFF", text: "" }),
    );
    assert.match(stranger.replies[0]!.text, /who@else\.test is not registered/, "no account");
    const notMine = await gw.receive(
      rawMail({ from: addressOf("italy"), to: GAME_ADDRESS, subject: "NOTICES OFF GD9", text: "" }),
    );
    assert.match(notMine.replies[0]!.text, /no player or GM of a game "GD9"; your games: SED/);

    // Reminders: not to France (this game) nor Germany (all games).
    const before = await last();
    clock.t = Date.parse((await judge.views.gameView(g.gm, g.gameId)).deadline!) - 11 * 3_600_000;
    await notifier.tick();
    const reminded = (await mails("reminder", before)).map((m) => m.to_addr).sort();
    assert.deepEqual(
      reminded,
      ["austria", "england", "italy", "russia", "turkey"].map(addressOf),
      "the five who want mail and owe orders",
    );

    // The results: to all but France and Germany; Germany, who sent nothing, is still told of
    // its own seat (seed 002 VII(6)).
    const beforeResults = await last();
    clock.t = Date.parse((await judge.views.gameView(g.gm, g.gameId)).deadline!) + 1;
    assert.equal(await judge.adjudication.tick(), 1, "adjudicated");
    await notifier.tick();
    const results = await mails("results", beforeResults);
    assert.deepEqual(
      results.map((m) => m.to_addr).sort(),
      ["austria", "england", "italy", "russia", "turkey"].map(addressOf),
      "results to those who did not opt out",
    );
    const nmr = await mails("nmr", beforeResults);
    const germany = nmr.find((m) => m.to_addr === addressOf("germany"));
    assert.ok(germany, "the missed-orders mail about Germany's own seat still reaches it");
    // It offers no opt-out that would not stop it: no "Not wanted?" line, no List-Unsubscribe;
    // it says why it came and how to get no more. So to every holder, opted out or not.
    assert.ok(nmr.length >= 2, "Germany's and others' missed orders");
    for (const m of nmr) {
      assert.equal(m.list_unsubscribe, null, `no List-Unsubscribe on ${m.to_addr}'s`);
      assert.doesNotMatch(m.body, /Not wanted\?|NOTICES OFF/, `no opt-out in ${m.to_addr}'s`);
      assert.match(
        m.body,
        /\nSent even with the judge's mail turned off: it is about your own seat .*To get no more of it, ask the GM to give your seat to a replacement\.\n$/,
        "its last line says why it came",
      );
    }
    const all = await mails("results");
    for (const m of [...all, ...(await mails("reminder")), ...(await mails("started"))]) {
      assert.match(m.body, /"NOTICES OFF SED" \(this game\) or "NOTICES OFF" \(every game\)/);
      assert.match(m.body, /POST \/api\/me\/notices/, "and the web page's setting");
      assert.doesNotMatch(m.body, /:\/\/|\/game\/|\/join\//, "no link without a public address");
      assert.doesNotMatch(m.body, /Sent even with/);
      assert.deepEqual(
        JSON.parse(m.list_unsubscribe!),
        [`mailto:${GAME_ADDRESS}?subject=NOTICES%20OFF%20SED`],
        "and its List-Unsubscribe: the opt-out stops these",
      );
    }

    // France back in by mail, for this game.
    const on = await gw.receive(
      rawMail({ from: addressOf("france"), to: GAME_ADDRESS, subject: "NOTICES ON SED", text: "" }),
    );
    assert.match(on.replies[0]!.text, /mail for game SED \(Speed Europa Debut\) is ON/);
    assert.equal((await noticeSettings(judge, g.players.france)).games[0]?.notices, true, "stored");
    // The account without an address cannot opt out of what it never gets.
    const webOnly = await user(judge, "webonly");
    await assert.rejects(setNotices(judge, webOnly, { notices: false }), {
      kind: "not-found",
    });
  });

  test("with a public address, invitations and results link to the web page", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    assert.throws(() => readPublicUrl("judge.example.org"), /like https:\/\/judge\.example\.org/);
    assert.throws(() => readPublicUrl("ftp://judge.example.org"), /https:\/\/ or http:\/\//);
    assert.equal(readPublicUrl(" "), null, "blank: none");
    const clock = new Clock();
    const judge = new Judge({
      store: ts.store,
      now: clock.now,
      publicUrl: "https://judge.example.org/entente/",
    });
    const base = "https://judge.example.org/entente";
    const gw = gatewayOf(judge);
    const send = async (from: string, subject: string, text = "") =>
      (await gw.receive(rawMail({ from, to: "sed@judge.test", subject, text }))).replies[0]!.text;
    const secretOf = (text: string) => /Your secret: (\S+)/.exec(text)![1]!;
    const gm = secretOf(await send("gm@club.test", "REGISTER gamemaster"));
    const created = await send(
      "gm@club.test",
      "CREATE SED houserules",
      `Secret: ${gm}\nName: Linked\nAddress: sed@judge.test`,
    );
    const code = /player: (\S+)/.exec(created)![1]!;
    assert.match(
      created,
      new RegExp(`player: ${code} {2}\\(or on the web: ${base}/join/${code}\\)`),
      "the invitation's link",
    );
    const twice = await send(
      "gm@club.test",
      "CREATE sed houserules",
      `Secret: ${gm}\nName: Again\nAddress: sed2@judge.test`,
    );
    assert.match(twice, /NOT done.*another game already has the id SED/s, "a game id is unique");
    assert.equal((await judge.games.listGames()).length, 1, "and the refused CREATE made no game");
    const ann = secretOf(await send("ann@players.test", "REGISTER ann"));
    const joined = await send("ann@players.test", `JOIN ${code} france`, `Secret: ${ann}`);
    const gameId = (await judge.games.listGames())[0]!.id;
    assert.match(joined, new RegExp(`The game on the web: ${base}/game/${gameId}`), "its page");
    // The GM starts it; the start mail and the results carry the game's link.
    await send("gm@club.test", "START SED", `Secret: ${gm}`);
    const notifier = notifierOf(judge);
    await notifier.tick();
    clock.t = Date.parse((await judge.views.gameView(null, gameId)).deadline!) + 1;
    await judge.adjudication.tick();
    await notifier.tick();
    const out = await outboxMails(ts.store);
    const results = out.filter((m) => m.kind === "results" && m.to_addr === "ann@players.test");
    assert.equal(results.length, 1, "Ann's results");
    assert.match(results[0]!.body, new RegExp(`The game on the web: ${base}/game/${gameId}\\n`));
    const started = out.find((m) => m.kind === "started" && m.to_addr === "ann@players.test");
    assert.match(started!.body, new RegExp(`${base}/game/${gameId}`), "the start mail too");
    // A web player who gave an address gets the same mail.
    const bob = await user(judge, "bob");
    await setMailAddress(judge, bob, { address: "bob@players.test" });
    assert.equal((await noticeSettings(judge, bob)).notices, true, "on by default");
  });

  test("the GM's duties are mailed with notices off and offer no opt-out; the results offer it", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    // A seat silent for one phase falls into civil disorder: the GM is to arrange a replacement.
    const g = await sevenPlayerGame(ts.store, { civilDisorderAfter: 1 });
    const { judge, clock } = g;
    const JUDGE = "judge@entente.test";
    // A judge that reads mail: its opt-out (line and List-Unsubscribe) is a mailto:.
    const notifier = notifierOf(judge, { judgeAddress: JUDGE, takesMail: true });
    await notifier.tick();
    await setMailAddress(judge, g.gm, { address: "gm@club.test" });
    for (const p of ["austria", "germany"] as const)
      await setMailAddress(judge, g.players[p], { address: addressOf(p) });
    await setNotices(judge, g.gm, { notices: false });
    for (const p of POWERS)
      if (p !== "germany")
        await judge.submissions.submitOrders(g.players[p], g.gameId, { orders: [], final: true });
    clock.t = Date.parse((await judge.views.gameView(g.gm, g.gameId)).deadline!) + 1;
    assert.equal(await judge.adjudication.tick(), 1, "adjudicated");
    await notifier.tick();
    const out = await outboxMails(ts.store);
    const toGm = out.filter((m) => m.to_addr === "gm@club.test");
    const needed = toGm.filter((m) => /a replacement may be arranged for Germany/.test(m.subject));
    assert.equal(needed.length, 1, "the GM, notices off, is told to replace Germany");
    assert.match(needed[0]!.body, /Germany is in civil disorder .*invitation code/s);
    const missed = toGm.find((m) => m.kind === "nmr")!;
    assert.match(
      missed.body,
      new RegExp(`\\n${g.players.germany.name} no longer holds the seat: it is in civil disorder `),
    );
    assert.doesNotMatch(missed.body, /keeps the seat/, "not told that the player keeps it");
    assert.deepEqual(
      toGm.map((m) => m.kind),
      ["nmr", "notice"],
      "the missed orders and the replacement: nothing else (no results) to the GM",
    );
    for (const m of toGm) {
      assert.equal(m.list_unsubscribe, null, m.subject);
      assert.doesNotMatch(m.body, /Not wanted\?|NOTICES OFF|untick it/i, m.subject);
      assert.match(
        m.body,
        /\nSent even with the judge's mail turned off: it is about your duties as this game's GM .*\n$/,
      );
    }
    // Austria, who did not opt out, has the results with the opt-out.
    const austria = out.filter((m) => m.to_addr === addressOf("austria"));
    assert.deepEqual(
      austria.map((m) => m.kind),
      ["results"],
    );
    assert.match(austria[0]!.body, /\nNot wanted\? Mail the subject "NOTICES OFF /);
    assert.deepEqual(JSON.parse(austria[0]!.list_unsubscribe!), [
      `mailto:${JUDGE}?subject=NOTICES%20OFF%20${g.gameId}`,
    ]);
  });
});
