import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { configureMailGame, setMailAddress } from "../judge/mail.ts";
import { globalGame } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import {
  addressOf,
  elevenByMail,
  emgBody,
  GAME_ADDRESS,
  gatewayOf,
  mailTestGame,
  notifierOf,
  outboxMails,
  rawMail,
} from "./testing.ts";

/*
 * One gateway and one notifier for every game: a classical game played by the house rules'
 * mail (`SED 01SA`) and a Global Diplomacy game played by EMG mail (EMGTURN) in the same judge,
 * through the same gateway, postman and notifier: orders in, the verdict out, a bad mail
 * answered with what was wrong and what to send instead, the results and reports out, and
 * reminders before the deadline.
 */

const GD_ADDRESS = "gd001@judge.test";
const gdAddress = (p: number) => `power${p}@players.test`;

async function twoGames(t: import("node:test").TestContext) {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "sqlite store");
  const sed = await mailTestGame(ts.store);
  const { judge, clock, gm } = sed;
  await setMailAddress(judge, gm, { address: "gm@club.test" });
  const gd = await globalGame(judge, gm);
  await configureMailGame(judge, gm, gd.id, { abbreviation: "GD001", address: GD_ADDRESS });
  const { players: gdPlayers, secrets: gdSecrets } = await elevenByMail(judge, gd, "p", gdAddress);
  const notifier = notifierOf(judge, { reminderMs: 12 * 3_600_000 });
  const gw = gatewayOf(judge);
  const outbox = async (gameId: string, kind: string) =>
    (await outboxMails(ts.store, kind)).filter((m) => m.game_id === gameId);
  return { sed, judge, clock, gm, gdId: gd.id, gdPlayers, gdSecrets, notifier, gw, outbox };
}

describe("mail: one gateway for a classical game and a Global Diplomacy game", () => {
  test("orders in and the verdict out, in each game's own form", async (t) => {
    const { sed, judge, gdId, gdPlayers, gdSecrets, gw } = await twoGames(t);
    const houseRules = await gw.receive(
      rawMail({
        from: addressOf("austria"),
        to: GAME_ADDRESS,
        subject: "SED 01SA",
        text: `Secret: ${sed.secrets.austria}\nA vie-gal\nA bud-sre\nF tri-alb\nFinal`,
      }),
    );
    assert.equal(houseRules.accepted, true, "the classical game's orders are stored");
    assert.equal(houseRules.dialect, "houserules", "read by the house rules");
    const a = houseRules.replies[0]!;
    assert.equal(a.to, addressOf("austria"), "the verdict goes to the sender");
    assert.equal(a.from, GAME_ADDRESS, "from the game's address");
    assert.equal(a.subject, "Re: SED 01SA", "answering the mail");
    assert.match(a.text, /A bud-sre\s+-> A bud - ser \(read "sre" as Serbia\)/, "each line read");
    assert.match(a.text, /How to write to the judge: docs\/email\.md/, "the judge's signature");

    const emg = await gw.receive(
      rawMail({
        from: gdAddress(3),
        to: GD_ADDRESS,
        subject: "EMGTURN",
        text: emgBody([`  ${gdSecrets[3]}`, "  GD001", "    VC 20 400"]),
      }),
    );
    assert.equal(
      emg.accepted,
      true,
      `the Global Diplomacy game's commands are stored: ${emg.replies[0]?.text}`,
    );
    assert.equal(emg.dialect, "emg", "read as EMG mail");
    const b = emg.replies[0]!;
    assert.equal(b.to, gdAddress(3), "the verdict goes to the sender");
    assert.equal(b.from, GD_ADDRESS, "from the game's address");
    assert.equal(b.subject, "Re: EMGTURN", "answering the mail");
    assert.match(b.text, /Accepted: 1 command for game GD001, turn T1/, "the verdict");
    assert.match(b.text, /Great Power 3-England/, "with the player's report");
    assert.match(b.text, /How to write to the judge: docs\/email\.md/, "the same signature");

    assert.deepEqual(
      (await judge.submissions.currentOrders(sed.players.austria, sed.gameId)).sets.map(
        (s) => s.orders,
      ),
      [["A vie-gal", "A bud-sre", "F tri-alb"]],
      "Austria's orders on file",
    );
    assert.deepEqual(
      (await judge.submissions.currentOrders(gdPlayers[3]!, gdId)).sets.map((s) => s.orders),
      [["VC 20 400"]],
      "England's commands on file",
    );
  });

  test("a bad mail is answered with what was wrong and what to send instead", async (t) => {
    const { sed, judge, gdId, gdPlayers, gdSecrets, gw } = await twoGames(t);
    const refused = async (m: Parameters<typeof rawMail>[0]) => {
      const r = await gw.receive(rawMail(m));
      assert.equal(r.accepted, false, `refused: ${m.subject}`);
      assert.equal(r.replies[0]!.to, m.from, "answered to the sender");
      const text = r.replies[0]!.text;
      assert.match(
        text,
        /^Your mail was NOT accepted: nothing was changed\.\n\nWhat was wrong/,
        "one form of refusal for every game",
      );
      return text;
    };
    const season = await refused({
      from: addressOf("france"),
      to: GAME_ADDRESS,
      subject: "SED 01XF",
      text: `Secret: ${sed.secrets.france}\nA par-bur`,
    });
    assert.match(season, /"X" is not a season letter: use S \(spring moves\)/, "what was wrong");
    assert.match(season, /e\.g\. "SED 01SA"/, "and how to write it");

    const command = await refused({
      from: gdAddress(5),
      to: GD_ADDRESS,
      subject: "EMGTURN",
      text: emgBody([gdSecrets[5]!, "GD001", "VC 20 400", "MO 999 1"]),
    });
    assert.match(
      command,
      /1 of 2 commands are invalid; your previous commands stay on file/,
      "how many",
    );
    assert.match(command, /MO 999 1 {2}-> INVALID: /, "the invalid command with its reason");
    assert.match(command, /Write it like this[\s\S]*EMGSTART[\s\S]*EMGEND/, "and the format");

    const account = await refused({
      from: gdAddress(5),
      to: GD_ADDRESS,
      subject: "EMGREPORT",
      text: emgBody([sed.secrets.france, "GD001"]),
    });
    assert.match(
      account,
      /the account id "[^"]+" is invalid\. The account id is your mail/,
      "what an account id is",
    );

    // Each game in the other's form: told which form it takes.
    const emgToSed = await refused({
      from: addressOf("france"),
      to: GAME_ADDRESS,
      subject: "EMGTURN",
      text: emgBody([sed.secrets.france, "SED", "A par-bur"]),
    });
    assert.match(
      emgToSed,
      /game SED \(Classical \(1901\)\) does not take EMG commands\. Orders: subject "SED YYSP"/,
      "EMG to SED",
    );
    const houseToGd = await refused({
      from: gdAddress(5),
      to: GD_ADDRESS,
      subject: "GD001 01SA",
      text: `Secret: ${gdSecrets[5]}\nVC 20 400`,
    });
    assert.match(
      houseToGd,
      /game GD001 \(Global Diplomacy\) does not take mail in the house rules' form/,
      "a house-rules subject to the Global Diplomacy game",
    );
    assert.match(houseToGd, /subject EMGTURN/, "and is told the form it takes");

    assert.deepEqual(
      (await judge.submissions.currentOrders(sed.players.france, sed.gameId)).sets,
      [],
      "nothing stored for France",
    );
    assert.deepEqual(
      (await judge.submissions.currentOrders(gdPlayers[5]!, gdId)).sets,
      [],
      "nothing stored for power 5",
    );
  });

  test("results and reports out, and reminders, from one notifier", async (t) => {
    const { sed, judge, clock, gm, gdId, gdSecrets, gw, notifier, outbox } = await twoGames(t);
    await notifier.tick();
    const sedStart = await outbox(sed.gameId, "started");
    const gdStart = await outbox(gdId, "started");
    assert.equal(sedStart.length, 8, "the classical game's start: seven players and the GM");
    assert.equal(gdStart.length, 12, "the Global Diplomacy game's: eleven players and the GM");
    assert.match(sedStart[0]!.body, /Power letters for subjects: A Austria/, "the letters");
    const gd3 = gdStart.find((m) => m.to_addr === gdAddress(3))!;
    assert.match(gd3.body, /You play 3-England\.\nCommands for turn T1 are due by/, "who and when");
    assert.match(gd3.body, /Great Power 3-England/, "with the opening report");
    assert.match(sedStart[0]!.body, /Orders: subject "SED YYSP" To sed@judge\.test/, "footers");
    assert.match(gd3.body, /Commands: subject EMGTURN To gd001@judge\.test/, "in each form");

    // Orders from some players of each game; then the deadline comes near.
    const mail = (from: string, to: string, subject: string, text: string) =>
      gw.receive(rawMail({ from, to, subject, text }));
    await mail(
      addressOf("austria"),
      GAME_ADDRESS,
      "SED 01SA",
      `Secret: ${sed.secrets.austria}
A vie-gal\nFinal`,
    );
    await mail(
      addressOf("england"),
      GAME_ADDRESS,
      "SED 01SE",
      `Secret: ${sed.secrets.england}
F lon-nth`,
    );
    for (const p of [1, 2, 3]) {
      const r = await mail(gdAddress(p), GD_ADDRESS, "EMGTURN", emgBody([gdSecrets[p]!, "GD001"]));
      assert.equal(r.accepted, true, `power ${p}'s (empty) turn`);
    }
    const deadline = Date.parse((await judge.views.gameView(gm, sed.gameId)).deadline!);
    assert.equal(
      Date.parse((await judge.views.gameView(gm, gdId)).deadline!),
      deadline,
      "both games' deadlines are the same moment",
    );
    clock.t = deadline - 11 * 3_600_000;
    await notifier.tick();
    const sedRemind = await outbox(sed.gameId, "reminder");
    const gdRemind = await outbox(gdId, "reminder");
    assert.equal(sedRemind.length, 6, "every classical player without final orders");
    assert.match(
      sedRemind.find((m) => m.to_addr === addressOf("england"))!.body,
      /England: preliminary orders on file/,
      "England's are not final",
    );
    assert.deepEqual(
      gdRemind.map((m) => m.to_addr).sort(),
      [4, 5, 6, 7, 8, 9, 10, 11].map(gdAddress).sort(),
      "every Global Diplomacy player without commands (a set on file counts: EMG has no Final)",
    );
    assert.match(gdRemind[0]!.body, /: NO COMMANDS on file/, "in its words");
    await notifier.tick();
    assert.equal((await outbox(gdId, "reminder")).length, 8, "once per turn");

    clock.t = deadline + 1;
    assert.equal(await judge.adjudication.tick(), 2, "both games adjudicated");
    await notifier.tick();
    const sedResults = await outbox(sed.gameId, "results");
    const gdResults = await outbox(gdId, "results");
    assert.equal(sedResults.length, 8, "the classical results to every player and the GM");
    for (const m of sedResults) {
      assert.match(m.subject, /^SED: results of Spring 1901 movement \(S1901M\)$/, "subject");
      assert.match(m.body, /A vie - gal/, "every power's orders with their results");
      assert.match(m.body, /Next: Fall 1901 movement \(F1901M\), orders due by/, "what next");
    }
    assert.equal(gdResults.length, 12, "each Global Diplomacy player's own report, and the GM's");
    for (let p = 1; p <= 11; p++) {
      const m = gdResults.find((x) => x.to_addr === gdAddress(p))!;
      assert.equal(m.subject, "GD001: report of turn 1", `power ${p}'s subject`);
      assert.match(m.body, new RegExp(`Great Power ${p}-`), `power ${p}'s own report`);
      assert.match(m.body, /Next: turn T2, commands due by/, "what next");
    }
    const gmNote = gdResults.find((x) => x.to_addr === "gm@club.test")!;
    assert.equal(gmNote.subject, "GD001: turn 1 adjudicated");
    assert.match(
      gmNote.body,
      /Commands adjudicated, by power:\n {2}1-[A-Z][^\n]*: an empty set\n[\s\S]* {2}3-England: an empty set\n {2}4-France: none received \(its units held\)[\s\S]* {2}11-[A-Z][^\n]*: none received/,
      "the GM's mail carries every power's commands, and who sent none",
    );
    assert.match(gmNote.body, /Each power's whole report: GET \/api\/games\/.*\/turns/);
    assert.doesNotMatch(gmNote.body, /Great Power/, "without anybody's report");
    assert.equal(await notifier.tick(), 0, "nothing mailed twice");

    // The GM corrects the turn: every mail says in its subject and first line that it replaces
    // the earlier one, and why.
    await judge.gm.correct(gm, gdId, { reason: "a late turn reached the GM in time" });
    await notifier.tick();
    const again = (await outbox(gdId, "results")).slice(gdResults.length);
    assert.equal(again.length, 12, "a corrected mail to every player and the GM");
    const seven = again.find((x) => x.to_addr === gdAddress(7))!;
    assert.equal(seven.subject, "GD001: corrected report of turn 1 (replaces the earlier report)");
    assert.match(
      seven.body,
      /^This corrected report of turn 1 replaces the one mailed earlier: the GM corrected the turn \(a late turn reached the GM in time\)\./,
    );
    const gmAgain = again.find((x) => x.to_addr === "gm@club.test")!;
    assert.equal(gmAgain.subject, "GD001: turn 1 corrected (replaces the earlier turn mail)");
    assert.match(gmAgain.body, /^This corrected summary of turn 1 replaces/);

    // A report asked for by mail: the player's own, of the turn just played.
    const report = await mail(
      gdAddress(7),
      GD_ADDRESS,
      "EMGREPORT",
      emgBody([gdSecrets[7]!, "GD001"]),
    );
    assert.equal(report.replies[0]!.kind, "report", "a report");
    assert.match(report.replies[0]!.text, /Turn 1 report[\s\S]*Great Power 7-/, "its own");
  });

  test("checkOrders: each line's verdict for either game, nothing stored", async (t) => {
    const { sed, judge, gdId, gdPlayers } = await twoGames(t);
    const classical = await judge.submissions.checkOrders(sed.players.italy, sed.gameId, {
      orders: ["A ven-tyr", "F nap-xyzzy"],
    });
    assert.equal(classical.phase, "S1901M", "the open phase");
    assert.deepEqual(
      classical.diagnostics.map((d) => [d.text, d.ok]),
      [
        ["A ven-tyr", true],
        ["F nap-xyzzy", false],
      ],
      "a verdict per line",
    );
    const global = await judge.submissions.checkOrders(gdPlayers[2]!, gdId, {
      power: "2",
      orders: ["VC 20 400", "MO 999 1"],
    });
    assert.equal(global.phase, "T1", "the open turn");
    assert.deepEqual(
      global.diagnostics.map((d) => d.ok),
      [true, false],
      "a verdict per command",
    );
    assert.ok(global.diagnostics[1]!.message, "with the reason");
    await assert.rejects(
      judge.submissions.checkOrders(gdPlayers[2]!, gdId, { power: "3", orders: ["VC 20 400"] }),
      { kind: "forbidden" },
      "only one's own power",
    );
    assert.deepEqual(
      (await judge.submissions.currentOrders(sed.gm, sed.gameId)).sets,
      [],
      "nothing stored",
    );
    assert.deepEqual(
      (await judge.submissions.currentOrders(sed.gm, gdId)).sets,
      [],
      "nothing stored",
    );
  });
});
