/*
 * A game record: the start, and for every phase the orders as submitted, the orders as
 * understood with their results, and the position they led to. Everything in it can be
 * rebuilt from the start, the orders, the rules and the seed: `replayRecord` checks that.
 * docs/records.md describes the format.
 */

import {
  type Adjudicator,
  adjudicate,
  adjudicateParsed,
  type ParsedOrderSets,
} from "./adjudicate.ts";
import { phaseName } from "./phase.ts";
import {
  PositionError,
  type PositionJson,
  type ResultJson,
  readPosition,
  writePosition,
  writeResult,
} from "./position-json.ts";
import { rngFor } from "./random.ts";
import type { OrderTexts, PhaseResult } from "./results.ts";
import type { RuleOptions } from "./rules.ts";
import { type Scenario, type ScenarioEvent, type Seat, unplayedPowers } from "./scenario.ts";
import { powerTables } from "./tables.ts";
import type { Position, PowerId } from "./types.ts";

export const RECORD_FORMAT = "entente-record";
/**
 * 2 added the optional `variantData`, `committee` and `edits`; a version 1 record has none
 * and reads as before.
 */
export const RECORD_VERSION = 2;

/**
 * Something a variant's own rules let the game master or a power do between phases, outside
 * the orders (the europe1935 committee's political goals and conferences), kept in the order
 * it was done. The engine keeps these and never reads them; the variant's code does.
 */
export interface RecordAct {
  /** How many phases had been adjudicated when it was done: 0 before the first. */
  readonly at: number;
  /** `gm` (the game master, the committee's chairs) or the power that did it. */
  readonly by: string;
  /** What was done (`goal`, `approve`, `conference`, ...), with its own fields. */
  readonly act: string;
  readonly [field: string]: unknown;
}

/**
 * A change the game master made to the board between phases, outside the orders (a unit
 * removed: a player who left, a correction). Applied to the position when it was made, so a
 * replay makes it at the same point.
 */
export interface RecordEdit {
  /** How many phases had been adjudicated when it was made: 0 before the first. */
  readonly after: number;
  /**
   * `remove-unit`: the unit is taken off the board (seed 002 VIII(2), or VIII(3) disbanding);
   * `move-unit`: the unit is put where it should stand, `to` (seed 002 VIII(3)).
   */
  readonly kind: "remove-unit" | "move-unit";
  readonly power: string;
  /** The unit as the position writes it (`A par`, `F stp/sc`). */
  readonly unit: string;
  /** `move-unit`: the unit where it stands after the edit (`A bur`, `F spa/sc`). */
  readonly to?: string;
  readonly reason?: string;
}

/** A position with the edits made at one point applied (units removed or moved). */
export function applyEdits<P extends { readonly units?: unknown }>(
  pos: P,
  edits: readonly Pick<RecordEdit, "power" | "unit" | "to">[],
): P {
  if (edits.length === 0) return pos;
  const units: Record<string, string[]> = {};
  for (const [p, list] of Object.entries((pos.units ?? {}) as Record<string, readonly string[]>))
    units[p] = [...list];
  for (const e of edits) {
    const list = units[e.power];
    const i = list?.indexOf(e.unit) ?? -1;
    if (!list || i === -1) continue;
    if (e.to === undefined) list.splice(i, 1);
    else list[i] = e.to;
  }
  return { ...pos, units };
}

/** The edits made after `after` phases. */
const editsAfter = (record: GameRecord, after: number): RecordEdit[] =>
  (record.edits ?? []).filter((e) => e.after === after);

export interface PhaseRecord {
  /** The phase adjudicated (`S1901M`). */
  readonly phase: string;
  /** Orders as submitted, per power. */
  readonly orders: Record<string, string[]>;
  /** Orders as understood, with results and reasons (the contract's `orders` output). */
  readonly results: ResultJson["orders"];
  /** Units dislodged in this phase and where each could retreat. */
  readonly dislodged?: ResultJson["dislodged"];
  /** Powers in civil disorder this phase: seated powers that sent no orders, and unplayed ones. */
  readonly civilDisorder?: string[];
  /** What the scenario's own rules did after this phase (a coin toss). */
  readonly events?: ScenarioEvent[];
  /** The position after this phase (phases with nothing to do already skipped). */
  readonly position: PositionJson;
  /** A power that reached the victory centres. */
  readonly winner?: string;
  /** A seat that won by the scenario's own victory rule. */
  readonly seatWinner?: string;
}

export interface GameRecord {
  readonly format: typeof RECORD_FORMAT;
  readonly version: number;
  readonly variant: string;
  readonly scenario: string;
  readonly rules: RuleOptions;
  /** Seed of every random choice in the game (scenario events). */
  readonly seed: number;
  /** The seats at the start; events may change them later. */
  readonly seats: readonly Seat[];
  readonly start: PositionJson;
  readonly phases: readonly PhaseRecord[];
  /**
   * A variant not built in, as its data file (docs/variant.schema.json): the record carries
   * it so that it replays anywhere. `variant` is then that file's id.
   */
  readonly variantData?: Readonly<Record<string, unknown>>;
  /** The acts of the variant's own rules, in order (europe1935: docs/committee.md). */
  readonly committee?: readonly RecordAct[];
  /**
   * The game master's edits, in order. `start` and each phase's `position` are written with
   * the edits made at that point already applied.
   */
  readonly edits?: readonly RecordEdit[];
}

export class RecordError extends Error {}

export function newRecord(
  scenario: Scenario,
  rules: RuleOptions,
  seed: number,
  variantData?: Readonly<Record<string, unknown>>,
): GameRecord {
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    variant: scenario.variant.id,
    scenario: scenario.id,
    rules,
    seed,
    seats: scenario.seats,
    start: writePosition(scenario.variant, scenario.variant.start),
    phases: [],
    ...(variantData ? { variantData } : {}),
  };
}

/** The position the next phase is played from. */
export function currentPosition(scenario: Scenario, record: GameRecord): Position {
  const last = record.phases[record.phases.length - 1];
  return readPosition(
    (last?.position ?? record.start) as unknown as Record<string, unknown>,
    scenario.variant,
  );
}

/** The seats now, after every event that changed them. */
export function currentSeats(record: GameRecord): readonly Seat[] {
  let seats = record.seats;
  for (const p of record.phases) for (const e of p.events ?? []) if (e.seats) seats = e.seats;
  return seats;
}

/** Whether the game is over, and who won. */
export function gameWinner(record: GameRecord): string | null {
  for (const p of record.phases) if (p.winner ?? p.seatWinner) return (p.winner ?? p.seatWinner)!;
  return null;
}

/** Where a game stands between two phases: what the next phase needs. */
export interface GameState {
  readonly position: Position;
  readonly seats: readonly Seat[];
  /** Every scenario event so far. */
  readonly events: readonly ScenarioEvent[];
  /** How many phases were played: the index of the next one (it seeds that phase's draws). */
  readonly index: number;
}

export interface Step {
  readonly result: PhaseResult;
  readonly events: readonly ScenarioEvent[];
  /** The seat that won by the scenario's own victory rule, if any. */
  readonly seatWinner: string | null;
  /** Powers in civil disorder in this (movement) phase. */
  readonly civilDisorder: readonly PowerId[];
  readonly state: GameState;
}

/** One phase of a game from orders in one form: `step` (texts), `stepParsed` (values). */
export type Stepper<O> = (
  scenario: Scenario,
  rules: RuleOptions,
  seed: number,
  state: GameState,
  orders: O,
) => Step;

/**
 * One phase of a game: the orders adjudicated, the scenario's own rules applied, the state
 * for the next phase. Orders for a power nobody plays are refused.
 */
export const step: Stepper<OrderTexts> = stepping(adjudicate);

/** `step` for orders given as structured values (the typed path: `adjudicateParsed`). */
export const stepParsed: Stepper<ParsedOrderSets> = stepping(adjudicateParsed);

/** The stepper of an adjudicator: everything of a step but how its orders are adjudicated. */
function stepping<O extends ReadonlyMap<PowerId, readonly unknown[]>>(
  adjudicator: Adjudicator<O>,
): Stepper<O> {
  return (scenario, rules, seed, state, orders) => {
    const { variant } = scenario;
    const unplayed = unplayedPowers(variant, state.seats);
    for (const power of orders.keys()) {
      if (unplayed.includes(power))
        throw new RecordError(`${power} is not played by anyone in this game`);
      if (!powerTables(variant).index.has(power)) {
        throw new RecordError(`unknown power "${power}"`);
      }
    }
    const { position, seats } = state;
    // Units of powers nobody plays are disbanded when dislodged (seed 001: "if they are forced
    // to retreat, they are disbanded"): no retreat phase waits for them.
    const result = adjudicator(variant, position, orders, rules, {
      disbandDislodged: new Set(unplayed),
    });
    const events =
      scenario.afterPhase?.(result, seats, state.events, rngFor(seed, state.index)) ?? [];
    const seatsAfter =
      events.length === 0 ? seats : events.reduce<readonly Seat[]>((s, e) => e.seats ?? s, seats);
    const seatWin = scenario.seatVictory?.(result.next, seatsAfter) ?? null;
    const civilDisorder: PowerId[] = [];
    if (position.phase.type === "M") {
      for (const p of variant.powers) {
        if (unplayed.includes(p.id) || !orders.has(p.id)) {
          if (hasUnits(position, p.id)) civilDisorder.push(p.id);
        }
      }
    }
    return {
      result,
      events,
      seatWinner: seatWin === null ? null : seatsAfter[seatWin]!.name,
      civilDisorder,
      state: {
        position: result.next,
        seats: seatsAfter,
        events: events.length === 0 ? state.events : [...state.events, ...events],
        index: state.index + 1,
      },
    };
  };
}

/** Whether the power has a unit on the board (a module function: no closure per power). */
function hasUnits(position: Position, power: PowerId): boolean {
  for (const u of position.units) if (u.power === power) return true;
  return false;
}

/** The state a record has reached. */
export function recordState(scenario: Scenario, record: GameRecord): GameState {
  return {
    position: currentPosition(scenario, record),
    seats: currentSeats(record),
    events: record.phases.flatMap((p) => p.events ?? []),
    index: record.phases.length,
  };
}

/**
 * Adjudicates the next phase of a record with these orders and returns the longer record.
 * Orders for a power nobody plays are refused, as is any phase after the game was won.
 */
export function playPhase(scenario: Scenario, record: GameRecord, orders: OrderTexts): GameRecord {
  const winner = gameWinner(record);
  if (winner) throw new RecordError(`the game is over: ${winner} has won`);
  const state = recordState(scenario, record);
  const s = step(scenario, record.rules, record.seed, state, orders);
  return {
    ...record,
    phases: [...record.phases, phaseRecord(scenario, state.position, orders, s)],
  };
}

/** The record of one phase, from its step. */
export function phaseRecord(
  scenario: Scenario,
  position: Position,
  orders: OrderTexts,
  s: Step,
): PhaseRecord {
  const out = writeResult(scenario.variant, s.result);
  const submitted: Record<string, string[]> = {};
  for (const [p, list] of orders) submitted[p] = [...list];
  return {
    phase: phaseName(position.phase),
    orders: submitted,
    results: out.orders,
    ...(out.dislodged ? { dislodged: out.dislodged } : {}),
    ...(s.civilDisorder.length > 0 ? { civilDisorder: [...s.civilDisorder] } : {}),
    ...(s.events.length > 0 ? { events: [...s.events] } : {}),
    position: out.next,
    ...(out.winner ? { winner: out.winner } : {}),
    ...(s.seatWinner !== null ? { seatWinner: s.seatWinner } : {}),
  };
}

export type ReplayCheck = { ok: true } | { ok: false; phase: string; problem: string };

/** Why a position of the record cannot be read (a unit in an impassable place), or null. */
function positionProblem(scenario: Scenario, pos: PositionJson | undefined): string | null {
  try {
    readPosition((pos ?? {}) as unknown as Record<string, unknown>, scenario.variant);
    return null;
  } catch (e) {
    if (e instanceof PositionError) return e.message;
    throw e;
  }
}

/**
 * Plays the record again from its start and its orders; it must come out the same.
 * `onPhase` is told how many phases have been checked (for a progress bar).
 */
export function replayRecord(
  scenario: Scenario,
  record: GameRecord,
  onPhase?: (checked: number) => void,
): ReplayCheck {
  if (record.format !== RECORD_FORMAT) {
    return { ok: false, phase: "-", problem: `not an Entente record (format ${record.format})` };
  }
  const start = applyEdits(
    writePosition(scenario.variant, scenario.variant.start),
    editsAfter(record, 0),
  );
  const badStart = positionProblem(scenario, record.start);
  if (badStart) return { ok: false, phase: "-", problem: `the start: ${badStart}` };
  if (JSON.stringify(start) !== JSON.stringify(record.start)) {
    return { ok: false, phase: "-", problem: "the start is not the scenario's start" };
  }
  let again: GameRecord = { ...record, phases: [] };
  for (const [i, phase] of record.phases.entries()) {
    const bad = positionProblem(scenario, phase.position);
    if (bad) return { ok: false, phase: phase.phase, problem: `the position after it: ${bad}` };
    const orders = new Map(Object.entries(phase.orders).map(([p, l]) => [p as PowerId, l]));
    again = playPhase(scenario, again, orders);
    // The game master's edits made after this phase, as they were made.
    const played = again.phases[again.phases.length - 1]!;
    const got = { ...played, position: applyEdits(played.position, editsAfter(record, i + 1)) };
    again = { ...again, phases: [...again.phases.slice(0, -1), got] };
    for (const key of [
      "phase",
      "results",
      "dislodged",
      "civilDisorder",
      "events",
      "position",
      "winner",
      "seatWinner",
    ] as const) {
      if (JSON.stringify(got[key]) !== JSON.stringify(phase[key])) {
        return { ok: false, phase: phase.phase, problem: `${key} differs on replay` };
      }
    }
    onPhase?.(i + 1);
  }
  return { ok: true };
}
