import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { configureMailGame, mailGame, outbox, setMailAddress } from "../judge/mail.ts";
import { user } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import { EmgDialect, type EmgRules, readEnvelope } from "./emg.ts";
import { MailGateway } from "./gateway.ts";
import { HouseRulesDialect } from "./houserules.ts";
import { readImapUrl } from "./imap.ts";
import { Notifier } from "./notify.ts";
import { Postman } from "./postman.ts";
import { MailConfigError, mailConfig } from "./service.ts";
import {
  addressOf,
  GAME_ADDRESS,
  gatewayOf,
  type MailTestGame,
  mailTestGame,
  type Power,
  rawMail,
} from "./testing.ts";

/** Sends a mail from a player (To the game, with their secret unless told otherwise). */
async function send(
  g: MailTestGame,
  gw: MailGateway,
  from: Power,
  subject: string,
  body: string,
  extra: { to?: string; cc?: string; secret?: string | null } = {},
) {
  const secret = extra.secret === undefined ? g.secrets[from] : extra.secret;
  const text = `${secret === null ? "" : `Secret: ${secret}\n`}${body}`;
  const r = await gw.receive(
    rawMail({ from: addressOf(from), to: extra.to ?? GAME_ADDRESS, cc: extra.cc, subject, text }),
  );
  assert.equal(r.replies.length, 1, "every mail is answered once");
  assert.equal(r.replies[0]!.to, addressOf(from), "the answer goes to the sender");
  return { accepted: r.accepted, text: r.replies[0]!.text };
}

async function setup(
  t: import("node:test").TestContext,
  rules: string | Record<string, unknown> = "houserules",
) {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "sqlite store");
  const g = await mailTestGame(ts.store, rules);
  return { g, gw: gatewayOf(g.judge) };
}

describe("mail: the house rules' envelope", () => {
  test("subjects: each mistake named, with how to write it", async (t) => {
    const { g, gw } = await setup(t);
    const season = await send(g, gw, "austria", "SED 01XA", "A vie-gal");
    assert.equal(season.accepted, false, "unknown season refused");
    assert.match(season.text, /"X" is not a season letter: use S \(spring moves\), U/, "season");
    const power = await send(g, gw, "austria", "SED 01SZ", "A vie-gal");
    assert.match(
      power.text,
      /no power has the letter "Z".*A Austria, E England/s,
      "letters listed",
    );
    const year = await send(g, gw, "austria", "SED 1SA", "A vie-gal");
    assert.match(year.text, /must be two digits \(01 for 1901\)/, "year");
    const game = await send(g, gw, "austria", "XYZ 01SA", "A vie-gal");
    assert.match(
      game.text,
      /no game here has the abbreviation "XYZ".*games played by mail: SED/s,
      "abbr",
    );
    const nothing = await send(g, gw, "austria", "orders", "A vie-gal");
    assert.equal(nothing.accepted, false, "a subject with no code is refused");
    assert.match(nothing.text, /"SED 01SA" is game SED, 1901, spring moves, Austria/, "the format");
    assert.deepEqual(
      (await g.judge.submissions.currentOrders(g.gm, g.gameId)).sets,
      [],
      "nothing stored",
    );
    // The other power's letter with one's own secret and address: not the sender's power.
    const other = await send(g, gw, "austria", "SED 01SR", "A war-ukr");
    assert.match(other.text, /not the registered address of the player of Russia/, "other power");
  });

  test("the To line: not Cc, not Bcc", async (t) => {
    const { g, gw } = await setup(t);
    const bcc = await send(g, gw, "england", "SED 01SE", "F lon-nth", { to: "me@players.test" });
    assert.equal(bcc.accepted, false, "Bcc refused");
    assert.match(bcc.text, /not on the To line \(Bcc\?\)/, "Bcc named");
    const cc = await send(g, gw, "england", "SED 01SE", "F lon-nth", {
      to: "me@players.test",
      cc: GAME_ADDRESS,
    });
    assert.match(cc.text, /on the Cc line/, "Cc named");
    const both = await send(g, gw, "england", "SED 01SE", "F lon-nth", {
      to: `me@players.test, ${GAME_ADDRESS}`,
    });
    assert.equal(both.accepted, true, "To with others is fine");
  });

  test("senders: registered address and secret, both needed", async (t) => {
    const { g, gw } = await setup(t);
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
    const { g, gw } = await setup(t);
    const first = await send(
      g,
      gw,
      "germany",
      "SED 01SG",
      "Hi!\n> quoted old orders\nA ber-kei\nA mun-ruh\nF kie-den\n",
    );
    assert.equal(first.accepted, true, "a set with a bad order is stored (as written)");
    assert.match(first.text, /A ber-kei\s+-> A ber - kie \(read "kei" as Kiel\)/, "typo read");
    assert.match(first.text, /> quoted old orders\s+-> ignored/, "quote ignored");
    const bad = await send(g, gw, "germany", "SED 01SG", "A ber - xyzzy\nA mun-ruh\nF kie-xyzzy\n");
    assert.match(bad.text, /A ber - xyzzy\s+-> NOT VALID: /, "the bad line is named");
    assert.match(
      bad.text,
      /F kie-xyzzy\s+-> NOT VALID: /,
      "a garbled order without spaces round its dash is an order too, named as not valid",
    );
    assert.match(bad.text, /2 orders are not valid as written/, "and both are counted");
    const foreign = await send(g, gw, "germany", "SED 01SG", "Austria:\nA vie-gal\n");
    assert.equal(foreign.accepted, false, "orders for a power one does not play");
    assert.match(foreign.text, /you do not play Austria/, "named");
    const last = await send(g, gw, "germany", "SED 01SG", "A ber-kie\nFinal\n");
    assert.match(
      last.text,
      /Orders on file for Germany[^\n]*FINAL[^\n]*:\n {2}A ber-kie\n\n/,
      "set replaced whole",
    );
    const later = await send(g, gw, "germany", "SED 02SG", "A kie-den");
    assert.match(later.text, /S1902M, a movement phase not open yet/, "a movement phase to come");
    const sets = await g.judge.submissions.currentOrders(g.gm, g.gameId);
    assert.deepEqual(
      sets.sets.map((s) => [s.power, s.orders, s.final]),
      [["germany", ["A ber-kie"], true]],
      "the last accepted set is on file",
    );
  });

  test("orders sent early for a winter phase are used when it comes (seed 002 II(5))", async (t) => {
    const { g, gw } = await setup(t);
    const early = await send(g, gw, "austria", "SED 01WA", "build A bud\nbuild F tri");
    assert.equal(early.accepted, true, "kept");
    assert.match(early.text, /W1901R\) is still to come: this set is kept for it/, "said so");
    assert.match(
      early.text,
      /Kept for Winter 1901 retreats and adjustments \(W1901R\), Austria:\n {2}build A bud/,
      "listed",
    );
    await send(g, gw, "austria", "SED 01SA", "A bud-ser\nF tri-alb\nA vie-gal");
    const due = async () => {
      const v = await g.judge.views.gameView(g.gm, g.gameId);
      g.clock.t = Date.parse(v.deadline!) + 1;
      assert.equal(await g.judge.adjudication.tick(), 1, `${v.phase} adjudicated`);
      return g.judge.views.gameView(g.gm, g.gameId);
    };
    let v = await due();
    assert.equal(v.phase, "F1901M", "fall");
    await send(g, gw, "austria", "SED 01FA", "A ser H\nF alb H\nA gal H");
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
    const nmr = await g.judge.store.db
      .selectFrom("nmrs")
      .select(["power", "phase"])
      .where("phase", "=", "W1901A")
      .execute();
    assert.deepEqual(nmr, [], "no missed orders for Austria in winter");
  });

  test("orders sent early by the API too", async (t) => {
    const { g } = await setup(t);
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
    const { g, gw } = await setup(t);
    const postman = new Postman({ store: g.judge.store, now: g.judge.now });
    const notifier = new Notifier({ judge: g.judge, postman });
    await setMailAddress(g.judge, g.gm, { address: "gm@club.test" });
    await notifier.tick(); // the start of the game
    const start = await g.judge.store.db
      .selectFrom("outbox")
      .selectAll()
      .where("kind", "=", "started")
      .execute();
    assert.equal(start.length, 8, "the start to seven players and the GM");
    assert.match(
      start.find((m) => m.to_addr === "gm@club.test")!.body,
      /you are its game master/,
      "the GM's copy",
    );
    const sent = await send(
      g,
      gw,
      "austria",
      "SED PRESS",
      "To: Italy, R\nKind: grey\n\nShall we?\n-- \nA.",
    );
    assert.equal(sent.accepted, true, "press accepted");
    assert.match(sent.text, /grey press \(number 1\) was sent to Italy, Russia/, "summary");
    const none = await send(g, gw, "austria", "SED PRESS", "Hello everybody");
    assert.match(none.text, /does not start with a "To:" line/, "the To: line is needed");
    const black = await send(g, gw, "austria", "SED PRESS", "To: all\nKind: black\n\nI am the GM");
    assert.match(black.text, /black press .* is not accepted/, "the judge's rules apply");
    const before = (await g.judge.store.db.selectFrom("outbox").select("id").execute()).length;
    await notifier.tick();
    const mails = await g.judge.store.db
      .selectFrom("outbox")
      .selectAll()
      .where("kind", "=", "press")
      .execute();
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
    const { g, gw } = await setup(t);
    const r = await send(g, gw, "turkey", "SED VOTE", "propose draw\nvote 1 yes\nlist\ndance");
    assert.equal(r.accepted, true, "done");
    assert.match(r.text, /proposal 1: "A draw including all survivors"/, "proposed");
    assert.match(r.text, /your vote on proposal 1 is yes/, "voted");
    assert.match(r.text, /dance\s+-> NOT UNDERSTOOD/, "a bad command is named");
    const no = await send(g, gw, "italy", "SED VOTE", "vote 1 no\nvote 9 yes");
    assert.match(no.text, /vote 9 yes\s+-> NOT DONE: no proposal 9/, "the judge's error");
    const props = await g.judge.votes.proposals(g.players.italy, g.gameId);
    assert.equal(props[0]!.yourVote, "no", "Italy's vote stored");
  });
});

describe("mail: the judge's own mail", () => {
  test("reminders before the deadline, to players without final orders", async (t) => {
    const { g, gw } = await setup(t);
    const postman = new Postman({ store: g.judge.store, now: g.judge.now });
    const notifier = new Notifier({ judge: g.judge, postman, reminderMs: 12 * 3_600_000 });
    await notifier.tick();
    await send(g, gw, "austria", "SED 01SA", "A vie-gal\nFinal");
    await send(g, gw, "england", "SED 01SE", "F lon-nth");
    const reminders = () =>
      g.judge.store.db.selectFrom("outbox").selectAll().where("kind", "=", "reminder").execute();
    assert.equal(await notifier.tick(), 0, "too early");
    const v = await g.judge.views.gameView(g.gm, g.gameId);
    g.clock.t = Date.parse(v.deadline!) - 11 * 3_600_000;
    await notifier.tick();
    const list = await reminders();
    assert.equal(list.length, 6, "everybody but Austria (final)");
    const eng = list.find((m) => m.to_addr === addressOf("england"))!;
    assert.match(eng.body, /England: preliminary orders on file/, "England's are not final");
    const fra = list.find((m) => m.to_addr === addressOf("france"))!;
    assert.match(fra.body, /France: NO ORDERS on file/, "France has none");
    await notifier.tick();
    assert.equal((await reminders()).length, 6, "once per phase");
  });

  test("settings: addresses, the game's mail, the GM's outbox", async (t) => {
    const { g, gw } = await setup(t);
    await assert.rejects(setMailAddress(g.judge, g.players.italy, { address: "not an address" }), {
      kind: "invalid",
    });
    const again = await setMailAddress(g.judge, g.players.italy, { address: "ITALY@players.test" });
    assert.equal(again.secret, g.secrets.italy, "the secret stays");
    const fresh = await setMailAddress(g.judge, g.players.italy, {
      address: addressOf("italy"),
      newSecret: true,
    });
    assert.notEqual(fresh.secret, g.secrets.italy, "a new secret on request");
    const old = await send(g, gw, "italy", "SED 01SI", "A ven H");
    assert.equal(old.accepted, false, "the old secret no longer works");
    await assert.rejects(
      configureMailGame(g.judge, g.players.italy, g.gameId, {
        abbreviation: "X",
        address: "x@y.test",
      }),
      { kind: "forbidden" },
    );
    const other = await g.judge.games.createGame(g.gm, { name: "Another" });
    await assert.rejects(
      configureMailGame(g.judge, g.gm, other.id, { abbreviation: "sed", address: "x@y.test" }),
      { kind: "conflict" },
    );
    const info = await mailGame(g.judge, g.gameId);
    assert.equal(info.abbreviation, "SED", "abbreviation");
    assert.deepEqual(
      info.letters.map((l) => l.letter).join(""),
      "AEFGIRT",
      "power letters from the variant",
    );
    await assert.rejects(outbox(g.judge, g.players.italy, g.gameId), { kind: "forbidden" });
    const stranger = await user(g.judge, "stranger");
    await assert.rejects(outbox(g.judge, stranger, g.gameId), { kind: "forbidden" });
    // Another game's mail first: the GM's ids are their game's own, not the store's rows.
    await g.judge.store.db
      .insertInto("outbox")
      .values({
        game_id: other.id,
        kind: "notice",
        from_addr: GAME_ADDRESS,
        to_addr: "x@y.test",
        subject: "another game",
        body: "x",
        in_reply_to: null,
        created_at: g.judge.now(),
        sent_at: null,
        error: null,
      })
      .execute();
    const postman = new Postman({ store: g.judge.store, now: g.judge.now });
    const gw2 = new MailGateway(g.judge, [new HouseRulesDialect()], postman);
    await gw2.receive(
      rawMail({
        from: addressOf("italy"),
        to: GAME_ADDRESS,
        subject: "SED 01SI",
        text: `Secret: ${fresh.secret}\nA ven H`,
      }),
    );
    const box = await outbox(g.judge, g.gm, g.gameId);
    assert.equal(box.length, 1, "the reply is in the GM's outbox");
    assert.equal(box[0]!.to, addressOf("italy"), "to Italy");
    assert.equal(box[0]!.sentAt, null, "not sent: no SMTP configured");
    assert.equal(box[0]!.id, 1, "the game's first mail is its number 1");
    assert.deepEqual(await outbox(g.judge, g.gm, g.gameId, 1), [], "after it: none");
  });
});

describe("mail: Global Diplomacy's envelope (seed 004 §9)", () => {
  const rules: EmgRules = {
    validate: (commands) =>
      commands.map((c) =>
        /^(?:MO \d+ \d+|DW \d+)$/i.test(c)
          ? { command: c, ok: true }
          : { command: c, ok: false, message: "write MO unit area or DW unit" },
      ),
  };

  test("the envelope is read: EMGSTART, account, game, commands, EMGEND", () => {
    assert.deepEqual(
      readEnvelope("\tEMGSTART  \n  ABC1234 \n  GD001 \n    MO 1 45 \n\n    DW 3 \nEMGEND\nthanks"),
      { account: "ABC1234", game: "GD001", commands: ["MO 1 45", "DW 3"] },
      "spacing and indentation do not matter",
    );
    assert.deepEqual(
      readEnvelope("ABC\nGD\nEMGEND"),
      { error: "there is no line EMGSTART" },
      "no start",
    );
    assert.deepEqual(
      readEnvelope("EMGSTART\nABC\nMO 1 2"),
      { error: "there is no line EMGEND after EMGSTART" },
      "no end",
    );
    assert.deepEqual(
      readEnvelope("EMGSTART\nABC\nEMGEND"),
      { error: "the game id is missing (the second line after EMGSTART)" },
      "no game",
    );
  });

  test("turns overwrite, ids are checked, reports are mailed", async (t) => {
    const { g } = await setup(t);
    const gw = new MailGateway(g.judge, [new EmgDialect(() => rules), new HouseRulesDialect()]);
    const emg = async (from: Power, subject: string, lines: string[]) => {
      const r = await gw.receive(
        rawMail({
          from: addressOf(from),
          to: GAME_ADDRESS,
          subject,
          text: ["EMGSTART", ...lines, "EMGEND"].join("\n"),
        }),
      );
      assert.equal(r.dialect, "emg", "read as EMG mail");
      return { accepted: r.accepted, text: r.replies[0]!.text };
    };
    const s = g.secrets.russia;
    const badAccount = await emg("russia", "EMGTURN", ["NOPE", "SED", "MO 1 45"]);
    assert.equal(badAccount.accepted, false, "refused");
    assert.match(badAccount.text, /the account id "NOPE" is invalid/, "account named");
    assert.doesNotMatch(badAccount.text, /game id "SED" is invalid/, "the game id was fine");
    const badGame = await emg("russia", "EMGTURN", [s, "GD001", "MO 1 45"]);
    assert.match(badGame.text, /the game id "GD001" is invalid/, "game named");
    const badCommand = await emg("russia", "EMGTURN", [s, "SED", "MO 1 45", "FLY 2"]);
    assert.match(badCommand.text, /FLY 2\s+-> INVALID: write MO unit area/, "command named");
    const ok = await emg("russia", "EMGTURN", [s, "sed", "MO 1 45", "DW 3"]);
    assert.equal(ok.accepted, true, "accepted");
    assert.match(ok.text, /Accepted: 2 commands for game SED/, "said so");
    const again = await emg("russia", "EMGTURN", [s, "SED", "DW 4"]);
    assert.equal(again.accepted, true, "accepted again");
    const sets = await g.judge.submissions.currentOrders(g.players.russia, g.gameId);
    assert.deepEqual(sets.sets[0]!.orders, ["DW 4"], "the new set overwrote the last");
    const report = await emg("russia", "EMGREPORT", [s, "SED"]);
    assert.match(report.text, /Report for Russia, Spring 1901 movement/, "a report");
    assert.match(report.text, /Commands on file:\n {2}DW 4/, "with the commands on file");
    const forged = await gw.receive(
      rawMail({
        from: addressOf("austria"),
        to: GAME_ADDRESS,
        subject: "EMGTURN",
        text: `EMGSTART\n${s}\nSED\nDW 1\nEMGEND`,
      }),
    );
    assert.match(
      forged.replies[0]!.text,
      /account id .* is invalid for mail from austria@players\.test/,
      "someone else's account id",
    );
    const noRules = new MailGateway(g.judge, [new EmgDialect(() => null)]);
    const r = await noRules.receive(
      rawMail({
        from: addressOf("russia"),
        to: GAME_ADDRESS,
        subject: "EMGTURN",
        text: `EMGSTART\n${s}\nSED\nDW 1\nEMGEND`,
      }),
    );
    assert.match(r.replies[0]!.text, /does not take EMG commands/, "a variant without EMG rules");
  });
});

describe("mail: configuration", () => {
  test("settings from the environment and flags, with clear errors", () => {
    const none = mailConfig({});
    assert.equal(none.receivePort, null, "no receiver unless asked");
    assert.equal(none.smtpUrl, null, "no SMTP: the outbox only");
    assert.equal(none.outboxFolder, "data/outbox", "the outbox folder in the data folder");
    const c = mailConfig(
      { ENTENTE_SMTP_PORT: "2525", ENTENTE_REMINDER_HOURS: "6", ENTENTE_OUTBOX: "none" },
      { smtpPort: "2526" },
      "/srv/data/",
    );
    assert.equal(c.receivePort, 2526, "the flag wins");
    assert.equal(c.reminderMs, 6 * 3_600_000, "hours");
    assert.equal(c.outboxFolder, null, "none");
    assert.equal(mailConfig({}, {}, "/srv/data/").outboxFolder, "/srv/data/outbox", "data folder");
    assert.throws(() => mailConfig({ ENTENTE_SMTP_PORT: "lots" }), MailConfigError, "a bad port");
    assert.deepEqual(
      readImapUrl("imaps://gm%40club.org:s3cret@imap.club.org/Diplomacy"),
      {
        host: "imap.club.org",
        port: 993,
        secure: true,
        user: "gm@club.org",
        pass: "s3cret",
        mailbox: "Diplomacy",
      },
      "an IMAP URL",
    );
    assert.equal(readImapUrl("imap://u:p@h").mailbox, "INBOX", "INBOX by default");
    assert.equal(readImapUrl("imap://u:p@h").port, 143, "143 without TLS");
    assert.throws(
      () => readImapUrl("http://u:p@h/"),
      /must start with imap:\/\/ or imaps:\/\//,
      "scheme",
    );
    assert.throws(() => readImapUrl("imaps://h/INBOX"), /needs a user name/, "user");
  });
});

describe("mail: what results mails may say", () => {
  test("a sequential game's results mail never names the secret schedule (seed 003)", async (t) => {
    const { g, gw } = await setup(t, { profile: "datc", movement: "sequential" });
    const postman = new Postman({ store: g.judge.store, now: g.judge.now });
    const notifier = new Notifier({ judge: g.judge, postman });
    await notifier.tick();
    // Austria and Russia both go for Galicia: whoever is earlier on the schedule gets in.
    await send(g, gw, "austria", "SED 01SA", "A vie-gal\nA bud-ser\nF tri-alb");
    await send(g, gw, "russia", "SED 01SR", "A war-gal\nA mos-ukr\nF sev-bla\nF stp-bot");
    const v = await g.judge.views.gameView(g.gm, g.gameId);
    g.clock.t = Date.parse(v.deadline!) + 1;
    assert.equal(await g.judge.adjudication.tick(), 1, "spring adjudicated");
    await notifier.tick();
    const results = await g.judge.store.db
      .selectFrom("outbox")
      .selectAll()
      .where("kind", "=", "results")
      .execute();
    assert.equal(results.length, 7, "results to the seven players");
    const gm = await g.judge.views.phases(g.gameId, g.gm);
    assert.match(
      JSON.stringify(gm[0]!.results),
      /slot/,
      "the GM's own record says in which slot each order was resolved",
    );
    for (const m of results) {
      assert.match(m.body, /A vie - gal/, "the results are there");
      assert.doesNotMatch(m.body, /slot|schedule/i, `no schedule in ${m.to_addr}'s mail`);
    }
  });
});

describe("mail: limits", () => {
  test("a sender is read at most N mails a window: told once, then not answered, read again later", async (t) => {
    const ts = await testStore(t, "sqlite");
    assert.ok(ts, "sqlite store");
    const g = await mailTestGame(ts.store);
    const gw = gatewayOf(g.judge, { perSender: { max: 3, windowMs: 10 * 60_000 } });
    for (let i = 1; i <= 3; i++) {
      const r = await send(g, gw, "england", "SED 01SE", `F lon-nth\nA lvp-yor\nF edi-nwg`);
      assert.equal(r.accepted, true, `mail ${i} is read`);
    }
    const fourth = await send(g, gw, "england", "SED 01SE", "F lon-eng");
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
    const other = await send(g, gw, "france", "SED 01SF", "A par-bur");
    assert.equal(other.accepted, true, "other senders are not held up");
    const sets = await g.judge.submissions.currentOrders(g.gm, g.gameId);
    assert.deepEqual(
      sets.sets.find((s) => s.power === "england")?.orders,
      ["F lon-nth", "A lvp-yor", "F edi-nwg"],
      "the refused mails changed nothing on file",
    );
    g.clock.advance(10 * 60_000 + 1);
    const later = await send(g, gw, "england", "SED 01SE", "F lon-eng\nA lvp-yor\nF edi-nwg");
    assert.equal(later.accepted, true, "after the window the sender is read again");
  });
});
