import { rankForRemoval } from "../engine/adjustments.ts";
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
    missedRemoval(g, power, name, phase);
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
  const at = buildPhase(g, power, name, phase);
  const over = excessAfter(g, power, at);
  if (over > 0 && excessLeft(g, power, at) <= 0) throw alreadyRemoved(g, name, at);
  if (over <= 0) {
    const built = builds(g, power, at).length;
    throw invalid(
      `${name} built ${built} unit${built === 1 ? "" : "s"} in ${g.record.phases[at]!.phase} and had ${over === 0 ? "as many units as" : "fewer units than"} supply centres after it (${count(g, power, at)}): no build was over the number, so there is no extra unit to remove (seed 002 VIII(2)). A unit an error of yours put on the board is named instead (the unit, not BUILT)`,
    );
  }
  // V(2): `last`, the builds are counted from the bottom of the order set up, so the one over
  // the number is the topmost; `first`, in the order written, so it is the last written.
  const order =
    rules.excessAdjustments === "last" ? builds(g, power, at) : [...builds(g, power, at)].reverse();
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

/** A power's units and supply centres after the record's phase `i`, as a reader says them. */
function count(g: GameData, power: string, i: number): string {
  const p = g.record.phases[i]!.position;
  return `${p.units[power]?.length ?? 0} units, ${p.centers?.[power]?.length ?? 0} centres`;
}

/** Units over the number after the record's phase `i` (its units less its supply centres). */
function excessAfter(g: GameData, power: string, i: number): number {
  const p = g.record.phases[i]!.position;
  return (p.units[power]?.length ?? 0) - (p.centers?.[power]?.length ?? 0);
}

/**
 * The units over the number after the record's phase `i` that are still on the board: the
 * excess less the units the GM has removed since (an edit made with `i + 1` phases adjudicated
 * is already in phase `i`'s position).
 */
function excessLeft(g: GameData, power: string, i: number): number {
  const removed = (g.record.edits ?? []).filter(
    (e) => e.kind === "remove-unit" && e.power === power && e.after > i + 1,
  ).length;
  return excessAfter(g, power, i) - removed;
}

const alreadyRemoved = (g: GameData, name: string, i: number) =>
  invalid(
    `${name}'s extra units from ${g.record.phases[i]!.phase} have already been removed by the GM: there is no extra unit left to remove (seed 002 VIII(2))`,
  );

/** The record's adjustment phases: W1901A, or W1901R where winter retreats and builds are one. */
const adjustmentPhases = (g: GameData) =>
  g.record.phases.flatMap((p, i) => (/A$|^W.*R$/.test(p.phase) ? [i] : []));

/**
 * The adjustment phase after which the power kept more units than supply centres: a removal
 * was due and not made (the one named, else the last such). Refuses, with what the record
 * shows, when no removal was ever due or every one due was made: there is no extra unit.
 */
function missedRemoval(g: GameData, power: string, name: string, phase?: string): number {
  const phases = g.record.phases;
  const adjustments = adjustmentPhases(g);
  const named = phase === undefined ? -1 : phaseIndex(g, phase);
  if (phase !== undefined && !adjustments.includes(named)) {
    throw invalid(
      `${phase.trim().toUpperCase()} is not an adjustment phase adjudicated in this game; its adjustment phases: ${adjustments.map((i) => phases[i]!.phase).join(", ") || "none yet"}`,
    );
  }
  const candidates = phase === undefined ? adjustments : [named];
  const due = candidates.filter((i) => {
    const before = i === 0 ? g.record.start : phases[i - 1]!.position;
    return (before.units[power]?.length ?? 0) > (before.centers?.[power]?.length ?? 0);
  });
  const missed = due.filter((i) => excessAfter(g, power, i) > 0);
  const left = missed.filter((i) => excessLeft(g, power, i) > 0);
  if (left.length > 0) return left.at(-1)!;
  if (missed.length > 0) throw alreadyRemoved(g, name, missed.at(-1)!);
  const where = phase !== undefined ? ` in ${phase.trim().toUpperCase()}` : "";
  throw invalid(
    due.length === 0
      ? `no removal was ever due for ${name}${where}: it never had more units than supply centres going into an adjustment phase, so there is no extra unit to remove (seed 002 VIII(2))`
      : `${name} removed every unit due${where} (after ${phases[due.at(-1)!]!.phase}: ${count(g, power, due.at(-1)!)}): there is no extra unit to remove (seed 002 VIII(2))`,
  );
}

/** The units `power` built in the record's phase `i`, as its results write them. */
const builds = (g: GameData, power: string, i: number) =>
  (g.record.phases[i]!.results[power] ?? []).flatMap((r) =>
    r.result === "succeeds" && r.order?.startsWith("build ") ? [r.order.slice(6)] : [],
  );

/** The index of the record's phase named, or a refusal saying what a phase is. */
function phaseIndex(g: GameData, phase: string): number {
  const wanted = phase.trim().toUpperCase();
  if (!parsePhase(wanted)) {
    throw invalid(
      `"${phase}" is not a phase: name it as W1901A (or W1901R where winter retreats and builds are one phase)`,
    );
  }
  return g.record.phases.findIndex((p) => p.phase === wanted);
}

/** The adjustment phase of the excess builds: the one named, or the last the power built in. */
function buildPhase(g: GameData, power: string, name: string, phase?: string): number {
  let at = -1;
  if (phase !== undefined) at = phaseIndex(g, phase);
  else {
    for (let i = g.record.phases.length - 1; i >= 0 && at === -1; i--) {
      if (builds(g, power, i).length > 0) at = i;
    }
  }
  if (at === -1 || builds(g, power, at).length === 0) {
    throw invalid(
      phase !== undefined
        ? `${name} built nothing in ${phase.trim().toUpperCase()}`
        : `${name} has built no unit in this game: name the extra unit instead`,
    );
  }
  return at;
}

/** How the GM says the extra unit came to be: the unit named, or its cause; maybe a phase. */
export interface ExtraUnitHow {
  readonly cause?: ExtraUnitCause | undefined;
  /** The unit named, as the position writes it now. */
  readonly unit?: string | undefined;
  readonly phase?: string | undefined;
}

/**
 * Seed 002 VIII(2) applies to an extra unit that "has existed for more than one adjudication";
 * one the last adjudication brought is an error of that adjudication, corrected under VIII(1).
 * Which phase of the record brought it (an index of the record's phases), null when the record
 * cannot tell (the unit stood since before the phases recorded, no removal was ever due):
 * - the phase the GM names (`phase`), which must be one adjudicated in this game;
 * - too many built: the adjustment phase of the excess builds (as `extraUnitByRule` traces it);
 * - too few removed: the last adjustment phase after which the power kept more units than
 *   supply centres (refused when there is none: no removal was missed);
 * - a unit named: the phase in which it was built, followed to where it stands now.
 * Every adjudicated phase counts (movement, retreats, adjustments): each is published.
 */
export function extraUnitOrigin(g: GameData, power: PowerId, how: ExtraUnitHow): number | null {
  const variant = g.scenario.variant;
  const name = variant.powers.find((p) => p.id === power)?.name ?? power;
  const phases = g.record.phases;
  if (how.cause === "built") return buildPhase(g, power, name, how.phase);
  if (how.phase !== undefined) {
    const at = phaseIndex(g, how.phase);
    if (at === -1) {
      throw invalid(
        `${how.phase.trim().toUpperCase()} is not a phase adjudicated in this game; its phases: ${phases.map((p) => p.phase).join(", ") || "none yet"}`,
      );
    }
    return at;
  }
  if (how.cause === "not-removed") {
    // The adjustment phase after which a removal due was not made.
    return missedRemoval(g, power, name);
  }
  if (how.unit !== undefined) {
    for (let i = phases.length - 1; i >= 0; i--) {
      for (const built of builds(g, power, i)) {
        const now = followUnit(g, power, built, i);
        if (now !== null && sameUnit(now, how.unit)) return i;
      }
    }
  }
  return null;
}
