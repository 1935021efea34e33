/**
 * Sequential movement (seed 003, docs/sequential.md) through the contract's JSON: the seed's
 * own examples, contracts and retrospective support, and orders across slots
 * (sequential.fixture.ts plays a season).
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { adjudicateJson } from "../cli/adjudicate.ts";
import { classical } from "../variants/classical/index.ts";
import { legalRetreatOrders } from "./legal-retreats.ts";
import { formatOrder } from "./orders.ts";
import { readPosition } from "./position-json.ts";
import { DATC_RULES } from "./rules.ts";
import { board, entry, first, outcome, run, seq } from "./sequential.fixture.ts";

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
