import type { Position, PowerId } from "../../engine/types.ts";
import type { Variant } from "../../engine/variant.ts";

/*
 * The committee's victory points (Historical Committee rules, "The Objective", "Political
 * Victory points", "Losing and regaining your country"; docs/committee.md): five territorial
 * points for enough territory, the points of the political goals the chairs record as
 * achieved, and one point for every insurrection a power invested two units or more in. The
 * most points wins; a tie at the top is a draw.
 */

/** Who set a political goal: the chairs (three per power) or the power (up to two). */
export type GoalSource = "chairs" | "proposed";

/**
 * A political goal as the chairs enter it. The chairs' own goals are approved by definition;
 * a goal the power proposes is `pending` until the chairs approve or deny it.
 */
export interface PoliticalGoal {
  readonly id: string;
  readonly power: PowerId;
  readonly source: GoalSource;
  readonly text: string;
  readonly status: "approved" | "denied" | "pending";
  /** Points the chairs award for it, 0 to 3, "in accordance with the difficulty". */
  readonly points: number;
  /** Recorded by the chairs. */
  readonly achieved: boolean;
}

/** An insurrection as far as points go: the units each power disbanded for it. */
export interface InsurrectionRecord {
  readonly power: PowerId;
  readonly supporters: readonly { readonly power: PowerId }[];
}

export interface CommitteeState {
  readonly goals: readonly PoliticalGoal[];
  /** Every insurrection of the game, successful or not (`InsurrectionOutcome` fits). */
  readonly insurrections: readonly InsurrectionRecord[];
}

export interface PointsOptions {
  /**
   * Supply centres a power must own for the five territorial points. The seed says only
   * "enough territory"; the default is 15, a quarter of the 60 centres (three times a start).
   */
  readonly territorialCenters: number;
}

export const DEFAULT_POINTS_OPTIONS: PointsOptions = { territorialCenters: 15 };

export const TERRITORIAL_POINTS = 5;
export const MAX_GOAL_POINTS = 3;
export const CHAIRS_GOALS = 3;
export const PROPOSED_GOALS = 2;

export interface PowerScore {
  readonly power: PowerId;
  readonly centres: number;
  readonly territorial: number;
  readonly political: number;
  readonly insurrection: number;
  readonly total: number;
}

export type Scoring =
  | {
      readonly ok: true;
      /** Every power, best first (ties in the variant's power order). */
      readonly scores: readonly PowerScore[];
      /** The power with the most points alone, or null on a tie. */
      readonly winner: PowerId | null;
      /** The powers tied on the highest score (one element when there is a winner). */
      readonly leaders: readonly PowerId[];
    }
  | { readonly ok: false; readonly errors: readonly string[] };

/** What is wrong with the chairs' record of goals, if anything. */
export function checkGoals(variant: Variant, state: CommitteeState): string[] {
  const errors: string[] = [];
  const powers = new Set<string>(variant.powers.map((p) => p.id));
  const ids = new Set<string>();
  for (const g of state.goals) {
    if (ids.has(g.id)) errors.push(`goal ${g.id} is entered twice`);
    ids.add(g.id);
    if (!powers.has(g.power)) errors.push(`goal ${g.id}: unknown power ${g.power}`);
    if (!Number.isInteger(g.points) || g.points < 0 || g.points > MAX_GOAL_POINTS)
      errors.push(`goal ${g.id}: points must be a whole number from 0 to ${MAX_GOAL_POINTS}`);
    if (g.source === "chairs" && g.status !== "approved")
      errors.push(`goal ${g.id}: a goal set by the chairs is approved`);
    if (g.achieved && g.status !== "approved")
      errors.push(`goal ${g.id}: only an approved goal can be achieved`);
  }
  for (const p of variant.powers) {
    const own = state.goals.filter((g) => g.power === p.id);
    const chairs = own.filter((g) => g.source === "chairs").length;
    const proposed = own.filter((g) => g.source === "proposed").length;
    if (chairs > CHAIRS_GOALS)
      errors.push(`${p.id} has ${chairs} goals from the chairs; at most ${CHAIRS_GOALS}`);
    if (proposed > PROPOSED_GOALS)
      errors.push(`${p.id} proposed ${proposed} goals; at most ${PROPOSED_GOALS}`);
  }
  for (const i of state.insurrections) {
    if (!powers.has(i.power)) errors.push(`insurrection for unknown power ${i.power}`);
  }
  return errors;
}

/** The victory points of every power on this position, and who leads. */
export function scoreVictoryPoints(
  variant: Variant,
  position: Position,
  state: CommitteeState,
  options: PointsOptions = DEFAULT_POINTS_OPTIONS,
): Scoring {
  const errors = checkGoals(variant, state);
  if (!Number.isInteger(options.territorialCenters) || options.territorialCenters < 1)
    errors.push("territorialCenters must be a whole number of at least 1");
  if (errors.length > 0) return { ok: false, errors };
  const scores: PowerScore[] = variant.powers.map((p) => {
    const centres = [...position.centers.values()].filter((o) => o === p.id).length;
    const territorial = centres >= options.territorialCenters ? TERRITORIAL_POINTS : 0;
    const political = state.goals
      .filter((g) => g.power === p.id && g.status === "approved" && g.achieved)
      .reduce((sum, g) => sum + g.points, 0);
    const insurrection = state.insurrections.filter(
      (i) => i.supporters.filter((s) => s.power === p.id).length >= 2,
    ).length;
    return {
      power: p.id,
      centres,
      territorial,
      political,
      insurrection,
      total: territorial + political + insurrection,
    };
  });
  const best = Math.max(...scores.map((s) => s.total));
  const leaders = scores.filter((s) => s.total === best).map((s) => s.power);
  const order = new Map(variant.powers.map((p, i) => [p.id, i]));
  scores.sort((a, b) => b.total - a.total || order.get(a.power)! - order.get(b.power)!);
  return { ok: true, scores, winner: leaders.length === 1 ? leaders[0]! : null, leaders };
}
