/**
 * Rule options: every question the rulebook leaves open that the engine answers one way or
 * another is a named option here. A profile is a full set of answers; `datc` (the default)
 * takes the DATC's preferred choice for each (DATC section 4). docs/rules.md explains each.
 */

import {
  type ContractsOption,
  readSequentialOption,
  type ScheduleOption,
  SEQUENTIAL_OPTION_KEYS,
} from "./sequential-rules.ts";

export interface RuleOptions {
  /**
   * DATC 4.A.1: a convoy with several routes is disrupted when `all` routes are broken
   * (preferred) or as soon as `any` fleet that could carry it is dislodged.
   */
  readonly multiRouteConvoy: "all" | "any";
  /**
   * DATC 4.A.2: how a convoy paradox is resolved. `szykman` (preferred): the convoyed armies
   * in the paradox do not move and have no effect. `all-hold`: every order in the paradox
   * cycle fails (units hold). `alternative-c` (seed 002 VI(6)): the involved convoyed armies
   * at half strength, then the involved fleets in or into land provinces too, then the
   * armies fail and hold, then hold at half strength, re-resolving after each step.
   */
  readonly convoyParadox: "szykman" | "all-hold" | "alternative-c";
  /**
   * DATC 4.A.3: when an army that could move by land is also ordered to be convoyed.
   * `intent` (preferred, 2000 rules): by convoy when the order says "via convoy" or a fleet of
   * its own power is ordered to convoy it; `explicit`: only with "via convoy";
   * `any-convoy`: whenever any fleet is ordered to convoy it.
   */
  readonly convoyToAdjacent: "intent" | "explicit" | "any-convoy";
  /**
   * DATC 4.A.3 (6.G.8): an army ordered "via convoy" to a province it could reach over land,
   * when no fleets ordered to convoy it form a route. `land` (version 2.4's preference): it
   * falls back to the land route; `none` (version 3.0's preference): it does not move.
   */
  readonly viaConvoyFallback: "land" | "none";
  /**
   * DATC 4.E.1 (6.G.19): a convoy order of a fleet that no convoy route between the two
   * provinces needs (its sea lies only on routes another chain of seas makes shorter).
   * `legal` (version 2.4): any fleet in a sea a route could pass may convoy; `illegal`
   * (version 3.0): the order is illegal, ignored, and shows no intent to be convoyed.
   */
  readonly unneededConvoy: "legal" | "illegal";
  /**
   * DATC 4.A.4: does an army convoyed to a province cut the support of a unit there that
   * supports an attack on the army's own origin? `false` (preferred): no, as for any attack
   * from the province the support is directed at; `true`: it cuts.
   */
  readonly convoyedAttackCutsSupportAgainstOrigin: boolean;
  /**
   * DATC 4.A.5: may a unit dislodged by a convoyed army retreat to the province the army
   * came from? `true` (preferred, 2000 rules).
   */
  readonly retreatToConvoyedAttackerOrigin: boolean;
  /**
   * DATC 4.B.1/4.B.2: a fleet moving to a split-coast province without naming the coast.
   * `fail` when both coasts are reachable, the only reachable coast otherwise (preferred);
   * `default`: also when both are reachable, the first coast listed by the map;
   * `required`: the coast must always be named, or the fleet does not move (the 1935
   * Historical Committee rules for Iran).
   */
  readonly moveWithoutCoast: "fail" | "default" | "required";
  /**
   * DATC 4.B.4: a coast named in a support of a fleet move into a split-coast province must
   * match the move (`must-match`, preferred) or is ignored (`ignore`).
   */
  readonly supportCoast: "must-match" | "ignore";
  /**
   * DATC 4.C.1/4.C.2: the unit type written in an order. `lenient` (preferred for the ordered
   * unit): a missing type is fine and a wrong one is ignored; `strict`: a wrong type makes the
   * order void. A convoy order must name the convoyed unit an army (or no type), except with
   * `ignore` (seed 002 IV(1)): no type written anywhere in an order matters. Only armies can
   * be convoyed, whatever this says (6.A.7).
   */
  readonly unitType: "lenient" | "strict" | "ignore";
  /**
   * DATC 4.D.1: a unit ordered more than once. `last` (preferred, as mail judges do): the last
   * order counts; `first`: the first counts; `hold` (seed 002 III(6)): illegal orders are
   * set aside and identical ones merged first; if orders still differ, the unit holds.
   */
  readonly duplicateOrders: "last" | "first" | "hold";
  /**
   * DATC 4.D.8: removals a power did not order. `distance` (preferred): farthest from any
   * home centre first (moves counted by army moves, fleet moves and convoys), fleets before
   * armies, then alphabetically by province name; `alphabetical`: by province name alone;
   * `owned` (2023 rules, DATC 3.0): as `distance`, but counted to the nearest supply centre
   * the power owns, armies and fleets alike over land and sea.
   */
  readonly civilDisorderRemoval: "distance" | "alphabetical" | "owned";
  /**
   * Seed 002 III(1): an order with several readings (a typo close to two names) is read as
   * the one that makes a valid order, preferring one for a unit not otherwise ordered
   * (`true`); `false`: such an order is ambiguous.
   */
  readonly presumeValid: boolean;
  /**
   * Seed 002 III(2): a name or word that is not known. `suggest`: the order is not understood
   * and the reader says "did you mean"; `correct`: an unambiguous abbreviation or close
   * misspelling is read as meant. A word that spells another name exactly is that name.
   */
  readonly typoTolerance: "suggest" | "correct";
  /**
   * Seed 002 III(5): may a unit given an illegal move order be supported to hold? `true`
   * (DATC 4.E.1: an illegal order is a hold); `false`: a unit ordered to move never receives
   * support to hold, even when the move is impossible.
   */
  readonly supportHoldAfterIllegalMove: boolean;
  /**
   * Seed 002 IV(4): a fleet moving to a coast it cannot reach. `illegal` (DATC 4.B.3);
   * `repair`: if it can reach exactly one coast of the province, it goes there.
   */
  readonly wrongCoast: "illegal" | "repair";
  /**
   * Seed 002 V(1): a build that names no unit type. `invalid` (DATC 4.C.3); `infer`: an army
   * where only armies can be built, a fleet where a coast is named, nothing where both could.
   */
  readonly buildWithoutType: "invalid" | "infer";
  /** Seed 002 V(5): a fleet ordered built inland. `invalid`; `army`: an army is built. */
  readonly fleetBuildInland: "invalid" | "army";
  /**
   * Seed 002 V(2): more builds or removals than allowed. `first`: they are taken in the order
   * written; `last`: from the bottom of the order set up.
   */
  readonly excessAdjustments: "first" | "last";
  /**
   * Seed 002 V(3): two builds in one centre. `first`: the first written counts; `last`: the
   * first reading from the bottom up.
   */
  readonly multipleBuildsOneCentre: "first" | "last";
  /**
   * Seed 002 VI(3): an army move that names its convoy route (`A lon - nth - nwy`).
   * `invalid`: not understood; `ignored`: read as a move by convoy to the last place, carried
   * by any fleets ordered to convoy it.
   */
  readonly convoyRouteNames: "invalid" | "ignored";
  /**
   * Seed 002 II(5): phase names. `standard`: S1901R and F1901R retreats, W1901A adjustments;
   * `summer-winter` (Alternative C): spring retreats are summer (U1901R), fall retreats are
   * winter (W1901R) and are ordered together with the adjustments.
   */
  readonly seasons: "standard" | "summer-winter";
  /**
   * Seed 003 (docs/sequential.md): `simultaneous` (the default, also when absent) or
   * `sequential` movement, the powers' orders resolved one power after another.
   */
  readonly movement?: "simultaneous" | "sequential";
  /** Sequential movement: the GM's schedule, this season's or by season (sequential-rules.ts). */
  readonly schedule?: ScheduleOption;
  /** Sequential movement: the support contracts, this season's or by season. */
  readonly contracts?: ContractsOption;
  /** Sequential movement: the seed of the generated schedules (default 0). */
  readonly scheduleSeed?: number;
}

export const DATC_RULES: RuleOptions = {
  multiRouteConvoy: "all",
  convoyParadox: "szykman",
  convoyToAdjacent: "intent",
  viaConvoyFallback: "land",
  unneededConvoy: "legal",
  convoyedAttackCutsSupportAgainstOrigin: false,
  retreatToConvoyedAttackerOrigin: true,
  moveWithoutCoast: "fail",
  supportCoast: "must-match",
  unitType: "lenient",
  duplicateOrders: "last",
  civilDisorderRemoval: "distance",
  presumeValid: false,
  typoTolerance: "suggest",
  supportHoldAfterIllegalMove: true,
  wrongCoast: "illegal",
  buildWithoutType: "invalid",
  fleetBuildInland: "invalid",
  excessAdjustments: "first",
  multipleBuildsOneCentre: "first",
  convoyRouteNames: "invalid",
  seasons: "standard",
};

/**
 * The house rules of seed 002 (`../shared/seeds/002_d9087c3218e4851e.txt`): the 1982 rules
 * with the game master's chosen alternative for every open question. docs/house-rules.md
 * gives each option its clause, an example and its outcome.
 */
export const HOUSE_RULES: RuleOptions = {
  multiRouteConvoy: "all", // VI(4) Alternative D
  convoyParadox: "alternative-c", // VI(6) Alternative C
  convoyToAdjacent: "intent", // VI(2) Alternative B
  viaConvoyFallback: "land",
  unneededConvoy: "legal",
  convoyedAttackCutsSupportAgainstOrigin: true, // VI(5) Alternative A
  retreatToConvoyedAttackerOrigin: false, // VI(1) Alternative A
  moveWithoutCoast: "fail", // IV(3) Alternative B: only when one coast is reachable
  supportCoast: "ignore", // IV(6), IV(7) Alternative C
  unitType: "ignore", // IV(1) Alternative B
  duplicateOrders: "hold", // III(6) Alternative C
  civilDisorderRemoval: "distance", // V(4) Alternative C
  presumeValid: true, // III(1) Alternative B
  typoTolerance: "correct", // III(2) Alternative D
  supportHoldAfterIllegalMove: false, // III(5) Alternative A
  wrongCoast: "repair", // IV(4) Alternative B
  buildWithoutType: "infer", // V(1) Alternative C
  fleetBuildInland: "army", // V(5) Alternative B
  excessAdjustments: "last", // V(2) Alternative B
  multipleBuildsOneCentre: "last", // V(3) Alternative C
  convoyRouteNames: "ignored", // VI(3) Alternative B
  seasons: "summer-winter", // II(5) Alternative C
};

export const PROFILES: Readonly<Record<string, RuleOptions>> = {
  datc: DATC_RULES,
  houserules: HOUSE_RULES,
};

/** Every option's allowed values, for validating user input. */
export const OPTION_VALUES: { readonly [K in keyof RuleOptions]: readonly RuleOptions[K][] } = {
  multiRouteConvoy: ["all", "any"],
  convoyParadox: ["szykman", "all-hold", "alternative-c"],
  convoyToAdjacent: ["intent", "explicit", "any-convoy"],
  viaConvoyFallback: ["land", "none"],
  unneededConvoy: ["legal", "illegal"],
  convoyedAttackCutsSupportAgainstOrigin: [false, true],
  retreatToConvoyedAttackerOrigin: [true, false],
  moveWithoutCoast: ["fail", "default", "required"],
  supportCoast: ["must-match", "ignore"],
  unitType: ["lenient", "strict", "ignore"],
  duplicateOrders: ["last", "first", "hold"],
  civilDisorderRemoval: ["distance", "alphabetical", "owned"],
  presumeValid: [false, true],
  typoTolerance: ["suggest", "correct"],
  supportHoldAfterIllegalMove: [true, false],
  wrongCoast: ["illegal", "repair"],
  buildWithoutType: ["invalid", "infer"],
  fleetBuildInland: ["invalid", "army"],
  excessAdjustments: ["first", "last"],
  multipleBuildsOneCentre: ["first", "last"],
  convoyRouteNames: ["invalid", "ignored"],
  seasons: ["standard", "summer-winter"],
  movement: ["simultaneous", "sequential"],
};

export type RulesResult = { ok: true; rules: RuleOptions } | { ok: false; error: string };

/**
 * Reads rules as given by a user: a profile name, or an object with an optional `profile`
 * and any options overriding it. `defaults` are a variant's own rule defaults (Variant
 * `rules`): they replace the profile's answers and are themselves overridden by options
 * written out in `input`.
 */
export function readRules(input: unknown, defaults?: Partial<RuleOptions>): RulesResult {
  if (input === undefined || input === null)
    return { ok: true, rules: defaults ? { ...DATC_RULES, ...defaults } : DATC_RULES };
  if (typeof input === "string") {
    const p = PROFILES[input];
    return p
      ? { ok: true, rules: defaults ? { ...p, ...defaults } : p }
      : {
          ok: false,
          error: `unknown rule profile "${input}"; known: ${Object.keys(PROFILES).join(", ")}`,
        };
  }
  if (typeof input !== "object" || Array.isArray(input)) {
    return { ok: false, error: "rules must be a profile name or an object of rule options" };
  }
  const obj = input as Record<string, unknown>;
  let base = DATC_RULES;
  if (obj.profile !== undefined) {
    const r = readRules(obj.profile);
    if (!r.ok) return r;
    base = r.rules;
  }
  const out: Record<string, unknown> = { ...base, ...defaults };
  for (const [k, v] of Object.entries(obj)) {
    if (k === "profile") continue;
    const structured = readSequentialOption(k, v);
    if (structured) {
      if (!structured.ok) return structured;
      out[k] = structured.value;
      continue;
    }
    const allowed = (OPTION_VALUES as Record<string, readonly unknown[]>)[k];
    if (!allowed) {
      return {
        ok: false,
        error: `unknown rule option "${k}"; known: ${[...Object.keys(OPTION_VALUES), ...SEQUENTIAL_OPTION_KEYS].join(", ")}`,
      };
    }
    if (!allowed.includes(v)) {
      return {
        ok: false,
        error: `rule option ${k} cannot be ${JSON.stringify(v)}; use one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`,
      };
    }
    out[k] = v;
  }
  return { ok: true, rules: out as unknown as RuleOptions };
}
