import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
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
 * The DATC's version 3.0 cases that the shared 167 (version 2.4) lack: the six cases it
 * added (6.B.15, 6.C.8, 6.C.9, 6.F.25, 6.G.19, 6.G.20) and the cases whose position or
 * preferred answer it changed (6.G.8; the civil-disorder cases of 6.J under the 2023 rules).
 * Each runs through the public contract, `bin/entente adjudicate`, with the order text as
 * the DATC writes it and with its canonical spelling, under the rule options it names
 * (`rules`, over the `datc` profile). datc-v3.json says where each position came from.
 */

interface Case {
  id: string;
  source: string;
  title: string;
  phase: { season: string; year: number; type: string };
  units: SharedUnit[];
  dislodged: SharedDislodged[];
  centers: Record<string, string[]> | null;
  orders: SharedOrder[];
  expect: { units: SharedUnit[]; dislodged: SharedDislodged[] };
  rules?: Record<string, string | boolean>;
  preference: string;
}

const cases = JSON.parse(
  readFileSync(fileURLToPath(new URL("./datc-v3.json", import.meta.url)), "utf8"),
) as Case[];

function input(c: Case, field: "text" | "norm"): object {
  const season = { spring: "S", fall: "F", winter: "W" }[c.phase.season];
  const type = { movement: "M", retreat: "R", adjustment: "A" }[c.phase.type];
  return {
    variant: "classical",
    phase: `${season}${c.phase.year}${type}`,
    units: groupUnits(c.units),
    ...(c.centers ? { centers: c.centers } : {}),
    orders: groupOrders(c.orders, field),
    rules: { profile: "datc", ...c.rules },
  };
}

for (const field of ["text", "norm"] as const) {
  const outputs = adjudicateBatch(cases.map((c) => input(c, field)));
  for (const [i, c] of cases.entries()) {
    const options = c.rules ? ` [${JSON.stringify(c.rules)}]` : "";
    test(`DATC v3 ${c.id} ${c.title}${options} (order ${field})`, () => {
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

test("DATC v3: each case is one the shared 167 lack, by number or by content", () => {
  const shared =
    readShared<{ id: string; units: SharedUnit[]; orders: SharedOrder[] }[]>("datc/datc.json");
  const content = (c: { units: SharedUnit[]; orders: SharedOrder[] }) =>
    JSON.stringify([unitSet(groupUnits(c.units)), c.orders.map((o) => o.norm).sort()]);
  for (const c of cases) {
    assert.match(c.source, /^DATC version 3\.0, section 6\.[A-J]\.\d+/, `${c.id}: its source`);
    const same = shared.find((s) => s.id === c.id);
    if (same) {
      assert.ok(
        content(same) !== content(c) || c.rules !== undefined,
        `${c.id}: differs from the shared case in position, orders or the option it needs`,
      );
    }
  }
  assert.ok(cases.length >= 7, "the six added cases and the changed ones");
});
