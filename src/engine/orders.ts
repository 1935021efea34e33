/*
 * Two shapes of order. A `ParsedOrder` is what the text said, before anybody looked at the
 * board: unit types and coasts may be missing or wrong. An `Order` is what the engine will
 * adjudicate: it names real units of the position and legal places.
 */

import type { Coast, Location, PowerId, ProvinceId, Unit, UnitType } from "./types.ts";

/** A unit as an order names it: the type may be left out, the coast too. */
export interface UnitSpec {
  readonly type: UnitType | null;
  readonly province: ProvinceId;
  readonly coast: Coast | null;
  /** A nationality written before the unit (`supports German A ber`), if any. */
  readonly power: PowerId | null;
}

/** A place as an order names it. */
export interface LocationSpec {
  readonly province: ProvinceId;
  readonly coast: Coast | null;
}

export type ParsedOrder =
  | { readonly kind: "hold"; readonly unit: UnitSpec }
  | {
      readonly kind: "move";
      readonly unit: UnitSpec;
      readonly to: LocationSpec;
      /** The text said "via convoy" (or "by convoy"). */
      readonly viaConvoy: boolean;
    }
  | {
      readonly kind: "support";
      readonly unit: UnitSpec;
      readonly supported: UnitSpec;
      /** Where the supported unit moves; null for support to hold. */
      readonly to: LocationSpec | null;
      /**
       * Seed 003, retrospective support (`A rum S A vie in gal`): for the unit that moved from
       * `supported` into `to` earlier in a sequential season, standing there.
       */
      readonly arrived?: boolean;
    }
  | {
      readonly kind: "convoy";
      readonly unit: UnitSpec;
      readonly convoyed: UnitSpec;
      readonly to: LocationSpec;
    }
  /** `disband` (retreat phase word; in an adjustment phase it means remove). */
  | { readonly kind: "disband"; readonly unit: UnitSpec }
  /** `remove` (adjustment phase word; in a retreat phase it means disband). */
  | { readonly kind: "remove"; readonly unit: UnitSpec }
  | { readonly kind: "build"; readonly unitType: UnitType | null; readonly location: LocationSpec }
  | { readonly kind: "waive" };

/** An order the engine adjudicates. */
export type Order =
  | {
      readonly kind: "hold";
      readonly unit: Unit;
      /**
       * The unit was ordered to move but the move was illegal: under seed 002 III(5)
       * (`supportHoldAfterIllegalMove: false`) it receives no support to hold.
       */
      readonly moveOrdered?: boolean;
    }
  | {
      readonly kind: "move";
      readonly unit: Unit;
      readonly to: Location;
      readonly viaConvoy: boolean;
    }
  | {
      readonly kind: "support";
      readonly unit: Unit;
      /** The supported unit's province and type (the type as the position has it). */
      readonly target: ProvinceId;
      readonly targetType: UnitType;
      /** Where the supported unit is to move; null for support to hold. */
      readonly to: ProvinceId | null;
      /** A coast named for that move, if any (see the `supportCoast` rule). */
      readonly toCoast: Coast | null;
      /**
       * Seed 003, retrospective support (`S A vie in gal`): support to hold for the unit that
       * moved from `target` to `to` earlier in a sequential season (docs/sequential.md).
       */
      readonly arrived?: boolean;
    }
  | {
      readonly kind: "convoy";
      readonly unit: Unit;
      readonly from: ProvinceId;
      readonly to: ProvinceId;
      /** The convoyed unit's type as the position has it (or as written if none stands there). */
      readonly targetType: UnitType;
    }
  | { readonly kind: "retreat"; readonly unit: Unit; readonly to: Location }
  | { readonly kind: "disband"; readonly unit: Unit }
  | { readonly kind: "build"; readonly unit: Unit }
  | { readonly kind: "remove"; readonly unit: Unit }
  | { readonly kind: "waive"; readonly power: PowerId };

/** The orders of a movement phase: what the movement resolver reads. */
export type MovementOrder = Extract<Order, { kind: "hold" | "move" | "support" | "convoy" }>;

export const isMovementOrder = (o: Order): o is MovementOrder =>
  o.kind === "hold" || o.kind === "move" || o.kind === "support" || o.kind === "convoy";

/** Orders that name one unit of the board. */
export type UnitOrder = Exclude<Order, { kind: "waive" }>;

const loc = (l: Location): string => (l.coast ? `${l.province}/${l.coast}` : l.province);
const unitText = (u: Unit): string => `${u.type} ${loc(u)}`;

/** The canonical short form: `F nth - pic`, `A lvp S F nth - pic`, `build F stp/nc`. */
export function formatOrder(order: Order): string {
  switch (order.kind) {
    case "hold":
      return `${unitText(order.unit)} H`;
    case "move":
      return `${unitText(order.unit)} - ${loc(order.to)}${order.viaConvoy ? " via convoy" : ""}`;
    case "support":
      return order.to === null
        ? `${unitText(order.unit)} S ${order.targetType} ${order.target}`
        : `${unitText(order.unit)} S ${order.targetType} ${order.target} ${order.arrived ? "in" : "-"} ${order.to}`;
    case "convoy":
      return `${unitText(order.unit)} C ${order.targetType} ${order.from} - ${order.to}`;
    case "retreat":
      return `${unitText(order.unit)} - ${loc(order.to)}`;
    case "disband":
      return `${unitText(order.unit)} D`;
    case "build":
      return `build ${unitText(order.unit)}`;
    case "remove":
      return `remove ${loc(order.unit)}`;
    case "waive":
      return "waive";
  }
}
