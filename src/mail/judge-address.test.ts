import assert from "node:assert/strict";
import { describe, test } from "node:test";
import nodemailer from "nodemailer";
import { setMailAddress, setNotices } from "../judge/mail.ts";
import { judgeWithGm, POWERS, user } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import { mailConfig, startMail } from "./service.ts";
import { addressOf, outboxMails } from "./testing.ts";

/*
 * A game never set up for mail: its players (and GM) who gave an address are mailed all the
 * same, from the judge's own address, when the judge sends mail at all, on SQLite and on
 * PostgreSQL.
 */

describe("mail: web players' mail and opting out", () => {
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
      const outbox = (after = 0) => outboxMails(ts.store, undefined, after);
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
