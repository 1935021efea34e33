import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ResultJson } from "../engine/position-json.ts";
import { DATC_RULES, readRules } from "../engine/rules.ts";
import { adjudicateAnyJson, adjudicateJson } from "./adjudicate.ts";
import { convoyParadox, entry, quietFall, run, units } from "./testing.ts";

/*
 * The engine through the contract's JSON, position by position: the phase sequence, retreats,
 * adjustments, explanations, and every rule option's alternative changing an outcome.
 */

type Units = Record<string, string[]>;

function moves(units0: Units, orders: Record<string, string[]>, rules?: unknown): ResultJson {
  return run({ phase: "S1901M", units: units0, orders, ...(rules === undefined ? {} : { rules }) });
}

describe("phase sequence", () => {
  test("spring without dislodgements goes straight to fall", () => {
    const r = moves({ france: ["A par"] }, { france: ["A par - bur"] });
    assert.equal(r.next.phase, "F1901M");
    assert.deepEqual(units(r), ["france:A bur"]);
  });

  test("a dislodgement with somewhere to go opens the retreat phase", () => {
    const r = moves(
      { germany: ["A mun", "A ber"], france: ["A bur"] },
      { germany: ["A mun - bur", "A ber - mun"] },
    );
    // ber cannot support (not adjacent to bur), so it is 1 against 1: bounce.
    assert.equal(r.next.phase, "F1901M");
    const r2 = moves(
      { germany: ["A mun", "A ruh"], france: ["A bur"] },
      { germany: ["A mun - bur", "A ruh S A mun - bur"] },
    );
    assert.equal(r2.next.phase, "S1901R");
    assert.deepEqual(r2.next.dislodged, {
      france: [{ unit: "A bur", from: "mun", viaConvoy: false }],
    });
    assert.ok(r2.dislodged?.france?.[0]?.retreats.includes("par"));
    assert.ok(!r2.dislodged?.france?.[0]?.retreats.includes("mun"), "not to the attacker's origin");
  });

  test("fall takes centres and opens adjustments when someone can build", () => {
    const r = run({
      phase: "F1901M",
      units: { france: ["A gas"] },
      centers: { france: ["par", "bre", "mar"] },
      orders: { france: ["A gas - spa"] },
    });
    assert.equal(r.next.phase, "W1901A");
    assert.deepEqual(r.next.centers?.france, ["bre", "mar", "par", "spa"]);
  });

  test("winter is skipped when nobody has anything to adjust", () => {
    const r = run(quietFall);
    assert.equal(r.next.phase, "S1902M");
  });

  test("a power with 18 centres after fall wins", () => {
    const c18 = [
      "par",
      "bre",
      "mar",
      "spa",
      "por",
      "bel",
      "hol",
      "mun",
      "kie",
      "ber",
      "den",
      "lon",
      "lvp",
      "edi",
      "nwy",
      "swe",
      "tun",
    ];
    const r = run({
      phase: "F1905M",
      units: { france: ["A ruh"] },
      centers: { france: c18 },
      orders: { france: ["A ruh - mun"] },
    });
    assert.equal(r.winner, undefined, "mun already French: still 17");
    const r2 = run({
      phase: "F1905M",
      units: { france: ["A pie"] },
      centers: { france: c18 },
      orders: { france: ["A pie - ven"] },
    });
    assert.equal(r2.winner, "france");
  });
});

describe("retreats", () => {
  const base = { phase: "S1901R", units: { germany: ["A bur", "A pic"] } };
  test("two units retreating to one province are both disbanded", () => {
    const r = run({
      ...base,
      dislodged: {
        france: [{ unit: "A par", from: "bur" }],
        england: [{ unit: "A bel", from: "pic" }],
      },
      orders: { france: ["A par - gas"], england: ["A bel - hol"] },
    });
    assert.equal(entry(r, "france", 0).result, "succeeds");
    const r2 = run({
      ...base,
      units: { germany: ["A bur", "A hol"] },
      dislodged: {
        france: [{ unit: "A par", from: "bur" }],
        england: [{ unit: "A pic", from: "par" }],
      },
      orders: { france: ["A par - bre"], england: ["A pic - bre"] },
    });
    assert.equal(entry(r2, "france", 0).result, "fails");
    assert.equal(entry(r2, "england", 0).result, "fails");
    assert.match(entry(r2, "france", 0).reason ?? "", /bounced/);
    assert.deepEqual(units(r2), ["germany:A bur", "germany:A hol"]);
  });

  test("no retreat into a contested province or the attacker's origin; unordered units disband", () => {
    const r = run({
      phase: "S1901R",
      units: { germany: ["A bur"] },
      dislodged: {
        france: [{ unit: "A par", from: "bur" }],
        italy: [{ unit: "A mar", from: "spa" }],
      },
      contested: ["gas"],
      orders: { france: ["A par - gas"] },
    });
    assert.equal(entry(r, "france", 0).result, "invalid");
    assert.match(entry(r, "france", 0).reason ?? "", /standoff/);
    assert.equal(entry(r, "italy", 0).text, null);
    assert.equal(entry(r, "italy", 0).order, "A mar D");
    assert.deepEqual(units(r), ["germany:A bur"]);
    const r2 = run({
      phase: "S1901R",
      units: { germany: ["A bur"] },
      dislodged: { france: [{ unit: "A par", from: "bur" }] },
      orders: { france: ["A par - bur"] },
    });
    assert.match(entry(r2, "france", 0).reason ?? "", /attacker came from/);
  });

  test("retreatToConvoyedAttackerOrigin decides whether a unit may retreat where a convoyed attacker came from", () => {
    const input = {
      phase: "S1901R",
      units: { england: ["A bel"] },
      dislodged: { france: [{ unit: "A pic", from: "lon", viaConvoy: true }] },
      orders: { france: ["A pic - bre"] },
    };
    const pos = { ...input, units: { england: ["A bel"] }, orders: { france: ["A pic - bur"] } };
    assert.equal(entry(run(pos), "france", 0).result, "succeeds");
    const toOrigin = {
      phase: "S1901R",
      units: { england: ["F eng"] },
      dislodged: { france: [{ unit: "A bel", from: "hol", viaConvoy: true }] },
      orders: { france: ["A bel - hol"] },
    };
    assert.equal(entry(run(toOrigin), "france", 0).result, "succeeds");
    const strict = run({ ...toOrigin, rules: { retreatToConvoyedAttackerOrigin: false } });
    assert.equal(entry(strict, "france", 0).result, "invalid");
  });
});

describe("adjustments", () => {
  test("builds only in owned, vacant home centres; extra builds fail; one build per centre", () => {
    const r = run({
      phase: "W1901A",
      units: { russia: ["A mos"] },
      centers: { russia: ["mos", "stp", "war", "sev", "rum"] },
      orders: {
        russia: [
          "build A mos",
          "build A war",
          "build A war",
          "build F stp/nc",
          "build A sev",
          "build F rum",
        ],
      },
    });
    const res = r.orders.russia!.map((o) => o.result);
    assert.deepEqual(res, ["invalid", "succeeds", "fails", "succeeds", "succeeds", "invalid"]);
    assert.deepEqual(units(r), ["russia:A mos", "russia:A sev", "russia:A war", "russia:F stp/nc"]);
    assert.equal(r.next.phase, "S1902M");
  });

  test("a build without a unit type, or a fleet inland, or without a needed coast, is refused with what to write", () => {
    const r = run({
      phase: "W1901A",
      units: {},
      centers: { russia: ["mos", "stp", "war"] },
      orders: { russia: ["build mos", "build F war", "build F stp"] },
    });
    const reasons = r.orders.russia!.map((o) => o.reason ?? "");
    assert.match(reasons[0]!, /build A mos/);
    assert.match(reasons[1]!, /inland/);
    assert.match(reasons[2]!, /stp\/nc or stp\/sc/);
  });

  test("missing removals: farthest from home first, fleets before armies, then alphabetically", () => {
    const r = run({
      phase: "W1901A",
      units: { russia: ["A mos", "A tyr", "F bal", "F nth"] },
      centers: { russia: ["mos", "stp"] },
      orders: {},
    });
    // tyr is 3 from war; nth 2 from stp/nc via nwy; bal 2 from stp/sc via bot: tyr goes, then
    // of the two fleets at 2 the Baltic Sea (alphabetically first).
    assert.deepEqual(units(r), ["russia:A mos", "russia:F nth"]);
    const alpha = run({
      phase: "W1901A",
      units: { russia: ["A mos", "A tyr", "F bal", "F nth"] },
      centers: { russia: ["mos", "stp"] },
      orders: {},
      rules: { civilDisorderRemoval: "alphabetical" },
    });
    // Fleets first, then by name: Baltic Sea, North Sea.
    assert.deepEqual(units(alpha), ["russia:A mos", "russia:A tyr"]);
  });

  test("a waive uses a build", () => {
    const r = run({
      phase: "W1901A",
      units: {},
      centers: { italy: ["rom"] },
      orders: { italy: ["waive", "build A rom"] },
    });
    assert.deepEqual(
      r.orders.italy!.map((o) => o.result),
      ["succeeds", "fails"],
    );
  });
});

describe("explanations", () => {
  test("every order that did not succeed says why", () => {
    const r = moves(
      { germany: ["A mun", "A ruh", "A kie"], france: ["A bur", "A par"], england: ["F nth"] },
      {
        germany: ["A mun - bur", "A ruh S A mun - bur", "A kie - ruh"],
        france: ["A bur - mun", "A par S A bur - gas", "A xyz - bur"],
        england: ["F nth - hol", "F nth - bel"],
      },
    );
    for (const list of Object.values(r.orders)) {
      for (const o of list)
        if (o.result !== "succeeds") assert.ok(o.reason && o.reason.length > 5, JSON.stringify(o));
    }
    assert.match(entry(r, "germany", 2).reason ?? "", /own power/);
    assert.match(
      entry(r, "france", 0).reason ?? "",
      /head-to-head.*supported by A ruh.*1 against 2/,
    );
    assert.match(entry(r, "france", 1).reason ?? "", /did not move to gas/);
    assert.match(entry(r, "france", 2).reason ?? "", /unknown province/);
    assert.match(entry(r, "england", 0).reason ?? "", /ordered more than once/);
  });

  test("units with no order appear with the order they were deemed to have", () => {
    const r = moves({ austria: ["A vie", "A bud"] }, { austria: ["A vie - gal"] });
    assert.deepEqual(
      r.orders.austria!.map((o) => [o.text, o.order, o.result]),
      [
        ["A vie - gal", "A vie - gal", "succeeds"],
        [null, "A bud H", "succeeds"],
      ],
    );
  });

  test("an order for another power's unit is invalid and the unit holds", () => {
    const r = moves({ england: ["F lon"] }, { germany: ["F lon - nth"] });
    assert.equal(entry(r, "germany", 0).result, "invalid");
    assert.match(entry(r, "germany", 0).reason ?? "", /English, not yours/);
  });
});

describe("rule options: each alternative changes the outcome it names", () => {
  test("multiRouteConvoy: any dislodged fleet disrupts the convoy", () => {
    const position = {
      england: ["A lon", "F eng", "F nth"],
      france: ["F bre", "F mao"],
    };
    const orders = {
      england: ["A lon - bel", "F eng C A lon - bel", "F nth C A lon - bel"],
      france: ["F bre - eng", "F mao S F bre - eng"],
    };
    assert.deepEqual(
      units(moves(position, orders)).filter((u) => u.includes("A ")),
      ["england:A bel"],
    );
    const any = moves(position, orders, { multiRouteConvoy: "any" });
    assert.deepEqual(
      units(any).filter((u) => u.includes("A ")),
      ["england:A lon"],
    );
  });

  test("convoyToAdjacent: explicit needs 'via convoy'; any-convoy takes a foreign fleet's convoy", () => {
    const position = { england: ["A nwy", "F ska"], russia: ["A swe"] };
    const own = { england: ["A nwy - swe", "F ska C A nwy - swe"], russia: ["A swe - nwy"] };
    assert.ok(units(moves(position, own)).includes("england:A swe"), "intent: swapped by convoy");
    assert.ok(
      units(moves(position, own, { convoyToAdjacent: "explicit" })).includes("england:A nwy"),
    );
    const foreign = { england: ["A nwy"], germany: ["F ska"], russia: ["A swe"] };
    const forders = {
      england: ["A nwy - swe"],
      germany: ["F ska C A nwy - swe"],
      russia: ["A swe - nwy"],
    };
    assert.ok(
      units(moves(foreign, forders)).includes("england:A nwy"),
      "intent: a foreign convoy is not used",
    );
    assert.ok(
      units(moves(foreign, forders, { convoyToAdjacent: "any-convoy" })).includes("england:A swe"),
    );
  });

  test("convoyedAttackCutsSupportAgainstOrigin (DATC 6.G.13)", () => {
    const position = { austria: ["F adr", "A tri"], italy: ["A ven", "F alb"] };
    const orders = {
      austria: ["F adr C A tri - ven", "A tri - ven"],
      italy: ["A ven S F alb - tri", "F alb - tri"],
    };
    assert.deepEqual(Object.keys(moves(position, orders).dislodged ?? {}), ["austria"]);
    const cut = moves(position, orders, { convoyedAttackCutsSupportAgainstOrigin: true });
    assert.equal(cut.dislodged, undefined);
  });

  test("moveWithoutCoast: default takes the first coast", () => {
    const r = moves({ france: ["F mao"] }, { france: ["F mao - spa"] });
    assert.equal(entry(r, "france", 0).result, "invalid");
    const d = moves(
      { france: ["F mao"] },
      { france: ["F mao - spa"] },
      { moveWithoutCoast: "default" },
    );
    assert.deepEqual(units(d), ["france:F spa/nc"]);
  });

  test("supportCoast: ignore lets a support naming the other coast count (DATC 6.B.9)", () => {
    const position = { france: ["F mao", "F por"], italy: ["F lyo", "F wes"] };
    const orders = {
      france: ["F por S F mao - spa/nc", "F mao - spa/sc"],
      italy: ["F lyo S F wes - spa/sc", "F wes - spa/sc"],
    };
    assert.ok(units(moves(position, orders)).includes("italy:F spa/sc"));
    const ign = moves(position, orders, { supportCoast: "ignore" });
    assert.ok(units(ign).includes("italy:F wes"), "2 against 2: nobody moves");
  });

  test("unitType: strict voids an order that names the wrong unit type", () => {
    const r = moves({ germany: ["A ber"] }, { germany: ["F ber - pru"] });
    assert.deepEqual(units(r), ["germany:A pru"]);
    const s = moves({ germany: ["A ber"] }, { germany: ["F ber - pru"] }, { unitType: "strict" });
    assert.deepEqual(units(s), ["germany:A ber"]);
  });

  test("duplicateOrders: last, first, or hold", () => {
    const o = { germany: ["A ber - pru", "A ber - sil"] };
    assert.deepEqual(units(moves({ germany: ["A ber"] }, o)), ["germany:A sil"]);
    assert.deepEqual(units(moves({ germany: ["A ber"] }, o, { duplicateOrders: "first" })), [
      "germany:A pru",
    ]);
    assert.deepEqual(units(moves({ germany: ["A ber"] }, o, { duplicateOrders: "hold" })), [
      "germany:A ber",
    ]);
  });

  test("convoyParadox: all-hold makes every move of the paradox fail (DATC 6.F.14)", () => {
    const { position, orders } = convoyParadox;
    // Szykman: the convoyed army does not move, so London's support holds and the fleet in the
    // Channel is dislodged.
    const sz = moves(position, orders);
    assert.deepEqual(Object.keys(sz.dislodged ?? {}), ["france"]);
    assert.match(entry(sz, "france", 0).reason ?? "", /paradox/);
    const hold = moves(position, orders, { convoyParadox: "all-hold" });
    assert.equal(hold.dislodged, undefined);
    assert.deepEqual(units(hold), [
      "england:F lon",
      "england:F wal",
      "france:A bre",
      "france:F eng",
    ]);
  });

  test("readRules: profiles, overrides and clear errors", () => {
    assert.deepEqual(readRules("datc"), { ok: true, rules: DATC_RULES });
    const r = readRules({ profile: "datc", duplicateOrders: "first" });
    assert.ok(r.ok && r.rules.duplicateOrders === "first");
    const bad = readRules({ duplicateOrders: "sometimes" });
    assert.ok(!bad.ok && /use one of "last", "first", "hold"/.test(bad.error));
    const unknown = readRules("nonsense");
    assert.ok(!unknown.ok && /known: datc/.test(unknown.error));
    assert.ok(!readRules({ colour: "red" }).ok);
  });
});

describe("explanations of successes", () => {
  test("strengths and the units that gave them, dislodgements, supports, holds", () => {
    const r = moves(
      { france: ["A par", "A mar", "A gas"], germany: ["A bur", "A mun"] },
      {
        france: ["A par - bur", "A mar S A par - bur", "A gas S A par - bur"],
        germany: ["A bur H", "A mun S A bur"],
      },
    );
    assert.equal(
      entry(r, "france", 0).explanation,
      "moved with strength 3 (supported by A gas, A mar) against A bur's hold 2 (supported by A mun), dislodging A bur",
    );
    assert.equal(entry(r, "france", 1).explanation, "support given to A par - bur");
    assert.equal(entry(r, "germany", 1).explanation, "support given to A bur to hold");
    const held = moves(
      { england: ["A yor", "F nth"], france: ["A wal"] },
      {
        england: ["A yor H", "F nth S A yor"],
        france: ["A wal - yor"],
      },
    );
    assert.equal(
      entry(held, "england", 0).explanation,
      "held with strength 2 (supported by F nth) against A wal - yor 1",
    );
  });
});

describe("positions the contract refuses (an error line saying why)", () => {
  test("a movement phase with dislodged units: they are not silently ignored", () => {
    const out = adjudicateJson(
      {
        variant: "classical",
        phase: "S1901M",
        units: { france: ["A par"], germany: ["A mun"] },
        dislodged: { france: [{ unit: "A bur", from: "mun" }] },
        orders: { france: ["A par H"] },
      },
      DATC_RULES,
    );
    assert.ok("error" in out, "refused");
    assert.match(out.error, /"dislodged" is for retreat phases.*S1901M is a movement phase/);
    assert.match(out.error, /S1901R/, "it says what would be right");
    // An empty "dislodged" (as the contract's own `next` writes it) is still accepted.
    const empty = adjudicateJson(
      { phase: "S1901M", units: { france: ["A par"] }, dislodged: {}, orders: {} },
      DATC_RULES,
    );
    assert.ok(!("error" in empty), JSON.stringify(empty));
  });

  test("a Global Diplomacy position with no units is refused; no units given is the start", () => {
    const none = adjudicateAnyJson({ variant: "global", turn: 2, units: {} }, DATC_RULES);
    assert.ok("error" in none, "refused");
    assert.match(String(none.error), /no power has a unit.*leave "units" out/);
    const start = adjudicateAnyJson({ variant: "global" }, DATC_RULES);
    assert.ok(!("error" in start), JSON.stringify(start).slice(0, 200));
  });
});
