import assert from "node:assert/strict";
import { test } from "node:test";
import { testStore } from "../store/testing.ts";
import { mailOverSmtp, until } from "./smtp-testing.ts";
import { addressOf, GAME_ADDRESS, mailTestGame, outboxMails } from "./testing.ts";

/*
 * A whole phase of a seven-player game by mail, over real SMTP on loopback: the players' mail
 * client (nodemailer) sends seven order mails to our receiver; our postman delivers the
 * replies and then the results to a test mail server (smtp-server) standing for the players'
 * mailboxes.
 */

test("a phase by mail over SMTP: seven order mails, the replies, the adjudication, the results", async (t) => {
  const ts = await testStore(t, "sqlite");
  if (!ts) return;
  const g = await mailTestGame(ts.store);
  const { boxes, mail, client } = await mailOverSmtp(t, g.judge);
  assert.ok(mail.receiverPort, "the receiver listens");
  // The game started when its last seat was taken: every player is told, with the letters.
  assert.equal(await mail.notifier.tick(), 7, "a start mail per player");
  const started = await until("the start mails", () =>
    boxes.got.length >= 7 ? boxes.got.splice(0, 7) : undefined,
  );
  for (const m of started) {
    assert.match(m.subject, /^SED: the game has started/, "start subject");
    assert.match(m.text, /Power letters for subjects: A Austria, E England/, "the letters");
  }
  /** A player's mail To the game, unless `extra` says otherwise. */
  const send = (
    p: string,
    subject: string,
    text: string,
    extra: { to?: string; cc?: string } = {},
  ) => client.sendMail({ from: addressOf(p), to: GAME_ADDRESS, subject, text, ...extra });
  const s = g.secrets;

  // Austria: good orders, final, with a greeting and a signature around them.
  await send(
    "austria",
    "SED 01SA",
    `Dear GM,\n\nSecret: ${s.austria}\nA vie-gal\nA bud-ser\nF tri-alb\nFinal\n\n-- \nThe Archduke\n`,
  );
  // England: a malformed subject.
  await send(
    "england",
    "SED Spring 1901 England",
    `Secret: ${s.england}\nF lon-nth\nF edi-nwg\nA lvp-yor\n`,
  );
  // France: the game's address only on the Cc line.
  await send("france", "SED 01SF", `Secret: ${s.france}\nA par-bur\nA mar-spa\nF bre-mao\n`, {
    to: "ally@players.test",
    cc: GAME_ADDRESS,
  });
  // Germany: forged by the Russian player (Germany's address, Russia's secret).
  await send("germany", "SED 01SG", `Secret: ${s.russia}\nA ber-pru\nA mun-boh\nF kie-hol\n`);
  // Italy: typos everywhere (the house rules read them as meant, seed 002 III(2)).
  await send(
    "italy",
    "Re: SED 01SI",
    `Secret: ${s.italy}\nA Venise - Tyrolia\nF Napels - Ionain Sea\nA Rom - Apulai\n`,
  );
  await send(
    "russia",
    "SED 01SR",
    `Secret: ${s.russia}\nA war-ukr\nA mos-stp\nF sev-bla\nF stp/sc-bot\nfinal\n`,
  );
  await send("turkey", "SED 01ST", `Secret: ${s.turkey}\nF ank-bla\nA con-bul\nA smy-arm\n`);

  const replies = await until("seven replies", () =>
    boxes.got.length >= 7 ? [...boxes.got] : undefined,
  );
  assert.equal(replies.length, 7, "one reply per mail");
  const replyTo = (p: string) => {
    const r = replies.filter((x) => x.to === addressOf(p));
    assert.equal(r.length, 1, `one reply to ${p}`);
    assert.equal(r[0]!.from, GAME_ADDRESS, "replies come from the game's address");
    assert.match(r[0]!.subject, /^Re: /, "a reply's subject");
    return r[0]!.text;
  };
  const austria = replyTo("austria");
  assert.match(austria, /received .*\(FINAL\)/, "Austria's set is final");
  assert.match(austria, /line\s+4: A vie-gal\s+-> A vie - gal/, "per-line reading");
  assert.match(austria, /Dear GM,\s+-> ignored/, "the greeting is ignored");
  assert.match(
    austria,
    /Orders on file for Austria[^\n]*:\n {2}A vie-gal\n {2}A bud-ser\n {2}F tri-alb/,
    "the set on file",
  );
  const england = replyTo("england");
  assert.match(england, /NOT accepted/, "a malformed subject is refused");
  assert.match(england, /two digits .*e\.g\. "SED 01SA"/s, "and the reply says how to write it");
  const france = replyTo("france");
  assert.match(france, /NOT accepted/, "a Cc'd mail is refused");
  assert.match(france, /on the Cc line.*addressed To sed@judge\.test/s, "and why");
  const germany = replyTo("germany");
  assert.match(germany, /NOT accepted.*secret in the body is not yours/s, "the forgery is refused");
  const italy = replyTo("italy");
  assert.match(
    italy,
    /A Venise - Tyrolia\s+-> A ven - tyr \(read "Venise" as Venice\)/,
    "typo read as meant",
  );
  assert.match(italy, /read "Ionain Sea" as Ionian Sea/, "every typo is named");
  assert.match(italy, /\(preliminary/, "not final");
  assert.match(replyTo("russia"), /F stp\/sc-bot\s+-> F stp\/sc - bot/, "Russia's orders read");
  assert.match(replyTo("turkey"), /A smy-arm\s+-> A smy - arm/, "Turkey's orders read");

  // Only the accepted sets are on file.
  const onFile = await g.judge.submissions.currentOrders(g.gm, g.gameId);
  assert.deepEqual(
    onFile.sets.map((x) => x.power).sort(),
    ["austria", "italy", "russia", "turkey"],
    "England, France and Germany have nothing on file",
  );

  // The deadline passes: the phase is adjudicated, and the results go to every player.
  const view = await g.judge.views.gameView(g.gm, g.gameId);
  g.clock.t = Date.parse(view.deadline!) + 1;
  assert.equal(await g.judge.adjudication.tick(), 1, "adjudicated");
  const before = boxes.got.length;
  const queued = await mail.notifier.tick();
  assert.equal(queued, 10, "one results mail per player, a notice to each who sent none");
  const got = await until("the results", () =>
    boxes.got.length >= before + 10 ? boxes.got.slice(before) : undefined,
  );
  const results = got.filter((r) => r.subject.includes("results of"));
  const missed = got.filter((r) => r.subject.includes("no orders received"));
  assert.deepEqual(
    missed.map((r) => r.to).sort(),
    ["england", "france", "germany"].map(addressOf),
    "each power that sent no orders is told at once that it keeps its seat",
  );
  for (const r of missed) assert.match(r.text, /You keep your seat\./, r.to);
  assert.deepEqual(
    results.map((r) => r.to).sort(),
    ["austria", "england", "france", "germany", "italy", "russia", "turkey"].map(addressOf),
    "every player gets the results",
  );
  for (const r of results) {
    assert.match(r.subject, /^SED: results of Spring 1901 movement \(S1901M\)/, "results subject");
    for (const power of ["England", "France", "Germany"])
      assert.match(
        r.text,
        new RegExp(`No orders received from ${power}: its units held\\.`),
        `the NMR of ${power}`,
      );
    assert.match(
      r.text,
      /Next: Fall 1901 movement \(F1901M\), orders due by 2030-01-07/,
      "what next",
    );
  }
  const after = await g.judge.views.gameView(g.gm, g.gameId);
  assert.deepEqual(
    [...(after.position.units.italy ?? [])].sort(),
    ["A apu", "A tyr", "F ion"],
    "Italy's typo orders were carried out",
  );
  assert.deepEqual(
    [...(after.position.units.austria ?? [])].sort(),
    ["A gal", "A ser", "F alb"],
    "Austria's orders",
  );
  assert.match(results[0]!.text, /A ven - tyr|A Venise - Tyrolia/, "the orders are in the results");
  // The outbox keeps every mail, sent.
  const box = await outboxMails(g.judge.store);
  assert.equal(
    box.length,
    24,
    "the start, the replies, the results and the no-orders notices are in the outbox",
  );
  assert.ok(
    box.every((m) => m.sent_at !== null && m.error === null),
    "all sent",
  );
  assert.equal(await mail.notifier.tick(), 0, "nothing is mailed twice");
});
