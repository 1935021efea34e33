/*
 * The token language: a diplomacy message is a sequence of tokens in which brackets nest.
 * Here a message is read into a tree (`Item`: a token or a bracketed list of items), written
 * back to tokens, and both are shown as the protocol's text form (`NME ('Bot') ('1.0')`),
 * which is also read back: the tests and the docs speak it.
 */
import {
  CATEGORY,
  categoryOf,
  fixedName,
  intToken,
  intValue,
  isAscii,
  isInteger,
  type Token,
  textTokens,
  tok,
} from "./tokens.ts";

/** A token, or a bracketed list of items. */
export type Item = Token | readonly Item[];

/** Names for the tokens a map defines (powers and provinces); the fixed ones are known. */
export interface Names {
  nameOf(token: Token): string | undefined;
  tokenOf(name: string): Token | undefined;
}

/** No map's names: only the fixed tokens. */
export const NO_NAMES: Names = { nameOf: () => undefined, tokenOf: () => undefined };

const OPEN = tok("(");
const CLOSE = tok(")");

export type Tree =
  | { readonly ok: true; readonly items: readonly Item[] }
  /** The brackets do not balance; `at` is the index of the token where that shows. */
  | { readonly ok: false; readonly at: number };

/** A token sequence read into items; unbalanced brackets are a failure (answered PRN). */
export function tree(tokens: readonly Token[]): Tree {
  const stack: Item[][] = [[]];
  for (let i = 0; i < tokens.length; i++) {
    const x = tokens[i]!;
    if (x === OPEN) stack.push([]);
    else if (x === CLOSE) {
      if (stack.length === 1) return { ok: false, at: i };
      const done = stack.pop()!;
      stack[stack.length - 1]!.push(done);
    } else stack[stack.length - 1]!.push(x);
  }
  if (stack.length !== 1) return { ok: false, at: tokens.length };
  return { ok: true, items: stack[0]! };
}

/** Items written out as tokens, brackets included. */
export function flatten(items: readonly Item[], out: Token[] = []): Token[] {
  for (const x of items) {
    if (typeof x === "number") out.push(x);
    else {
      out.push(OPEN);
      flatten(x, out);
      out.push(CLOSE);
    }
  }
  return out;
}

/** A message from parts: strings are fixed tokens' names, arrays are bracketed lists. */
export type Part = Token | string | readonly Part[];

/** Builds items from names and tokens: `msg("YES", ["NME", ...])`. */
export function msg(...parts: readonly Part[]): Item[] {
  return parts.map(function item(p: Part): Item {
    if (typeof p === "number") return p;
    if (typeof p === "string") return tok(p);
    return p.map(item);
  });
}

/** A text as a bracketed list of ASCII tokens (`('name')`). */
export const textItem = (text: string): Item[] => textTokens(text);

/** The text of a list of ASCII tokens, or null if it holds anything else. */
export function textOf(item: Item | undefined): string | null {
  if (item === undefined || typeof item === "number") return null;
  let s = "";
  for (const x of item) {
    if (typeof x !== "number" || !isAscii(x)) return null;
    s += String.fromCharCode(x & 0xff);
  }
  return s;
}

/** A token's text form: its name, its number, or `?` and its value for an unknown one. */
export function tokenText(token: Token, names: Names): string {
  if (isInteger(token)) return String(intValue(token));
  const name = fixedName(token) ?? names.nameOf(token);
  if (name !== undefined) return name;
  return `?${token.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Tokens in the text form: names, numbers, quoted text, brackets, spaced as DAIDE's docs do. */
export function toText(tokens: readonly Token[], names: Names): string {
  const words: string[] = [];
  let text: string | null = null;
  for (const x of tokens) {
    if (isAscii(x)) {
      const ch = String.fromCharCode(x & 0xff);
      text = (text ?? "") + (ch === "'" ? "''" : ch);
      continue;
    }
    if (text !== null) {
      words.push(`'${text}'`);
      text = null;
    }
    words.push(tokenText(x, names));
  }
  if (text !== null) words.push(`'${text}'`);
  return words.join(" ").replace(/\( /g, "(").replace(/ \)/g, ")");
}

/** Items in the text form. */
export const itemsText = (items: readonly Item[], names: Names): string =>
  toText(flatten(items), names);

/** Text form read back to tokens; throws with the word it could not read. */
export function fromText(text: string, names: Names): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
    } else if (c === "(" || c === ")") {
      out.push(tok(c));
      i++;
    } else if (c === "'") {
      let s = "";
      i++;
      for (;;) {
        if (i >= text.length) throw new Error(`unterminated text in "${text}"`);
        if (text[i] === "'") {
          if (text[i + 1] === "'") {
            s += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        s += text[i];
        i++;
      }
      out.push(...textTokens(s));
    } else {
      let j = i;
      while (j < text.length && !" \t\n\r()'".includes(text[j]!)) j++;
      const word = text.slice(i, j);
      i = j;
      if (/^-?\d+$/.test(word)) out.push(intToken(Number(word)));
      else if (/^\?[0-9A-Fa-f]{4}$/.test(word)) out.push(Number.parseInt(word.slice(1), 16));
      else {
        const fixed = safeTok(word);
        const v = fixed ?? names.tokenOf(word);
        if (v === undefined) throw new Error(`"${word}" is not a DAIDE token`);
        out.push(v);
      }
    }
  }
  return out;
}

function safeTok(name: string): Token | undefined {
  try {
    return tok(name);
  } catch {
    return undefined;
  }
}

/** Whether a token is one a message may hold: known, or of an open category (ints, text). */
export function knownToken(token: Token, names: Names): boolean {
  if (isInteger(token) || isAscii(token)) return true;
  if (fixedName(token) !== undefined) return true;
  // Power and province tokens of another map are read (and answered as such, NSP) but not
  // tokens of a category the protocol does not define.
  const c = categoryOf(token);
  if (names.nameOf(token) !== undefined) return true;
  return c === CATEGORY.power || (c >= 0x50 && c <= 0x57);
}
