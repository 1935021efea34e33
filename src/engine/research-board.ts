/**
 * The research API's typed orders and board (docs/research.md): `TypedOrder` (a flat order
 * with integer province and power ids), `Board` (the map as integer ids and typed arrays,
 * built once per variant), an engine order as a typed order (`typedOrder`), and the check of a
 * typed order's fields (`checkTypedOrder`).
 */

import type { Order } from "./orders.ts";
import type { Scenario } from "./scenario.ts";
import { COASTS, type Coast, type PowerId, type ProvinceId, type UnitType } from "./types.ts";

/** What an order does. `retreat` is a move in a retreat phase. */
export type OrderKind =
  | "hold"
  | "move"
  | "support"
  | "convoy"
  | "retreat"
  | "disband"
  | "build"
  | "remove"
  | "waive";

/**
 * One order, flat: the same fields for every kind (unused ones -1, `false` or null), so that
 * an agent can build, store and compare them cheaply. Provinces and powers are integer ids:
 * indices into `Board.provinces` and `Board.powers`. Coasts are 0 (none) or 1 + the index in
 * `COASTS` (`nc` 1, `sc` 2, `ec` 3, `wc` 4).
 */
export interface TypedOrder {
  readonly kind: OrderKind;
  /** The ordering power. */
  readonly power: number;
  /** The ordered unit's province; for a build the centre; -1 for a waive. */
  readonly unit: number;
  /** The ordered (or built) unit's type; null for a waive. */
  readonly unitType: UnitType | null;
  /** The ordered (or built) fleet's coast in a split-coast province, else 0. */
  readonly coast: number;
  /** Support and convoy: the province of the supported or convoyed unit; else -1. */
  readonly target: number;
  /** Support and convoy: that unit's type; else null. */
  readonly targetType: UnitType | null;
  /** Move, retreat, convoy, support to move: where to; -1 for none (hold, support to hold). */
  readonly to: number;
  /** The coast of `to` (moves and retreats of fleets, a support naming one), else 0. */
  readonly toCoast: number;
  /** A move that asks to go by convoy (`via convoy`). */
  readonly viaConvoy: boolean;
}

/** The map as integer ids and typed arrays, built once per variant. */
export interface Board {
  /** Province ids (`lon`); a province's integer id is its index here. */
  readonly provinces: readonly ProvinceId[];
  /** Power ids (`england`); a power's integer id is its index here. */
  readonly powers: readonly PowerId[];
  /** Per province: 0 land (inland), 1 sea, 2 coast. */
  readonly kind: Uint8Array;
  /** Per province: 1 for a supply centre. */
  readonly supplyCenter: Uint8Array;
  /** Per province: the power whose home centre it is, or -1. */
  readonly home: Int8Array;
  /** Army adjacency as compressed rows: neighbours of p are `armyTo[armyStart[p] .. armyStart[p+1]]`. */
  readonly armyStart: Int32Array;
  readonly armyTo: Int32Array;
  /** Fleet adjacency by province (any coast), compressed rows as for armies. */
  readonly fleetStart: Int32Array;
  readonly fleetTo: Int32Array;
  /** A province's integer id, or -1. */
  provinceIndex(id: string): number;
  /** A power's integer id, or -1. */
  powerIndex(id: string): number;
}

const boards = new WeakMap<object, Board>();

/** The variant's board as integer ids and typed arrays (cached per map). */
export function boardOf(scenario: Scenario): Board {
  const { variant } = scenario;
  const cached = boards.get(variant.map);
  if (cached && cached.powers.length === variant.powers.length) return cached;
  const map = variant.map;
  const provinces = map.provinces.map((p) => p.id);
  const powers = variant.powers.map((p) => p.id);
  const pIndex = new Map<string, number>(provinces.map((id, i) => [id, i]));
  const wIndex = new Map<string, number>(powers.map((id, i) => [id, i]));
  const n = provinces.length;
  const kind = new Uint8Array(n);
  const supplyCenter = new Uint8Array(n);
  const home = new Int8Array(n).fill(-1);
  const army: number[][] = [];
  const fleet: number[][] = [];
  map.provinces.forEach((p, i) => {
    kind[i] = p.kind === "land" ? 0 : p.kind === "sea" ? 1 : 2;
    supplyCenter[i] = p.supplyCenter ? 1 : 0;
    home[i] = p.home === null ? -1 : (wIndex.get(p.home) ?? -1);
    army.push(map.armyNeighbours(p.id).map((q) => pIndex.get(q)!));
    const reach = new Set<number>();
    const coasts: (Coast | null)[] = p.coasts.length > 0 ? [...p.coasts] : [null];
    if (p.kind !== "land")
      for (const c of coasts)
        for (const l of map.fleetNeighbours({ province: p.id, coast: c }))
          reach.add(pIndex.get(l.province)!);
    fleet.push([...reach]);
  });
  const rows = (lists: number[][]): [Int32Array, Int32Array] => {
    const start = new Int32Array(n + 1);
    lists.forEach((l, i) => {
      start[i + 1] = start[i]! + l.length;
    });
    return [start, Int32Array.from(lists.flat())];
  };
  const [armyStart, armyTo] = rows(army);
  const [fleetStart, fleetTo] = rows(fleet);
  const board: Board = {
    provinces,
    powers,
    kind,
    supplyCenter,
    home,
    armyStart,
    armyTo,
    fleetStart,
    fleetTo,
    provinceIndex: (id) => pIndex.get(id) ?? -1,
    powerIndex: (id) => wIndex.get(id) ?? -1,
  };
  boards.set(map, board);
  return board;
}

export const coastOf = (i: number): Coast | null => (i === 0 ? null : (COASTS[i - 1] ?? null));
const coastIndex = (c: Coast | null): number => (c === null ? 0 : 1 + COASTS.indexOf(c));

/** An engine order (as the legal-order generator and the results give it) as a typed order. */
export function typedOrder(board: Board, o: Order): TypedOrder {
  const P = (id: string) => board.provinceIndex(id);
  if (o.kind === "waive")
    return {
      kind: "waive",
      power: board.powerIndex(o.power),
      unit: -1,
      unitType: null,
      coast: 0,
      target: -1,
      targetType: null,
      to: -1,
      toCoast: 0,
      viaConvoy: false,
    };
  const u = o.unit;
  const base = {
    power: board.powerIndex(u.power),
    unit: P(u.province),
    unitType: u.type,
    coast: coastIndex(u.coast),
  };
  switch (o.kind) {
    case "move":
    case "retreat":
      return {
        kind: o.kind,
        ...base,
        target: -1,
        targetType: null,
        to: P(o.to.province),
        toCoast: coastIndex(o.to.coast),
        viaConvoy: o.kind === "move" && o.viaConvoy,
      };
    case "support":
      return {
        kind: "support",
        ...base,
        target: P(o.target),
        targetType: o.targetType,
        to: o.to === null ? -1 : P(o.to),
        toCoast: coastIndex(o.toCoast),
        viaConvoy: false,
      };
    case "convoy":
      return {
        kind: "convoy",
        ...base,
        target: P(o.from),
        targetType: o.targetType,
        to: P(o.to),
        toCoast: 0,
        viaConvoy: false,
      };
    default:
      return {
        kind: o.kind,
        ...base,
        target: -1,
        targetType: null,
        to: -1,
        toCoast: 0,
        viaConvoy: false,
      };
  }
}

/** A reason a typed order is malformed (ids out of range, fields missing), or null. */
export function checkTypedOrder(board: Board, o: TypedOrder): string | null {
  const n = board.provinces.length;
  const prov = (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < n;
  const kinds: readonly string[] = [
    "hold",
    "move",
    "support",
    "convoy",
    "retreat",
    "disband",
    "build",
    "remove",
    "waive",
  ];
  if (typeof o !== "object" || o === null) return "an order must be an object";
  if (!kinds.includes(o.kind)) return `kind must be one of ${kinds.join(", ")}, not ${o.kind}`;
  if (!(Number.isInteger(o.power) && o.power >= 0 && o.power < board.powers.length))
    return `power must be a power id from 0 to ${board.powers.length - 1}, not ${o.power}`;
  if (o.kind === "waive") return null;
  if (!prov(o.unit)) return `unit must be a province id from 0 to ${n - 1}, not ${o.unit}`;
  if (o.unitType !== "A" && o.unitType !== "F") return `unitType must be "A" or "F"`;
  const coastOk = (c: unknown) =>
    c === undefined ||
    (Number.isInteger(c) && (c as number) >= 0 && (c as number) <= COASTS.length);
  if (!coastOk(o.coast) || !coastOk(o.toCoast)) return `coasts are 0 (none) to ${COASTS.length}`;
  if (o.kind === "move" || o.kind === "retreat" || o.kind === "convoy") {
    if (!prov(o.to)) return `${o.kind}: to must be a province id from 0 to ${n - 1}`;
  }
  if (o.kind === "support" || o.kind === "convoy") {
    if (!prov(o.target)) return `${o.kind}: target must be a province id from 0 to ${n - 1}`;
    if (o.kind === "support" && !(o.to === -1 || prov(o.to)))
      return "support: to must be -1 (support to hold) or a province id";
  }
  return null;
}
