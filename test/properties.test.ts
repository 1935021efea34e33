import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { adjudicate } from "../src/engine/adjudicate.ts";
import { checkInvariants } from "../src/engine/invariants.ts";
import { legalMovementOrders } from "../src/engine/legal.ts";
import { legalAdjustmentOrders } from "../src/engine/legal-adjustments.ts";
import { legalRetreatOrders } from "../src/engine/legal-retreats.ts";
import { formatOrder } from "../src/engine/orders.ts";
import { parseOrder } from "../src/engine/parse.ts";
import { rng } from "../src/engine/random.ts";
import type { GameState } from "../src/engine/record.ts";
import { type PhaseResult, plainResult } from "../src/engine/results.ts";
import { DATC_RULES } from "../src/engine/rules.ts";
import type { Scenario } from "../src/engine/scenario.ts";
import { randomOrders, selfPlayGame } from "../src/engine/selfplay.ts";
import type { Position, PowerId } from "../src/engine/types.ts";
import { getVariant } from "../src/variants/registry.ts";
import { getScenario } from "../src/variants/scenarios.ts";

/*
 * Properties over random reachable positions of every variant and random order sets, good
 * and bad: adjudication never throws, every position it produces keeps the invariants,
 * retreat options are consistent, and the same input always gives the same output.
 */

const SCENARIOS: Scenario[] = ["classical", "europe1935"].map((v) => {
  const s = getScenario(v);
  assert.ok(s, v);
  return s;
});

/** A position reached by `phases` phases of random play from the start. */
function reachable(scenario: Scenario, seed: number, phases: number): GameState {
  let reached: GameState | null = null;
  let n = 0;
  selfPlayGame({
    scenario,
    rules: DATC_RULES,
    seed,
    untilYear: scenario.variant.start.phase.year + Math.ceil(phases / 2),
    keepRecord: false,
    onPhase: (_before, played) => {
      if (n++ < phases) reached = played.state;
    },
  });
  return (
    reached ?? {
      position: scenario.variant.start,
      seats: scenario.seats,
      events: [],
      index: 0,
    }
  );
}

/** Every legal order of the position, as text, per power. */
function allLegalTexts(scenario: Scenario, pos: Position): Map<PowerId, string[]> {
  const v = scenario.variant;
  const out = new Map<PowerId, string[]>();
  const add = (p: PowerId, t: string) => out.set(p, [...(out.get(p) ?? []), t]);
  if (pos.phase.type === "M") {
    for (const [, list] of legalMovementOrders(v, pos, DATC_RULES))
      for (const o of list) add(o.unit.power, formatOrder(o));
  } else if (pos.phase.type === "R") {
    for (const [, list] of legalRetreatOrders(v, pos, DATC_RULES)) {
      for (const o of list) if (o.kind !== "waive") add(o.unit.power, formatOrder(o));
    }
  } else {
    for (const [p, { orders }] of legalAdjustmentOrders(v, pos, DATC_RULES))
      for (const o of orders) add(p, formatOrder(o));
  }
  return out;
}

const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "A par - bur",
    "F nth C A lon - bel",
    "build F stp",
    "remove par",
    "waive",
    "A ber S F kie - ber",
    "F spa - lyo via convoy",
  ),
);

/** An order set drawn from legal orders (many per unit: duplicates on purpose) and junk. */
const orderSets = (scenario: Scenario, pos: Position) => {
  const legal = allLegalTexts(scenario, pos);
  const powers = scenario.variant.powers.map((p) => p.id);
  return fc
    .array(
      fc.tuple(
        fc.constantFrom(...powers),
        fc.oneof({ weight: 4, arbitrary: fc.nat() }, { weight: 1, arbitrary: junk }),
      ),
      { maxLength: 60 },
    )
    .map((picks) => {
      const out = new Map<PowerId, string[]>();
      for (const [p, pick] of picks) {
        const options = legal.get(p) ?? [];
        const text = typeof pick === "number" ? options[pick % Math.max(options.length, 1)] : pick;
        if (text !== undefined) out.set(p, [...(out.get(p) ?? []), text]);
      }
      return out;
    });
};

for (const scenario of SCENARIOS) {
  const v = scenario.variant;

  test(`properties (${v.id}): adjudication never throws, keeps the invariants and is deterministic`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }).chain((seed) =>
          fc.integer({ min: 0, max: 40 }).chain((phases) => {
            const pos = reachable(scenario, seed, phases).position;
            return orderSets(scenario, pos).map((orders) => ({ pos, orders }));
          }),
        ),
        ({ pos, orders }) => {
          const a = adjudicate(v, pos, orders, DATC_RULES);
          assert.deepEqual(checkInvariants(v, a.next), [], "invariants");
          const entries = [...orders.values()].reduce((n, l) => n + l.length, 0);
          assert.ok(a.results.length >= entries, "an entry per order given");
          for (const r of a.results) {
            if (r.result !== "succeeds") assert.ok(r.reason && r.reason.length > 0, "a reason");
          }
          const b = adjudicate(v, pos, orders, DATC_RULES);
          // Every field, the words too (made when read: compared as plain data).
          const plain = (r: PhaseResult) => ({ ...r, results: r.results.map(plainResult) });
          assert.deepEqual(plain(b), plain(a), "same input, same output");
        },
      ),
      { numRuns: 60, seed: 20261121 },
    );
  });

  test(`properties (${v.id}): retreat options are empty, unoccupied, not contested, not the attacker's origin`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 40 }),
        (seed, phases) => {
          const state = reachable(scenario, seed, phases);
          if (state.position.phase.type !== "M") return;
          const orders = randomOrders(scenario, state, DATC_RULES, rng(seed));
          const res = adjudicate(v, state.position, orders, DATC_RULES);
          const occupied = new Set(res.next.units.map((u) => u.province as string));
          const contested = new Set(res.next.contested.map(String));
          for (const { unit, retreats } of res.dislodged) {
            for (const to of retreats) {
              assert.ok(!occupied.has(to.province), `${unit.province} -> ${to.province}: occupied`);
              assert.ok(
                !contested.has(to.province),
                `${unit.province} -> ${to.province}: contested`,
              );
              if (!unit.viaConvoy)
                assert.notEqual(to.province, unit.attackerFrom, "attacker's origin");
              assert.ok(v.map.canReach(unit.type, unit, to.province), "adjacent");
            }
            assert.ok(occupied.has(unit.province), "the dislodger stands where the unit was");
          }
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });
}

test("the order reader never throws, whatever the text, and bounds its work on huge input", () => {
  const map = getVariant("classical")!.map;
  const powers = getVariant("classical")!.powers;
  const real = [
    "A par - bur",
    "F stp/sc - bot",
    "A lvp S F nth - yor",
    "F nth C A lon - bel",
    "build F stp/nc",
    "St Petersburg (north coast) - Barents Sea",
  ];
  const mutated = fc
    .tuple(
      fc.constantFrom(...real),
      fc.array(fc.tuple(fc.nat(), fc.string({ maxLength: 3 })), { maxLength: 5 }),
    )
    .map(([s, edits]) =>
      edits.reduce(
        (t, [at, ins]) =>
          t.slice(0, at % (t.length + 1)) + ins + t.slice((at % (t.length + 1)) + 1),
        s,
      ),
    );
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.string({ unit: "binary", maxLength: 200 }),
        mutated,
      ),
      (text) => {
        const r = parseOrder(text, map, powers);
        if (!r.ok) {
          assert.ok(r.error.message.length > 0);
          assert.ok(
            0 <= r.error.start && r.error.start <= r.error.end && r.error.end <= text.length,
          );
        }
      },
    ),
    { numRuns: 3000, seed: 1 },
  );
  const huge = "A par - bur ".repeat(100_000);
  const t0 = performance.now();
  const r = parseOrder(huge, map, powers);
  assert.equal(r.ok, false);
  assert.ok(performance.now() - t0 < 500, "a megabyte of text is refused quickly");
});
