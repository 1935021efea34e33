import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { configureMailGame, mailGame, outbox, setMailAddress } from "../judge/mail.ts";
import { user } from "../judge/testing.ts";
import { MailGateway } from "./gateway.ts";
import { HouseRulesDialect } from "./houserules.ts";
import { readImapUrl } from "./imap.ts";
import { Postman } from "./postman.ts";
import { MailConfigError, mailConfig } from "./service.ts";
import { addressOf, GAME_ADDRESS, gameByMail, notifierOf, outboxMails, sendAs } from "./testing.ts";

/*
 * What the judge mails by itself and the mail settings around it: reminders before the
 * deadline, players' addresses and secrets, the game's mail settings and the GM's outbox, what
 * a results mail may say (no sequential schedule), and the mail service's configuration.
 */

describe("mail: the judge's own mail", () => {
  test("reminders before the deadline, to players without final orders", async (t) => {
    const { g, send } = await gameByMail(t);
    const notifier = notifierOf(g.judge, { reminderMs: 12 * 3_600_000 });
    await notifier.tick();
    await send("austria", "SED 01SA", "A vie-gal\nFinal");
    await send("england", "SED 01SE", "F lon-nth");
    const reminders = () => outboxMails(g.judge.store, "reminder");
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
    const { g, send } = await gameByMail(t);
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
    const old = await send("italy", "SED 01SI", "A ven H");
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
    await sendAs(g, gw2, "italy", "SED 01SI", "A ven H", { secret: fresh.secret });
    const box = await outbox(g.judge, g.gm, g.gameId);
    assert.equal(box.length, 1, "the reply is in the GM's outbox");
    assert.equal(box[0]!.to, addressOf("italy"), "to Italy");
    assert.equal(box[0]!.sentAt, null, "not sent: no SMTP configured");
    assert.equal(box[0]!.id, 1, "the game's first mail is its number 1");
    assert.deepEqual(await outbox(g.judge, g.gm, g.gameId, 1), [], "after it: none");
  });
});

describe("mail: what results mails may say", () => {
  test("a sequential game's results mail never names the secret schedule (seed 003)", async (t) => {
    const { g, send } = await gameByMail(t, { profile: "datc", movement: "sequential" });
    const notifier = notifierOf(g.judge);
    await notifier.tick();
    // Austria and Russia both go for Galicia: whoever is earlier on the schedule gets in.
    await send("austria", "SED 01SA", "A vie-gal\nA bud-ser\nF tri-alb");
    await send("russia", "SED 01SR", "A war-gal\nA mos-ukr\nF sev-bla\nF stp-bot");
    const v = await g.judge.views.gameView(g.gm, g.gameId);
    g.clock.t = Date.parse(v.deadline!) + 1;
    assert.equal(await g.judge.adjudication.tick(), 1, "spring adjudicated");
    await notifier.tick();
    const results = await outboxMails(g.judge.store, "results");
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
