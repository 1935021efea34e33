/*
 * For europe1935's tests only: the map read by its ids (`fleet("lon", "eng")`); the public
 * contract run as a player writes orders (`run`, `expect`, `then`), from the 1935 start
 * unless told; and a board of spring 1936 on which the USSR has lost its country (Germany
 * holds Moscow, St. Petersburg and Murmansk, Turkey Rostov, Poland Siberia; no Soviet unit
 * is left), for the insurrection and acts tests.
 */
import assert from "node:assert/strict";
import { adjudicateJson } from "../../cli/adjudicate.ts";
import { locationKey } from "../../engine/map.ts";
import { type ResultJson, writePosition } from "../../engine/position-json.ts";
import { DATC_RULES } from "../../engine/rules.ts";
import { type Coast, type Location, type ProvinceId, provinceId } from "../../engine/types.ts";
import { europe1935 } from "./index.ts";

const map = europe1935.map;
export const at = (key: string): Location => {
  const [p, c] = key.split("/");
  return { province: provinceId(p!), coast: (c ?? null) as Coast | null };
};
export const pid = (s: string): ProvinceId => provinceId(s);
export const fleet = (a: string, b: string) => map.fleetAdjacent(at(a), at(b));
export const army = (a: string, b: string) => map.armyAdjacent(pid(a), pid(b));
export const ids = (list: readonly { id: ProvinceId }[]) => list.map((p) => p.id as string).sort();
export const fleetNeighbours = (key: string) =>
  map.fleetNeighbours(at(key)).map(locationKey).sort();

// The public contract, as a player would write the orders.

export const START_UNITS = writePosition(europe1935, europe1935.start).units;

export interface Input {
  phase?: string;
  units?: Record<string, string[]>;
  centers?: Record<string, string[]>;
  orders: Record<string, string[]>;
  rules?: unknown;
}

export function run(input: Input): ResultJson {
  const r = adjudicateJson(
    { variant: "europe1935", phase: "S1935M", units: START_UNITS, ...input },
    DATC_RULES,
  );
  if ("error" in r) assert.fail(r.error);
  return r;
}

/** The result of the order written `text` (as given). */
export function outcome(r: ResultJson, power: string, text: string) {
  const o = r.orders[power]?.find((x) => x.text === text);
  if (!o) assert.fail(`no order ${JSON.stringify(text)} for ${power}`);
  return o;
}

export function expect(r: ResultJson, power: string, text: string, result: string): void {
  const o = outcome(r, power, text);
  assert.equal(o.result, result, `${text}: ${o.result}${o.reason ? ` (${o.reason})` : ""}`);
}

/** Runs the next movement phase from a result's next position. */
export function then(r: ResultJson, orders: Record<string, string[]>): ResultJson {
  return run({ phase: r.next.phase, units: r.next.units, centers: r.next.centers, orders });
}

export const unitsOf = (r: ResultJson, power: string) => [...(r.next.units[power] ?? [])].sort();

/** The units, per power, as position JSON writes them. */
export const USSR_FALLEN_UNITS: Readonly<Record<string, string[]>> = {
  uk: ["F lon", "A edi", "F ire"],
  france: ["A par", "F bri"],
  italy: ["A ven", "F rom"],
  germany: ["A mos", "A ber"],
  turkey: ["F ank"],
  poland: ["A war"],
};

/** The supply centres, per power. */
export const USSR_FALLEN_CENTERS: Readonly<Record<string, string[]>> = {
  uk: ["lon", "edi", "ire"],
  france: ["par", "bri"],
  italy: ["ven", "rom"],
  germany: ["ber", "mos", "stp", "mur"],
  turkey: ["ank", "ros"],
  poland: ["sib", "kra"],
};
