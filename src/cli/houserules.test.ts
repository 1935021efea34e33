import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { ResultJson } from "../engine/position-json.ts";
import { DATC_RULES, HOUSE_RULES, readRules } from "../engine/rules.ts";
import { runSync } from "../testing/children.ts";
import { adjudicateJson } from "./adjudicate.ts";

/*
 * The game master's house rules (seed 002, ../shared/seeds/002_d9087c3218e4851e.txt), clause
 * by clause: a position, the orders as a player would write them, and the outcome under the
 * `houserules` profile; where the clause is a rule option, also the outcome without it. Every
 * option is also shown working on its own, over the `datc` profile.
 */

type Units = Record<string, string[]>;
type Orders = Record<string, string[]>;

function run(input: Record<string, unknown>, rules = HOUSE_RULES): ResultJson {
  const out = adjudicateJson({ variant: "classical", ...input }, rules);
  if ("error" in out) throw new Error(out.error);
  return out;
}

const house = (input: Record<string, unknown>) => run(input, HOUSE_RULES);
const datc = (input: Record<string, unknown>) => run(input, DATC_RULES);

const units = (r: ResultJson): string[] =>
  Object.entries(r.next.units)
    .flatMap(([p, us]) => us.map((u) => `${p}:${u}`))
    .sort();

const entry = (r: ResultJson, power: string, i: number) => r.orders[power]![i]!;

function moves(
  u: Units,
  orders: Orders,
  rules: unknown = HOUSE_RULES,
  phase = "S1901M",
): ResultJson {
  const r = readRules(rules);
  assert.ok(r.ok);
  return run({ phase, units: u, orders }, r.rules);
}

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

describe("VI Convoys", () => {
  test("VI(1) no retreat to the origin of a convoyed attacker", () => {
    const input = {
      phase: "U1901R",
      units: { england: ["F eng"] },
      dislodged: { france: [{ unit: "A bel", from: "hol", viaConvoy: true }] },
      orders: { france: ["A bel - hol"] },
    };
    const r = house(input);
    assert.equal(entry(r, "france", 0).result, "invalid");
    assert.match(entry(r, "france", 0).reason ?? "", /attacker came from/);
    assert.equal(entry(datc(input), "france", 0).result, "succeeds");
  });

  test("VI(2) by convoy when a fleet of the army's power convoys it; else over land", () => {
    const own = moves(
      { england: ["A nwy", "F ska"], russia: ["A swe"] },
      { england: ["A nwy - swe", "F ska C A nwy - swe"], russia: ["A swe - nwy"] },
    );
    assert.ok(units(own).includes("england:A swe"), "by convoy: no head-to-head, they swap");
    const foreign = moves(
      { england: ["A nwy"], germany: ["F ska"], russia: ["A swe"] },
      {
        england: ["A nwy - swe"],
        germany: ["F ska C A nwy - swe"],
        russia: ["A swe - nwy"],
      },
    );
    assert.ok(units(foreign).includes("england:A nwy"), "over land: a head-to-head bounce");
    const explicit = moves(
      { england: ["A nwy"], germany: ["F ska"], russia: ["A swe"] },
      {
        england: ["A nwy - swe via convoy"],
        germany: ["F ska C A nwy - swe"],
        russia: ["A swe - nwy"],
      },
    );
    assert.ok(units(explicit).includes("england:A swe"), "explicitly via convoy");
  });

  test("VI(3) a route named in the order is ignored: any fleets ordered to convoy carry it", () => {
    const position = { england: ["A lon", "F nth", "F eng"] };
    // The route names the Channel; the North Sea fleet carries the army.
    const orders = { england: ["A lon - eng - bel", "F nth C A lon - bel", "F eng H"] };
    const r = moves(position, orders);
    assert.ok(units(r).includes("england:A bel"));
    assert.match(entry(r, "england", 0).explanation ?? "", /route through eng is ignored/);
    const via = moves(position, {
      england: ["A lon - bel via eng", "F nth C A lon - bel", "F eng H"],
    });
    assert.ok(units(via).includes("england:A bel"));
    // Only fleets ordered to convoy it may carry it.
    const unordered = moves(position, { england: ["A lon - nth - bel", "F eng H"] });
    assert.ok(units(unordered).includes("england:A lon"));
    const d = moves(position, orders, "datc");
    assert.equal(entry(d, "england", 0).result, "invalid");
    assert.ok(
      units(moves(position, orders, { convoyRouteNames: "ignored" })).includes("england:A bel"),
    );
  });

  test("VI(4) a convoy with several routes fails only when every route is broken", () => {
    const r = moves(
      { england: ["A lon", "F eng", "F nth"], france: ["F bre", "F mao"] },
      {
        england: ["A lon - bel", "F eng C A lon - bel", "F nth C A lon - bel"],
        france: ["F bre - eng", "F mao S F bre - eng"],
      },
    );
    assert.ok(units(r).includes("england:A bel"));
  });

  test("VI(5) a convoyed army cuts a support for an attack on its own origin (DATC 6.G.13)", () => {
    const position = { austria: ["F adr", "A tri"], italy: ["A ven", "F alb"] };
    const orders = {
      austria: ["F adr C A tri - ven", "A tri - ven"],
      italy: ["A ven S F alb - tri", "F alb - tri"],
    };
    assert.equal(moves(position, orders).dislodged, undefined);
    assert.deepEqual(Object.keys(moves(position, orders, "datc").dislodged ?? {}), ["austria"]);
  });

  test("VI(6) convoy paradox, Alternative C: half strength for the armies, then the fleets in land provinces", () => {
    // DATC 6.F.14, the simple convoy paradox. Step 1 (the army at half strength) leaves the
    // paradox: its attack cuts London's support whatever its strength. Step 2 rates London's
    // support and the Welsh fleet's move at half: 1/2 + 1/2 cannot dislodge the Channel fleet
    // (1) even with the support, so the convoy stands, the army's attack (1/2) bounces off
    // London (1/2), and the support is cut. Nothing moves.
    const position = { england: ["F lon", "F wal"], france: ["A bre", "F eng"] };
    const orders = {
      england: ["F lon S F wal - eng", "F wal - eng"],
      france: ["A bre - lon", "F eng C A bre - lon"],
    };
    const r = moves(position, orders);
    assert.equal(r.dislodged, undefined);
    assert.deepEqual(units(r), ["england:F lon", "england:F wal", "france:A bre", "france:F eng"]);
    assert.match(entry(r, "france", 0).reason ?? "", /0\.5 against 0\.5.*Alternative C step 2/);
    // Szykman (the DATC's choice): the army does not move, and the Channel fleet is dislodged.
    assert.deepEqual(Object.keys(moves(position, orders, "datc").dislodged ?? {}), ["france"]);
    const own = moves(position, orders, { convoyParadox: "alternative-c" });
    assert.deepEqual(units(own), units(r));
  });

  test("VI(6) Alternative C, step 3: the convoyed army fails, holding without support", () => {
    // DATC 6.G.11: Russia convoys Sweden to adjacent Norway while England attacks the convoy.
    const r = moves(
      { england: ["F nwy", "F nth"], russia: ["A swe", "F ska", "F bar"] },
      {
        england: ["F nwy S F nth - ska", "F nth - ska"],
        russia: ["A swe - nwy", "F ska C A swe - nwy", "F bar S A swe - nwy"],
      },
    );
    assert.match(entry(r, "russia", 0).reason ?? "", /Alternative C \(step 3\).*fails and holds/);
    assert.deepEqual(Object.keys(r.dislodged ?? {}), ["russia"]);
    assert.ok(units(r).includes("russia:A swe"));
  });

  test("VI(7) a foreign convoy may carry an attack on the convoying player's own unit", () => {
    const r = moves(
      { england: ["F nth", "A hol"], germany: ["A den", "A kie"] },
      { england: ["F nth C A den - hol"], germany: ["A den - hol", "A kie S A den - hol"] },
    );
    assert.deepEqual(Object.keys(r.dislodged ?? {}), ["england"]);
    assert.ok(units(r).includes("germany:A hol"));
    // And it cuts the support the attacked unit gives.
    const cut = moves(
      { england: ["F nth", "A hol", "A bel"], germany: ["A den"], france: ["A pic", "A bur"] },
      {
        england: ["F nth C A den - hol", "A hol S A bel"],
        germany: ["A den - hol"],
        france: ["A pic - bel", "A bur S A pic - bel"],
      },
    );
    assert.match(entry(cut, "england", 1).reason ?? "", /cut by A den - hol/);
  });

  test("VI(8) a convoyed army dislodged by the unit from its destination still bounces a third", () => {
    // England convoys Norway to adjacent Sweden; Russia's Sweden army, supported, dislodges
    // it; the English army still stands off the German one from Denmark.
    const r = moves(
      { england: ["A nwy", "F ska"], russia: ["A swe", "A fin"], germany: ["A den"] },
      {
        england: ["A nwy - swe", "F ska C A nwy - swe"],
        russia: ["A swe - nwy", "A fin S A swe - nwy"],
        germany: ["A den - swe"],
      },
    );
    assert.deepEqual(Object.keys(r.dislodged ?? {}), ["england"]);
    assert.ok(units(r).includes("germany:A den"), "the German army bounced");
    assert.ok(!units(r).some((u) => u.endsWith("A swe")), "Sweden is left empty");
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
    const r = house({
      phase: "F1901M",
      units: { france: ["A par", "A mar", "F bre"] },
      centers: { france: ["par", "bre", "mar"] },
      orders: {},
    });
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
