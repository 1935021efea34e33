import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { ResultJson } from "../engine/position-json.ts";
import { DATC_RULES, HOUSE_RULES, readRules } from "../engine/rules.ts";
import { runSync } from "../testing/children.ts";
import { house, moves } from "./houserules-testing.ts";
import { entry, units } from "./testing.ts";

/*
 * The game master's house rules (seed 002, ../shared/seeds/002_d9087c3218e4851e.txt), clause
 * by clause: a position, the orders as a player would write them, and the outcome under the
 * `houserules` profile; where the clause is a rule option, also the outcome without it. Every
 * option is also shown working on its own, over the `datc` profile. Here: reading orders
 * (III), unit types, nationality and coasts (IV), and the profile on the command line;
 * adjustments and the summer and winter phases (V, II(5)) are in houserules-phases.test.ts,
 * convoys (VI) in houserules-convoys.test.ts.
 */

describe("III General adjudication", () => {
  test("III(1) presume valid orders: of the readings of a typo, the one that is a valid order", () => {
    // "Tyo" is as close to Tyrolia, the Tyrrhenian Sea and the Gulf of Lyon; only Tyrolia is a
    // move an army in Vienna can make.
    const r = moves({ austria: ["A vie"] }, { austria: ["A vie - Tyo"] });
    assert.equal(entry(r, "austria", 0).order, "A vie - tyr");
    assert.deepEqual(units(r), ["austria:A tyr"]);
    // Without III(1) the order is ambiguous, and says what it could be.
    const lit = moves(
      { austria: ["A vie"] },
      { austria: ["A vie - Tyo"] },
      { profile: "houserules", presumeValid: false },
    );
    assert.equal(entry(lit, "austria", 0).result, "invalid");
    assert.match(entry(lit, "austria", 0).reason ?? "", /ambiguous.*Tyrolia.*or/);
    // No valid reading at all: still ambiguous.
    const none = moves({ france: ["A par"] }, { france: ["A par - Tyo"] });
    assert.match(entry(none, "france", 0).reason ?? "", /ambiguous/);
  });

  test("III(1) a complete set: the reading that orders a unit not otherwise ordered", () => {
    // "N Sea" abbreviates both the North Sea and the Norwegian Sea, and either fleet could
    // hold; but the Norwegian Sea fleet has its order, so the hold is the North Sea's.
    const position = { england: ["F nth", "F nwg"], russia: ["F ska"] };
    const orders = { england: ["F nwg - nth", "F N Sea H"], russia: ["F ska - nth"] };
    const r = moves(position, orders);
    assert.deepEqual(
      r.orders.england!.map((o) => o.order),
      ["F nwg - nth", "F nth H"],
    );
    // Without III(1) the second order is ambiguous and the North Sea fleet, unordered, holds.
    const lit = moves(position, orders, { profile: "houserules", presumeValid: false });
    assert.equal(entry(lit, "england", 1).result, "invalid");
    assert.match(entry(lit, "england", 1).reason ?? "", /ambiguous/);
  });

  test("III(2) unambiguous abbreviations and understandable typos are read as meant", () => {
    const position = { england: ["F eng", "F mao"], turkey: ["A bul"], france: ["A par"] };
    const orders = {
      england: ["F Eng Chan - Brest", "F Mid Atl - Spain (nc)"],
      turkey: ["A Bulg - Serbai"],
      france: ["A Pari mvoe Burgndy"],
    };
    const r = moves(position, orders);
    assert.deepEqual(units(r), [
      "england:F bre",
      "england:F spa/nc",
      "france:A bur",
      "turkey:A ser",
    ]);
    assert.match(entry(r, "france", 0).explanation ?? "", /read "Burgndy" as Burgundy/);
    // The DATC profile only suggests.
    const d = moves(position, orders, "datc");
    assert.equal(entry(d, "france", 0).result, "invalid");
    assert.match(entry(d, "france", 0).reason ?? "", /did you mean Paris/);
    // The option on its own.
    const own = moves(position, orders, { typoTolerance: "correct" });
    assert.deepEqual(units(own), units(r));
  });

  test("III(2) misspelt order words: suport, convoi, hld, buld", () => {
    const r = moves(
      { germany: ["A mun", "A ruh"], france: ["A bur"] },
      { germany: ["A mun - bur", "A ruh suport A mun - bur"], france: ["A bur hld"] },
    );
    assert.deepEqual(units(r), ["germany:A bur", "germany:A ruh"]);
    const b = house({
      phase: "W1901A",
      units: {},
      centers: { germany: ["ber", "kie", "mun"] },
      orders: { germany: ["buld A ber"] },
    });
    assert.deepEqual(units(b), ["germany:A ber"]);
  });

  test("III(2) a typo that spells another province is that province, even if then illegal", () => {
    // Meant Burgundy, wrote Brest: Brest it is, and an army in Munich cannot go there.
    const r = moves({ germany: ["A mun"] }, { germany: ["A mun - bre"] });
    assert.equal(entry(r, "germany", 0).result, "invalid");
    assert.match(entry(r, "germany", 0).reason ?? "", /Munich is not adjacent to Brest/);
    assert.deepEqual(units(r), ["germany:A mun"]);
  });

  test("III(3) no order is inferred for an unordered unit from other orders", () => {
    const r = moves(
      { france: ["A mar", "A gas"], england: ["A lon", "F nth"] },
      { france: ["A gas S A mar - bur"], england: ["F nth C A lon - bel"] },
    );
    assert.deepEqual(units(r), ["england:A lon", "england:F nth", "france:A gas", "france:A mar"]);
    assert.match(entry(r, "france", 0).reason ?? "", /was not ordered to move to bur/);
    assert.equal(entry(r, "france", 1).text, null, "A mar holds, its own order given by nobody");
  });

  test("III(5) a unit ordered to move is never supported to hold, even if the move is illegal", () => {
    const position = { germany: ["A mun", "A kie"], france: ["A bur", "A ruh"] };
    const orders = {
      germany: ["A mun - bre", "A kie S A mun"],
      france: ["A bur - mun", "A ruh S A bur - mun"],
    };
    const r = moves(position, orders);
    assert.equal(entry(r, "germany", 1).result, "fails");
    assert.match(entry(r, "germany", 1).reason ?? "", /ordered to move/);
    assert.deepEqual(Object.keys(r.dislodged ?? {}), ["germany"]);
    // DATC 4.E.1: an illegal order is a hold that may be supported.
    const d = moves(position, orders, "datc");
    assert.equal(d.dislodged, undefined);
    const own = moves(position, orders, { supportHoldAfterIllegalMove: false });
    assert.deepEqual(Object.keys(own.dislodged ?? {}), ["germany"]);
  });

  test("III(5) a misorder not implying movement is a hold, and may be supported", () => {
    const r = moves(
      { germany: ["A mun", "A kie"], france: ["A bur", "A ruh"] },
      {
        germany: ["A mun C A kie - ber", "A kie S A mun"],
        france: ["A bur - mun", "A ruh S A bur - mun"],
      },
    );
    assert.equal(entry(r, "germany", 0).result, "invalid");
    assert.equal(entry(r, "germany", 1).result, "succeeds");
    assert.equal(r.dislodged, undefined);
  });

  test("III(6) a unit ordered twice holds; illegal orders set aside and duplicates merged first", () => {
    const twice = moves({ germany: ["A ber"] }, { germany: ["A ber - pru", "A ber - sil"] });
    assert.deepEqual(units(twice), ["germany:A ber"]);
    assert.match(entry(twice, "germany", 0).reason ?? "", /ordered more than once, so it holds/);
    // The same order twice is one order.
    const same = moves({ germany: ["A ber"] }, { germany: ["A ber - pru", "A Berlin -> Prussia"] });
    assert.deepEqual(units(same), ["germany:A pru"]);
    assert.deepEqual(
      same.orders.germany!.map((o) => o.result),
      ["succeeds", "succeeds"],
    );
    // An illegal order does not count: no fleet anywhere could carry Berlin to London.
    const illegal = moves({ germany: ["A ber"] }, { germany: ["A ber - lon", "A ber - sil"] });
    assert.deepEqual(units(illegal), ["germany:A sil"]);
    // But a move that fleets on the board (of any power) could make possible is not illegal.
    const possible = moves(
      { england: ["A lon"], russia: ["F nth"] },
      { england: ["A lon - nwy", "A lon - yor"] },
    );
    assert.deepEqual(units(possible), ["england:A lon", "russia:F nth"]);
    // The DATC profile takes the last order.
    assert.deepEqual(
      units(moves({ germany: ["A ber"] }, { germany: ["A ber - pru", "A ber - sil"] }, "datc")),
      ["germany:A sil"],
    );
  });
});

describe("IV Unit type, nationality and coasts", () => {
  test("IV(1) a missing or wrong unit type does not invalidate an order", () => {
    const r = moves({ germany: ["A ber", "F kie"] }, { germany: ["F ber - pru", "kie - den"] });
    assert.deepEqual(units(r), ["germany:A pru", "germany:F den"]);
  });

  test("IV(1) with unitType ignore, a convoy naming the army a fleet still carries it", () => {
    const position = { england: ["A lon", "F nth"] };
    const orders = { england: ["A lon - bel", "F nth C F lon - bel"] };
    assert.deepEqual(units(moves(position, orders)), ["england:A bel", "england:F nth"]);
    const d = moves(position, orders, "datc");
    assert.match(entry(d, "england", 1).reason ?? "", /only armies can be convoyed/);
    assert.deepEqual(units(d), ["england:A lon", "england:F nth"]);
    assert.deepEqual(units(moves(position, orders, { unitType: "ignore" })), [
      "england:A bel",
      "england:F nth",
    ]);
  });

  test("IV(2) a missing or wrong nationality of a supported unit does not invalidate", () => {
    const r = moves(
      { germany: ["A mun"], france: ["A par"], italy: ["A bur"] },
      { germany: ["A mun - bur"], france: ["A par S Italian A mun - bur"] },
    );
    assert.deepEqual(Object.keys(r.dislodged ?? {}), ["italy"]);
  });

  test("IV(3) a fleet's coast omitted: fine where only one coast can be reached", () => {
    const r = moves(
      { france: ["F lyo"], russia: ["F stp/sc"] },
      {
        france: ["F gol - spa"],
        russia: ["F stp - bot"],
      },
    );
    assert.deepEqual(units(r), ["france:F spa/sc", "russia:F bot"]);
    const both = moves({ france: ["F mao"] }, { france: ["F mao - spa"] });
    assert.equal(entry(both, "france", 0).result, "invalid", "both coasts reachable: say which");
  });

  test("IV(4) a wrong coast is repaired where one coast can be reached, or the fleet is there", () => {
    const position = { france: ["F lyo"], russia: ["F stp/sc"] };
    const orders = { france: ["F Gulf of Lyons - Spain/nc"], russia: ["F stp/nc - bot"] };
    const r = moves(position, orders);
    assert.deepEqual(units(r), ["france:F spa/sc", "russia:F bot"]);
    const d = moves(position, orders, "datc");
    assert.equal(entry(d, "france", 0).result, "invalid");
    assert.deepEqual(units(moves(position, orders, { wrongCoast: "repair" })), units(r));
    // Holding with the wrong coast of its own province.
    const h = moves({ russia: ["F stp/sc"] }, { russia: ["F stp/nc H"] });
    assert.equal(entry(h, "russia", 0).order, "F stp/sc H");
  });

  test("IV(5) a supporting fleet's own coast written wrong does not invalidate", () => {
    const r = moves(
      { france: ["F spa/sc", "A gas"], italy: ["A mar"] },
      { france: ["A gas - mar", "F spa/nc S A gas - mar"] },
    );
    assert.deepEqual(Object.keys(r.dislodged ?? {}), ["italy"]);
  });

  test("IV(6)(7) support of a fleet to a split coast, with no or another coast: either coast", () => {
    const position = { france: ["F lyo", "F mao"], italy: ["F wes"] };
    const orders = {
      france: ["F lyo - spa/sc", "F mao S F lyo - spa/nc"],
      italy: ["F wes - spa/sc"],
    };
    assert.deepEqual(
      units(moves(position, orders)).filter((u) => u.includes("spa")),
      ["france:F spa/sc"],
    );
    const d = moves(position, orders, "datc");
    assert.deepEqual(
      units(d).filter((u) => u.includes("spa")),
      [],
      "the DATC rule: the coast must match",
    );
    // Provided the supporting unit can move to the province: the Tyrrhenian Sea cannot.
    const far = moves(
      { france: ["F lyo", "F tys"] },
      { france: ["F lyo - spa", "F tys S F lyo - spa"] },
    );
    assert.equal(entry(far, "france", 1).result, "invalid");
  });
});

describe("the houserules profile on the command line", () => {
  test("bin/entente adjudicate --rules houserules applies the house rules", () => {
    const bin = fileURLToPath(new URL("../../bin/entente", import.meta.url));
    const input = {
      phase: "S1901M",
      units: { austria: ["A vie"], germany: ["A mun"] },
      orders: { austria: ["A Viena - Tyo"], germany: ["A mun - bre"] },
    };
    const r = runSync(bin, ["adjudicate", "--rules", "houserules"], {
      input: JSON.stringify(input),
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as ResultJson;
    assert.equal(entry(out, "austria", 0).order, "A vie - tyr");
    assert.equal(entry(out, "germany", 0).result, "invalid");
    const plain = runSync(bin, ["adjudicate"], {
      input: JSON.stringify(input),
      encoding: "utf8",
    });
    assert.equal(entry(JSON.parse(plain.stdout) as ResultJson, "austria", 0).result, "invalid");
  });

  test("the profile is registered and datc is unchanged", () => {
    const r = readRules("houserules");
    assert.ok(r.ok);
    assert.deepEqual(r.rules, HOUSE_RULES);
    const d = readRules("datc");
    assert.ok(d.ok && d.rules === DATC_RULES);
  });
});
