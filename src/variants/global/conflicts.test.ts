import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { play } from "./testing.ts";

// Section 5 of seed 004, example by example, on the authored world map.

describe("5.1 simple conflicts", () => {
  test("an army beats a corps for a neutral area; the loser goes back", () => {
    const r = play({ units: { 3: ["A 20"], 5: ["C 32"] } }, { 3: ["MO 20 19"], 5: ["MO 32 19"] });
    assert.deepEqual(r.at(19), { power: 3, kind: "army" }, "the army takes 19");
    assert.equal(r.after.owners[19], 3, "and owns it");
    assert.equal(r.unit(32).to, 32, "the corps retreats to 32");
    assert.equal(r.res(5, "MO 32 19").status, "failed", "its move failed");
  });

  test("a tie sends both back and the neutral area stays neutral", () => {
    const r = play({ units: { 3: ["C 20"], 5: ["C 32"] } }, { 3: ["MO 20 19"], 5: ["MO 32 19"] });
    assert.equal(r.at(19), undefined, "nobody in 19");
    assert.equal(r.after.owners[19], undefined, "19 still neutral");
    assert.equal(r.unit(20).to, 20, "back to 20");
    assert.equal(r.unit(32).to, 32, "back to 32");
    assert.deepEqual(r.battles, [19], "a battle took place at 19");
  });

  test("a tie against a stationary defender leaves the defender", () => {
    const r = play(
      { owners: { 16: 3 }, units: { 3: ["A 16"], 4: ["A 17"] }, relations: { "3-4": "war" } },
      { 3: ["MO 16 17"] },
    );
    assert.deepEqual(r.at(17), { power: 4, kind: "army" }, "France keeps 17");
    assert.equal(r.after.owners[17], 4, "and owns it");
    assert.equal(r.unit(16).to, 16, "England goes back");
  });

  test("head-to-head: the larger unit wins, equal units both go back", () => {
    const big = play(
      { owners: { 19: 5 }, units: { 3: ["A 20"], 5: ["C 19"] }, relations: { "3-5": "war" } },
      { 3: ["MO 20 19"], 5: ["MO 19 20"] },
    );
    assert.deepEqual(big.at(19), { power: 3, kind: "army" }, "the army wins 19");
    assert.notEqual(big.unit(19).to, 20, "the corps does not reach 20");
    const even = play(
      { owners: { 19: 5 }, units: { 3: ["A 20"], 5: ["A 19"] }, relations: { "3-5": "war" } },
      { 3: ["MO 20 19"], 5: ["MO 19 20"] },
    );
    assert.equal(even.unit(20).to, 20, "both back: 20");
    assert.equal(even.unit(19).to, 19, "both back: 19");
  });

  test("own units do not fight: a move into an own stationary unit fails", () => {
    const r = play(
      { units: { 11: ["A 139", "S 138"] }, owners: { 139: 11 } },
      { 11: ["MO 139 138"] },
    );
    assert.equal(r.unit(139).to, 139, "the army stays");
    assert.equal(r.unit(138).to, 138, "the squadron is not pushed out");
  });
});

describe("5.2 retreats", () => {
  test("tip: MO 139 138 and MO 143 139 make the army retreat to 143", () => {
    const r = play(
      { owners: { 139: 11, 143: 11 }, units: { 11: ["A 139", "F 143", "S 138"] } },
      { 11: ["MO 139 138", "MO 143 139"] },
    );
    assert.deepEqual(r.at(139), { power: 11, kind: "fleet" }, "the fleet is in 139");
    assert.deepEqual(r.at(143), { power: 11, kind: "army" }, "the army retreated to 143");
    assert.equal(r.unit(139).mark, "retreat", "marked as a retreat");
  });

  test("tip: an army with no place to retreat dies", () => {
    const r = play(
      { owners: { 139: 11, 143: 11 }, units: { 11: ["A 139", "S 143", "S 138", "S 209"] } },
      { 11: ["MO 139 138", "MO 209 139"] },
    );
    assert.equal(r.unit(139).to, null, "the army is destroyed");
    assert.equal(r.unit(139).mark, "dead", "marked DEAD");
    assert.deepEqual(r.at(139), { power: 11, kind: "squadron" }, "the squadron from 209 is in 139");
  });

  test("tip: MO 16 14 and MO 14 18 switch the armies when 18 holds", () => {
    const r = play({ units: { 4: ["A 16", "A 14", "A 18"] } }, { 4: ["MO 16 14", "MO 14 18"] });
    assert.equal(r.unit(16).to, 14, "16 moved to 14");
    assert.equal(r.unit(14).to, 16, "14 retreated to 16");
  });

  const iceland = (owners: Record<number, number>) =>
    play(
      {
        owners,
        units: { 3: ["S 236"], 5: ["S 8"], 9: ["F 59", "F 212"], 11: ["F 213"] },
        relations: { "5-9": "war" },
      },
      { 9: ["MO 59 236", "MO 212 8"], 11: ["MO 213 212"] },
    );

  test("two units of different powers whose only retreat is the same area both die", () => {
    const r = iceland({});
    assert.equal(r.unit(236).to, null, "the English squadron dies");
    assert.equal(r.unit(8).to, null, "the German squadron dies");
    assert.equal(r.at(232), undefined, "232 stays empty");
    assert.equal(r.after.owners[8], 9, "Russia takes Iceland");
  });

  test("with a second way out the units share nothing and both survive", () => {
    const r = iceland({ 62: 3 });
    assert.equal(r.unit(236).to, 62, "England retreats to its own Norway");
    assert.equal(r.unit(8).to, 232, "Germany takes the only sea left");
  });

  const battle = (austria: boolean) =>
    play(
      {
        owners: { 42: 9 },
        units: { 1: ["C 41"], 5: ["C 29", "A 27"], 9: ["C 45", "C 49", "C 56"] },
        relations: { "1-9": "war", "5-9": "war" },
      },
      { 1: austria ? ["MO 41 42"] : [], 5: ["MO 27 45", ...(austria ? ["MO 29 42"] : [])] },
    );

  test("no retreat into a land area where a battle took place", () => {
    const r = battle(true);
    assert.ok(r.battles.includes(42), "a battle at 42");
    assert.equal(r.unit(45).to, null, "the corps from 45 cannot retreat to 42 and dies");
    const calm = battle(false);
    assert.equal(calm.unit(45).to, 42, "without the battle it retreats to 42");
  });
});

describe("5.3 support", () => {
  const base = { owners: { 16: 3, 14: 3 }, relations: { "3-4": "war" } };

  test("5.31: MO 16 17 with SA 233 17 beats the French army, which retreats", () => {
    const r = play(
      { ...base, units: { 3: ["A 16", "S 233"], 4: ["A 17"] } },
      { 3: ["MO 16 17", "SA 233 17"] },
    );
    assert.deepEqual(r.at(17), { power: 3, kind: "army" }, "England in 17");
    assert.equal(r.after.owners[17], 3, "England owns 17");
    assert.equal(r.unit(17).to, 18, "the French army retreats to a friendly area");
  });

  test("5.32: SD 18 17 makes it a tie and France keeps 17", () => {
    const r = play(
      { ...base, units: { 3: ["A 16", "S 233"], 4: ["A 17", "C 18"] } },
      { 3: ["MO 16 17", "SA 233 17"], 4: ["SD 18 17"] },
    );
    assert.deepEqual(r.at(17), { power: 4, kind: "army" }, "France holds 17");
    assert.match(r.res(3, "MO 16 17").reason ?? "", /held \(3 to 3\)/, "3 to 3");
  });

  test("5.32 tip: a unit built this turn can be supported in defence", () => {
    const r = play(
      {
        owners: { 17: 3 },
        units: { 3: ["A 17", "S 233"], 4: ["S 221"] },
        relations: { "3-4": "war" },
      },
      { 3: ["MO 17 16", "SA 233 16"], 4: ["AA 16", "SD 221 16"] },
    );
    assert.equal(r.res(4, "AA 16").status, "ok", "the army is built");
    assert.deepEqual(r.at(16), { power: 4, kind: "army" }, "and holds 16 (3 to 3)");
  });

  test("SA for an ally needs the alliance, which may be made the same turn", () => {
    const spec = {
      owners: { 20: 5, 21: 3 },
      units: { 3: ["A 21"], 4: ["A 17"], 5: ["C 20"] },
      relations: { "3-4": "war", "4-5": "war" },
    };
    const alone = play(spec, { 3: ["MO 21 17"], 5: ["SA 20 17 3"] });
    assert.match(alone.res(5, "SA 20 17 3").reason ?? "", /allied/, "no alliance: rejected");
    assert.equal(alone.unit(21).to, 21, "England bounces");
    const allied = play(spec, { 3: ["MO 21 17", "DA 5"], 5: ["SA 20 17 3", "DA 3"] });
    assert.deepEqual(allied.at(17), { power: 3, kind: "army" }, "7.15: England takes Picardy");
  });

  test("supports need war with a third owner, and no support for neutrals", () => {
    const r = play(
      {
        owners: { 20: 5 },
        units: { 3: ["A 21"], 4: ["A 17"], 5: ["C 20"] },
        relations: { "3-4": "war", "3-5": "alliance" },
      },
      { 3: ["MO 21 17"], 5: ["SA 20 17 3"] },
    );
    assert.match(
      r.res(5, "SA 20 17 3").reason ?? "",
      /neutral/,
      "Germany is not at war with France",
    );
    const n = play({ units: { 3: ["C 20"], 5: ["C 19"] } }, { 3: ["SD 20 19"] });
    assert.match(n.res(3, "SD 20 19").reason ?? "", /not allied/, "no support for a neutral");
  });

  test("naval units never support inland areas; land units never seas", () => {
    const r = play({ units: { 3: ["S 233", "A 7"] } }, { 3: ["SA 233 18", "SD 7 233"] });
    assert.equal(r.res(3, "SA 233 18").status, "rejected", "a squadron cannot support Paris");
    assert.equal(r.res(3, "SD 7 233").status, "rejected", "an army cannot support the Channel");
  });

  test("only stationary units are supported in defence", () => {
    const r = play(
      { units: { 3: ["A 16", "S 233"] }, owners: { 16: 3, 14: 3 } },
      { 3: ["MO 16 14", "SD 233 16"] },
    );
    assert.match(r.res(3, "SD 233 16").reason ?? "", /moving/, "SD of a moving unit fails");
  });

  test("an owner pushes an ally's unit out of its own area by superior force", () => {
    const r = play(
      {
        units: { 5: ["A 24", "A 29"], 9: ["C 42"] },
        owners: { 42: 5 },
        relations: { "5-9": "alliance" },
      },
      { 5: ["MO 24 42"], 9: ["SD 42 42"] },
    );
    assert.deepEqual(r.at(42), { power: 5, kind: "army" }, "Germany pushes the corps out");
    assert.notEqual(r.unit(42).to, 42, "the Russian corps leaves");
  });
});

describe("5.4 cutting support", () => {
  const base = { owners: { 16: 3, 14: 3 }, relations: { "3-4": "war" } };

  test("MO 14 18 cuts the corps' SD 18 17 and the attack succeeds", () => {
    const r = play(
      { ...base, units: { 3: ["A 16", "S 233", "C 14"], 4: ["A 17", "C 18"] } },
      { 3: ["MO 16 17", "SA 233 17", "MO 14 18"], 4: ["SD 18 17"] },
    );
    assert.equal(r.res(4, "SD 18 17").status, "failed", "the support is cut");
    assert.deepEqual(r.at(17), { power: 3, kind: "army" }, "England takes 17");
    assert.equal(r.unit(17).to, 21, "the French army retreats to Burgundy");
    assert.equal(r.unit(14).to, 14, "the corps goes back to 14");
  });

  test("a 1-point unit cannot cut a 2-point unit's support unless supported", () => {
    const units = { 3: ["A 16", "S 233", "C 14", "C 22"], 4: ["A 17", "A 18"] };
    const weak = play(
      { ...base, units },
      { 3: ["MO 16 17", "SA 233 17", "MO 14 18"], 4: ["SD 18 17"] },
    );
    assert.equal(weak.res(4, "SD 18 17").status, "ok", "not cut by a corps");
    assert.deepEqual(weak.at(17), { power: 4, kind: "army" }, "France holds");
    const strong = play(
      { ...base, units },
      { 3: ["MO 16 17", "SA 233 17", "MO 14 18", "SA 22 18"], 4: ["SD 18 17"] },
    );
    assert.equal(strong.res(4, "SD 18 17").status, "failed", "cut by corps plus support");
    assert.deepEqual(strong.at(17), { power: 3, kind: "army" }, "England takes 17");
  });

  test("MO 234 233 cuts the squadron's support; moving it instead wins", () => {
    const units = { 3: ["A 16", "S 233"], 4: ["A 17", "S 234"] };
    const r = play({ ...base, units }, { 3: ["MO 16 17", "SA 233 17"], 4: ["MO 234 233"] });
    assert.equal(r.res(3, "SA 233 17").status, "failed", "cut");
    assert.deepEqual(r.at(17), { power: 4, kind: "army" }, "France holds 17");
    const alt = play({ ...base, units }, { 3: ["MO 233 17", "SA 16 17"], 4: ["MO 234 233"] });
    assert.deepEqual(alt.at(233), { power: 4, kind: "squadron" }, "France moves into 233");
    assert.deepEqual(alt.at(17), { power: 3, kind: "squadron" }, "England's squadron takes 17");
  });

  const baltic = (kind: "F" | "S") =>
    play(
      {
        owners: { 27: 9, 44: 5 },
        units: { 5: ["A 24", "A 25", "A 23"], 9: ["A 27", `${kind} 237`] },
        relations: { "5-9": "war" },
      },
      { 5: ["MO 24 27", "SD 23 25", "SA 25 27"], 9: ["MO 237 25"] },
    );

  test("a fleet at 237 breaks the support from 25; a squadron cannot", () => {
    const fleet = baltic("F");
    assert.equal(
      fleet.res(5, "SA 25 27").status,
      "failed",
      "SD 23 25 does not protect the support",
    );
    assert.deepEqual(fleet.at(27), { power: 9, kind: "army" }, "the attack fails");
    const sq = baltic("S");
    assert.equal(sq.res(5, "SA 25 27").status, "ok", "a squadron cannot cut an army's support");
    assert.deepEqual(sq.at(27), { power: 5, kind: "army" }, "the attack succeeds");
  });

  test("the squadron-at-235 tip: a lesser force with support beats both fleets", () => {
    const r = play(
      { units: { 3: ["F 233", "F 234"], 5: ["S 235", "F 61"] } },
      { 3: ["MO 234 235", "MO 233 234"], 5: ["MO 235 234", "SA 61 234"] },
    );
    assert.deepEqual(r.at(234), { power: 5, kind: "squadron" }, "the German squadron takes 234");
    assert.match(r.res(3, "MO 234 235").reason ?? "", /head-on.*3 to 2/, "first encounter 3 to 2");
    assert.match(r.res(3, "MO 233 234").reason ?? "", /3 to 2/, "second encounter 3 to 2");
    assert.equal(r.unit(233).to, 233, "the fleet from 233 retreats home");
    assert.equal(r.unit(234).to, 237, "the fleet from 234 retreats beside both areas");
  });
});

describe("5.5 and 7.6 convoys", () => {
  test("CO 7 234 237 44 lands the army in Sweden", () => {
    const r = play({ units: { 3: ["A 7", "F 234", "F 237"] } }, { 3: ["CO 7 234 237 44"] });
    assert.deepEqual(r.at(44), { power: 3, kind: "army" }, "the army is in 44");
    assert.equal(r.after.owners[44], 3, "England owns Sweden");
  });

  const italy = (fleet226: "F" | "S", ottoman: string[], rules?: "5.5") =>
    play(
      { units: { 6: ["A 31", "F 227", `${fleet226} 226`], 8: ["S 228"] } },
      { 6: ["CO 31 227 226 51"], 8: ottoman },
      rules ? { convoyDisruption: rules } : undefined,
    );

  test("CO 31 227 226 51: a squadron cannot carry the army", () => {
    assert.deepEqual(italy("F", []).at(51), { power: 6, kind: "army" }, "fleets carry it");
    const r = italy("S", []);
    assert.match(
      r.res(6, "CO 31 227 226 51").reason ?? "",
      /squadron/,
      "rejected for the squadron",
    );
    assert.equal(r.unit(31).to, 31, "the army stays at 31");
  });

  test("7.6 (default): any attack on a convoying unit disrupts; the army stays", () => {
    const r = italy("F", ["MO 228 226"]);
    assert.match(r.res(6, "CO 31 227 226 51").reason ?? "", /disrupted at 226/, "disrupted");
    assert.equal(r.unit(31).to, 31, "the army stays at 31");
  });

  test("5.5 (option): only an equal or stronger attack disrupts", () => {
    const r = italy("F", ["MO 228 226"], "5.5");
    assert.deepEqual(
      r.at(51),
      { power: 6, kind: "army" },
      "a squadron does not stop the fleet's convoy",
    );
  });

  const spain = (rules?: "5.5") =>
    play(
      { units: { 10: ["C 11", "F 221", "S 220", "S 219"], 5: ["S 218"] } },
      { 10: ["CO 11 221 220 219 180"], 5: ["MO 218 219"] },
      rules ? { convoyDisruption: rules } : undefined,
    );

  test("5.5's example: broken at 219, the corps lands beside 220 in a Spanish area", () => {
    const r = spain("5.5");
    assert.equal(r.unit(11).to, 9, "left in 9-Portugal, next to 220");
    const d = spain();
    assert.equal(d.unit(11).to, 11, "under 7.6 it stays at 11");
  });

  test("convoying units can do nothing else", () => {
    const r = play(
      { units: { 3: ["A 7", "F 234", "F 237"] } },
      { 3: ["CO 7 234 237 44", "MO 237 238"] },
    );
    assert.match(r.res(3, "MO 237 238").reason ?? "", /convoying/, "the fleet is convoying");
  });
});
