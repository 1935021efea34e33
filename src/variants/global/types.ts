/**
 * Global Diplomacy (seed 004): the types shared by the rules engine, the world map and the
 * Age of Discovery generator. Map data (areas, adjacency, powers and their start) is kept
 * apart from the rules and from the game state, so a generated map plugs into the same
 * engine.
 */

/** Area and power numbers, as the seed writes them in commands (`MO 20 19`, `DW 3`). */
export type AreaId = number;
export type PowerId = number;

/** Land (inland), coast (land touching the sea) or sea. */
export type AreaKind = "land" | "coast" | "sea";

/** A supply centre's value: 0 none, 1 corps/squadron centre, 2 army/fleet centre. */
export type SupplyValue = 0 | 1 | 2;

/**
 * One edge from an area to a neighbour and which units may cross it: `land` for armies and
 * corps, `sea` for fleets and squadrons. Two coasts on the same coastline have both; two
 * coasts separated by a land mass (90 Siam and 92 Cochin) only `land`.
 */
export interface Adjacency {
  readonly to: AreaId;
  readonly land: boolean;
  readonly sea: boolean;
}

export interface Area {
  readonly id: AreaId;
  readonly name: string;
  readonly kind: AreaKind;
  /** The map (region) it is drawn on: "europe", "asia", "africa", "north-america", ... */
  readonly region: string;
  readonly supply: SupplyValue;
  /** Whose capital this is (worth 5 victory points to whoever owns it). */
  readonly capital?: PowerId;
  /** An anchor for drawing (degrees; for generated maps, grid coordinates). */
  readonly lon: number;
  readonly lat: number;
  readonly adjacency: readonly Adjacency[];
  /** Generated maps: the grid squares (x, y) the area covers. */
  readonly squares?: readonly (readonly [number, number])[];
}

export type UnitKind = "army" | "corps" | "fleet" | "squadron";

export const UNIT_POINTS: Readonly<Record<UnitKind, 1 | 2>> = {
  army: 2,
  corps: 1,
  fleet: 2,
  squadron: 1,
};

/** The letters a report and the position JSON use for unit kinds. */
export const UNIT_LETTERS: Readonly<Record<UnitKind, string>> = {
  army: "A",
  corps: "C",
  fleet: "F",
  squadron: "S",
};

export function isNaval(kind: UnitKind): boolean {
  return kind === "fleet" || kind === "squadron";
}

export interface StartUnit {
  readonly area: AreaId;
  readonly kind: UnitKind;
}

export interface PowerDef {
  readonly id: PowerId;
  readonly name: string;
  /** Absent on maps without capitals (Age of Discovery). */
  readonly capital?: AreaId;
  /** The land and coastal areas it owns at the start. */
  readonly areas: readonly AreaId[];
  readonly units: readonly StartUnit[];
}

/** A whole map: areas and the powers with their start. Pure data, no rules. */
export interface MapData {
  readonly id: string;
  readonly name: string;
  readonly regions: readonly string[];
  readonly areas: readonly Area[];
  readonly powers: readonly PowerDef[];
  /** Spies per turn (Global 6, Discovery 12). */
  readonly spies: number;
  /** The VC percentage range (Global 300-500, Discovery 900-1500). */
  readonly percentRange: readonly [number, number];
  /** The VC turn-length range (10-40 for both). */
  readonly turnRange: readonly [number, number];
}

export type Relation = "neutral" | "war" | "alliance";

export interface Unit {
  readonly area: AreaId;
  readonly power: PowerId;
  readonly kind: UnitKind;
  /** Built this turn: cannot move or support, can be supported in defence. */
  readonly isNew?: boolean;
}

/** A call to arms still to be answered: `ally` must go to war with `enemy`. */
export interface CallToArms {
  readonly caller: PowerId;
  readonly ally: PowerId;
  readonly enemy: PowerId;
  /** The turn the CA was given; the ally must act from the next turn on. */
  readonly turn: number;
}

/** A call-to-arms penalty: `percent` off the victory percentage, falling 5 a turn. */
export interface Penalty {
  readonly power: PowerId;
  readonly percent: number;
}

export interface Vote {
  readonly turns: number;
  readonly percent: number;
}

/** An access grant for one turn: `grantee` may enter or support into `areas` of `grantor`. */
export interface AccessGrant {
  readonly grantor: PowerId;
  readonly grantee: PowerId;
  readonly areas: readonly AreaId[] | "all";
}

/**
 * The game state between turns (what the position JSON carries). Relations are keyed
 * "a-b" with a < b; absent means neutral.
 */
export interface GameState {
  readonly variant: string;
  /** The turn about to be played, from 1. */
  readonly turn: number;
  /** Owner of each owned land or coastal area; unowned areas are absent. */
  readonly owners: Readonly<Record<AreaId, PowerId>>;
  readonly units: readonly Unit[];
  readonly relations: Readonly<Record<string, Relation>>;
  /** Grants already in force for the turn about to be played (GA commands add to them). */
  readonly access: readonly AccessGrant[];
  readonly calls: readonly CallToArms[];
  readonly penalties: readonly Penalty[];
  /** Votes cast on turn 1 (VC). */
  readonly votes: Readonly<Record<PowerId, Vote>>;
  /** Victory points each power had at the start, the base of its percentage increase. */
  readonly initialVP: Readonly<Record<PowerId, number>>;
  /** Seed for the moderator's forced removals and downgrades. */
  readonly seed: number;
  /** Set once the game has ended: the winners (ties possible). */
  readonly winners?: readonly PowerId[];
}

/** Commands, as read from the seed's syntax (section 7, appendix A). */
export type Command =
  | { readonly op: "AA" | "AC" | "AF" | "AS"; readonly area: AreaId }
  | { readonly op: "CA"; readonly ally: PowerId; readonly enemy: PowerId }
  | {
      readonly op: "CO";
      readonly from: AreaId;
      readonly seas: readonly AreaId[];
      readonly to: AreaId;
    }
  | { readonly op: "DA" | "DN" | "DW"; readonly powers: readonly PowerId[] }
  | { readonly op: "DU" | "RU" | "UU"; readonly area: AreaId }
  | { readonly op: "GA"; readonly power: PowerId; readonly areas: readonly AreaId[] | "all" }
  | { readonly op: "ME"; readonly to: PowerId | "all"; readonly text: string }
  | { readonly op: "MO"; readonly from: AreaId; readonly to: AreaId }
  | { readonly op: "SA"; readonly from: AreaId; readonly to: AreaId; readonly power?: PowerId }
  | { readonly op: "SD"; readonly from: AreaId; readonly to: AreaId }
  | { readonly op: "SP"; readonly areas: readonly AreaId[] }
  | { readonly op: "VC"; readonly turns: number; readonly percent: number };

export type Op = Command["op"];

/**
 * The seed's execution order (section 7: "Commands are executed in the following
 * sequence", 7.1 to 7.19). Moves, supports and convoys are resolved together at MO.
 */
export const SEQUENCE: readonly Op[] = [
  "AA",
  "AC",
  "AF",
  "AS",
  "CA",
  "CO",
  "DA",
  "DN",
  "DW",
  "DU",
  "GA",
  "ME",
  "MO",
  "RU",
  "SA",
  "SD",
  "SP",
  "UU",
  "VC",
];

/** One line of a power's commands, read: the command or why it could not be read. */
export type CommandLine =
  | { readonly line: number; readonly text: string; readonly ok: true; readonly command: Command }
  | { readonly line: number; readonly text: string; readonly ok: false; readonly reason: string };

/** What became of one command after adjudication. */
export interface CommandResult {
  readonly power: PowerId;
  readonly text: string;
  readonly command?: Command;
  readonly status: "ok" | "failed" | "rejected";
  readonly reason?: string;
}

/** Rule options where the seed contradicts itself (docs/global.md). */
export interface GlobalRules {
  /**
   * "7.6" (default): any move by another power into a convoying sea area disrupts the
   * convoy; the land unit stays at its origin. "5.5": only an attack at least as strong as
   * the convoying unit disrupts it, and the land unit is left in the nearest friendly empty
   * area beside the last sea area it crossed, working backwards.
   */
  readonly convoyDisruption: "7.6" | "5.5";
}

export const DEFAULT_RULES: GlobalRules = { convoyDisruption: "7.6" };

/** What happened to a unit this turn, for the report. */
export interface UnitOutcome {
  readonly power: PowerId;
  readonly kind: UnitKind;
  /** Where it started (or was built). */
  readonly from: AreaId;
  /** Where it ended; null if destroyed. */
  readonly to: AreaId | null;
  /** "RA" retreated to `to`, "DEAD", "FRU", "FDU", or absent. */
  readonly mark?: "retreat" | "dead" | "FRU" | "FDU" | "built" | "upgraded" | "downgraded";
}

/** One turn's result: the next state and everything a report needs. */
export interface TurnResult {
  readonly turn: number;
  readonly before: GameState;
  readonly after: GameState;
  readonly results: readonly CommandResult[];
  readonly outcomes: readonly UnitOutcome[];
  /** Areas where a battle took place. */
  readonly battles: readonly AreaId[];
  /** Spied areas per power. */
  readonly spies: Readonly<Record<PowerId, readonly AreaId[]>>;
  /** Anonymous messages received per power. */
  readonly messages: Readonly<Record<PowerId, readonly string[]>>;
  /** Relation changes and declarations this turn, for the news. */
  readonly news: readonly string[];
}
