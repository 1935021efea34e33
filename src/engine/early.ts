/*
 * Orders sent early (seed 002 II(5), Alternative C): "You can submit retreat/adjustment
 * orders early; at the deadline, I use the last submitted orders" - even years ahead ("submit
 * your fall 1914 retreat orders in 1901"). The judge stores each early set with the phase it
 * is for; when that phase comes, this picks each power's last set for it and keeps the orders
 * that are still valid on the board.
 */

import { makeContext } from "./interpret.ts";
import { parseOrder } from "./parse.ts";
import { parsePhase } from "./phase.ts";
import { parseOptionsFor, readOrders } from "./reading.ts";
import type { RuleOptions } from "./rules.ts";
import type { Phase, Position, PowerId } from "./types.ts";
import type { Variant } from "./variant.ts";

export interface EarlyOrderSet {
  readonly power: PowerId;
  /**
   * The phase the orders are for: `U1914R` or `S1914R` (spring retreats), `W1914R` or
   * `F1914R` (fall retreats, with the winter adjustments), `W1914A` (adjustments).
   */
  readonly phase: string;
  /** The order lines, as written. */
  readonly orders: readonly string[];
  /** When it was received (any increasing number): a later set replaces an earlier one whole. */
  readonly received: number;
}

export interface EarlyOrdersUsed {
  /** Per power, the orders of its last set for this phase that are still valid. */
  readonly orders: ReadonlyMap<PowerId, readonly string[]>;
  /** Per power, when the set used was received (to compare with orders sent for the phase). */
  readonly received: ReadonlyMap<PowerId, number>;
  /** Orders of those sets left out, with why. */
  readonly dropped: readonly { power: PowerId; text: string; reason: string }[];
  /** Sets for phases still to come; the judge keeps them. */
  readonly later: readonly EarlyOrderSet[];
  /** Sets that can never be used: for a phase now past, or not a retreat or adjustment phase. */
  readonly unusable: readonly { set: EarlyOrderSet; reason: string }[];
}

/** Which phase of a year's orders a retreat or adjustment phase is: after spring or after fall. */
function slot(p: Phase): "spring" | "fall" | null {
  if (p.type === "M") return null;
  if (p.type === "R" && (p.season === "S" || p.season === "U")) return "spring";
  if (p.type === "R" && (p.season === "F" || p.season === "W")) return "fall";
  if (p.type === "A") return "fall";
  return null;
}

/** Half-years: a year's spring (movement and retreats), then its fall (and winter). */
const when = (p: Phase): number => p.year * 2 + (p.season === "F" || p.season === "W" ? 1 : 0);

/**
 * The early orders for the phase of `position`: per power, the last set received for it
 * (named by either season naming), keeping only the orders still valid now. Movement phases
 * take no early orders.
 */
export function earlyOrdersFor(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
  sets: readonly EarlyOrderSet[],
): EarlyOrdersUsed {
  const now = position.phase;
  const nowSlot = slot(now);
  const latest = new Map<PowerId, EarlyOrderSet>();
  const later: EarlyOrderSet[] = [];
  const unusable: { set: EarlyOrderSet; reason: string }[] = [];
  for (const set of sets) {
    const target = parsePhase(set.phase);
    const targetSlot = target ? slot(target) : null;
    if (!target || targetSlot === null) {
      unusable.push({
        set,
        reason: `early orders are for retreat and adjustment phases only, not "${set.phase}"`,
      });
      continue;
    }
    // A movement phase comes before the retreats of its half-year.
    const t = when(target);
    const n = when(now);
    if (nowSlot === null ? t >= n : t > n) {
      later.push(set);
      continue;
    }
    if (nowSlot === null || t < n) {
      unusable.push({ set, reason: `${set.phase} is past` });
      continue;
    }
    const prev = latest.get(set.power);
    if (!prev || set.received >= prev.received) latest.set(set.power, set);
  }

  const orders = new Map<PowerId, string[]>();
  const received = new Map<PowerId, number>();
  const dropped: { power: PowerId; text: string; reason: string }[] = [];
  const combined = now.season === "W" && now.type === "R";
  const ctxR = makeContext(variant, position, rules);
  // In the combined winter phase adjustments are read as for the adjustment phase.
  const ctxA = combined
    ? makeContext(variant, { ...position, phase: { ...now, type: "A" } }, rules)
    : ctxR;
  const options = parseOptionsFor(rules);
  for (const [power, set] of latest) {
    received.set(power, set.received);
    const kept: string[] = [];
    const adjustment = set.orders.map((text) => {
      if (!combined) return false;
      const p = parseOrder(text, variant.map, variant.powers, options);
      if (!p.ok) return false;
      const k = p.order.kind;
      const subject = "unit" in p.order ? p.order.unit.province : null;
      const dislodged = position.dislodged.some((d) => d.power === power && d.province === subject);
      return k === "build" || k === "waive" || ((k === "remove" || k === "disband") && !dislodged);
    });
    const rs = readOrders(
      ctxR,
      power,
      set.orders.filter((_, k) => !adjustment[k]),
    );
    const as = readOrders(
      ctxA,
      power,
      set.orders.filter((_, k) => adjustment[k]),
    );
    let ri = 0;
    let ai = 0;
    set.orders.forEach((text, k) => {
      const r = adjustment[k] ? as[ai++]! : rs[ri++]!;
      const it = r.interpretation;
      if (it?.ok) {
        kept.push(text);
        return;
      }
      // A build in the combined phase may become possible after the retreats change centres.
      if (adjustment[k] && it && /do not own/.test(it.reason)) {
        kept.push(text);
        return;
      }
      const reason = r.error
        ? r.error.message
        : it === null
          ? `ambiguous: ${r.ambiguous.join("; or ")}`
          : it.reason;
      dropped.push({ power, text, reason });
    });
    orders.set(power, kept);
  }
  return { orders, received, dropped, later, unusable };
}
