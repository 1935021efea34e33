/**
 * For the sequential movement tests (seed 003): a season played through the contract's JSON
 * (`run`, `seq` with a schedule), and the board and the results it gives, briefly.
 */

import assert from "node:assert/strict";

import { adjudicateJson } from "../cli/adjudicate.ts";
import type { ResultJson } from "./position-json.ts";
import { DATC_RULES } from "./rules.ts";

type Units = Record<string, string[]>;
type Orders = Record<string, string[]>;

const SEVEN = ["austria", "england", "france", "germany", "italy", "russia", "turkey"];

/** A schedule with these powers first, in this order, and the rest after them. */
export const first = (...powers: string[]): string[] => [
  ...powers,
  ...SEVEN.filter((p) => !powers.includes(p)),
];

export function run(input: Record<string, unknown>): ResultJson {
  const out = adjudicateJson({ variant: "classical", phase: "S1901M", ...input }, DATC_RULES);
  if ("error" in out) throw new Error(out.error);
  return out;
}

export function seq(
  units: Units,
  orders: Orders,
  schedule: unknown,
  extra: Record<string, unknown> = {},
): ResultJson {
  return run({ units, orders, rules: { movement: "sequential", schedule, ...extra } });
}

export const board = (r: ResultJson): string[] =>
  Object.entries(r.next.units)
    .flatMap(([p, us]) => us.map((u) => `${p}:${u}`))
    .sort();

/** The result entry of the order whose text starts with `text` (or the deemed order). */
export function entry(r: ResultJson, power: string, text: string) {
  const e = r.orders[power]!.find((o) => (o.text ?? o.order ?? "").startsWith(text));
  assert.ok(e, `${power}: no entry for ${text}`);
  return e;
}

export const outcome = (r: ResultJson, power: string, text: string): string =>
  entry(r, power, text).result;
