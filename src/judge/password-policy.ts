import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/*
 * Which passwords an account may have (docs/judge.md, "Passwords"). A password is refused
 * when it is
 * - shorter than 8 characters, or made of spaces (and other white space) only;
 * - the user's name, or a close variant of it (other capitals, reversed, with digits or
 *   punctuation added: `Ann`, `nna`, `ann1990!`);
 * - easy to guess: zxcvbn-ts (@zxcvbn-ts/core, with @zxcvbn-ts/language-common's list of
 *   some 30,000 passwords most often found in breaches and its keyboard patterns) estimates
 *   fewer than a million guesses (its score 0 or 1): "password", "12345678", "qwertyuiop",
 *   "Password1!", the user's name with a word added. At the judge's login bounds (limits.ts:
 *   at most 30 wrong passwords an hour for an account, from all addresses together) a
 *   million guesses take more than three years.
 * The estimator and its lists are loaded on the first check, not at start (about 60 ms).
 */

/** zxcvbn's score under which a password is refused: 2 is at least 10^6 guesses. */
export const MIN_SCORE = 2;

const WARNINGS: Readonly<Record<string, string>> = {
  topTen: "it is one of the ten passwords most often used",
  topHundred: "it is one of the hundred passwords most often used",
  common: "it is one of the passwords most often found in breaches",
  similarToCommon: "it is a password often found in breaches with little changed",
  userInputs: "it is made from your user name",
  straightRow: "it is a row of keys on the keyboard",
  keyPattern: "it is a short pattern of keys on the keyboard",
  simpleRepeat: 'it repeats one character ("aaaaaaaa")',
  extendedRepeat: 'it repeats a short group of characters ("abcabcabc")',
  sequences: 'it is a sequence ("abcdefgh", "13579")',
  recentYears: "it is mostly a recent year",
  dates: "it is mostly a date",
  wordByItself: "it is a single common word",
  namesByThemselves: "it is a name",
  commonNames: "it is a common name",
};

const RIGHT =
  "choose at least 8 characters that are not easy to guess: three or four unrelated words (`lantern violet orbit`) or a password manager's random one";

let factory: Promise<ZxcvbnFactory> | null = null;

function estimator(): Promise<ZxcvbnFactory> {
  factory ??= (async () => {
    const [core, common] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
    ]);
    return new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary },
      graphs: common.adjacencyGraphs,
    });
  })();
  return factory;
}

/** The letters of a text, lower case: `Ann_1990!` is `ann`. */
const letters = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}]/gu, "");

/** Why `password` may not be `name`'s password (what was wrong and what would be right), or null. */
export async function passwordProblem(password: string, name: string): Promise<string | null> {
  if (password.trim() === "") {
    return `a password of white space only is refused: ${RIGHT}`;
  }
  if ([...password].length < 8) return `a password needs at least 8 characters: ${RIGHT}`;
  const own = letters(name);
  const mine = letters(password);
  if (
    own.length > 0 &&
    (mine === own || mine === [...own].reverse().join("") || mine === own + own)
  ) {
    return `a password may not be your user name or a variant of it (capitals, digits or punctuation added, reversed): ${RIGHT}`;
  }
  const r = (await estimator()).check(password, [name, ...name.split(/[^\p{L}\p{N}]+/u)]);
  if (r.score >= MIN_SCORE) return null;
  const why = (r.feedback.warning && WARNINGS[r.feedback.warning]) || "it is too easy to guess";
  return `this password is refused: ${why}, so it would be among the first tried by someone guessing; ${RIGHT}`;
}
