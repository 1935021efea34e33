import { GameMap } from "../../engine/map.ts";
import {
  type Coast,
  type Position,
  type Power,
  type PowerId,
  powerId,
  provinceId,
  type Unit,
  type UnitType,
} from "../../engine/types.ts";
import type { Variant } from "../../engine/variant.ts";
import { classicalMapData } from "./map.ts";

/*
 * The classical game (the 1982 rulebook's Europe of 1901): its seven powers, its map (map.ts)
 * and the 1901 start, as the engine's `Variant`.
 */
const powers: readonly Power[] = [
  { id: powerId("austria"), name: "Austria", adjective: "Austrian", letter: "A" },
  { id: powerId("england"), name: "England", adjective: "English", letter: "E" },
  { id: powerId("france"), name: "France", adjective: "French", letter: "F" },
  { id: powerId("germany"), name: "Germany", adjective: "German", letter: "G" },
  { id: powerId("italy"), name: "Italy", adjective: "Italian", letter: "I" },
  { id: powerId("russia"), name: "Russia", adjective: "Russian", letter: "R" },
  { id: powerId("turkey"), name: "Turkey", adjective: "Turkish", letter: "T" },
];

const map = new GameMap(classicalMapData);

/** The 1901 start, per power, written `A vie` or `F stp/sc`. */
const startUnits: Readonly<Record<string, readonly string[]>> = {
  austria: ["A vie", "A bud", "F tri"],
  england: ["F lon", "F edi", "A lvp"],
  france: ["F bre", "A par", "A mar"],
  germany: ["F kie", "A ber", "A mun"],
  italy: ["F nap", "A rom", "A ven"],
  russia: ["A war", "A mos", "F sev", "F stp/sc"],
  turkey: ["F ank", "A con", "A smy"],
};

function unit(power: string, spec: string): Unit {
  const [type, where] = spec.split(" ") as [UnitType, string];
  const [province, coast] = where.split("/") as [string, Coast | undefined];
  return { power: powerId(power), type, province: provinceId(province), coast: coast ?? null };
}

// Pushed one by one: a packed array, as every later position's units are (`flatMap` makes a
// holey one, another hidden class for the code that reads positions: docs/performance.md).
const units: Unit[] = [];
for (const [power, specs] of Object.entries(startUnits))
  for (const s of specs) units.push(unit(power, s));

const start: Position = {
  phase: { season: "S", year: 1901, type: "M" },
  units,
  dislodged: [],
  contested: [],
  centers: new Map(
    map.supplyCenters.filter((p) => p.home !== null).map((p) => [p.id, p.home as PowerId] as const),
  ),
};

/** The standard game: seven powers on the 1982 board, starting Spring 1901. */
export const classical: Variant = {
  id: "classical",
  name: "Classical (1901)",
  powers,
  map,
  start,
  victoryCenters: 18,
};
