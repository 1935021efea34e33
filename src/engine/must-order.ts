/**
 * The powers that have something to order in a position (`powersToOrder`,
 * `powersThatMustOrder`): units in a movement phase, dislodged units in a retreat phase,
 * builds with a site or removals in an adjustment phase.
 */

import { adjudicate } from "./adjudicate.ts";
import { adjustmentCounts, buildSites } from "./adjustments.ts";
import { retreatOptions } from "./retreats.ts";
import { DATC_RULES, type RuleOptions } from "./rules.ts";
import type { Position, PowerId } from "./types.ts";
import type { Variant } from "./variant.ts";

/** Powers that can build (and have a site) or must remove in an adjustment position. */
function adjusting(variant: Variant, position: Position): PowerId[] {
  return [...adjustmentCounts(variant, position)]
    .filter(([power, n]) => n < 0 || (n > 0 && buildSites(variant, position, power).length > 0))
    .map(([power]) => power);
}

/**
 * The powers that have something to order in this position: units to move, dislodged units
 * to retreat, builds they can make or removals they owe. In the house rules' winter phase
 * (seed 002 II(5) Alternative C: `W1901R` takes the fall retreats and the adjustments in one
 * set) also every power that may adjust once the retreats are made: those that must adjust
 * if every dislodged unit is disbanded, and the owners of the centres a retreat could take.
 */
export function powersToOrder(
  variant: Variant,
  position: Position,
  rules: RuleOptions = DATC_RULES,
): PowerId[] {
  return powersWith(variant, position, rules, (p) => adjusting(variant, p), true);
}

/**
 * The powers that had to order in this position, for missed orders (seed 002 VII(6), seed
 * 001 §3): those with units to move, dislodged units to retreat or removals they owe (in the
 * house rules' winter phase, also those that must remove if every dislodged unit is
 * disbanded). A power that only could have build and sent nothing has waived its builds: it
 * is among `powersToOrder` but not here.
 */
export function powersThatMustOrder(
  variant: Variant,
  position: Position,
  rules: RuleOptions = DATC_RULES,
): PowerId[] {
  const removing = (p: Position) =>
    [...adjustmentCounts(variant, p)].filter(([, n]) => n < 0).map(([power]) => power);
  return powersWith(variant, position, rules, removing, false);
}

/**
 * Both lists: the powers with units in a movement phase, with dislodged units in a retreat
 * phase, and `adjusters` of an adjustment position; in the winter phase also `adjusters` of
 * the position after the retreats if every dislodged unit is disbanded, and with
 * `retreatTargets` the owners of the centres a retreat could take. In the variant's order.
 */
function powersWith(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
  adjusters: (p: Position) => readonly PowerId[],
  retreatTargets: boolean,
): PowerId[] {
  const out = new Set<PowerId>();
  const { phase } = position;
  if (phase.type === "M") for (const u of position.units) out.add(u.power);
  else if (phase.type === "R") {
    for (const u of position.dislodged) out.add(u.power);
    if (phase.season === "W") {
      const fall = { ...position, phase: { ...phase, season: "F" as const } };
      const after = adjudicate(variant, fall, new Map(), rules).next;
      if (after.phase.type === "A") for (const p of adjusters(after)) out.add(p);
      if (retreatTargets) {
        for (const d of position.dislodged) {
          for (const l of retreatOptions(variant, position, d, rules)) {
            const owner = position.centers.get(l.province);
            if (owner !== undefined) out.add(owner);
          }
        }
      }
    }
  } else for (const p of adjusters(position)) out.add(p);
  return variant.powers.map((p) => p.id).filter((p) => out.has(p));
}
