import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { adjudicateTurn } from "./adjudicate.ts";
import { percentIncrease, victoryConditions } from "./state.ts";
import { play, stateOf } from "./testing.ts";
import { worldMap } from "./world.ts";

describe("4.0 relations", () => {
  test("no war on the first turn", () => {
    const r = play({ turn: 1, units: { 3: ["F 7"] } }, { 3: ["DW 4"] });
    assert.equal(r.res(3, "DW 4").status, "rejected", "DW on turn 1");
    assert.equal(r.after.relations["3-4"], undefined, "still neutral");
  });

  test("an alliance needs both the same turn; one side fails", () => {
    const one = play({ units: { 3: ["F 7"] } }, { 3: ["DA 4"] });
    assert.equal(one.res(3, "DA 4").status, "failed", "one-sided DA fails");
    const both = play({ units: { 3: ["F 7"] } }, { 3: ["DA 4 10"], 4: ["DA 3"], 10: ["DA 3"] });
    assert.equal(both.after.relations["3-4"], "alliance", "3-4 allied");
    assert.equal(both.after.relations["3-10"], "alliance", "3-10 allied");
  });

  test("one side breaks an alliance or starts a war; ending a war needs both", () => {
    const r = play(
      { units: {}, relations: { "3-4": "alliance", "3-5": "war" } },
      { 3: ["DN 4 5"] },
    );
    assert.equal(r.after.relations["3-4"], undefined, "alliance broken");
    assert.equal(r.after.relations["3-5"], "war", "the war goes on");
    assert.match(r.res(3, "DN 4 5").reason ?? "", /both sides/, "partly: the war needs both");
    const peace = play({ units: {}, relations: { "3-5": "war" } }, { 3: ["DN 5"], 5: ["DN 3"] });
    assert.equal(peace.after.relations["3-5"], undefined, "peace");
    const war = play({ units: {} }, { 3: ["DW 5"] });
    assert.equal(war.after.relations["3-5"], "war", "one side starts a war");
  });

  test("allies cannot go to war without a turn of neutrality", () => {
    const r = play({ units: {}, relations: { "3-4": "alliance" } }, { 3: ["DN 4", "DW 4"] });
    assert.equal(r.after.relations["3-4"], undefined, "only neutral this turn");
    assert.equal(r.res(3, "DW 4").status, "failed", "DW refused");
  });

  test("war may be declared and the attack made the same turn", () => {
    const spec = { owners: { 16: 3 }, units: { 3: ["A 16"] } };
    const without = play(spec, { 3: ["MO 16 17"] });
    assert.match(
      without.res(3, "MO 16 17").reason ?? "",
      /neutral/,
      "neutral: rejected with the reason",
    );
    const r = play(spec, { 3: ["DW 4", "MO 16 17"] });
    assert.equal(r.after.owners[17], 3, "war and capture the same turn");
  });

  test("a declaration of war gives areas to the units standing in them", () => {
    const r = play(
      { units: { 3: ["A 17"] }, relations: { "3-4": "alliance" }, turn: 3 },
      { 4: ["DN 3"] },
    );
    assert.equal(r.after.owners[17], 4, "breaking an alliance changes nothing");
    const w = play({ units: { 3: ["A 17"] } }, { 4: ["DW 3"] });
    assert.equal(w.after.owners[17], 3, "the English army's area becomes English");
  });
});

describe("7.11 access", () => {
  const spec = { owners: { 16: 3 }, units: { 3: ["A 16"] }, relations: { "3-4": "alliance" } };

  test("an ally enters with access, without taking the area", () => {
    const no = play(spec, { 3: ["MO 16 17"] });
    assert.match(
      no.res(3, "MO 16 17").reason ?? "",
      /not granted you access/,
      "no access: rejected",
    );
    for (const ga of ["GA 3 17", "GA 3 all", "GA 3 0", "GA 3"]) {
      const r = play(spec, { 3: ["MO 16 17"], 4: [ga] });
      assert.deepEqual(r.at(17), { power: 3, kind: "army" }, `${ga}: England passes`);
      assert.equal(r.after.owners[17], 4, `${ga}: France still owns 17`);
    }
  });

  test("a grant fails if the alliance is broken the same turn", () => {
    const r = play(spec, { 3: ["MO 16 17"], 4: ["DN 3", "GA 3 all"] });
    assert.equal(r.res(4, "GA 3 all").status, "failed", "the grant fails");
    assert.equal(r.res(3, "MO 16 17").status, "rejected", "and the move is refused");
  });

  test("grants are for listed own areas only", () => {
    const r = play(spec, { 4: ["GA 3 17 20"] });
    assert.match(r.res(4, "GA 3 17 20").reason ?? "", /do not own 20/, "20 is not French");
  });
});

describe("7.5 call to arms", () => {
  const rel = { "3-4": "war", "3-5": "alliance" };

  test("an unanswered call breaks the alliance and costs 20%, regained 5% a turn", () => {
    const t3 = play({ turn: 3, units: { 3: ["F 7"] }, relations: rel }, { 3: ["CA 5 4"] });
    assert.equal(t3.after.calls.length, 1, "the call is pending");
    let s = t3.after;
    const before = percentIncrease(worldMap, s, 5);
    let r = adjudicateTurn(worldMap, s, {});
    assert.equal(r.after.relations["3-5"], undefined, "the alliance is broken");
    assert.deepEqual(r.after.penalties, [{ power: 5, percent: 20 }], "20% penalty");
    assert.ok(percentIncrease(worldMap, r.after, 5) < before, "the percentage suffers");
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      s = r.after;
      r = adjudicateTurn(worldMap, s, {});
      seen.push(r.after.penalties.find((p) => p.power === 5)?.percent ?? 0);
    }
    assert.deepEqual(seen, [15, 10, 5, 0], "15, 10, 5, then none");
  });

  test("declaring war answers; an ally of the enemy breaks first, then declares", () => {
    const t3 = play({ turn: 3, units: {}, relations: rel }, { 3: ["CA 5 4"] });
    const answered = adjudicateTurn(worldMap, t3.after, { 5: ["DW 4"] });
    assert.equal(answered.after.calls.length, 0, "answered");
    assert.equal(answered.after.penalties.length, 0, "no penalty");
    const t3b = play(
      { turn: 3, units: {}, relations: { ...rel, "4-5": "alliance" } },
      { 3: ["CA 5 4"] },
    );
    const broke = adjudicateTurn(worldMap, t3b.after, { 5: ["DN 4"] });
    assert.equal(broke.after.calls.length, 1, "still pending after breaking the alliance");
    const late = adjudicateTurn(worldMap, broke.after, {});
    assert.equal(late.after.penalties[0]?.percent, 20, "not declaring war next is a failure");
    const onTime = adjudicateTurn(worldMap, broke.after, { 5: ["DW 4"] });
    assert.equal(onTime.after.penalties.length, 0, "declaring war next answers");
  });

  test("CA needs an ally and an enemy", () => {
    const r = play({ turn: 3, units: {} }, { 3: ["CA 5 4"] });
    assert.match(r.res(3, "CA 5 4").reason ?? "", /not allied/, "rejected");
  });
});

describe("3.0 and 7.1-7.4, 7.10, 7.14, 7.18: supply, builds, upgrades, deficits", () => {
  test("builds at own empty centres of the right kind, within the surplus", () => {
    const r = play(
      { units: { 3: ["F 7", "A 4"] } },
      { 3: ["AA 5", "AF 3", "AS 1", "AS 6"], 4: ["AF 18"] },
    );
    assert.match(r.res(3, "AA 5").reason ?? "", /2-point/, "Liverpool is a 1-point centre");
    assert.equal(r.res(3, "AF 3").status, "ok", "7.3: AF 3");
    assert.match(
      r.res(3, "AS 1").reason ?? "",
      /surplus/,
      "no surplus left after AF (AS comes after AF)",
    );
    assert.match(r.res(3, "AS 6").reason ?? "", /not a supply centre/, "Yorkshire");
    assert.match(r.res(4, "AF 18").reason ?? "", /inland|surplus/, "Paris is inland");
  });

  test("a new unit cannot move in its first turn", () => {
    const r = play({ units: { 4: ["F 15"] } }, { 4: ["AA 18", "MO 18 17"] });
    assert.equal(r.res(4, "MO 18 17").status, "rejected", "the new army cannot move");
    assert.deepEqual(r.at(18), { power: 4, kind: "army" }, "it stays in 18");
  });

  test("UU upgrades a 1-point unit at a supply centre when there is a surplus", () => {
    const r = play({ units: { 3: ["F 7", "S 1"] } }, { 3: ["UU 1"] });
    assert.deepEqual(r.at(1), { power: 3, kind: "fleet" }, "the squadron becomes a fleet");
    const no = play({ units: { 3: ["F 7", "F 3", "A 5"] } }, { 3: ["AC 1"] });
    assert.equal(no.res(3, "AC 1").status, "rejected", "no surplus: no build");
  });

  test("deficits: RU and DU only while required", () => {
    const units = { 3: ["F 7", "F 3", "A 4", "C 2"] };
    const r = play({ units }, { 3: ["DU 7", "RU 2"] });
    assert.deepEqual(r.at(7), { power: 3, kind: "squadron" }, "DU 7");
    assert.match(r.res(3, "RU 2").reason ?? "", /unless/, "RU no longer required");
    const vol = play({ units: { 3: ["F 7"] } }, { 3: ["RU 7"] });
    assert.equal(vol.res(3, "RU 7").status, "rejected", "no voluntary removal");
  });

  test("the moderator meets an ignored deficit at random, reproducibly (FRU/FDU)", () => {
    const spec = { units: { 3: ["F 7", "F 3", "A 4", "A 2"] } };
    const a = play({ ...spec, seed: 5 }, {});
    const b = play({ ...spec, seed: 5 }, {});
    assert.deepEqual(a.after.units, b.after.units, "same seed, same choice");
    const pts = a.after.units.reduce(
      (s, u) => s + (u.kind === "army" || u.kind === "fleet" ? 2 : 1),
      0,
    );
    assert.equal(pts, 6, "the deficit is met exactly");
    assert.ok(
      a.outcomes.some((o) => o.mark === "FRU" || o.mark === "FDU"),
      "marked FRU or FDU",
    );
  });
});

describe("6.0 victory", () => {
  test("the votes are averaged; the game ends after that many turns", () => {
    const r = play(
      { turn: 1, units: {} },
      { 3: ["VC 10 300"], 4: ["VC 20 400"], 5: ["VC 30 500"] },
    );
    assert.deepEqual(victoryConditions(worldMap, r.after), { turns: 20, percent: 400 }, "averages");
    const late = play({ turn: 20, units: { 3: ["F 7"] }, votes: r.after.votes }, {});
    assert.ok(late.after.winners && late.after.winners.length > 0, "the game ends after turn 20");
    const mid = play({ turn: 19, units: {}, votes: r.after.votes }, {});
    assert.equal(mid.after.winners, undefined, "not before");
  });

  test("reaching the percentage ends the game; the highest ranked wins", () => {
    const votes = { 3: { turns: 40, percent: 300 } };
    const r = play({ turn: 5, units: {}, votes, initialVP: { 3: 4 } }, {});
    assert.deepEqual(r.after.winners, [3], "England, +350%, wins");
  });

  test("VC only on the first turn, within the ranges", () => {
    const r = play({ turn: 2, units: {} }, { 3: ["VC 20 400"], 4: ["VC 50 400"] });
    assert.equal(r.res(3, "VC 20 400").status, "rejected", "turn 2");
    assert.match(r.res(4, "VC 50 400").reason ?? "", /between 10 and 40/, "range");
  });

  test("the first state's initial victory points come from the map", () => {
    const s = stateOf({ turn: 1, units: {} });
    assert.equal(s.initialVP[3], 7 + 6 + 5, "England: 7 areas, 6 supply points, a capital");
  });
});

describe("7.17 spies", () => {
  test("spied areas are recorded; a map family's hook may refuse them", () => {
    const s = stateOf({ units: { 3: ["F 7"] } });
    const r = adjudicateTurn(worldMap, s, { 3: ["SP 148 90"] });
    assert.deepEqual(r.spies[3], [148, 90], "recorded");
    const hooked = adjudicateTurn(worldMap, s, { 3: ["SP 148 90"] }, undefined, {
      spy: (_p, areas, now) =>
        areas.some((a) => !now.units.some((u) => worldMap.adjacent(u.area, a)))
          ? "too far from what you know"
          : null,
    });
    assert.equal(hooked.results[0]!.status, "rejected", "refused by the hook");
    assert.equal(hooked.spies[3], undefined, "nothing spied");
  });
});
