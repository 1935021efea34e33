import assert from "node:assert/strict";
import { test } from "node:test";
import {
  adjudicateBatch,
  groupOrders,
  groupUnits,
  readShared,
  type SharedDislodged,
  type SharedOrder,
  type SharedUnit,
  unitSet,
  unitString,
} from "./shared.ts";

/*
 * Every DATC case through the public contract: `bin/entente adjudicate`, once with the order
 * text as the case's source wrote it and once with its canonical spelling.
 */

interface DatcCase {
  id: string;
  title: string;
  phase: { season: string; year: number; type: string };
  units: SharedUnit[];
  dislodged: SharedDislodged[];
  standoffs?: string[];
  centers: Record<string, string[]> | null;
  orders: SharedOrder[];
  expect: { units: SharedUnit[]; dislodged: SharedDislodged[] };
}

const cases = readShared<DatcCase[]>("datc/datc.json");

function input(c: DatcCase, field: "text" | "norm"): object {
  const season = { spring: "S", fall: "F", autumn: "F", winter: "W", summer: "U" }[c.phase.season];
  const type = { movement: "M", retreat: "R", adjustment: "A" }[c.phase.type];
  const dislodged: Record<string, object[]> = {};
  for (const d of c.dislodged) {
    const list = dislodged[d.power] ?? [];
    dislodged[d.power] = list;
    list.push({ unit: unitString(d), from: d.attackerFrom, viaConvoy: d.viaConvoy ?? false });
  }
  return {
    variant: "classical",
    phase: `${season}${c.phase.year}${type}`,
    units: groupUnits(c.units),
    dislodged,
    contested: c.standoffs ?? [],
    ...(c.centers ? { centers: c.centers } : {}),
    orders: groupOrders(c.orders, field),
  };
}

for (const field of ["text", "norm"] as const) {
  const outputs = adjudicateBatch(cases.map((c) => input(c, field)));
  for (const [i, c] of cases.entries()) {
    test(`DATC ${c.id} ${c.title} (order ${field})`, () => {
      const out = outputs[i]!;
      assert.equal(out.error, undefined, `error: ${out.error}`);
      assert.deepEqual(unitSet(out.next.units), unitSet(groupUnits(c.expect.units)), "units after");
      if (c.phase.type === "movement") {
        const got = Object.entries(out.dislodged ?? {})
          .flatMap(([p, ds]) => ds.map((d) => `${p}:${d.unit}<${d.from}`))
          .sort();
        const want = c.expect.dislodged
          .map((d) => `${d.power}:${unitString(d)}<${d.attackerFrom}`)
          .sort();
        assert.deepEqual(got, want, "dislodged");
      }
    });
  }
}

test("DATC: the whole suite is there", () => {
  assert.equal(cases.length, 167);
});
