/*
 * What one decision of the built-in players reads (bots/entente.ts): the board by integers
 * (`Ctx`: owners, seats, units as nodes of the bot geometry), each centre's value for a
 * power, each unit's legal orders of the kinds the players use, and the small helpers over
 * them (friends, supports, where an order leaves its unit). Pure, like the engine.
 */
import type { MovementOrder } from "../engine/orders.ts";
import type { RuleOptions } from "../engine/rules.ts";
import { type Seat, unplayedPowers } from "../engine/scenario.ts";
import type { Position, PowerId, Unit } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import type { BotInput } from "./bot.ts";
import { type Geometry, geometryOf, nodeAt, nodeOf } from "./geometry.ts";

/** Everything one decision reads: the board, by integers. */
export interface Ctx {
  readonly variant: Variant;
  readonly rules: RuleOptions;
  readonly position: Position;
  readonly g: Geometry;
  readonly me: number;
  readonly powers: readonly PowerId[];
  /** Per power: the seat's other powers and itself (friends). */
  readonly seatOf: Int32Array;
  /** Per power: 1 when no seat plays it (its units hold). */
  readonly unplayed: Uint8Array;
  /** Per province: the owner's power index, -1 for none. */
  readonly owner: Int32Array;
  /** Per power: centres owned. */
  readonly size: Int32Array;
  /** Per unit of the position: its power's index and node. */
  readonly unitPower: Int32Array;
  readonly unitNode: Int32Array;
  readonly fall: boolean;
}

export function context(input: BotInput, position: Position = input.position): Ctx {
  const { scenario, rules, power } = input;
  const variant = scenario.variant;
  const g = geometryOf(variant.map);
  const powers = variant.powers.map((p) => p.id);
  const pIndex = new Map(powers.map((p, i) => [p, i]));
  const seats: readonly Seat[] = input.seats ?? scenario.seats;
  const seatOf = new Int32Array(powers.length).fill(-1);
  seats.forEach((s, k) => {
    for (const p of s.powers) {
      const i = pIndex.get(p);
      if (i !== undefined) seatOf[i] = k;
    }
  });
  const unplayed = new Uint8Array(powers.length);
  for (const p of unplayedPowers(variant, seats)) unplayed[pIndex.get(p)!] = 1;
  // A power no seat plays is its own side (the bot's own power always has one).
  powers.forEach((_, i) => {
    if (seatOf[i] === -1) seatOf[i] = seats.length + i;
  });
  const me = pIndex.get(power) ?? -1;
  const owner = new Int32Array(g.n).fill(-1);
  const size = new Int32Array(powers.length);
  for (const [c, p] of position.centers) {
    const i = pIndex.get(p);
    const at = g.index.get(c);
    if (i === undefined || at === undefined) continue;
    owner[at] = i;
    size[i]!++;
  }
  const unitPower = Int32Array.from(position.units.map((u) => pIndex.get(u.power) ?? -1));
  const unitNode = Int32Array.from(position.units.map((u) => nodeOf(g, u)));
  const season = position.phase.season;
  return {
    variant,
    rules,
    position,
    g,
    me,
    powers,
    seatOf,
    unplayed,
    owner,
    size,
    unitPower,
    unitNode,
    fall: season === "F" || season === "W",
  };
}

export const friends = (c: Ctx, a: number, b: number): boolean =>
  a >= 0 && b >= 0 && c.seatOf[a] === c.seatOf[b];

/**
 * Each province's value as a centre for power `w` (0 for others): a centre it does not own
 * is worth taking (a neutral one a little more), one it owns worth defending as much as
 * enemy units stand next to it; a friend's centre is worth nothing.
 */
export function centreValues(c: Ctx, w: number): Float64Array {
  const { g, position } = c;
  const val = new Float64Array(g.n);
  for (const p of g.centres) {
    const o = c.owner[p]!;
    if (o === w) {
      let threats = 0;
      let occupied = false;
      for (let u = 0; u < position.units.length; u++) {
        const pw = c.unitPower[u]!;
        if (friends(c, pw, w)) continue;
        const d = g.dist[c.unitNode[u]! * g.n + p]!;
        if (d === 0) occupied = true;
        if (d <= 1) threats++;
      }
      val[p] = occupied ? 1.3 : threats === 0 ? 0.12 : 0.45 + 0.2 * Math.min(threats, 3);
    } else if (o === -1) val[p] = 1.1;
    else if (friends(c, o, w)) val[p] = 0;
    else val[p] = 1 + 0.02 * c.size[o]!;
  }
  return val;
}

/** A unit's legal orders of the kinds the players use, by unit index. */
export interface Options {
  readonly holds: MovementOrder[];
  readonly moves: MovementOrder[][];
  readonly supportHolds: MovementOrder[][];
}

export function optionsOf(c: Ctx, legal: Map<string, readonly MovementOrder[]>): Options {
  const { position, variant } = c;
  const holds: MovementOrder[] = [];
  const moves: MovementOrder[][] = [];
  const supportHolds: MovementOrder[][] = [];
  const at = new Map(position.units.map((u, i) => [u.province as string, i]));
  position.units.forEach((u, i) => {
    const list = legal.get(u.province) ?? [];
    holds.push({ kind: "hold", unit: u });
    const m: MovementOrder[] = [];
    const s: MovementOrder[] = [];
    for (const o of list) {
      if (o.kind === "move") {
        // By land or sea, not by convoy: convoys need the fleets' orders too.
        if (o.viaConvoy) continue;
        if (u.type === "A" && !variant.map.armyAdjacent(u.province, o.to.province)) continue;
        m.push(o);
      } else if (o.kind === "support" && o.to === null) {
        const j = at.get(o.target);
        if (j !== undefined && friends(c, c.unitPower[j]!, c.unitPower[i]!)) s.push(o);
      }
    }
    moves.push(m);
    supportHolds.push(s);
  });
  return { holds, moves, supportHolds };
}

/** Whether unit `s` may support a move into province `p` (it could move there itself). */
export function canSupportInto(c: Ctx, s: number, p: number, closed: ReadonlySet<string>): boolean {
  return c.g.dist[c.unitNode[s]! * c.g.n + p] === 1 && !closed.has(c.g.ids[p]!);
}

export const supportMove = (s: Unit, o: MovementOrder & { kind: "move" }): MovementOrder => ({
  kind: "support",
  unit: s,
  target: o.unit.province,
  targetType: o.unit.type,
  to: o.to.province,
  toCoast: null,
});

/** The node an order leaves its unit on if it succeeds. */
export function destNode(c: Ctx, o: MovementOrder, i: number): number {
  return o.kind === "move" ? nodeAt(c.g, o.unit.type, o.to.province, o.to.coast) : c.unitNode[i]!;
}

export function closedSet(c: Ctx): ReadonlySet<string> {
  return c.variant.closed?.(c.position.phase) ?? new Set();
}
