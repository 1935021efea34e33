/*
 * A side's orders read back from the texts the judge stored (turn.ts `restore`): after a
 * restart of the server, MIS says what the stored set lacks, in every kind of phase.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readPosition } from "../engine/position-json.ts";
import { readRules } from "../engine/rules.ts";
import { getScenario } from "../variants/scenarios.ts";
import { fromText, type Item, itemsText, tree } from "./language.ts";
import { daideMap } from "./mapdef.ts";
import { phaseTables } from "./orders.ts";
import { misMessage, restore, submit, type UnitOrder } from "./turn.ts";

const scenario = getScenario("classical")!;
const map = daideMap(scenario);
const rules = readRules(undefined, scenario.variant.rules);
if (!rules.ok) throw new Error(rules.error);
const eng = map.sides.find((s) => s.name === "ENG")!;

function turnAt(position: Record<string, unknown>) {
  const pos = readPosition(position, scenario.variant);
  if (!rules.ok) throw new Error(rules.error);
  return {
    map,
    variant: scenario.variant,
    rules: rules.rules,
    position: pos,
    seats: scenario.seats,
    tables: phaseTables(scenario.variant, pos, rules.rules),
  };
}

const order = (text: string): Item => {
  const t = tree(fromText(text, map.names));
  if (!t.ok) throw new Error(text);
  return t.items[0]!;
};

/** Orders sent as DAIDE, then read back from their engine texts: the same MIS. */
function roundTrip(position: Record<string, unknown>, sent: string[]) {
  const t = turnAt(position);
  const orders = new Map<string, UnitOrder>();
  const r = submit(t, eng, orders, sent.map(order));
  assert.ok(
    r.answers.every((a) => itemsText(a, map.names).endsWith("(MBV)")),
    JSON.stringify(r.answers.map((a) => itemsText(a, map.names))),
  );
  const texts = [...orders.values()].map((o) => o.text);
  const back = restore(t, eng, texts);
  return {
    before: itemsText(misMessage(t, eng, orders), map.names),
    after: itemsText(misMessage(t, eng, back), map.names),
  };
}

test("movement: the units ordered are not missing after the read back", () => {
  const r = roundTrip(
    {
      phase: "S1901M",
      units: { england: ["F lon", "F edi", "A lvp"] },
      centers: { england: ["lon", "edi", "lvp"] },
    },
    ["((ENG FLT LON) MTO NTH)", "((ENG AMY LVP) SUP (ENG FLT EDI))"],
  );
  assert.equal(r.before, "MIS (ENG FLT EDI)");
  assert.equal(r.after, r.before);
});

test("adjustments: a build and a waived build are both read back", () => {
  const r = roundTrip(
    {
      phase: "W1901A",
      units: { england: ["F nwy", "F nth"] },
      centers: { england: ["lon", "edi", "lvp", "nwy", "bel"] },
    },
    ["((ENG FLT LON) BLD)", "(ENG WVE)"],
  );
  assert.equal(r.before, "MIS (-1)");
  assert.equal(r.after, r.before);
});

test("a text that is no legal order of the phase is passed over", () => {
  const t = turnAt({
    phase: "S1901M",
    units: { england: ["F lon"] },
    centers: { england: ["lon"] },
  });
  const back = restore(t, eng, ["F lon - mos", "F lon H"]);
  assert.equal(back.size, 1);
  assert.equal(itemsText(misMessage(t, eng, back), map.names), "MIS");
});
