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
  | { readonly ok: true; readonly order: ParsedOrder }
  | { readonly ok: false; readonly error: Diagnostic };

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
    for (const word of [p.adjective, p.name, p.id]) {
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
  ) {}

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
    const m = this.matchName(i);
    if (!m) return this.unknownPlace(i, what);
    const c = this.coastAt(m.next);
    if (!c.ok) return c;
    const coast = c.value;
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
        if (name === null) return u;
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

  /** "via convoy" / "by convoy" at token i: whether it is there, and where reading goes on. */
  viaConvoy(i: number): Step<boolean> {
    if (this.keyword(i) !== "via") return done(false, i);
    if (this.keyword(i + 1) === "convoy") return done(true, i + 2);
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
    const first = this.keyword(0);
    const t0 = this.tokens[0]!;
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
    const kw = this.keyword(i);
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
        const k = this.keyword(j);
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
        if (this.keyword(j) !== "move") {
          const last = this.tokens[j - 1]!;
          const u = this.tokens[j];
          return this.fail(
            `a convoy needs the destination of the convoyed unit: write ${this.sofar(j - 1).slice(0, -1)} - <province>"`,
            u ? u.start : last.start,
            u ? u.end : last.end,
          );
        }
        const to = this.place(j + 1, "the destination of the convoyed unit", j);
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
    const to = this.place(i + 1, "a destination", i);
    if (!to.ok) return to;
    const via = this.viaConvoy(to.next);
    if (!via.ok) return via;
    return done({ kind: "move", unit, to: to.value, viaConvoy: via.value }, via.next);
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

function parseChecked(text: string, map: GameMap, powers: readonly Power[]): ParseResult {
  if (text.length > MAX_LENGTH) {
    return failure(
      `order too long (${text.length} characters; at most ${MAX_LENGTH})`,
      0,
      text.length,
    );
  }
  const tokens = tokenize(text);
  if (tokens.length === 0) {
    return failure(
      'empty order: write one such as "A lon - nth", "build F stp/nc" or "waive"',
      0,
      text.length,
    );
  }
  const reader = new Reader(text, tokens, nameIndex(map), powerIndex(powers));
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
  return { ok: true, order: r.value };
}

/** Reads one order. Never throws: whatever the text, the answer is an order or a diagnostic. */
export function parseOrder(text: string, map: GameMap, powers: readonly Power[]): ParseResult {
  try {
    return parseChecked(text, map, powers);
  } catch (e) {
    const length = typeof text === "string" ? text.length : 0;
    return failure(
      `could not read the order (${e instanceof Error ? e.message : String(e)})`,
      0,
      length,
    );
  }
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
