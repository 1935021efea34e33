import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runSync } from "../src/testing/children.ts";

/*
 * Access to ../shared (the DATC cases and real games), which sits beside the repository on
 * every developer's machine and in CI. Its absence is an error, never a silent skip.
 */

export const SHARED = fileURLToPath(new URL("../../shared/", import.meta.url));

export function readShared<T>(path: string): T {
  const file = `${SHARED}${path}`;
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: these tests need the shared folder beside the repository`);
  }
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

export interface SharedUnit {
  power: string;
  type: "army" | "fleet";
  province: string;
  coast: string | null;
}

export interface SharedDislodged extends SharedUnit {
  attackerFrom: string | null;
  viaConvoy?: boolean;
}

export interface SharedOrder {
  power: string;
  text: string;
  norm: string;
}

export const unitString = (u: SharedUnit): string =>
  `${u.type === "army" ? "A" : "F"} ${u.coast ? `${u.province}/${u.coast}` : u.province}`;

export function groupUnits(units: readonly SharedUnit[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const u of units) {
    const list = out[u.power] ?? [];
    out[u.power] = list;
    list.push(unitString(u));
  }
  return out;
}

export function groupOrders(
  orders: readonly SharedOrder[],
  field: "text" | "norm",
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const o of orders) {
    const list = out[o.power] ?? [];
    out[o.power] = list;
    list.push(o[field]);
  }
  return out;
}

/** `power:A par` strings of a position's units, sorted: for comparing positions. */
export const unitSet = (units: Record<string, string[]>): string[] =>
  Object.entries(units)
    .flatMap(([p, us]) => us.map((u) => `${p}:${u}`))
    .sort();

/** The adjudicator's answer to one contract input, as the DATC runners read it. */
export interface AdjudicateOutput {
  error?: string;
  next: { units: Record<string, string[]> };
  dislodged?: Record<string, { unit: string; from: string | null }[]>;
}

const BIN = fileURLToPath(new URL("../bin/entente", import.meta.url));

/** Inputs through `bin/entente adjudicate` as one JSON Lines batch: one answer per input. */
export function adjudicateBatch(inputs: readonly object[]): AdjudicateOutput[] {
  const stdin = inputs.map((i) => JSON.stringify(i)).join("\n");
  const r = runSync(BIN, ["adjudicate"], { input: stdin, encoding: "utf8" });
  assert.equal(r.stderr, "", "adjudicate wrote to stderr");
  const lines = r.stdout.trim().split("\n");
  assert.equal(lines.length, inputs.length, "one output line per case");
  return lines.map((l) => JSON.parse(l) as AdjudicateOutput);
}
