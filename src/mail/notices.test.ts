import assert from "node:assert/strict";
import { describe, test } from "node:test";
import nodemailer from "nodemailer";
import { Judge } from "../judge/judge.ts";
import { readPublicUrl } from "../judge/links.ts";
import { noticeSettings, setMailAddress, setNotices } from "../judge/mail.ts";
import { Clock, globalGame, judgeWithGm, POWERS, sevenPlayerGame, user } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import { Notifier } from "./notify.ts";
import { Postman } from "./postman.ts";
import { mailConfig, startMail } from "./service.ts";
import {
  addressOf,
  elevenByMail,
  GAME_ADDRESS,
  gatewayOf,
  mailTestGame,
  rawMail,
} from "./testing.ts";

/*
 * Players of the web page who gave an address get the judge's mail as mail players do, and
 * anybody may opt out of it, for one game or all (the API, the NOTICES mail command; every
 * such mail says how). With a public address the mails link to the game and its invitations;
 * without one they carry no link. A game never set up for mail is mailed all the same, from the
 * judge's own address, when the judge sends mail at all.
 */

describe("mail: web players' mail and opting out", () => {
  test("results and reminders to every address but those who opted out; each mail says how", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const g = await mailTestGame(ts.store);
    const { judge, clock } = g;
    const gw = gatewayOf(judge);
    const postman = new Postman({ store: ts.store, now: clock.now, folder: null });
    const notifier = new Notifier({ judge, postman, reminderMs: 12 * 3_600_000 });
    const mails = async (kind: string, after = 0) =>
      (await ts.store.db.selectFrom("outbox").selectAll().orderBy("id").execute()).filter(
        (m) => m.kind === kind && Number(m.id) > after,
      );
    const last = async () =>
      Number(
        (
          await ts.store.db
            .selectFrom("outbox")
            .select("id")
            .orderBy("id", "desc")
            .executeTakeFirst()
        )?.id ?? 0,
      );
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
    const postman = new Postman({ store: ts.store, now: clock.now, folder: null });
    const notifier = new Notifier({ judge, postman });
    await notifier.tick();
    clock.t = Date.parse((await judge.views.gameView(null, gameId)).deadline!) + 1;
    await judge.adjudication.tick();
    await notifier.tick();
    const out = await ts.store.db.selectFrom("outbox").selectAll().execute();
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
    const postman = new Postman({ store: ts.store, now: clock.now, folder: null });
    // A judge that reads mail: its opt-out (line and List-Unsubscribe) is a mailto:.
    const notifier = new Notifier({ judge, postman, judgeAddress: JUDGE, takesMail: true });
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
    const out = await ts.store.db.selectFrom("outbox").selectAll().orderBy("id").execute();
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

  test("a player who loses the seat is told, notices on or off: by civil disorder and by the GM", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    // A seat silent for one phase falls into civil disorder.
    const g = await sevenPlayerGame(ts.store, { civilDisorderAfter: 1 });
    const { judge, clock } = g;
    const postman = new Postman({ store: ts.store, now: clock.now, folder: null });
    const notifier = new Notifier({
      judge,
      postman,
      judgeAddress: "judge@entente.test",
      takesMail: true,
    });
    await notifier.tick();
    await setMailAddress(judge, g.gm, { address: "gm@club.test" });
    const told = ["austria", "germany", "italy", "turkey"] as const;
    for (const p of told) await setMailAddress(judge, g.players[p], { address: addressOf(p) });
    // Italy turned off every mail, Turkey this game's; Germany and Austria did not.
    await setNotices(judge, g.players.italy, { notices: false });
    await setNotices(judge, g.players.turkey, { notices: false, game: g.gameId });
    const outbox = async (after = 0) =>
      (await ts.store.db.selectFrom("outbox").selectAll().orderBy("id").execute()).filter(
        (m) => Number(m.id) > after,
      );
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
    const austria = await to("austria", before);
    assert.deepEqual(
      austria.map((m) => m.subject),
      [`${g.gameId}: you no longer hold Austria`],
      "Austria's former player is told, and not of Turkey's seat",
    );
    assert.match(
      austria[0]!.body,
      new RegExp(
        `^The GM gave your seat, Austria, in game ${g.gameId} to ${newcomer.name}\\.\nYou stay in the game as an observer, and can no longer send orders or press in it\\.\nOnly the GM can give the seat back to you: if you think this is a mistake, write to the GM\\.\n`,
      ),
    );
    duty(austria[0]!, "Austria");
    const turkey = await to("turkey", before);
    assert.deepEqual(
      turkey.map((m) => m.subject),
      [`${g.gameId}: you no longer hold Turkey`],
      "Turkey's former player, this game's mail off, is told",
    );
    assert.match(
      turkey[0]!.body,
      new RegExp(
        `^The GM took your seat, Turkey, in game ${g.gameId} and opened it for a replacement\\.\n`,
      ),
    );
    duty(turkey[0]!, "Turkey");

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
    const postman = new Postman({ store: ts.store, now: clock.now, folder: null });
    const notifier = new Notifier({ judge, postman, judgeAddress: "judge@entente.test" });
    await setMailAddress(judge, gm, { address: "gm@club.test" });
    const mailOf = (p: number) => `gd${p}@players.test`;
    // Player 5 turned the judge's mail off.
    await elevenByMail(judge, game, "gd", mailOf, async (p, u) => {
      if (p === 5) await setNotices(judge, u, { notices: false });
    });
    await notifier.tick();
    const first = Number(
      (await ts.store.db.selectFrom("outbox").select("id").orderBy("id", "desc").executeTakeFirst())
        ?.id ?? 0,
    );
    // Nobody sends commands: every seat falls into civil disorder with the first turn.
    clock.t = Date.parse((await judge.views.gameView(gm, game.id)).deadline!) + 1;
    assert.equal(await judge.adjudication.tick(), 1, "turn 1 adjudicated");
    assert.ok(
      (await judge.views.gameView(gm, game.id)).seatList.every((x) => x.player === null),
      "every seat emptied",
    );
    await notifier.tick();
    const out = (await ts.store.db.selectFrom("outbox").selectAll().orderBy("id").execute()).filter(
      (m) => Number(m.id) > first,
    );
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

  for (const kind of ["sqlite", "postgres"] as const)
    test(`a game never set up for mail: its players with an address are mailed from the judge's address (${kind})`, async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return t.skip(`no ${kind} server`);
      const { clock, judge, gm } = await judgeWithGm(ts.store);
      const game = await judge.games.createGame(gm, {
        name: "On the web",
        rules: "houserules",
        seed: 7,
      });
      const code = game.invites!.find((i) => i.role === "player")!.code;
      const players = {} as Record<(typeof POWERS)[number], Awaited<ReturnType<typeof user>>>;
      for (const p of POWERS) {
        players[p] = await user(judge, p);
        await judge.games.acceptInvite(players[p], code, { power: p });
      }
      const JUDGE = "judge@entente.test";
      // The mail service as `serve` runs it: with an SMTP server (here a transport that only
      // writes the message out) the judge's address sends; without one, nothing is ever mailed.
      const env = {
        ENTENTE_OUTBOX: "none",
        ENTENTE_MAIL_TICK_MS: "0",
        ENTENTE_REMINDER_HOURS: "12",
      };
      const sending = await startMail(
        judge,
        mailConfig({ ...env, ENTENTE_MAIL_FROM: JUDGE }),
        () => {},
        nodemailer.createTransport({ streamTransport: true }),
      );
      const unconfigured = await startMail(judge, mailConfig({ ...env, ENTENTE_MAIL_FROM: JUDGE }));
      t.after(async () => {
        await sending.close();
        await unconfigured.close();
      });
      const notifier = sending.notifier;
      const silent = unconfigured.notifier;
      const outbox = async (after = 0) =>
        (await ts.store.db.selectFrom("outbox").selectAll().orderBy("id").execute()).filter(
          (m) => Number(m.id) > after,
        );
      assert.equal(
        (await judge.views.gameView(gm, game.id)).phase,
        "S1901M",
        "started with full seats",
      );
      // Nobody has an address yet: the start is passed over, never mailed later.
      assert.equal(await notifier.tick(), 0);
      for (const p of ["france", "england", "germany", "italy"] as const)
        await setMailAddress(judge, players[p], { address: addressOf(p) });
      await setMailAddress(judge, gm, { address: "gm@club.test" });
      await setNotices(judge, players.italy, { notices: false, game: game.id });
      assert.equal(
        await notifier.tick(),
        0,
        "no mail about what happened before anybody had an address",
      );
      await judge.submissions.submitOrders(players.france, game.id, {
        orders: ["A par H"],
        final: true,
      });

      // Reminders: none from a judge that sends no mail; to those who owe orders otherwise.
      clock.t = Date.parse((await judge.views.gameView(gm, game.id)).deadline!) - 11 * 3_600_000;
      assert.equal(await silent.tick(), 0, "no mail configured: no mail");
      assert.equal((await outbox()).length, 0);
      await notifier.tick();
      const reminders = await outbox();
      assert.deepEqual(
        reminders.map((m) => [m.kind, m.to_addr, m.from_addr]).sort(),
        [
          ["reminder", addressOf("england"), JUDGE],
          ["reminder", addressOf("germany"), JUDGE],
        ],
        "England and Germany owe orders; France sent them, Italy opted out, the others gave no address",
      );
      const reminder = reminders[0]!;
      assert.match(reminder.subject, new RegExp(`^${game.id}: reminder: orders for S1901M due`));
      assert.match(reminder.body, /NO ORDERS on file/);
      assert.match(
        reminder.body,
        /"On the web" is played on the judge's web page: orders there, not by mail/,
      );
      assert.match(
        reminder.body,
        /untick it in your mail settings on the web page \(POST \/api\/me\/notices/i,
      );
      assert.doesNotMatch(
        reminder.body,
        /NOTICES OFF|YYSP|Secret/,
        "no mail commands for a web game",
      );

      // The results: to everybody with an address who did not opt out, the GM too; the missed
      // orders at once to the player and the GM, with how to replace on the web page.
      const before = Number(reminders.at(-1)!.id);
      clock.t = Date.parse((await judge.views.gameView(gm, game.id)).deadline!) + 1;
      assert.equal(await judge.adjudication.tick(), 1, "adjudicated");
      await notifier.tick();
      const after = await outbox(before);
      assert.ok(
        after.every((m) => m.from_addr === JUDGE && m.game_id === game.id),
        "from the judge",
      );
      assert.deepEqual(
        after
          .filter((m) => m.kind === "results")
          .map((m) => m.to_addr)
          .sort(),
        [addressOf("england"), addressOf("france"), addressOf("germany"), "gm@club.test"],
      );
      const results = after.find((m) => m.kind === "results" && m.to_addr === addressOf("france"))!;
      assert.match(results.subject, /results of Spring 1901 movement \(S1901M\)/);
      assert.match(results.body, /France:\n {2}A par H/, "the orders as published");
      assert.match(results.body, /No orders received from Germany: its units held\./);
      assert.doesNotMatch(results.body, /Power letters/);
      const nmr = after.filter((m) => m.kind === "nmr");
      assert.ok(
        nmr.some((m) => m.to_addr === addressOf("germany") && /You keep your seat/.test(m.body)),
        "Germany is told of its own seat",
      );
      const italy = nmr.find((m) => m.to_addr === addressOf("italy"));
      assert.ok(
        italy,
        "the mail about Italy's own seat reaches it although it opted out of the game's mail",
      );
      assert.doesNotMatch(italy.body, /Not wanted\?|untick it/i, "and offers no opt-out");
      assert.match(italy.body, /\nSent even with the judge's mail turned off: .*your own seat/);
      const gmNmr = nmr.find(
        (m) => m.to_addr === "gm@club.test" && /no orders received from Germany/i.test(m.subject),
      );
      assert.ok(gmNmr, "and the GM");
      assert.doesNotMatch(gmNmr.body, /Not wanted\?|untick it/i);
      assert.match(
        gmNmr.body,
        /\nSent even with the judge's mail turned off: it is about your duties as this game's GM .*it stops when the game ends\.\n$/,
      );
      assert.ok(
        after
          .filter((m) => m.kind === "results")
          .every((m) => /\nNot wanted\? Untick it in your mail settings/.test(m.body)),
        "the results offer the opt-out",
      );
      // Nothing twice.
      assert.equal(await notifier.tick(), 0);
      // The contact window passes: the GM is told how to replace on the web page (no mail
      // command: the game takes none).
      const last = Number(after.at(-1)!.id);
      clock.t += 25 * 3_600_000;
      await judge.adjudication.tick();
      await notifier.tick();
      const suggested = (await outbox(last)).filter(
        (m) =>
          m.to_addr === "gm@club.test" &&
          /a replacement may be arranged for Germany/.test(m.subject),
      );
      assert.equal(suggested.length, 1, "the GM is told once");
      assert.match(
        suggested[0]!.body,
        new RegExp(`POST /api/games/${game.id}/gm/replace \\{"seat": \\d+\\}`),
      );
      assert.doesNotMatch(suggested[0]!.body, /REPLACE /);
      assert.doesNotMatch(suggested[0]!.body, /Not wanted\?/, "the GM's duty: no opt-out offered");
      assert.match(suggested[0]!.body, /your duties as this game's GM/);
      // A proposal: voted on the page, not by mail.
      const beforeVote = Number((await outbox()).at(-1)!.id);
      await judge.votes.propose(players.france, game.id, { kind: "draw" });
      await notifier.tick();
      const proposals = (await outbox(beforeVote)).filter((m) => m.kind === "vote");
      assert.equal(proposals.length, 4, "France, England, Germany and the GM");
      assert.match(proposals[0]!.body, /Vote on the game's page\.\n/);
      assert.doesNotMatch(proposals[0]!.body, /Vote by mail/);
    });
});
