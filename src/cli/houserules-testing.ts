import assert from "node:assert/strict";
import type { ResultJson } from "../engine/position-json.ts";
import { DATC_RULES, HOUSE_RULES, readRules } from "../engine/rules.ts";
import { run } from "./testing.ts";

/*
 * What the house rules' tests share (houserules.test.ts, houserules-phases.test.ts,
 * houserules-convoys.test.ts): a classical position adjudicated under the `houserules`
 * profile, under `datc`, or under any rules the contract reads (`moves`: a spring's orders).
 */

export type Units = Record<string, string[]>;
export type Orders = Record<string, string[]>;

export const house = (input: Record<string, unknown>) => run(input, HOUSE_RULES);
export const datc = (input: Record<string, unknown>) => run(input, DATC_RULES);

export function moves(
  u: Units,
  orders: Orders,
  rules: unknown = HOUSE_RULES,
  phase = "S1901M",
): ResultJson {
  const r = readRules(rules);
  assert.ok(r.ok);
  return run({ phase, units: u, orders }, r.rules);
}
