/**
 * Phase names and their order: `S1901M` written and read, a phase's ordinal, the phase after
 * a movement phase, and a phase in words.
 */

import type { RuleOptions } from "./rules.ts";
import { makePhase } from "./shapes.ts";
import type { Phase, PhaseType, Season } from "./types.ts";

/** `S1901M`: season letter, year, phase letter. */
export function phaseName(p: Phase): string {
  return `${p.season}${p.year}${p.type}`;
}

const PHASE_RE = /^([SUFW])(\d{1,5})([MRA])$/;

export function parsePhase(text: string): Phase | null {
  const m = PHASE_RE.exec(text.trim().toUpperCase());
  if (!m) return null;
  return { season: m[1] as Season, year: Number(m[2]), type: m[3] as PhaseType };
}

/** A phase's position in time, for ordering phases of one game. */
export function phaseOrdinal(p: Phase): number {
  const season = { S: 0, U: 1, F: 2, W: 3 }[p.season];
  const type = { M: 0, R: 1, A: 2 }[p.type];
  return (p.year * 4 + season) * 3 + type;
}

/**
 * The retreat phase after a movement phase. `standard` seasons: S1901R, F1901R. Seed 002
 * II(5) Alternative C (`summer-winter`): spring retreats are summer (U1901R), fall retreats
 * winter (W1901R), a phase in which the adjustments are ordered too.
 */
export function phaseAfterMovement(p: Phase, rules: Pick<RuleOptions, "seasons">): Phase {
  if (rules.seasons === "summer-winter")
    return makePhase(p.season === "S" ? "U" : "W", p.year, "R");
  return makePhase(p.season, p.year, "R");
}

export function describePhase(p: Phase): string {
  if (p.season === "W" && p.type === "R") return `Winter ${p.year} retreats and adjustments`;
  const season = { S: "Spring", U: "Summer", F: "Fall", W: "Winter" }[p.season];
  const type = { M: "movement", R: "retreats", A: "adjustments" }[p.type];
  return `${season} ${p.year} ${type}`;
}
