/**
 * Spelling for the order reader: edit distance, the suggestions offered for an unknown word
 * ("did you mean"), and seed 002 III(2)'s corrections (abbreviations and close misspellings
 * read as meant; `Choices`, the candidates a run of the reader takes).
 */

import type { NameIndex } from "./parse-names.ts";
import { KEYWORD_SPELLINGS, type Keyword } from "./parse-tokens.ts";
import type { Province } from "./types.ts";

// ---------------------------------------------------------------------------------------------
// Suggestions

/** Edit distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
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

export function scorePlaces(query: string, index: NameIndex): Scored[] {
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

export function suggestKeywords(word: string): string[] {
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
export function correctPlaces(
  query: string,
  index: NameIndex,
): { provinces: Province[]; score: number } {
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

export function correctKeyword(word: string): { keywords: Keyword[]; score: number } {
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
export class Choices {
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

export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
