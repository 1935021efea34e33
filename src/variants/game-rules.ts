/*
 * Every game as game rules (src/engine/game.ts), by id: the one interface the hosts speak to. A
 * Diplomacy variant's rules come from diplomacy.ts over its Variant and scenarios; a game
 * family registers its own (global/rules.ts, discovery/rules.ts). Add a new family here.
 */
import { type AnyGameRules, type GameRules, hosted, type Opaque } from "../engine/game.ts";
import { diplomacyRules } from "./diplomacy.ts";
import { discoveryHosting, discoveryRules } from "./discovery/rules.ts";
import {
  type CommandLines,
  type FamilyHosting,
  globalHosting,
  globalRules,
} from "./global/rules.ts";
import { getVariant, variantIds } from "./registry.ts";
import { scenariosOf } from "./scenarios.ts";

/** A game family's rules with what a host asks beyond them (global/rules.ts `FamilyHosting`). */
export interface HostedFamily {
  readonly rules: AnyGameRules;
  readonly hosting: FamilyHosting<Opaque<"state">>;
  /** An order set of the rules as the command lines a player sends (the family bot's text). */
  readonly lines: (orders: Opaque<"orders">) => CommandLines;
}

/** Rules and hosting over the same state, held as a host holds them (`hosted`). */
function hostedFamily<S, V>(
  rules: GameRules<S, CommandLines, V>,
  hosting: FamilyHosting<S>,
): HostedFamily {
  return {
    rules: hosted(rules),
    hosting: hosting as unknown as FamilyHosting<Opaque<"state">>,
    // The families' order sets are their command lines (global/rules.ts `CommandLines`).
    lines: (orders) => orders as unknown as CommandLines,
  };
}

const families: readonly HostedFamily[] = [
  hostedFamily(globalRules, globalHosting),
  hostedFamily(discoveryRules, discoveryHosting),
];
const familyGameRules: readonly AnyGameRules[] = families.map((f) => f.rules);

/** A game family the judge hosts by per-power reports (Global Diplomacy...), or undefined. */
export function gameFamily(id: string): HostedFamily | undefined {
  return families.find((f) => f.rules.id === id);
}

/** The families `gameFamily` knows, in registration order. */
export function gameFamilies(): readonly HostedFamily[] {
  return families;
}
const variantRules = new Map<string, AnyGameRules>();

/** The rules of a game by id (a variant or a family), or undefined. */
export function gameRules(id: string): AnyGameRules | undefined {
  const v = getVariant(id);
  if (v) {
    let r = variantRules.get(id);
    if (!r) {
      r = hosted(diplomacyRules(v, scenariosOf(id)));
      variantRules.set(id, r);
    }
    return r;
  }
  return familyGameRules.find((g) => g.id === id);
}

/** The ids of every game with rules: the variants, then the families. */
export function gameRulesIds(): readonly string[] {
  return [...variantIds(), ...familyGameRules.map((g) => g.id)];
}
