import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { configureMailGame } from "../judge/mail.ts";
import { globalGame, judgeWithGm, nmrPowers } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import { elevenByMail, emgBody, gatewayOf, notifierOf, outboxMails, rawMail } from "./testing.ts";

/*
 * EMGTURN and EMGREPORT (seed 004 §9.0) for a Global Diplomacy game in the judge, through the
 * mail gateway with its default dialects (what `entente mail ingest`, SMTP and IMAP call).
 */

const GAME_ADDRESS = "gd001@judge.test";
const addressOf = (p: number) => `power${p}@players.test`;

describe("mail: EMG for Global Diplomacy judge games", () => {
  test("turns are checked line by line and overwrite; reports are the player's own", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const { clock, judge, gm } = await judgeWithGm(ts.store);
    const game = await globalGame(judge, gm);
    // The game's mail settings, as a GM sets them (POST /api/games/{id}/gm/mail).
    const mail = await configureMailGame(judge, gm, game.id, {
      abbreviation: "GD001",
      address: GAME_ADDRESS,
    });
    assert.deepEqual(mail.letters, [], "EMG subjects name no power: no power letters");
    const { players, secrets } = await elevenByMail(judge, game, "p", addressOf);
    const gw = gatewayOf(judge);
    const emg = async (from: number, subject: string, lines: string[]) => {
      // Spacing around the lines does not matter.
      const text = emgBody(lines.map((l) => `   ${l}  `));
      const r = await gw.receive(
        rawMail({ from: addressOf(from), to: GAME_ADDRESS, subject, text }),
      );
      assert.equal(r.dialect, "emg", "read as EMG mail");
      return { accepted: r.accepted, text: r.replies[0]?.text ?? "", to: r.replies[0]?.to };
    };

    const bad = await emg(3, "EMGTURN", ["NOPE", "GD001", "VC 20 400"]);
    assert.equal(bad.accepted, false, "a wrong account id is refused");
    assert.match(bad.text, /the account id "NOPE" is invalid/, "and named");
    const forged = await emg(4, "EMGTURN", [secrets[3]!, "GD001", "VC 20 400"]);
    assert.match(forged.text, /invalid for mail from power4@players\.test/, "another's secret");
    // A second game, GD002, that player 3 does not play: the game id is wrong, not the account.
    const other = await judge.games.createGame(gm, {
      name: "Another world",
      variant: "global",
      seed: 3,
    });
    await configureMailGame(judge, gm, other.id, { abbreviation: "GD002", address: GAME_ADDRESS });
    const wrongGame = await emg(3, "EMGTURN", [secrets[3]!, "GD002", "VC 20 400"]);
    assert.equal(wrongGame.accepted, false, "not a game player 3 plays");
    assert.match(
      wrongGame.text,
      /power3@players\.test plays no power in game GD002: the game id is wrong/,
      "the game id is named as the mistake",
    );
    assert.match(
      wrongGame.text,
      new RegExp(`Your account id is valid; account ${players[3]!.name} plays GD001 \\(England\\)`),
      "and the games this account plays",
    );
    assert.doesNotMatch(wrongGame.text, /invalid/, "a valid account id is not called invalid");
    const noGame = await emg(3, "EMGTURN", [secrets[3]!, "GD999", "VC 20 400"]);
    assert.match(noGame.text, /the game id "GD999" is invalid: no game here has it/, "unknown");
    assert.match(noGame.text, /Your account id is valid; account \S+ plays GD001 \(England\)/);
    assert.doesNotMatch(noGame.text, /account id "[^"]*" is invalid/, "and the account id is not");
    const both = await emg(3, "EMGTURN", ["NOPE", "GD999", "VC 20 400"]);
    assert.match(both.text, /the game id "GD999" is invalid/, "no account proved: only the id");
    assert.doesNotMatch(both.text, /plays GD001/, "and no account's games are told");

    const invalid = await emg(3, "EMGTURN", [secrets[3]!, "gd001", "VC 20 400", "MO 999 1"]);
    assert.equal(invalid.accepted, false, "a set with an invalid command is not stored");
    assert.match(invalid.text, /VC 20 400 {2}-> ok/, "the valid line is acknowledged");
    assert.match(invalid.text, /MO 999 1 {2}-> INVALID: /, "the invalid one with its reason");
    assert.match(invalid.text, /EMGSTART\n {6}<your account id>\n {6}GD001\n/, "how, for GD001");
    assert.deepEqual(
      (await judge.submissions.currentOrders(players[3]!, game.id)).sets,
      [],
      "nothing on file",
    );

    const first = await emg(3, "EMGTURN", [secrets[3]!, "GD001", "VC 20 400", "ME 4 hello"]);
    assert.equal(first.accepted, true, `accepted: ${first.text}`);
    assert.equal(first.to, addressOf(3), "the answer goes to the sender");
    assert.match(first.text, /Accepted: 2 commands for game GD001, turn T1/, "said so");
    const second = await emg(3, "Re: EMGTURN", [secrets[3]!, "GD001", "VC 30 450"]);
    assert.equal(second.accepted, true, "accepted again");
    assert.deepEqual(
      (await judge.submissions.currentOrders(players[3]!, game.id)).sets.map((s) => s.orders),
      [["VC 30 450"]],
      "each new set overwrites the last",
    );

    const opening = await emg(3, "EMGREPORT", [secrets[3]!, "GD001"]);
    assert.equal(opening.accepted, true, "a report");
    assert.match(opening.text, /Great Power 3-England/, "England's own report");
    assert.doesNotMatch(opening.text, /Great Power 4-France/, "nobody else's");

    // After the turn: France's report, by mail, is France's, with England's message.
    await emg(3, "EMGTURN", [secrets[3]!, "GD001", "ME 4 meet me in Picardy"]);
    const view = await judge.views.gameView(gm, game.id);
    clock.t = Date.parse(view.deadline!) + 1;
    assert.equal(await judge.adjudication.tick(), 1, "turn 1 adjudicated");
    const fr = await emg(4, "EMGREPORT", [secrets[4]!, "GD001"]);
    assert.match(fr.text, /Turn 1 report/, "the last turn's report");
    assert.match(fr.text, /Great Power 4-France/, "France's");
    assert.match(fr.text, /meet me in Picardy/, "with the message received");
    const it = await emg(6, "EMGREPORT", [secrets[6]!, "GD001"]);
    assert.doesNotMatch(it.text, /meet me in Picardy/, "Italy does not see it");

    // What the judge mails by itself: each player its own report, once.
    const notifier = notifierOf(judge);
    const queued = await notifier.tick();
    const outbox = await outboxMails(ts.store);
    const started = outbox.filter((m) => m.kind === "started");
    const results = outbox.filter((m) => m.kind === "results");
    const missed = outbox.filter((m) => m.kind === "nmr");
    assert.equal(
      queued,
      started.length + results.length + missed.length,
      "the mails queued are in the outbox",
    );
    const silent = await nmrPowers(ts.store, game.id);
    assert.deepEqual(
      missed.map((m) => m.to_addr).sort(),
      silent.map((p) => addressOf(Number(p))).sort(),
      "each player who sent no commands is told, and only they (the GM has no address)",
    );
    assert.equal(started.length, 11, "a start mail to each player (the GM has no address)");
    assert.equal(results.length, 11, "a turn report to each player");
    for (let p = 1; p <= 11; p++) {
      const mine = results.find((m) => m.to_addr === addressOf(p));
      assert.ok(mine, `power ${p} gets its report`);
      assert.match(mine.body, new RegExp(`Great Power ${p}-`), `power ${p}'s own report`);
      assert.equal(
        mine.body.includes("meet me in Picardy"),
        p === 4 || p === 3,
        `the message only in France's report and in England's results (power ${p})`,
      );
      assert.match(mine.body, /Next: turn T2, commands due by/, "with the next deadline");
    }
    assert.equal(await notifier.tick(), 0, "nothing mailed twice");

    // The GM removes Germany's unit: units are secret (seed 004 §8), so only Germany is
    // mailed. A proposal is mailed to everybody, who vote on the page (EMG has no vote).
    const [unit] = (await judge.views.gameView(gm, game.id)).position.units["5"]!;
    await judge.units.removeUnit(gm, game.id, { power: "Germany", unit: unit!, reason: "extra" });
    await judge.votes.propose(players[3]!, game.id, { kind: "draw" });
    await notifier.tick();
    const later = await outboxMails(ts.store, undefined, Number(outbox.at(-1)!.id));
    const notices = later.filter((m) => m.kind === "notice");
    assert.deepEqual(
      notices.map((m) => m.to_addr),
      [addressOf(5)],
      "the removed unit is told to its power alone",
    );
    assert.match(notices[0]!.body, new RegExp(`removed 5's ${unit}: extra`));
    const proposals = later.filter((m) => m.kind === "vote");
    assert.equal(proposals.length, 11, "the proposal to every player");
    assert.match(proposals[0]!.body, /Vote on the game's page/, "where to vote");
    assert.doesNotMatch(proposals[0]!.body, /VOTE/, "no mail vote command EMG does not have");
  });
});

describe("EMG: the game id its players know, and the accounting section (seed 004 §8-9)", () => {
  for (const kind of ["sqlite", "postgres"] as const)
    test(`the GM's game id names the game in reports and mail; reports open with the account (${kind})`, async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return t.skip(`no ${kind} server`);
      const { clock, judge, gm } = await judgeWithGm(ts.store);
      await assert.rejects(
        judge.games.createGame(gm, { name: "World", variant: "global", label: "GD 7" }),
        (e: Error & { kind?: string }) =>
          e.kind === "invalid" && /1 to 12 letters or digits \(like GD001/.test(e.message),
        "an id that is not one is refused, saying what one looks like",
      );
      await assert.rejects(
        judge.games.createGame(gm, { name: "World", variant: "global", label: "EMGTURN" }),
        { kind: "invalid" },
        "nor a mail command word",
      );
      const game = await judge.games.createGame(gm, {
        name: "World",
        variant: "global",
        seed: 5,
        label: "gd007",
      });
      assert.equal(game.label, "GD007", "upper case, in the game view");
      await assert.rejects(
        judge.games.createGame(gm, { name: "Again", variant: "global", label: "GD007" }),
        (e: Error & { kind?: string }) => e.kind === "conflict" && /GD007/.test(e.message),
        "unique",
      );
      const classic = await judge.games.createGame(gm, { name: "Classic" });
      await configureMailGame(judge, gm, classic.id, { abbreviation: "SED", address: "s@j.test" });
      await assert.rejects(
        judge.games.createGame(gm, { name: "Clash", variant: "global", label: "sed" }),
        { kind: "conflict" },
        "nor another game's mail abbreviation",
      );
      assert.equal(
        (await judge.views.gameView(null, classic.id)).label,
        "SED",
        "that is its id too",
      );
      const mail = await configureMailGame(judge, gm, game.id, { address: GAME_ADDRESS });
      assert.equal(mail.abbreviation, "GD007", "mail uses the id chosen at creation");

      const { players, secrets } = await elevenByMail(judge, game, "w", addressOf);
      await assert.rejects(
        configureMailGame(judge, gm, game.id, { abbreviation: "GD008", address: GAME_ADDRESS }),
        (e: Error & { kind?: string }) => e.kind === "conflict" && /stays GD007/.test(e.message),
        "once started, the game's id stays",
      );
      const gw = gatewayOf(judge);
      const emg = async (from: number, subject: string, lines: string[]) =>
        (
          await gw.receive(
            rawMail({ from: addressOf(from), to: GAME_ADDRESS, subject, text: emgBody(lines) }),
          )
        ).replies[0]?.text ?? "";

      const opening = await emg(3, "EMGREPORT", [secrets[3]!, "GD007"]);
      assert.match(opening, /^ACCOUNTING\n {2}Account Id {2}(\S+)/, "the accounting section first");
      assert.match(opening, new RegExp(`Account Id {2}${secrets[3]} `), "with the account id");
      assert.match(opening, new RegExp(`Name {8}${players[3]!.name}\\n`), "the account's name");
      assert.match(opening, /Address {5}power3@players\.test/, "and address");
      assert.match(opening, /Game {8}GD007, Great Power 3-England/, "the game by its id");
      assert.match(opening, /Last turns {2}none processed yet/, "no turn yet");
      assert.match(opening, /Next turn {3}1, commands due by \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      assert.match(
        opening,
        /GLOBAL DIPLOMACY {3}Game GD007 {3}Turn 0 report/,
        "the report's header",
      );

      // Turn 1 with England's commands, turn 2 without.
      const sent = await emg(3, "EMGTURN", [secrets[3]!, "GD007", "VC 20 400", "ME 4 hello"]);
      assert.match(sent, /Accepted: 2 commands for game GD007, turn T1/, sent);
      for (let turn = 1; turn <= 2; turn++) {
        clock.t = Date.parse((await judge.views.gameView(gm, game.id)).deadline!) + 1;
        assert.equal(await judge.adjudication.tick(), 1, `turn ${turn} adjudicated`);
      }
      await notifierOf(judge).tick();
      const outbox = await outboxMails(ts.store);
      const report2 = outbox.find(
        (m) => m.to_addr === addressOf(3) && m.subject === "GD007: report of turn 2",
      );
      assert.ok(report2, "England's report of turn 2, its subject naming the game by its id");
      assert.match(report2.body, /Game {8}GD007, Great Power 3-England/);
      assert.match(report2.body, /Last 2 turns/);
      assert.match(
        report2.body,
        /^ {7}1 {2}\d{4}-\d\d-\d\d \d\d:\d\d UTC {2}2 received$/m,
        "turn 1",
      );
      assert.match(
        report2.body,
        /^ {7}2 {2}\S+ \S+ UTC {2}none received: your units held$/m,
        "turn 2: nothing received",
      );
      assert.match(report2.body, /Next turn {3}3, commands due by /, "and what is next");
      assert.match(report2.body, /Game GD007 {3}Turn 2 report/, "the report issued under the id");
      const report1 = outbox.find((m) => m.subject === "GD007: report of turn 1");
      assert.ok(report1, "turn 1's reports were mailed too");
      for (let p = 1; p <= 11; p++) {
        const mine = outbox.filter((m) => m.to_addr === addressOf(p) && /report/.test(m.subject));
        for (const m of mine) {
          for (let q = 1; q <= 11; q++)
            assert.equal(
              m.body.includes(secrets[q]!),
              p === q,
              `power ${p}'s mail names power ${q}'s account id only if it is its own`,
            );
        }
      }
      // The GM reads every report, never an account id.
      const gmRead = await judge.views.report(gm, game.id, { power: "3" });
      assert.equal(gmRead.accounting, undefined, "no accounting section for the GM");
      assert.ok(!gmRead.report.includes(secrets[3]!), "nor the account id in the report");
      const turns = JSON.stringify(await judge.views.familyTurns(gm, game.id));
      assert.ok(!Object.values(secrets).some((s) => turns.includes(s)), "nor in any turn");
      // An older turn's report, asked for: its accounting up to that turn.
      const older = await judge.views.report(players[3]!, game.id, { turn: 1 });
      assert.match(older.accounting ?? "", /Last turn\n/, "one turn");
      assert.match(older.accounting ?? "", /Next turn {3}2\n/, "and the turn after it");
    });
});
