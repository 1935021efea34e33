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
import { checkSequential } from "../engine/sequential-schedule.ts";
import { gameIds, getGame, getVariant, variantIds } from "../variants/registry.ts";
import { JsonPrefix } from "./json-prefix.ts";
import { type Chunks, type LineHandler, type LineOutput, pumpLines } from "./lines.ts";

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

/**
 * Whether a text's JSON can nest deeper than MAX_DEPTH: each level takes a bracket, so a text
 * with fewer opening brackets cannot (most lines, checked without walking what they parse to).
 */
function mayNestTooDeep(text: string): boolean {
  if (text.length <= 2 * MAX_DEPTH) return false;
  let brackets = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 91 || c === 123) && ++brackets > MAX_DEPTH) return true;
  }
  return false;
}

/** The document called `where` refused for its depth. */
const tooDeep = (where: string): Doc => ({
  ok: false,
  error: `${where} nests deeper than ${MAX_DEPTH} levels; a position needs only a few`,
});

/** A document parsed from `text`, refused when it nests deeper than MAX_DEPTH. */
function checked(value: unknown, text: string, where: string): Doc {
  return mayNestTooDeep(text) && nestingDepth(value) > MAX_DEPTH
    ? tooDeep(where)
    : { ok: true, value };
}

/** One line of JSON Lines, numbered `n` in the input. */
function lineDoc(line: string, n: number): Doc {
  try {
    return checked(JSON.parse(line), line, `line ${n}`);
  } catch (e) {
    return { ok: false, error: `line ${n} is not valid JSON: ${(e as Error).message}` };
  }
}

const NO_INPUT =
  "no input: standard input was empty; give one JSON object, or JSON Lines with one object per line (docs/adjudicate-json.md)";

/**
 * `entente adjudicate` on a stream: standard input is one JSON object (possibly over several
 * lines) or JSON Lines, one output line per document, in order. Blank lines are skipped, and
 * an error names its line by its number in the input. A document that makes the engine fail
 * unexpectedly is reported on its own line too, so that the other lines are still answered.
 * `status` is then 1 (and when there was no input).
 *
 * Each line is answered as soon as it is read, with one exception: when the first line that
 * is not blank is not JSON by itself, the input may be one document written over several
 * lines, and its lines are held until either the text cannot be one document any more (they
 * are then answered as lines) or the input ends (it is then read whole, as JSON.parse reads
 * the whole input). The answers are those of reading the whole input at once.
 */
export class AdjudicateSession implements LineHandler {
  status = 0;
  private lineNo = 0;
  private docs = 0;
  /**
   * `start`: nothing but blank lines yet; `lines`: JSON Lines; `whole`: holding lines that may
   * be one document; `deep`: the first line nests too deep, and whether it is called "the
   * input" or "line N" waits for the next line that is not blank.
   */
  private mode: "start" | "lines" | "whole" | "deep" = "start";
  /** Held lines (`whole`) and the number of the first. */
  private held: string[] = [];
  private heldFrom = 0;
  private scan: JsonPrefix | null = null;

  constructor(private readonly rules: RuleOptions) {}

  line(text: string): string {
    const n = ++this.lineNo;
    switch (this.mode) {
      case "lines":
        return text.trim() === "" ? "" : this.answer(lineDoc(text, n));
      case "start": {
        if (text.trim() === "") return "";
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          // Maybe the first line of a document over several lines.
          this.mode = "whole";
          this.held.push(text);
          this.heldFrom = n;
          this.scan = new JsonPrefix();
          return this.scan.feed(text.trimStart()) ? "" : this.release();
        }
        // A line that is JSON by itself is one document whether the input is JSON Lines or
        // this line alone, and the answer is the same, except in what a depth error calls it.
        const doc = checked(value, text, `line ${n}`);
        if (!doc.ok) {
          this.mode = "deep";
          this.heldFrom = n;
          return "";
        }
        this.mode = "lines";
        return this.answer(doc);
      }
      case "deep": {
        if (text.trim() === "") return "";
        this.mode = "lines";
        const first = this.answer(tooDeep(`line ${this.heldFrom}`));
        return first + this.answer(lineDoc(text, n));
      }
      default: {
        this.held.push(text);
        return this.scan!.feed(`\n${text}`) ? "" : this.release();
      }
    }
  }

  end(): string {
    switch (this.mode) {
      case "start":
        this.status = 1;
        return `${JSON.stringify({ error: NO_INPUT })}\n`;
      case "deep":
        return this.answer(tooDeep("the input"));
      case "whole": {
        const text = this.held.join("\n");
        let value: unknown;
        try {
          value = JSON.parse(text.trim());
        } catch {
          return this.release();
        }
        this.held = [];
        return this.answer(checked(value, text, "the input"));
      }
      default:
        return "";
    }
  }

  /** The held lines answered as JSON Lines; from now on, every line as it comes. */
  private release(): string {
    this.mode = "lines";
    this.scan = null;
    let out = "";
    for (let i = 0; i < this.held.length; i++) {
      const text = this.held[i]!;
      if (text.trim() !== "") out += this.answer(lineDoc(text, this.heldFrom + i));
    }
    this.held = [];
    return out;
  }

  /** The output line of the next document. */
  private answer(doc: Doc): string {
    const i = this.docs++;
    let result: Record<string, unknown>;
    if (!doc.ok) result = { error: doc.error };
    else {
      try {
        result = adjudicateAnyJson(doc.value, this.rules) as Record<string, unknown>;
      } catch (e) {
        const what =
          e instanceof RangeError ? "the input is too large to adjudicate" : "internal error";
        result = {
          error: `${what} (document ${i + 1}): ${e instanceof Error ? e.message : String(e)}`,
        };
      }
    }
    if ("error" in result) this.status = 1;
    return `${JSON.stringify(result)}\n`;
  }
}

/**
 * `entente adjudicate`: reads `input` as it comes and writes each answer to `output` at once
 * (waiting when its reader is behind). The exit status: 1 when any line is an error, or when
 * there was no input.
 */
export async function adjudicateStream(
  input: Chunks,
  output: LineOutput,
  rules: RuleOptions,
): Promise<number> {
  const session = new AdjudicateSession(rules);
  await pumpLines(input, output, session);
  return session.status;
}
