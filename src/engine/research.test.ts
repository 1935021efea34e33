import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { getScenario } from "../variants/scenarios.ts";
import { legalMovementOrders, randomLegalMovementOrders } from "./legal.ts";
import { randomAdjustmentOrders, randomAdjustmentOrdersFromLists } from "./legal-adjustments.ts";
import { formatOrder } from "./orders.ts";
import { writePosition } from "./position-json.ts";
import { rng } from "./random.ts";
import { Game, randomLegalOrders, type StepResult } from "./research.ts";
import { type boardOf, type TypedOrder, typedOrder } from "./research-board.ts";
import { orderText } from "./research-parsed.ts";
import { DATC_RULES, HOUSE_RULES, type RuleOptions } from "./rules.ts";
import { selfPlayGame } from "./selfplay.ts";
import type { PowerId } from "./types.ts";

/**
 * A step's results as the contract would show them (the text as given aside): every field of
 * the step (phase, next, winner, events), the results and dislodged units written out.
 */
function shown(r: StepResult) {
  return {
    ...r,
    results: r.results.map((o) => ({
      power: o.power,
      order: o.order ? formatOrder(o.order) : null,
      result: o.result,
      reason: o.reason,
      explanation: o.explanation,
    })),
    dislodged: r.dislodged.map((d) => ({ ...d, retreats: [...d.retreats] })),
  };
}

/**
 * Plays one random game twice, once with typed orders and once with the same orders written
 * as text, comparing every phase: results, reasons, explanations, dislodged units, the next
 * position, centres, events, the winner.
 */
function bothPaths(scenarioId: string, rules: RuleOptions, seed: number, untilYear: number) {
  const scenario = getScenario("classical", scenarioId)!;
  const typed = Game.create(scenario, rules, seed);
  const text = Game.create(scenario, rules, seed);
  const board = typed.board;
  const r = rng(seed);
  let phases = 0;
  while (typed.winner === null && typed.phaseInfo.year <= untilYear) {
    const orders = randomLegalOrders(typed, r);
    const texts = new Map<PowerId, string[]>();
    for (const o of orders) {
      const power = o.kind === "waive" ? o.power : o.unit.power;
      texts.set(power, [...(texts.get(power) ?? []), formatOrder(o)]);
    }
    const a = typed.step(orders.map((o) => typedOrder(board, o)));
    const b = text.stepText(texts);
    assert.deepEqual(shown(a), shown(b), `${scenarioId} seed ${seed}: phase ${a.phase} differs`);
    assert.deepEqual(
      writePosition(scenario.variant, typed.position),
      writePosition(scenario.variant, text.position),
      `${scenarioId} seed ${seed}: the position after ${a.phase} differs`,
    );
    phases++;
  }
  return phases;
}

describe("the typed path and the text path", () => {
  test("give the same results in every phase of random games (seven players, DATC rules)", () => {
    let phases = 0;
    for (let seed = 1; seed <= 12; seed++) phases += bothPaths("7", DATC_RULES, seed, 1920);
    assert.ok(phases > 300, `only ${phases} phases were compared`);
  });

  test("give the same results under the house rules (summer and winter phases)", () => {
    let phases = 0;
    for (let seed = 1; seed <= 6; seed++) phases += bothPaths("7", HOUSE_RULES, seed, 1912);
    assert.ok(phases > 100, `only ${phases} phases were compared`);
  });

  test("give the same results with fewer players (unplayed powers, the two-player game)", () => {
    for (const id of ["4", "2"])
      for (let seed = 1; seed <= 3; seed++) bothPaths(id, DATC_RULES, seed, 1912);
  });

  test("self-play gives the same game through either path", () => {
    const scenario = getScenario("classical")!;
    for (const seed of [5, 6]) {
      const opts = { scenario, rules: DATC_RULES, seed, untilYear: 1915, keepRecord: false };
      const a = selfPlayGame({ ...opts, via: "typed" });
      const b = selfPlayGame({ ...opts, via: "text" });
      assert.equal(a.phases, b.phases, "the same number of phases");
      assert.deepEqual(
        writePosition(scenario.variant, a.final.position),
        writePosition(scenario.variant, b.final.position),
        "the same final position",
      );
    }
  });
});

/**
 * Plays a random game of classical for each seed, to the end of `untilYear`, handing `visit`
 * each phase before it is played.
 */
function eachRandomPhase(
  seeds: readonly number[],
  untilYear: number,
  visit: (game: Game, seed: number) => void,
): void {
  const scenario = getScenario("classical")!;
  for (const seed of seeds) {
    const game = Game.create(scenario, DATC_RULES, seed);
    const r = rng(seed);
    while (game.winner === null && game.phaseInfo.year <= untilYear) {
      visit(game, seed);
      game.stepOrders(randomLegalOrders(game, r));
    }
  }
}

test("a random legal movement order per unit is drawn as r.pick draws from the unit's list", () => {
  const { variant } = getScenario("classical")!;
  let compared = 0;
  eachRandomPhase([21, 22, 23], 1925, (game, seed) => {
    if (game.phaseInfo.type !== "M") return;
    const lists = legalMovementOrders(variant, game.position, DATC_RULES);
    const lazy = randomLegalMovementOrders(
      variant,
      game.position,
      DATC_RULES,
      rng(seed * 7 + game.index),
    );
    const pick = rng(seed * 7 + game.index);
    const full = game.position.units.map((u) => pick.pick(lists.get(u.province)!));
    assert.deepEqual(lazy, full, `seed ${seed}, ${game.phase}: the same orders drawn`);
    compared += full.length;
  });
  assert.ok(compared > 1000, `only ${compared} orders were compared`);
});

test("random adjustments are drawn as from the lists of legal adjustments", () => {
  const { variant } = getScenario("classical")!;
  let compared = 0;
  eachRandomPhase([31, 32, 33, 34], 1930, (game, seed) => {
    if (game.phaseInfo.type !== "A") return;
    for (const skip of [[], ["italy" as PowerId]]) {
      const a = randomAdjustmentOrders(variant, game.position, skip, rng(game.index));
      const b = randomAdjustmentOrdersFromLists(
        variant,
        game.position,
        DATC_RULES,
        skip,
        rng(game.index),
      );
      assert.deepEqual(a, b, `seed ${seed}, ${game.phase}: the same adjustments drawn`);
      compared += b.length;
    }
  });
  assert.ok(compared > 100, `only ${compared} adjustments were compared`);
});

describe("the research Game", () => {
  const scenario = getScenario("classical")!;
  const id = (board: ReturnType<typeof boardOf>, p: string) => board.provinceIndex(p);

  test("lists legal orders as typed values with integer ids", () => {
    const game = Game.create(scenario, DATC_RULES);
    const legal = game.legalOrders();
    assert.equal(legal.length, 22, "one choice per unit at the start");
    const b = game.board;
    const lon = legal.find((c) => c.unit === id(b, "lon"))!;
    assert.equal(b.powers[lon.power], "england", "London's fleet is English");
    const toNth = lon.orders.find((o) => o.kind === "move" && o.to === id(b, "nth"));
    assert.ok(toNth, "F lon - nth is legal");
    assert.equal(orderText(b, toNth), "F lon - nth", "and reads as F lon - nth");
    const row = (p: number) => [...b.armyTo.subarray(b.armyStart[p], b.armyStart[p + 1])];
    assert.ok(row(id(b, "par")).includes(id(b, "bur")), "the army adjacency is typed rows");
  });

  test("steps with typed orders and reports results and centres", () => {
    const game = Game.create(scenario, DATC_RULES);
    const b = game.board;
    const eng = b.powerIndex("england");
    const move = (from: string, to: string, type: "A" | "F"): TypedOrder => ({
      kind: "move",
      power: eng,
      unit: id(b, from),
      unitType: type,
      coast: 0,
      target: -1,
      targetType: null,
      to: id(b, to),
      toCoast: 0,
      viaConvoy: false,
    });
    const r = game.step([move("lon", "nth", "F"), move("lvp", "mos", "A")]);
    assert.equal(r.phase, "S1901M", "the phase played");
    assert.equal(r.next, "F1901M", "spring retreats are skipped");
    const lon = r.results.find((x) => x.order?.kind === "move" && x.order.unit.province === "lon")!;
    assert.equal(lon.result, "succeeds", "F lon - nth succeeds");
    const lvp = r.results.find((x) => x.power === "england" && x.result === "invalid")!;
    assert.match(lvp.reason ?? "", /not adjacent/, "an impossible move is invalid with a reason");
    assert.equal(game.centerCounts()[eng], 3, "England owns three centres");
    assert.equal(game.centers()[id(b, "lon")], eng, "London is English");
  });

  test("refuses malformed typed orders with a message saying what is wrong", () => {
    const game = Game.create(scenario, DATC_RULES);
    assert.throws(
      () =>
        game.step([
          {
            kind: "move",
            power: 0,
            unit: 999,
            unitType: "A",
            coast: 0,
            target: -1,
            targetType: null,
            to: 1,
            toCoast: 0,
            viaConvoy: false,
          },
        ]),
      /unit must be a province id from 0 to 74/,
    );
  });

  test("a clone plays on alone; a saved game loads and plays on the same", () => {
    const game = Game.create(scenario, DATC_RULES, 3);
    const r = rng(3);
    for (let i = 0; i < 6; i++) game.stepOrders(randomLegalOrders(game, r));
    const copy = game.clone();
    const saved = JSON.parse(JSON.stringify(game.save()));
    const loaded = Game.load(scenario, saved);
    const before = writePosition(scenario.variant, game.position);
    copy.stepOrders(randomLegalOrders(copy, rng(9)));
    assert.deepEqual(
      writePosition(scenario.variant, game.position),
      before,
      "the original is untouched",
    );
    assert.equal(loaded.phase, game.phase, "the loaded game is at the same phase");
    const a = game.stepOrders(randomLegalOrders(game, rng(11)));
    const b = loaded.stepOrders(randomLegalOrders(loaded, rng(11)));
    assert.deepEqual(shown(a), shown(b), "and plays the same");
  });
});
