/**
 * Orders as the adjudicator takes them on the typed path: a typed order or an engine order as
 * the reader would have read its text (`parsedOf`, `parsedOfOrder`), orders as structured
 * sets per power (`parsedSets`) or as texts (`ordersAsText`, the text path of the same
 * orders), and a typed order written as a person would write it (`orderText`).
 */

import { formatOrder, type Order, type ParsedOrder, type UnitSpec } from "./orders.ts";
import { formatParsed } from "./orderset.ts";
import { type Board, coastOf, type TypedOrder } from "./research-board.ts";
import type { OrderTexts } from "./results.ts";
import type { Coast, PowerId, ProvinceId, UnitType } from "./types.ts";

/** A typed order as the reader would have read it from text (the board then judges it). */
export function parsedOf(board: Board, o: TypedOrder): ParsedOrder {
  const id = (i: number) => board.provinces[i]!;
  if (o.kind === "waive") return { kind: "waive" };
  const unit: UnitSpec = {
    type: o.unitType,
    province: id(o.unit),
    coast: coastOf(o.coast ?? 0),
    power: null,
  };
  const to = () => ({ province: id(o.to), coast: coastOf(o.toCoast ?? 0) });
  switch (o.kind) {
    case "hold":
      return { kind: "hold", unit };
    case "move":
    case "retreat":
      return { kind: "move", unit, to: to(), viaConvoy: o.kind === "move" && o.viaConvoy === true };
    case "support":
      return {
        kind: "support",
        unit,
        supported: { type: o.targetType, province: id(o.target), coast: null, power: null },
        to: o.to === -1 ? null : to(),
      };
    case "convoy":
      return {
        kind: "convoy",
        unit,
        convoyed: { type: o.targetType ?? "A", province: id(o.target), coast: null, power: null },
        to: to(),
      };
    case "disband":
      return { kind: "disband", unit };
    case "remove":
      return { kind: "remove", unit };
    case "build":
      return {
        kind: "build",
        unitType: o.unitType,
        location: { province: id(o.unit), coast: coastOf(o.coast ?? 0) },
      };
  }
}

/** An engine order as the reader would have read its text (`formatOrder`) back. */
const spec = (u: {
  readonly type: UnitType;
  readonly province: ProvinceId;
  readonly coast: Coast | null;
}): UnitSpec => ({ type: u.type, province: u.province, coast: u.coast, power: null });

export function parsedOfOrder(o: Order): ParsedOrder {
  switch (o.kind) {
    case "waive":
      return { kind: "waive" };
    case "hold":
      return { kind: "hold", unit: spec(o.unit) };
    case "move":
      return { kind: "move", unit: spec(o.unit), to: o.to, viaConvoy: o.viaConvoy };
    case "retreat":
      return { kind: "move", unit: spec(o.unit), to: o.to, viaConvoy: false };
    case "support": {
      const supported: UnitSpec = {
        type: o.targetType,
        province: o.target,
        coast: null,
        power: null,
      };
      const to = o.to === null ? null : { province: o.to, coast: null };
      // Written out, not spread: a spread literal is built by a slow generic copy.
      if (o.arrived) return { kind: "support", unit: spec(o.unit), supported, to, arrived: true };
      return { kind: "support", unit: spec(o.unit), supported, to };
    }
    case "convoy":
      return {
        kind: "convoy",
        unit: spec(o.unit),
        convoyed: { type: o.targetType, province: o.from, coast: null, power: null },
        to: { province: o.to, coast: null },
      };
    case "disband":
      return { kind: "disband", unit: spec(o.unit) };
    case "remove":
      // `remove stp/sc`: the text names no unit type.
      return {
        kind: "remove",
        unit: { type: null, province: o.unit.province, coast: o.unit.coast, power: null },
      };
    case "build":
      return {
        kind: "build",
        unitType: o.unit.type,
        location: { province: o.unit.province, coast: o.unit.coast },
      };
  }
}

/** A typed order written as text (`A lon - nth`), as a person would write it. */
export function orderText(board: Board, o: TypedOrder): string {
  return formatParsed(parsedOf(board, o));
}

/** Engine orders as structured orders per power, in the order given (the typed path). */
export function parsedSets(orders: readonly Order[]): Map<PowerId, ParsedOrder[]> {
  const sets = new Map<PowerId, ParsedOrder[]>();
  for (const o of orders) {
    const power = o.kind === "waive" ? o.power : o.unit.power;
    const list = sets.get(power);
    const p = parsedOfOrder(o);
    if (list) list.push(p);
    else sets.set(power, [p]);
  }
  return sets;
}

/** Orders as text per power (the text path of the same orders). */
export function ordersAsText(orders: readonly Order[]): OrderTexts {
  const out = new Map<PowerId, string[]>();
  for (const o of orders) {
    const power = o.kind === "waive" ? o.power : o.unit.power;
    const list = out.get(power);
    if (list) list.push(formatOrder(o));
    else out.set(power, [formatOrder(o)]);
  }
  return out;
}
