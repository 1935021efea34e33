import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setMailAddress } from "../judge/mail.ts";
import { nmrPowers } from "../judge/testing.ts";
import {
  addressOf,
  GAME_ADDRESS,
  gameByMail,
  notifierOf,
  outboxMails,
  rawMail,
} from "./testing.ts";

/*
 * Mail players send to a game played by the house rules (seed 002): the envelope (subject,
 * To line, sender and secret), order bodies and orders sent early, press and votes by mail,
 * and the limit on how many mails a sender is read in a window.
 */

describe("mail: the house rules' envelope", () => {
  test("subjects: each mistake named, with how to write it", async (t) => {
    const { g, send } = await gameByMail(t);
    const season = await send("austria", "SED 01XA", "A vie-gal");
    assert.equal(season.accepted, false, "unknown season refused");
    assert.match(season.text, /"X" is not a season letter: use S \(spring moves\), U/, "season");
    const power = await send("austria", "SED 01SZ", "A vie-gal");
    assert.match(
      power.text,
      /no power has the letter "Z".*A Austria, E England/s,
      "letters listed",
    );
    const year = await send("austria", "SED 1SA", "A vie-gal");
    assert.match(year.text, /must be two digits \(01 for 1901\)/, "year");
    const game = await send("austria", "XYZ 01SA", "A vie-gal");
    assert.match(
      game.text,
      /no game here has the abbreviation "XYZ".*games played by mail: SED/s,
      "abbr",
    );
    const nothing = await send("austria", "orders", "A vie-gal");
    assert.equal(nothing.accepted, false, "a subject with no code is refused");
    assert.match(nothing.text, /"SED 01SA" is game SED, 1901, spring moves, Austria/, "the format");
    assert.deepEqual(
      (await g.judge.submissions.currentOrders(g.gm, g.gameId)).sets,
      [],
      "nothing stored",
    );
    // The other power's letter with one's own secret and address: not the sender's power.
    const other = await send("austria", "SED 01SR", "A war-ukr");
    assert.match(other.text, /not the registered address of the player of Russia/, "other power");
  });

  test("the To line: not Cc, not Bcc", async (t) => {
    const { send } = await gameByMail(t);
    const bcc = await send("england", "SED 01SE", "F lon-nth", { to: "me@players.test" });
    assert.equal(bcc.accepted, false, "Bcc refused");
    assert.match(bcc.text, /not on the To line \(Bcc\?\)/, "Bcc named");
    const cc = await send("england", "SED 01SE", "F lon-nth", {
      to: "me@players.test",
      cc: GAME_ADDRESS,
    });
    assert.match(cc.text, /on the Cc line/, "Cc named");
    const both = await send("england", "SED 01SE", "F lon-nth", {
      to: `me@players.test, ${GAME_ADDRESS}`,
    });
    assert.equal(both.accepted, true, "To with others is fine");
  });

  test("senders: registered address and secret, both needed", async (t) => {
    const { g, gw } = await gameByMail(t);
    await setMailAddress(g.judge, g.gm, { address: "gm@club.test" });
    const none = await gw.receive(
      rawMail({
        from: addressOf("france"),
        to: GAME_ADDRESS,
        subject: "SED 01SF",
        text: "A par-bur",
      }),
    );
    assert.equal(none.replies.length, 1, "a missing secret is a slip: no alert to the GM");
    assert.match(none.replies[0]!.text, /no secret line/, "missing secret");
    const forged = await gw.receive(
      rawMail({
        from: addressOf("france"),
        to: GAME_ADDRESS,
        subject: "SED 01SF",
        text: `Secret: ${g.secrets.germany}\nA par-bur`,
      }),
    );
    assert.match(forged.replies[0]!.text, /secret in the body is not yours/, "wrong secret");
    assert.equal(forged.replies[1]?.to, "gm@club.test", "the GM is told of a wrong secret");
    assert.match(forged.replies[1]!.text, /orders for France with a secret that is not/, "what");
    const stranger = await gw.receive(
      rawMail({
        from: "mallory@evil.test",
        to: GAME_ADDRESS,
        subject: "SED 01SF",
        text: `Secret: ${g.secrets.france}\nA par-bur`,
      }),
    );
    assert.equal(stranger.accepted, false, "an unregistered address is refused");
    assert.match(
      stranger.replies[0]!.text,
      /mallory@evil\.test is not the registered address of the player of France/,
      "and told why",
    );
    assert.deepEqual(
      (await g.judge.submissions.currentOrders(g.gm, g.gameId)).sets,
      [],
      "nothing stored",
    );
    const auto = await gw.receive(
      `From: ${addressOf("france")}\r\nTo: ${GAME_ADDRESS}\r\nSubject: SED 01SF\r\nAuto-Submitted: auto-replied\r\n\r\nI am on holiday.`,
    );
    assert.equal(auto.replies.length, 0, "an auto-reply is never answered (no mail loops)");
  });

  test("bodies: the one reader, its diagnostics, Final, the last set wins", async (t) => {
    const { g, send } = await gameByMail(t);
    const first = await send(
      "germany",
      "SED 01SG",
      "Hi!\n> quoted old orders\nA ber-kei\nA mun-ruh\nF kie-den\n",
    );
    assert.equal(first.accepted, true, "a set with a bad order is stored (as written)");
    assert.match(first.text, /A ber-kei\s+-> A ber - kie \(read "kei" as Kiel\)/, "typo read");
    assert.match(first.text, /> quoted old orders\s+-> ignored/, "quote ignored");
    const bad = await send("germany", "SED 01SG", "A ber - xyzzy\nA mun-ruh\nF kie-xyzzy\n");
    assert.match(bad.text, /A ber - xyzzy\s+-> NOT VALID: /, "the bad line is named");
    assert.match(
      bad.text,
      /F kie-xyzzy\s+-> NOT VALID: /,
      "a garbled order without spaces round its dash is an order too, named as not valid",
    );
    assert.match(bad.text, /2 orders are not valid as written/, "and both are counted");
    const foreign = await send("germany", "SED 01SG", "Austria:\nA vie-gal\n");
    assert.equal(foreign.accepted, false, "orders for a power one does not play");
    assert.match(foreign.text, /you do not play Austria/, "named");
    const last = await send("germany", "SED 01SG", "A ber-kie\nFinal\n");
    assert.match(
      last.text,
      /Orders on file for Germany[^\n]*FINAL[^\n]*:\n {2}A ber-kie\n\n/,
      "set replaced whole",
    );
    const later = await send("germany", "SED 02SG", "A kie-den");
    assert.match(later.text, /S1902M, a movement phase not open yet/, "a movement phase to come");
    const sets = await g.judge.submissions.currentOrders(g.gm, g.gameId);
    assert.deepEqual(
      sets.sets.map((s) => [s.power, s.orders, s.final]),
      [["germany", ["A ber-kie"], true]],
      "the last accepted set is on file",
    );
  });

  test("orders sent early for a winter phase are used when it comes (seed 002 II(5))", async (t) => {
    const { g, send } = await gameByMail(t);
    const early = await send("austria", "SED 01WA", "build A bud\nbuild F tri");
    assert.equal(early.accepted, true, "kept");
    assert.match(early.text, /W1901R\) is still to come: this set is kept for it/, "said so");
    assert.match(
      early.text,
      /Kept for Winter 1901 retreats and adjustments \(W1901R\), Austria:\n {2}build A bud/,
      "listed",
    );
    await send("austria", "SED 01SA", "A bud-ser\nF tri-alb\nA vie-gal");
    const due = async () => {
      const v = await g.judge.views.gameView(g.gm, g.gameId);
      g.clock.t = Date.parse(v.deadline!) + 1;
      assert.equal(await g.judge.adjudication.tick(), 1, `${v.phase} adjudicated`);
      return g.judge.views.gameView(g.gm, g.gameId);
    };
    let v = await due();
    assert.equal(v.phase, "F1901M", "fall");
    await send("austria", "SED 01FA", "A ser H\nF alb H\nA gal H");
    v = await due();
    assert.equal(v.phase, "W1901A", "winter adjustments (no retreats to make)");
    assert.deepEqual(v.toOrder, ["austria"], "Austria builds");
    v = await due();
    assert.deepEqual(
      [...(v.position.units.austria ?? [])].sort(),
      // One build for four centres: the house rules take excess builds from the bottom (V(2) B).
      ["A gal", "A ser", "F alb", "F tri"],
      "the early build was made",
    );
    assert.deepEqual(
      await nmrPowers(g.judge.store, g.gameId, "W1901A"),
      [],
      "no missed orders for Austria in winter",
    );
  });

  test("orders sent early by the API too", async (t) => {
    const { g } = await gameByMail(t);
    const a = await g.judge.submissions.submitOrders(g.players.italy, g.gameId, {
      orders: ["A ven-pie"],
      phase: "U1901R",
    });
    assert.equal(a.early, true, "kept for the summer retreats");
    assert.equal(a.phase, "U1901R", "its phase");
    assert.deepEqual(
      (await g.judge.submissions.currentOrders(g.gm, g.gameId)).sets,
      [],
      "not for the open phase",
    );
  });
});

describe("mail: press and votes", () => {
  test("press by mail goes through the judge: grey press without its author", async (t) => {
    const { g, send } = await gameByMail(t);
    const notifier = notifierOf(g.judge);
    await setMailAddress(g.judge, g.gm, { address: "gm@club.test" });
    await notifier.tick(); // the start of the game
    const start = await outboxMails(g.judge.store, "started");
    assert.equal(start.length, 8, "the start to seven players and the GM");
    assert.match(
      start.find((m) => m.to_addr === "gm@club.test")!.body,
      /you are its game master/,
      "the GM's copy",
    );
    const sent = await send(
      "austria",
      "SED PRESS",
      "To: Italy, R\nKind: grey\n\nShall we?\n-- \nA.",
    );
    assert.equal(sent.accepted, true, "press accepted");
    assert.match(sent.text, /grey press \(number 1\) was sent to Italy, Russia/, "summary");
    const none = await send("austria", "SED PRESS", "Hello everybody");
    assert.match(none.text, /does not start with a "To:" line/, "the To: line is needed");
    const black = await send("austria", "SED PRESS", "To: all\nKind: black\n\nI am the GM");
    assert.match(black.text, /black press .* is not accepted/, "the judge's rules apply");
    const before = (await outboxMails(g.judge.store)).length;
    await notifier.tick();
    const mails = await outboxMails(g.judge.store, "press");
    assert.ok(mails.length > 0 && before > 0, "press mailed");
    assert.deepEqual(
      mails.map((m) => m.to_addr).sort(),
      ["gm@club.test", addressOf("italy"), addressOf("russia")],
      "to its recipients only, and a copy to the GM (who publishes press, seed 002 X(1))",
    );
    const copy = mails.find((m) => m.to_addr === "gm@club.test")!;
    assert.match(
      copy.body,
      /Your copy as the GM[\s\S]*From: Austria \(grey press\)/,
      "the GM knows",
    );
    for (const m of mails.filter((x) => x !== copy)) {
      assert.match(m.body, /From: Anonymous \(grey press\)/, "no author");
      assert.ok(!/austria/i.test(m.body), "the author is not named anywhere");
      assert.match(m.body, /Shall we\?/, "the message");
    }
  });

  test("votes by mail", async (t) => {
    const { g, send } = await gameByMail(t);
    const r = await send("turkey", "SED VOTE", "propose draw\nvote 1 yes\nlist\ndance");
    assert.equal(r.accepted, true, "done");
    assert.match(r.text, /proposal 1: "A draw including all survivors"/, "proposed");
    assert.match(r.text, /your vote on proposal 1 is yes/, "voted");
    assert.match(r.text, /dance\s+-> NOT UNDERSTOOD/, "a bad command is named");
    const no = await send("italy", "SED VOTE", "vote 1 no\nvote 9 yes");
    assert.match(no.text, /vote 9 yes\s+-> NOT DONE: no proposal 9/, "the judge's error");
    const props = await g.judge.votes.proposals(g.players.italy, g.gameId);
    assert.equal(props[0]!.yourVote, "no", "Italy's vote stored");
  });
});

describe("mail: limits", () => {
  test("a sender is read at most N mails a window: told once, then not answered, read again later", async (t) => {
    const limit = { perSender: { max: 3, windowMs: 10 * 60_000 } };
    const { g, gw, send } = await gameByMail(t, "houserules", limit);
    for (let i = 1; i <= 3; i++) {
      const r = await send("england", "SED 01SE", `F lon-nth\nA lvp-yor\nF edi-nwg`);
      assert.equal(r.accepted, true, `mail ${i} is read`);
    }
    const fourth = await send("england", "SED 01SE", "F lon-eng");
    assert.equal(fourth.accepted, false, "the fourth in the window is not read");
    assert.match(
      fourth.text,
      /read 3 mails from england@players\.test in the last 10 minutes/,
      "said why",
    );
    assert.match(fourth.text, /for 10 minutes/, "and for how long");
    const fifth = await gw.receive(
      rawMail({
        from: addressOf("england"),
        to: GAME_ADDRESS,
        subject: "SED 01SE",
        text: "F lon-eng",
      }),
    );
    assert.equal(fifth.replies.length, 0, "told once a window: no reply storm");
    const other = await send("france", "SED 01SF", "A par-bur");
    assert.equal(other.accepted, true, "other senders are not held up");
    const sets = await g.judge.submissions.currentOrders(g.gm, g.gameId);
    assert.deepEqual(
      sets.sets.find((s) => s.power === "england")?.orders,
      ["F lon-nth", "A lvp-yor", "F edi-nwg"],
      "the refused mails changed nothing on file",
    );
    g.clock.advance(10 * 60_000 + 1);
    const later = await send("england", "SED 01SE", "F lon-eng\nA lvp-yor\nF edi-nwg");
    assert.equal(later.accepted, true, "after the window the sender is read again");
  });
});
