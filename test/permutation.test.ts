import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { adjudicateJson } from "../src/cli/adjudicate.ts";
import { adjudicate } from "../src/engine/adjudicate.ts";
import { rng } from "../src/engine/random.ts";
import type { GameState } from "../src/engine/record.ts";
import { DATC_RULES, type RuleOptions } from "../src/engine/rules.ts";
import { randomOrders, selfPlayGame } from "../src/engine/selfplay.ts";
import { biasedCases, canonical, permuted, scenario } from "./biased.ts";
import {
  groupOrders,
  groupUnits,
  readShared,
  type SharedOrder,
  type SharedUnit,
} from "./shared.ts";

/*
 * The order in which orders are listed never matters: the same orders, listed in any
 * order (the units of the position, the powers, each power's orders), give the same
 * results, reasons, explanations and next position. Positions are reached by self-play;
 * orders are legal and biased towards convoys, matching supports and head-to-head battles.
 */

const CASES: { variant: string; rules: RuleOptions; runs: number }[] = [
  { variant: "classical", rules: DATC_RULES, runs: 25 },
  { variant: "classical", rules: { ...DATC_RULES, convoyParadox: "all-hold" }, runs: 15 },
  { variant: "classical", rules: { ...DATC_RULES, convoyParadox: "alternative-c" }, runs: 15 },
  { variant: "europe1935", rules: DATC_RULES, runs: 10 },
];

for (const { variant, rules, runs } of CASES) {
  test(`the order of orders never matters (${variant}, convoyParadox ${rules.convoyParadox})`, () => {
    const sc = scenario(variant);
    fc.assert(
      fc.property(biasedCases(sc, rules), ({ position, orders, orderSeed }) => {
        const want = canonical(adjudicate(sc.variant, position, orders, rules));
        for (let k = 1; k <= 3; k++) {
          const p = permuted(position, orders, orderSeed + k);
          const got = canonical(adjudicate(sc.variant, p.pos, p.orders, rules));
          assert.deepEqual(got, want, `permutation ${k} gives the same outcome`);
        }
      }),
      { numRuns: runs, seed: 20261124 },
    );
  });
}

interface DatcCase {
  id: string;
  phase: { season: string; year: number; type: string };
  units: SharedUnit[];
  orders: SharedOrder[];
}

/** Arrays in a canonical order and object keys sorted: JSON that ignores listing order. */
function sortedJson(x: unknown): unknown {
  if (Array.isArray(x)) {
    return x.map(sortedJson).sort((a, b) => {
      const [p, q] = [JSON.stringify(a), JSON.stringify(b)];
      return p < q ? -1 : p > q ? 1 : 0;
    });
  }
  if (x && typeof x === "object") {
    return Object.fromEntries(
      Object.entries(x)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, sortedJson(v)]),
    );
  }
  return x;
}

test("the order of orders never matters in any DATC movement case, under each convoy-paradox rule", () => {
  const cases = readShared<DatcCase[]>("datc/datc.json").filter((c) => c.phase.type === "movement");
  let checked = 0;
  for (const c of cases) {
    const season = c.phase.season === "spring" ? "S" : "F";
    const units = groupUnits(c.units);
    const orders = groupOrders(c.orders, "norm");
    // A unit ordered twice keeps its orders' relative order (the duplicate-order rule).
    const unitOf = (t: string) => t.split(" ").slice(0, 2).join(" ");
    const fixed = new Set(
      Object.entries(orders)
        .filter(([, list]) => new Set(list.map(unitOf)).size < list.length)
        .map(([p]) => p),
    );
    for (const paradox of ["szykman", "all-hold", "alternative-c"]) {
      const input = (u: Record<string, string[]>, o: Record<string, string[]>) => ({
        variant: "classical",
        phase: `${season}${c.phase.year}M`,
        units: u,
        orders: o,
        rules: { profile: "datc", convoyParadox: paradox },
      });
      const want = sortedJson(adjudicateJson(input(units, orders), DATC_RULES));
      const r = rng(checked + 1);
      for (let k = 0; k < 3; k++) {
        const shuffled = <T>(xs: readonly T[]): T[] => {
          const out = xs.slice();
          for (let i = out.length - 1; i > 0; i--) {
            const j = r.int(i + 1);
            [out[i], out[j]] = [out[j]!, out[i]!];
          }
          return out;
        };
        const u = Object.fromEntries(
          shuffled(Object.entries(units)).map(([p, l]) => [p, shuffled(l)]),
        );
        const o = Object.fromEntries(
          shuffled(Object.entries(orders)).map(([p, l]) => [p, fixed.has(p) ? l : shuffled(l)]),
        );
        const got = sortedJson(adjudicateJson(input(u, o), DATC_RULES));
        assert.deepEqual(got, want, `DATC ${c.id} (${paradox}), permutation ${k}`);
      }
      checked++;
    }
  }
  assert.ok(cases.length > 100, "the DATC's movement cases are there");
  assert.equal(checked, cases.length * 3, "every movement case under three rules");
});

test("the order of orders never matters in retreat and adjustment phases either", () => {
  const sc = scenario("classical");
  let checked = 0;
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1_000_000 }), (seed) => {
      const states: GameState[] = [];
      selfPlayGame({
        scenario: sc,
        rules: DATC_RULES,
        seed,
        untilYear: 1906,
        keepRecord: false,
        onPhase: (before) => {
          if (before.position.phase.type !== "M") states.push(before);
        },
      });
      for (const [k, state] of states.entries()) {
        const orders = randomOrders(sc, state, DATC_RULES, rng(seed + k));
        const want = canonical(adjudicate(sc.variant, state.position, orders, DATC_RULES));
        const p = permuted(state.position, orders, seed + k);
        const pos = { ...p.pos, dislodged: [...p.pos.dislodged].reverse() };
        const got = canonical(adjudicate(sc.variant, pos, p.orders, DATC_RULES));
        assert.deepEqual(got, want, `${state.position.phase.season}${state.position.phase.year}`);
        checked++;
      }
    }),
    { numRuns: 6, seed: 20261126 },
  );
  assert.ok(checked > 10, `retreat and adjustment phases were checked (${checked})`);
});
