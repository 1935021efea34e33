/**
 * The `Variant` interface (the board, the powers, the start, and a variant's optional rule
 * hooks and own orders), and `GameFamily`, a game reached as JSON by `entente adjudicate`.
 */

import type { GameMap } from "./map.ts";
import type { OrderTexts, PhaseResult } from "./results.ts";
import type { RuleOptions } from "./rules.ts";
import type { Phase, Position, Power, ProvinceId } from "./types.ts";

/**
 * A variant: the board, the powers and the start. Every game the engine runs is one of these;
 * variants live in src/variants and reach the rest of the project through the registry.
 */
export interface Variant {
  readonly id: string;
  readonly name: string;
  readonly powers: readonly Power[];
  readonly map: GameMap;
  /** The opening position (for the classical game, Spring 1901 movement). */
  readonly start: Position;
  /**
   * How the game is won by centres: the supply centres one power needs for a solo victory
   * (reported as `winner` when the centres change hands, and the game ends). null: no number
   * of centres wins or ends the game; the variant decides its winner by its own rules
   * (europe1935: the committee's victory points when the chairs end the game).
   */
  readonly victoryCenters: number | null;
  /**
   * The variant's own rule defaults (europe1935: a fleet moving to Iran must name the coast):
   * applied over the chosen profile, overridden by options given explicitly (`readRules`).
   */
  readonly rules?: Partial<RuleOptions>;
  /**
   * Provinces no unit may enter in a phase (neutral territory, as Italy's in the two-player
   * game). Absent: every province is open.
   */
  readonly closed?: (phase: Phase) => ReadonlySet<ProvinceId>;
  /**
   * A variant's own orders in a movement phase (europe1935's insurrections): given the
   * phase's orders and `base`, the engine's adjudication of a position and orders, it returns
   * the phase's result. Absent: the engine adjudicates the orders itself.
   */
  readonly movement?: (
    position: Position,
    orders: OrderTexts,
    base: (position: Position, orders: OrderTexts) => PhaseResult,
  ) => PhaseResult;
  /**
   * The variant's own kinds of order (europe1935's insurrection and revival orders) for the
   * order-set reader (mail, order files, the judge): a verdict for a line that is one, null
   * for any other line. `movement` carries them out. Absent: every line is a standard order
   * or chatter.
   */
  readonly ownOrder?: (text: string) => OwnOrderVerdict | null;
}

/** How a line in a variant's own order syntax reads: understood as written, or why not. */
export type OwnOrderVerdict =
  | { readonly ok: true; readonly order: string }
  | { readonly ok: false; readonly reason: string };

/**
 * A game of another family than classical Diplomacy (Global Diplomacy, seed 004): its own
 * state, commands, adjudication and reports, spoken to in JSON so that the shells (CLI,
 * judge, mail, self-play) need not know its types. Registered with `getGame` in
 * src/variants/registry.ts; docs/global.md describes the JSON.
 */
export interface GameFamily {
  readonly id: string;
  readonly name: string;
  /**
   * How many players a game has: fixed (global: 11, min = max) or chosen when the game is
   * created (discovery: 9 to 20), and the count a game gets when none is given.
   */
  readonly players: { readonly min: number; readonly max: number; readonly default: number };
  /**
   * The opening position as position JSON (`seed` drives the moderator's random choices and,
   * for a generated map, the map); `players` within `players` (default: its `default`).
   */
  start(seed: number, players?: number): Record<string, unknown>;
  /** One `entente adjudicate` input object to its output object, or `{error}`. */
  adjudicateJson(input: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /** Random legal command lines for one power of a position (self-play). */
  randomOrders(position: Readonly<Record<string, unknown>>, power: number, seed: number): string[];
  /** The map and powers as data (areas with adjacency and lon/lat anchors), for drawing. */
  describe(): Record<string, unknown>;
}
