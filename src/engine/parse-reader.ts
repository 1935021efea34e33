/**
 * The order grammar's ground floor: `PlaceReader` walks the tokens of one order and reads
 * places (names, coasts, corrections), powers and units, with the messages of what could not
 * be read. `parse-grammar.ts` reads whole orders on it; `findPlace` reads a place with it.
 */

import type { LocationSpec, UnitSpec } from "./orders.ts";
import type { NameIndex, PowerIndex } from "./parse-names.ts";
import { type Choices, correctPlaces, orList, scorePlaces } from "./parse-spelling.ts";
import {
  BARE_COASTS,
  COAST_DIRECTIONS,
  COAST_NAMES,
  KEYWORDS,
  type Keyword,
  QUALIFIED_COASTS,
  type Token,
} from "./parse-tokens.ts";
import type { Diagnostic } from "./parse-types.ts";
import type { Coast, PowerId, Province, ProvinceId, UnitType } from "./types.ts";

/** Longest word quoted back in a message. */
const MAX_QUOTE = 40;

export type Step<T> =
  | { readonly ok: true; readonly value: T; readonly next: number }
  | { readonly ok: false; readonly error: Diagnostic };

type Failure = { readonly ok: false; readonly error: Diagnostic };

export const done = <T>(value: T, next: number): Step<T> => ({ ok: true, value, next });

export class PlaceReader {
  constructor(
    protected readonly text: string,
    protected readonly tokens: readonly Token[],
    protected readonly index: NameIndex,
    protected readonly powers: PowerIndex,
    /** Typo correction (seed 002 III(2)): the choices of this run; null when off. */
    protected readonly fz: Choices | null = null,
    /** Convoy routes written into moves are read and ignored (seed 002 VI(3)). */
    protected readonly routes = false,
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
    const run = this.wordRun(i, true);
    let found: { provinces: Province[]; len: number; score: number } | null = null;
    for (let k = 1; k <= run; k++) {
      // The longest run that is close to a name (`English Chanel`, not `English`).
      const c = correctPlaces(this.words(i, k), this.index);
      if (c.provinces.length > 0) found = { provinces: c.provinces, len: k, score: c.score };
    }
    return found;
  }

  /**
   * How many plain words stand from token i on, at most as many as the longest name (or 3): a
   * keyword after the first ends the run, and with `coasts` a coast word after the first.
   */
  wordRun(i: number, coasts: boolean): number {
    let run = 0;
    while (run < Math.max(this.index.maxTokens, 3)) {
      const u = this.tokens[i + run];
      if (u?.kind !== "word" || (run > 0 && this.keyword(i + run) !== undefined)) break;
      if (coasts && run > 0 && (BARE_COASTS.has(u.text) || COAST_DIRECTIONS.has(u.text))) break;
      run++;
    }
    return run;
  }

  /** The texts of the k tokens from token i, joined by spaces (`English Chanel`). */
  words(i: number, k: number): string {
    return this.tokens
      .slice(i, i + k)
      .map((u) => u.text)
      .join(" ");
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
    const run = this.wordRun(i, false);
    let bestLen = 1;
    let best = scorePlaces(t.text, this.index);
    for (let k = 2; k <= run; k++) {
      const s = scorePlaces(this.words(i, k), this.index);
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
}
