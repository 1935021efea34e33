import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { readPosition } from "../engine/position-json.ts";
import { readRules } from "../engine/rules.ts";
import type { Position } from "../engine/types.ts";
import { classical } from "../variants/classical/index.ts";
import { getScenario } from "../variants/scenarios.ts";
import { fromText, itemsText, tree } from "./language.ts";
import { daideMap } from "./mapdef.ts";
import { type AdjustmentSoFar, checkOrder, phaseTables } from "./orders.ts";

const scenario = getScenario("classical")!;
const m = daideMap(scenario);
const rules = readRules(undefined, classical.rules);
if (!rules.ok) throw new Error(rules.error);
const NONE: AdjustmentSoFar = {
  builds: new Map(),
  removes: new Map(),
  sites: new Set(),
  removed: new Set(),
};

/** The note a side's order gets in a position: MBV with the engine's text, or the note. */
function note(
  position: Position,
  sideName: string,
  order: string,
  soFar: AdjustmentSoFar = NONE,
): string {
  const side = m.sides.find((s) => s.name === sideName)!;
  const t = tree(fromText(order, m.names));
  assert.ok(t.ok);
  const c = checkOrder(
    {
      map: m,
      variant: classical,
      position,
      seats: scenario.seats,
      tables: phaseTables(classical, position, rules.ok ? rules.rules : ({} as never)),
      side,
      soFar,
    },
    t.items[0]!,
  );
  if (c.kind === "syntax") return "syntax";
  const n = itemsText([c.note], m.names);
  return c.accepted ? `${n} ${c.accepted.text}` : n;
}

const spring = classical.start;

describe("order notes: movement", () => {
  test("legal orders are MBV and become the engine's text", () => {
    assert.equal(note(spring, "AUS", "((AUS AMY BUD) MTO SER)"), "MBV A bud - ser");
    assert.equal(note(spring, "AUS", "((AUS FLT TRI) HLD)"), "MBV F tri H");
    assert.equal(
      note(spring, "AUS", "((AUS AMY VIE) SUP (AUS AMY BUD) MTO GAL)"),
      "MBV A vie S A bud - gal",
    );
    assert.equal(
      note(spring, "RUS", "((RUS FLT (STP SCS)) MTO BOT)".replace("BOT", "GOB")),
      "MBV F stp/sc - bot",
    );
  });

  test("each wrong order gets the note that says why", () => {
    assert.equal(note(spring, "AUS", "((GER AMY BER) MTO SIL)"), "NYU", "another power's unit");
    assert.equal(
      note(spring, "AUS", "((AUS AMY BER) HLD)"),
      "NYU",
      "a unit of another power there",
    );
    assert.equal(note(spring, "AUS", "((AUS AMY SER) HLD)"), "NSU", "no unit there");
    assert.equal(note(spring, "AUS", "((AUS FLT VIE) HLD)"), "NSU", "not a fleet");
    assert.equal(note(spring, "AUS", "((AUS AMY BUD) MTO MUN)"), "FAR");
    assert.equal(note(spring, "AUS", "((AUS AMY VIE) SUP (AUS FLT TRI) MTO VEN)"), "FAR");
    assert.equal(note(spring, "AUS", "((AUS AMY VIE) SUP (AUS AMY SER))"), "NSU");
    assert.equal(note(spring, "AUS", "((AUS FLT TRI) CVY (AUS AMY VIE) CTO ALB)"), "NAS");
    assert.equal(note(spring, "AUS", "((AUS AMY VIE) CVY (AUS AMY BUD) CTO ALB)"), "NSF");
    assert.equal(note(spring, "AUS", "((AUS AMY VIE) CTO ALB VIA (ADR))"), "NSF");
    assert.equal(note(spring, "AUS", "((AUS FLT TRI) CTO ALB VIA (ADR))"), "NSA");
    assert.equal(note(spring, "AUS", "((AUS AMY VIE) RTO BOH)"), "NRS", "a retreat in spring");
    assert.equal(note(spring, "AUS", "((AUS AMY VIE) BLD)"), "NRS", "a build in spring");
    assert.equal(
      note(spring, "AUS", "((AUS AMY VIE) MTO ?57FF)"),
      "NSP",
      "a province token of no map here",
    );
    assert.equal(note(spring, "AUS", "((AUS AMY VIE) FOO)".replace("FOO", "HLO")), "syntax");
  });

  test("a fleet's move to a split coast must name the coast when two are reachable", () => {
    const p = readPosition({ phase: "S1901M", units: { france: ["F mao"] } }, classical);
    assert.equal(note(p, "FRA", "((FRA FLT MAO) MTO SPA)"), "CST");
    assert.equal(note(p, "FRA", "((FRA FLT MAO) MTO (SPA NCS))"), "MBV F mao - spa/nc");
  });
});

describe("order notes: retreats and adjustments", () => {
  const retreat = readPosition(
    {
      phase: "S1901R",
      units: { austria: ["A ser", "F tri"], russia: ["A gal"] },
      dislodged: { austria: [{ unit: "A bud", from: "gal" }] },
    },
    classical,
  );
  test("retreats: NRN for a unit not dislodged, NVR for no retreat, MBV for a legal one", () => {
    assert.equal(note(retreat, "AUS", "((AUS AMY BUD) RTO VIE)"), "MBV A bud - vie");
    assert.equal(note(retreat, "AUS", "((AUS AMY BUD) DSB)"), "MBV A bud D");
    assert.equal(
      note(retreat, "AUS", "((AUS AMY BUD) RTO GAL)"),
      "NVR",
      "back to the attacker's origin",
    );
    assert.equal(note(retreat, "AUS", "((AUS AMY SER) RTO ALB)"), "NRN");
    assert.equal(note(retreat, "RUS", "((AUS AMY BUD) DSB)"), "NYU");
    assert.equal(note(retreat, "AUS", "((AUS AMY BUD) HLD)"), "NRS");
  });

  const winter = readPosition(
    {
      phase: "W1901A",
      units: {
        austria: ["A ser", "F tri"],
        russia: ["A war", "A mos", "F sev", "F stp/sc", "A ukr"],
      },
      centers: {
        austria: ["vie", "bud", "tri", "ser", "gre"],
        russia: ["mos", "war", "sev", "stp"],
      },
    },
    classical,
  );
  test("builds: every build note", () => {
    assert.equal(note(winter, "AUS", "((AUS AMY VIE) BLD)"), "MBV build A vie");
    assert.equal(note(winter, "AUS", "((AUS AMY SER) BLD)"), "HSC", "not a home centre");
    assert.equal(note(winter, "AUS", "((AUS AMY GAL) BLD)"), "NSC");
    assert.equal(note(winter, "AUS", "((AUS FLT TRI) BLD)"), "ESC", "occupied");
    assert.equal(note(winter, "AUS", "((AUS FLT VIE) BLD)"), "CST", "a fleet inland");
    assert.equal(note(winter, "AUS", "((AUS AMY WAR) BLD)"), "HSC", "another power's home");
    assert.equal(
      note(winter, "AUS", "((AUS AMY BUD) BLD)", {
        ...NONE,
        builds: new Map([["austria" as never, 3]]),
      }),
      "NMB",
    );
    assert.equal(
      note(winter, "AUS", "((AUS AMY VIE) BLD)", { ...NONE, sites: new Set(["vie" as never]) }),
      "BPR",
      "a second build at one site",
    );
    assert.equal(note(winter, "AUS", "(AUS WVE)"), "MBV waive austria");
  });

  test("removals: NMR when none is owed, MBV for a unit of a power that must remove", () => {
    const lost = readPosition(
      {
        phase: "W1901A",
        units: { austria: ["A ser", "F tri", "A vie", "A bud"] },
        centers: { austria: ["vie", "bud", "tri"] },
      },
      classical,
    );
    assert.equal(note(lost, "AUS", "((AUS AMY SER) REM)"), "MBV remove ser");
    assert.equal(
      note(lost, "AUS", "((AUS AMY VIE) REM)", {
        ...NONE,
        removes: new Map([["austria" as never, 1]]),
      }),
      "NMR",
    );
    assert.equal(note(winter, "AUS", "((AUS AMY SER) REM)"), "NMR");
    assert.equal(note(winter, "RUS", "(RUS WVE)"), "NMB", "Russia has nothing to build");
  });
});
