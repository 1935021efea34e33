import assert from "node:assert/strict";
import { test } from "node:test";
import { replayRecord } from "../engine/record.ts";
import { loadGame } from "../judge/game-data.ts";
import { setMailAddress } from "../judge/mail.ts";
import { GAME_ADDRESS, gameByMail, notifierOf, outboxMails, rawMail } from "./testing.ts";

/*
 * Seed 002 VIII(3): a unit an erroneous adjudication put where it should not be is relocated
 * to the province where it should stand, or disbanded, by the GM's tool (the API's
 * gm/relocate-unit, the mail command RELOCATE). The position holds one unit per province, so
 * the unit is named where it stands; the tool refuses a province it may not stand in or one
 * another unit holds (then it is to be disbanded). The record keeps the edit and replays; the
 * game goes on from the corrected board; every player is mailed the act.
 */

test("VIII(3): the GM relocates or disbands a misplaced unit; every player is told", async (t) => {
  const { g, gw } = await gameByMail(t);
  const { judge, clock, gm, gameId, players } = g;
  const notifier = notifierOf(judge);
  await notifier.tick();
  // Spring 1901: France's army goes to Burgundy, Germany's to the Ruhr.
  await judge.submissions.submitOrders(players.france, gameId, {
    orders: ["A par - bur"],
    final: true,
  });
  await judge.submissions.submitOrders(players.germany, gameId, {
    orders: ["A mun - ruh"],
    final: true,
  });
  clock.t = Date.parse((await judge.views.gameView(gm, gameId)).deadline!) + 1;
  assert.equal(await judge.adjudication.tick(), 1, "S1901M adjudicated");
  await notifier.tick();

  const relocate = (input: Parameters<typeof judge.units.relocateUnit>[2], by = gm) =>
    judge.units.relocateUnit(by, gameId, input);
  const reason = "the move to Burgundy should have bounced";
  await assert.rejects(
    relocate({ power: "france", unit: "A bur", to: "par", reason }, players.france),
    {
      kind: "forbidden",
    },
  );
  const refusals: [Parameters<typeof judge.units.relocateUnit>[2], RegExp][] = [
    [{ power: "france", unit: "A bur", to: "par", disband: true, reason }, /not both/],
    [{ power: "france", unit: "A bur", reason }, /say where the unit should stand/],
    [{ power: "narnia", unit: "A bur", to: "par", reason }, /unknown power "narnia"/],
    [
      { power: "france", unit: "A pic", to: "par", reason },
      /france has no unit "A pic"; its units: F bre, A bur, A mar/,
    ],
    [
      { power: "france", unit: "A bur", to: "eng", reason },
      /A bur cannot be put there: .*an army cannot stand in English Channel/,
    ],
    [
      { power: "france", unit: "F bre", to: "spa", reason },
      /a fleet in Spain needs its coast \(spa\/nc or spa\/sc\)/,
    ],
    [
      { power: "france", unit: "A bur", to: "ruh", reason },
      /another unit stands in ruh; if it rightly stands there, disband A bur instead/,
    ],
    [{ power: "france", unit: "A bur", to: "bur", reason }, /A bur already stands in bur/],
  ];
  for (const [input, message] of refusals)
    await assert.rejects(relocate(input), (e: Error) => {
      assert.match(e.message, message);
      return true;
    });
  assert.equal(
    (await loadGame(g.judge.store.db, gameId)).record.edits,
    undefined,
    "nothing changed",
  );

  // By mail: the GM's command, refused when incomplete, then done.
  const secret = (await setMailAddress(judge, gm, { address: "gm@club.test" })).secret;
  const send = async (subject: string, text: string) =>
    (await gw.receive(rawMail({ from: "gm@club.test", to: GAME_ADDRESS, subject, text })))
      .replies[0]!;
  const bad = await send("RELOCATE SED France", `Secret: ${secret}`);
  assert.match(bad.text, /NOT done.*no power, unit, or where it should stand/s);
  assert.match(bad.text, /"RELOCATE SED France A bur PAR"/, "and what to send");
  const occupied = await send("RELOCATE SED France A bur RUH", `Secret: ${secret}`);
  assert.match(occupied.text, /NOT done.*disband A bur instead/s);
  const done = await send("RELOCATE SED France A bur PAR", `Secret: ${secret}\nReason: ${reason}`);
  assert.match(
    done.text,
    /France's A bur now stands as A par on the board of SED \(seed 002 VIII\(3\); the move to Burgundy should have bounced\)/,
  );
  // The API: Germany's army in the Ruhr disbanded (it should have been).
  const disbanded = await relocate({
    power: "Germany",
    unit: "ruh",
    disband: true,
    reason: "it should have been disbanded",
  });
  assert.deepEqual(disbanded.relocated, { power: "germany", unit: "A ruh", to: null });

  const after = await loadGame(g.judge.store.db, gameId);
  assert.deepEqual([...after.record.phases.at(-1)!.position.units.france!].sort(), [
    "A mar",
    "A par",
    "F bre",
  ]);
  assert.deepEqual(after.record.phases.at(-1)!.position.units.germany, ["F kie", "A ber"]);
  assert.deepEqual(
    after.record.edits?.map((e) => [e.kind, e.power, e.unit, e.to ?? null, e.after]),
    [
      ["move-unit", "france", "A bur", "A par", 1],
      ["remove-unit", "germany", "A ruh", null, 1],
    ],
  );
  assert.deepEqual(replayRecord(after.scenario, after.record), { ok: true }, "the record replays");

  // Every player is mailed both acts, at once (no results come with them).
  await notifier.tick();
  const notices = await outboxMails(g.judge.store, "notice");
  assert.equal(notices.length, 16, "two notices to each of the seven players and the GM");
  assert.equal(new Set(notices.map((m) => m.to_addr)).size, 8);
  assert.ok(
    notices.some((m) =>
      /The GM put france's A bur where it should stand: A par \(the move to Burgundy should have bounced\), seed 002 VIII\(3\)\./.test(
        m.body,
      ),
    ),
  );
  assert.ok(
    notices.some((m) =>
      /The GM disbanded germany's A ruh, a unit an erroneous adjudication put where it should not be/.test(
        m.body,
      ),
    ),
  );
  const events = await judge.views.events(players.italy, gameId);
  assert.equal(events.filter((e) => e.kind === "unit_relocated").length, 2, "public events");

  // The game goes on from the corrected board: France's army moves from Paris again.
  await judge.submissions.submitOrders(players.france, gameId, {
    orders: ["A par - pic"],
    final: true,
  });
  clock.t = Date.parse((await judge.views.gameView(gm, gameId)).deadline!) + 1;
  assert.equal(await judge.adjudication.tick(), 1, "F1901M adjudicated");
  const fall = await loadGame(g.judge.store.db, gameId);
  assert.ok(
    fall.record.phases[1]!.position.units.france!.includes("A pic"),
    "A par moved to Picardy",
  );
  assert.deepEqual(
    replayRecord(fall.scenario, fall.record),
    { ok: true },
    "and the record replays",
  );
});
