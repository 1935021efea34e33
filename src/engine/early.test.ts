import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classical } from "../variants/classical/index.ts";
import { adjudicate } from "./adjudicate.ts";
import { type EarlyOrderSet, earlyOrdersFor } from "./early.ts";
import { readPosition } from "./position-json.ts";
import { HOUSE_RULES } from "./rules.ts";
import { type Position, powerId } from "./types.ts";

/*
 * Seed 002 II(5): retreat and adjustment orders sent early, even years ahead, are kept and
 * used when their phase comes, if they are still valid then; the last set sent wins.
 */

const france = powerId("france");
const germany = powerId("germany");

const position = (json: Record<string, unknown>): Position =>
  readPosition({ variant: "classical", ...json }, classical);

// Winter 1914: France's army in Burgundy was dislodged from Munich; builds are due.
const W1914R = position({
  phase: "W1914R",
  units: { germany: ["A bur", "A ruh"], france: ["A par"] },
  dislodged: { france: [{ unit: "A bur", from: "mun" }] },
  centers: { germany: ["ber", "kie", "mun", "hol"], france: ["par", "mar", "bre"] },
});

describe("earlyOrdersFor", () => {
  test("fall 1914 retreat orders sent in 1901 are used in winter 1914, if still valid", () => {
    const sets: EarlyOrderSet[] = [
      // Sent in 1901 with the standard name of the phase (fall retreats).
      { power: france, phase: "F1914R", orders: ["A bur - gas", "build A mar"], received: 1 },
      { power: germany, phase: "W1914R", orders: ["build A mun", "A kie - den"], received: 2 },
      // For later phases: kept for then.
      { power: france, phase: "U1915R", orders: ["A gas - spa"], received: 3 },
      { power: france, phase: "W1920A", orders: ["build F bre"], received: 4 },
      // Past, or not a retreat or adjustment phase.
      { power: germany, phase: "W1913A", orders: ["build A ber"], received: 5 },
      { power: germany, phase: "S1915M", orders: ["A ber - kie"], received: 6 },
    ];
    const r = earlyOrdersFor(classical, W1914R, HOUSE_RULES, sets);
    assert.deepEqual(r.orders.get(france), ["A bur - gas", "build A mar"]);
    // Germany's "A kie - den" names no dislodged unit: not valid now, dropped with why.
    assert.deepEqual(r.orders.get(germany), ["build A mun"]);
    assert.equal(r.dropped.length, 1);
    assert.equal(r.dropped[0]!.text, "A kie - den");
    assert.deepEqual(
      r.later.map((s) => s.phase),
      ["U1915R", "W1920A"],
    );
    assert.deepEqual(
      r.unusable.map((u) => u.set.phase),
      ["W1913A", "S1915M"],
    );
    // The judge feeds them to the phase.
    const out = adjudicate(classical, W1914R, r.orders, HOUSE_RULES);
    const units = out.next.units.map((u) => `${u.power}:${u.type} ${u.province}`).sort();
    assert.deepEqual(units, [
      "france:A gas",
      "france:A mar",
      "france:A par",
      "germany:A bur",
      "germany:A mun",
      "germany:A ruh",
    ]);
  });

  test("the last set sent for a phase replaces earlier ones whole", () => {
    const sets: EarlyOrderSet[] = [
      { power: france, phase: "W1914R", orders: ["A bur - gas", "build A mar"], received: 1 },
      { power: france, phase: "F1914R", orders: ["A bur - pic"], received: 7 },
    ];
    const r = earlyOrdersFor(classical, W1914R, HOUSE_RULES, sets);
    assert.deepEqual(r.orders.get(france), ["A bur - pic"]);
    assert.equal(r.received.get(france), 7);
  });

  test("a retreat no longer possible is dropped: the province is now occupied", () => {
    const sets: EarlyOrderSet[] = [
      { power: france, phase: "W1914R", orders: ["A bur - par", "A bur - gas"], received: 1 },
    ];
    const r = earlyOrdersFor(classical, W1914R, HOUSE_RULES, sets);
    assert.deepEqual(r.orders.get(france), ["A bur - gas"]);
    assert.match(r.dropped[0]!.reason, /occupied/);
  });

  test("in a movement phase every set waits or is past", () => {
    const S1905M = position({ phase: "S1905M", units: { france: ["A par"] } });
    const sets: EarlyOrderSet[] = [
      { power: france, phase: "U1905R", orders: ["A par - bur"], received: 1 },
      { power: france, phase: "W1904A", orders: ["build A mar"], received: 2 },
    ];
    const r = earlyOrdersFor(classical, S1905M, HOUSE_RULES, sets);
    assert.equal(r.orders.size, 0);
    assert.deepEqual(
      r.later.map((s) => s.phase),
      ["U1905R"],
    );
    assert.deepEqual(
      r.unusable.map((u) => u.set.phase),
      ["W1904A"],
    );
  });

  test("summer retreats take spring retreat orders under either name", () => {
    const U1903R = position({
      phase: "U1903R",
      units: { germany: ["A bur"] },
      dislodged: { france: [{ unit: "A bur", from: "mun" }] },
    });
    const r = earlyOrdersFor(classical, U1903R, HOUSE_RULES, [
      { power: france, phase: "S1903R", orders: ["A bur - gas"], received: 1 },
    ]);
    assert.deepEqual(r.orders.get(france), ["A bur - gas"]);
  });
});
