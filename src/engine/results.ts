/**
 * What a phase gives and takes besides the board: a result per order (`OrderResult`, with its
 * reason and explanation), a phase's result (`PhaseResult`: results, next position, winner,
 * dislodged units), the orders as texts (`OrderTexts`) and what the game around a phase adds
 * (`AdjudicateOptions`). Types, and the makers of results.
 */

import type { MovementWords } from "./movement.ts";
import type { Order } from "./orders.ts";
import type { DislodgedUnit, Location, Phase, Position, PowerId } from "./types.ts";

export type ResultKind = "succeeds" | "fails" | "invalid";

export interface OrderResult {
  readonly power: PowerId;
  /** The text as given; null for a unit that got no order (its deemed order follows). */
  readonly text: string | null;
  /** The order as understood; null where the text could not be read. */
  readonly order: Order | null;
  readonly result: ResultKind;
  /** Why it did not succeed; null when it did. */
  readonly reason: string | null;
  /** How it came out, in words a chair can read aloud (strengths, supports, cuts, rules). */
  readonly explanation: string;
}

export interface PhaseResult {
  readonly phase: Phase;
  readonly results: readonly OrderResult[];
  /** The next position, with phases that have nothing to do skipped. */
  readonly next: Position;
  /**
   * A power that reached the victory centres at the end of this phase, if any; never for a
   * variant without a centre victory (`Variant.victoryCenters` null).
   */
  readonly winner: PowerId | null;
  /**
   * Units dislodged by this phase's moves (movement phases), with where each may retreat:
   * also those with nowhere to go, which `next` no longer holds.
   */
  readonly dislodged: readonly {
    readonly unit: DislodgedUnit;
    readonly retreats: readonly Location[];
  }[];
}

/**
 * The result of an order of a movement phase, whose words (`reason`, `explanation`) are made
 * when first read: most callers (self-play, agents) read few or none, and wording every order
 * was a quarter of the resolver's time. The words are the same as if made at once. Plain
 * data for everything else: `JSON.stringify` gives the same JSON as a plain `OrderResult`
 * (`toJSON`), and `plainResult` makes a plain copy (a spread would copy only `power`, `text`,
 * `order` and `result`: the words live on the prototype, not on each object).
 */
export class MovementOrderResult implements OrderResult {
  readonly power: PowerId;
  readonly text: string | null;
  readonly order: Order | null;
  readonly result: ResultKind;
  readonly #words: MovementWords;
  readonly #i: number;

  constructor(
    power: PowerId,
    text: string | null,
    order: Order | null,
    result: ResultKind,
    words: MovementWords,
    i: number,
  ) {
    this.power = power;
    this.text = text;
    this.order = order;
    this.result = result;
    this.#words = words;
    this.#i = i;
  }

  get reason(): string | null {
    return this.result === "succeeds" ? null : this.#words.reason(this.#i);
  }

  get explanation(): string {
    return this.#words.explanation(this.#i);
  }

  toJSON(): OrderResult {
    return plainResult(this);
  }
}

/** An order's result as plain data (every field its own), whatever object it came as. */
export function plainResult(r: OrderResult): OrderResult {
  return makeResult(r.power, r.text, r.order, r.result, r.reason, r.explanation);
}

/** A plain result (one maker: one hidden class, see shapes.ts). */
export const makeResult = (
  power: PowerId,
  text: string | null,
  order: Order | null,
  result: ResultKind,
  reason: string | null,
  explanation: string,
): OrderResult => ({ power, text, order, result, reason, explanation });

/** Orders per power, each power's list as it was written. */
export type OrderTexts = ReadonlyMap<PowerId, readonly string[]>;

/** What the game around the phase adds (a scenario's table), beyond variant and rules. */
export interface AdjudicateOptions {
  /**
   * Powers whose units dislodged in a movement phase are disbanded at once, with no retreat
   * phase waiting for them: powers nobody plays (seed 001's neutral Italy in the six- and
   * five-player games: "if they are forced to retreat, they are disbanded").
   */
  readonly disbandDislodged?: ReadonlySet<PowerId>;
}
