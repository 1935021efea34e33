/**
 * The order reader's first stage and its vocabulary: `tokenize` cuts a text into words,
 * arrows and dashes, slashes, parentheses and junk, each with its offsets; the order words
 * (`KEYWORDS`: move, support, convoy, via, build...) and the coast words.
 */

import type { Coast } from "./types.ts";

// ---------------------------------------------------------------------------------------------
// Tokens

type TokenKind = "word" | "move" | "slash" | "open" | "close" | "junk";

export interface Token {
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

export function tokenize(text: string): Token[] {
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
// ---------------------------------------------------------------------------------------------
// Words

export type Keyword =
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

export const KEYWORDS: ReadonlyMap<string, Keyword> = new Map<string, Keyword>([
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
export const KEYWORD_SPELLINGS: readonly string[] = [
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
export const QUALIFIED_COASTS: ReadonlyMap<string, Coast> = new Map<string, Coast>([
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
export const BARE_COASTS: ReadonlyMap<string, Coast> = new Map<string, Coast>([
  ["nc", "nc"],
  ["sc", "sc"],
  ["ec", "ec"],
  ["wc", "wc"],
]);
/** Words that make a coast when "coast" follows them. */
export const COAST_DIRECTIONS: ReadonlyMap<string, Coast> = new Map<string, Coast>([
  ["north", "nc"],
  ["south", "sc"],
  ["east", "ec"],
  ["west", "wc"],
]);

export const COAST_NAMES: Readonly<Record<Coast, string>> = {
  nc: "north coast",
  sc: "south coast",
  ec: "east coast",
  wc: "west coast",
};
