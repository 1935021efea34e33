/**
 * The order-text reader: turns what a player wrote (`F nth - pic`, `par support mar move bur`,
 * `F North Sea convoys A London to Belgium`, `build F stp/nc`) into a `ParsedOrder`, or into a
 * diagnostic that says what could not be read, where, and what would be right.
 *
 * It checks syntax and names only: whether a unit stands there or may move there is the
 * engine's business. Pure: no I/O; the name index of a map is built once and cached.
 */

import type { GameMap } from "./map.ts";
import type { LocationSpec, ParsedOrder, UnitSpec } from "./orders.ts";
import type { Coast, Power, PowerId, Province, ProvinceId, UnitType } from "./types.ts";

export interface Diagnostic {
  readonly message: string;
  /** Character offsets into the text of the part that could not be read. */
  readonly start: number;
  readonly end: number;
  readonly suggestions: readonly string[];
}

export type ParseResult =
  | {
      readonly ok: true;
      readonly order: ParsedOrder;
      /**
       * With typo correction only: every reading the text allows when a misspelt name is as
       * close to several (`order` is the first). Absent when there is one reading.
       */
      readonly readings?: readonly ParsedOrder[];
      /** With typo correction or route naming: what was read other than as written. */
      readonly notes?: readonly string[];
      /** With `readings`: the notes of each reading. */
      readonly readingNotes?: readonly (readonly string[])[];
    }
  | { readonly ok: false; readonly error: Diagnostic };

/** How tolerant the reader is (all off by default: the reader as the DATC profile uses it). */
export interface ParseOptions {
  /**
   * Seed 002 III(2). `suggest` (default): an unknown word is an error with suggestions;
   * `correct`: an unambiguous abbreviation or close misspelling is read as meant, several
   * equally close names give several readings. A word that is a name is never corrected.
   */
  readonly typos?: "suggest" | "correct";
  /**
   * Seed 002 VI(3): accept a convoy route written into a move (`A lon - nth - nwy`,
   * `A lon - nwy via nth`) and read it as a move by convoy; the route itself is ignored.
   */
  readonly convoyRoutes?: boolean;
}

export interface PlaceMatch {
  readonly province: ProvinceId;
  readonly coast: Coast | null;
}

/** Longer texts are refused outright: no order needs a thousand characters. */
const MAX_LENGTH = 1000;
/** Longest word quoted back in a message. */
const MAX_QUOTE = 40;

// ---------------------------------------------------------------------------------------------
// Tokens

type TokenKind = "word" | "move" | "slash" | "open" | "close" | "junk";

interface Token {
  readonly kind: TokenKind;
  /** Words: lower case, periods removed. Arrows and dashes: "-". Others: the character. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 44 /* , */ ||
    c === 0xa0 ||
    (c >= 0x2000 && c <= 0x200b) ||
    c === 0x202f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function isDash(c: number): boolean {
  return (
    c === 45 ||
    c === 0x2010 ||
    c === 0x2011 ||
    c === 0x2012 ||
    c === 0x2013 ||
    c === 0x2014 ||
    c === 0x2212
  );
}

function isWordChar(c: number): boolean {
  if (c >= 97 && c <= 122) return true; // a-z
  if (c >= 65 && c <= 90) return true; // A-Z
  if (c >= 48 && c <= 57) return true; // 0-9
  if (c === 46 /* . */ || c === 39 /* ' */ || c === 0x2019 /* ’ */) return true;
  // Letters of other alphabets (München, Śląsk); not punctuation, symbols or surrogates.
  return (
    c >= 0xc0 &&
    c !== 0xd7 &&
    c !== 0xf7 &&
    (c < 0x2000 || c > 0x2bff) &&
    (c < 0xd800 || c > 0xdfff) &&
    c < 0xfff0
  );
}

function normalizeWord(raw: string): string {
  let s = raw.toLowerCase();
  if (s.indexOf(".") >= 0) s = s.split(".").join("");
  if (s.indexOf("\u2019") >= 0) s = s.split("\u2019").join("'");
  return s;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    if (isWordChar(c)) {
      while (i < n && isWordChar(text.charCodeAt(i))) i++;
      const word = normalizeWord(text.slice(start, i));
      // A word of nothing but periods (a trailing " .") says nothing.
      if (word.length > 0) out.push({ kind: "word", text: word, start, end: i });
      continue;
    }
    if (isDash(c)) {
      while (i < n && isDash(text.charCodeAt(i))) i++;
      if (i < n && text.charCodeAt(i) === 62 /* > */) i++;
      out.push({ kind: "move", text: "-", start, end: i });
      continue;
    }
    if (c === 61 /* = */ && i + 1 < n && text.charCodeAt(i + 1) === 62 /* > */) {
      i += 2;
      out.push({ kind: "move", text: "-", start, end: i });
      continue;
    }
    i++;
    if (c === 0x2192 /* → */) out.push({ kind: "move", text: "-", start, end: i });
    else if (c === 47 /* / */) out.push({ kind: "slash", text: "/", start, end: i });
    else if (c === 40 /* ( */ || c === 91 /* [ */)
      out.push({ kind: "open", text: "(", start, end: i });
    else if (c === 41 /* ) */ || c === 93 /* ] */)
      out.push({ kind: "close", text: ")", start, end: i });
    else {
      // A surrogate pair is one character to the reader.
      if (c >= 0xd800 && c <= 0xdbff && i < n) {
        const d = text.charCodeAt(i);
        if (d >= 0xdc00 && d <= 0xdfff) i++;
      }
      out.push({ kind: "junk", text: text.slice(start, i), start, end: i });
    }
  }
  return out;
}

/**
 * Seed 003 writes units with their province in parentheses: `A(Rum) S A(Vie in Gal)`,
 * `A(Par) S A(Mar)-Bur`. A "(" right after a unit word (A, F, army, fleet, not itself a
 * province of the map) opens such a unit, unless what follows is a coast; that "(" and its
 * matching ")" are dropped, so the order reads as `A Rum S A Vie in Gal`.
 */
function unwrapUnits(
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
function readSentence(tokens: readonly Token[], index: NameIndex): readonly Token[] {
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

/** The lookup key of a name: its tokens, normalised, joined by single spaces. */
function nameKey(name: string): string {
  return tokenize(name)
    .map((t) => t.text)
    .join(" ");
}

// ---------------------------------------------------------------------------------------------
// Words

type Keyword =
  | "move"
  | "retreat"
  | "support"
  | "convoy"
  | "hold"
  | "build"
  | "remove"
  | "disband"
  | "waive"
  | "via"
  | "army"
  | "fleet";

const KEYWORDS: ReadonlyMap<string, Keyword> = new Map<string, Keyword>([
  ["to", "move"],
  ["m", "move"],
  ["move", "move"],
  ["moves", "move"],
  ["retreat", "retreat"],
  ["retreats", "retreat"],
  ["s", "support"],
  ["support", "support"],
  ["supports", "support"],
  ["c", "convoy"],
  ["convoy", "convoy"],
  ["convoys", "convoy"],
  ["h", "hold"],
  ["hold", "hold"],
  ["holds", "hold"],
  ["stand", "hold"],
  ["stands", "hold"],
  ["b", "build"],
  ["build", "build"],
  ["builds", "build"],
  ["r", "remove"],
  ["remove", "remove"],
  ["removes", "remove"],
  ["d", "disband"],
  ["disband", "disband"],
  ["disbands", "disband"],
  ["waive", "waive"],
  ["waives", "waive"],
  ["via", "via"],
  ["by", "via"],
  ["a", "army"],
  ["army", "army"],
  ["f", "fleet"],
  ["fleet", "fleet"],
]);

/** The words offered when a word is not understood. */
const KEYWORD_SPELLINGS: readonly string[] = [
  "move",
  "support",
  "convoy",
  "hold",
  "build",
  "remove",
  "disband",
  "waive",
  "via",
  "army",
  "fleet",
];

/** Coast words after "/" or inside parentheses. */
const QUALIFIED_COASTS: ReadonlyMap<string, Coast> = new Map<string, Coast>([
  ["nc", "nc"],
  ["sc", "sc"],
  ["ec", "ec"],
  ["wc", "wc"],
  ["n", "nc"],
  ["s", "sc"],
  ["e", "ec"],
  ["w", "wc"],
  ["north", "nc"],
  ["south", "sc"],
  ["east", "ec"],
  ["west", "wc"],
]);

/** Coast words standing alone after a place (`stp sc`, `spa north coast`, `spa n.c.`). */
const BARE_COASTS: ReadonlyMap<string, Coast> = new Map<string, Coast>([
  ["nc", "nc"],
  ["sc", "sc"],
  ["ec", "ec"],
  ["wc", "wc"],
]);
/** Words that make a coast when "coast" follows them. */
const COAST_DIRECTIONS: ReadonlyMap<string, Coast> = new Map<string, Coast>([
  ["north", "nc"],
  ["south", "sc"],
  ["east", "ec"],
  ["west", "wc"],
]);

const COAST_NAMES: Readonly<Record<Coast, string>> = {
  nc: "north coast",
  sc: "south coast",
  ec: "east coast",
  wc: "west coast",
};

// ---------------------------------------------------------------------------------------------
// The name index of a map

interface NameIndex {
  /** Name key (see `nameKey`) to province. */
  readonly names: ReadonlyMap<string, ProvinceId>;
  /** First words of the names of more than one token. */
  readonly multiFirst: ReadonlySet<string>;
  readonly maxTokens: number;
  readonly provinces: ReadonlyMap<string, Province>;
  /** Every spelling with its province, for suggestions. */
  readonly spellings: readonly (readonly [string, Province])[];
}

const indexCache = new WeakMap<GameMap, NameIndex>();

function nameIndex(map: GameMap): NameIndex {
  const cached = indexCache.get(map);
  if (cached) return cached;
  const names = new Map<string, ProvinceId>();
  const multiFirst = new Set<string>();
  const provinces = new Map<string, Province>();
  const spellings: [string, Province][] = [];
  let maxTokens = 1;
  const add = (spelling: string, p: Province): void => {
    const tokens = tokenize(spelling);
    if (tokens.length === 0) return;
    const key = tokens.map((t) => t.text).join(" ");
    if (names.has(key)) return;
    names.set(key, p.id);
    spellings.push([key, p]);
    if (tokens.length > 1) {
      multiFirst.add(tokens[0]!.text);
      if (tokens.length > maxTokens) maxTokens = tokens.length;
    }
  };
  for (const p of map.provinces) provinces.set(p.id, p);
  // Ids win over names, names over aliases.
  for (const p of map.provinces) add(p.id, p);
  for (const p of map.provinces) add(p.name, p);
  for (const p of map.provinces) for (const a of p.aliases) add(a, p);
  // Derived spellings: "Saint" for "St", and names of several words run together.
  for (const p of map.provinces) {
    for (const s of [p.name, ...p.aliases]) {
      const words = nameKey(s).split(" ");
      if (words.length < 2) continue;
      const swapped = words.map((w) => (w === "st" ? "saint" : w === "saint" ? "st" : w));
      add(swapped.join(" "), p);
      if (words.every((w) => w !== "-" && w !== "/" && w !== "(" && w !== ")"))
        add(words.join(""), p);
    }
  }

  const index: NameIndex = { names, multiFirst, maxTokens, provinces, spellings };
  indexCache.set(map, index);
  return index;
}

interface PowerIndex {
  readonly names: ReadonlyMap<string, PowerId>;
  readonly maxTokens: number;
}

const powerCache = new WeakMap<readonly Power[], PowerIndex>();

function powerIndex(powers: readonly Power[]): PowerIndex {
  const cached = powerCache.get(powers);
  if (cached) return cached;
  const names = new Map<string, PowerId>();
  let maxTokens = 1;
  for (const p of powers) {
    for (const word of [p.adjective, p.name, p.id, ...(p.aliases ?? [])]) {
      for (const spelling of [word, `${word}'s`]) {
        const tokens = tokenize(spelling);
        if (tokens.length === 0) continue;
        const key = tokens.map((t) => t.text).join(" ");
        if (!names.has(key)) names.set(key, p.id);
        if (tokens.length > maxTokens) maxTokens = tokens.length;
      }
    }
  }
  const index: PowerIndex = { names, maxTokens };
  powerCache.set(powers, index);
  return index;
}

// ---------------------------------------------------------------------------------------------
// Suggestions

/** Edit distance with adjacent transpositions (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  if (m === 0) return n;
  if (n === 0) return m;
  let prev2: number[] = new Array<number>(n + 1).fill(0);
  let prev: number[] = new Array<number>(n + 1);
  let cur: number[] = new Array<number>(n + 1).fill(0);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        v = Math.min(v, prev2[j - 2]! + 1);
      }
      cur[j] = v;
    }
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[n]!;
}

/** How far a guess may be from what was written and still be offered. */
function tolerance(length: number): number {
  if (length <= 3) return 1;
  if (length <= 5) return 2;
  return 3;
}

function closeness(query: string, spelling: string): number {
  if (query.length >= 3 && spelling.startsWith(query)) return 1;
  return editDistance(query, spelling);
}

interface Scored {
  readonly name: string;
  readonly score: number;
}

function scorePlaces(query: string, index: NameIndex): Scored[] {
  if (query.length === 0 || query.length > 60) return [];
  const limit = tolerance(query.split(" ").join("").length);
  const best = new Map<Province, number>();
  for (const [spelling, p] of index.spellings) {
    if (Math.abs(spelling.length - query.length) > limit && !spelling.startsWith(query)) continue;
    const d = closeness(query, spelling);
    if (d > limit) continue;
    const old = best.get(p);
    if (old === undefined || d < old) best.set(p, d);
  }
  return [...best]
    .map(([p, score]) => ({ name: p.name, score }))
    .sort((x, y) => x.score - y.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    .slice(0, 3);
}

function suggestKeywords(word: string): string[] {
  if (word.length < 2 || word.length > 40) return [];
  const limit = tolerance(word.length);
  return KEYWORD_SPELLINGS.map((k) => ({ k, d: editDistance(word, k) }))
    .filter((x) => x.d <= limit && x.d < word.length)
    .sort((x, y) => x.d - y.d)
    .slice(0, 3)
    .map((x) => x.k);
}

// ---------------------------------------------------------------------------------------------
// Corrections (seed 002 III(2)): abbreviations and misspellings read as meant

/** How far a misspelling may be from a name and still be read as it (stricter than hints). */
function correctionLimit(letters: number): number {
  if (letters <= 4) return 1;
  if (letters <= 7) return 2;
  return 3;
}

/** `eng chan` for `english channel`: as many words, each the start of the name's word. */
function wordPrefix(query: string, spelling: string): boolean {
  const q = query.split(" ");
  const w = spelling.split(" ");
  return q.length >= 2 && q.length === w.length && q.every((x, k) => w[k]!.startsWith(x));
}

/**
 * The provinces a word nobody spells that way may mean: those closest to it, where an
 * abbreviation (the start of a name, three letters or more) is closer than any misspelling.
 */
function correctPlaces(query: string, index: NameIndex): { provinces: Province[]; score: number } {
  const letters = query.split(" ").join("").length;
  if (letters < 3 || query.length > 60) return { provinces: [], score: 0 };
  const limit = correctionLimit(letters);
  const best = new Map<Province, number>();
  for (const [spelling, p] of index.spellings) {
    let d: number;
    if (spelling.startsWith(query) || wordPrefix(query, spelling)) d = 0.5;
    else {
      if (Math.abs(spelling.length - query.length) > limit) continue;
      d = editDistance(query, spelling);
      if (d > limit) continue;
    }
    const old = best.get(p);
    if (old === undefined || d < old) best.set(p, d);
  }
  if (best.size === 0) return { provinces: [], score: 0 };
  const min = Math.min(...best.values());
  const provinces = [...best]
    .filter(([, d]) => d === min)
    .map(([p]) => p)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { provinces, score: min };
}

/** Order words a player may have meant by a word that is none: closest first, ties kept. */
const CORRECTABLE_WORDS: readonly (readonly [string, Keyword])[] = [
  ["move", "move"],
  ["moves", "move"],
  ["support", "support"],
  ["supports", "support"],
  ["convoy", "convoy"],
  ["convoys", "convoy"],
  ["hold", "hold"],
  ["holds", "hold"],
  ["build", "build"],
  ["remove", "remove"],
  ["disband", "disband"],
  ["waive", "waive"],
  ["retreat", "retreat"],
  ["retreats", "retreat"],
];

function correctKeyword(word: string): { keywords: Keyword[]; score: number } {
  if (word.length < 3 || word.length > 40) return { keywords: [], score: 0 };
  const limit = correctionLimit(word.length);
  const best = new Map<Keyword, number>();
  for (const [spelling, k] of CORRECTABLE_WORDS) {
    const d = spelling.startsWith(word) ? 0.5 : editDistance(word, spelling);
    if (d > limit || d >= word.length) continue;
    const old = best.get(k);
    if (old === undefined || d < old) best.set(k, d);
  }
  if (best.size === 0) return { keywords: [], score: 0 };
  const min = Math.min(...best.values());
  return { keywords: [...best].filter(([, d]) => d === min).map(([k]) => k), score: min };
}

/**
 * The reader's choices where a correction has several candidates: each run of the reader
 * takes the candidates `choices` names (the first by default) and records how many there
 * were, so that the driver can try every combination.
 */
class Choices {
  readonly counts: number[] = [];
  readonly notes: string[] = [];
  private pos = 0;
  constructor(private readonly choices: readonly number[]) {}

  take<T>(candidates: readonly T[]): T {
    const k = this.pos++;
    this.counts[k] = candidates.length;
    return candidates[Math.min(this.choices[k] ?? 0, candidates.length - 1)]!;
  }
}

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

// ---------------------------------------------------------------------------------------------
// The reader

type Step<T> =
  | { readonly ok: true; readonly value: T; readonly next: number }
  | { readonly ok: false; readonly error: Diagnostic };

type Failure = { readonly ok: false; readonly error: Diagnostic };

const done = <T>(value: T, next: number): Step<T> => ({ ok: true, value, next });

class Reader {
  constructor(
    private readonly text: string,
    private readonly tokens: readonly Token[],
    private readonly index: NameIndex,
    private readonly powers: PowerIndex,
    /** Typo correction (seed 002 III(2)): the choices of this run; null when off. */
    private readonly fz: Choices | null = null,
    /** Convoy routes written into moves are read and ignored (seed 002 VI(3)). */
    private readonly routes = false,
  ) {}

  /** Records what was read other than as written. */
  note(i: number, len: number, meant: string): void {
    this.fz?.notes.push(`read ${this.quote(i, i + len - 1)} as ${meant}`);
  }

  /**
   * With correction on, a run of plain words starting at token i that abbreviates a name of
   * several words (`Eng Chan`, `Mid Atl`), or misspells a name: the candidates and how many
   * tokens they take. null when there is none.
   */
  correctedName(i: number): { provinces: Province[]; len: number; score: number } | null {
    if (!this.fz) return null;
    let run = 0;
    while (run < Math.max(this.index.maxTokens, 3)) {
      const u = this.tokens[i + run];
      if (u?.kind !== "word" || (run > 0 && this.keyword(i + run) !== undefined)) break;
      if (run > 0 && (BARE_COASTS.has(u.text) || COAST_DIRECTIONS.has(u.text))) break;
      run++;
    }
    let found: { provinces: Province[]; len: number; score: number } | null = null;
    for (let k = 1; k <= run; k++) {
      const key = this.tokens
        .slice(i, i + k)
        .map((u) => u.text)
        .join(" ");
      // The longest run that is close to a name (`English Chanel`, not `English`).
      const c = correctPlaces(key, this.index);
      if (c.provinces.length > 0) found = { provinces: c.provinces, len: k, score: c.score };
    }
    return found;
  }

  fail(message: string, start: number, end: number, suggestions: readonly string[] = []): Failure {
    return { ok: false, error: { message, start, end, suggestions } };
  }

  /** The written text between two tokens, quoted and cut short if long. */
  quote(from: number, to: number = from): string {
    const a = this.tokens[from];
    const b = this.tokens[to];
    if (!a || !b) return '""';
    const s = this.text.slice(a.start, b.end);
    return JSON.stringify(s.length > MAX_QUOTE ? `${s.slice(0, MAX_QUOTE)}…` : s);
  }

  /** The text read so far, up to and including token `last`. */
  sofar(last: number): string {
    const t = this.tokens[last];
    if (!t) return '""';
    const s = this.text.slice(this.tokens[0]!.start, t.end);
    return JSON.stringify(s.length > 2 * MAX_QUOTE ? `…${s.slice(s.length - 2 * MAX_QUOTE)}` : s);
  }

  keyword(i: number): Keyword | undefined {
    const t = this.tokens[i];
    if (!t) return undefined;
    if (t.kind === "move") return "move";
    return t.kind === "word" ? KEYWORDS.get(t.text) : undefined;
  }

  /** The end of the text as a zero-width span, for things missing at the end. */
  get endOffset(): number {
    return this.text.length;
  }

  // --- places ---

  /** A province name (longest spelling first) starting at token i. */
  matchName(i: number): { province: Province; next: number } | null {
    const t = this.tokens[i];
    if (t?.kind !== "word") return null;
    const idx = this.index;
    if (idx.multiFirst.has(t.text)) {
      let key = t.text;
      let found: ProvinceId | undefined;
      let next = i + 1;
      for (let k = 1; k < idx.maxTokens; k++) {
        const u = this.tokens[i + k];
        if (!u) break;
        key += ` ${u.text}`;
        const id = idx.names.get(key);
        if (id !== undefined) {
          found = id;
          next = i + k + 1;
        }
      }
      if (found !== undefined) {
        const p = idx.provinces.get(found);
        if (p) return { province: p, next };
      }
    }
    const id = idx.names.get(t.text);
    if (id === undefined) return null;
    const p = idx.provinces.get(id);
    return p ? { province: p, next: i + 1 } : null;
  }

  /** A coast written after a place, if any: `/nc`, `(nc)`, `(north coast)`, `nc`, `north coast`. */
  coastAt(i: number): Step<Coast | null> {
    const t = this.tokens[i];
    if (!t) return done(null, i);
    if (t.kind === "slash") {
      const w = this.tokens[i + 1];
      const coast = w && w.kind === "word" ? QUALIFIED_COASTS.get(w.text) : undefined;
      if (!coast) {
        const found = w ? ` found ${this.quote(i + 1)}` : "";
        return this.fail(
          `expected a coast after "/" (nc, sc, ec or wc),${found || " found nothing"}`,
          t.start,
          w ? w.end : t.end,
        );
      }
      const next =
        this.tokens[i + 2]?.kind === "word" && this.tokens[i + 2]?.text === "coast" ? i + 3 : i + 2;
      return done(coast, next);
    }
    if (t.kind === "open") {
      const w = this.tokens[i + 1];
      const coast = w && w.kind === "word" ? QUALIFIED_COASTS.get(w.text) : undefined;
      // "(" not followed by a coast is not ours to read.
      if (!coast) return done(null, i);
      let next = i + 2;
      if (this.tokens[next]?.kind === "word" && this.tokens[next]?.text === "coast") next++;
      const close = this.tokens[next];
      if (close?.kind === "close") next++;
      else {
        return this.fail(
          `missing ")" after the coast ${this.quote(i, next - 1)}`,
          t.start,
          this.tokens[next - 1]!.end,
        );
      }
      return done(coast, next);
    }
    if (t.kind === "word") {
      const bare = BARE_COASTS.get(t.text);
      if (bare) return done(bare, i + 1);
      const dir = COAST_DIRECTIONS.get(t.text);
      const u = this.tokens[i + 1];
      if (dir && u?.kind === "word" && u.text === "coast") return done(dir, i + 2);
    }
    return done(null, i);
  }

  /** A place: a province name and perhaps a coast. `what` names it for messages. */
  place(i: number, what: string, after: number): Step<LocationSpec> {
    const t = this.tokens[i];
    if (!t) {
      const prev = this.tokens[after];
      return this.fail(
        `missing ${what} after ${this.sofar(after)}`,
        prev ? prev.start : this.endOffset,
        prev ? prev.end : this.endOffset,
      );
    }
    let m = this.matchName(i);
    if (this.fz) {
      // A name written exactly is that name (seed 002 III(2)), unless the words after it are
      // no part of any order and the whole run abbreviates a longer name (`Eng Chan`).
      const after = m ? this.tokens[m.next] : undefined;
      const loose =
        (m === null && this.keyword(i) === undefined) ||
        (m !== null &&
          after?.kind === "word" &&
          this.keyword(m.next) === undefined &&
          this.matchName(m.next) === null &&
          !BARE_COASTS.has(after.text) &&
          !COAST_DIRECTIONS.has(after.text));
      const fix = loose ? this.correctedName(i) : null;
      if (fix && (m === null || i + fix.len > m.next)) {
        const p = this.fz.take(fix.provinces);
        this.note(i, fix.len, p.name);
        m = { province: p, next: i + fix.len };
      }
    }
    if (!m) return this.unknownPlace(i, what);
    const c = this.coastAt(m.next);
    if (!c.ok) return c;
    let coast = c.value;
    if (coast !== null && !m.province.coasts.includes(coast) && this.fz) {
      // With corrections, a coast the province does not have is read as no coast at all.
      this.fz.notes.push(`${m.province.name} has no ${COAST_NAMES[coast]}: read without a coast`);
      coast = null;
    }
    if (coast !== null && !m.province.coasts.includes(coast)) {
      const from = this.tokens[m.next]!;
      const to = this.tokens[c.next - 1]!;
      const p = m.province;
      if (p.coasts.length === 0) {
        return this.fail(
          `${p.name} has no separate coasts: write ${JSON.stringify(p.id)} without a coast`,
          from.start,
          to.end,
          [p.id],
        );
      }
      const options = p.coasts.map((k) => `${p.id}/${k}`);
      const has = p.coasts.map((k) => `a ${COAST_NAMES[k]} (${p.id}/${k})`);
      const list =
        has.length === 1
          ? `only ${has[0]}`
          : `${has.slice(0, -1).join(", ")} and ${has[has.length - 1]}`;
      return this.fail(
        `${p.name} has no ${COAST_NAMES[coast]}: it has ${list}`,
        from.start,
        to.end,
        options,
      );
    }
    return done({ province: m.province.id, coast }, c.next);
  }

  unknownPlace(i: number, what: string): Failure {
    const t = this.tokens[i]!;
    if (t.kind !== "word" || this.keyword(i) !== undefined) {
      return this.fail(`expected ${what}, found ${this.quote(i)}`, t.start, t.end);
    }
    // The unknown name may be several words: take the run of plain words, and quote as many
    // of them as give the closest suggestion.
    let run = 1;
    while (run < Math.max(this.index.maxTokens, 3)) {
      const u = this.tokens[i + run];
      if (u?.kind !== "word" || this.keyword(i + run) !== undefined) break;
      run++;
    }
    let bestLen = 1;
    let best = scorePlaces(t.text, this.index);
    for (let k = 2; k <= run; k++) {
      const key = this.tokens
        .slice(i, i + k)
        .map((u) => u.text)
        .join(" ");
      const s = scorePlaces(key, this.index);
      if (s.length > 0 && (best.length === 0 || s[0]!.score <= best[0]!.score)) {
        best = s;
        bestLen = k;
      }
    }
    const last = this.tokens[i + bestLen - 1]!;
    const names = best.map((s) => s.name);
    const hint = names.length > 0 ? `: did you mean ${orList(names)}?` : "";
    return this.fail(
      `unknown province ${this.quote(i, i + bestLen - 1)}${hint}`,
      t.start,
      last.end,
      names,
    );
  }

  // --- units ---

  /** A nationality word at token i (`German`, `Germany`), longest first. */
  matchPower(i: number): { power: PowerId; next: number } | null {
    let key = "";
    let found: { power: PowerId; next: number } | null = null;
    for (let k = 0; k < this.powers.maxTokens; k++) {
      const t = this.tokens[i + k];
      if (t?.kind !== "word") break;
      key = k === 0 ? t.text : `${key} ${t.text}`;
      const p = this.powers.names.get(key);
      if (p !== undefined) found = { power: p, next: i + k + 1 };
    }
    return found;
  }

  /** A unit: [nationality] [A|F|Army|Fleet] place. */
  unit(i: number, what: string): Step<UnitSpec> {
    const nation = this.matchPower(i);
    if (nation && !this.tokens[nation.next] && this.matchName(i) === null) {
      const last = this.tokens[nation.next - 1]!;
      return this.fail(
        `missing the unit after ${this.sofar(nation.next - 1)}`,
        last.start,
        last.end,
      );
    }
    if (nation && this.tokens[nation.next]) {
      // A name that starts with a nationality (`English Channel`) is the name.
      const name = this.matchName(i);
      if (name === null || name.next <= nation.next) {
        const u = this.bareUnit(nation.next, what, nation.power);
        if (u.ok) return u;
        // A word that is both a nationality and a province: read it as the province.
        if (name === null && !this.fz) return u;
        if (name === null) {
          // With corrections, the nationality may start a misspelt name (`English Chanel`).
          const whole = this.bareUnit(i, what, null);
          return whole.ok ? whole : u;
        }
      }
    }
    return this.bareUnit(i, what, null);
  }

  /** A unit type word at token i, unless the word there is a province. */
  unitType(i: number): UnitType | null {
    const kw = this.keyword(i);
    if ((kw === "army" || kw === "fleet") && this.matchName(i) === null)
      return kw === "army" ? "A" : "F";
    return null;
  }

  bareUnit(i: number, what: string, power: PowerId | null): Step<UnitSpec> {
    const type = this.unitType(i);
    const at = type ? i + 1 : i;
    const p = this.place(at, type ? "a province" : what, at - 1);
    if (!p.ok) return p;
    return done({ type, province: p.value.province, coast: p.value.coast, power }, p.next);
  }

  /**
   * "via convoy" / "by convoy" at token i, or "VIA" alone ending the order (MILA's records):
   * whether it is there, and where reading goes on.
   */
  viaConvoy(i: number): Step<boolean> {
    if (this.keyword(i) !== "via") return done(false, i);
    if (this.keyword(i + 1) === "convoy") return done(true, i + 2);
    if (this.tokens[i + 1] === undefined && this.tokens[i]!.text.toLowerCase() === "via")
      return done(true, i + 1);
    const t = this.tokens[i]!;
    const u = this.tokens[i + 1];
    return this.fail(
      `expected "convoy" after ${this.quote(i)}${u ? `, found ${this.quote(i + 1)}` : ""}`,
      t.start,
      u ? u.end : t.end,
      ["via convoy"],
    );
  }

  // --- orders ---

  order(): Step<ParsedOrder> {
    let first = this.keyword(0);
    const t0 = this.tokens[0]!;
    if (
      this.fz &&
      first === undefined &&
      t0.kind === "word" &&
      this.matchName(0) === null &&
      this.matchPower(0) === null
    ) {
      // A misspelt build, remove, disband or waive, unless it is closer to a province.
      const k = correctKeyword(t0.text);
      const verbs = k.keywords.filter(
        (w) => w === "build" || w === "remove" || w === "disband" || w === "waive",
      );
      const places = correctPlaces(t0.text, this.index);
      if (verbs.length > 0 && (places.provinces.length === 0 || k.score <= places.score)) {
        // As close to a province: both readings are tried, and the one that reads counts.
        const pick = this.fz.take<Keyword | null>(
          places.provinces.length === 0 ? verbs : [...verbs, null],
        );
        if (pick !== null) {
          first = pick;
          this.note(0, 1, `"${pick}"`);
        }
      }
    }
    if (first === "waive") return done({ kind: "waive" }, 1);
    if (
      (first === "build" || first === "remove" || first === "disband") &&
      this.matchName(0) === null
    ) {
      if (first === "build") {
        const type = this.unitType(1);
        const at = type ? 2 : 1;
        const p = this.place(at, "the province to build in", at - 1);
        if (!p.ok) return p;
        return done({ kind: "build", unitType: type, location: p.value }, p.next);
      }
      const u = this.unit(1, `the unit to ${first}`);
      if (!u.ok) return u;
      return done({ kind: first, unit: u.value }, u.next);
    }
    const subject = this.unit(0, "a unit or province");
    if (!subject.ok) {
      // An unknown first word may be a misspelt order word rather than a place.
      if (t0.kind === "word" && first === undefined && this.matchPower(0) === null) {
        const words = suggestKeywords(t0.text);
        const places = scorePlaces(t0.text, this.index);
        if (
          words.length > 0 &&
          (places.length === 0 || editDistance(t0.text, words[0]!) < places[0]!.score)
        ) {
          return this.fail(
            `unknown word ${this.quote(0)}: did you mean ${orList(words)}?`,
            t0.start,
            t0.end,
            words,
          );
        }
      }
      return subject;
    }
    return this.rest(subject.value, subject.next);
  }

  /** What follows the ordered unit. */
  rest(unit: UnitSpec, i: number): Step<ParsedOrder> {
    const t = this.tokens[i];
    if (!t) return done({ kind: "hold", unit }, i);
    let kw = this.keyword(i);
    if (kw === undefined && this.fz && t.kind === "word") {
      const v = this.correctVerb(i);
      if (v === "place") return this.moveTo(unit, i, i - 1);
      kw = v;
    }
    switch (kw) {
      case "hold":
        return done({ kind: "hold", unit }, i + 1);
      case "disband":
      case "remove":
        if (kw === "remove" && t.text === "r" && this.tokens[i + 1]) return this.move(unit, i);
        return done({ kind: kw, unit }, i + 1);
      case "build":
        return done(
          {
            kind: "build",
            unitType: unit.type,
            location: { province: unit.province, coast: unit.coast },
          },
          i + 1,
        );
      case "move":
      case "retreat":
        return this.move(unit, i);
      case "support": {
        const target = this.unit(i + 1, "the unit to support");
        if (!target.ok) return target;
        const j = target.next;
        const inWord = this.tokens[j];
        if (inWord?.kind === "word" && inWord.text === "in" && this.tokens[j + 1]) {
          // Seed 003, retrospective support: `A rum S A vie in gal` (docs/sequential.md).
          const at = this.place(j + 1, "the province the supported unit moved into", j);
          if (!at.ok) return at;
          const order = { kind: "support", unit, supported: target.value, to: at.value } as const;
          return done({ ...order, arrived: true }, at.next);
        }
        let k = this.keyword(j);
        if (k === undefined && this.fz && this.tokens[j]?.kind === "word") {
          const v = this.correctVerb(j);
          if (v === "place") {
            // `A par S A mar bur`: the dash left out.
            const to = this.place(j, "the destination of the supported move", j - 1);
            if (!to.ok) return to;
            return done({ kind: "support", unit, supported: target.value, to: to.value }, to.next);
          }
          k = v;
        }
        if (k === "hold")
          return done({ kind: "support", unit, supported: target.value, to: null }, j + 1);
        if (k === "move") {
          const to = this.place(j + 1, "the destination of the supported move", j);
          if (!to.ok) return to;
          // "via convoy" changes nothing for a support.
          const via = this.viaConvoy(to.next);
          if (!via.ok) return via;
          return done({ kind: "support", unit, supported: target.value, to: to.value }, via.next);
        }
        return done({ kind: "support", unit, supported: target.value, to: null }, j);
      }
      case "convoy": {
        const target = this.unit(i + 1, "the unit to convoy");
        if (!target.ok) return target;
        const j = target.next;
        let k = this.keyword(j);
        let at = j + 1;
        if (k === undefined && this.fz && this.tokens[j]?.kind === "word") {
          const v = this.correctVerb(j);
          if (v === "place") at = j;
          k = v === "place" ? "move" : v;
        }
        if (k !== "move") {
          const last = this.tokens[j - 1]!;
          const u = this.tokens[j];
          return this.fail(
            `a convoy needs the destination of the convoyed unit: write ${this.sofar(j - 1).slice(0, -1)} - <province>"`,
            u ? u.start : last.start,
            u ? u.end : last.end,
          );
        }
        const to = this.place(at, "the destination of the convoyed unit", at - 1);
        if (!to.ok) return to;
        const via = this.viaConvoy(to.next);
        if (!via.ok) return via;
        return done({ kind: "convoy", unit, convoyed: target.value, to: to.value }, via.next);
      }
      default: {
        const expected = '"-" (move), S (support), C (convoy), H (hold) or D (disband)';
        if (t.kind === "word" && this.matchName(i)) {
          return this.fail(
            `expected ${expected} between ${this.sofar(i - 1)} and ${this.quote(i)}`,
            t.start,
            t.end,
            [],
          );
        }
        if (t.kind !== "word" || kw !== undefined) {
          return this.fail(
            `expected ${expected} after ${this.sofar(i - 1)}, found ${this.quote(i)}`,
            t.start,
            t.end,
          );
        }
        const words = suggestKeywords(t.text);
        const hint = words.length > 0 ? `did you mean ${orList(words)}?` : `expected ${expected}`;
        return this.fail(
          `unknown word ${this.quote(i)} after ${this.sofar(i - 1)}: ${hint}`,
          t.start,
          t.end,
          words,
        );
      }
    }
  }

  move(unit: UnitSpec, i: number): Step<ParsedOrder> {
    const t = this.tokens[i]!;
    if (!this.tokens[i + 1]) {
      return this.fail(
        `missing destination after ${this.quote(i)}: write a province, as in "A lon - nth"`,
        t.start,
        t.end,
      );
    }
    // "F Lon-Holds": a hold word after the dash, and nothing else, is a hold (the 1935
    // committee's spelling), unless the word names a place.
    const next = this.tokens[i + 1]!;
    if (this.keyword(i + 1) === "hold" && !this.tokens[i + 2] && !this.index.names.has(next.text)) {
      return done({ kind: "hold", unit }, i + 2);
    }
    return this.moveTo(unit, i + 1, i);
  }

  /** A move's destination at token `at`, and what may follow it (a route, "via convoy"). */
  moveTo(unit: UnitSpec, at: number, after: number): Step<ParsedOrder> {
    const to = this.place(at, "a destination", after);
    if (!to.ok) return to;
    if (this.routes) {
      const r = this.route(to.value, to.next);
      if (r) return r.ok ? done({ kind: "move", unit, to: r.value, viaConvoy: true }, r.next) : r;
    }
    const via = this.viaConvoy(to.next);
    if (!via.ok) return via;
    return done({ kind: "move", unit, to: to.value, viaConvoy: via.value }, via.next);
  }

  /** Whether province `p` is a sea. */
  isSea(p: ProvinceId): boolean {
    return this.index.provinces.get(p)?.kind === "sea";
  }

  /**
   * A convoy route written after a move's first place (seed 002 VI(3)): `- nth - nwy` (the
   * first place was a sea on the way) or `via nth, nwg` (seas after the destination). The
   * route is read and set aside; the answer is the destination. null: no route written.
   */
  route(first: LocationSpec, i: number): Step<LocationSpec> | null {
    const t = this.tokens[i];
    if (t?.kind === "move" && this.tokens[i + 1]) {
      const seas = [first];
      let dest: LocationSpec = first;
      let k = i;
      while (this.tokens[k]?.kind === "move" && this.tokens[k + 1]) {
        const p = this.place(k + 1, "a place on the convoy route", k);
        if (!p.ok) return p;
        seas.push(p.value);
        dest = p.value;
        k = p.next;
      }
      seas.pop();
      const land = seas.find((s) => !this.isSea(s.province));
      if (land) {
        return this.fail(
          `a convoy route goes through seas only, and ${this.index.provinces.get(land.province)?.name ?? land.province} is not a sea`,
          t.start,
          this.tokens[k - 1]!.end,
        );
      }
      this.routeNotes.push(
        `the convoy route through ${seas.map((s) => s.province).join(", ")} is ignored: any fleets ordered to convoy the army may carry it`,
      );
      const via = this.viaConvoy(k);
      if (!via.ok) return via;
      return done(dest, via.next);
    }
    if (this.keyword(i) === "via" && this.keyword(i + 1) !== "convoy" && this.tokens[i + 1]) {
      const seas: LocationSpec[] = [];
      let k = i + 1;
      while (this.tokens[k]) {
        if (this.tokens[k]?.kind === "word" && this.tokens[k]?.text === "and") {
          k++;
          continue;
        }
        const p = this.place(k, "a sea of the convoy route", k - 1);
        if (!p.ok || !this.isSea(p.value.province)) break;
        seas.push(p.value);
        k = p.next;
      }
      if (seas.length === 0) return null;
      this.routeNotes.push(
        `the convoy route through ${seas.map((s) => s.province).join(", ")} is ignored: any fleets ordered to convoy the army may carry it`,
      );
      return done(first, k);
    }
    return null;
  }

  /** Notes about routes set aside, whether or not corrections are on. */
  readonly routeNotes: string[] = [];

  /**
   * With correction on, what an unknown word after a unit means: an order word close to it,
   * or a place (the dash left out, `A par bur`). undefined when neither.
   */
  correctVerb(i: number): Keyword | "place" | undefined {
    const t = this.tokens[i];
    if (!this.fz || t?.kind !== "word") return undefined;
    if (this.matchName(i) !== null) return "place";
    const k = correctKeyword(t.text);
    const places = this.correctedName(i);
    if (k.keywords.length > 0 && (places === null || k.score <= places.score)) {
      // As close to a place as to a word: both readings are tried.
      const w = this.fz.take<Keyword | "place">(
        places === null ? k.keywords : [...k.keywords, "place"],
      );
      if (w !== "place") this.note(i, 1, `"${w}"`);
      return w;
    }
    return places ? "place" : undefined;
  }
}

function failure(
  message: string,
  start: number,
  end: number,
  suggestions: readonly string[] = [],
): ParseResult {
  return { ok: false, error: { message, start, end, suggestions } };
}

function parseChecked(
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
  const reader = new Reader(text, tokens, nameIndex(map), powerIndex(powers), fz, routes);
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
const readCaches = new WeakMap<GameMap, WeakMap<readonly Power[], ReadCache[]>>();

/** The cache asked for last (one game at a time asks for one again and again). */
let last: { map: GameMap; powers: readonly Power[]; k: number; cache: ReadCache } | null = null;

function readCache(map: GameMap, powers: readonly Power[], options: ParseOptions): ReadCache {
  const k = (options.typos === "correct" ? 1 : 0) + (options.convoyRoutes === true ? 2 : 0);
  if (last !== null && last.map === map && last.powers === powers && last.k === k)
    return last.cache;
  let byPowers = readCaches.get(map);
  if (!byPowers) {
    byPowers = new WeakMap();
    readCaches.set(map, byPowers);
  }
  let caches = byPowers.get(powers);
  if (!caches) {
    caches = [];
    byPowers.set(powers, caches);
  }
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
    const reader = new Reader(name, tokens, nameIndex(map), { names: new Map(), maxTokens: 1 });
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
