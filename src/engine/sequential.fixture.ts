/**
 * For the sequential movement tests (seed 003): a season played through the contract's JSON
 * (`run`, `seq` with a schedule), and the board and the results it gives, briefly.
 */

import assert from "node:assert/strict";

import { adjudicateJson } from "../cli/adjudicate.ts";
import { legalMovementOrders } from "./legal.ts";
import { formatOrder } from "./orders.ts";
import type { ResultJson } from "./position-json.ts";
import type { Rng } from "./random.ts";
import { DATC_RULES } from "./rules.ts";
import type { Position, PowerId } from "./types.ts";
import type { Variant } from "./variant.ts";

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

/**
 * A legal order for every unit that has one, drawn with `r`, as text; a support of a move
 * becomes a retrospective support (`A rum S A vie in gal`) on a coin toss.
 */
export function randomTexts(v: Variant, pos: Position, r: Rng): Map<PowerId, string[]> {
  const legal = legalMovementOrders(v, pos, DATC_RULES);
  const orders = new Map<PowerId, string[]>();
  for (const u of pos.units) {
    const options = legal.get(u.province) ?? [];
    if (options.length === 0) continue;
    let text = formatOrder(r.pick(options));
    if (/ S .* - /.test(text) && r.int(2) === 0) text = text.replace(/ - (\w+)$/, " in $1");
    orders.set(u.power, [...(orders.get(u.power) ?? []), text]);
  }
  return orders;
}
