import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Judge } from "../judge/judge.ts";
import { setMailAddress } from "../judge/mail.ts";
import { Clock, clockedJudge, DAY, POWERS, storedSets } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import { MAIL_GAMES_PER_USER } from "./commands.ts";
import { addressOf, GAME_ADDRESS, gatewayOf, mailTestGame, rawMail } from "./testing.ts";

/*
 * Sign-up and a game run entirely by mail (docs/email.md): REGISTER, JOIN with an invitation
 * code, the GM's CREATE, START, EXTEND, PAUSE, RESUME, PROCESS and REPLACE, HELP; the GM's acts
 * of seed 002 VIII-IX: CORRECT, REMOVE, WARN, DRAW, REFUSE; each bad command answered with what
 * was wrong and what to send instead.
 */

const JUDGE = "judge@judge.test";
const GM = "gm@club.test";

describe("mail: sign-up and the GM's commands by mail", () => {
  test("a GM creates and runs a game, players register and join, all by mail", async (t) => {
    const ts = await testStore(t, "sqlite");
    assert.ok(ts, "sqlite store");
    const { judge } = clockedJudge(ts.store);
    const gw = gatewayOf(judge);
    const send = async (from: string, subject: string, text = "", to = JUDGE) => {
      const r = await gw.receive(rawMail({ from, to, subject, text }));
      assert.equal(r.replies.length, 1, `${subject}: answered once`);
      assert.equal(r.replies[0]!.to, from, `${subject}: to the sender`);
      return { accepted: r.accepted, text: r.replies[0]!.text };
    };
    const secretIn = (text: string) => /Your secret: (\S+)/.exec(text)?.[1] ?? "";

    const help = await send("someone@else.test", "HELP");
    assert.equal(help.accepted, true, "HELP is answered");
    for (const c of [
      "REGISTER",
      "JOIN",
      "CREATE",
      "START",
      "PAUSE",
      "EXTEND",
      "PROCESS",
      "REPLACE",
      "BOT",
      "CORRECT",
      "REMOVE",
      "RELOCATE",
      "WARN",
      "DRAW",
      "REFUSE",
    ])
      assert.match(help.text, new RegExp(`^ {2}${c}\\b`, "m"), `HELP lists ${c}`);

    const stranger = await send("nobody@else.test", "JOIN abc", "Secret: x");
    assert.equal(stranger.accepted, false, "an unregistered address cannot join");
    assert.match(
      stranger.text,
      /not registered.*\n.*What to send instead: a mail with the subject "REGISTER"/s,
    );

    const gmReg = await send(GM, "REGISTER gamemaster");
    assert.match(gmReg.text, /You are registered as gamemaster/, "the GM registered");
    const gmSecret = secretIn(gmReg.text);
    assert.ok(gmSecret.length >= 8, "a secret came back");
    const again = await send(GM, "REGISTER");
    assert.equal(secretIn(again.text), gmSecret, "registering again mails the same secret");

    const noSecret = await send(GM, "CREATE SED houserules", "Name: Speed Europa");
    assert.equal(noSecret.accepted, false, "a command needs the secret");
    assert.match(
      noSecret.text,
      /no secret line.*What to send instead: the same mail with a line "Secret: <your secret>"/s,
    );
    const forged = await send(GM, "CREATE SED houserules", "Secret: wrong\nName: Speed Europa");
    assert.match(
      forged.text,
      /the secret is not the one registered for gm@club\.test/,
      "a wrong secret",
    );

    const created = await send(
      GM,
      "CREATE SED houserules",
      `Secret: ${gmSecret}\nName: Speed Europa\nAddress: sed@judge.test`,
    );
    assert.equal(created.accepted, true, created.text);
    assert.match(created.text, /Game SED \("Speed Europa"\) is created; you are its game master/);
    const code = /player: (\S+)/.exec(created.text)?.[1];
    assert.ok(code, "the players' invitation code is in the reply");

    const secrets: Record<string, string> = {};
    const join = async (p: (typeof POWERS)[number]) => {
      const reg = await send(addressOf(p), `REGISTER ${p}-player`);
      secrets[p] = secretIn(reg.text);
      const joined = await send(addressOf(p), `JOIN ${code} ${p}`, `Secret: ${secrets[p]}`);
      assert.equal(joined.accepted, true, joined.text);
      assert.match(joined.text, new RegExp(`You joined Speed Europa as ${p}`), `${p} joined`);
      assert.match(joined.text, /Orders go To sed@judge\.test/, "where orders go");
    };
    // Six join; the GM starts the game; the seventh takes the open seat afterwards.
    for (const p of POWERS.filter((x) => x !== "turkey")) await join(p);
    const late = await send(GM, "JOIN nosuchcode", `Secret: ${gmSecret}`);
    assert.equal(late.accepted, false, "a bad code is refused");

    const notGm = await send(addressOf("austria"), "START SED", `Secret: ${secrets.austria}`);
    assert.equal(notGm.accepted, false, "only the GM starts the game");
    assert.match(notGm.text, /game master/, "and says so");
    const started = await send(GM, "START SED", `Secret: ${gmSecret}`);
    assert.equal(started.accepted, true, started.text);
    await join("turkey");
    const view = async () => judge.views.gameView(null, (await judge.games.listGames())[0]!.id);
    assert.equal((await view()).state, "open", "the game runs");

    // A player orders by mail with the secret that came with the registration.
    const orders = await gw.receive(
      rawMail({
        from: addressOf("austria"),
        to: "sed@judge.test",
        subject: "SED 01SA",
        text: `Secret: ${secrets.austria}\nA vie-gal\nA bud-ser\nF tri-alb`,
      }),
    );
    assert.equal(orders.accepted, true, "orders by mail");

    const before = Date.parse((await view()).deadline!);
    const extended = await send(GM, "EXTEND SED 24", `Secret: ${gmSecret}`);
    assert.equal(extended.accepted, true, extended.text);
    assert.equal(Date.parse((await view()).deadline!) - before, 24 * 3_600_000, "a day later");
    const bad = await send(GM, "EXTEND SED soon", `Secret: ${gmSecret}`);
    assert.match(bad.text, /"soon" is not a number of hours.*"EXTEND SED 24"/s, "what to send");

    await send(GM, "PAUSE SED", `Secret: ${gmSecret}`);
    assert.equal((await view()).state, "paused", "paused by mail");
    await send(GM, "RESUME SED", `Secret: ${gmSecret}`);
    assert.equal((await view()).state, "open", "resumed by mail");

    const processed = await send(GM, "PROCESS SED", `Secret: ${gmSecret}`);
    assert.equal(processed.accepted, true, processed.text);
    assert.equal(await judge.adjudication.tick(), 1, "the phase is adjudicated at once");
    assert.equal((await view()).phase, "F1901M", "the game moved on");

    const replaced = await send(GM, "REPLACE SED turkey", `Secret: ${gmSecret}`);
    assert.equal(replaced.accepted, true, replaced.text);
    assert.match(replaced.text, /Turkey's seat in SED is open for a replacement/);
    assert.equal(
      (await view()).seatList.find((s) => s.powers.includes("turkey"))!.player,
      null,
      "the seat is empty",
    );
    // BOT: a built-in player takes the free seat and orders at once; OFF takes it off.
    const bot = await send(GM, "BOT SED turkey random", `Secret: ${gmSecret}`);
    assert.equal(bot.accepted, true, bot.text);
    assert.match(bot.text, /Turkey in SED is played by the built-in player random/);
    const turkey = (await view()).seatList.find((s) => s.powers.includes("turkey"))!;
    assert.equal(turkey.bot?.id, "random", "marked as played by a bot");
    const sets = await storedSets(ts.store, (await view()).id);
    assert.deepEqual(
      sets.filter((x) => x.user_id === "bot:random").map((x) => x.power),
      ["turkey"],
      "the bot's orders for the open phase are on file",
    );
    const held = await send(GM, "BOT SED england", `Secret: ${gmSecret}`);
    assert.equal(held.accepted, false, "a player's seat is refused");
    assert.match(held.text, /England is played by \S+: replace them first/);
    const off = await send(GM, "BOT SED turkey OFF", `Secret: ${gmSecret}`);
    assert.match(off.text, /The built-in player left Turkey in SED/);
    assert.equal((await view()).seatList.find((s) => s.powers.includes("turkey"))!.bot, undefined);
    const unknown = await send(GM, "PAUSE XYZ", `Secret: ${gmSecret}`);
    assert.match(unknown.text, /no game here has the abbreviation "XYZ"/, "an unknown game");
  });

  test("Global Diplomacy and Age of Discovery games are created by mail; JOIN says how to write to each", async (t) => {
    const ts = await testStore(t, "sqlite");
    assert.ok(ts, "sqlite store");
    const judge = new Judge({ store: ts.store, now: new Clock().now });
    const gw = gatewayOf(judge);
    const send = async (from: string, subject: string, text = "") => {
      const r = await gw.receive(rawMail({ from, to: JUDGE, subject, text }));
      return { accepted: r.accepted, text: r.replies[0]!.text };
    };
    const secretIn = (text: string) => /Your secret: (\S+)/.exec(text)?.[1] ?? "";
    const gm = secretIn((await send(GM, "REGISTER gamemaster")).text);
    const unknown = await send(GM, "CREATE GD001 globl", `Secret: ${gm}`);
    assert.equal(unknown.accepted, false);
    assert.match(
      unknown.text,
      /unknown rule profile "globl".*What to send instead: .*"CREATE GD001 global" \(Global Diplomacy\), "CREATE GD001 discovery" \(Age of Discovery\)/s,
    );
    const gd = await send(
      GM,
      "CREATE GD001 global",
      `Secret: ${gm}\nName: World\nAddress: gd001@judge.test`,
    );
    assert.equal(gd.accepted, true, gd.text);
    assert.match(gd.text, /Game GD001 \("World"\) is created/);
    const aod = await send(
      GM,
      "CREATE AOD1 discovery 9",
      `Secret: ${gm}\nAddress: aod1@judge.test`,
    );
    assert.equal(aod.accepted, true, aod.text);
    assert.equal(
      (
        await judge.views.gameView(
          null,
          (await judge.games.listGames()).find((g) => g.label === "AOD1")!.id,
        )
      ).seatList.length,
      9,
    );
    const bad = await send(GM, "CREATE SED2 houserules 9", `Secret: ${gm}`);
    assert.match(bad.text, /"9" is not understood after "houserules"/);

    // JOIN: the reply's subject is the one the game's own dialect takes.
    const code = /player: (\S+)/.exec(gd.text)![1]!;
    const ann = secretIn((await send("ann@players.test", "REGISTER ann")).text);
    const joined = await send("ann@players.test", `JOIN ${code} England`, `Secret: ${ann}`);
    assert.equal(joined.accepted, true, joined.text);
    assert.match(
      joined.text,
      /Commands go To gd001@judge\.test with the subject EMGTURN; the body: EMGSTART, your account id \(your secret\)/,
    );
    assert.doesNotMatch(
      joined.text,
      /"GD001 \d\d[A-Z]{2}"/,
      "no house-rules subject for an EMG game",
    );
  });

  test("games created by mail count against the user's quota (the server's, in the store)", async (t) => {
    const ts = await testStore(t, "sqlite");
    assert.ok(ts, "sqlite store");
    const { clock, judge } = clockedJudge(ts.store);
    const gw = gatewayOf(judge);
    const send = async (subject: string, text = "") => {
      const r = await gw.receive(rawMail({ from: GM, to: JUDGE, subject, text }));
      return { accepted: r.accepted, text: r.replies[0]!.text };
    };
    const reg = await send("REGISTER quota-gm");
    const secret = /Your secret: (\S+)/.exec(reg.text)![1]!;
    const gm = (await judge.store.db
      .selectFrom("users")
      .select(["id", "name"])
      .where("name", "=", "quota-gm")
      .executeTakeFirstOrThrow()) as { id: string; name: string };
    // The day's games, but one, made by other ways (the API), an hour apart.
    for (let i = 1; i < MAIL_GAMES_PER_USER.max; i++) {
      await judge.games.createGame(gm, { name: `game ${i}` });
      clock.advance(3_600_000 / 4);
    }
    const last = await send("CREATE Q20 houserules", `Secret: ${secret}`);
    assert.equal(last.accepted, true, last.text);
    const over = await send("CREATE Q21 houserules", `Secret: ${secret}`);
    assert.equal(over.accepted, false, "one game too many");
    assert.match(
      over.text,
      /you have created 20 games in the last 24 hours, the most one user may create\n.*What to send instead: the same mail after 2030-01-02T12:00:00\.000Z/s,
    );
    assert.equal(
      (await judge.store.db.selectFrom("games").select("id").execute()).length,
      MAIL_GAMES_PER_USER.max,
      "nothing was created",
    );
    clock.advance(DAY - (MAIL_GAMES_PER_USER.max - 1) * (3_600_000 / 4) + 1);
    const next = await send("CREATE Q21 houserules", `Secret: ${secret}`);
    assert.equal(next.accepted, true, `a day after the first: ${next.text}`);
  });

  test("the GM's acts by mail: a correction, an extra unit by the house rule, a draw warning, a refused proposal", async (t) => {
    const ts = await testStore(t, "sqlite");
    assert.ok(ts, "sqlite store");
    const g = await mailTestGame(ts.store);
    const { judge, clock } = g;
    const gmSecret = (await setMailAddress(judge, g.gm, { address: GM })).secret;
    const gw = gatewayOf(judge);
    const send = async (from: string, subject: string, text: string) => {
      const r = await gw.receive(rawMail({ from, to: JUDGE, subject, text }));
      assert.equal(r.replies.length, 1, `${subject}: answered once`);
      return { accepted: r.accepted, text: r.replies[0]!.text };
    };
    const gm = (subject: string, body = "") => send(GM, subject, `Secret: ${gmSecret}\n${body}`);

    // Spring 1901: France moves; Germany's orders reach the GM but not the judge.
    await judge.submissions.submitOrders(g.players.france, g.gameId, {
      orders: ["A par-bur", "A mar-spa", "F bre-mao"],
    });
    clock.t = Date.parse((await judge.views.gameView(null, g.gameId)).deadline!) + 1;
    assert.equal(await judge.adjudication.tick(), 1);

    // CORRECT (seed 002 VIII(1)).
    const noReason = await gm("CORRECT SED Germany", "A mun-ruh");
    assert.equal(noReason.accepted, false);
    assert.match(
      noReason.text,
      /no line "Reason: \.\.\.".*What to send instead: "CORRECT SED Germany"/s,
    );
    // An empty "Reason:" line is no reason: the line after it is an order, not the reason.
    const empty = await gm("CORRECT SED Germany", "Reason:\nA mun-ruh");
    assert.equal(empty.accepted, false);
    assert.match(empty.text, /no line "Reason: \.\.\." saying what the correction is for/);
    const orphan = await gm("CORRECT SED", "Reason: late orders\nA mun-ruh");
    assert.match(orphan.text, /the order "A mun-ruh" comes before any power is named/);
    const narnia = await gm("CORRECT SED", "Reason: late orders\nNarnia:\nA mun-ruh");
    assert.match(narnia.text, /unknown power "Narnia"; the powers are austria/);
    const notGm = await send(
      addressOf("germany"),
      "CORRECT SED Germany",
      `Secret: ${g.secrets.germany}\nReason: mine\nA mun-ruh`,
    );
    assert.match(notGm.text, /NOT done.*game master/s, "only the GM corrects");
    const unknownPhase = await gm("CORRECT SED Germany F1905M", "Reason: late\nA mun-ruh");
    assert.match(
      unknownPhase.text,
      /NOT done.*F1905M is not a phase adjudicated in this game; only the last adjudication, S1901M, can be corrected.*What to send instead: "CORRECT SED Germany S1901M"/s,
    );
    const corrected = await gm(
      "CORRECT SED Germany S1901M",
      "Reason: Germany's orders reached the GM before the deadline\n1. A mun-ruh\n2. F kie-den\n3. A ber-kie\n\n-- \nThe GM",
    );
    assert.equal(corrected.accepted, true, corrected.text);
    assert.match(
      corrected.text,
      /The last adjudication of SED, S1901M, is corrected \(Germany's orders reached the GM before the deadline\)/,
    );
    assert.match(
      corrected.text,
      /S1901M, the corrected orders as read:\n {2}Germany:\n {4}A mun - ruh: succeeds/,
    );
    const phases = await judge.views.phases(g.gameId);
    assert.equal(phases.length, 1, "the same phase, played again");
    assert.deepEqual(phases[0]!.orders.germany, ["A mun-ruh", "F kie-den", "A ber-kie"]);

    // REMOVE (VIII(2)): by the house rule the GM says applies, or the unit named.
    const nothing = await gm("REMOVE SED France", "");
    assert.match(nothing.text, /no power, or no unit or cause.*"REMOVE SED France BUILT"/s);
    const noBuilds = await gm("REMOVE SED France BUILT", "");
    assert.match(
      noBuilds.text,
      /France has built no unit in this game: name the extra unit instead/,
    );
    const wrongUnit = await gm("REMOVE SED France A par", "");
    assert.match(wrongUnit.text, /france has no unit "A par"; its units: F mao, A bur, A spa/);
    // No removal was ever due for France: NOT-REMOVED refuses, with what the record shows.
    const notDue = await gm("REMOVE SED France NOT-REMOVED", "Reason: a removal was never made");
    assert.equal(notDue.accepted, false, notDue.text);
    assert.match(
      notDue.text,
      /NOT done.*no removal was ever due for France: it never had more units than supply centres going into an adjustment phase, so there is no extra unit to remove \(seed 002 VIII\(2\)\)/s,
    );
    // A unit the GM's own error put on the board is named, and removed.
    const removed = await gm("REMOVE SED France F mao", "Reason: my error put it there");
    assert.equal(removed.accepted, true, removed.text);
    assert.match(
      removed.text,
      /France's F mao is removed from the board of SED \(my error put it there\)\./,
    );
    assert.deepEqual(
      [...(await judge.views.gameView(null, g.gameId)).position.units.france!].sort(),
      ["A bur", "A spa"],
    );

    // WARN and DRAW (IX(2) A): refused with the reason while centres still change.
    const warn = await gm("WARN SED");
    assert.equal(warn.accepted, false);
    assert.match(
      warn.text,
      /supply centres changed hands in the last game year; a draw may be declared after 2 years/,
    );
    const draw = await gm("DRAW SED");
    assert.match(draw.text, /warn the players first/);

    // REFUSE (IX(5)).
    await gw.receive(
      rawMail({
        from: addressOf("italy"),
        to: GAME_ADDRESS,
        subject: "SED VOTE",
        text: `Secret: ${g.secrets.italy}\npropose houserule: pizza on Fridays`,
      }),
    );
    const unsaid = await gm("REFUSE SED 1");
    assert.match(unsaid.text, /no line "Reason: \.\.\." saying why.*"REFUSE SED 3"/s);
    const which = await gm("REFUSE SED pizza", "Reason: humorous");
    assert.match(which.text, /"pizza" is not a proposal's number/);
    const refused = await gm("REFUSE SED 1", "Reason: humorous proposals are not put to the vote");
    assert.equal(refused.accepted, true, refused.text);
    assert.match(refused.text, /Proposal 1 of SED is refused: nobody votes on it/);
    assert.equal((await judge.votes.proposals(g.players.italy, g.gameId))[0]!.status, "refused");
    const twice = await gm("REFUSE SED 1", "Reason: again");
    assert.match(twice.text, /proposal 1 is refused, not open/);
  });
});
