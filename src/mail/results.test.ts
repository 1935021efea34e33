import assert from "node:assert/strict";
import { describe, type TestContext, test } from "node:test";
import { setMailAddress } from "../judge/mail.ts";
import { nmrPowers } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import {
  addressOf,
  gameByMail,
  gatewayOf,
  lastMailId,
  type MailTestGame,
  mailTestGame,
  notifierOf,
  outboxMails,
  type Power,
  sendAs,
} from "./testing.ts";

/*
 * The results mail is the adjudication as published (seed 002 X(1), IX(4), VII(6)): every
 * power's orders with results, white press with its author's orders, grey press in an
 * "Anonymous Press" section, the supply-centre table (as it will stand after the fall moves,
 * with builds and removals, and after the combined winter), the powers that sent no orders,
 * vote counts, the next phase; one mail per player per phase.
 */

const GM = "gm@club.test";

/** Hold orders, so that a power is not in NMR (only Turkey misses the spring). */
const HOLDS: Partial<Record<Power, string>> = {
  england: "SED 01?E|F lon H\nF edi H\nA lvp H",
  france: "SED 01?F|A par H\nA mar H\nF bre H",
  italy: "SED 01?I|F nap H\nA rom H\nA ven H",
  russia: "SED 01?R|A war H\nA mos H\nF sev H\nF stp/sc H",
};

async function holds(g: MailTestGame, season: "S" | "F") {
  for (const [power, spec] of Object.entries(HOLDS)) {
    const [subject, body] = spec.split("|") as [string, string];
    await send(g, power as Power, subject.replace("?", season), body);
  }
}

/** A player's mail to the game, with their secret: the answer. */
async function send(g: MailTestGame, from: Power, subject: string, body: string) {
  return (await sendAs(g, gatewayOf(g.judge), from, subject, body)).text;
}

/** The house-rules game by mail, its GM at GM's address, and the notifier mailing for it. */
async function mailedGame(t: TestContext) {
  const { g } = await gameByMail(t);
  await setMailAddress(g.judge, g.gm, { address: GM });
  return { g, notifier: notifierOf(g.judge) };
}

describe("mail: the results mail is the adjudication as published", () => {
  test("a year of a house-rules game: press, votes, NMRs and the centre tables", async (t) => {
    const { g, notifier } = await mailedGame(t);
    await notifier.tick();
    const results = async (phase: string) =>
      (await outboxMails(g.judge.store, "results")).filter(
        (m) => m.subject.includes(`(${phase})`) || m.body.includes(`(${phase}):`),
      );
    const adjudicate = async () => {
      const v = await g.judge.views.gameView(g.gm, g.gameId);
      g.clock.t = Date.parse(v.deadline!) + 1;
      assert.equal(await g.judge.adjudication.tick(), 1, `${v.phase} adjudicated`);
      await notifier.tick();
    };

    await send(g, "france", "SED PRESS", "To: all\n\nVive la France");
    await send(g, "austria", "SED PRESS", "To: all\nKind: grey\n\nBeware the French");
    const dark = await send(g, "italy", "SED PRESS", "To: all\nKind: dark grey\n\nI am Russia");
    assert.match(dark, /dark grey press .* is not accepted/, "dark grey press refused, with why");
    await send(g, "austria", "SED 01SA", "A vie-gal\nA bud H\nF tri H");
    await send(g, "germany", "SED 01SG", "A ber-sil\nA mun H\nF kie H");
    await holds(g, "S");
    await send(g, "turkey", "SED VOTE", "propose draw\nvote 1 yes");
    await adjudicate();

    const spring = await results("S1901M");
    assert.deepEqual(
      spring.map((m) => m.to_addr).sort(),
      [
        ...["austria", "england", "france", "germany", "italy", "russia", "turkey"].map(addressOf),
        GM,
      ].sort(),
      "one results mail to each player and the GM, the vote's outcome inside it",
    );
    // As SQL's LIKE reads it: in any case.
    const votes = (await outboxMails(g.judge.store)).filter((m) => /vote 1/i.test(m.subject));
    assert.equal(votes.length, 0, "no separate mail for the vote's outcome");
    const eng = spring.find((m) => m.to_addr === addressOf("england"))!.body;
    assert.match(
      eng,
      /France:\n(?: {2}.*\n)*? {2}Press from France:\n {4}Vive la France/,
      "white press with its author's orders",
    );
    assert.match(eng, /Anonymous Press:\n {4}Beware the French/, "grey press in its own section");
    const anonymous = eng.slice(eng.indexOf("Anonymous Press:")).split("\n\n")[0]!;
    assert.doesNotMatch(anonymous, /Austria/, "the grey press's author is not named");
    assert.doesNotMatch(eng, /I am Russia/, "dark grey press was never published");
    assert.match(eng, /No orders received from Turkey: its units held\./, "the NMR and its effect");
    assert.doesNotMatch(
      eng,
      /No orders received from (?:Austria|Germany|France)/,
      "those who ordered",
    );
    assert.match(
      eng,
      /Proposal 1 \("A draw including all survivors"\) failed: 1 for, 6 against, 0 abstaining\./,
      "counts only",
    );
    assert.doesNotMatch(eng, /Turkey.*voted|voted yes/, "nobody's vote is named");
    assert.match(
      eng,
      /Next: Fall 1901 movement \(F1901M\), orders due by/,
      "the next phase and deadline",
    );
    assert.doesNotMatch(eng, /Supply centres/, "no centre table after the spring");

    // Fall: Austria takes Warsaw with German support; Russia (no orders) is dislodged.
    await send(g, "austria", "SED 01FA", "A gal-war\nA bud H\nF tri H");
    await send(g, "germany", "SED 01FG", "A sil S A gal-war\nA mun H\nF kie H");
    await holds(g, "F");
    await send(g, "turkey", "SED 01FT", "F ank H\nA con H\nA smy H");
    await adjudicate();
    const fall = (await results("F1901M")).find((m) => m.to_addr === addressOf("russia"))!.body;
    assert.match(fall, /Supply centres after F1901M, as they will stand:/, "the fall table");
    assert.match(
      fall,
      / {2}Austria +4 centres, {2}3 units {2}builds 1 {2}bud tri vie war/,
      "Austria gains Warsaw and builds",
    );
    assert.match(
      fall,
      / {2}Russia +3 centres, {2}3 units \(\+1 dislodged\) {2}no change {2}mos sev stp/,
      "Russia loses Warsaw; its dislodged unit is counted apart",
    );
    assert.match(
      fall,
      /Next: Winter 1901 retreats and adjustments \(W1901R\)/,
      "the combined winter",
    );

    await adjudicate();
    const winter = (await results("W1901R")).find((m) => m.to_addr === GM)!.body;
    assert.match(winter, /Supply centres after W1901R:/, "the winter results carry the table too");
    assert.match(winter, / {2}Austria +4 centres, {2}3 units {2}bud tri vie war/, "as it stands");
    assert.match(winter, / {2}Russia +3 centres, {2}3 units/, "Russia's dislodged unit disbanded");
    // Austria could build and sent nothing: it waived its build, no NMR (seed 001 §3).
    assert.deepEqual(
      await nmrPowers(g.judge.store, g.gameId, "W1901R"),
      ["russia"],
      "only Russia, which had a dislodged unit to retreat, missed orders",
    );
    assert.match(winter, /No orders received from Russia: its dislodged units were disbanded\./);
    assert.doesNotMatch(winter, /No orders received from Austria/, "a waived build is no NMR");

    // The GM's acts reach every player: a unit removed (VIII(2)) between phases.
    await g.judge.units.removeUnit(g.gm, g.gameId, {
      power: "italy",
      unit: "A ven",
      reason: "two units in one province",
    });
    await notifier.tick();
    const notices = await outboxMails(g.judge.store, "notice");
    assert.equal(notices.length, 8, "to the seven players and the GM");
    for (const m of notices)
      assert.match(m.body, /The GM removed italy's A ven: two units in one province/, m.to_addr);

    // Missed orders (seed 002 VII(6)): the player keeps the seat; the player and the GM are
    // mailed at once; once the contact window has passed, the GM is told a replacement may be
    // arranged, with the mail command; the seat is emptied only by the GM.
    const nmrMails = () => outboxMails(g.judge.store, "nmr");
    const atOnce = (await nmrMails()).filter((m) => m.subject.includes("(W1901R)"));
    assert.deepEqual(
      atOnce.map((m) => m.to_addr).sort(),
      [addressOf("russia"), GM].sort(),
      "Russia's NMR in W1901R: mailed to Russia and the GM, nobody else",
    );
    assert.match(
      atOnce.find((m) => m.to_addr === addressOf("russia"))!.body,
      /^No orders received from Russia for Winter 1901 retreats and adjustments \(W1901R\).*\nYou keep your seat\./,
      "the player is told they keep the seat",
    );
    assert.equal(
      (await g.judge.views.gameView(g.gm, g.gameId)).options.civilDisorderAfter,
      0,
      "the default: the judge never empties a seat by itself",
    );
    const suggested = async () =>
      (await nmrMails()).filter((m) => m.subject.includes("a replacement may be arranged"));
    assert.equal(
      (await suggested()).length,
      0,
      "Turkey ordered again within its window; Russia's window is still open",
    );

    // Three days on, Russia still silent: the GM is told (before S1902M adjudicates), and
    // Russia, missing S1902M too, keeps the seat until the GM decides.
    await adjudicate();
    const told = await suggested();
    assert.equal(told.length, 1, "the GM is mailed that a replacement may be arranged");
    assert.equal(told[0]!.to_addr, GM, "the GM alone");
    assert.match(told[0]!.subject, /for Russia$/, "for Russia");
    assert.match(told[0]!.body, /\n {2}REPLACE SED Russia\n/, "with the command to open the seat");
    assert.match(told[0]!.body, /REPLACE SED Russia <user>/, "or to give it to a player");
    const view = await g.judge.views.gameView(g.gm, g.gameId);
    assert.equal(
      view.seatList.find((s) => s.name === "Russia")!.player,
      g.players.russia.name,
      "kept",
    );
    const spring1902 = (await results("S1902M")).find((m) => m.to_addr === GM)!.body;
    assert.doesNotMatch(spring1902, /civil disorder; its seat is open/, "no automatic CD");
    assert.match(spring1902, /No orders received from Russia/, "the NMR is published");
  });

  test("the GM's acts since the last results come inside the results mail; a refusal's reason to its proposer", async (t) => {
    const { g, notifier } = await mailedGame(t);
    await send(g, "italy", "SED VOTE", "propose houserule: armies wear hats");
    await notifier.tick();
    const before = await lastMailId(g.judge.store);
    // Between two ticks of the notifier: a refusal, a removal, then the deadline.
    await g.judge.votes.refuse(g.gm, g.gameId, 1, "humorous");
    await g.judge.units.removeUnit(g.gm, g.gameId, {
      power: "italy",
      unit: "A ven",
      reason: "extra",
    });
    const v = await g.judge.views.gameView(g.gm, g.gameId);
    g.clock.t = Date.parse(v.deadline!) + 1;
    assert.equal(await g.judge.adjudication.tick(), 1);
    await notifier.tick();
    const mails = await outboxMails(g.judge.store, undefined, before);
    const everybody = [
      ...["austria", "england", "france", "germany", "italy", "russia", "turkey"].map(addressOf),
      GM,
    ].sort();
    const results = mails.filter((m) => m.kind === "results");
    assert.deepEqual(results.map((m) => m.to_addr).sort(), everybody, "one results mail each");
    for (const m of results) {
      assert.match(
        m.body,
        /The GM's acts since the last results:\n {2}The GM refused to put proposal 1 \("armies wear hats"\) to the vote.*\n {2}The GM removed italy's A ven: extra/,
        m.to_addr,
      );
      assert.doesNotMatch(m.body, /humorous/, "the reason is not published");
    }
    // (Nobody ordered: the missed-orders mails are apart, seed 002 VII(6).)
    const others = mails.filter((m) => m.kind !== "results" && m.kind !== "nmr");
    assert.deepEqual(
      others.map((m) => [m.to_addr, m.subject]),
      [[addressOf("italy"), "SED: proposal 1 refused"]],
      "besides the results, only the proposer's mail with the reason",
    );
    assert.match(others[0]!.body, /The GM's reason: humorous/);
  });

  test("a mail for a finished game says so, and what to do instead", async (t) => {
    const ts = await testStore(t, "sqlite");
    assert.ok(ts, "sqlite store");
    const g = await mailTestGame(ts.store);
    await g.judge.endings.endGame(g.gm, g.gameId, { result: "draw" });
    const reply = await send(g, "austria", "SED 01SA", "A vie-gal");
    assert.match(reply, /NOT accepted: nothing was changed/, "refused");
    assert.match(reply, /game SED is over \(draw\), so it takes no more orders/, "why");
    assert.match(reply, /Write to the GM for anything else/, "what instead");
  });
});
