/**
 * The invariants of a position (`checkInvariants`): what every position the engine produces
 * must satisfy, checked by self-play and the property tests.
 */

import { coastBit, KIND_LAND, KIND_SEA, mapTables, nextMark, powerTables } from "./tables.ts";
import { dislodgedKey, type Position, type PowerId } from "./types.ts";
import type { Variant } from "./variant.ts";

/**
 * What must hold of every position the engine produces. Returns the broken ones in words
 * (empty when all hold). Used by self-play and the property tests.
 */
export function checkInvariants(variant: Variant, pos: Position): string[] {
  // The verdict over integer tables; the words, when something may be broken, from the same
  // rules written out (`describeBroken`), so both give the same problems.
  return invariantsHold(variant, pos) ? [] : describeBroken(variant, pos);
}

/**
 * True when every invariant holds; false when one may not (a province or power the tables do
 * not know counts as may not: `describeBroken` then decides).
 */
function invariantsHold(variant: Variant, pos: Position): boolean {
  const t = mapTables(variant.map);
  const { index, kind, coastBits, mark, supplyCenter } = t;
  const s = nextMark(t);
  for (const u of pos.units) {
    const i = index.get(u.province);
    if (i === undefined || mark[i] === s) return false;
    mark[i] = s;
    const k = kind[i]!;
    if (u.type === "A") {
      if (k === KIND_SEA || u.coast !== null) return false;
    } else {
      if (k === KIND_LAND) return false;
      const bits = coastBits[i]!;
      if (bits === 0 ? u.coast !== null : u.coast === null || (bits & coastBit(u.coast)) === 0)
        return false;
    }
  }
  // Dislodged units only in a retreat phase (outside one, the list is always the empty kind).
  if (pos.phase.type === "R" ? !dislodgedHold(pos, index, mark, s) : pos.dislodged.length > 0)
    return false;
  for (const c of pos.centers.keys()) {
    const i = index.get(c);
    if (i === undefined || supplyCenter[i] !== 1) return false;
  }
  if (pos.phase.season === "S" && pos.phase.type === "M") {
    const pt = powerTables(variant);
    const { a: centres, b: units } = pt;
    centres.fill(0);
    units.fill(0);
    for (const owner of pos.centers.values()) {
      const w = pt.index.get(owner);
      if (w === undefined) return false;
      centres[w]!++;
    }
    for (const u of pos.units) {
      const w = pt.index.get(u.power);
      if (w === undefined) return false;
      if (++units[w]! > centres[w]!) return false;
    }
  }
  return true;
}

/**
 * The dislodged units of a retreat phase: each where a unit stands (its dislodger, marked
 * `s` in `mark`), none twice. A function of its own: most positions are of other phases, and
 * V8 would otherwise throw away `invariantsHold`'s optimized code at the first retreat phase
 * (and at the first with two dislodged units).
 */
function dislodgedHold(
  pos: Position,
  index: ReadonlyMap<string, number>,
  mark: Int32Array,
  s: number,
): boolean {
  const { dislodged } = pos;
  for (let a = 0; a < dislodged.length; a++) {
    const d = dislodged[a]!;
    const i = index.get(d.province);
    if (i === undefined || mark[i] !== s) return false;
    for (let b = 0; b < a; b++) {
      const e = dislodged[b]!;
      if (e.power === d.power && e.province === d.province) return false;
    }
  }
  return true;
}

/** Every broken invariant of the position, in words. */
function describeBroken(variant: Variant, pos: Position): string[] {
  const problems: string[] = [];
  const { map } = variant;
  const seen = new Set<string>();
  for (const u of pos.units) {
    if (seen.has(u.province)) problems.push(`two units in ${u.province}`);
    seen.add(u.province);
    const p = map.province(u.province);
    const legal =
      p !== undefined &&
      (u.type === "A"
        ? p.kind !== "sea" && u.coast === null
        : p.kind !== "land" &&
          (p.coasts.length > 0
            ? u.coast !== null && p.coasts.includes(u.coast)
            : u.coast === null));
    if (!legal)
      problems.push(
        `${u.type} ${u.province}${u.coast ? `/${u.coast}` : ""} is not a place it can stand`,
      );
  }
  if (pos.phase.type !== "R" && pos.dislodged.length > 0)
    problems.push("dislodged units outside a retreat phase");
  const dseen = new Set<string>();
  for (const d of pos.dislodged) {
    if (dseen.has(dislodgedKey(d)))
      problems.push(`two dislodged units of ${d.power} from ${d.province}`);
    dseen.add(dislodgedKey(d));
    if (!seen.has(d.province))
      problems.push(`the dislodged unit from ${d.province} has no dislodger there`);
  }
  for (const c of pos.centers.keys()) {
    if (!map.province(c)?.supplyCenter) problems.push(`${c} is owned but is not a supply centre`);
  }
  // After adjustments (a spring movement phase), no power has more units than centres.
  if (pos.phase.season === "S" && pos.phase.type === "M") {
    const centres = new Map<PowerId, number>();
    for (const owner of pos.centers.values()) centres.set(owner, (centres.get(owner) ?? 0) + 1);
    const units = new Map<PowerId, number>();
    for (const u of pos.units) units.set(u.power, (units.get(u.power) ?? 0) + 1);
    for (const [p, n] of units) {
      if (n > (centres.get(p) ?? 0))
        problems.push(`${p} has ${n} units but ${centres.get(p) ?? 0} centres`);
    }
  }
  return problems;
}
