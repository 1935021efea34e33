/*
 * A scenario: a variant played by a given table of people. The seven-player game gives each
 * seat one power; the rulebook's alternatives for fewer players give a seat several powers,
 * leave some powers to nobody, or change the start and the victory (the two-player game).
 */

import type { Rng } from "./random.ts";
import type { PhaseResult } from "./results.ts";
import type { Position, PowerId } from "./types.ts";
import type { Variant } from "./variant.ts";

/** One player's place at the table: the powers they play. */
export interface Seat {
  readonly name: string;
  readonly powers: readonly PowerId[];
}

/** Something a scenario's own rules did between phases (a coin toss), kept in the record. */
export interface ScenarioEvent {
  readonly kind: string;
  /** What happened, in words for the history. */
  readonly text: string;
  /** Seats from the next phase on, when the event changes them. */
  readonly seats?: readonly Seat[];
}

export interface Scenario {
  readonly id: string;
  readonly description: string;
  readonly variant: Variant;
  readonly seats: readonly Seat[];
  /** After each adjudicated phase: events of the scenario's own rules (drawn from `rng`). */
  readonly afterPhase?: (
    result: PhaseResult,
    seats: readonly Seat[],
    history: readonly ScenarioEvent[],
    rng: Rng,
  ) => readonly ScenarioEvent[];
  /** A seat that has won in this position, where the scenario has its own victory. */
  readonly seatVictory?: (position: Position, seats: readonly Seat[]) => number | null;
}

/** The plain game: one seat per power, the variant's own victory. */
export function standardScenario(variant: Variant): Scenario {
  return {
    id: String(variant.powers.length),
    description: `${variant.powers.length} players, one power each`,
    variant,
    seats: variant.powers.map((p) => ({ name: p.name, powers: [p.id] })),
  };
}

/** Powers that no seat plays: they give no orders and are always in civil disorder. */
export function unplayedPowers(variant: Variant, seats: readonly Seat[]): PowerId[] {
  const known = unplayedCache.get(seats);
  if (known && known.variant === variant) return [...known.powers];
  const played = new Set(seats.flatMap((s) => s.powers));
  const powers = variant.powers.map((p) => p.id).filter((p) => !played.has(p));
  unplayedCache.set(seats, { variant, powers });
  return [...powers];
}

/** Seats are immutable and kept from phase to phase: their unplayed powers, once worked out. */
const unplayedCache = new WeakMap<
  readonly Seat[],
  { readonly variant: Variant; readonly powers: readonly PowerId[] }
>();
