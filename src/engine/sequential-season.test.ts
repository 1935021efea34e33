/**
 * Sequential movement (seed 003, docs/sequential.md) through the contract's JSON: simultaneous
 * seasons, the schedule's property over many seasons, the options, and whole games.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { adjudicateJson } from "../cli/adjudicate.ts";
import { getVariant } from "../variants/registry.ts";
import { getScenario } from "../variants/scenarios.ts";
import { adjudicate } from "./adjudicate.ts";
import { checkInvariants } from "./invariants.ts";
import { parseOrder } from "./parse.ts";
import { rng } from "./random.ts";
import { replayRecord } from "./record.ts";
import { DATC_RULES, type RuleOptions, readRules } from "./rules.ts";
import { selfPlayGame } from "./selfplay.ts";
import { board, entry, first, outcome, randomTexts, run, seq } from "./sequential.fixture.ts";
import { generatedSchedule, seasonPlan, sequentialIndex } from "./sequential-schedule.ts";
import { movementPositions } from "./testing.ts";
import type { PowerId } from "./types.ts";

describe("simultaneous seasons", () => {
  const units = {
    france: ["A mar", "A par", "A gas"],
    germany: ["A mun", "A ruh"],
    italy: ["A pie"],
  };
  const orders = {
    france: ["A mar - bur", "A par S A mar - bur", "A gas S A mar in bur"],
    germany: ["A mun - bur", "A ruh S A mun - bur"],
    italy: ["A pie S A mar"],
  };

  for (const schedule of ["simultaneous", { S1901: "simultaneous", F1901: first("france") }]) {
    test(`a season the GM makes simultaneous is resolved by the standard rules (${JSON.stringify(schedule).slice(0, 20)})`, () => {
      const r = seq(units, orders, schedule);
      assert.equal(outcome(r, "france", "A mar"), "fails");
      assert.equal(outcome(r, "germany", "A mun"), "fails");
      assert.ok(board(r).includes("france:A mar") && board(r).includes("germany:A mun"));
      const gas = entry(r, "france", "A gas");
      assert.equal(gas.result, "fails");
      assert.match(gas.reason ?? "", /nothing to look back on in a simultaneous season/);
      // Support between powers needs no contract when everything is simultaneous.
      assert.match(
        entry(r, "italy", "A pie").reason ?? "",
        /did not hold: it was ordered to move.*S1901 is a simultaneous season/,
      );
      assert.match(entry(r, "germany", "A ruh").explanation ?? "", /all orders resolved together/);
    });
  }

  test("outside sequential movement the retrospective form is not an order", () => {
    const r = run({ units, orders });
    const gas = entry(r, "france", "A gas");
    assert.equal(gas.result, "invalid");
    assert.match(gas.reason ?? "", /only with sequential movement/);
  });
});

describe("the schedule", () => {
  const powers = (n: number): PowerId[] => Array.from({ length: n }, (_, i) => `p${i}` as PowerId);

  test("every block of as many seasons as powers puts each power in each place once", () => {
    for (const n of [2, 3, 7, 9]) {
      for (const seed of [0, 1, 42, 20260101]) {
        const ps = powers(n);
        const blocks = 30;
        const all = Array.from({ length: n * blocks }, (_, k) => generatedSchedule(ps, seed, k));
        for (let b = 0; b < blocks; b++) {
          const block = all.slice(b * n, b * n + n);
          for (const row of block)
            assert.deepEqual([...row].sort(), [...ps].sort(), "a permutation");
          for (let place = 0; place < n; place++) {
            const at = block.map((row) => row[place]);
            assert.equal(
              new Set(at).size,
              n,
              `n=${n} seed=${seed} block ${b}: place ${place + 1} once each`,
            );
          }
          if (b > 0) {
            const prev = all.slice((b - 1) * n, b * n);
            for (const [r, row] of block.entries())
              assert.notDeepEqual(row, prev[r], `n=${n} seed=${seed} block ${b}: season ${r}`);
          }
        }
        // Deterministic.
        assert.deepEqual(generatedSchedule(ps, seed, 5 * n + 3), all[5 * n + 3]);
      }
    }
    assert.notDeepEqual(
      Array.from({ length: 7 }, (_, k) => generatedSchedule(powers(7), 1, k)),
      Array.from({ length: 7 }, (_, k) => generatedSchedule(powers(7), 2, k)),
      "the seed matters",
    );
  });

  test("seasons are counted from the variant's start; simultaneous seasons do not count", () => {
    const v = getVariant("classical")!;
    const rules = (extra: Record<string, unknown>): RuleOptions => {
      const r = readRules({ movement: "sequential", ...extra });
      assert.ok(r.ok);
      return r.rules;
    };
    const phase = (season: "S" | "F", year: number) => ({ season, year, type: "M" as const });
    const plain = rules({});
    assert.equal(sequentialIndex(v, phase("S", 1901), plain), 0);
    assert.equal(sequentialIndex(v, phase("F", 1904), plain), 7);
    const gm = rules({ schedule: { F1901: "simultaneous", s1903m: "simultaneous" } });
    assert.equal(sequentialIndex(v, phase("S", 1902), gm), 1);
    assert.equal(sequentialIndex(v, phase("F", 1904), gm), 5);
    assert.deepEqual(seasonPlan(v, phase("S", 1903), gm), { kind: "simultaneous" });
    // A generated season's plan is what the adjudication uses.
    const ids = v.powers.map((p) => p.id);
    const plan = seasonPlan(v, phase("F", 1904), rules({ scheduleSeed: 9 }));
    assert.deepEqual(plan, {
      kind: "sequential",
      order: generatedSchedule(ids, 9, 7),
      source: "generated",
    });
    const order = generatedSchedule(ids, 9, 7);
    const r = run({
      phase: "F1904M",
      units: Object.fromEntries(
        ids.map((p, k) => [
          p,
          [["A vie", "F lon", "A par", "A ber", "A rom", "A mos", "A con"][k]!],
        ]),
      ),
      orders: {},
      rules: { movement: "sequential", scheduleSeed: 9 },
    });
    for (const [k, p] of order.entries()) {
      const name = v.powers.find((x) => x.id === p)!.name;
      assert.match(
        r.orders[p]![0]!.explanation ?? "",
        new RegExp(`slot ${k + 1} of 7 \\(${name}'s orders\\)`),
      );
    }
  });
});

describe("options", () => {
  test("read and checked, with clear errors", () => {
    const ok = readRules({
      movement: "sequential",
      schedule: { s1901: first("france"), F1901M: "simultaneous" },
      contracts: [["Austria", "russia"]],
      scheduleSeed: 3,
    });
    assert.ok(ok.ok);
    assert.deepEqual(ok.rules.schedule, { S1901: first("france"), F1901: "simultaneous" });
    assert.deepEqual(ok.rules.contracts, [["austria", "russia"]]);
    assert.deepEqual(readRules({ movement: "simultaneous" }).ok, true);
    for (const [bad, msg] of [
      [{ movement: "sideways" }, /movement cannot be "sideways"/],
      [{ schedule: "sometimes" }, /list of powers/],
      [{ schedule: ["france", "france"] }, /names france twice/],
      [{ schedule: { X1901: "simultaneous" } }, /not a season/],
      [{ contracts: [["austria"]] }, /pairs of powers/],
      [{ contracts: [["austria", "austria"]] }, /between two powers/],
      [{ scheduleSeed: 1.5 }, /integer/],
    ] as const) {
      const r = readRules(bad);
      assert.ok(!r.ok, JSON.stringify(bad));
      assert.match(r.error, msg);
    }
    const err = (rules: unknown) => {
      const out = adjudicateJson(
        { phase: "S1901M", units: { france: ["A par"], germany: ["A mun"] }, orders: {}, rules },
        DATC_RULES,
      );
      assert.ok("error" in out, JSON.stringify(rules));
      return out.error;
    };
    assert.match(
      err({ movement: "sequential", schedule: ["france", "prussia"] }),
      /unknown power "prussia"/,
    );
    assert.match(err({ movement: "sequential", schedule: ["france"] }), /leaves out germany/);
    assert.match(
      err({ movement: "sequential", contracts: [["france", "gondor"]] }),
      /unknown power "gondor"/,
    );
    assert.match(err({ schedule: ["france", "germany"] }), /add "movement": "sequential"/);
  });

  test("the retrospective form reads and prints back", () => {
    const v = getVariant("classical")!;
    for (const text of [
      "A rum S A vie in gal",
      "Rumania supports Vienna in Galicia",
      "A Rum S A Vie in Gal",
    ]) {
      const p = parseOrder(text, v.map, v.powers);
      assert.ok(p.ok, text);
      assert.equal(p.order.kind, "support");
      assert.ok(p.order.kind === "support" && p.order.arrived === true);
    }
    const r = seq(
      { austria: ["A vie", "A rum"] },
      { austria: ["Rumania supports Vienna in Galicia", "A vie - gal"] },
      first("austria"),
    );
    assert.equal(entry(r, "austria", "Rumania").order, "A rum S A vie in gal");
    assert.equal(outcome(r, "austria", "Rumania"), "succeeds");
    // The supporting unit must be able to reach the province it supports into.
    const far = seq(
      { austria: ["A vie", "A ser"] },
      { austria: ["A ser S A vie in gal"] },
      first("austria"),
    );
    assert.equal(entry(far, "austria", "A ser").result, "invalid");
  });
});

describe("whole games", () => {
  const sequential: RuleOptions = {
    ...DATC_RULES,
    movement: "sequential",
    scheduleSeed: 5,
    schedule: { F1903: "simultaneous" },
  };

  test("random sequential games keep the invariants and replay exactly", () => {
    for (const id of ["classical", "europe1935"]) {
      const scenario = getScenario(id)!;
      for (const seed of [1, 2, 3]) {
        const g = selfPlayGame({
          scenario,
          rules: sequential,
          seed,
          untilYear: scenario.variant.start.phase.year + 6,
          keepRecord: true,
        });
        assert.deepEqual(g.problems, [], `${id} seed ${seed}`);
        assert.deepEqual(replayRecord(scenario, g.record!), { ok: true });
      }
    }
  });

  test("random orders with retrospective supports and contracts never throw and keep the invariants", () => {
    const scenario = getScenario("classical")!;
    const v = scenario.variant;
    const positions = movementPositions(scenario, 11, 1906);
    const ids = v.powers.map((p) => p.id);
    fc.assert(
      fc.property(
        fc.nat({ max: positions.length - 1 }),
        fc.nat(),
        fc.array(fc.tuple(fc.constantFrom(...ids), fc.constantFrom(...ids)), { maxLength: 4 }),
        fc.boolean(),
        (k, seed, pairs, simultaneous) => {
          const pos = positions[k]!;
          const r = rng(seed);
          const orders = randomTexts(v, pos, r);
          const rules: RuleOptions = {
            ...DATC_RULES,
            movement: "sequential",
            scheduleSeed: seed,
            contracts: pairs.filter(([a, b]) => a !== b),
            ...(simultaneous ? { schedule: "simultaneous" as const } : {}),
          };
          const a = adjudicate(v, pos, orders, rules);
          assert.deepEqual(checkInvariants(v, a.next), []);
          for (const res of a.results) {
            if (res.result !== "succeeds") assert.ok(res.reason, "a reason");
            if (res.result !== "invalid" && !simultaneous)
              assert.match(res.explanation, /slot \d of 7/, res.explanation);
          }
          assert.deepEqual(adjudicate(v, pos, orders, rules), a, "deterministic");
        },
      ),
      { numRuns: 150, seed: 3 },
    );
  });
});
