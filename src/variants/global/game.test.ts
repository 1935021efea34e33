import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { GlobalMap } from "./map.ts";
import {
  newGlobalGame,
  parseOrderFile,
  playGlobalTurn,
  replayGlobalGame,
  selfPlayGame,
} from "./moderator.ts";
import { relationOf, supplyPoints, unitPointsOf } from "./state.ts";
import type { TurnResult } from "./types.ts";
import { DEFAULT_RULES, UNIT_POINTS } from "./types.ts";
import { worldMap } from "./world.ts";

/** What every adjudicated turn must satisfy. */
function checkTurn(r: TurnResult): string[] {
  const errors: string[] = [];
  const seen = new Set<number>();
  for (const u of r.after.units) {
    if (seen.has(u.area)) errors.push(`turn ${r.turn}: two units in ${u.area}`);
    seen.add(u.area);
    if (!GlobalMap.allowed(u.kind, worldMap.area(u.area)!.kind))
      errors.push(`turn ${r.turn}: a ${u.kind} in ${u.area}`);
  }
  for (const a of Object.keys(r.after.owners)) {
    if (worldMap.area(Number(a))!.kind === "sea") errors.push(`turn ${r.turn}: sea ${a} owned`);
  }
  for (const p of worldMap.powers) {
    const supply = supplyPoints(worldMap, r.before, p.id);
    if (unitPointsOf(r.after.units, p.id) > supply)
      errors.push(`turn ${r.turn}: ${p.name} over its supply`);
    for (const q of worldMap.powers) {
      const a = relationOf(r.before.relations, p.id, q.id);
      const b = relationOf(r.after.relations, p.id, q.id);
      if (p.id !== q.id && a !== b && a !== "neutral" && b !== "neutral")
        errors.push(`turn ${r.turn}: ${p.id}-${q.id} went from ${a} to ${b}`);
    }
  }
  for (const c of r.results) {
    if (c.status === "rejected" && !c.reason)
      errors.push(`turn ${r.turn}: ${c.text} without reason`);
  }
  return errors;
}

describe("self-play", () => {
  test("two whole random games end with a winner, every turn sound, reproducibly", () => {
    for (const seed of [1, 2]) {
      const errors: string[] = [];
      let turns = 0;
      let moves = 0;
      const end = selfPlayGame(worldMap, seed, 60, DEFAULT_RULES, (r) => {
        turns++;
        moves += r.results.filter((c) => c.command?.op === "MO" && c.status === "ok").length;
        errors.push(...checkTurn(r));
      });
      assert.deepEqual(errors, [], `seed ${seed}: invariants hold`);
      assert.ok(end.winners && end.winners.length > 0, `seed ${seed}: the game ends with a winner`);
      assert.ok(turns >= 10 && turns <= 40, `seed ${seed}: between 10 and 40 turns (${turns})`);
      assert.ok(moves > turns, `seed ${seed}: units really move (${moves})`);
      const again = selfPlayGame(worldMap, seed, 60, DEFAULT_RULES);
      assert.deepEqual(again, end, `seed ${seed}: reproducible`);
    }
  });

  test("the 5.5 convoy option plays a whole game too", () => {
    const end = selfPlayGame(worldMap, 3, 60, { convoyDisruption: "5.5" });
    assert.ok(end.winners, "ends");
  });
});

describe("a game from order files, with reports", () => {
  const turn1 = `
# turn 1
POWER 3
VC 20 400
DA 4
MO 7 233
MO 3 234
POWER 4
VC 30 450
DA 3
MO 16 221
MO 14 11
Germany:
VC 10 300
MO 29 42
MO 26 24
ME 3 Hello there, want to ally?
9-Russia
MO 45 42
`;
  const turn2 = `
POWER 3
MO 233 16
POWER 4
GA 3 all
POWER 5
DW 9
MO 29 42
SA 24 42
POWER 9
MO 45 42
`;
  const turn3 = `
POWER 5
AC 29
SP 148 90 91 92 245 7
`;

  test("three turns: relations, access, battles, builds, and what each report shows", () => {
    let game = newGlobalGame(worldMap, 11, DEFAULT_RULES);
    const t1 = playGlobalTurn(worldMap, game, parseOrderFile(worldMap, turn1));
    game = t1.game;
    assert.equal(t1.result.after.relations["3-4"], "alliance", "England and France allied");
    assert.ok(t1.result.battles.includes(42), "Germany and Russia fight over 42");
    assert.equal(t1.result.after.owners[42], undefined, "42 stays neutral");
    assert.match(
      t1.result.results.find((c) => c.text === "MO 14 11")!.reason ?? "",
      /neutral/,
      "France may not walk into Spain",
    );
    const eng = t1.reports[3]!;
    assert.match(eng, /Great Power 3-England/, "header");
    assert.match(eng, /Holdings: +7 land areas, 6 supply points/, "highlights");
    assert.match(eng, /AAAA/, "the alliance in the matrix");
    assert.match(eng, /Hello there, want to ally\?/, "the message arrives");
    assert.doesNotMatch(eng.split("MESSAGES")[1] ?? "", /Germany/, "without its sender");
    assert.doesNotMatch(eng, /148 Mexico/, "no report on far areas");
    assert.match(eng, /^233 English Channel .*F \*\*\*\*$/m, "its fleet's new area");
    assert.match(eng, /^ *=+$/m, "the double line");
    const rus = t1.reports[9]!;
    assert.match(rus, /\(MO 45 42\)/, "Russia's failed move in brackets");
    assert.match(rus, /are now allies/, "alliance headlines for everyone");
    assert.doesNotMatch(rus, /Hello there/, "Russia does not get England's message");

    const t2 = playGlobalTurn(worldMap, game, parseOrderFile(worldMap, turn2));
    game = t2.game;
    assert.deepEqual(
      t2.result.after.units.find((u) => u.area === 16),
      { area: 16, power: 3, kind: "fleet" },
      "England passes into Brittany with access",
    );
    assert.equal(t2.result.after.owners[16], 4, "Brittany stays French");
    assert.equal(t2.result.after.owners[42], 5, "Germany takes Poland, 2 to 1");
    assert.match(t2.reports[9]!, /5-Germany has declared war on 9-Russia/, "news of the war");
    assert.match(t2.reports[9]!, /WWWW/, "war in the matrix");

    const t3 = playGlobalTurn(worldMap, game, parseOrderFile(worldMap, turn3));
    game = t3.game;
    assert.equal(t3.result.results.find((c) => c.text === "AC 29")!.status, "ok", "a corps built");
    const ger = t3.reports[5]!;
    assert.match(ger, /new C/, "the report shows the new unit");
    assert.match(ger, /148 Mexico/, "and the spied areas");
    assert.match(ger, /Turn 3 report/, "turn 3");
    assert.equal(game.history.length, 3, "three turns recorded");
    assert.ok(replayGlobalGame(worldMap, game).ok, "the record replays exactly");
    assert.equal(
      t3.result.after.units
        .filter((u) => u.power === 5)
        .reduce((s, u) => s + UNIT_POINTS[u.kind], 0),
      7,
      "Germany's 7 points",
    );
  });

  test("order files say what is wrong", () => {
    assert.throws(
      () => parseOrderFile(worldMap, "MO 7 233"),
      /before any power heading/,
      "no heading",
    );
    assert.throws(() => parseOrderFile(worldMap, "POWER 12\nMO 1 2"), /unknown power/, "bad power");
  });
});
