import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { adjudicateJson } from "../cli/adjudicate.ts";
import { classical } from "../variants/classical/index.ts";
import { getVariant } from "../variants/registry.ts";
import { getScenario } from "../variants/scenarios.ts";
import { adjudicate } from "./adjudicate.ts";
import { checkInvariants } from "./invariants.ts";
import { legalMovementOrders } from "./legal.ts";
import { legalRetreatOrders } from "./legal-retreats.ts";
import { formatOrder } from "./orders.ts";
import { parseOrder } from "./parse.ts";
import { type ResultJson, readPosition } from "./position-json.ts";
import { rng } from "./random.ts";
import { replayRecord } from "./record.ts";
import { DATC_RULES, type RuleOptions, readRules } from "./rules.ts";
import { selfPlayGame } from "./selfplay.ts";
import { generatedSchedule, seasonPlan, sequentialIndex } from "./sequential-schedule.ts";
import { movementPositions } from "./testing.ts";
import type { PowerId } from "./types.ts";

/*
 * Sequential movement (seed 003, docs/sequential.md) through the contract's JSON: the seed's
 * own examples, contracts, retrospective support, simultaneous seasons, the schedule's
 * property over many seasons, and the board and retreats it leaves.
 */

type Units = Record<string, string[]>;
type Orders = Record<string, string[]>;

const SEVEN = ["austria", "england", "france", "germany", "italy", "russia", "turkey"];

/** A schedule with these powers first, in this order, and the rest after them. */
const first = (...powers: string[]): string[] => [
  ...powers,
  ...SEVEN.filter((p) => !powers.includes(p)),
];

function run(input: Record<string, unknown>): ResultJson {
  const out = adjudicateJson({ variant: "classical", phase: "S1901M", ...input }, DATC_RULES);
  if ("error" in out) throw new Error(out.error);
  return out;
}

function seq(
  units: Units,
  orders: Orders,
  schedule: unknown,
  extra: Record<string, unknown> = {},
): ResultJson {
  return run({ units, orders, rules: { movement: "sequential", schedule, ...extra } });
}

const board = (r: ResultJson): string[] =>
  Object.entries(r.next.units)
    .flatMap(([p, us]) => us.map((u) => `${p}:${u}`))
    .sort();

/** The result entry of the order whose text starts with `text` (or the deemed order). */
function entry(r: ResultJson, power: string, text: string) {
  const e = r.orders[power]!.find((o) => (o.text ?? o.order ?? "").startsWith(text));
  assert.ok(e, `${power}: no entry for ${text}`);
  return e;
}

const outcome = (r: ResultJson, power: string, text: string): string =>
  entry(r, power, text).result;

describe("the seed's examples", () => {
  // Rule 2: Austria's move taken first gets into Galicia, Russia's is kept out.
  const units = { austria: ["A vie"], russia: ["A war"] };
  const orders = { austria: ["A vie - gal"], russia: ["A war - gal"] };

  test("Austria first into Galicia keeps Russia out", () => {
    const r = seq(units, orders, first("austria", "russia"));
    assert.equal(outcome(r, "austria", "A vie"), "succeeds");
    assert.equal(outcome(r, "russia", "A war"), "fails");
    assert.deepEqual(board(r), ["austria:A gal", "russia:A war"]);
    assert.equal(r.next.phase, "F1901M");
    assert.match(
      entry(r, "russia", "A war").reason ?? "",
      /bounced off A gal: 1 against 1; resolved in slot 2 of 7 \(Russia's orders\)/,
    );
    assert.match(
      entry(r, "austria", "A vie").explanation ?? "",
      /slot 1 of 7 \(Austria's orders\)/,
    );
    // Galicia is not left empty: no standoff to keep retreats out.
    assert.deepEqual(r.next.contested, []);
  });

  test("and the other way round Russia gets in; simultaneously, both bounce", () => {
    const r = seq(units, orders, first("russia", "austria"));
    assert.deepEqual(board(r), ["austria:A vie", "russia:A gal"]);
    const s = run({ units, orders });
    assert.deepEqual(board(s), ["austria:A vie", "russia:A war"]);
  });

  // Rule 5: France first with A par S A mar - bur, then Germany A ruh S A mun - bur.
  const burgundy = {
    units: { france: ["A mar", "A par", "A gas"], germany: ["A mun", "A ruh"] },
    orders: {
      france: ["A mar - bur", "A par S A mar - bur"],
      germany: ["A mun - bur", "A ruh S A mun - bur"],
    },
  };

  test("Burgundy: France gets in first, then Germany dislodges the French army", () => {
    const r = seq(burgundy.units, burgundy.orders, first("france", "germany"));
    assert.equal(outcome(r, "france", "A mar"), "succeeds", "the French move itself succeeded");
    assert.equal(outcome(r, "germany", "A mun"), "succeeds");
    assert.deepEqual(board(r), ["france:A gas", "france:A par", "germany:A bur", "germany:A ruh"]);
    assert.equal(r.next.phase, "S1901R");
    assert.deepEqual(r.next.dislodged, {
      france: [{ unit: "A bur", from: "mun", viaConvoy: false }],
    });
    // Dislodged where it had arrived: Marseilles, which it left, is a place to retreat to.
    assert.deepEqual(r.dislodged?.france?.[0]?.retreats, ["bel", "mar", "pic"]);
    assert.match(
      entry(r, "france", "A mar").explanation ?? "",
      /resolved in slot 1 of 7 \(France's orders\); then dislodged from bur by A mun - bur in slot 2 of 7 \(Germany's orders\)/,
    );
    assert.match(
      entry(r, "germany", "A mun").explanation ?? "",
      /strength 2 \(supported by A ruh\) against A bur's hold 1, dislodging A bur; resolved in slot 2 of 7/,
    );
  });

  test("Burgundy: retrospective support for the French army would have held it", () => {
    const orders = {
      ...burgundy.orders,
      france: [...burgundy.orders.france, "A gas S A mar in bur"],
    };
    const r = seq(burgundy.units, orders, first("france", "germany"));
    assert.equal(outcome(r, "germany", "A mun"), "fails");
    assert.match(
      entry(r, "germany", "A mun").reason ?? "",
      /bounced off A bur \(supported by A gas\): 2 against 2/,
    );
    assert.equal(outcome(r, "france", "A gas"), "succeeds");
    assert.match(
      entry(r, "france", "A gas").explanation ?? "",
      /retrospective support for A mar in bur given from slot 1 of 7 \(France's orders\) on/,
    );
    assert.deepEqual(r.next.dislodged ?? {}, {});
    assert.equal(r.next.phase, "F1901M");
  });

  test("Burgundy with Germany first: the same, the other way round", () => {
    // Being first is no advantage: Germany gets in, and France dislodges it.
    const r = seq(burgundy.units, burgundy.orders, first("germany", "france"));
    assert.deepEqual(board(r), ["france:A bur", "france:A gas", "france:A par", "germany:A ruh"]);
    assert.deepEqual(r.next.dislodged, {
      germany: [{ unit: "A bur", from: "mar", viaConvoy: false }],
    });
    assert.equal(outcome(r, "germany", "A mun"), "succeeds");
    assert.match(
      entry(r, "germany", "A mun").explanation ?? "",
      /then dislodged from bur by A mar - bur in slot 2 of 7 \(France's orders\)/,
    );
    // Germany's army is dislodged from Burgundy; Munich, which it left, is free.
    assert.deepEqual(r.dislodged?.germany?.[0]?.retreats, ["bel", "mun", "pic"]);
  });

  // Rule 4: A bud S A vie - gal dislodges the Russian A gal; A rum S A vie in gal supports the
  // army that arrived, for the orders resolved after Austria's.
  const galicia = {
    units: { austria: ["A vie", "A bud", "A rum"], russia: ["A gal", "A ukr", "A war"] },
    orders: {
      austria: ["A vie - gal", "A bud S A vie - gal", "A rum S A vie in gal"],
      russia: ["A ukr - gal", "A war S A ukr - gal"],
    },
  };

  test("retrospective support holds Galicia against the Russian counter-attack", () => {
    const r = seq(galicia.units, galicia.orders, first("austria", "russia"));
    assert.equal(outcome(r, "austria", "A vie"), "succeeds");
    assert.equal(outcome(r, "austria", "A rum"), "succeeds");
    assert.equal(outcome(r, "russia", "A ukr"), "fails");
    assert.match(
      entry(r, "russia", "A ukr").reason ?? "",
      /A gal \(supported by A rum\): 2 against 2/,
    );
    // The Russian army in Galicia was dislodged before its own orders could be resolved.
    const gal = entry(r, "russia", "A gal");
    assert.equal(gal.result, "fails");
    assert.match(
      gal.reason ?? "",
      /dislodged by A vie - gal in slot 1 of 7 \(Austria's orders\), before its own turn in slot 2 of 7/,
    );
    assert.deepEqual(r.next.dislodged, {
      russia: [{ unit: "A gal", from: "vie", viaConvoy: false }],
    });
    assert.ok(board(r).includes("austria:A gal"));
  });

  test("retrospective support counts only if the move succeeded", () => {
    const orders = { ...galicia.orders, austria: ["A vie - gal", "A rum S A vie in gal"] };
    const r = seq(galicia.units, orders, first("austria", "russia"));
    assert.equal(outcome(r, "austria", "A vie"), "fails");
    const rum = entry(r, "austria", "A rum");
    assert.equal(rum.result, "fails");
    assert.match(
      rum.reason ?? "",
      /A vie - gal failed: the support was conditional on it; resolved in slot 1 of 7/,
    );
  });

  test("retrospective support counts only for orders resolved after it", () => {
    // Galicia empty. Austria first: in, and the support holds it against Russia's two.
    const units = { austria: ["A vie", "A rum"], russia: ["A ukr", "A war"] };
    const orders = {
      austria: ["A vie - gal", "A rum S A vie in gal"],
      russia: ["A ukr - gal", "A war S A ukr - gal"],
    };
    const a = seq(units, orders, first("austria", "russia"));
    assert.deepEqual(board(a), ["austria:A gal", "austria:A rum", "russia:A ukr", "russia:A war"]);
    // Russia first: Russia is in before Austria moves; the support looks back on nothing.
    const b = seq(units, orders, first("russia", "austria"));
    assert.deepEqual(board(b), ["austria:A rum", "austria:A vie", "russia:A gal", "russia:A war"]);
    assert.equal(outcome(b, "austria", "A rum"), "fails");
  });

  test("a retrospective support cut by a power resolved later no longer counts", () => {
    const units = { ...galicia.units, turkey: ["A bul"] };
    const orders = { ...galicia.orders, turkey: ["A bul - rum"] };
    const r = seq(units, orders, first("austria", "turkey", "russia"));
    const rum = entry(r, "austria", "A rum");
    assert.equal(rum.result, "fails");
    assert.match(
      rum.reason ?? "",
      /then support cut by A bul - rum in slot 2 of 7 \(Turkey's orders\)/,
    );
    assert.equal(outcome(r, "russia", "A ukr"), "succeeds", "Galicia held at 1 only");
    // Two units were dislodged from Galicia in one season, Russia's in slot 1 and Austria's
    // in slot 3: both retreat (neither is lost to the position format).
    assert.deepEqual(r.next.dislodged, {
      austria: [{ unit: "A gal", from: "ukr", viaConvoy: false }],
      russia: [{ unit: "A gal", from: "vie", viaConvoy: false }],
    });
    assert.doesNotMatch(entry(r, "russia", "A gal").reason ?? "", /disbanded/, "not disbanded");
    assert.equal(r.next.phase, "S1901R", "a retreat phase for both");
    // Each power's retreat order names its own unit in Galicia; neither may go back to where
    // its attacker came from.
    const back = run({
      ...r.next,
      orders: { russia: ["A gal - vie"], austria: ["A gal - ukr"] },
    });
    assert.equal(
      outcome(back, "russia", "A gal - vie"),
      "invalid",
      "Russia's attacker came from Vienna",
    );
    assert.equal(outcome(back, "austria", "A gal - ukr"), "invalid", "Austria's from Ukraine");
    const retreat = run({
      ...r.next,
      orders: { russia: ["A gal - sil"], austria: ["A gal - vie"] },
    });
    assert.equal(outcome(retreat, "russia", "A gal - sil"), "succeeds", "Russia's retreat");
    assert.equal(outcome(retreat, "austria", "A gal - vie"), "succeeds", "Austria's retreat");
    assert.ok(board(retreat).includes("russia:A sil"), "in Silesia");
    assert.ok(board(retreat).includes("austria:A vie"), "in Vienna");
    assert.ok(board(retreat).includes("russia:A gal"), "and Russia's attacker holds Galicia");
    // The legal retreats are offered to each unit, told apart by its power.
    const pos = readPosition(r.next as unknown as Record<string, unknown>, classical);
    const legal = legalRetreatOrders(classical, pos, DATC_RULES);
    const of = (power: string) => (legal.get(`${power} gal`) ?? []).map(formatOrder).sort();
    assert.ok(
      of("russia").includes("A gal - sil") && !of("russia").includes("A gal - vie"),
      `${of("russia")}`,
    );
    assert.ok(
      of("austria").includes("A gal - vie") && !of("austria").includes("A gal - ukr"),
      `${of("austria")}`,
    );
    // One power with two units dislodged from one province is still refused: its retreat
    // orders could not tell them apart.
    const two = adjudicateJson(
      {
        ...r.next,
        dislodged: {
          russia: [
            { unit: "A gal", from: "vie" },
            { unit: "A gal", from: "ukr" },
          ],
        },
      },
      DATC_RULES,
    );
    assert.ok(
      "error" in two && /two dislodged units of russia in gal/.test(two.error),
      JSON.stringify(two),
    );
  });

  test("support for a unit standing is not effective until its power's orders are resolved", () => {
    const units = { austria: ["A vie", "A bud"], russia: ["A gal", "A war"] };
    const orders = {
      austria: ["A vie - gal", "A bud S A vie - gal"],
      russia: ["A war S A gal"],
    };
    const a = seq(units, orders, first("austria", "russia"));
    assert.equal(outcome(a, "austria", "A vie"), "succeeds", "2 against 1");
    assert.match(
      entry(a, "russia", "A war").reason ?? "",
      /A gal was dislodged by A vie - gal in slot 1 of 7 \(Austria's orders\), before this order's turn/,
    );
    const b = seq(units, orders, first("russia", "austria"));
    assert.equal(outcome(b, "austria", "A vie"), "fails", "2 against 2");
    const war = entry(b, "russia", "A war");
    assert.equal(war.result, "succeeds");
    assert.match(
      war.explanation ?? "",
      /standing for the rest of the season; resolved in slot 1 of 7 \(Russia's orders\)/,
    );
    assert.match(
      entry(b, "russia", "A gal").explanation ?? "",
      /in slot 2 of 7 \(Austria's orders\): held with strength 2 \(supported by A war\)/,
    );
  });

  test("a standing support is cut by a later power's attack", () => {
    const units = {
      austria: ["A vie", "A bud", "A boh"],
      russia: ["A gal", "A war"],
      germany: ["A sil"],
    };
    const orders = {
      austria: ["A vie - gal", "A bud S A vie - gal"],
      russia: ["A war S A gal"],
      germany: ["A sil - war"],
    };
    const r = seq(units, orders, first("russia", "germany", "austria"));
    const war = entry(r, "russia", "A war");
    assert.equal(war.result, "fails");
    assert.match(
      war.reason ?? "",
      /support given in slot 1 of 7 \(Russia's orders\), then support cut by A sil - war in slot 2 of 7 \(Germany's orders\)/,
    );
    assert.equal(outcome(r, "austria", "A vie"), "succeeds");
  });
});

describe("contracts", () => {
  const units = { austria: ["A vie", "A bud"], russia: ["A ukr"], italy: ["A gal"] };
  const orders = {
    austria: ["A vie - gal", "A bud - rum"],
    russia: ["A ukr S A vie - gal"],
    italy: ["A gal H"],
  };

  test("support for another power's unit without a contract is void", () => {
    const r = seq(units, orders, first("italy", "austria", "russia"));
    const ukr = entry(r, "russia", "A ukr");
    assert.equal(ukr.result, "fails");
    assert.match(
      ukr.reason ?? "",
      /support for a unit of Austria needs a contract between Russia and Austria/,
    );
    assert.equal(outcome(r, "austria", "A vie"), "fails");
    assert.ok(board(r).includes("italy:A gal"));
  });

  test("with a contract the units concerned are resolved together, in the later power's slot", () => {
    const r = seq(units, orders, first("austria", "italy", "russia"), {
      contracts: [["austria", "russia"]],
    });
    assert.equal(outcome(r, "russia", "A ukr"), "succeeds");
    assert.equal(outcome(r, "austria", "A vie"), "succeeds");
    assert.deepEqual(r.next.dislodged, {
      italy: [{ unit: "A gal", from: "vie", viaConvoy: false }],
    });
    const vie = entry(r, "austria", "A vie");
    assert.match(
      vie.explanation ?? "",
      /resolved in slot 3 of 7 \(with Russia's orders: contracted units are resolved in the slot of the power lower on the schedule\)/,
    );
    assert.match(
      entry(r, "russia", "A ukr").explanation ?? "",
      /slot 3 of 7 \(Russia's orders, with Austria's under contract\)/,
    );
    // Austria's other orders keep Austria's own slot.
    assert.match(
      entry(r, "austria", "A bud").explanation ?? "",
      /resolved in slot 1 of 7 \(Austria's orders\)/,
    );
  });

  test("a contracted move resolved late finds the province taken by a power in between", () => {
    const u = { austria: ["A vie", "A bud"], russia: ["A ukr"], germany: ["A sil"] };
    const o = {
      austria: ["A vie - gal"],
      russia: ["A ukr S A vie - gal"],
      germany: ["A sil - gal"],
    };
    const r = seq(u, o, first("austria", "germany", "russia"), {
      contracts: { S1901: [["russia", "austria"]] },
    });
    // Germany (slot 2) gets in first; Austria and Russia (slot 3) then dislodge it.
    assert.equal(outcome(r, "germany", "A sil"), "succeeds");
    assert.equal(outcome(r, "austria", "A vie"), "succeeds");
    assert.deepEqual(r.next.dislodged, {
      germany: [{ unit: "A gal", from: "vie", viaConvoy: false }],
    });
    // Had the contract been Austria's alone (slot 1), Germany would have been kept out.
    const alone = seq(u, { ...o, russia: [] }, first("austria", "germany", "russia"));
    assert.equal(outcome(alone, "austria", "A vie"), "succeeds");
    assert.equal(outcome(alone, "germany", "A sil"), "fails");
  });

  test("a contract covers convoys too; without one, a convoy of another power's army is void", () => {
    const u = { england: ["F nth"], france: ["A bel"] };
    const o = { england: ["F nth C A bel - yor"], france: ["A bel - yor"] };
    const without = seq(u, o, first("england", "france"));
    assert.match(
      entry(without, "england", "F nth").reason ?? "",
      /a convoy of a unit of France needs a contract/,
    );
    assert.equal(outcome(without, "france", "A bel"), "fails");
    const withC = seq(u, o, first("england", "france"), { contracts: [["england", "france"]] });
    assert.equal(outcome(withC, "france", "A bel"), "succeeds");
    assert.deepEqual(board(withC), ["england:F nth", "france:A yor"]);
  });
});

describe("across slots", () => {
  test("no swap and no head-to-head across slots: the later unit meets a unit standing", () => {
    const u = { france: ["A bur"], germany: ["A mun"] };
    const o = { france: ["A bur - mun"], germany: ["A mun - bur"] };
    const r = seq(u, o, first("france", "germany"));
    assert.deepEqual(board(r), ["france:A bur", "germany:A mun"]);
    assert.match(entry(r, "france", "A bur").reason ?? "", /bounced off A mun: 1 against 1/);
    // With support, the first mover dislodges the other before its orders are resolved.
    const r2 = seq(
      { france: ["A bur", "A ruh"], germany: ["A mun"] },
      { france: ["A bur - mun", "A ruh S A bur - mun"], germany: ["A mun - bur"] },
      first("france", "germany"),
    );
    assert.equal(outcome(r2, "germany", "A mun"), "fails");
    assert.match(entry(r2, "germany", "A mun").reason ?? "", /before its own turn/);
    assert.deepEqual(r2.next.dislodged, {
      germany: [{ unit: "A mun", from: "bur", viaConvoy: false }],
    });
    // Dislodged by an attack from Burgundy, which is empty now: still not a place to retreat to.
    assert.ok(!r2.dislodged?.germany?.[0]?.retreats.includes("bur"));
  });

  test("a unit that leaves after a bounce off it leaves a contested province", () => {
    const u = { austria: ["A vie", "A boh"], russia: ["A gal"], germany: ["A mun", "A sil"] };
    const o = {
      austria: ["A vie - gal"],
      russia: ["A gal - ukr"],
      germany: ["A mun - boh", "A sil S A mun - boh"],
    };
    const r = seq(u, o, first("austria", "russia", "germany"));
    assert.equal(outcome(r, "austria", "A vie"), "fails");
    assert.equal(outcome(r, "russia", "A gal"), "succeeds");
    assert.deepEqual(r.next.contested, ["gal"]);
    assert.deepEqual(r.dislodged?.austria?.[0]?.retreats, ["tyr"]);
    // The retreat phase that follows is the standard one.
    const back = run({ ...r.next, orders: { austria: ["A boh - gal"] } });
    assert.equal(entry(back, "austria", "A boh").result, "invalid");
    assert.match(entry(back, "austria", "A boh").reason ?? "", /left empty by a standoff/);
  });

  test("a convoy of one's own army is resolved in its slot; a fleet dislodged earlier carries nothing", () => {
    const u = { england: ["F nth", "A lon"], germany: ["F hel", "F den"] };
    const o = {
      england: ["F nth C A lon - nwy", "A lon - nwy"],
      germany: ["F hel - nth", "F den S F hel - nth"],
    };
    const late = seq(u, o, first("england", "germany"));
    assert.equal(outcome(late, "england", "A lon"), "succeeds");
    const early = seq(u, o, first("germany", "england"));
    assert.equal(outcome(early, "england", "A lon"), "fails");
    assert.match(entry(early, "england", "F nth").reason ?? "", /before its own turn/);
  });

  test("builds and removals after autumn are the standard, simultaneous ones", () => {
    const rules = { movement: "sequential", schedule: first("austria", "italy") };
    const f = run({
      phase: "F1901M",
      units: { austria: ["A vie", "A tri"], italy: ["A ven"] },
      centers: { austria: ["vie", "tri", "bud"], italy: ["ven", "rom", "nap"] },
      orders: { austria: ["A tri - ven", "A vie - tyr"], italy: ["A ven - tri"] },
      rules,
    });
    // Austria first: Trieste - Venice bounces off the Venetian army, which then bounces off
    // the Austrian army still standing in Trieste.
    assert.deepEqual(board(f), ["austria:A tri", "austria:A tyr", "italy:A ven"]);
    assert.equal(f.next.phase, "W1901A");
    const w = run({
      ...f.next,
      rules,
      orders: { austria: ["build A vie"], italy: ["build F nap"] },
    });
    assert.equal(outcome(w, "austria", "build A vie"), "succeeds");
    assert.equal(outcome(w, "italy", "build F nap"), "succeeds");
    assert.equal(w.next.phase, "S1902M");
  });
});

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
          const legal = legalMovementOrders(v, pos, DATC_RULES);
          const orders = new Map<PowerId, string[]>();
          for (const u of pos.units) {
            const options = legal.get(u.province) ?? [];
            if (options.length === 0) continue;
            let text = formatOrder(r.pick(options));
            // Some supports of moves become retrospective supports.
            if (/ S .* - /.test(text) && r.int(2) === 0) text = text.replace(/ - (\w+)$/, " in $1");
            orders.set(u.power, [...(orders.get(u.power) ?? []), text]);
          }
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
