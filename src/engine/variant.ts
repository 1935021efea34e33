import type { OrderTexts, PhaseResult } from "./adjudicate.ts";
import type { GameMap } from "./map.ts";
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
  /** Supply centres one power needs for a solo victory. */
  readonly victoryCenters: number;
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
}
