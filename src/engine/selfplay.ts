import type { OrderTexts } from "./adjudicate.ts";
import { checkInvariants } from "./invariants.ts";
import { legalAdjustmentOrders, legalMovementOrders, legalRetreatOrders } from "./legal.ts";
import { formatOrder, type Order } from "./orders.ts";
import { type Rng, rng } from "./random.ts";
import {
  type GameRecord,
  type GameState,
  newRecord,
  phaseRecord,
  RecordError,
  type Step,
  step,
} from "./record.ts";
import type { RuleOptions } from "./rules.ts";
import { type Scenario, unplayedPowers } from "./scenario.ts";
import { dislodgedKey, type PowerId } from "./types.ts";

/*
 * Random self-play: every seated power gives each unit an order drawn uniformly from its
 * legal orders, retreats and adjustments at random too, until a win or the last year. It
 * goes through the same text path as people's orders (formatted, then read back), so it
 * exercises the whole engine. Deterministic for a seed.
 */

export interface SelfPlayOptions {
  readonly scenario: Scenario;
  readonly rules: RuleOptions;
  readonly seed: number;
  /** Play through this year, then stop (default: 1935 or a win). */
  readonly untilYear: number;
  /** Keep the whole game as a record. */
  readonly keepRecord: boolean;
  /** Called after every phase with the state it was played from and what happened. */
  readonly onPhase?: (before: GameState, played: Step) => void;
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
  const { variant } = scenario;
  const { position } = state;
  const unplayed = new Set(unplayedPowers(variant, state.seats));
  const out = new Map<PowerId, string[]>();
  const add = (power: PowerId, o: Order) => {
    if (unplayed.has(power)) return;
    const list = out.get(power);
    if (list) list.push(formatOrder(o));
    else out.set(power, [formatOrder(o)]);
  };
  switch (position.phase.type) {
    case "M": {
      const legal = legalMovementOrders(variant, position, rules);
      for (const u of position.units) {
        const options = legal.get(u.province);
        if (options && options.length > 0) add(u.power, r.pick(options));
      }
      break;
    }
    case "R": {
      const legal = legalRetreatOrders(variant, position, rules);
      for (const d of position.dislodged) {
        const options = legal.get(dislodgedKey(d));
        if (options && options.length > 0) add(d.power, r.pick(options));
      }
      break;
    }
    case "A": {
      for (const [power, { count, orders }] of legalAdjustmentOrders(variant, position, rules)) {
        // Each build site (or unit to remove) at most once; waives fill the rest.
        const bySite = new Map<string, Order[]>();
        for (const o of orders) {
          if (o.kind === "waive") continue;
          const k = o.unit.province;
          bySite.set(k, [...(bySite.get(k) ?? []), o]);
        }
        const sites = [...bySite.values()];
        for (let i = sites.length - 1; i > 0; i--) {
          const j = r.int(i + 1);
          [sites[i], sites[j]] = [sites[j]!, sites[i]!];
        }
        for (const site of sites.slice(0, count)) add(power, r.pick(site));
      }
      break;
    }
  }
  return out;
}

/** Plays one random game. */
export function selfPlayGame(opts: SelfPlayOptions): SelfPlayGame {
  const { scenario, rules, seed } = opts;
  const r = rng(seed);
  let record = opts.keepRecord ? newRecord(scenario, rules, seed) : null;
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
    const orders = randomOrders(scenario, state, rules, r);
    let s: ReturnType<typeof step>;
    try {
      s = step(scenario, rules, seed, state, orders);
    } catch (e) {
      if (e instanceof RecordError) throw new Error(`self-play gave a refused order: ${e.message}`);
      throw e;
    }
    opts.onPhase?.(state, s);
    if (record)
      record = {
        ...record,
        phases: [...record.phases, phaseRecord(scenario, state.position, orders, s)],
      };
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
