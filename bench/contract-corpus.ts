// A corpus for the public contract (docs/adjudicate-json.md), as a researcher makes one:
// positions from seeded random self-play on the classical map, each written as the contract's
// position JSON with every power's orders as text (the orders the game played there). Used by
// bench/contract.ts and src/cli/stream.test.ts. Deterministic for its arguments.

import { writePosition } from "../src/engine/position-json.ts";
import { ordersAsText } from "../src/engine/research-parsed.ts";
import { DATC_RULES } from "../src/engine/rules.ts";
import { selfPlayGame } from "../src/engine/selfplay.ts";
import { classicalScenarios } from "../src/variants/classical/scenarios.ts";

export interface CorpusOptions {
  /** How many positions (lines). */
  readonly lines: number;
  /** The first game's seed; game g plays seed + g. */
  readonly seed?: number;
  /** `movement` (default): the movement phases only; `all`: retreats and adjustments too. */
  readonly phases?: "movement" | "all";
  /** The first year taken (default 1903: mid-game, the opening's quiet years left out). */
  readonly fromYear?: number;
  /** The last year played (default 1915). */
  readonly untilYear?: number;
}

/**
 * The corpus's lines, one JSON object each (no newline), made as they are consumed: a long
 * corpus is never held whole.
 */
export function* contractCorpus(opts: CorpusOptions): Generator<string> {
  const scenario = classicalScenarios[0]!;
  const { variant } = scenario;
  const fromYear = opts.fromYear ?? 1903;
  const untilYear = opts.untilYear ?? 1915;
  let made = 0;
  for (let g = 0; made < opts.lines; g++) {
    const lines: string[] = [];
    selfPlayGame({
      scenario,
      rules: DATC_RULES,
      seed: (opts.seed ?? 1) + g,
      untilYear,
      keepRecord: false,
      onPhase: (before, _played, chosen) => {
        const { phase } = before.position;
        if (phase.year < fromYear) return;
        if (opts.phases !== "all" && phase.type !== "M") return;
        const orders = Object.fromEntries(ordersAsText(chosen));
        lines.push(JSON.stringify({ ...writePosition(variant, before.position), orders }));
      },
    });
    for (const line of lines) {
      if (made >= opts.lines) return;
      made++;
      yield line;
    }
  }
}

/** Lines a researcher's input also has: each wrong in its own way, or read with tolerance. */
export const ODD_LINES: readonly string[] = [
  "{not json",
  "42",
  "[1, 2",
  "",
  "   ",
  JSON.stringify({ variant: "nowhere", phase: "S1901M", units: {} }),
  JSON.stringify({ variant: "classical", phase: "S1901M", units: { england: ["A nth"] } }),
  JSON.stringify({ variant: "classical", phase: "W1901A", units: { france: ["A par"] } }),
  JSON.stringify({ variant: "classical", phase: "S1901M", units: {}, rules: { nope: 1 } }),
  `{"variant":"classical","phase":"S1901M","units":{},"rules":{"convoyParadox":${"[".repeat(1200)}${"]".repeat(1200)}}}`,
  JSON.stringify({
    variant: "classical",
    phase: "S1901M",
    units: { france: ["A par", "A mar", "F bre"], germany: ["A mun"] },
    orders: {
      france: ["A Paris - Burgundy", "A mar S A par - bur", "F bre - xyz", "F bre H"],
      germany: ["A mun - bur", "A ber - sil"],
    },
  }),
  JSON.stringify({
    variant: "classical",
    phase: "S1901M",
    rules: "houserules",
    units: { france: ["A par", "A mar"], italy: ["A ven"] },
    orders: { france: ["A par - Burgndy", "A mar S A par - Bur"], italy: ["A ven - pie"] },
  }),
];

/**
 * The corpus with one of ODD_LINES after every `every` positions, in turn, and some lines
 * ended "\r\n": what the contract must answer byte for byte as it always has.
 */
export function* mixedCorpus(opts: CorpusOptions & { readonly every: number }): Generator<string> {
  let i = 0;
  for (const line of contractCorpus(opts)) {
    yield i % 7 === 3 ? `${line}\r` : line;
    i++;
    if (i % opts.every === 0) yield ODD_LINES[(i / opts.every - 1) % ODD_LINES.length]!;
  }
}
