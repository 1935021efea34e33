import assert from "node:assert/strict";
import { test } from "node:test";
import { clockedJudge, POWERS } from "../judge/testing.ts";
import { testStore } from "../store/testing.ts";
import { type Delivered, mailOverSmtp, until } from "./smtp-testing.ts";
import { addressOf, GAME_ADDRESS } from "./testing.ts";

/*
 * A house-rules game of three game years played entirely by mail over real SMTP on loopback:
 * sign-up by REGISTER, JOIN with the invitation code from the GM's CREATE, orders every
 * movement phase, white and grey press, a vote, one missed phase (the player keeps the seat;
 * the player and the GM are told at once, the GM again once the contact window has passed),
 * the GM's acts by mail (EXTEND; CORRECT of the last adjudication, seed 002 VIII(1); REFUSE of
 * a humorous proposal, IX(5); WARN and, a game year later, DRAW, IX(2) A; press reviewed by
 * the GM before it goes out, one message approved and one refused, X(1)); asserted on what
 * each player's and the GM's mailbox receives.
 */

const JUDGE = "judge@judge.test";
const GM = "gm@club.test";
const LETTER: Record<string, string> = {
  austria: "A",
  england: "E",
  france: "F",
  germany: "G",
  italy: "I",
  russia: "R",
  turkey: "T",
};

test("three game years by mail over SMTP: sign-up, orders, press, votes, a missed phase, the GM's acts", async (t) => {
  const ts = await testStore(t, "sqlite");
  if (!ts) return;
  const { clock, judge } = clockedJudge(ts.store);
  const { boxes, mail, client } = await mailOverSmtp(t, judge);

  /** Sends a mail and waits for the judge's answer to it (the last one to the sender). */
  const ask = async (from: string, subject: string, text = "", to = JUDGE) => {
    const before = boxes.got.length;
    await client.sendMail({ from, to, subject, text });
    return until(`the answer to ${subject}`, () =>
      boxes.got.slice(before).find((m) => m.to === from),
    );
  };
  const secretIn = (text: string) => /Your secret: (\S+)/.exec(text)?.[1] ?? "";

  const gmSecret = secretIn((await ask(GM, "REGISTER gamemaster")).text);
  assert.ok(gmSecret, "the GM's secret came back by mail");
  /** The GM's command by mail, their secret on its first line: the text of the judge's answer. */
  const gmAsks = async (subject: string, rest = "") =>
    (await ask(GM, subject, `Secret: ${gmSecret}${rest === "" ? "" : `\n${rest}`}`)).text;
  const created = await gmAsks(
    "CREATE SED houserules",
    `Name: Speed Europa\nAddress: ${GAME_ADDRESS}\nPress review: yes`,
  );
  const code = /player: (\S+)/.exec(created)?.[1];
  assert.ok(code, `the invitation code is in the GM's reply: ${created}`);
  const secrets: Record<string, string> = {};
  for (const p of POWERS) {
    secrets[p] = secretIn((await ask(addressOf(p), `REGISTER ${p}-player`)).text);
    const joined = await ask(addressOf(p), `JOIN ${code} ${p}`, `Secret: ${secrets[p]}`);
    assert.match(joined.text, new RegExp(`You joined Speed Europa as ${p}`), joined.text);
  }
  const gameId = (await judge.games.listGames())[0]!.id;

  /** Delivers what the judge has to say and returns the mails that arrived. */
  const deliver = async () => {
    const before = boxes.got.length;
    const n = await mail.notifier.tick();
    return until(`${n} mails`, () =>
      boxes.got.length >= before + n ? boxes.got.slice(before) : undefined,
    );
  };
  const started = await deliver();
  assert.deepEqual(
    started
      .filter((m) => /the game has started/.test(m.subject))
      .map((m) => m.to)
      .sort(),
    [...POWERS.map(addressOf), GM].sort(),
    "each player and the GM are told the game has started",
  );

  // hal registers, to take Turkey's seat when the GM replaces its player (F1903M).
  const HAL = "hal@players.test";
  const halSecret = secretIn((await ask(HAL, "REGISTER hal")).text);
  const from: Record<string, { address: string; secret: string }> = {};
  for (const p of POWERS) from[p] = { address: addressOf(p), secret: secrets[p]! };

  const all: Delivered[] = [];
  const silent = new Set(["S1902M:russia"]);
  const gmSays: Record<string, string> = {};
  for (;;) {
    let view = await judge.views.gameView(null, gameId);
    const phase = view.phase!;
    if (phase === "S1904M") break;
    if (phase === "S1902M") {
      // Nothing to remove: no build was made, no removal ever due; each refused with why.
      gmSays.removeBuilt = await gmAsks("REMOVE SED Germany BUILT", `Reason: too many units`);
      gmSays.removeNotRemoved = await gmAsks("REMOVE SED France NOT-REMOVED");
      // An older phase than the last adjudication: refused, the phase that can be named.
      gmSays.correctOld = await gmAsks(
        "CORRECT SED France S1901M",
        `Reason: late orders\nA par - bur`,
      );
      // France's orders for F1901M reached the GM in time, but not the judge as written: the
      // GM corrects the last adjudication, naming it, by mail (seed 002 VIII(1)).
      gmSays.correct = await gmAsks(
        "CORRECT SED France F1901M",
        `Reason: France's orders reached the GM before the deadline\nA par - bur\nA mar H\nF bre H`,
      );
      all.push(...(await deliver()));
      view = await judge.views.gameView(null, gameId);
    }
    if (phase.endsWith("M")) {
      const season = phase[0]!;
      const yy = phase.slice(3, 5);
      for (const p of POWERS) {
        if (silent.has(`${phase}:${p}`)) continue;
        const units = view.position.units[p] ?? [];
        const r = await ask(
          from[p]!.address,
          `SED ${yy}${season}${LETTER[p]}`,
          `Secret: ${from[p]!.secret}\n${units.map((u) => `${u} H`).join("\n")}\n`,
          GAME_ADDRESS,
        );
        assert.doesNotMatch(r.text, /refused|not accepted|error/i, `${p} ${phase}: ${r.text}`);
      }
    }
    if (phase === "S1901M") {
      // The GM's own voice: press by mail from the GM's registered address (signed as GM).
      gmSays.press = (
        await ask(
          GM,
          "SED PRESS",
          `Secret: ${gmSecret}\nTo: all\n\nWelcome to Speed Europa`,
          GAME_ADDRESS,
        )
      ).text;
      // The GM reviews press before it goes out (X(1), "Press review: yes" at CREATE): the
      // players' messages are held; the GM publishes France's and Austria's, refuses Italy's.
      gmSays.held = (
        await ask(
          addressOf("france"),
          "SED PRESS",
          `Secret: ${secrets.france}\nTo: all\n\nVive la France`,
          GAME_ADDRESS,
        )
      ).text;
      await ask(
        addressOf("austria"),
        "SED PRESS",
        `Secret: ${secrets.austria}\nTo: all\nKind: grey\n\nBeware the French`,
        GAME_ADDRESS,
      );
      await ask(
        addressOf("italy"),
        "SED PRESS",
        `Secret: ${secrets.italy}\nTo: England\n\nYour fleet is a rowing boat`,
        GAME_ADDRESS,
      );
      gmSays.approve = await gmAsks("APPROVE SED PRESS 1");
      await gmAsks("APPROVE SED PRESS 2");
      gmSays.refusePressNoReason = await gmAsks("REFUSE SED PRESS 3");
      gmSays.refusePress = await gmAsks("REFUSE SED PRESS 3", `Reason: insults are not published`);
    }
    if (phase === "F1901M") {
      await ask(
        addressOf("turkey"),
        "SED VOTE",
        `Secret: ${secrets.turkey}\npropose draw\nvote 1 yes`,
        GAME_ADDRESS,
      );
    }
    if (phase === "S1903M") {
      // A humorous proposal the GM will not put to the vote (IX(5)); two game years without a
      // centre changing hands: the GM warns that a draw may be declared (IX(2) A).
      await ask(
        addressOf("italy"),
        "SED VOTE",
        `Secret: ${secrets.italy}\npropose houserule: all press in verse`,
        GAME_ADDRESS,
      );
      gmSays.refuse = await gmAsks("REFUSE SED 2", `Reason: humorous, not put to the vote`);
      gmSays.warn = await gmAsks("WARN SED");
      all.push(...(await deliver()));
    }
    if (phase === "F1903M") {
      // A house-rule change (IX(3)): the GM and every player must agree. England proposes;
      // everybody votes yes by mail, the GM too, from the GM's registered address.
      await ask(
        addressOf("england"),
        "SED VOTE",
        `Secret: ${secrets.england}\npropose houserule: deadlines at noon UTC\nvote 3 yes`,
        GAME_ADDRESS,
      );
      for (const p of POWERS.filter((x) => x !== "england"))
        await ask(addressOf(p), "SED VOTE", `Secret: ${secrets[p]}\nvote 3 yes`, GAME_ADDRESS);
      gmSays.vote = (
        await ask(GM, "SED VOTE", `Secret: ${gmSecret}\nvote 3 yes`, GAME_ADDRESS)
      ).text;
      // Turkey sends early orders for the winter, then the GM gives its seat to hal: the early
      // orders are dropped (both told), hal is briefed and orders from then on.
      await ask(
        addressOf("turkey"),
        "SED 03WT",
        `Secret: ${secrets.turkey}\nbuild A con`,
        GAME_ADDRESS,
      );
      gmSays.replace = await gmAsks("REPLACE SED Turkey hal");
      from.turkey = { address: HAL, secret: halSecret };
      all.push(...(await deliver()));
    }
    if (phase === "F1902M") {
      const ext = await gmAsks("EXTEND SED 24");
      assert.match(ext, /deadline/i, `the GM's act by mail is answered: ${ext}`);
      all.push(...(await deliver()));
    }
    const v = await judge.views.gameView(null, gameId);
    // Half a day before the deadline, then past it: the contact window checks run too.
    clock.t = Date.parse(v.deadline!) - 12 * 3_600_000;
    await judge.adjudication.tick();
    clock.t = Date.parse(v.deadline!) + 1;
    assert.equal(await judge.adjudication.tick(), 1, `${phase} adjudicated`);
    all.push(...(await deliver()));
  }

  // A year after the warning, no centre having changed hands: the GM declares the draw.
  gmSays.draw = await gmAsks("DRAW SED");
  all.push(...(await deliver()));

  const everybody = [...POWERS.map(addressOf), GM].sort();
  // From F1903M, hal holds Turkey's seat and Turkey's former player is an observer.
  const lastly = [...POWERS.filter((p) => p !== "turkey").map(addressOf), HAL, GM].sort();
  const to = (who: string) => all.filter((m) => m.to === who);
  const results = (who: string) => to(who).filter((m) => m.subject.includes("results of"));
  for (const who of [...POWERS.map(addressOf), GM, HAL]) {
    const phases = results(who).map((m) => /\((\w+)\)/.exec(m.subject)?.[1]);
    for (const p of ["S1901M", "F1901M", "S1902M", "F1902M", "S1903M", "F1903M"]) {
      const seated = who === HAL ? p === "F1903M" : who !== addressOf("turkey") || p !== "F1903M";
      assert.equal(phases.includes(p), seated, `${who} gets the results of ${p}: ${seated}`);
    }
  }
  const spring01 = results(addressOf("england")).find((m) => m.subject.includes("(S1901M)"))!;
  assert.match(spring01.text, /Press from France:\n {4}Vive la France/, "white press, signed");
  assert.match(spring01.text, /Anonymous Press:\n {4}Beware the French/, "grey press");
  assert.doesNotMatch(
    spring01.text.slice(spring01.text.indexOf("Anonymous Press:")).split("\n\n")[0]!,
    /Austria/,
    "grey press names nobody",
  );
  const fall01 = results(addressOf("italy")).find((m) => m.subject.includes("(F1901M)"))!;
  assert.match(fall01.text, /Proposal 1 .* failed: 1 for, 6 against, 0 abstaining\./, "counts");

  // The missed phase: Russia and the GM told at once; Russia keeps the seat.
  const missed = all.filter((m) => m.subject.includes("no orders received from Russia"));
  assert.deepEqual(
    missed.map((m) => m.to).sort(),
    [addressOf("russia"), GM].sort(),
    "Russia and the GM, nobody else",
  );
  assert.match(missed.find((m) => m.to === addressOf("russia"))!.text, /You keep your seat\./);
  const spring02 = results(addressOf("france")).find((m) => m.subject.includes("(S1902M)"))!;
  assert.match(spring02.text, /No orders received from Russia: its units held\./, "published");
  // Russia ordered again in F1902M, within the window: the GM is not asked to replace.
  assert.equal(
    all.filter((m) => m.subject.includes("a replacement may be arranged")).length,
    0,
    "no replacement suggested for a player who came back",
  );
  const seats = (await judge.views.gameView(null, gameId)).seatList;
  assert.equal(seats.find((s) => s.name === "Russia")!.player, "russia-player", "kept");
  assert.equal(
    all.some((m) => /civil disorder; its seat is open/.test(m.text)),
    false,
    "no seat was emptied",
  );

  // The vote: everybody and the GM were asked to vote, and read the counts with the results.
  assert.deepEqual(
    all
      .filter((m) => m.subject.includes("proposal 1: A draw including all survivors"))
      .map((m) => m.to)
      .sort(),
    everybody,
    "the proposal goes to every player and the GM",
  );
  assert.match(
    all.find((m) => m.subject.includes("proposal 1:"))!.text,
    /Vote by mail: subject "SED VOTE", a body line "vote 1 yes"/,
  );
  for (const who of everybody) {
    const f01 = results(who).find((m) => /^SED: results of .*\(F1901M\)/.test(m.subject))!;
    assert.match(f01.text, /Proposal 1 .* failed: 1 for, 6 against/, `${who} reads the counts`);
  }

  // The correction: the GM's reply shows the orders as read; every player and the GM get the
  // corrected results, with the reason; France's army is where the correction put it.
  assert.match(
    gmSays.correct!,
    /F1901M, the corrected orders as read:\n {2}France:\n {4}A par - bur: succeeds/,
  );
  const corrected = all.filter((m) => m.subject.includes("corrected results of"));
  assert.deepEqual(corrected.map((m) => m.to).sort(), everybody, "one corrected results mail each");
  for (const m of corrected) {
    assert.match(m.subject, /\(F1901M\) \(replace the earlier results\)$/);
    assert.match(
      m.text,
      /^These corrected results of .*F1901M.* replace those mailed earlier: the GM corrected the adjudication \(France's orders reached the GM before the deadline\)/,
    );
    assert.match(m.text, /A par - bur/, `${m.to} reads France's corrected order`);
  }

  // The refused proposal: everybody told it was refused, the reason to the proposer alone.
  assert.match(gmSays.refuse!, /Proposal 2 of SED is refused: nobody votes on it/);
  const refused = all.filter((m) => m.subject.includes("proposal 2 refused"));
  assert.deepEqual(refused.map((m) => m.to).sort(), everybody, "one mail each, no more");
  for (const m of refused) {
    assert.match(m.text, /refused to put (your )?proposal 2 \("all press in verse"\) to the vote/);
    if (m.to === addressOf("italy"))
      assert.match(m.text, /The GM's reason: humorous, not put to the vote/, "the proposer");
    else assert.doesNotMatch(m.text, /humorous/, `${m.to} does not read the reason`);
  }

  // The GM's press: accepted by mail, signed as the GM's, to every player (and published).
  assert.match(
    gmSays.press!,
    /Your white press \(number \d+\) was sent to everybody .*\nIt is signed as the GM's\./,
  );
  const gmPress = all.filter((m) => /press from GM/.test(m.subject));
  assert.deepEqual(gmPress.map((m) => m.to).sort(), POWERS.map(addressOf).sort(), "every player");
  assert.match(gmPress[0]!.text, /From: GM\nTo: everybody[\s\S]*Welcome to Speed Europa/);
  // The GM is copied on the players' press (X(1)): the grey message with its author.
  const copies = to(GM).filter((m) => /press from/.test(m.subject));
  assert.equal(copies.length, 2, "France's and Austria's press, copied to the GM");
  assert.ok(
    copies.some((m) => /Your copy as the GM[\s\S]*From: Austria \(grey press\)/.test(m.text)),
  );

  // Press held for the GM's review (X(1)): the author told it is held, the GM told once per
  // message, the approved ones delivered as press, the refused one to nobody, its author told why.
  assert.match(gmSays.held!, /is held for the GM's review \(held message 1;/);
  const waiting = to(GM).filter((m) => /awaits your review/.test(m.subject));
  assert.deepEqual(
    waiting.map((m) => /press (\d+) awaits/.exec(m.subject)?.[1]),
    ["1", "2", "3"],
    "the GM is told of each held message once",
  );
  assert.match(
    waiting[2]!.text,
    /Italy sent press to England[\s\S]*rowing boat[\s\S]*"REFUSE SED PRESS 3"/,
  );
  assert.ok(
    all.every((m) => m.to === GM || !/awaits your review/.test(m.subject)),
    "only the GM hears of held press",
  );
  assert.match(gmSays.approve!, /Held press 1 of SED is published/);
  assert.match(gmSays.refusePressNoReason!, /NOT done.*no line "Reason: \.\.\."/s);
  assert.match(gmSays.refusePress!, /Held press 3 of SED is refused/);
  const vive = all.filter((m) => /press from France/.test(m.subject)).map((m) => m.to);
  assert.deepEqual(
    vive.sort(),
    [...POWERS.filter((p) => p !== "france").map(addressOf), GM].sort(),
    "the approved press reaches everybody else, once",
  );
  assert.ok(
    all.every((m) => !/rowing boat/.test(m.text) || m.to === GM || m.to === addressOf("italy")),
    "the refused press reaches nobody (England neither)",
  );
  const refusal = to(addressOf("italy")).filter((m) =>
    /refused to publish your press/.test(m.subject),
  );
  assert.equal(refusal.length, 1, "the author is told once");
  assert.match(
    refusal[0]!.text,
    /refused to publish your press to England of [\s\S]*The GM's reason: insults are not published[\s\S]*rowing boat/,
  );
  assert.ok(
    all.every((m) => m.to === addressOf("italy") || !/refused to publish/.test(m.subject)),
    "nobody else learns of the refusal",
  );
  assert.equal(
    to(addressOf("france")).filter((m) => /the GM published your press/.test(m.subject)).length,
    1,
    "France is told its press went out",
  );

  // REMOVE refused with the record's reason; nothing removed.
  assert.match(gmSays.removeBuilt!, /NOT done.*Germany has built no unit in this game/s);
  assert.match(gmSays.removeNotRemoved!, /NOT done.*no removal was ever due for France/s);
  assert.equal(
    all.filter((m) => /the GM removed/.test(m.subject)).length,
    0,
    "nobody told of a removal",
  );

  // CORRECT of an older phase refused, naming the phase that can be corrected.
  assert.match(
    gmSays.correctOld!,
    /NOT done.*S1901M cannot be corrected: another adjudication has been published since.*Only the last adjudication, F1901M, can be corrected.*What to send instead: "CORRECT SED France F1901M"/s,
  );
  assert.match(gmSays.correct!, /The last adjudication of SED, F1901M, is corrected/);

  // The house-rule change passed with the GM's vote (IX(3)): counts only, in the results.
  assert.match(gmSays.vote!, /your vote on proposal 3 is yes/);
  const fall03 = results(addressOf("italy")).find((m) => m.subject.includes("(F1903M)"))!;
  assert.match(
    fall03.text,
    /Proposal 3 \("deadlines at noon UTC"\) PASSED: 8 for, 0 against, 0 abstaining\./,
  );

  // The replacement: hal briefed in full, Turkey's former player told, early orders dropped.
  assert.match(gmSays.replace!, /Turkey's seat in SED is given to hal/);
  const brief = to(HAL).find((m) => /you now play Turkey/.test(m.subject))!;
  assert.ok(brief, "hal is briefed");
  assert.match(
    brief.text,
    /The GM gave you the seat of Turkey in game SED \("Speed Europa"\), which turkey-player held\./,
  );
  assert.match(brief.text, /Now: Fall 1903 movement \(F1903M\), orders due by \d{4}-/);
  assert.match(brief.text, /Turkey's units: [AF] \w+/);
  assert.match(brief.text, /Turkey's supply centres \(3\): /);
  assert.match(
    brief.text,
    /The former player's orders for later phases \(.*W1903R.*\) were dropped/,
  );
  assert.match(brief.text, new RegExp(`Your secret: ${halSecret}\\.`));
  assert.match(
    brief.text,
    /Orders go To sed@judge\.test, with the subject "SED 03FT" for Fall 1903 movement/,
  );
  const lost = to(addressOf("turkey")).find((m) => /you no longer hold Turkey/.test(m.subject))!;
  assert.match(lost.text, /The GM gave your seat, Turkey, in game SED to hal\./);
  assert.match(lost.text, /Your orders for later phases \(.*W1903R.*\) were dropped/);

  // The draw: warned in S1903M, declared in S1904M, each told by mail.
  assert.match(
    gmSays.warn!,
    /If no supply centre changes hands before S1904M \(1 game year\(s\)\)/,
  );
  const warned = all.filter((m) => /The GM warned that a draw of all survivors/.test(m.text));
  assert.deepEqual(warned.map((m) => m.to).sort(), everybody, "the warning, to everybody");
  assert.match(warned[0]!.text, /If none changes hands before Spring 1904/);
  assert.match(gmSays.draw!, /Game SED is over: you declared a draw of all survivors/);
  const over = all.filter((m) => m.subject.includes("the game is over"));
  assert.deepEqual(over.map((m) => m.to).sort(), lastly, "the end, to everybody seated");
  assert.match(over[0]!.text, /Result: a draw of Austria, England, .*, declared by the GM\./);
  assert.doesNotMatch(over[0]!.text.split("\n-- \n")[0]!, /[{}]|"kind"/, "no raw JSON");
  assert.match(over[0]!.text, /The GM declared a draw of all survivors \(Austria, England, France/);
  assert.equal((await judge.views.gameView(null, gameId)).status, "finished");
});
