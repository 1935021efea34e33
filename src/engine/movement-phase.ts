/**
 * A movement phase over entries: one order per unit, impossible convoys set aside, the
 * resolver (`movement.ts`, or `sequential.ts` for seed 003), dislodged units and the board
 * after it, and the results with their explanations.
 */

import { dedupe, type Entry, finish, unitKey } from "./entries.ts";
import { minusOneList } from "./filled.ts";
import { type InterpretContext, makeContext } from "./interpret.ts";
import type { GameMap } from "./map.ts";
import { boardAfter, movementWords, resolveMovement } from "./movement.ts";
import { provinceIndex } from "./movement-board.ts";
import { isMovementOrder, type MovementOrder } from "./orders.ts";
import { phaseAfterMovement } from "./phase.ts";
import { impossibleConvoy } from "./reading.ts";
import {
  type AdjudicateOptions,
  MovementOrderResult,
  makeResult,
  type OrderResult,
  type PhaseResult,
} from "./results.ts";
import { afterRetreats, retreatsIn } from "./retreats.ts";
import { resolveSequential } from "./sequential.ts";
import { makePosition } from "./shapes.ts";
import type { DislodgedUnit, Location, ProvinceId } from "./types.ts";
import type { Variant } from "./variant.ts";

/** Per map: scratch per province, the index of the position's unit there (-1: none). */
const unitSlots = new WeakMap<GameMap, Int32Array>();

/**
 * The duplicate-order rule for a movement phase where no unit was ordered twice (the usual
 * case): each unit of the position (by index) with the index of the entry ordering it, or
 * -1. Null when a unit was ordered more than once, or an order names no unit of the position
 * (by power and province), or two units share a province: `dedupe` decides those. Either
 * way `place` is given each unit's province index (`provinceIndex`; -1: none).
 */
function chosenByUnit(
  ctx: InterpretContext,
  entries: readonly Entry[],
  place: number[],
): number[] | null {
  const { units } = ctx.position;
  const index = provinceIndex(ctx.map);
  let slot = unitSlots.get(ctx.map);
  if (slot === undefined) {
    slot = new Int32Array(ctx.map.provinces.length).fill(-1);
    unitSlots.set(ctx.map, slot);
  }
  let ok = true;
  for (let k = 0; k < units.length; k++) {
    const p = index.get(units[k]!.province) ?? -1;
    place[k] = p;
    if (p === -1 || slot[p] !== -1) ok = false;
    else slot[p] = k;
  }
  const chosen = minusOneList(units.length);
  for (let j = 0; ok && j < entries.length; j++) {
    const o = entries[j]!.order;
    if (!o || o.kind === "waive" || o.kind === "build") continue;
    const p = index.get(o.unit.province);
    const k = p === undefined ? -1 : slot[p]!;
    if (k === -1 || units[k]!.power !== o.unit.power || chosen[k] !== -1) ok = false;
    else chosen[k] = j;
  }
  // The scratch is left as it was found: all -1.
  for (let k = 0; k < units.length; k++) {
    const p = place[k]!;
    if (p !== -1 && slot[p] === k) slot[p] = -1;
  }
  return ok ? chosen : null;
}
/**
 * An army ordered to a province it cannot reach over land needs fleets that could carry it
 * (DATC 4.E.1: without any, the move is impossible and the army holds): such an order is
 * set aside. (Module functions, not ones made per phase: tsx makes every named inner
 * function cost a property definition each time it is made.)
 */
function setAsideImpossible(ctx: InterpretContext, e: Entry): boolean {
  const why = e.order ? impossibleConvoy(ctx, e.order) : null;
  if (why === null) return false;
  e.result = "invalid";
  e.reason = why;
  e.order = null;
  return true;
}

/** A power nobody plays does not retreat: its dislodged units are disbanded at once. */
const disbandedAtOnce = (table: AdjudicateOptions, d: DislodgedUnit): boolean =>
  table.disbandDislodged?.has(d.power) === true;

export function movementPhase(
  variant: Variant,
  ctx: InterpretContext,
  entries: Entry[],
  table: AdjudicateOptions,
): PhaseResult {
  const { position, rules, map } = ctx;

  // Seed 002 III(6): illegal orders are set aside before deciding whether a unit was ordered
  // more than once. (Other duplicate rules take the order they name, legal or not.)
  // (Then every order left was checked: the duplicate rule sets orders aside, never adds.)
  const checked = rules.duplicateOrders === "hold";
  if (checked) for (const e of entries) setAsideImpossible(ctx, e);
  // Per unit of the position (by index), the entry whose order it follows, or -1.
  // Each unit's province index, for the resolver too: the order for unit k (or its hold)
  // names unit k, so its province is the unit's.
  const place = minusOneList(position.units.length);
  let chosen = chosenByUnit(ctx, entries, place);
  if (chosen !== null) {
    for (let k = 0; !checked && k < chosen.length; k++) {
      const e = chosen[k] === -1 ? null : entries[chosen[k]!]!;
      if (e?.order && e.order.kind !== "waive" && setAsideImpossible(ctx, e)) chosen[k] = -1;
    }
  } else {
    // A unit ordered more than once: the duplicate-order rule, keyed by power and province.
    const byKey = dedupe(entries, rules);
    for (const e of byKey.values()) {
      const o = e.order;
      if (o && o.kind !== "waive" && setAsideImpossible(ctx, e)) byKey.delete(unitKey(o.unit));
    }
    chosen = position.units.map((u) => {
      const e = byKey.get(unitKey(u));
      return e === undefined ? -1 : entries.indexOf(e);
    });
  }

  const orders: MovementOrder[] = [];
  const owner: (Entry | null)[] = [];
  // Per entry, the unit whose order it is (-1: none; invalid or set aside).
  const unitOf = minusOneList(entries.length);
  // Seed 002 III(5) (`supportHoldAfterIllegalMove: false`): a unit its power ordered to move,
  // even impossibly, receives no support to hold.
  const movers = new Set<ProvinceId>();
  if (!rules.supportHoldAfterIllegalMove) {
    for (const e of entries) {
      const own = e.subject === null ? undefined : ctx.unitAt.get(e.subject);
      if (e.moveOrdered && e.result === "invalid" && !e.duplicate && own?.power === e.power)
        movers.add(own.province);
    }
  }
  for (let k = 0; k < position.units.length; k++) {
    const unit = position.units[k]!;
    const j = chosen[k]!;
    const e = j === -1 ? null : entries[j]!;
    if (e?.order && isMovementOrder(e.order)) orders.push(e.order);
    else if (movers.size > 0 && movers.has(unit.province))
      orders.push({ kind: "hold", unit, moveOrdered: true });
    else orders.push({ kind: "hold", unit });
    owner.push(e);
    if (e?.order) unitOf[j] = k;
  }
  // Seed 003: sequential movement resolves the powers one by one (docs/sequential.md).
  const seq =
    rules.movement === "sequential" ? resolveSequential(variant, position, orders, rules) : null;
  const res = seq ?? resolveMovement(map, orders, rules, place);
  const words = movementWords(res);

  const results: OrderResult[] = [];
  // Made only when an order was invalid or set aside (random legal play has none).
  let unitIndex: Map<string, number> | null = null;
  for (let j = 0; j < entries.length; j++) {
    const e = entries[j]!;
    const i = unitOf[j]!;
    if (i === -1) {
      // Invalid or set aside: the unit holds; say so when that hold was dislodged.
      unitIndex ??= new Map(position.units.map((u, k) => [u.province as string, k]));
      const ui = e.subject === null ? undefined : unitIndex.get(e.subject);
      const unit = ui === undefined ? undefined : position.units[ui];
      const by = ui === undefined ? -1 : res.dislodgedBy[ui]!;
      const extra =
        unit?.power === e.power && by !== -1 ? `; the unit held and was ${words.reason(ui!)}` : "";
      const reason = `${e.reason}${extra}`;
      results.push({
        power: e.power,
        text: e.text,
        order: e.order,
        result: e.result,
        reason,
        explanation: reason,
      });
      continue;
    }
    const result = res.success[i] ? "succeeds" : "fails";
    results.push(new MovementOrderResult(e.power, e.text, e.order, result, words, i));
  }
  position.units.forEach((unit, i) => {
    if (owner[i]) return;
    const result = res.success[i] ? "succeeds" : "fails";
    results.push(new MovementOrderResult(unit.power, null, orders[i]!, result, words, i));
  });

  const { units, dislodged } = boardAfter(orders, res);
  // Sequential movement keeps its own board: a unit may move, then be dislodged where it went.
  const board = seq ?? { units, dislodged };
  const after = makePosition(
    phaseAfterMovement(position.phase, rules),
    board.units,
    board.dislodged.filter((d) => !disbandedAtOnce(table, d)),
    res.contested,
    position.centers,
  );
  // One reading of the position after, for every dislodged unit's retreats.
  let afterCtx: InterpretContext | null = null;
  const options: { unit: DislodgedUnit; retreats: readonly Location[] }[] = [];
  for (const unit of board.dislodged) {
    if (disbandedAtOnce(table, unit)) options.push({ unit, retreats: [] });
    else {
      afterCtx ??= makeContext(variant, after, rules);
      options.push({ unit, retreats: retreatsIn(afterCtx, unit) });
    }
  }
  for (const d of board.dislodged.filter((x) => disbandedAtOnce(table, x))) {
    const name = variant.powers.find((p) => p.id === d.power)?.name ?? d.power;
    const i = results.findIndex(
      (r) =>
        r.power === d.power &&
        r.order !== null &&
        "unit" in r.order &&
        r.order.unit.province === d.province,
    );
    const r = results[i];
    if (r)
      results[i] = makeResult(
        r.power,
        r.text,
        r.order,
        r.result,
        r.reason,
        `${r.explanation}; disbanded at once: nobody plays ${name}, so it does not retreat`,
      );
  }
  const anyRetreat = options.some((d) => d.retreats.length > 0);
  const next = anyRetreat
    ? after
    : afterRetreats(variant, makePosition(after.phase, after.units, [], [], after.centers), rules);
  return finish(variant, position, results, next, options);
}
