/**
 * The order-text reader: turns what a player wrote (`F nth - pic`, `par support mar move bur`,
 * `F North Sea convoys A London to Belgium`, `build F stp/nc`) into a `ParsedOrder`, or into a
 * diagnostic that says what could not be read, where, and what would be right.
 *
 * It checks syntax and names only: whether a unit stands there or may move there is the
 * engine's business. Pure: no I/O; the name index of a map is built once and cached. This file
 * is the entry (`parseOrder`, `findPlace`, `suggestPlaces`), the runs of the reader with
 * corrections, and the cache of texts read; the stages are `parse-tokens.ts` (tokens and order
 * words), `parse-sentence.ts` (sentences), `parse-names.ts` (the names of a map and its powers),
 * `parse-spelling.ts` (suggestions and corrections), `parse-reader.ts` and `parse-grammar.ts`
 * (the grammar), and `parse-types.ts` (what it answers).
 */

import type { GameMap } from "./map.ts";
import type { ParsedOrder } from "./orders.ts";
import { OrderReader } from "./parse-grammar.ts";
import { keptFor, nameIndex, nameKey, type PerMapAndPowers, powerIndex } from "./parse-names.ts";
import { readPlain } from "./parse-plain.ts";
import { PlaceReader } from "./parse-reader.ts";
import { readSentence, unwrapUnits } from "./parse-sentence.ts";
import { Choices, scorePlaces } from "./parse-spelling.ts";
import { type Token, tokenize } from "./parse-tokens.ts";
import { failure, type ParseOptions, type ParseResult, type PlaceMatch } from "./parse-types.ts";
import type { Power } from "./types.ts";

/** Longer texts are refused outright: no order needs a thousand characters. */
const MAX_LENGTH = 1000;

/**
 * The reader itself, without the cache of texts read and without the plain forms' direct
 * reading (`parseOrder` answers the same: src/engine/parse-plain.test.ts).
 */
export function parseChecked(
  text: string,
  map: GameMap,
  powers: readonly Power[],
  options: ParseOptions = {},
): ParseResult {
  if (text.length > MAX_LENGTH) {
    return failure(
      `order too long (${text.length} characters; at most ${MAX_LENGTH})`,
      0,
      text.length,
    );
  }
  const tokens = unwrapUnits(text, tokenize(text), nameIndex(map));
  if (!Array.isArray(tokens)) return tokens as ParseResult;
  if (tokens.length === 0) {
    return failure(
      'empty order: write one such as "A lon - nth", "build F stp/nc" or "waive"',
      0,
      text.length,
    );
  }
  if (options.typos === "correct") {
    const sentence = readSentence(tokens, nameIndex(map));
    return parseCorrecting(text, sentence, map, powers, options);
  }
  return readTokens(text, tokens, map, powers, null, options.convoyRoutes === true);
}

/** One run of the reader over the tokens; with `fz`, taking the corrections it names. */
function readTokens(
  text: string,
  tokens: readonly Token[],
  map: GameMap,
  powers: readonly Power[],
  fz: Choices | null,
  routes: boolean,
): ParseResult {
  const reader = new OrderReader(text, tokens, nameIndex(map), powerIndex(powers), fz, routes);
  const r = reader.order();
  if (!r.ok) return r;
  const extra = tokens[r.next];
  if (extra) {
    const last = tokens[tokens.length - 1]!;
    const quoted = reader.quote(r.next, tokens.length - 1);
    const junk = tokens.slice(r.next).find((t) => t.kind === "junk");
    const why = junk ? ` (${JSON.stringify(junk.text)} is not part of any order)` : "";
    return failure(
      `did not understand ${quoted} after the order ${reader.sofar(r.next - 1)}${why}`,
      extra.start,
      last.end,
    );
  }
  const notes = [...(fz?.notes ?? []), ...reader.routeNotes];
  return notes.length > 0 ? { ok: true, order: r.value, notes } : { ok: true, order: r.value };
}

/** Most runs of the reader one order may take when corrections have several candidates. */
const MAX_READINGS_TRIED = 32;

/**
 * Reading with corrections: the reader runs once per combination of candidate corrections
 * (bounded), and every combination that reads as an order is a reading. The first failure is
 * the answer when none reads.
 */
function parseCorrecting(
  text: string,
  tokens: readonly Token[],
  map: GameMap,
  powers: readonly Power[],
  options: ParseOptions,
): ParseResult {
  const readings: ParsedOrder[] = [];
  const readingNotes: (readonly string[])[] = [];
  const seen = new Set<string>();
  let failed: ParseResult | null = null;
  let choices: number[] = [];
  for (let run = 0; run < MAX_READINGS_TRIED; run++) {
    const fz = new Choices(choices);
    const r = readTokens(text, tokens, map, powers, fz, options.convoyRoutes === true);
    if (r.ok) {
      const key = JSON.stringify(r.order);
      if (!seen.has(key)) {
        seen.add(key);
        readings.push(r.order);
        readingNotes.push(r.notes ?? []);
      }
    } else failed ??= r;
    // The next combination: count up from the last choice point this run reached.
    const next = fz.counts.map((_, k) => choices[k] ?? 0);
    let k = next.length - 1;
    while (k >= 0 && next[k]! + 1 >= fz.counts[k]!) k--;
    if (k < 0) break;
    next[k]!++;
    choices = next.slice(0, k + 1);
  }
  if (readings.length === 0) return failed!;
  const notes = readingNotes[0]!;
  return {
    ok: true,
    order: readings[0]!,
    ...(readings.length > 1 ? { readings, readingNotes } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/**
 * Texts read before, with what they read as: the reading depends only on the text, the map,
 * the powers and the options, and is never changed once made (every field is readonly), so a
 * text seen again is answered from here. A research corpus writes the same few thousand
 * orders over and over (20,000 mid-game positions: 584,561 orders, 12,070 texts), and reading
 * one was a sixth of the contract's time (docs/performance.md, "The contract"). Bounded: two
 * generations of at most READ_CACHE texts (of at most MAX_CACHED characters) each; when the newer is full it becomes the older
 * and the older is dropped, so texts in use stay and a stream of new ones costs no memory.
 */
interface ReadCache {
  newer: Map<string, ParseResult>;
  older: Map<string, ParseResult>;
}

const READ_CACHE = 1 << 14;
/** Longest text kept in the cache. */
const MAX_CACHED = 100;

/** Per map and powers, per options (typo correction, route naming): the texts read. */
const readCaches: PerMapAndPowers<ReadCache[]> = new WeakMap();

/** The cache asked for last (one game at a time asks for one again and again). */
let last: { map: GameMap; powers: readonly Power[]; k: number; cache: ReadCache } | null = null;

function readCache(map: GameMap, powers: readonly Power[], options: ParseOptions): ReadCache {
  const k = (options.typos === "correct" ? 1 : 0) + (options.convoyRoutes === true ? 2 : 0);
  if (last !== null && last.map === map && last.powers === powers && last.k === k)
    return last.cache;
  const caches = keptFor(readCaches, map, powers, (): ReadCache[] => []);
  let cache = caches[k];
  if (!cache) {
    cache = { newer: new Map(), older: new Map() };
    caches[k] = cache;
  }
  last = { map, powers, k, cache };
  return cache;
}

/** Reads one order. Never throws: whatever the text, the answer is an order or a diagnostic. */
export function parseOrder(
  text: string,
  map: GameMap,
  powers: readonly Power[],
  options: ParseOptions = {},
): ParseResult {
  // A text in the plain form (`A par - bur`) is read directly, with the reader's options as
  // the DATC has them (no typo correction, no convoy routes in moves): parse-plain.ts.
  if (typeof text === "string" && options.typos !== "correct" && options.convoyRoutes !== true) {
    const plain = readPlain(text, map, powers, (t) => parseChecked(t, map, powers, options));
    if (plain !== null) return plain;
  }
  // Long texts are read each time: they are rare, and would fill the cache with little.
  const cache =
    typeof text === "string" && text.length <= MAX_CACHED ? readCache(map, powers, options) : null;
  if (cache) {
    const seen = cache.newer.get(text);
    if (seen !== undefined) return seen;
    const old = cache.older.get(text);
    if (old !== undefined) {
      remember(cache, text, old);
      return old;
    }
  }
  try {
    const read = parseChecked(text, map, powers, options);
    if (cache) remember(cache, text, read);
    return read;
  } catch (e) {
    const length = typeof text === "string" ? text.length : 0;
    return failure(
      `could not read the order (${e instanceof Error ? e.message : String(e)})`,
      0,
      length,
    );
  }
}

function remember(cache: ReadCache, text: string, read: ParseResult): void {
  if (cache.newer.size >= READ_CACHE) {
    cache.older = cache.newer;
    cache.newer = new Map();
  }
  cache.newer.set(text, read);
}

/** Resolves one place name as players write it: id, full name, alias, any case, with coast forms. null if unknown. */
export function findPlace(name: string, map: GameMap): PlaceMatch | null {
  try {
    if (name.length > MAX_LENGTH) return null;
    const tokens = tokenize(name);
    if (tokens.length === 0) return null;
    const reader = new PlaceReader(name, tokens, nameIndex(map), {
      names: new Map(),
      maxTokens: 1,
    });
    const p = reader.place(0, "a province", 0);
    if (!p.ok || p.next !== tokens.length) return null;
    return { province: p.value.province, coast: p.value.coast };
  } catch {
    return null;
  }
}

/** Up to 3 province names closest to an unknown word (edit distance), for "did you mean". */
export function suggestPlaces(word: string, map: GameMap): readonly string[] {
  try {
    if (word.length > MAX_LENGTH) return [];
    return scorePlaces(nameKey(word), nameIndex(map)).map((s) => s.name);
  } catch {
    return [];
  }
}
