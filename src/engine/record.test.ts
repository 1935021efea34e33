import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classical } from "../variants/classical/index.ts";
import { getScenario } from "../variants/scenarios.ts";
import { formatHistory } from "./history.ts";
import { legalMovementOrders } from "./legal.ts";
import { formatOrder } from "./orders.ts";
import {
  currentPosition,
  currentSeats,
  type GameRecord,
  newRecord,
  playPhase,
  RecordError,
  replayRecord,
} from "./record.ts";
import { DATC_RULES } from "./rules.ts";
import type { Scenario } from "./scenario.ts";
import { type PowerId, powerId, provinceId } from "./types.ts";

const orders = (o: Record<string, string[]>) =>
  new Map(Object.entries(o).map(([p, l]) => [powerId(p), l]));

function scenario(id?: string): Scenario {
  const s = getScenario("classical", id);
  assert.ok(s, `scenario ${id}`);
  return s;
}

function play(s: Scenario, record: GameRecord, ...phases: Record<string, string[]>[]): GameRecord {
  return phases.reduce((r, o) => playPhase(s, r, orders(o)), record);
}

describe("game records", () => {
  const s = scenario();
  const game = play(
    s,
    newRecord(s, DATC_RULES, 7),
    {
      france: ["A par - bur", "A mar S A par - bur"],
      germany: ["A mun - bur"],
      england: ["F lon - nth"],
    },
    { france: ["A bur - bel", "A mar - bur"], germany: ["A mun H", "A ber S A mun"] },
  );

  test("a record keeps orders as submitted, as understood with results, and each position", () => {
    assert.equal(game.phases.length, 2);
    const first = game.phases[0]!;
    assert.equal(first.phase, "S1901M");
    assert.deepEqual(first.orders.france, ["A par - bur", "A mar S A par - bur"]);
    assert.equal(first.results.france![0]!.result, "succeeds");
    assert.deepEqual(first.position.units.france, ["F bre", "A bur", "A mar"]);
    assert.equal(game.phases[1]!.phase, "F1901M");
    assert.equal(currentPosition(s, game).phase.season, "W");
  });

  test("powers with units and no orders in a movement phase are in civil disorder", () => {
    assert.deepEqual(game.phases[0]!.civilDisorder, ["austria", "italy", "russia", "turkey"]);
  });

  test("a record replays exactly, and a tampered one does not", () => {
    assert.deepEqual(replayRecord(s, game), { ok: true });
    const json = JSON.parse(JSON.stringify(game)) as GameRecord;
    (json.phases[0]!.orders as Record<string, string[]>).germany = ["A mun - ruh"];
    const check = replayRecord(s, json);
    assert.equal(check.ok, false);
    assert.ok(!check.ok && check.phase === "S1901M" && /differs/.test(check.problem));
  });

  test("the history reads like a judge's", () => {
    const text = formatHistory(classical, game);
    assert.match(text, /Spring 1901 movement \(S1901M\)/);
    assert.match(text, /A mun - bur +fails: bounced with A par - bur/);
    assert.match(text, /Civil disorder: Austria, Italy, Russia, Turkey/);
    assert.match(text, /Supply centres after F1901M:/);
  });
});

describe("player-count alternatives (seed 001 section 2)", () => {
  test("six players: Italy is played by nobody; its orders are refused; its units hold and are disbanded when dislodged", () => {
    const s = scenario("6");
    assert.equal(s.seats.length, 6);
    assert.throws(
      () => playPhase(s, newRecord(s, DATC_RULES, 1), orders({ italy: ["A ven - tyr"] })),
      RecordError,
    );
    assert.throws(
      () => playPhase(s, newRecord(s, DATC_RULES, 1), orders({ gondor: ["A ven - tyr"] })),
      /unknown power "gondor"/,
      "orders of a power the variant does not have are refused",
    );
    let r = play(s, newRecord(s, DATC_RULES, 1), { austria: ["A vie - tyr", "F tri - adr"] });
    assert.deepEqual(r.phases[0]!.civilDisorder?.includes("italy"), true);
    // Austria takes Venice with support; the Italian army, unordered, is disbanded in retreat.
    r = play(s, r, { austria: ["A tyr - ven", "F adr S A tyr - ven"] });
    const fall = r.phases[1]!;
    assert.ok(fall.dislodged?.italy, "A ven dislodged");
    const pos = currentPosition(s, r);
    if (pos.phase.type === "R") r = play(s, r, {});
    assert.ok(
      !currentPosition(s, r).units.some((u) => u.power === "italy" && u.province === "ven"),
    );
  });

  test("five, four and three players: the seats of the rulebook", () => {
    assert.deepEqual(
      scenario("5").seats.map((x) => x.name),
      ["Austria", "England", "France", "Russia", "Turkey"],
    );
    assert.deepEqual(
      scenario("4").seats.map((x) => x.name),
      ["England", "Austria/France", "Germany/Turkey", "Italy/Russia"],
    );
    assert.deepEqual(
      scenario("3").seats.map((x) => x.name),
      ["Russia", "England/France/Germany", "Austria/Italy/Turkey"],
    );
    assert.deepEqual(
      scenario("3b").seats.map((x) => x.name),
      ["England/Germany/Austria", "Russia/Italy", "France/Turkey"],
    );
  });

  test("four players: one seat's two powers still adjust separately", () => {
    const s = scenario("4");
    // France takes Spain and Portugal; Austria nothing: France builds, Austria does not.
    const r = play(
      s,
      newRecord(s, DATC_RULES, 1),
      { france: ["A mar - spa", "F bre - mao"], austria: ["A bud - ser"] },
      { france: ["F mao - por"], austria: ["A ser H"] },
    );
    assert.equal(r.phases[1]!.position.phase, "W1901A");
    assert.equal(r.phases[1]!.position.centers?.france?.length, 5);
    assert.equal(r.phases[1]!.position.centers?.austria?.length, 4);
    const w = play(s, r, {
      france: ["build A par", "build F bre", "build A mar"],
      austria: ["build A bud"],
    });
    const res = w.phases[2]!.results;
    assert.deepEqual(
      res.france!.map((x) => x.result),
      ["invalid", "succeeds", "succeeds"],
    );
    assert.deepEqual(
      res.austria!.map((x) => x.result),
      ["succeeds"],
    );
  });

  test("two players: 1914 start, Italy's land closed, a seeded coin toss gives Italy to one side from 1915", () => {
    const s = scenario("2");
    const start = newRecord(s, DATC_RULES, 42);
    assert.equal(start.start.phase, "S1914M");
    let r = play(s, start, { austria: ["A vie - tyr"], france: ["A mar - pie"] });
    const fr = r.phases[0]!.results.france![0]!;
    assert.equal(fr.result, "invalid");
    assert.match(fr.reason ?? "", /neutral territory/);
    r = play(s, r, { austria: ["A tyr - ven"] });
    assert.equal(r.phases[1]!.results.austria![0]!.result, "invalid");
    const toss = r.phases[1]!.events?.[0];
    assert.equal(toss?.kind, "coin-toss");
    const seats = currentSeats(r);
    const withItaly = seats.filter((x) => x.powers.includes(powerId("italy")));
    assert.equal(withItaly.length, 1);
    // Same seed, same toss; and the toss is in the replayed record.
    const again = play(s, play(s, start, { austria: ["A vie - tyr"], france: ["A mar - pie"] }), {
      austria: ["A tyr - ven"],
    });
    assert.deepEqual(again.phases[1]!.events, r.phases[1]!.events);
    assert.deepEqual(replayRecord(s, r), { ok: true });
    // From 1915 Italy's land is open and Italy is played by the winning seat.
    if (currentPosition(s, r).phase.type !== "M") r = play(s, r, {});
    assert.equal(currentPosition(s, r).phase.year, 1915);
    const moved = play(s, r, { austria: ["A tyr - ven"], italy: ["A ven - pie"] });
    assert.equal(moved.phases.at(-1)!.results.austria![0]!.result, "succeeds");
  });

  test("two players: no support into Italian territory, for a unit holding there or moving there", () => {
    const s = scenario("2");
    // Austria's army reaches Tyrolia, next to Venice, where Italy's neutral army holds.
    const r = play(s, newRecord(s, DATC_RULES, 3), { austria: ["A vie - tyr", "F tri - adr"] });
    const pos = currentPosition(s, r);
    assert.equal(pos.phase.season, "F");
    const after = play(s, r, {
      austria: ["A tyr S A ven", "F adr S A ven", "A bud - gal"],
      russia: ["A war S A bud - gal"],
    });
    const res = after.phases.at(-1)!.results.austria!;
    for (const i of [0, 1]) {
      assert.equal(res[i]!.result, "invalid", `${res[i]!.text}: ${JSON.stringify(res[i])}`);
      assert.match(
        res[i]!.reason ?? "",
        /cannot support into Venice: Venice is neutral territory/,
        `${res[i]!.text}: the reason names the closed province`,
      );
    }
    // A support anywhere else is still read as before.
    assert.equal(after.phases.at(-1)!.results.russia![0]!.result, "succeeds");
    // The legal orders (self-play, the order pad) offer no such support either.
    const legal = legalMovementOrders(s.variant, pos, DATC_RULES);
    const tyr = (legal.get(provinceId("tyr")) ?? []).map(formatOrder);
    assert.ok(tyr.includes("A tyr S A mun"), `A tyr may support Munich: ${tyr.join(", ")}`);
    assert.ok(
      !tyr.some((o) => o === "A tyr S A ven" || o.endsWith("- ven")),
      `no order of A tyr goes or supports into Venice: ${tyr.join(", ")}`,
    );
  });

  test("six and five players: a neutral unit that is dislodged is disbanded at once, no retreat phase waits", () => {
    const spring = { austria: ["A vie - tyr"] };
    const fall = { austria: ["F tri - ven", "A tyr S F tri - ven"] };
    for (const id of ["6", "5"]) {
      const s = scenario(id);
      const r = play(s, newRecord(s, DATC_RULES, 1), spring, fall);
      const last = r.phases.at(-1)!;
      assert.deepEqual(
        last.dislodged?.italy,
        [{ unit: "A ven", from: "tri", viaConvoy: false, retreats: [] }],
        `${id}: Italy's army is dislodged with nowhere to go`,
      );
      assert.equal(last.position.phase, "W1901A", `${id}: straight to the adjustments`);
      assert.deepEqual(last.position.dislodged, {}, `${id}: nobody waits to retreat`);
      assert.ok(!last.position.units.italy?.includes("A ven"), `${id}: the army is gone`);
      assert.ok(last.position.units.austria?.includes("F ven"), `${id}: Austria is in Venice`);
      const ven = last.results.italy?.find((x) => x.order === "A ven H");
      assert.match(
        ven?.explanation ?? "",
        /disbanded at once: nobody plays Italy/,
        `${id}: the result says why`,
      );
      assert.deepEqual(replayRecord(s, r), { ok: true }, `${id}: replays`);
    }
    // With seven players Italy is played: its dislodged army gets its retreat phase.
    const seven = play(scenario(), newRecord(scenario(), DATC_RULES, 1), spring, fall);
    assert.equal(seven.phases.at(-1)!.position.phase, "F1901R", "seven players: Italy retreats");
  });

  test("two players: a side with 24 units on the board wins", () => {
    const s = scenario("2");
    assert.ok(s.seatVictory);
    const pos = currentPosition(s, newRecord(s, DATC_RULES, 1));
    const many = {
      ...pos,
      units: classical.map.provinces
        .filter((p) => p.kind !== "sea")
        .slice(0, 24)
        .map((p) => ({
          power: "england" as PowerId,
          type: "A" as const,
          province: p.id,
          coast: null,
        })),
    };
    assert.equal(s.seatVictory(many, s.seats), 0);
    assert.equal(s.seatVictory(pos, s.seats), null);
  });
});
