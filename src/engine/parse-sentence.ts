/**
 * The order reader's second stage, over the tokens: seed 003's units in parentheses
 * (`A(Rum) S A(Vie in Gal)`, `unwrapUnits`), and the tolerant reader's sentences (`A Paris
 * moves to Burgundy`, `readSentence`): the words that only make a sentence of an order are set
 * aside and other verbs read as the order words they mean.
 */

import type { NameIndex } from "./parse-names.ts";
import { KEYWORDS, QUALIFIED_COASTS, type Token } from "./parse-tokens.ts";
import { failure, type ParseResult } from "./parse-types.ts";

/**
 * Seed 003 writes units with their province in parentheses: `A(Rum) S A(Vie in Gal)`,
 * `A(Par) S A(Mar)-Bur`. A "(" right after a unit word (A, F, army, fleet, not itself a
 * province of the map) opens such a unit, unless what follows is a coast; that "(" and its
 * matching ")" are dropped, so the order reads as `A Rum S A Vie in Gal`.
 */
export function unwrapUnits(
  text: string,
  tokens: readonly Token[],
  index: NameIndex,
): readonly Token[] | ParseResult {
  const drop = new Set<number>();
  for (let i = 0; i + 2 < tokens.length; i++) {
    const t = tokens[i]!;
    const kw = t.kind === "word" ? KEYWORDS.get(t.text) : undefined;
    if ((kw !== "army" && kw !== "fleet") || index.names.has(t.text)) continue;
    const inner = tokens[i + 2]!;
    if (tokens[i + 1]!.kind !== "open" || inner.kind !== "word") continue;
    if (QUALIFIED_COASTS.has(inner.text)) continue;
    let depth = 0;
    let close = -1;
    for (let k = i + 1; k < tokens.length && close === -1; k++) {
      const kind = tokens[k]!.kind;
      if (kind === "open") depth++;
      else if (kind === "close" && --depth === 0) close = k;
    }
    if (close === -1) {
      const unit = JSON.stringify(text.slice(t.start, inner.end));
      return failure(
        `missing ")" after ${unit}: write the unit as ${unit.slice(0, -1)})" or without parentheses`,
        t.start,
        inner.end,
      );
    }
    drop.add(i + 1);
    drop.add(close);
  }
  return drop.size === 0 ? tokens : tokens.filter((_, i) => !drop.has(i));
}

// ---------------------------------------------------------------------------------------------
// Orders written as sentences (seed 002 III(1)-(2), Alternative D: the tolerant reader)

/** Verbs of movement beyond the order words: read as "-". */
const MOVE_VERBS: ReadonlySet<string> = new Set([
  "go",
  "goes",
  "going",
  "moving",
  "attack",
  "attacks",
  "attacking",
  "advance",
  "advances",
  "march",
  "marches",
  "sail",
  "sails",
  "into",
  "towards",
]);
/** Words for "stays where it is". */
const HOLD_VERBS: ReadonlySet<string> = new Set(["holding", "stay", "stays", "remain", "remains"]);
/** Other inflections of the order words. */
const OTHER_VERBS: ReadonlyMap<string, string> = new Map([
  ["supporting", "support"],
  ["convoying", "convoy"],
  ["disbanding", "disband"],
  ["removing", "remove"],
  ["building", "build"],
]);
/** Words that carry nothing in an order sentence. */
const FILLER: ReadonlySet<string> = new Set(["the", "an", "my", "our", "will", "shall", "please"]);
/** Words that lead to a destination after a verb of movement (`moves to`, `goes into`). */
const TOWARDS: ReadonlySet<string> = new Set(["to", "into", "towards", "onto"]);

/**
 * The tolerant reader's sentences: `A Paris moves to Burgundy`, `The army in Paris attacks
 * Burgundy`, `Build an army in Berlin`, `no build`, `A Pic-Wal (via convoy)`, `F Kiel holds;`.
 * The words that only make a sentence of an order (articles, "in"/"at" before a unit's place,
 * "to" after a verb of movement, a trailing ";") are set aside and the other verbs read as the
 * order words they mean. A word that is (or starts) a name of the map is never set aside.
 */
export function readSentence(tokens: readonly Token[], index: NameIndex): readonly Token[] {
  const isName = (t: Token | undefined): boolean =>
    t !== undefined &&
    t.kind === "word" &&
    (index.names.has(t.text) || index.multiFirst.has(t.text));
  const word = (t: Token | undefined, ...texts: string[]): boolean =>
    t !== undefined && t.kind === "word" && texts.includes(t.text) && !isName(t);
  let list = [...tokens];
  // A trailing ";" (or several), as in a list of orders.
  while (
    list.length > 1 &&
    list[list.length - 1]!.kind === "junk" &&
    /^[;!]$/.test(list[list.length - 1]!.text)
  )
    list.pop();
  // `no build`, `no builds`, `waive build`: a waive.
  const words = list.map((t) => t.text).join(" ");
  if (/^(?:no|waive|waives|waived) (?:a )?builds?$/.test(words) || words === "build nothing") {
    return [
      { kind: "word", text: "waive", start: list[0]!.start, end: list[list.length - 1]!.end },
    ];
  }
  // `(via convoy)`: the parentheses are no part of the order.
  for (let i = 0; i + 3 < list.length; i++) {
    if (
      list[i]!.kind === "open" &&
      KEYWORDS.get(list[i + 1]!.text) === "via" &&
      list[i + 2]!.text === "convoy" &&
      list[i + 3]!.kind === "close"
    ) {
      list = [...list.slice(0, i), list[i + 1]!, list[i + 2]!, ...list.slice(i + 4)];
    }
  }
  const out: Token[] = [];
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!;
    const prev = out[out.length - 1];
    if (t.kind !== "word" || isName(t)) {
      out.push(t);
      continue;
    }
    if (FILLER.has(t.text)) continue;
    // "a" before "army" or "fleet" is an article, not an army.
    if (t.text === "a" && word(list[i + 1], "army", "fleet")) continue;
    // "in"/"at" between a unit word (or "build") and its place.
    if (
      (t.text === "in" || t.text === "at") &&
      prev !== undefined &&
      prev.kind === "word" &&
      ["army", "fleet", "build"].includes(KEYWORDS.get(prev.text) ?? "")
    )
      continue;
    const prevMoves =
      prev !== undefined &&
      (prev.kind === "move" || ["move", "retreat"].includes(KEYWORDS.get(prev.text) ?? ""));
    // `moves to`, `retreats into`: the verb says it already.
    if (TOWARDS.has(t.text) && prevMoves && prev !== undefined && prev.text !== "to") continue;
    // `to hold`: a support to hold.
    if (t.text === "to" && KEYWORDS.get(list[i + 1]?.text ?? "") === "hold") continue;
    if (MOVE_VERBS.has(t.text)) {
      if (!prevMoves) out.push({ ...t, kind: "move", text: "-" });
      continue;
    }
    if (HOLD_VERBS.has(t.text)) {
      out.push({ ...t, text: "hold" });
      continue;
    }
    const other = OTHER_VERBS.get(t.text);
    out.push(other ? { ...t, text: other } : t);
  }
  return out.length > 0 ? out : tokens;
}
