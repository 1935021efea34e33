/*
 * DAIDE press at level 10 (peace and alliances): what a press message may say, checked before
 * the server passes it on (SND from a client, FRM to the recipients). Level 10's words:
 *
 *   press_message = PRP (arrangement) | CCL (press_message) | TRY (token ...)
 *                 | HUH (anything: the message the sender could not read, with ERR in it)
 *                 | YES (press_message) | REJ (press_message) | BWX (press_message)
 *   arrangement   = PCE (power power ...) | ALY (power ...) VSS (power ...) | DRW
 *                 | DRW (power power ...) | SLO (power) | NOT (arrangement) | NAR (arrangement)
 *
 * Anything else (a word of a higher level, XDO, AND, FCT ...; a misplaced word) is a fault,
 * answered HUH with ERR before the first item that cannot be read there, as the protocol
 * answers what a server cannot read.
 */
import type { Item } from "./language.ts";
import { type Token, tok } from "./tokens.ts";

const T = tok;

/** The press levels a game may offer: 0 (no press) and 10 (peace and alliances). */
export type PressLevel = 0 | 10;

/** Where a press message stops being level 10: a path of indices into it, or null (fine). */
export type Fault = readonly number[] | null;

/** The first item of `m` (a press message's items) that level 10 cannot read, or null. */
export function pressFault(m: readonly Item[], isPower: (t: Token) => boolean): Fault {
  const head = m[0];
  switch (head) {
    case T("PRP"):
      return single(m, (a) => arrangementFault(a, isPower));
    case T("CCL"):
    case T("YES"):
    case T("REJ"):
    case T("BWX"):
      return single(m, (p) => pressFault(p, isPower));
    case T("HUH"):
      return single(m, () => null);
    case T("TRY"):
      return single(m, (list) => {
        const i = list.findIndex((x) => typeof x !== "number");
        return i < 0 ? null : [i];
      });
    default:
      return [0];
  }
}

function arrangementFault(a: readonly Item[], isPower: (t: Token) => boolean): Fault {
  const powers = (list: readonly Item[]): Fault => {
    if (list.length === 0) return [0];
    const i = list.findIndex((x) => typeof x !== "number" || !isPower(x));
    return i < 0 ? null : [i];
  };
  switch (a[0]) {
    case T("PCE"):
      return single(a, powers);
    case T("DRW"):
      return a.length === 1 ? null : single(a, powers);
    case T("SLO"):
      return single(a, (list) => (list.length === 1 ? powers(list) : [list.length === 0 ? 0 : 1]));
    case T("NOT"):
    case T("NAR"):
      return single(a, (x) => arrangementFault(x, isPower));
    case T("ALY"): {
      const allies = a[1];
      if (allies === undefined || typeof allies === "number") return [1];
      const f = powers(allies);
      if (f) return [1, ...f];
      if (a[2] !== T("VSS")) return [2];
      const enemies = a[3];
      if (enemies === undefined || typeof enemies === "number") return [3];
      const g = powers(enemies);
      if (g) return [3, ...g];
      return a.length > 4 ? [4] : null;
    }
    default:
      return [0];
  }
}

/** `m` is a word and one bracketed list, which `inner` checks. */
function single(m: readonly Item[], inner: (list: readonly Item[]) => Fault): Fault {
  const x = m[1];
  if (x === undefined || typeof x === "number") return [1];
  const f = inner(x);
  if (f) return [1, ...f];
  return m.length > 2 ? [2] : null;
}

/** The items with ERR put before the item at `path` (the protocol's mark in HUH). */
export function markFault(items: readonly Item[], path: readonly number[]): Item[] {
  const [i, ...rest] = path;
  if (i === undefined) return [...items];
  const inner = items[i];
  if (rest.length === 0 || inner === undefined || typeof inner === "number")
    return [...items.slice(0, i), T("ERR"), ...items.slice(i)];
  return [...items.slice(0, i), markFault(inner, rest), ...items.slice(i + 1)];
}

/** What the game did with a SND: sent (YES), refused (REJ), or not sent for a recipient. */
export type PressAnswer =
  | { readonly kind: "sent" }
  | { readonly kind: "rej" }
  /** A recipient is out of the game (OUT (power)) or not connected (CCD (power)): not sent. */
  | { readonly kind: "out" | "ccd"; readonly power: Token };

/**
 * A level 10 press message in English, for the web and mail players who read a DAIDE
 * client's press (`named`: a power's name from its token). Null for what level 10 cannot read.
 */
export function pressGloss(m: readonly Item[], named: (t: Token) => string): string | null {
  const list = (x: Item | undefined): string | null => {
    if (x === undefined || typeof x === "number" || x.length === 0) return null;
    const names = x.map((t) => (typeof t === "number" ? named(t) : "?"));
    return names.length === 1
      ? names[0]!
      : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  };
  const arrangement = (a: Item | undefined): string | null => {
    if (a === undefined || typeof a === "number") return null;
    switch (a[0]) {
      case T("PCE"):
        return `peace between ${list(a[1])}`;
      case T("ALY"):
        return `an alliance of ${list(a[1])} against ${list(a[3])}`;
      case T("DRW"):
        return a.length === 1 ? "a draw" : `a draw between ${list(a[1])}`;
      case T("SLO"):
        return `a solo win for ${list(a[1])}`;
      case T("NOT"):
        return `not ${arrangement(a[1])}`;
      case T("NAR"):
        return `no agreement on ${arrangement(a[1])}`;
      default:
        return null;
    }
  };
  /** A press message as the object of a sentence: "the proposal of peace between ...". */
  const what = (x: Item | undefined): string | null => {
    if (x === undefined || typeof x === "number") return null;
    const inner = what(x[1]);
    switch (x[0]) {
      case T("PRP"):
        return `the proposal of ${arrangement(x[1])}`;
      case T("YES"):
        return `the acceptance of ${inner}`;
      case T("REJ"):
        return `the rejection of ${inner}`;
      case T("BWX"):
        return `the refusal to answer ${inner}`;
      case T("CCL"):
        return `the withdrawal of ${inner}`;
      default:
        return "a message";
    }
  };
  switch (m[0]) {
    case T("PRP"):
      return `Proposes ${arrangement(m[1])}.`;
    case T("YES"):
      return `Accepts ${what(m[1])}.`;
    case T("REJ"):
      return `Rejects ${what(m[1])}.`;
    case T("BWX"):
      return `Will not answer ${what(m[1])} (none of your business).`;
    case T("CCL"):
      return `Takes back ${what(m[1])}.`;
    case T("HUH"):
      return "Did not understand a message.";
    case T("TRY"):
      return "Says which press words it can read.";
    default:
      return null;
  }
}
