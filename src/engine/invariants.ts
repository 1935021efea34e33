import { dislodgedKey, type Position, type PowerId } from "./types.ts";
import type { Variant } from "./variant.ts";

/**
 * What must hold of every position the engine produces. Returns the broken ones in words
 * (empty when all hold). Used by self-play and the property tests.
 */
export function checkInvariants(variant: Variant, pos: Position): string[] {
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
