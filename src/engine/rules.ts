/**
 * Rule options: every question the rulebook leaves open that the engine answers one way or
 * another is a named option here. A profile is a full set of answers; `datc` (the default)
 * takes the DATC's preferred choice for each (DATC section 4). docs/rules.md explains each.
 */

export interface RuleOptions {
  /**
   * DATC 4.A.1: a convoy with several routes is disrupted when `all` routes are broken
   * (preferred) or as soon as `any` fleet that could carry it is dislodged.
   */
  readonly multiRouteConvoy: "all" | "any";
  /**
   * DATC 4.A.2: how a convoy paradox is resolved. `szykman` (preferred): the convoyed armies
   * in the paradox do not move and have no effect. `all-hold`: every order in the paradox
   * cycle fails (units hold).
   */
  readonly convoyParadox: "szykman" | "all-hold";
  /**
   * DATC 4.A.3: when an army that could move by land is also ordered to be convoyed.
   * `intent` (preferred, 2000 rules): by convoy when the order says "via convoy" or a fleet of
   * its own power is ordered to convoy it; `explicit`: only with "via convoy";
   * `any-convoy`: whenever any fleet is ordered to convoy it.
   */
  readonly convoyToAdjacent: "intent" | "explicit" | "any-convoy";
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
   * `default`: also when both are reachable, the first coast listed by the map.
   */
  readonly moveWithoutCoast: "fail" | "default";
  /**
   * DATC 4.B.4: a coast named in a support of a fleet move into a split-coast province must
   * match the move (`must-match`, preferred) or is ignored (`ignore`).
   */
  readonly supportCoast: "must-match" | "ignore";
  /**
   * DATC 4.C.1/4.C.2: the unit type written in an order. `lenient` (preferred for the ordered
   * unit): a missing type is fine and a wrong one is ignored; `strict`: a wrong type makes the
   * order void. The type of a convoyed unit must be an army either way (6.A.7).
   */
  readonly unitType: "lenient" | "strict";
  /**
   * DATC 4.D.1: a unit ordered more than once. `last` (preferred, as mail judges do): the last
   * order counts; `first`: the first counts; `hold`: the unit holds.
   */
  readonly duplicateOrders: "last" | "first" | "hold";
  /**
   * DATC 4.D.8: removals a power did not order. `distance` (preferred): farthest from any
   * home centre first (moves counted by army moves, fleet moves and convoys), fleets before
   * armies, then alphabetically by province name; `alphabetical`: by province name alone.
   */
  readonly civilDisorderRemoval: "distance" | "alphabetical";
}

export const DATC_RULES: RuleOptions = {
  multiRouteConvoy: "all",
  convoyParadox: "szykman",
  convoyToAdjacent: "intent",
  convoyedAttackCutsSupportAgainstOrigin: false,
  retreatToConvoyedAttackerOrigin: true,
  moveWithoutCoast: "fail",
  supportCoast: "must-match",
  unitType: "lenient",
  duplicateOrders: "last",
  civilDisorderRemoval: "distance",
};

export const PROFILES: Readonly<Record<string, RuleOptions>> = {
  datc: DATC_RULES,
};

/** Every option's allowed values, for validating user input. */
export const OPTION_VALUES: { readonly [K in keyof RuleOptions]: readonly RuleOptions[K][] } = {
  multiRouteConvoy: ["all", "any"],
  convoyParadox: ["szykman", "all-hold"],
  convoyToAdjacent: ["intent", "explicit", "any-convoy"],
  convoyedAttackCutsSupportAgainstOrigin: [false, true],
  retreatToConvoyedAttackerOrigin: [true, false],
  moveWithoutCoast: ["fail", "default"],
  supportCoast: ["must-match", "ignore"],
  unitType: ["lenient", "strict"],
  duplicateOrders: ["last", "first", "hold"],
  civilDisorderRemoval: ["distance", "alphabetical"],
};

export type RulesResult = { ok: true; rules: RuleOptions } | { ok: false; error: string };

/**
 * Reads rules as given by a user: a profile name, or an object with an optional `profile`
 * and any options overriding it.
 */
export function readRules(input: unknown): RulesResult {
  if (input === undefined || input === null) return { ok: true, rules: DATC_RULES };
  if (typeof input === "string") {
    const p = PROFILES[input];
    return p
      ? { ok: true, rules: p }
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
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(obj)) {
    if (k === "profile") continue;
    const allowed = (OPTION_VALUES as Record<string, readonly unknown[]>)[k];
    if (!allowed) {
      return {
        ok: false,
        error: `unknown rule option "${k}"; known: ${Object.keys(OPTION_VALUES).join(", ")}`,
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
