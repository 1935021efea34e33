import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { GameRulesError } from "../../engine/game.ts";
import { discoveryOpeningReport, playDiscoveryJson } from "../discovery/host.ts";
import { discovery } from "../discovery/index.ts";
import { discoveryHosting, discoveryRules } from "../discovery/rules.ts";
import { adjudicateTurn } from "./adjudicate.ts";
import { global } from "./index.ts";
import { readGlobalPosition, readGlobalRules, writeTurnResult } from "./position.ts";
import { turnReport } from "./report.ts";
import { globalHosting, globalRules } from "./rules.ts";
import { worldMap } from "./world.ts";

/* Global Diplomacy and Age of Discovery through the one game interface (src/engine/game.ts). */

describe("Global Diplomacy game rules", () => {
  test("setup: turn 1, every one of the eleven powers must order; other counts refused", () => {
    const s = globalRules.setup(5);
    assert.deepEqual(globalRules.phase(s), { name: "T1", kind: "turn", index: 0 }, "turn 1");
    assert.equal(globalRules.mustOrder(s).length, 11, "eleven powers");
    assert.throws(() => globalRules.setup(5, 12), GameRulesError, "twelve players refused");
    assert.throws(() => globalRules.setup(5, 12), /played by 11 players, not 12/);
  });

  test("read: a verdict per command line (EMG commands), the lines kept as the set", () => {
    const s = globalRules.setup(5);
    const [good] = globalRules.random(s, "1", 3);
    assert.ok(good, "a random command to read");
    const r = globalRules.read(s, "1", `${good}\n\nXX 1 2`);
    assert.equal(r.verdicts.length, 2, "blank lines have no verdict");
    assert.equal(r.verdicts[0]?.ok, true, `${good} is accepted`);
    const bad = r.verdicts[1];
    assert.ok(bad && !bad.ok && bad.reason.length > 0, "XX is refused with a reason");
    assert.deepEqual(r.orders, [good, "XX 1 2"], "the set as written, blank lines dropped");
    assert.throws(() => globalRules.read(s, "12", "MO 1 2"), /no power "12"/, "no power 12");
  });

  test("resolve agrees with the contract's JSON path, and says who was silent", () => {
    const s = globalRules.setup(8);
    const sets = new Map<string, readonly string[]>();
    for (const p of ["1", "2", "3"]) sets.set(p, globalRules.random(s, p, 21));
    const r = globalRules.resolve(s, sets);
    assert.equal(r.phase, "T1", "turn 1 resolved");
    assert.equal(globalRules.phase(r.next).name, "T2", "turn 2 next");
    assert.deepEqual([...r.silent].sort(), ["10", "11", "4", "5", "6", "7", "8", "9"], "silent");
    const json = global.adjudicateJson({
      ...(globalRules.encode(s) as Record<string, unknown>),
      orders: Object.fromEntries(sets),
    });
    const { rules: _r, ...next } = globalRules.encode(r.next) as Record<string, unknown>;
    assert.deepEqual(next, json.next, "the same next position as `entente adjudicate`");
    assert.ok(r.results.length > 0, "results");
    assert.ok(
      r.results.every((x) => x.outcome === "succeeds" || x.reason),
      "every command that did not succeed says why",
    );
  });

  test("view: a player reads its own report and units; the GM every report and unit", () => {
    const s = globalRules.setup(2);
    const after = globalRules.resolve(s, new Map([["1", globalRules.random(s, "1", 4)]])).next;
    const mine = globalRules.view(after, { kind: "player", powers: ["1"] });
    assert.deepEqual([...mine.reports.keys()], ["1"], "only its own report");
    assert.ok(mine.units.length > 0 && mine.units.every((u) => u.power === 1), "only its units");
    const gm = globalRules.view(after, { kind: "gm" });
    assert.equal(gm.reports.size, 11, "the GM: every report");
    assert.equal(gm.units.length, after.game.units.length, "and every unit");
    const pub = globalRules.view(after, { kind: "public" });
    assert.equal(pub.units.length + pub.reports.size, 0, "the public: nothing hidden");
  });

  test("encode/decode: a stored game reads back; bad input says what is wrong", () => {
    const s = globalRules.setup(9);
    const back = globalRules.decode(JSON.parse(JSON.stringify(globalRules.encode(s))));
    assert.deepEqual(back.game, s.game, "the same state");
    assert.throws(() => globalRules.decode([]), /a position object/, "not an object");
    assert.throws(
      () => globalRules.decode({ ...(globalRules.encode(s) as object), turn: "x" }),
      GameRulesError,
      "a bad turn",
    );
  });

  test("board: the world's areas with their neighbours, for everybody", () => {
    const b = globalRules.board(globalRules.setup(1), { kind: "public" });
    assert.equal(b.areas.length, 250, "250 areas");
    assert.equal(b.powers.length, 11, "eleven powers");
    const a = b.areas[0]!;
    assert.ok(a.neighbours.length > 0, "adjacency");
  });
});

describe("Age of Discovery game rules", () => {
  test("setup for a player count; the range is appendix C's", () => {
    const s = discoveryRules.setup(3, 9);
    assert.equal(discoveryRules.mustOrder(s).length, 9, "nine players");
    assert.throws(() => discoveryRules.setup(3, 8), /played by 9 to 20 players, not 8/);
  });

  test("resolve agrees with the contract's JSON path (map and knowledge carried)", () => {
    const s = discoveryRules.setup(3, 9);
    const sets = new Map<string, readonly string[]>();
    for (const p of discoveryRules.mustOrder(s)) sets.set(p, discoveryRules.random(s, p, 5));
    const r = discoveryRules.resolve(s, sets);
    const json = discovery.adjudicateJson({
      ...(discoveryRules.encode(s) as Record<string, unknown>),
      orders: Object.fromEntries(sets),
    });
    const { rules: _r, ...next } = discoveryRules.encode(r.next) as Record<string, unknown>;
    assert.deepEqual(next, json.next, "the same next position, knowledge included");
    assert.deepEqual(r.silent, [], "nobody silent");
  });

  test("fog: a player is shown only the areas it knows; the GM the whole map", () => {
    const s = discoveryRules.setup(3, 9);
    const gm = discoveryRules.board(s, { kind: "gm" });
    const p1 = discoveryRules.board(s, { kind: "player", powers: ["1"] });
    assert.ok(p1.areas.length > 0 && p1.areas.length < gm.areas.length, "a part of the map");
    const shown = new Set(p1.areas.map((a) => a.id));
    assert.ok(
      p1.areas.every((a) => a.neighbours.every((n) => shown.has(n))),
      "no edge leads to an area the player does not know",
    );
    const back = discoveryRules.decode(JSON.parse(JSON.stringify(discoveryRules.encode(s))));
    assert.deepEqual(back.extra.known, s.extra.known, "knowledge survives the store");
  });
});

/*
 * What the judge keeps of a family game (src/judge/family.ts): the hosting's store JSON must
 * be, to the byte, what the position JSON path writes, so that stored games still open and
 * replay. The position path is the families' contract JSON (global's adjudicateTurn and
 * writeTurnResult, discovery's playDiscoveryJson), played from the JSON each turn.
 */
describe("family hosting: the judge's stored JSON", () => {
  const options = { convoyDisruption: "5.5" };

  test("Global Diplomacy: the start, each turn's result, position and reports", () => {
    let s = globalHosting.load(globalHosting.store(globalRules.setup(11)), options);
    let position: Record<string, unknown> = global.start(11);
    assert.equal(JSON.stringify(globalHosting.store(s)), JSON.stringify(position), "the start");
    assert.equal(globalHosting.storedTurn(s), null, "no turn before the first");
    for (let turn = 1; turn <= 3; turn++) {
      const sets = new Map<string, readonly string[]>();
      for (const p of globalRules.mayOrder(s)) sets.set(p, globalRules.random(s, p, turn * 7));
      const r = adjudicateTurn(
        worldMap,
        readGlobalPosition(worldMap, position),
        Object.fromEntries([...sets].map(([p, l]) => [Number(p), l])),
        readGlobalRules(options),
      );
      s = globalRules.resolve(s, sets).next;
      const json = writeTurnResult(r);
      assert.equal(JSON.stringify(globalHosting.storedTurn(s)), JSON.stringify(json), `T${turn}`);
      assert.equal(JSON.stringify(globalHosting.store(s)), JSON.stringify(json.next), "position");
      for (const p of ["1", "7"])
        assert.equal(globalHosting.report(s, p, "GD1"), turnReport(worldMap, r, Number(p), "GD1"));
      position = json.next as Record<string, unknown>;
      s = globalHosting.load(JSON.parse(JSON.stringify(position)), options);
      const gm = globalHosting.shown(s, { kind: "gm" });
      assert.equal(JSON.stringify(gm.units), JSON.stringify(position.units), "the GM: every unit");
      const owned = Object.entries(position.owners as Record<string, number>);
      assert.deepEqual(
        Object.values(gm.centers).flat().sort(),
        owned.map(([a]) => a).sort(),
        "the GM: every owned area",
      );
      const own = globalHosting.shown(s, { kind: "player", powers: ["3"] });
      assert.deepEqual(Object.keys(own.units), "3" in gm.units ? ["3"] : [], "a player: its own");
      assert.deepEqual(own.centers["3"], gm.centers["3"], "its own areas");
      assert.deepEqual(Object.keys(own.centers), "3" in gm.centers ? ["3"] : [], "no other's");
    }
  });

  test("the supply table: centres are areas with supply value, every power starts balanced, the others unknown to a player", () => {
    const s = globalRules.setup(1);
    const gm = globalHosting.shown(s, { kind: "gm" });
    for (const p of worldMap.powers) {
      const t = gm.tally[String(p.id)];
      assert.ok(t, `the GM knows ${p.name}`);
      assert.equal(t.due, 0, `${p.name} starts balanced (${JSON.stringify(t)})`);
      assert.equal(t.supplyPoints, t.unitPoints);
    }
    // England (3): seven areas owned, four of them supply centres (6 points), three units.
    assert.equal(gm.centers["3"]?.length, 7, "seven areas owned");
    assert.deepEqual(gm.tally["3"], {
      centres: 4,
      units: 3,
      supplyPoints: 6,
      unitPoints: 6,
      due: 0,
    });
    const own = globalHosting.shown(s, { kind: "player", powers: ["3"] });
    assert.deepEqual(own.tally["3"], gm.tally["3"], "a player knows its own supply");
    assert.deepEqual(
      Object.entries(own.tally)
        .filter(([, t]) => t === null)
        .map(([p]) => p)
        .sort((a, b) => Number(a) - Number(b)),
      ["1", "2", "4", "5", "6", "7", "8", "9", "10", "11"],
      "and none of the others': unknown, not 0",
    );
  });

  test("Age of Discovery: the start, each turn (spies, knowledge), the opening report", () => {
    let s = discoveryHosting.load(discoveryHosting.store(discoveryRules.setup(4, 9)), options);
    let position: Record<string, unknown> = discovery.start(4, 9);
    assert.equal(JSON.stringify(discoveryHosting.store(s)), JSON.stringify(position), "start");
    assert.equal(
      discoveryHosting.report(s, "2", "AD7"),
      discoveryOpeningReport(position, 2, "AD7"),
      "the opening report",
    );
    for (let turn = 1; turn <= 3; turn++) {
      const sets = new Map<string, readonly string[]>();
      for (const p of discoveryRules.mayOrder(s)) sets.set(p, discoveryRules.random(s, p, turn));
      const json = playDiscoveryJson(position, options, Object.fromEntries(sets), "AD7");
      s = discoveryRules.resolve(s, sets).next;
      assert.equal(JSON.stringify(discoveryHosting.storedTurn(s)), JSON.stringify(json.result));
      assert.equal(JSON.stringify(discoveryHosting.store(s)), JSON.stringify(json.next));
      for (const p of discoveryRules.powers(s))
        assert.equal(discoveryHosting.report(s, p.id, "AD7"), json.reports[p.id], `${p.id}`);
      position = json.next;
      s = discoveryHosting.load(JSON.parse(JSON.stringify(position)), options);
    }
  });

  test("options: checked, with what is right; seats per player count", () => {
    assert.deepEqual(globalHosting.readOptions(undefined), { convoyDisruption: "7.6" });
    assert.throws(() => globalHosting.readOptions(3), /rules of a Global Diplomacy game are an/);
    assert.throws(() => discoveryHosting.readOptions("x"), /rules of an Age of Discovery game/);
    assert.throws(
      () => discoveryHosting.readOptions({ convoyDisruption: "6" }),
      (e) => e instanceof GameRulesError && /must be "7.6" or "5.5"/.test(e.message),
    );
    assert.deepEqual(
      discoveryHosting.seats(9).map((x) => x.power),
      ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
    );
    assert.equal(globalHosting.seats(11).length, 11);
    assert.ok(discoveryHosting.moderatorMap && !globalHosting.moderatorMap, "a made map only");
  });
});
