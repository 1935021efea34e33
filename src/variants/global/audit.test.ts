import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { adjudicateTurn } from "./adjudicate.ts";
import { percentIncrease, victoryPoints } from "./state.ts";
import { play, stateOf } from "./testing.ts";
import { worldMap } from "./world.ts";

// An audit of the engine against seed 004, rule by rule: each test quotes the seed.

describe("audit: 5.2 retreats", () => {
  const fought = (attackers: number) =>
    play(
      {
        owners: { 42: 9 },
        units: { 1: ["C 41"], 5: ["C 29"], 9: ["C 42", "C 45"] },
        relations: { "1-9": "war", "5-9": "war" },
      },
      {
        1: attackers > 1 ? ["MO 41 42"] : [],
        5: attackers > 0 ? ["MO 29 42"] : [],
        9: ["MO 42 45"],
      },
    );

  test('"A unit can not retreat to a land or coastal area where a battle has taken place, even if the area is now empty": not even its own origin', () => {
    const r = fought(2);
    assert.deepEqual(r.battles, [42], "Austria and Germany fought over 42 and both went back");
    assert.equal(r.at(42), undefined, "42 is empty");
    assert.notEqual(r.unit(42).to, 42, "the Russian corps that bounced off 45 may not go back");
    assert.equal(r.unit(42).to, 56, "it retreats to 56, Russian and next to both 42 and 45");
    assert.equal(r.unit(42).mark, "retreat", "marked as a retreat");
  });

  test('"it attempts first to retreat to the area from which it moved" when no battle was there', () => {
    const calm = fought(0);
    assert.equal(calm.unit(42).to, 42, "nobody fought at 42: the corps goes back there");
    const taken = fought(1);
    assert.equal(taken.at(42)?.power, 5, "a lone German attack takes the empty 42");
    assert.equal(taken.unit(42).to, 56, "so the corps goes to 56, next to 42 and 45");
  });
});

describe("audit: 4.0 calls to arms", () => {
  const rel = { "3-4": "war", "3-5": "alliance" };

  test('"If they refuse, your alliance with them is broken and they will suffer a 20% loss": breaking the alliance with the caller is refusing', () => {
    const called = play({ turn: 3, units: {}, relations: rel }, { 3: ["CA 5 4"] });
    const r = adjudicateTurn(worldMap, called.after, { 5: ["DN 3"] });
    assert.equal(r.after.relations["3-5"], undefined, "the alliance is broken");
    assert.deepEqual(r.after.penalties, [{ power: 5, percent: 20 }], "Germany pays 20%");
    assert.equal(r.after.calls.length, 0, "the call is closed");
  });

  test("the caller breaking the alliance, or the war ending, lets the call lapse", () => {
    const called = play({ turn: 3, units: {}, relations: rel }, { 3: ["CA 5 4"] });
    const broken = adjudicateTurn(worldMap, called.after, { 3: ["DN 5"] });
    assert.deepEqual(broken.after.penalties, [], "no penalty when the caller broke it");
    assert.equal(broken.after.calls.length, 0, "lapsed");
    const peace = adjudicateTurn(worldMap, called.after, { 3: ["DN 4"], 4: ["DN 3"] });
    assert.deepEqual(peace.after.penalties, [], "no penalty once the war is over");
    assert.equal(peace.after.calls.length, 0, "lapsed with the war");
  });
});

describe("audit: 7.0 the sequence of execution", () => {
  // England owns 16 (8 supply points) and has 9 unit points: a deficit of one.
  const spec = {
    owners: { 16: 3 },
    units: { 3: ["A 16", "F 7", "F 3", "A 4", "C 6"], 4: ["A 17"] },
    relations: { "3-4": "war" },
  };

  test('"Commands are executed in the following sequence": DU (7.10) comes before MO (7.13), so the downgraded unit defends as a corps', () => {
    const held = play(spec, { 4: ["MO 17 16"] });
    assert.equal(held.res(4, "MO 17 16").status, "failed", "2 against 2: the army holds 16");
    assert.equal(held.at(16)?.power, 3, "16 stays English");
    const down = play(spec, { 3: ["DU 16"], 4: ["MO 17 16"] });
    assert.equal(down.res(3, "DU 16").status, "ok", "the downgrade is required and done");
    assert.deepEqual(down.at(16), { power: 4, kind: "army" }, "2 against 1: France takes 16");
    assert.equal(down.unit(16).kind, "corps", "the English unit fought as a corps");
  });

  test("RU (7.14) comes after MO (7.13): the unit removed still holds its area in the battle", () => {
    const r = play(spec, { 3: ["RU 16"], 4: ["MO 17 16"] });
    assert.equal(r.res(4, "MO 17 16").status, "failed", "the army in 16 held the attack off");
    assert.equal(r.res(3, "RU 16").status, "ok", "then it was removed");
    assert.equal(r.at(16), undefined, "16 is empty at the end");
    assert.equal(r.after.owners[16], 3, "and still English");
  });

  test('CA (7.5) comes before DW (7.9): "you must be ... at war with Great Power(2)" when the CA is executed', () => {
    const r = play(
      { turn: 3, units: {}, relations: { "3-5": "alliance" } },
      { 3: ["DW 4", "CA 5 4"] },
    );
    assert.equal(r.after.relations["3-4"], "war", "the war is declared");
    assert.match(r.res(3, "CA 5 4").reason ?? "", /not at war/, "but the call came first");
  });

  test("GA (7.11) comes after DN (7.8): a grant to an ally broken the same turn fails", () => {
    const r = play(
      { turn: 3, units: {}, relations: { "3-5": "alliance" } },
      { 3: ["GA 5 all"], 5: ["DN 3"] },
    );
    assert.equal(r.res(3, "GA 5 all").status, "failed", "the grant fails");
    assert.deepEqual(r.after.access, [], "no access");
  });
});

describe("audit: 6.0 victory points", () => {
  test('"Each land and sea area is worth 1 victory point, each 1 point supply centre 1, each 2 point supply centre 2, and each capital adds 5"', () => {
    const s = stateOf({ units: { 3: ["F 233", "F 7"] }, owners: { 17: 3 } });
    // England: 7 home areas (6 supply points, capital London) + Picardy (no centre) + the
    // English Channel occupied.
    assert.equal(victoryPoints(worldMap, s, 3), 8 + 6 + 5 + 1, "areas, supply, capital, sea");
    const lost = stateOf({ units: {}, owners: { 7: 4 } });
    const london = worldMap.area(7)!.supply;
    assert.equal(london, 2, "London is a 2-point centre");
    assert.equal(victoryPoints(worldMap, lost, 3), 6 + 6 - 2, "without London: 6 areas, 4 supply");
    assert.equal(
      victoryPoints(worldMap, lost, 4),
      victoryPoints(worldMap, stateOf({ units: {} }), 4) + 1 + 2 + 5,
      "France gains London's area, its supply point and the capital's 5",
    );
  });

  test('"if you had a VP of 400, and a 20% Call to Arms penalty, your real VP would be 320"', () => {
    const base = stateOf({ units: {}, initialVP: { 3: 9 } });
    assert.equal(percentIncrease(worldMap, base, 3), 100, "18 VP over 9 is +100%");
    const pen = stateOf({ units: {}, initialVP: { 3: 9 }, penalties: [{ power: 3, percent: 20 }] });
    assert.equal(percentIncrease(worldMap, pen, 3), 60, "18 x 0.8 = 14.4 VP over 9 is +60%");
  });
});

describe("audit: 4.0 and 7.7-7.9 relations", () => {
  test('"Wars and alliances can be declared only from the neutral position": DW at war and DA when allied fail', () => {
    const r = play(
      { units: {}, relations: { "3-4": "war", "3-5": "alliance" } },
      { 3: ["DW 4", "DA 5"], 5: ["DA 3"] },
    );
    assert.match(r.res(3, "DW 4").reason ?? "", /already at war/, "DW from war fails");
    assert.equal(r.res(3, "DW 4").status, "failed", "shown in brackets");
    assert.equal(r.res(3, "DA 5").status, "failed", "DA from alliance fails");
    assert.equal(r.after.relations["3-4"], "war", "still at war");
    assert.equal(r.after.relations["3-5"], "alliance", "still allied");
  });

  test("both sides declaring war the same turn is one war, both commands worked", () => {
    const r = play({ units: {} }, { 3: ["DW 4"], 4: ["DW 3"] });
    assert.equal(r.res(3, "DW 4").status, "ok", "England's DW");
    assert.equal(r.res(4, "DW 3").status, "ok", "France's DW");
    assert.equal(r.after.relations["3-4"], "war", "at war");
  });
});

describe("audit: 7.6 convoys", () => {
  test('"You may only convoy your land units with your own naval units", even an ally\'s', () => {
    const r = play(
      { units: { 3: ["A 7", "F 234"], 5: ["F 237"] }, relations: { "3-5": "alliance" } },
      { 3: ["CO 7 234 237 44"] },
    );
    assert.equal(r.res(3, "CO 7 234 237 44").status, "rejected", "the German fleet cannot carry");
    assert.match(r.res(3, "CO 7 234 237 44").reason ?? "", /no naval unit in/, "says why");
    assert.equal(r.unit(7).to, 7, "the army stays in London");
    const own = play({ units: { 3: ["A 7", "F 234", "F 237"] } }, { 3: ["CO 7 234 237 44"] });
    assert.deepEqual(own.at(44), { power: 3, kind: "army" }, "with its own fleets it lands");
  });
});
