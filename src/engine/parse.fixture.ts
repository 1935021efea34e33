/**
 * For the order reader's tests: a small made-up map (names and coasts matter here, adjacency
 * does not) with its powers, and helpers to write expectations briefly (`ok`, `bad`, `u`,
 * `at`, `move`).
 */

import assert from "node:assert/strict";

import { GameMap, type MapData, type ProvinceData } from "./map.ts";
import type { ParsedOrder, UnitSpec } from "./orders.ts";
import { parseOrder } from "./parse.ts";
import { type Coast, type Power, powerId, provinceId, type UnitType } from "./types.ts";

// ---------------------------------------------------------------------------------------------
// A small map for the grammar: names and coasts matter here, adjacency does not.

function land(id: string, name: string, aliases: string[] = []): ProvinceData {
  return { id, name, aliases, kind: "land", army: [], fleet: [] };
}
function coastal(id: string, name: string, aliases: string[] = []): ProvinceData {
  return { id, name, aliases, kind: "coast", army: [], fleet: [] };
}
function sea(id: string, name: string, aliases: string[] = []): ProvinceData {
  return { id, name, aliases, kind: "sea", army: [], fleet: [] };
}

const fixtureData: MapData = {
  provinces: [
    coastal("lon", "London"),
    coastal("lvp", "Liverpool"),
    coastal("edi", "Edinburgh"),
    coastal("yor", "Yorkshire"),
    coastal("bel", "Belgium"),
    coastal("pic", "Picardy"),
    coastal("hol", "Holland"),
    coastal("den", "Denmark"),
    coastal("kie", "Kiel"),
    coastal("ber", "Berlin"),
    coastal("nwy", "Norway"),
    coastal("swe", "Sweden"),
    coastal("mar", "Marseilles"),
    coastal("alb", "Albania"),
    coastal("gre", "Greece"),
    coastal("tri", "Trieste"),
    coastal("ven", "Venice"),
    coastal("ank", "Ankara"),
    coastal("con", "Constantinople"),
    coastal("sev", "Sevastopol"),
    land("par", "Paris"),
    land("bur", "Burgundy"),
    land("ser", "Serbia"),
    land("bud", "Budapest"),
    land("vie", "Vienna"),
    land("war", "Warsaw"),
    land("mun", "Munich"),
    sea("nth", "North Sea"),
    sea("eng", "English Channel"),
    sea("bla", "Black Sea"),
    // Other spellings come from the map's aliases; the reader knows no variant of its own.
    sea("mao", "Mid-Atlantic Ocean", ["mid", "Mid Atlantic"]),
    sea("lyo", "Gulf of Lyon", ["gol", "Gulf of Lyons"]),
    sea("nwg", "Norwegian Sea", ["nrg"]),
    sea("nao", "North Atlantic Ocean", ["nat"]),
    { id: "bot", name: "Gulf of Bothnia", kind: "sea", army: [], fleet: ["stp/sc"] },
    { id: "bar", name: "Barents Sea", kind: "sea", army: [], fleet: ["stp/nc"] },
    {
      id: "stp",
      name: "St. Petersburg",
      kind: "coast",
      army: [],
      fleet: [],
      coasts: { nc: ["bar"], sc: ["bot"] },
    },
    { id: "spa", name: "Spain", kind: "coast", army: [], fleet: [], coasts: { nc: [], sc: [] } },
    { id: "bul", name: "Bulgaria", kind: "coast", army: [], fleet: [], coasts: { ec: [], sc: [] } },
  ],
};

export const fixture = new GameMap(fixtureData);

export const fixturePowers: readonly Power[] = [
  { id: powerId("england"), name: "England", adjective: "English", letter: "E" },
  { id: powerId("germany"), name: "Germany", adjective: "German", letter: "G" },
  { id: powerId("russia"), name: "Russia", adjective: "Russian", letter: "R" },
  { id: powerId("turkey"), name: "Turkey", adjective: "Turkish", letter: "T" },
];

// ---------------------------------------------------------------------------------------------
// Helpers to write expectations briefly

export function u(type: UnitType | null, where: string, power: string | null = null): UnitSpec {
  const [p, c] = where.split("/") as [string, Coast | undefined];
  return {
    type,
    province: provinceId(p),
    coast: c ?? null,
    power: power === null ? null : powerId(power),
  };
}
export function at(where: string): {
  province: ReturnType<typeof provinceId>;
  coast: Coast | null;
} {
  const [p, c] = where.split("/") as [string, Coast | undefined];
  return { province: provinceId(p), coast: c ?? null };
}

export function parse(
  text: string,
  map: GameMap = fixture,
  powers: readonly Power[] = fixturePowers,
) {
  return parseOrder(text, map, powers);
}

export function ok(
  text: string,
  map: GameMap = fixture,
  powers: readonly Power[] = fixturePowers,
): ParsedOrder {
  const r = parse(text, map, powers);
  if (!r.ok) assert.fail(`${JSON.stringify(text)} did not parse: ${r.error.message}`);
  return r.order;
}

export function bad(text: string, map: GameMap = fixture) {
  const r = parse(text, map);
  if (r.ok) assert.fail(`${JSON.stringify(text)} parsed, as ${JSON.stringify(r.order)}`);
  return r.error;
}

export function expectAll(cases: readonly (readonly [string, ParsedOrder])[]): void {
  for (const [text, order] of cases) assert.deepEqual(ok(text), order, text);
}

export const move = (unit: UnitSpec, to: string, viaConvoy = false): ParsedOrder => ({
  kind: "move",
  unit,
  to: at(to),
  viaConvoy,
});

/** A support to hold (`to` left out) or to move. */
export const support = (
  unit: UnitSpec,
  supported: UnitSpec,
  to: string | null = null,
): ParsedOrder => ({ kind: "support", unit, supported, to: to === null ? null : at(to) });

export const convoy = (unit: UnitSpec, convoyed: UnitSpec, to: string): ParsedOrder => ({
  kind: "convoy",
  unit,
  convoyed,
  to: at(to),
});

// ---------------------------------------------------------------------------------------------
