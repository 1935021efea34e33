import { rankForRemoval } from "../engine/adjudicate.ts";
import { parsePhase } from "../engine/phase.ts";
import { writePosition } from "../engine/position-json.ts";
import type { PowerId } from "../engine/types.ts";
import { invalid } from "./errors.ts";
import type { GameData } from "./game-data.ts";

/*
 * Seed 002 VIII(2): which unit an extra unit (a "Flying Dutchman") is, when the house rules
 * decide it rather than the GM. If too many units were built, the rule on excess builds
 * (V(2): the builds beyond the number allowed, counted in the order written or from the bottom
 * up) names the build that should have failed; if too few were removed, the rule on civil
 * disorder removals (V(4): farthest from home first) names the unit, with distances from the
 * most recently adjudicated position. Pure: reads the game, changes nothing.
 */

/** How the extra unit came to be: too many built, or too few removed. */
export type ExtraUnitCause = "built" | "not-removed";

export interface ExtraUnit {
  /** The unit as the position writes it (`A par`, `F stp/sc`). */
  readonly unit: string;
  /** Why this unit, by which rule: for the GM's reply and the published notice. */
  readonly rule: string;
}

const province = (unit: string) => unit.split(" ")[1]?.split("/")[0] ?? "";
const sameUnit = (a: string, b: string) =>
  a.split(" ")[0] === b.split(" ")[0] && province(a) === province(b);

/**
 * Where a unit that stood at `unit` after phase `from` (an index of the record's phases) is
 * now, following its successful moves and retreats; null when it has left the board.
 */
function followUnit(g: GameData, power: string, unit: string, from: number): string | null {
  let at = unit;
  for (const phase of g.record.phases.slice(from + 1)) {
    const before = at;
    for (const r of phase.results[power] ?? []) {
      if (r.result !== "succeeds" || !r.order) continue;
      const move = /^([AF] \S+) - (\S+)/.exec(r.order);
      if (move && sameUnit(move[1]!, before)) at = `${before.split(" ")[0]} ${move[2]}`;
    }
    const units = phase.position.units[power] ?? [];
    const dislodged = (phase.position.dislodged?.[power] ?? []).map((d) => d.unit);
    const here = units.find((u) => sameUnit(u, at)) ?? dislodged.find((u) => sameUnit(u, at));
    if (!here) return null;
    at = here;
  }
  return at;
}

/** The extra unit of `power` as the house rule for `cause` names it. */
export function extraUnitByRule(
  g: GameData,
  power: PowerId,
  cause: ExtraUnitCause,
  phase?: string,
): ExtraUnit {
  const variant = g.scenario.variant;
  const name = variant.powers.find((p) => p.id === power)?.name ?? power;
  const rules = g.record.rules;
  if (cause === "not-removed") {
    const units = g.position.units.filter((u) => u.power === power);
    const ranked = rankForRemoval(variant, power, units, rules, g.position.centers);
    const first = ranked[0];
    if (!first) throw invalid(`${name} has no unit on the board`);
    const text = writePosition(variant, { ...g.position, units: [first.unit] }).units[power]![0]!;
    const how =
      rules.civilDisorderRemoval === "distance"
        ? `the unit farthest from home (${first.distance} moves), fleets before armies, then alphabetically`
        : rules.civilDisorderRemoval === "owned"
          ? `the unit farthest from ${name}'s supply centres (${first.distance} moves)`
          : "the first in alphabetical order";
    return {
      unit: text,
      rule: `too few units removed: by the civil-disorder rule (seed 002 V(4)) ${how}, as the board stands now`,
    };
  }
  // Too many built: the adjustment phase named, or the last in which the power built.
  const wanted = phase?.trim().toUpperCase();
  if (wanted !== undefined && !parsePhase(wanted)) {
    throw invalid(
      `"${phase}" is not a phase: name it as W1901A (or W1901R where winter retreats and builds are one phase)`,
    );
  }
  const builds = (i: number) =>
    (g.record.phases[i]!.results[power] ?? []).flatMap((r) =>
      r.result === "succeeds" && r.order?.startsWith("build ") ? [r.order.slice(6)] : [],
    );
  let at = -1;
  for (let i = g.record.phases.length - 1; i >= 0; i--) {
    if (wanted !== undefined ? g.record.phases[i]!.phase === wanted : builds(i).length > 0) {
      at = i;
      break;
    }
  }
  if (at === -1 || builds(at).length === 0) {
    throw invalid(
      wanted !== undefined
        ? `${name} built nothing in ${wanted}`
        : `${name} has built no unit in this game: name the extra unit instead`,
    );
  }
  // V(2): `last`, the builds are counted from the bottom of the order set up, so the one over
  // the number is the topmost; `first`, in the order written, so it is the last written.
  const order = rules.excessAdjustments === "last" ? builds(at) : [...builds(at)].reverse();
  for (const built of order) {
    const now = followUnit(g, power, built, at);
    if (now !== null) {
      return {
        unit: now,
        rule: `too many units built in ${g.record.phases[at]!.phase}: by the excess-builds rule (seed 002 V(2), ${rules.excessAdjustments === "last" ? "counted from the bottom of the orders up" : "counted in the order written"}) the build of ${built} was the one over the number${now === built ? "" : `; that unit is now ${now}`}`,
      };
    }
  }
  throw invalid(
    `none of the units ${name} built in ${g.record.phases[at]!.phase} is still on the board: name the extra unit instead`,
  );
}
