import { adjudicate } from "../engine/adjudicate.ts";
import {
  PositionError,
  type ResultJson,
  readOrders,
  readPosition,
  writeResult,
} from "../engine/position-json.ts";
import { type RuleOptions, readRules } from "../engine/rules.ts";
import { checkSequential } from "../engine/sequential.ts";
import { gameIds, getGame, getVariant, variantIds } from "../variants/registry.ts";

/**
 * One input object to one output object, for any variant: games of other families
 * (`"variant": "global"`, docs/global.md) go to their own adjudicator, the rest to
 * `adjudicateJson` unchanged.
 */
export function adjudicateAnyJson(
  input: unknown,
  defaultRules: RuleOptions,
): ResultJson | Record<string, unknown> {
  const id =
    typeof input === "object" && input !== null && !Array.isArray(input)
      ? (input as Record<string, unknown>).variant
      : undefined;
  const game = typeof id === "string" ? getGame(id) : undefined;
  if (game) return game.adjudicateJson(input as Record<string, unknown>);
  return adjudicateJson(input, defaultRules);
}

/** One input object of the contract to one output object (or `{error}`). */
export function adjudicateJson(
  input: unknown,
  defaultRules: RuleOptions,
): ResultJson | { error: string } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { error: "each input must be a JSON object with variant, phase, units and orders" };
  }
  const obj = input as Record<string, unknown>;
  const variantId = obj.variant ?? "classical";
  const variant = typeof variantId === "string" ? getVariant(variantId) : undefined;
  if (!variant) {
    return {
      error: `unknown variant ${JSON.stringify(variantId)}; known: ${[...variantIds(), ...gameIds()].join(", ")}`,
    };
  }
  // The variant's own rule defaults go over the profile; options written in the input win.
  let rules = variant.rules ? { ...defaultRules, ...variant.rules } : defaultRules;
  if (obj.rules !== undefined) {
    const r = readRules(obj.rules, variant.rules);
    if (!r.ok) return { error: r.error };
    rules = r.rules;
  }
  try {
    const position = readPosition(obj, variant);
    const orders = readOrders(obj, variant);
    const sequential = checkSequential(variant, position, rules);
    if (sequential) return { error: sequential };
    return writeResult(variant, adjudicate(variant, position, orders, rules));
  } catch (e) {
    if (e instanceof PositionError) return { error: e.message };
    throw e;
  }
}

/**
 * Splits standard input into documents: one JSON object (possibly over several lines) or
 * JSON Lines. Each element is the parsed value or the parse error for that line.
 */
export function splitInput(
  text: string,
): ({ ok: true; value: unknown } | { ok: false; error: string })[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  try {
    return [{ ok: true, value: JSON.parse(trimmed) }];
  } catch {
    // Not one document: read it as JSON Lines.
  }
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((line, i) => {
      try {
        return { ok: true as const, value: JSON.parse(line) as unknown };
      } catch (e) {
        return {
          ok: false as const,
          error: `line ${i + 1} is not valid JSON: ${(e as Error).message}`,
        };
      }
    });
}
