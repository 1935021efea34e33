import { adjudicate } from "../engine/adjudicate.ts";
import {
  PositionError,
  positionProblem,
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
    const problem = positionProblem(variant, position);
    if (problem) return { error: problem };
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
 * The deepest nesting an input may have (the judge's request bodies have the same limit,
 * docs/reliability.md). Deeper input is refused before anything recurses into it: the
 * engine's readers and JSON.stringify would overflow the stack on a few thousand levels.
 */
export const MAX_DEPTH = 1000;

/** How deeply `value` nests objects and lists (0 for a scalar), counted without recursion. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    const depth = d + 1;
    if (depth > deepest) deepest = depth;
    if (depth > MAX_DEPTH) return depth;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth]);
  }
  return deepest;
}

type Doc = { ok: true; value: unknown } | { ok: false; error: string };

/** A parsed document, refused when it nests deeper than MAX_DEPTH. */
function checked(value: unknown, where: string): Doc {
  return nestingDepth(value) > MAX_DEPTH
    ? {
        ok: false,
        error: `${where} nests deeper than ${MAX_DEPTH} levels; a position needs only a few`,
      }
    : { ok: true, value };
}

/**
 * Splits standard input into documents: one JSON object (possibly over several lines) or
 * JSON Lines. Each element is the parsed value or the error for that line; blank lines are
 * skipped, and an error names the line by its number in the input.
 */
export function splitInput(text: string): Doc[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  let whole: unknown;
  try {
    whole = JSON.parse(trimmed);
  } catch {
    // Not one document: read it as JSON Lines.
    return text.split("\n").flatMap((line, i): Doc[] => {
      if (line.trim() === "") return [];
      try {
        return [checked(JSON.parse(line), `line ${i + 1}`)];
      } catch (e) {
        return [{ ok: false, error: `line ${i + 1} is not valid JSON: ${(e as Error).message}` }];
      }
    });
  }
  return [checked(whole, "the input")];
}

/**
 * `entente adjudicate` on the whole of standard input: one output line per document, in
 * order, and the exit status (1 when any line is an error, or when there was no input).
 * A document that makes the engine fail unexpectedly is reported on its own line too, so
 * that the other lines of a batch are still answered.
 */
export function adjudicateInput(
  text: string,
  rules: RuleOptions,
): { lines: string[]; status: number } {
  const docs = splitInput(text);
  if (docs.length === 0) {
    const error =
      "no input: standard input was empty; give one JSON object, or JSON Lines with one object per line (docs/adjudicate-json.md)";
    return { lines: [JSON.stringify({ error })], status: 1 };
  }
  let status = 0;
  const lines = docs.map((doc, i) => {
    let result: Record<string, unknown>;
    if (!doc.ok) result = { error: doc.error };
    else {
      try {
        result = adjudicateAnyJson(doc.value, rules) as Record<string, unknown>;
      } catch (e) {
        const what =
          e instanceof RangeError ? "the input is too large to adjudicate" : "internal error";
        result = {
          error: `${what} (document ${i + 1}): ${e instanceof Error ? e.message : String(e)}`,
        };
      }
    }
    if ("error" in result) status = 1;
    return JSON.stringify(result);
  });
  return { lines, status };
}
