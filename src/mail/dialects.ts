import type { MailDialect } from "./dialect.ts";
import { EmgDialect } from "./emg.ts";
import { HouseRulesDialect } from "./houserules.ts";

/**
 * The dialects, in the order they are asked: EMG first (Global Diplomacy and Age of Discovery
 * games, and variants with `EmgRules`), the house rules as the fallback that also answers
 * every mail nobody claims.
 */
export function defaultDialects(): MailDialect[] {
  return [new EmgDialect(), new HouseRulesDialect()];
}
