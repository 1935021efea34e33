import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { readRules } from "../engine/rules.ts";
import { house, moves, type Orders, type Units } from "./houserules-testing.ts";
import { entry, quietFall, run, units } from "./testing.ts";

/*
 * The game master's house rules (seed 002) on adjustments and phases, clause by clause: builds
 * without a type, excess builds and removals, civil disorder removals, fleets built inland (V),
 * and the summer and winter phases (II(5)); each under the `houserules` profile and, where the
 * clause is a rule option, without it.
 */

describe("V Adjustments", () => {
  const winter = (u: Units, centers: Record<string, string[]>, orders: Orders, rules?: unknown) => {
    const r = readRules(rules ?? "houserules");
    assert.ok(r.ok);
    return run({ phase: "W1901A", units: u, centers, orders }, r.rules);
  };

  test("V(1) a build without a type: an army inland, a fleet where a coast is named, else nothing", () => {
    const r = winter(
      {},
      { russia: ["mos", "stp", "sev", "war"] },
      { russia: ["build mos", "build stp/nc", "build sev"] },
    );
    assert.deepEqual(
      r.orders.russia!.map((o) => o.result),
      ["succeeds", "succeeds", "invalid"],
    );
    assert.match(entry(r, "russia", 2).reason ?? "", /nothing is built/);
    assert.deepEqual(units(r), ["russia:A mos", "russia:F stp/nc"]);
    const d = winter({}, { russia: ["mos"] }, { russia: ["build mos"] }, "datc");
    assert.equal(entry(d, "russia", 0).result, "invalid");
    const own = winter(
      {},
      { russia: ["mos"] },
      { russia: ["build mos"] },
      {
        buildWithoutType: "infer",
      },
    );
    assert.deepEqual(units(own), ["russia:A mos"]);
  });

  test("V(2) excess builds and removals are taken from the bottom of the order set up", () => {
    const b = winter(
      { france: ["A mar"] },
      { france: ["par", "mar", "bre"] },
      { france: ["build A par", "build F bre", "build A par"] },
    );
    // Two builds: bottom up, A par (last line) and F bre; the first line fails.
    assert.deepEqual(units(b), ["france:A mar", "france:A par", "france:F bre"]);
    assert.equal(entry(b, "france", 0).result, "fails");
    const r = winter(
      { france: ["A par", "A mar", "A bur"] },
      { france: ["par", "mar"] },
      { france: ["remove A par", "remove A bur"] },
    );
    assert.deepEqual(units(r), ["france:A mar", "france:A par"]);
    const d = winter(
      { france: ["A par", "A mar", "A bur"] },
      { france: ["par", "mar"] },
      { france: ["remove A par", "remove A bur"] },
      "datc",
    );
    assert.deepEqual(units(d), ["france:A bur", "france:A mar"]);
    const own = winter(
      { france: ["A par", "A mar", "A bur"] },
      { france: ["par", "mar"] },
      { france: ["remove A par", "remove A bur"] },
      { excessAdjustments: "last" },
    );
    assert.deepEqual(units(own), units(r));
  });

  test("V(3) two builds in one centre: the first reading from the bottom up", () => {
    const orders = { france: ["build A mar", "build A par", "build F mar"] };
    const centers = { france: ["par", "mar", "bre"] };
    assert.deepEqual(units(winter({}, centers, orders)), ["france:A par", "france:F mar"]);
    assert.deepEqual(units(winter({}, centers, orders, "datc")), ["france:A mar", "france:A par"]);
    // On its own, with builds still taken top down.
    assert.deepEqual(units(winter({}, centers, orders, { multipleBuildsOneCentre: "last" })), [
      "france:A par",
      "france:F mar",
    ]);
  });

  test("V(4) civil disorder removals: farthest first, fleets before armies, then by name", () => {
    const r = winter(
      { russia: ["A mos", "A tyr", "F bal", "F nth"] },
      { russia: ["mos", "stp"] },
      {},
    );
    assert.deepEqual(units(r), ["russia:A mos", "russia:F nth"]);
    assert.match(r.orders.russia![0]!.explanation ?? "", /farthest from home/);
  });

  test("V(5) a fleet ordered in an inland centre is built as an army", () => {
    const r = winter({}, { russia: ["mos", "stp"] }, { russia: ["build F mos"] });
    assert.deepEqual(units(r), ["russia:A mos"]);
    const d = winter({}, { russia: ["mos", "stp"] }, { russia: ["build F mos"] }, "datc");
    assert.match(entry(d, "russia", 0).reason ?? "", /inland/);
    const own = winter(
      {},
      { russia: ["mos", "stp"] },
      { russia: ["build F mos"] },
      {
        fleetBuildInland: "army",
      },
    );
    assert.deepEqual(units(own), ["russia:A mos"]);
  });
});

describe("II(5) Summer and winter phases", () => {
  test("spring retreats are a summer phase; fall retreats and adjustments are one winter phase", () => {
    const spring = moves(
      { germany: ["A mun", "A ruh"], france: ["A bur"] },
      { germany: ["A mun - bur", "A ruh S A mun - bur"] },
    );
    assert.equal(spring.next.phase, "U1901R");
    assert.equal(
      moves(
        { germany: ["A mun", "A ruh"], france: ["A bur"] },
        { germany: ["A mun - bur", "A ruh S A mun - bur"] },
        "datc",
      ).next.phase,
      "S1901R",
    );
    const summer = house({ ...spring.next, orders: { france: ["A bur - par"] } });
    assert.equal(summer.next.phase, "F1901M");
    const fall = house({
      phase: "F1901M",
      units: { germany: ["A mun", "A ruh", "A kie"], france: ["A bur", "A par"] },
      centers: { germany: ["ber", "kie", "mun"], france: ["bre", "mar", "par"] },
      orders: { germany: ["A mun - bur", "A ruh S A mun - bur", "A kie - hol"] },
    });
    assert.equal(fall.next.phase, "W1901R");
    // Retreats first, then centres change hands, then the adjustments on the board that leaves.
    const w = house({
      ...fall.next,
      orders: {
        germany: ["build A mun", "build F kie"],
        france: ["A bur - gas", "build A mar"],
      },
    });
    assert.equal(w.phase, "W1901R");
    assert.equal(w.next.phase, "S1902M");
    assert.deepEqual(units(w), [
      "france:A gas",
      "france:A mar",
      "france:A par",
      "germany:A bur",
      "germany:A hol",
      "germany:A ruh",
      "germany:F kie",
    ]);
    assert.deepEqual(
      w.orders.germany!.map((o) => o.result),
      ["fails", "succeeds"],
      "one build (Holland taken): the bottom one",
    );
    assert.deepEqual(w.next.centers?.germany, ["ber", "hol", "kie", "mun"]);
  });

  test("the winter phase counts adjustments after the retreats have changed centres", () => {
    // Austria's army dislodged from Serbia retreats into Greece (a centre) or Albania (none);
    // a removal ordered in the same phase is needed only in the second case.
    const winter = (to: string) =>
      house({
        phase: "W1901R",
        units: { turkey: ["A ser"], austria: ["A vie", "A bud"] },
        dislodged: { austria: [{ unit: "A ser", from: "bul" }] },
        centers: { austria: ["vie", "bud"], turkey: ["con", "ank", "smy", "bul"] },
        orders: { austria: [`A ser - ${to}`, "remove A vie"] },
      });
    const gre = winter("gre");
    assert.deepEqual(
      gre.orders.austria!.map((o) => o.result),
      ["succeeds", "fails"],
    );
    assert.match(entry(gre, "austria", 1).reason ?? "", /no removals are due/);
    assert.deepEqual(gre.next.centers?.austria, ["bud", "gre", "vie"]);
    const alb = winter("alb");
    assert.deepEqual(
      alb.orders.austria!.map((o) => o.result),
      ["succeeds", "succeeds"],
    );
    assert.deepEqual(
      units(alb).filter((u) => u.startsWith("austria")),
      ["austria:A alb", "austria:A bud"],
    );
  });

  test("phases that need no orders are skipped", () => {
    const r = house(quietFall);
    assert.equal(r.next.phase, "S1902M");
  });

  test("the options on their own", () => {
    const r = moves(
      { germany: ["A mun", "A ruh"], france: ["A bur"] },
      { germany: ["A mun - bur", "A ruh S A mun - bur"] },
      { seasons: "summer-winter" },
    );
    assert.equal(r.next.phase, "U1901R");
  });
});
