/**
 * Sequential movement's schedule (seed 003; docs/sequential.md): each season's order of
 * resolution (the GM's, or seeded Latin squares), its contracts, how a season is resolved
 * (`seasonPlan`, what the GM may see), the check of the options against a variant
 * (`checkSequential`), and `hideSchedule` (results as players may read them: no slots).
 */

import { type Rng, rngFor } from "./random.ts";
import type { RuleOptions } from "./rules.ts";
import type { Contracts, SeasonSchedule } from "./sequential-rules.ts";
import type { Phase, Position, PowerId } from "./types.ts";
import type { Variant } from "./variant.ts";

/** How a season is resolved. */
export type SeasonPlan =
  | { readonly kind: "simultaneous" }
  | {
      readonly kind: "sequential";
      /** The powers in the order their orders are resolved. */
      readonly order: readonly PowerId[];
      /** Set by the GM (`schedule`), or generated from `scheduleSeed`. */
      readonly source: "gm" | "generated";
    };

// ---------------------------------------------------------------------------------------------
// The schedule

/** A season's key in the rule options: `S1901`, `F1901`. */
export const seasonKey = (phase: Phase): string => `${phase.season}${phase.year}`;

const isPerSeason = <T>(v: T | Readonly<Record<string, T>>): v is Readonly<Record<string, T>> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The GM's schedule for a season, if the options set one. */
function gmSchedule(rules: RuleOptions, key: string): SeasonSchedule | undefined {
  const s = rules.schedule;
  if (s === undefined) return undefined;
  return isPerSeason(s) ? s[key] : s;
}

/** The contracts of a season. */
export function contractsFor(rules: RuleOptions, phase: Phase): Contracts {
  const c = rules.contracts;
  if (c === undefined) return [];
  return isPerSeason(c) ? (c[seasonKey(phase)] ?? []) : c;
}

/**
 * The number of the season among the game's sequential seasons, from 0 at the variant's
 * first season: seasons the GM made simultaneous (in the per-season `schedule`) do not count.
 */
export function sequentialIndex(variant: Variant, phase: Phase, rules: RuleOptions): number {
  const raw = (p: { season: string; year: number }) => p.year * 2 + (p.season === "F" ? 1 : 0);
  const here = raw(phase);
  let index = here - raw(variant.start.phase);
  const s = rules.schedule;
  if (s !== undefined && isPerSeason(s)) {
    for (const [k, v] of Object.entries(s)) {
      if (v !== "simultaneous") continue;
      const season = { season: k[0]!, year: Number(k.slice(1)) };
      if (raw(season) < here && raw(season) >= raw(variant.start.phase)) index--;
    }
  }
  return Math.max(0, index);
}

function shuffle<T>(list: T[], rng: Rng): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

export const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/**
 * The schedules of block `b` (seasons `b*n` to `b*n + n - 1`), as positions into the power
 * list: a Latin square, so every power is first once, second once, and so on; and no season
 * of a block repeats the schedule of the same season of the block before.
 */
function blockSquare(n: number, seed: number, b: number, prev: number[][] | null): number[][] {
  const rng = rngFor(seed, b);
  for (let attempt = 0; attempt < 100; attempt++) {
    const rows = shuffle(range(n), rng);
    const cols = shuffle(range(n), rng);
    const symbols = shuffle(range(n), rng);
    const square = rows.map((r) => cols.map((c) => symbols[(r + c) % n]!));
    if (n < 2 || !prev || square.every((row, r) => row.some((x, c) => x !== prev[r]![c]))) {
      return square;
    }
  }
  // Rows of a Latin square differ from each other: the previous block's, shifted by one.
  return prev!.map((_, r) => [...prev![(r + 1) % n]!]);
}

/**
 * The generated schedule of sequential season `index` (from 0): seeded, and such that in
 * every block of as many seasons as there are powers each power is first once, second once,
 * and so on; the schedules change from one block to the next.
 */
export function generatedSchedule(
  powers: readonly PowerId[],
  seed: number,
  index: number,
): PowerId[] {
  const n = powers.length;
  const block = Math.floor(index / n);
  let square: number[][] | null = null;
  for (let b = 0; b <= block; b++) square = blockSquare(n, seed, b, square);
  return square![index % n]!.map((k) => powers[k]!);
}

/** How the season of `phase` is resolved under these rules (what the GM may see). */
export function seasonPlan(variant: Variant, phase: Phase, rules: RuleOptions): SeasonPlan {
  if (rules.movement !== "sequential") return { kind: "simultaneous" };
  const gm = gmSchedule(rules, seasonKey(phase));
  if (gm === "simultaneous") return { kind: "simultaneous" };
  if (gm !== undefined) {
    const listed = gm as readonly PowerId[];
    // Powers the GM left out (they have no units) come last, in the variant's order.
    const rest = variant.powers.map((p) => p.id).filter((p) => !listed.includes(p));
    return { kind: "sequential", order: [...listed, ...rest], source: "gm" };
  }
  const order = generatedSchedule(
    variant.powers.map((p) => p.id),
    rules.scheduleSeed ?? 0,
    sequentialIndex(variant, phase, rules),
  );
  return { kind: "sequential", order, source: "generated" };
}

/**
 * Checks the sequential options against the variant and the position: known powers, a
 * schedule that lists every power with units. Returns what is wrong, or null.
 */
export function checkSequential(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
): string | null {
  const sequential = rules.movement === "sequential";
  if (!sequential && (rules.schedule !== undefined || rules.contracts !== undefined)) {
    return 'schedule and contracts are options of sequential movement: add "movement": "sequential"';
  }
  if (!sequential) return null;
  const known = new Set<string>(variant.powers.map((p) => p.id));
  const knownList = variant.powers.map((p) => p.id).join(", ");
  const unknown = (list: readonly string[], where: string): string | null => {
    const bad = list.find((p) => !known.has(p));
    return bad ? `${where}: unknown power "${bad}"; ${variant.id} has ${knownList}` : null;
  };
  const s = rules.schedule;
  const schedules: [string, SeasonSchedule][] =
    s === undefined ? [] : isPerSeason(s) ? Object.entries(s) : [[seasonKey(position.phase), s]];
  for (const [k, v] of schedules) {
    if (v === "simultaneous") continue;
    const e = unknown(v, `schedule ${k}`);
    if (e) return e;
  }
  const c = rules.contracts;
  const contracts: [string, Contracts][] =
    c === undefined ? [] : isPerSeason(c) ? Object.entries(c) : [[seasonKey(position.phase), c]];
  for (const [k, list] of contracts) {
    for (const pair of list) {
      const e = unknown(pair, `contracts ${k}`);
      if (e) return e;
    }
  }
  if (position.phase.type === "M") {
    const gm = gmSchedule(rules, seasonKey(position.phase));
    if (gm !== undefined && gm !== "simultaneous") {
      const missing = [...new Set(position.units.map((u) => u.power))].filter(
        (p) => !gm.includes(p),
      );
      if (missing.length > 0)
        return `the schedule of ${seasonKey(position.phase)} leaves out ${missing.join(", ")}, which ${missing.length === 1 ? "has" : "have"} units`;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// What players may read

/** `slot 2 of 7 (Germany's orders)`, and the like with a contract in the parentheses. */
const SLOT = String.raw`slot \d+ of \d+ \([^()]*\)`;

const HIDING: readonly (readonly [RegExp, string])[] = [
  [new RegExp(`; it held when its orders were resolved in ${SLOT}`, "g"), ""],
  [new RegExp(`; resolved in ${SLOT}`, "g"), ""],
  [new RegExp(`resolved in ${SLOT}(; )?`, "g"), ""],
  [new RegExp(`before its own turn in ${SLOT}`, "g"), "before its own turn"],
  [new RegExp(`support given in ${SLOT}, then`, "g"), "support given, then"],
  [new RegExp(` given from ${SLOT} on`, "g"), " given"],
  [new RegExp(`(^|; )in ${SLOT}: `, "g"), "$1in another turn: "],
  [new RegExp(` in ${SLOT}`, "g"), ""],
  [/ \(all orders resolved together: [A-Z]\d+ is a simultaneous season\)/g, ""],
  [
    /retrospective support has nothing to look back on in a simultaneous season/g,
    "retrospective support found no arrival to support",
  ],
  [new RegExp(SLOT, "g"), "its turn"],
];

/**
 * A result's reason or explanation without what it says of the schedule: the slots, whose
 * orders they were, the contracts that placed a unit in a slot, and whether the season was
 * simultaneous. A judge shows players these (the seed: "at no time will the players be
 * informed as to what the schedule was"); the outcome itself is unchanged.
 */
export function hideSchedule(text: string): string {
  let out = text;
  for (const [re, by] of HIDING) out = out.replace(re, by);
  return out;
}
