/**
 * One phase, adjudicated: orders as text in, results and the next position out (`adjudicate`;
 * `adjudicateParsed` for structured orders, the typed path). This is the engine's whole
 * public surface for a phase; everything it needs comes in as arguments. Here: reading the
 * orders into entries, seed 002's winter phase (retreats and adjustments in one), and the
 * phase's kind; the phases themselves are `movement-phase.ts`, `retreats.ts` and
 * `adjustments.ts`, over `entries.ts`; what they answer is `results.ts`.
 */

import { adjustmentPhase } from "./adjustments.ts";
import { type Entry, makeEntry } from "./entries.ts";
import { type InterpretContext, interpretOrder, makeContext } from "./interpret.ts";
import { movementPhase } from "./movement-phase.ts";
import type { ParsedOrder } from "./orders.ts";
import { parseOrder } from "./parse.ts";
import { ambiguityReason, parseOptionsFor, readOrders } from "./reading.ts";
import {
  type AdjudicateOptions,
  makeResult,
  type OrderResult,
  type OrderTexts,
  type PhaseResult,
} from "./results.ts";
import { retreatPhase } from "./retreats.ts";
import type { RuleOptions } from "./rules.ts";
import { makePhase, withPhase } from "./shapes.ts";
import type { Position, PowerId } from "./types.ts";
import type { Variant } from "./variant.ts";

/**
 * What adjudicates one phase from orders in one form: texts (`adjudicate`) or structured
 * values (`adjudicateParsed`). Both are the one `adjudicating` over their `OrderForm`.
 */
export type Adjudicator<O> = (
  variant: Variant,
  position: Position,
  orders: O,
  rules: RuleOptions,
  options?: AdjudicateOptions,
) => PhaseResult;

/** Orders per power as structured values, already read: the typed path, with no text. */
export type ParsedOrderSets = ReadonlyMap<PowerId, readonly ParsedOrder[]>;

/** Orders per power, each in one form `T`. */
type OrderSets<T> = ReadonlyMap<PowerId, readonly T[]>;

/** How orders of one form come into a phase: all a form changes in adjudicating them. */
interface OrderForm<T> {
  /** What each order is, for the winter phase to sort (null: it does not read as one). */
  readonly reader: (variant: Variant, rules: RuleOptions) => (order: T) => ParsedOrder | null;
  /** The orders read and interpreted into `entries`; what the reader noted on them. */
  readonly read: (
    ctx: InterpretContext,
    orders: OrderSets<T>,
    entries: Entry[],
  ) => ReadonlyMap<Entry, string> | null;
  /** A movement phase of a variant with its own movement orders (`Variant.movement`). */
  readonly own: (
    variant: Variant,
    position: Position,
    orders: OrderSets<T>,
    one: (position: Position, orders: OrderSets<T>) => PhaseResult,
  ) => PhaseResult;
}

/**
 * The adjudicator of a form: seed 002's winter phase, a variant's own movement orders, or one
 * phase that is a movement, a retreat or an adjustment phase.
 */
function adjudicating<T>(form: OrderForm<T>): Adjudicator<OrderSets<T>> {
  const one: Adjudicator<OrderSets<T>> = (variant, position, orders, rules, options = {}) => {
    const ctx = makeContext(variant, position, rules);
    const entries: Entry[] = [];
    const notes = form.read(ctx, orders, entries);
    return withMerged(entries, notes, phaseOf(variant, ctx, entries, options));
  };
  return (variant, position, orders, rules, options = {}) => {
    if (position.phase.season === "W" && position.phase.type === "R")
      return winterPhase(position, orders, form.reader(variant, rules), (pos, o) =>
        one(variant, pos, o, rules),
      );
    if (variant.movement && position.phase.type === "M")
      return form.own(variant, position, orders, (p, o) => one(variant, p, o, rules, options));
    return one(variant, position, orders, rules, options);
  };
}

/** Orders as text, read with the rules' tolerances (reading.ts); corrections noted. */
const texts: OrderForm<string> = {
  reader: (variant, rules) => {
    const reading = parseOptionsFor(rules);
    return (text) => {
      const p = parseOrder(text, variant.map, variant.powers, reading);
      return p.ok ? p.order : null;
    };
  },
  read: (ctx, orders, entries) => {
    const notes = new Map<Entry, string>();
    for (const [power, texts] of orders) {
      for (const r of readOrders(ctx, power, texts)) {
        const { text, subject } = r;
        const moveOrdered = r.parsed?.kind === "move";
        const it = r.interpretation;
        let e: Entry;
        if (it === null) {
          const reason = r.error ? r.error.message : ambiguityReason(r);
          e = makeEntry(power, text, null, moveOrdered, null, "invalid", reason);
        } else if (it.ok)
          e = makeEntry(power, text, subject, moveOrdered, it.order, "succeeds", null);
        else e = makeEntry(power, text, subject, moveOrdered, null, "invalid", it.reason);
        entries.push(e);
        if (r.notes.length > 0) notes.set(e, r.notes.join("; "));
      }
    }
    return notes;
  },
  own: (variant, position, orders, one) => variant.movement!(position, orders, one),
};

/** Orders as structured values: interpreted against the board, never parsed. */
const values: OrderForm<ParsedOrder> = {
  reader: () => (p) => p,
  read: (ctx, orders, entries) => {
    for (const [power, list] of orders) {
      for (const p of list) {
        const it = interpretOrder(ctx, power, p);
        const subject = p.kind === "build" || p.kind === "waive" ? null : p.unit.province;
        entries.push(
          it.ok
            ? makeEntry(power, null, subject, p.kind === "move", it.order, "succeeds", null)
            : makeEntry(power, null, subject, p.kind === "move", null, "invalid", it.reason),
        );
      }
    }
    return null;
  },
  own: (variant) => {
    throw new Error(`${variant.id} has its own movement orders: adjudicate them as text`);
  },
};

/** One phase adjudicated from orders as text. */
export const adjudicate: Adjudicator<OrderTexts> = adjudicating(texts);

/**
 * `adjudicate` for orders given as structured values (the research API's typed path):
 * nothing is formatted or parsed; each order is interpreted against the board as a read text
 * would be, so the results are those of the same orders written out, with `text` null. A
 * variant with its own movement orders (`Variant.movement`) reads texts: give it texts.
 */
export const adjudicateParsed: Adjudicator<ParsedOrderSets> = adjudicating(values);

/**
 * Seed 002 II(5) Alternative C: the winter phase (`W1901R`) takes the fall retreats and the
 * adjustments in one set of orders. Retreats are processed first, then centres change hands,
 * then the adjustments, counted on the board the retreats left. An order naming a dislodged
 * unit is a retreat order; builds, waives and removals of other units are adjustments.
 */
function winterPhase<T>(
  position: Position,
  orders: OrderSets<T>,
  read: (order: T) => ParsedOrder | null,
  one: (position: Position, orders: OrderSets<T>) => PhaseResult,
): PhaseResult {
  const retreats = new Map<PowerId, T[]>();
  const adjustments = new Map<PowerId, T[]>();
  const groups: { power: PowerId; adjustment: boolean }[] = [];
  for (const [power, texts] of orders) {
    retreats.set(power, []);
    adjustments.set(power, []);
    for (const text of texts) {
      const p = read(text);
      const kind = p ? p.kind : null;
      const subject = p && "unit" in p ? p.unit.province : null;
      const dislodged = position.dislodged.some((d) => d.power === power && d.province === subject);
      const adjustment =
        kind === "build" ||
        kind === "waive" ||
        ((kind === "remove" || kind === "disband") && !dislodged);
      (adjustment ? adjustments : retreats).get(power)!.push(text);
      groups.push({ power, adjustment });
    }
  }
  const first = one(position, retreats);
  const after = first.next;
  const year = position.phase.year;
  const needsAdjusting = after.phase.season === "W" && after.phase.type === "A";
  const anyAdjustment = groups.some((g) => g.adjustment);
  const second =
    needsAdjusting || anyAdjustment
      ? one(withPhase(after, makePhase("W", year, "A")), adjustments)
      : null;
  // One entry per order given, in the order given; then the units that got none.
  const nRetreat = groups.filter((g) => !g.adjustment).length;
  const nAdjust = groups.length - nRetreat;
  const given = [first.results.slice(0, nRetreat), second?.results.slice(0, nAdjust) ?? []];
  const cursor = [0, 0];
  const results: OrderResult[] = groups.map((g) => {
    const k = g.adjustment ? 1 : 0;
    return given[k]![cursor[k]!++]!;
  });
  results.push(...first.results.slice(nRetreat), ...(second?.results.slice(nAdjust) ?? []));
  return {
    phase: position.phase,
    results,
    next: second ? second.next : after,
    winner: first.winner,
    dislodged: [],
  };
}

/**
 * Identical orders merged into one (seed 002 III(6)) come out as the order they repeat;
 * what the reader corrected is said in the explanation.
 */
function withMerged(
  entries: readonly Entry[],
  notes: ReadonlyMap<Entry, string> | null,
  result: PhaseResult,
): PhaseResult {
  if ((notes === null || notes.size === 0) && !entries.some((e) => e.sameAs)) return result;
  const results = result.results.map((o, k): OrderResult => {
    const e = entries[k];
    if (!e || k >= entries.length) return o;
    const kept = e.sameAs ? result.results[entries.indexOf(e.sameAs)] : undefined;
    const out = kept
      ? makeResult(kept.power, e.text, kept.order, kept.result, kept.reason, kept.explanation)
      : o;
    const note = notes?.get(e);
    if (!note) return out;
    const explanation = `${out.explanation} (${note})`;
    return makeResult(out.power, out.text, out.order, out.result, out.reason, explanation);
  });
  return {
    phase: result.phase,
    results,
    next: result.next,
    winner: result.winner,
    dislodged: result.dislodged,
  };
}

function phaseOf(
  variant: Variant,
  ctx: InterpretContext,
  entries: Entry[],
  options: AdjudicateOptions,
): PhaseResult {
  switch (ctx.position.phase.type) {
    case "M":
      return movementPhase(variant, ctx, entries, options);
    case "R":
      return retreatPhase(variant, ctx, entries);
    case "A":
      return adjustmentPhase(variant, ctx, entries);
  }
}
