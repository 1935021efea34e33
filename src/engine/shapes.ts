/*
 * One maker per kind of object the engine makes every phase (units, phases, positions), each
 * writing every field, always in the same order. V8 gives objects built alike one hidden
 * class; an object spread (`{ ...pos, phase }`) makes a copy of another class, and code
 * optimized for the first kind is thrown away when the second reaches it ("wrong map"
 * deopts, then a recompile): docs/performance.md, "Warm-up: shapes and deopts". The values
 * are the plain data of types.ts: nothing here changes what a position is.
 */

import type {
  Coast,
  DislodgedUnit,
  Phase,
  PhaseType,
  Position,
  PowerId,
  ProvinceId,
  Season,
  Unit,
  UnitType,
} from "./types.ts";

export const makeUnit = (
  power: PowerId,
  type: UnitType,
  province: ProvinceId,
  coast: Coast | null,
): Unit => ({ power, type, province, coast });

export const makeDislodged = (
  u: Unit,
  attackerFrom: ProvinceId | null,
  viaConvoy: boolean,
): DislodgedUnit => ({
  power: u.power,
  type: u.type,
  province: u.province,
  coast: u.coast,
  attackerFrom,
  viaConvoy,
});

export const makePhase = (season: Season, year: number, type: PhaseType): Phase => ({
  season,
  year,
  type,
});

export const makePosition = (
  phase: Phase,
  units: readonly Unit[],
  dislodged: Position["dislodged"],
  contested: Position["contested"],
  centers: Position["centers"],
): Position => ({ phase, units, dislodged, contested, centers });

/** `pos` in another phase (its board unchanged). */
export const withPhase = (pos: Position, phase: Phase): Position =>
  makePosition(phase, pos.units, pos.dislodged, pos.contested, pos.centers);
