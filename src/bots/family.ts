/*
 * A built-in player for the game families (issue 31): Global Diplomacy and Age of Discovery
 * (seed 004), and any game written against `GameRules` (src/engine/game.ts). The Diplomacy
 * bots (bot.ts, entente.ts) read the engine's positions; this one speaks only to the rules.
 *
 * It draws candidate order sets with the rules' own `random` (and `whenSilent`), keeps those
 * the rules read without an error, and plays each against a few predicted replies of the
 * others (each a random legal set per power, and one profile where they are all silent),
 * resolving the one turn with `resolve`; the candidate with the best mean standing after it
 * (`standing`: for the families, supply points and units, and whether the turn won or lost
 * the game) is chosen, ties to the first drawn (silence is weighed last). Every candidate
 * meets the same replies. Pure: no I/O, no clock; the same rules, state, power and seed give
 * the same set. Its cost is bounded by counts, not time: (candidates + 1) x (replies + 1)
 * resolutions a decision.
 */
import type { GameRules } from "../engine/game.ts";

export interface FamilyBotInput<S, O, V> {
  readonly rules: GameRules<S, O, V>;
  readonly state: S;
  readonly power: string;
  readonly seed: number;
  /** The power's standing in a state: higher is better (the families: `familyStanding`). */
  readonly standing: (state: S, power: string) => number;
  /** An order set as the text a player would send (read back with `read` to check it). */
  readonly text: (orders: O) => string;
  /** Random candidate sets drawn (default 10). */
  readonly candidates?: number;
  /** Random reply profiles of the others (default 3; a silent profile is always added). */
  readonly replies?: number;
}

export interface FamilyDecision<O> {
  /** The chosen set, as the rules read it. */
  readonly orders: O;
  /** The chosen set as text (one command a line). */
  readonly text: string;
  /** Its mean standing over the replies. */
  readonly score: number;
  /** How many legal, distinct candidates were weighed. */
  readonly weighed: number;
}

/** A seed for the `i`th draw of a purpose from a decision's seed (FNV-1a, then mixed). */
export function drawSeed(seed: number, purpose: string, i: number): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (const ch of `${purpose}/${i}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}

/** Won the game in the turn weighed: far above any standing; lost it: far below. */
const END_WEIGHT = 1_000_000;

/** The power's order set for the open phase (it must be one of `mustOrder`). */
export function familyDecide<S, O, V>(input: FamilyBotInput<S, O, V>): FamilyDecision<O> {
  const { rules, state, power, seed, standing, text } = input;
  const k = input.candidates ?? 10;
  const m = input.replies ?? 3;
  // Candidates: random sets, each read back (a set with a line the rules refuse is dropped,
  // as is a repeat), then silence (always legal) last: ties go to the first weighed, so the
  // bot holds back only when holding is strictly better than every set it drew. Silence
  // first made it sit still whenever nothing changed the standing in one turn (an opening's
  // moves towards centres not yet taken), a seat-filler that did not play.
  const seen = new Set<string>();
  const candidates: { orders: O; text: string }[] = [];
  const consider = (o: O) => {
    const t = text(o);
    if (seen.has(t)) return;
    seen.add(t);
    const read = rules.read(state, power, t);
    if (read.verdicts.some((v) => !v.ok)) return;
    candidates.push({ orders: read.orders, text: t });
  };
  for (let i = 0; i < k; i++) consider(rules.random(state, power, drawSeed(seed, "mine", i)));
  consider(rules.whenSilent(state, power));
  // The others' predicted replies: all silent, and `m` random profiles.
  const others = rules.mustOrder(state).filter((p) => p !== power);
  const profiles: Map<string, O>[] = [new Map(others.map((p) => [p, rules.whenSilent(state, p)]))];
  for (let j = 0; j < m; j++)
    profiles.push(
      new Map(
        others.map((p, n) => [p, rules.random(state, p, drawSeed(seed, `reply/${j}`, n))] as const),
      ),
    );
  let best = candidates[0]!;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const c of candidates) {
    let total = 0;
    for (const profile of profiles) {
      const sets = new Map(profile);
      sets.set(power, c.orders);
      const r = rules.resolve(state, sets);
      total += standing(r.next, power);
      if (r.ended) total += r.ended.winners.includes(power) ? END_WEIGHT : -END_WEIGHT;
    }
    const score = total / profiles.length;
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return { orders: best.orders, text: best.text, score: bestScore, weighed: candidates.length };
}

/** A family power's counts (global/rules.ts `tallyOf`, as the hosting shows them). */
export interface FamilyTally {
  readonly centres: number;
  readonly units: number;
  readonly supplyPoints: number;
  readonly unitPoints: number;
}

/**
 * A family power's standing from its tally: its supply points (what it may keep and build),
 * three times over, and its units by their points; nothing for a power out of the game.
 */
export function tallyStanding(t: FamilyTally | null | undefined): number {
  if (!t) return 0;
  return 3 * t.supplyPoints + t.unitPoints + t.centres;
}

/** The family bot's id and line, as the judge lists built-in players. */
export const familyBotInfo = {
  id: "family",
  describe:
    "Global Diplomacy and Age of Discovery: weighs a few random legal command sets against predicted replies, one turn ahead, by supply points and units.",
} as const;
