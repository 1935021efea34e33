/**
 * The research API's typed path (docs/research.md): orders as flat structured values with
 * integer province and power ids, the board as typed arrays, legal orders generated as
 * structured values, and games that step and clone cheaply. Nothing is formatted as text and
 * read back: a structured order is interpreted against the board exactly as the same order
 * read from text would be (`adjudicateParsed`), so both paths give the same results (a test
 * plays games through both and compares every phase). Pure: no I/O, no clock; randomness
 * only from a generator it is given.
 *
 * Here: `Game` (legal orders, step, clone, save, load) and random legal orders; the typed
 * orders and the board are `research-board.ts`, their conversions `research-parsed.ts`.
 */

import { legalMovementOrders, randomLegalMovementOrders } from "./legal.ts";
import {
  legalAdjustmentOrders,
  randomAdjustmentOrders,
  randomAdjustmentOrdersFromLists,
} from "./legal-adjustments.ts";
import { legalRetreatOrders } from "./legal-retreats.ts";
import type { Order, ParsedOrder } from "./orders.ts";
import { phaseName } from "./phase.ts";
import { type PositionJson, readPosition, writePosition } from "./position-json.ts";
import type { Rng } from "./random.ts";
import { type GameState, type Step, step, stepParsed } from "./record.ts";
import {
  type Board,
  boardOf,
  checkTypedOrder,
  type TypedOrder,
  typedOrder,
} from "./research-board.ts";
import { orderText, parsedOf, parsedSets } from "./research-parsed.ts";
import type { OrderTexts, PhaseResult } from "./results.ts";
import type { RuleOptions } from "./rules.ts";
import { type Scenario, type ScenarioEvent, type Seat, unplayedPowers } from "./scenario.ts";
import { dislodgedKey, type Phase, type Position, type PowerId } from "./types.ts";

/** The legal orders of one unit (movement, retreats) or one power (adjustments). */
export interface LegalChoice {
  readonly power: number;
  /** The unit's province (movement, retreats), or -1 for a power's adjustments. */
  readonly unit: number;
  /** How many of `orders` to give: 1 for a unit; builds due or removals required. */
  readonly count: number;
  readonly orders: readonly TypedOrder[];
}

/** What one step did. */
export interface StepResult {
  /** The phase played (`S1901M`). */
  readonly phase: string;
  /** Every order as understood, with its result and reason, and each unit's deemed order. */
  readonly results: PhaseResult["results"];
  /** Units dislodged (movement phases), with where each may retreat. */
  readonly dislodged: PhaseResult["dislodged"];
  /** Events of the scenario's own rules (a coin toss). */
  readonly events: readonly ScenarioEvent[];
  /** The power or seat that won, if the game ended. */
  readonly winner: string | null;
  /** The next phase (`F1901M`), phases with nothing to do skipped. */
  readonly next: string;
}

/** A game saved as plain JSON (`Game.save`, `Game.load`). */
export interface GameSave {
  readonly format: "entente-game";
  readonly variant: string;
  readonly scenario: string;
  readonly rules: RuleOptions;
  readonly seed: number;
  /** Phases played. */
  readonly index: number;
  readonly seats: readonly Seat[];
  readonly events: readonly ScenarioEvent[];
  readonly winner: string | null;
  readonly position: PositionJson;
}

/**
 * A game on the typed path: its position, legal orders as typed values, `step` with typed
 * orders (or texts: `stepText`), cheap `clone`, `save` and `load`. Positions are immutable,
 * so a clone shares them and costs a few fields.
 */
export class Game {
  readonly board: Board;
  private state: GameState;
  private won: string | null;

  private constructor(
    readonly scenario: Scenario,
    readonly rules: RuleOptions,
    readonly seed: number,
    state: GameState,
    winner: string | null,
  ) {
    this.board = boardOf(scenario);
    this.state = state;
    this.won = winner;
  }

  /** A new game at the scenario's start. `seed` drives the scenario's own random events. */
  static create(scenario: Scenario, rules: RuleOptions, seed = 0): Game {
    const state: GameState = {
      position: scenario.variant.start,
      seats: scenario.seats,
      events: [],
      index: 0,
    };
    return new Game(scenario, rules, seed, state, null);
  }

  /** A saved game, on the scenario it was saved from (checked by id). */
  static load(scenario: Scenario, save: GameSave): Game {
    if (save.format !== "entente-game") throw new Error("not a saved Entente game");
    if (save.variant !== scenario.variant.id || save.scenario !== scenario.id)
      throw new Error(
        `the save is of ${save.variant} scenario ${save.scenario}, not ${scenario.variant.id} ${scenario.id}`,
      );
    const position = readPosition(
      save.position as unknown as Record<string, unknown>,
      scenario.variant,
    );
    const state: GameState = {
      position,
      seats: save.seats,
      events: save.events,
      index: save.index,
    };
    return new Game(scenario, save.rules, save.seed, state, save.winner);
  }

  save(): GameSave {
    return {
      format: "entente-game",
      variant: this.scenario.variant.id,
      scenario: this.scenario.id,
      rules: this.rules,
      seed: this.seed,
      index: this.state.index,
      seats: this.state.seats,
      events: this.state.events,
      winner: this.won,
      position: writePosition(this.scenario.variant, this.state.position),
    };
  }

  clone(): Game {
    return new Game(this.scenario, this.rules, this.seed, this.state, this.won);
  }

  /** The position (readonly engine data: units, dislodged units, centres, phase). */
  get position(): Position {
    return this.state.position;
  }

  get phase(): string {
    return phaseName(this.state.position.phase);
  }

  get phaseInfo(): Phase {
    return this.state.position.phase;
  }

  /** Phases played so far. */
  get index(): number {
    return this.state.index;
  }

  /** The winning power or seat; null while the game goes on. */
  get winner(): string | null {
    return this.won;
  }

  get seats(): readonly Seat[] {
    return this.state.seats;
  }

  /** Powers no seat plays (they get no orders: civil disorder), as power ids. */
  unplayed(): number[] {
    return unplayedPowers(this.scenario.variant, this.state.seats).map((p) =>
      this.board.powerIndex(p),
    );
  }

  /** Per province: the power owning it (a supply centre), or -1. */
  centers(): Int8Array {
    const out = new Int8Array(this.board.provinces.length).fill(-1);
    for (const [c, owner] of this.state.position.centers)
      out[this.board.provinceIndex(c)] = this.board.powerIndex(owner);
    return out;
  }

  /** Per power: the supply centres it owns. */
  centerCounts(): Int32Array {
    const out = new Int32Array(this.board.powers.length);
    for (const owner of this.state.position.centers.values())
      out[this.board.powerIndex(owner)]! += 1;
    return out;
  }

  /**
   * Every legal order of the phase, grouped: per unit (movement: hold, moves, supports,
   * convoys; retreats: retreats and disband), per power for adjustments (`count` of them to
   * choose: builds and a waive, or removals). Units of powers nobody plays are included.
   */
  legalOrders(): LegalChoice[] {
    const { variant } = this.scenario;
    const position = this.state.position;
    const b = this.board;
    const out: LegalChoice[] = [];
    const each = (orders: readonly Order[]) => orders.map((o) => typedOrder(b, o));
    switch (position.phase.type) {
      case "M":
        for (const [p, orders] of legalMovementOrders(variant, position, this.rules)) {
          out.push({
            power: b.powerIndex(orders[0]!.unit.power),
            unit: b.provinceIndex(p),
            count: 1,
            orders: each(orders),
          });
        }
        break;
      case "R":
        for (const orders of legalRetreatOrders(variant, position, this.rules).values()) {
          const first = orders[0]!;
          out.push({
            power: b.powerIndex(first.kind === "waive" ? first.power : first.unit.power),
            unit: first.kind === "waive" ? -1 : b.provinceIndex(first.unit.province),
            count: 1,
            orders: each(orders),
          });
        }
        break;
      case "A":
        for (const [power, { count, orders }] of legalAdjustmentOrders(
          variant,
          position,
          this.rules,
        ))
          out.push({ power: b.powerIndex(power), unit: -1, count, orders: each(orders) });
        break;
    }
    return out;
  }

  /**
   * Plays the phase with these orders (any order, any number; units without one hold or
   * are disbanded as the rules say). Invalid orders come back `invalid` with a reason, as
   * from text. Orders of powers nobody plays are refused with an exception.
   */
  step(orders: readonly TypedOrder[]): StepResult {
    if (this.won !== null) throw new Error(`the game is over: ${this.won} has won`);
    const b = this.board;
    for (const o of orders) {
      const bad = checkTypedOrder(b, o);
      if (bad) throw new Error(`bad order ${JSON.stringify(o)}: ${bad}`);
    }
    const { variant } = this.scenario;
    if (variant.movement && this.state.position.phase.type === "M") {
      // A variant with its own movement orders reads texts.
      const texts = new Map<PowerId, string[]>();
      for (const o of orders) {
        const power = b.powers[o.power]!;
        const list = texts.get(power) ?? [];
        texts.set(power, list);
        list.push(orderText(b, o));
      }
      return this.stepText(texts);
    }
    const sets = new Map<PowerId, ParsedOrder[]>();
    for (const o of orders) {
      const power = b.powers[o.power]!;
      const list = sets.get(power);
      const p = parsedOf(b, o);
      if (list) list.push(p);
      else sets.set(power, [p]);
    }
    return this.apply(stepParsed(this.scenario, this.rules, this.seed, this.state, sets));
  }

  /** Plays the phase with orders as text, per power id (the people's path). */
  stepText(orders: OrderTexts): StepResult {
    if (this.won !== null) throw new Error(`the game is over: ${this.won} has won`);
    return this.apply(step(this.scenario, this.rules, this.seed, this.state, orders));
  }

  /** Engine orders (as `legalMovementOrders` gives them) played on the typed path. */
  stepOrders(orders: readonly Order[]): StepResult {
    if (this.won !== null) throw new Error(`the game is over: ${this.won} has won`);
    return this.apply(
      stepParsed(this.scenario, this.rules, this.seed, this.state, parsedSets(orders)),
    );
  }

  /** The last step as the engine gave it (for records and tools that want everything). */
  lastStep: Step | null = null;

  private apply(s: Step): StepResult {
    const before = this.state.position.phase;
    this.lastStep = s;
    this.state = s.state;
    this.won = s.result.winner ?? s.seatWinner;
    return {
      phase: phaseName(before),
      results: s.result.results,
      dislodged: s.result.dislodged,
      events: s.events,
      winner: this.won,
      next: phaseName(s.state.position.phase),
    };
  }
}

/**
 * Random legal orders for the powers that a seat plays: each unit's order uniform among its
 * legal orders, retreats likewise, adjustments as distinct sites (or units) at random,
 * waives for builds that cannot be placed. The same choices as the text path's self-play.
 */
export function randomLegalOrders(game: Game, r: Rng): Order[] {
  return randomEngineOrders(game.scenario, game.position, game.seats, game.rules, r);
}

/** `randomLegalOrders` on the engine's types (self-play's typed loop). */
export function randomEngineOrders(
  scenario: Scenario,
  position: Position,
  seats: readonly Seat[],
  rules: RuleOptions,
  r: Rng,
): Order[] {
  const { variant } = scenario;
  const unplayed = unplayedPowers(variant, seats);
  const out: Order[] = [];
  switch (position.phase.type) {
    case "M": {
      // As r.pick from each unit's list of legalMovementOrders, without making the lists.
      const picked = randomLegalMovementOrders(variant, position, rules, r);
      for (const o of picked) if (!unplayed.includes(o.unit.power)) out.push(o);
      break;
    }
    case "R": {
      const legal = legalRetreatOrders(variant, position, rules);
      for (const d of position.dislodged) {
        const options = legal.get(dislodgedKey(d));
        if (!options || options.length === 0) continue;
        const o = r.pick(options);
        if (!unplayed.includes(d.power)) out.push(o);
      }
      break;
    }
    case "A":
      // Drawn from the lists only where the draw without them cannot be made.
      return (
        randomAdjustmentOrders(variant, position, unplayed, r) ??
        randomAdjustmentOrdersFromLists(variant, position, rules, unplayed, r)
      );
  }
  return out;
}
