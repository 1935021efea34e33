/*
 * Random self-play: every seated power gives each unit an order drawn uniformly from its
 * legal orders, retreats and adjustments at random too, until a win or the last year. The
 * orders go through the typed path (structured values interpreted against the board) or the
 * text path (formatted, then read back, as people's orders are); both give the same game.
 * Deterministic for a seed.
 */

import { checkInvariants } from "./invariants.ts";
import type { Order } from "./orders.ts";
import { type Rng, rng } from "./random.ts";
import {
  type GameRecord,
  type GameState,
  newRecord,
  type PhaseRecord,
  phaseRecord,
  RecordError,
  type Step,
  step,
  stepParsed,
} from "./record.ts";
import { randomEngineOrders } from "./research.ts";
import { ordersAsText, parsedSets } from "./research-parsed.ts";
import type { OrderTexts } from "./results.ts";
import type { RuleOptions } from "./rules.ts";
import type { Scenario } from "./scenario.ts";

export interface SelfPlayOptions {
  readonly scenario: Scenario;
  readonly rules: RuleOptions;
  readonly seed: number;
  /** Play through this year, then stop (default: 1935 or a win). */
  readonly untilYear: number;
  /** Keep the whole game as a record. */
  readonly keepRecord: boolean;
  /**
   * `typed` (default): orders go to the adjudicator as structured values; `text`: each is
   * formatted and read back, as people's orders are. Both give the same games (a test
   * compares them phase by phase); a kept record always has the texts.
   */
  readonly via?: "typed" | "text";
  /** Called after every phase with the state it was played from and what happened. */
  readonly onPhase?: (before: GameState, played: Step, orders: readonly Order[]) => void;
}

export interface SelfPlayGame {
  readonly phases: number;
  readonly movementPhases: number;
  /** The power or seat that won, or null when the last year ended the game. */
  readonly winner: string | null;
  readonly final: GameState;
  readonly record: GameRecord | null;
  /** Broken invariants found in any position along the way (should be none). */
  readonly problems: readonly string[];
}

/** Random orders for every power a seat plays, as text. */
export function randomOrders(
  scenario: Scenario,
  state: GameState,
  rules: RuleOptions,
  r: Rng,
): OrderTexts {
  return ordersAsText(randomEngineOrders(scenario, state.position, state.seats, rules, r));
}

/** Plays one random game. */
export function selfPlayGame(opts: SelfPlayOptions): SelfPlayGame {
  const { scenario, rules, seed } = opts;
  const r = rng(seed);
  const record:
    | ({ -readonly [K in keyof GameRecord]: GameRecord[K] } & { phases: PhaseRecord[] })
    | null = opts.keepRecord ? { ...newRecord(scenario, rules, seed), phases: [] } : null;
  let state: GameState = {
    position: scenario.variant.start,
    seats: scenario.seats,
    events: [],
    index: 0,
  };
  let phases = 0;
  let movementPhases = 0;
  let winner: string | null = null;
  const problems: string[] = [];
  while (state.position.phase.year <= opts.untilYear) {
    const chosen = randomEngineOrders(scenario, state.position, state.seats, rules, r);
    // The text path when it is asked for or a record keeps the texts; else the typed path.
    // A variant with its own movement orders (europe1935) reads texts in movement phases.
    const text =
      record !== null ||
      opts.via === "text" ||
      (scenario.variant.movement !== undefined && state.position.phase.type === "M");
    const texts = text ? ordersAsText(chosen) : null;
    let s: ReturnType<typeof step>;
    try {
      s = texts
        ? step(scenario, rules, seed, state, texts)
        : stepParsed(scenario, rules, seed, state, parsedSets(chosen));
    } catch (e) {
      if (e instanceof RecordError) throw new Error(`self-play gave a refused order: ${e.message}`);
      throw e;
    }
    opts.onPhase?.(state, s, chosen);
    if (record && texts) record.phases.push(phaseRecord(scenario, state.position, texts, s));
    phases++;
    if (state.position.phase.type === "M") movementPhases++;
    state = s.state;
    for (const p of checkInvariants(scenario.variant, state.position))
      problems.push(`${s.result.phase.year}: ${p}`);
    winner = s.result.winner ?? s.seatWinner;
    if (winner) break;
  }
  return { phases, movementPhases, winner, final: state, record, problems };
}
