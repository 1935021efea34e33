/**
 * The domain types of the engine. Everything here is plain, readonly data: a position can be
 * copied, compared and serialised, and the engine never mutates what it is given.
 */

declare const brand: unique symbol;
/** A string that the type checker keeps apart from other strings. */
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A province's short id, lower case (`lon`, `stp`, `mao`). */
export type ProvinceId = Brand<string, "ProvinceId">;
/** A power's id, lower case (`england`). */
export type PowerId = Brand<string, "PowerId">;

export const provinceId = (s: string): ProvinceId => s as ProvinceId;
export const powerId = (s: string): PowerId => s as PowerId;

/** A named coast of a province with more than one. */
export type Coast = "nc" | "sc" | "ec" | "wc";
export const COASTS: readonly Coast[] = ["nc", "sc", "ec", "wc"];

/** A for army, F for fleet. */
export type UnitType = "A" | "F";

/** Land (inland), sea, or coast (land that fleets may enter). */
export type ProvinceKind = "land" | "sea" | "coast";

export interface Province {
  readonly id: ProvinceId;
  /** The full name, as printed on the board. */
  readonly name: string;
  /** Other names and spellings players use (`mid` for `mao`, `Gulf of Lyons`). */
  readonly aliases: readonly string[];
  readonly kind: ProvinceKind;
  /** The named coasts of a province with several; empty for every other province. */
  readonly coasts: readonly Coast[];
  readonly supplyCenter: boolean;
  /** The power whose home centre this is, or null. */
  readonly home: PowerId | null;
  /** Impassable land (europe1935's Switzerland): no unit may ever stand there. */
  readonly impassable: boolean;
}

/** A place a unit can stand: a province, and for a fleet on a split coast, the coast. */
export interface Location {
  readonly province: ProvinceId;
  readonly coast: Coast | null;
}

export interface Power {
  readonly id: PowerId;
  /** Display name (`England`). */
  readonly name: string;
  /** Adjective (`English`). */
  readonly adjective: string;
  /** One letter used in mail subjects and compact notations, unique in the variant. */
  readonly letter: string;
  /**
   * Other names people write for it (europe1935: `UK`, `Great Britain`, `England` for the
   * United Kingdom), read wherever a power is named (`findPowerByName` in powers.ts).
   */
  readonly aliases?: readonly string[];
}

export interface Unit {
  readonly power: PowerId;
  readonly type: UnitType;
  readonly province: ProvinceId;
  /** The coast a fleet stands on in a split-coast province; null otherwise. */
  readonly coast: Coast | null;
}

/** A unit dislodged in the movement phase, awaiting its retreat. */
/**
 * How a dislodged unit is told apart: its power and the province it was dislodged from. Two
 * units may be dislodged from one province in a season (sequential movement: an earlier slot's
 * and a later one's), of two powers; each power's retreat orders name its own by province.
 */
export const dislodgedKey = (u: {
  readonly power: PowerId;
  readonly province: ProvinceId;
}): string => `${u.power} ${u.province}`;

export interface DislodgedUnit extends Unit {
  /** The province its attacker came from; null if none applies. */
  readonly attackerFrom: ProvinceId | null;
  /** Whether that attacker arrived by convoy. */
  readonly viaConvoy: boolean;
}

/** S spring, F fall; U summer and W winter where a variant or profile names them. */
export type Season = "S" | "U" | "F" | "W";
/** M movement, R retreat, A adjustment. */
export type PhaseType = "M" | "R" | "A";

export interface Phase {
  readonly season: Season;
  readonly year: number;
  readonly type: PhaseType;
}

/** Everything needed to adjudicate the next phase. */
export interface Position {
  readonly phase: Phase;
  readonly units: readonly Unit[];
  /** Dislodged units (retreat phases only). */
  readonly dislodged: readonly DislodgedUnit[];
  /** Provinces left empty by a standoff in the movement phase; no unit may retreat there. */
  readonly contested: readonly ProvinceId[];
  /** Supply-centre owners; centres nobody owns are absent. */
  readonly centers: ReadonlyMap<ProvinceId, PowerId>;
}
