/*
 * One game's rules, whatever the family: the Diplomacy variants (classical, europe1935, the
 * scenarios, the house rules, sequential movement: src/variants/diplomacy.ts) and the games
 * of seed 004 (Global Diplomacy, Age of Discovery: src/variants/global/rules.ts) implement
 * `GameRules`, and the hosts (the judge, self-play, the CLI) speak to that alone.
 *
 * It follows boardgame.io's split between a game's definition and everything that hosts it
 * (setup, phases, who acts, moves, the end, a player's view), with Diplomacy's verbs: order
 * sets are secret and simultaneous, read line by line when sent, and resolved together once
 * a phase is due. Everything here is pure: no I/O, no clock, randomness only from a seed
 * (a state carries the seed of its game's random events). Types cross the interface; JSON
 * only crosses `encode` and `decode`, for the store and the contract.
 */

/** How many players a game has: fixed (min = max) or chosen when it is set up. */
export interface PlayerCount {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

/** A power of a game: its id (as orders, records and seats name it) and its name. */
export interface PowerInfo {
  readonly id: string;
  readonly name: string;
}

/** The phase a state is at. */
export interface PhaseInfo {
  /** As records and mail subjects name it: `S1901M`, `W1901A`, `T3`. */
  readonly name: string;
  readonly kind: "movement" | "retreats" | "adjustments" | "turn";
  /** Diplomacy's game year; absent for a game counted in turns. */
  readonly year?: number;
  /** Phases played before this one (0 for the first). */
  readonly index: number;
}

/** What one line of an order set reads as: an order (in canonical form), or why not. */
export type LineVerdict =
  | {
      readonly line: number;
      readonly text: string;
      readonly ok: true;
      /** As understood: `A par - bur`, `MO 16 17`, a variant's own `insurrection ...`. */
      readonly order: string;
    }
  | {
      readonly line: number;
      readonly text: string;
      readonly ok: false;
      readonly reason: string;
      /** Names the line may have meant ("did you mean"). */
      readonly suggestions?: readonly string[];
    };

/** A power's order set as read: a verdict per order line, and the set to adjudicate. */
export interface Reading<OrderSet> {
  readonly verdicts: readonly LineVerdict[];
  readonly orders: OrderSet;
  /** Marked final (seed 002 II(1)) within the text. */
  readonly final: boolean;
}

/** What became of one order when its phase was resolved. */
export interface ResultLine {
  readonly power: string;
  /** The order as written (or the deemed order of a unit that got none). */
  readonly order: string;
  readonly outcome: "succeeds" | "fails" | "invalid";
  /** Why it did not succeed; absent when it did. */
  readonly reason?: string;
}

/** How a game ended: one winner, or a shared victory (Global Diplomacy's ties). */
export interface GameEnd {
  readonly kind: "solo" | "shared";
  readonly winners: readonly string[];
}

/** A phase resolved: its results with reasons, the next state, and the end if it came. */
export interface Resolution<State> {
  /** The phase resolved (`S1901M`, `T3`). */
  readonly phase: string;
  readonly results: readonly ResultLine[];
  readonly next: State;
  readonly ended: GameEnd | null;
  /** Powers that had to order and sent nothing: played as `whenSilent` says. */
  readonly silent: readonly string[];
}

/** Who is looking: the game master (everything), a player of some powers, or anybody. */
export type Viewer =
  | { readonly kind: "gm" }
  | { readonly kind: "player"; readonly powers: readonly string[] }
  | { readonly kind: "public" };

/** The board as data for drawing: areas with their neighbours, and the powers. */
export interface BoardData {
  readonly id: string;
  readonly name: string;
  readonly areas: readonly {
    readonly id: string;
    readonly name: string;
    readonly kind: "land" | "coast" | "sea";
    /** A supply centre (Diplomacy) or an area with supply value (Global Diplomacy). */
    readonly supply: boolean;
    readonly neighbours: readonly string[];
  }[];
  readonly powers: readonly PowerInfo[];
}

/** A game's rules: what every host asks of every game family. */
export interface GameRules<State, OrderSet, View> {
  /** The id games and records name (`classical`, `global`). */
  readonly id: string;
  readonly name: string;
  readonly players: PlayerCount;
  /**
   * The opening state of a game: `seed` drives every random event of the game (and, for a
   * generated map, the map); `players` within `players` (default: its default). Throws a
   * `GameRulesError` saying what is allowed for a count outside it.
   */
  setup(seed: number, players?: number): State;
  /** The phase a state is at. */
  phase(state: State): PhaseInfo;
  /** The game's powers (each seat plays one or more). */
  powers(state: State): readonly PowerInfo[];
  /** Powers that must send orders in this phase: the others have nothing to order. */
  mustOrder(state: State): readonly string[];
  /** Powers that may send orders (those still in the game): a superset of `mustOrder`. */
  mayOrder(state: State): readonly string[];
  /**
   * A power's orders as written (a mail body, lines typed on the page) read against the
   * state: a verdict for every order line, the variant's own kinds included, and the set.
   */
  read(state: State, power: string, text: string): Reading<OrderSet>;
  /** What a power's silence means (NMR, civil disorder): the set it is played with. */
  whenSilent(state: State, power: string): OrderSet;
  /**
   * Resolves the phase with each power's set; powers absent from `sets` are silent. Throws
   * a `GameRulesError` for a state whose game is over.
   */
  resolve(state: State, sets: ReadonlyMap<string, OrderSet>): Resolution<State>;
  /** What a viewer may see of the state: a player's own report, fog of war; the GM all. */
  view(state: State, viewer: Viewer): View;
  /** Random legal orders for one power (self-play): the same for the same seed and state. */
  random(state: State, power: string, seed: number): OrderSet;
  /**
   * The board of this game as data, as far as the viewer may see it (a generated map is the
   * game's own, and a player is shown only what it knows of it; the GM the whole).
   */
  board(state: State, viewer: Viewer): BoardData;
  /** What every state must satisfy (no two units in one place...): the broken rules, if any. */
  invariants(state: State): readonly string[];
  /** The state as JSON for the store, and back; `decode` throws a `GameRulesError`. */
  encode(state: State): unknown;
  decode(json: unknown): State;
}

/** Bad input to a game's rules (a player count, a stored state, a game already over). */
export class GameRulesError extends Error {}

declare const opaque: unique symbol;
/** A value a host keeps without looking inside: only the rules that made it read it. */
export type Opaque<Tag extends string> = { readonly [opaque]: Tag };

/**
 * Rules whose state and order sets a host holds opaquely: what the registry hands out, so
 * that one host serves every family (each state goes back only to the rules that made it).
 */
export type AnyGameRules = GameRules<Opaque<"state">, Opaque<"orders">, unknown>;

/** `rules` as a host holds them (their types hidden; a state still goes back only to them). */
export function hosted<S, O, V>(rules: GameRules<S, O, V>): AnyGameRules {
  return rules as unknown as AnyGameRules;
}
