/*
 * Text the judge stores and shows again: which characters it refuses (docs/judge.md, "Text
 * the judge refuses"). Every store is the same: PostgreSQL cannot hold a NUL character at
 * all (it answered 500), and what SQLite would keep could be shown to others as something
 * else than it reads.
 * - One-line text (game names and labels, token labels, mail addresses, places): no control
 *   character at all (U+0000-U+001F, U+007F-U+009F: NUL, tab, line breaks, escape, ...), no
 *   line or paragraph separator (U+2028, U+2029), and no bidirectional control (the
 *   embeddings and overrides U+202A-U+202E, the isolates U+2066-U+2069, the marks U+200E,
 *   U+200F and U+061C), which make a text display in another order than it is read
 *   (`U+202E` turns `gpj.exe` around).
 * - Text of several lines (press, proposals, reasons, orders): tab, line feed and carriage
 *   return are kept; every other control character and the embeddings, overrides and
 *   isolates are refused (the marks U+200E, U+200F and U+061C are kept: right-to-left
 *   writing needs them).
 * Refused, not stripped: the sender is told which character, where, and what to do, and
 * nothing is kept that they did not see.
 */

const ONE_LINE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;
const LINES = /(?![\t\n\r])[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

const NAMES: Readonly<Record<number, string>> = {
  0: "a NUL character",
  9: "a tab",
  10: "a line break",
  13: "a carriage return",
  27: "an escape character",
  127: "a delete character",
  8206: "a left-to-right mark",
  8207: "a right-to-left mark",
  1564: "an Arabic letter mark",
  8232: "a line separator",
  8233: "a paragraph separator",
  8234: "a left-to-right embedding",
  8235: "a right-to-left embedding",
  8236: "a pop directional formatting",
  8237: "a left-to-right override",
  8238: "a right-to-left override",
  8294: "a left-to-right isolate",
  8295: "a right-to-left isolate",
  8296: "a first strong isolate",
  8297: "a pop directional isolate",
};

const describe = (c: string): string => {
  const cp = c.codePointAt(0)!;
  const u = `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  const name =
    NAMES[cp] ??
    (cp >= 0x202a ? "a bidirectional control character" : "an invisible control character");
  return `${u} (${name})`;
};

function problem(
  text: string,
  what: string,
  re: RegExp,
  allowed: (what: string) => string,
): string | null {
  const m = re.exec(text);
  if (!m) return null;
  const at = [...text.slice(0, m.index)].length + 1;
  return `${what} holds ${describe(m[0])} at character ${at}: ${allowed(what)}; remove it and send again`;
}

/** Why a one-line text (a name, a label, an address) is refused, or null. */
export function lineProblem(text: string, what: string): string | null {
  return problem(
    text,
    what,
    ONE_LINE,
    (what) =>
      `${what} is one line of visible text, without control characters, line breaks or bidirectional controls`,
  );
}

/** Why a text of several lines (press, a reason) is refused, or null. */
export function textProblem(text: string, what: string): string | null {
  return problem(
    text,
    what,
    LINES,
    (what) =>
      `${what} may hold line breaks and tabs, but no other control character and no bidirectional embedding, override or isolate`,
  );
}

const ANY_TEXT = () =>
  "no text sent to the judge may hold a control character other than tab and line breaks, nor a bidirectional embedding, override or isolate";

/**
 * The first string (or key) in a parsed JSON value that a multi-line text may not hold, with
 * its path (`body.orders[2]`) and why, or null. Every request body is checked with it, so
 * that no field of any route stores a NUL or a bidirectional override.
 */
export function jsonTextProblem(value: unknown, path = "body"): string | null {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (typeof v === "string") {
      const p = problem(v, at, LINES, ANY_TEXT);
      if (p) return p;
      continue;
    }
    if (typeof v !== "object" || v === null) continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${at}[${i}]`]);
      continue;
    }
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, x] = entries[i]!;
      const kp = problem(k, `a field name in ${at}`, LINES, ANY_TEXT);
      if (kp) return kp;
      stack.push([x, `${at}.${k}`]);
    }
  }
  return null;
}
