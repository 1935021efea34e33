import { legalMovementOrders, randomLegalMovementOrders } from "./legal.ts";
import { legalAdjustmentOrders, randomAdjustmentOrders } from "./legal-adjustments.ts";
import { legalRetreatOrders } from "./legal-retreats.ts";
import { formatOrder, type Order, type ParsedOrder, type UnitSpec } from "./orders.ts";
import { phaseName } from "./phase.ts";
import { type PositionJson, readPosition, writePosition } from "./position-json.ts";
import type { Rng } from "./random.ts";
import { type GameState, type Step, step, stepParsed } from "./record.ts";
import type { OrderTexts, PhaseResult } from "./results.ts";
import type { RuleOptions } from "./rules.ts";
import { type Scenario, type ScenarioEvent, type Seat, unplayedPowers } from "./scenario.ts";
import {
  COASTS,
  type Coast,
  dislodgedKey,
  type Phase,
  type Position,
  type PowerId,
  type ProvinceId,
  type UnitType,
} from "./types.ts";

/*
 * The research API's typed path (docs/research.md): orders as flat structured values with
 * integer province and power ids, the board as typed arrays, legal orders generated as
 * structured values, and games that step and clone cheaply. Nothing is formatted as text and
 * read back: a structured order is interpreted against the board exactly as the same order
 * read from text would be (`adjudicateParsed`), so both paths give the same results (a test
 * plays games through both and compares every phase). Pure: no I/O, no clock; randomness
 * only from a generator it is given.
 */

/** What an order does. `retreat` is a move in a retreat phase. */
export type OrderKind =
  | "hold"
  | "move"
  | "support"
  | "convoy"
  | "retreat"
  | "disband"
  | "build"
  | "remove"
  | "waive";

/**
 * One order, flat: the same fields for every kind (unused ones -1, `false` or null), so that
 * an agent can build, store and compare them cheaply. Provinces and powers are integer ids:
 * indices into `Board.provinces` and `Board.powers`. Coasts are 0 (none) or 1 + the index in
 * `COASTS` (`nc` 1, `sc` 2, `ec` 3, `wc` 4).
 */
export interface TypedOrder {
  readonly kind: OrderKind;
  /** The ordering power. */
  readonly power: number;
  /** The ordered unit's province; for a build the centre; -1 for a waive. */
  readonly unit: number;
  /** The ordered (or built) unit's type; null for a waive. */
  readonly unitType: UnitType | null;
  /** The ordered (or built) fleet's coast in a split-coast province, else 0. */
  readonly coast: number;
  /** Support and convoy: the province of the supported or convoyed unit; else -1. */
  readonly target: number;
  /** Support and convoy: that unit's type; else null. */
  readonly targetType: UnitType | null;
  /** Move, retreat, convoy, support to move: where to; -1 for none (hold, support to hold). */
  readonly to: number;
  /** The coast of `to` (moves and retreats of fleets, a support naming one), else 0. */
  readonly toCoast: number;
  /** A move that asks to go by convoy (`via convoy`). */
  readonly viaConvoy: boolean;
}

/** The map as integer ids and typed arrays, built once per variant. */
export interface Board {
  /** Province ids (`lon`); a province's integer id is its index here. */
  readonly provinces: readonly ProvinceId[];
  /** Power ids (`england`); a power's integer id is its index here. */
  readonly powers: readonly PowerId[];
  /** Per province: 0 land (inland), 1 sea, 2 coast. */
  readonly kind: Uint8Array;
  /** Per province: 1 for a supply centre. */
  readonly supplyCenter: Uint8Array;
  /** Per province: the power whose home centre it is, or -1. */
  readonly home: Int8Array;
  /** Army adjacency as compressed rows: neighbours of p are `armyTo[armyStart[p] .. armyStart[p+1]]`. */
  readonly armyStart: Int32Array;
  readonly armyTo: Int32Array;
  /** Fleet adjacency by province (any coast), compressed rows as for armies. */
  readonly fleetStart: Int32Array;
  readonly fleetTo: Int32Array;
  /** A province's integer id, or -1. */
  provinceIndex(id: string): number;
  /** A power's integer id, or -1. */
  powerIndex(id: string): number;
}

const boards = new WeakMap<object, Board>();

/** The variant's board as integer ids and typed arrays (cached per map). */
export function boardOf(scenario: Scenario): Board {
  const { variant } = scenario;
  const cached = boards.get(variant.map);
  if (cached && cached.powers.length === variant.powers.length) return cached;
  const map = variant.map;
  const provinces = map.provinces.map((p) => p.id);
  const powers = variant.powers.map((p) => p.id);
  const pIndex = new Map<string, number>(provinces.map((id, i) => [id, i]));
  const wIndex = new Map<string, number>(powers.map((id, i) => [id, i]));
  const n = provinces.length;
  const kind = new Uint8Array(n);
  const supplyCenter = new Uint8Array(n);
  const home = new Int8Array(n).fill(-1);
  const army: number[][] = [];
  const fleet: number[][] = [];
  map.provinces.forEach((p, i) => {
    kind[i] = p.kind === "land" ? 0 : p.kind === "sea" ? 1 : 2;
    supplyCenter[i] = p.supplyCenter ? 1 : 0;
    home[i] = p.home === null ? -1 : (wIndex.get(p.home) ?? -1);
    army.push(map.armyNeighbours(p.id).map((q) => pIndex.get(q)!));
    const reach = new Set<number>();
    const coasts: (Coast | null)[] = p.coasts.length > 0 ? [...p.coasts] : [null];
    if (p.kind !== "land")
      for (const c of coasts)
        for (const l of map.fleetNeighbours({ province: p.id, coast: c }))
          reach.add(pIndex.get(l.province)!);
    fleet.push([...reach]);
  });
  const rows = (lists: number[][]): [Int32Array, Int32Array] => {
    const start = new Int32Array(n + 1);
    lists.forEach((l, i) => {
      start[i + 1] = start[i]! + l.length;
    });
    return [start, Int32Array.from(lists.flat())];
  };
  const [armyStart, armyTo] = rows(army);
  const [fleetStart, fleetTo] = rows(fleet);
  const board: Board = {
    provinces,
    powers,
    kind,
    supplyCenter,
    home,
    armyStart,
    armyTo,
    fleetStart,
    fleetTo,
    provinceIndex: (id) => pIndex.get(id) ?? -1,
    powerIndex: (id) => wIndex.get(id) ?? -1,
  };
  boards.set(map, board);
  return board;
}

const coastOf = (i: number): Coast | null => (i === 0 ? null : (COASTS[i - 1] ?? null));
const coastIndex = (c: Coast | null): number => (c === null ? 0 : 1 + COASTS.indexOf(c));

/** An engine order (as the legal-order generator and the results give it) as a typed order. */
export function typedOrder(board: Board, o: Order): TypedOrder {
  const P = (id: string) => board.provinceIndex(id);
  if (o.kind === "waive")
    return {
      kind: "waive",
      power: board.powerIndex(o.power),
      unit: -1,
      unitType: null,
      coast: 0,
      target: -1,
      targetType: null,
      to: -1,
      toCoast: 0,
      viaConvoy: false,
    };
  const u = o.unit;
  const base = {
    power: board.powerIndex(u.power),
    unit: P(u.province),
    unitType: u.type,
    coast: coastIndex(u.coast),
  };
  switch (o.kind) {
    case "move":
    case "retreat":
      return {
        kind: o.kind,
        ...base,
        target: -1,
        targetType: null,
        to: P(o.to.province),
        toCoast: coastIndex(o.to.coast),
        viaConvoy: o.kind === "move" && o.viaConvoy,
      };
    case "support":
      return {
        kind: "support",
        ...base,
        target: P(o.target),
        targetType: o.targetType,
        to: o.to === null ? -1 : P(o.to),
        toCoast: coastIndex(o.toCoast),
        viaConvoy: false,
      };
    case "convoy":
      return {
        kind: "convoy",
        ...base,
        target: P(o.from),
        targetType: o.targetType,
        to: P(o.to),
        toCoast: 0,
        viaConvoy: false,
      };
    default:
      return {
        kind: o.kind,
        ...base,
        target: -1,
        targetType: null,
        to: -1,
        toCoast: 0,
        viaConvoy: false,
      };
  }
}

/** A reason a typed order is malformed (ids out of range, fields missing), or null. */
export function checkTypedOrder(board: Board, o: TypedOrder): string | null {
  const n = board.provinces.length;
  const prov = (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < n;
  const kinds: readonly string[] = [
    "hold",
    "move",
    "support",
    "convoy",
    "retreat",
    "disband",
    "build",
    "remove",
    "waive",
  ];
  if (typeof o !== "object" || o === null) return "an order must be an object";
  if (!kinds.includes(o.kind)) return `kind must be one of ${kinds.join(", ")}, not ${o.kind}`;
  if (!(Number.isInteger(o.power) && o.power >= 0 && o.power < board.powers.length))
    return `power must be a power id from 0 to ${board.powers.length - 1}, not ${o.power}`;
  if (o.kind === "waive") return null;
  if (!prov(o.unit)) return `unit must be a province id from 0 to ${n - 1}, not ${o.unit}`;
  if (o.unitType !== "A" && o.unitType !== "F") return `unitType must be "A" or "F"`;
  const coastOk = (c: unknown) =>
    c === undefined ||
    (Number.isInteger(c) && (c as number) >= 0 && (c as number) <= COASTS.length);
  if (!coastOk(o.coast) || !coastOk(o.toCoast)) return `coasts are 0 (none) to ${COASTS.length}`;
  if (o.kind === "move" || o.kind === "retreat" || o.kind === "convoy") {
    if (!prov(o.to)) return `${o.kind}: to must be a province id from 0 to ${n - 1}`;
  }
  if (o.kind === "support" || o.kind === "convoy") {
    if (!prov(o.target)) return `${o.kind}: target must be a province id from 0 to ${n - 1}`;
    if (o.kind === "support" && !(o.to === -1 || prov(o.to)))
      return "support: to must be -1 (support to hold) or a province id";
  }
  return null;
}

/** A typed order as the reader would have read it from text (the board then judges it). */
export function parsedOf(board: Board, o: TypedOrder): ParsedOrder {
  const id = (i: number) => board.provinces[i]!;
  if (o.kind === "waive") return { kind: "waive" };
  const unit: UnitSpec = {
    type: o.unitType,
    province: id(o.unit),
    coast: coastOf(o.coast ?? 0),
    power: null,
  };
  const to = () => ({ province: id(o.to), coast: coastOf(o.toCoast ?? 0) });
  switch (o.kind) {
    case "hold":
      return { kind: "hold", unit };
    case "move":
    case "retreat":
      return { kind: "move", unit, to: to(), viaConvoy: o.kind === "move" && o.viaConvoy === true };
    case "support":
      return {
        kind: "support",
        unit,
        supported: { type: o.targetType, province: id(o.target), coast: null, power: null },
        to: o.to === -1 ? null : to(),
      };
    case "convoy":
      return {
        kind: "convoy",
        unit,
        convoyed: { type: o.targetType ?? "A", province: id(o.target), coast: null, power: null },
        to: to(),
      };
    case "disband":
      return { kind: "disband", unit };
    case "remove":
      return { kind: "remove", unit };
    case "build":
      return {
        kind: "build",
        unitType: o.unitType,
        location: { province: id(o.unit), coast: coastOf(o.coast ?? 0) },
      };
  }
}

/** An engine order as the reader would have read its text (`formatOrder`) back. */
const spec = (u: {
  readonly type: UnitType;
  readonly province: ProvinceId;
  readonly coast: Coast | null;
}): UnitSpec => ({ type: u.type, province: u.province, coast: u.coast, power: null });

export function parsedOfOrder(o: Order): ParsedOrder {
  switch (o.kind) {
    case "waive":
      return { kind: "waive" };
    case "hold":
      return { kind: "hold", unit: spec(o.unit) };
    case "move":
      return { kind: "move", unit: spec(o.unit), to: o.to, viaConvoy: o.viaConvoy };
    case "retreat":
      return { kind: "move", unit: spec(o.unit), to: o.to, viaConvoy: false };
    case "support": {
      const supported: UnitSpec = {
        type: o.targetType,
        province: o.target,
        coast: null,
        power: null,
      };
      const to = o.to === null ? null : { province: o.to, coast: null };
      // Written out, not spread: a spread literal is built by a slow generic copy.
      if (o.arrived) return { kind: "support", unit: spec(o.unit), supported, to, arrived: true };
      return { kind: "support", unit: spec(o.unit), supported, to };
    }
    case "convoy":
      return {
        kind: "convoy",
        unit: spec(o.unit),
        convoyed: { type: o.targetType, province: o.from, coast: null, power: null },
        to: { province: o.to, coast: null },
      };
    case "disband":
      return { kind: "disband", unit: spec(o.unit) };
    case "remove":
      // `remove stp/sc`: the text names no unit type.
      return {
        kind: "remove",
        unit: { type: null, province: o.unit.province, coast: o.unit.coast, power: null },
      };
    case "build":
      return {
        kind: "build",
        unitType: o.unit.type,
        location: { province: o.unit.province, coast: o.unit.coast },
      };
  }
}

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

/** A typed order written as text (`A lon - nth`), as a person would write it. */
export function orderText(board: Board, o: TypedOrder): string {
  const p = parsedOf(board, o);
  const loc = (l: { province: string; coast: Coast | null }) =>
    l.coast ? `${l.province}/${l.coast}` : l.province;
  const unit = (u: UnitSpec) => `${u.type ?? ""} ${loc(u)}`.trim();
  switch (p.kind) {
    case "waive":
      return "waive";
    case "hold":
      return `${unit(p.unit)} H`;
    case "move":
      return `${unit(p.unit)} - ${loc(p.to)}${p.viaConvoy ? " via convoy" : ""}`;
    case "support":
      return `${unit(p.unit)} S ${unit(p.supported)}${p.to ? ` - ${loc(p.to)}` : ""}`;
    case "convoy":
      return `${unit(p.unit)} C ${unit(p.convoyed)} - ${loc(p.to)}`;
    case "disband":
      return `${unit(p.unit)} D`;
    case "remove":
      return `remove ${unit(p.unit)}`;
    case "build":
      return `build ${p.unitType ?? ""} ${loc(p.location)}`.replace("  ", " ");
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
    case "A": {
      const drawn = randomAdjustmentOrders(variant, position, unplayed, r);
      if (drawn) return drawn;
      for (const [power, { count, orders }] of legalAdjustmentOrders(variant, position, rules)) {
        // Each build site (or unit to remove) at most once; waives fill the rest.
        const bySite = new Map<string, Order[]>();
        for (const o of orders) {
          if (o.kind === "waive") continue;
          const k = o.unit.province;
          const list = bySite.get(k);
          if (list) list.push(o);
          else bySite.set(k, [o]);
        }
        const sites = [...bySite.values()];
        for (let i = sites.length - 1; i > 0; i--) {
          const j = r.int(i + 1);
          [sites[i], sites[j]] = [sites[j]!, sites[i]!];
        }
        const chosen = sites.slice(0, count).map((site) => r.pick(site));
        if (!unplayed.includes(power)) out.push(...chosen);
      }
      break;
    }
  }
  return out;
}

/** Engine orders as structured orders per power, in the order given (the typed path). */
export function parsedSets(orders: readonly Order[]): Map<PowerId, ParsedOrder[]> {
  const sets = new Map<PowerId, ParsedOrder[]>();
  for (const o of orders) {
    const power = o.kind === "waive" ? o.power : o.unit.power;
    const list = sets.get(power);
    const p = parsedOfOrder(o);
    if (list) list.push(p);
    else sets.set(power, [p]);
  }
  return sets;
}

/** Orders as text per power (the text path of the same orders). */
export function ordersAsText(orders: readonly Order[]): OrderTexts {
  const out = new Map<PowerId, string[]>();
  for (const o of orders) {
    const power = o.kind === "waive" ? o.power : o.unit.power;
    const list = out.get(power);
    if (list) list.push(formatOrder(o));
    else out.set(power, [formatOrder(o)]);
  }
  return out;
}
