/*
 * A game played by built-in players, seat by seat, through the record's one step (the same
 * adjudication, scenario rules and events as any game): for `entente bench bots` and the
 * tests. Pure: the seed decides everything; a clock, if the caller gives one, only times the
 * players' decisions.
 */
import { rngFor } from "../engine/random.ts";
import { type GameState, type Step, step } from "../engine/record.ts";
import type { RuleOptions } from "../engine/rules.ts";
import type { Scenario } from "../engine/scenario.ts";
import type { PowerId } from "../engine/types.ts";
import type { Bot } from "./bot.ts";

export interface MatchOptions {
  readonly scenario: Scenario;
  readonly rules: RuleOptions;
  readonly seed: number;
  /** The last year played; the game ends at its end (a draw among the survivors) or a win. */
  readonly untilYear: number;
  /** The player of each seat of the scenario, in its order. */
  readonly players: readonly Bot[];
  /** Milliseconds from some origin: when given, each movement decision is timed. */
  readonly clock?: () => number;
  /** After each phase: the state it was played from, the orders given and what came of them. */
  readonly onPhase?: (
    before: GameState,
    orders: ReadonlyMap<PowerId, readonly string[]>,
    played: Step,
  ) => void;
}

export interface SeatOutcome {
  readonly seat: string;
  readonly bot: string;
  /** Centres the seat's powers own at the end. */
  readonly centres: number;
  readonly solo: boolean;
  /** The game ended without a winner and the seat still owned a centre. */
  readonly draw: boolean;
  readonly eliminated: boolean;
}

export interface MatchResult {
  readonly seats: readonly SeatOutcome[];
  /** The winning seat's name, or null for a draw. */
  readonly winner: string | null;
  /** The last phase's year. */
  readonly year: number;
  readonly phases: number;
  /** Per bot id: movement decisions timed (ms each), when a clock was given. */
  readonly decisions: ReadonlyMap<string, readonly number[]>;
}

export function playMatch(opts: MatchOptions): MatchResult {
  const { scenario, rules, seed, players } = opts;
  if (players.length !== scenario.seats.length)
    throw new Error(
      `${scenario.seats.length} seats need ${scenario.seats.length} players, not ${players.length}`,
    );
  const powers = scenario.variant.powers.map((p) => p.id);
  let state: GameState = {
    position: scenario.variant.start,
    seats: scenario.seats,
    events: [],
    index: 0,
  };
  const decisions = new Map<string, number[]>();
  let winner: string | null = null;
  let phases = 0;
  while (state.position.phase.year <= opts.untilYear) {
    const texts = new Map<PowerId, string[]>();
    const movement = state.position.phase.type === "M";
    // Seats are matched to players by their place (events may add powers to a seat).
    state.seats.forEach((seat, k) => {
      const bot = players[k]!;
      for (const power of seat.powers) {
        const r = rngFor(seed, state.index * powers.length + powers.indexOf(power));
        const input = {
          scenario,
          rules,
          position: state.position,
          power,
          seed: r.int(0x7fffffff),
          seats: state.seats,
        };
        const t0 = movement && opts.clock ? opts.clock() : 0;
        const orders = bot.orders(input);
        if (movement && opts.clock && state.position.units.some((u) => u.power === power)) {
          const list = decisions.get(bot.id) ?? [];
          list.push(opts.clock() - t0);
          decisions.set(bot.id, list);
        }
        if (orders.length > 0) texts.set(power, orders);
      }
    });
    const s = step(scenario, rules, seed, state, texts);
    opts.onPhase?.(state, texts, s);
    phases++;
    state = s.state;
    const won = s.result.winner ?? null;
    if (won) winner = state.seats.find((x) => x.powers.includes(won))?.name ?? won;
    else if (s.seatWinner) winner = s.seatWinner;
    if (winner) break;
  }
  const owned = new Map<PowerId, number>();
  for (const p of state.position.centers.values()) owned.set(p, (owned.get(p) ?? 0) + 1);
  const seats = state.seats.map((seat, k) => {
    const centres = seat.powers.reduce((n, p) => n + (owned.get(p) ?? 0), 0);
    return {
      seat: seat.name,
      bot: players[k]!.id,
      centres,
      solo: winner === seat.name,
      draw: winner === null && centres > 0,
      eliminated: centres === 0,
    };
  });
  return { seats, winner, year: state.position.phase.year, phases, decisions };
}
