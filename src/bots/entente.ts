/*
 * The built-in heuristic players. Two share this file:
 *
 * - `greedy`: one pass, no look-ahead. Each centre has a value for the power (a neutral or an
 *   enemy's centre to take, one of its own to defend when an enemy unit stands next to it);
 *   each place a unit could go is worth the centres it is near, by moves of that unit's type.
 *   Units take their best places without two going to one, and a unit with nothing better to
 *   do supports a neighbour's move that may meet resistance.
 * - `entente`: starts from the greedy orders and improves them against the replies it
 *   expects. It predicts three sets of enemy orders (each enemy's own greedy orders; every
 *   enemy holding; every enemy unit next to one of its centres attacking it), adjudicates each
 *   candidate order set against each with the engine's movement resolver, and scores the
 *   board that comes out: centres held and taken (in the fall, as the centres will count),
 *   units lost, and how close its units stand to the centres still worth having. It changes
 *   one unit's order at a time, or a move together with a supporting unit's support, while the
 *   score rises, within a fixed number of adjudications (no clock: the same inputs give the
 *   same orders). Retreats, builds and removals are chosen by the same score.
 *
 * Both play every Diplomacy variant on the engine (classical, its scenarios, europe1935, data
 * variants), as each power of a seat that plays several (its seat-mates are friends: their
 * centres are not targets, their units not attacked). Orders come from the engine's lists of
 * legal orders, so none is illegal. `entente` convoys its armies with its own fleets; neither
 * uses a variant's own orders (europe1935's insurrections).
 */
import { adjudicate } from "../engine/adjudicate.ts";
import { adjustmentCounts } from "../engine/adjustments.ts";
import { legalMovementOrders } from "../engine/legal.ts";
import { legalAdjustmentOrders } from "../engine/legal-adjustments.ts";
import { legalRetreatOrders } from "../engine/legal-retreats.ts";
import { resolveMovement } from "../engine/movement.ts";
import { formatOrder, type MovementOrder, type Order } from "../engine/orders.ts";
import { type Rng, rng } from "../engine/random.ts";
import type { RuleOptions } from "../engine/rules.ts";
import { type Seat, unplayedPowers } from "../engine/scenario.ts";
import { dislodgedKey, type Position, type PowerId, type Unit } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import type { Bot, BotInput } from "./bot.ts";
import { FAR, type Geometry, geometryOf, nodeAt, nodeOf } from "./geometry.ts";

/** How much a centre `d` moves away counts, by `d`. */
const NEAR = [1, 0.55, 0.28, 0.14, 0.07, 0.035, 0.018, 0.009, 0.005, 0.0025];
const near = (d: number): number => (d < NEAR.length ? NEAR[d]! : d >= FAR ? 0 : 0.001);

/** The weights of the three predicted replies: greedy enemies, enemies holding, attacking. */
const REPLY_WEIGHTS = [0.5, 0.2, 0.3];

/**
 * Adjudications `entente` may spend on one movement phase: 2,400 on the classical board (34
 * units at most, 20 to 40 µs each), fewer where more units make each one longer (europe1935).
 */
const UNIT_RESOLVES = 2400 * 34;
const resolveBudget = (units: number): number =>
  Math.min(2400, Math.floor(UNIT_RESOLVES / Math.max(units, 1)));

/** Everything one decision reads: the board, by integers. */
interface Ctx {
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

function context(input: BotInput, position: Position = input.position): Ctx {
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

const friends = (c: Ctx, a: number, b: number): boolean =>
  a >= 0 && b >= 0 && c.seatOf[a] === c.seatOf[b];

/**
 * Each province's value as a centre for power `w` (0 for others): a centre it does not own
 * is worth taking (a neutral one a little more), one it owns worth defending as much as
 * enemy units stand next to it; a friend's centre is worth nothing.
 */
function centreValues(c: Ctx, w: number): Float64Array {
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
interface Options {
  readonly holds: MovementOrder[];
  readonly moves: MovementOrder[][];
  readonly supportHolds: MovementOrder[][];
}

function optionsOf(c: Ctx, legal: Map<string, readonly MovementOrder[]>): Options {
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
function canSupportInto(c: Ctx, s: number, p: number, closed: ReadonlySet<string>): boolean {
  return c.g.dist[c.unitNode[s]! * c.g.n + p] === 1 && !closed.has(c.g.ids[p]!);
}

const supportMove = (s: Unit, o: MovementOrder & { kind: "move" }): MovementOrder => ({
  kind: "support",
  unit: s,
  target: o.unit.province,
  targetType: o.unit.type,
  to: o.to.province,
  toCoast: null,
});

/** The node an order leaves its unit on if it succeeds. */
function destNode(c: Ctx, o: MovementOrder, i: number): number {
  return o.kind === "move" ? nodeAt(c.g, o.unit.type, o.to.province, o.to.coast) : c.unitNode[i]!;
}

/** One power's greedy orders (see the file's head), indexed by unit; others' left null. */
function greedyOrders(
  c: Ctx,
  w: number,
  opts: Options,
  closed: ReadonlySet<string>,
  out: (MovementOrder | null)[],
  r: Rng | null,
): void {
  const { g, position } = c;
  const units = position.units;
  const val = centreValues(c, w);
  const mine: number[] = [];
  for (let i = 0; i < units.length; i++) if (c.unitPower[i] === w) mine.push(i);
  if (mine.length === 0) return;
  const field = (v: number): number => {
    let s = 0;
    const row = v * g.n;
    for (const p of g.centres) s += val[p]! * near(g.dist[row + p]!);
    return s;
  };
  // Every (unit, order, score), best first.
  const cands: { i: number; o: MovementOrder; p: number; score: number }[] = [];
  for (const i of mine) {
    const here = g.nodeProv[c.unitNode[i]!]!;
    const holdBonus = c.fall && c.owner[here] === w && val[here]! > 0.2 ? 0.8 : 0.05;
    cands.push({ i, o: opts.holds[i]!, p: here, score: field(c.unitNode[i]!) + holdBonus });
    for (const o of opts.moves[i]!) {
      if (o.kind !== "move") continue;
      const p = g.index.get(o.to.province)!;
      let s = field(destNode(c, o, i));
      if (c.fall && g.isCentre[p] === 1 && c.owner[p] !== w && !friends(c, c.owner[p]!, w))
        s += 1.2;
      cands.push({ i, o, p, score: s + (r ? r.next() * 0.02 : 0) });
    }
  }
  cands.sort((a, b) => b.score - a.score);
  const taken = new Set<number>();
  const leaving = new Set<number>();
  const done = new Set<number>();
  const ownAt = new Map<number, number>();
  for (const i of mine) ownAt.set(g.nodeProv[c.unitNode[i]!]!, i);
  for (let round = 0; round < 2; round++)
    for (const x of cands) {
      if (done.has(x.i) || taken.has(x.p)) continue;
      const occupant = ownAt.get(x.p);
      if (occupant !== undefined && occupant !== x.i && !leaving.has(occupant)) continue;
      out[x.i] = x.o;
      done.add(x.i);
      taken.add(x.p);
      if (x.o.kind === "move") leaving.add(x.i);
    }
  for (const i of mine) if (!done.has(i)) out[i] = opts.holds[i]!;
  // Idle units support a move into a province enemy units can also reach, or a held centre.
  const contested = (p: number): boolean => {
    for (let u = 0; u < units.length; u++)
      if (!friends(c, c.unitPower[u]!, w) && g.dist[c.unitNode[u]! * g.n + p]! <= 1) return true;
    return false;
  };
  for (const s of mine) {
    const o = out[s]!;
    if (o.kind !== "hold") continue;
    const here = g.nodeProv[c.unitNode[s]!]!;
    if (c.owner[here] === w && val[here]! > 0.2) continue; // it defends its centre
    let best: MovementOrder | null = null;
    let bestScore = 0;
    for (const i of mine) {
      const x = out[i]!;
      if (i === s || x.kind !== "move") continue;
      const p = g.index.get(x.to.province)!;
      if (!canSupportInto(c, s, p, closed) || !contested(p)) continue;
      const score = val[p]! + 0.1;
      if (score > bestScore) {
        bestScore = score;
        best = supportMove(units[s]!, x);
      }
    }
    if (best) out[s] = best;
  }
}

/** The score of the board after a movement phase, for the bot's power. */
interface After {
  nodes: number[];
  occupant: Int32Array;
  lost: number;
  hit: number;
  friendlyHit: number;
}

function scoreBoard(c: Ctx, val: Float64Array, a: After): number {
  const { g, me } = c;
  let material = 0;
  for (const p of g.centres) {
    const o = c.owner[p]!;
    const occ = a.occupant[p]!;
    if (c.fall) {
      const next = occ >= 0 ? occ : o;
      if (next === me) material += 1;
    } else if (o === me) material += occ >= 0 && !friends(c, occ, me) ? 0.45 : 1;
    else if (occ === me) material += 0.55;
  }
  return (
    material - 0.5 * a.lost + 0.1 * a.hit - 0.5 * a.friendlyHit + 0.3 * positional(c, val, a.nodes)
  );
}

/** How near the units stand to the centres worth having: the nearest two count. */
function positional(c: Ctx, val: Float64Array, nodes: readonly number[]): number {
  const { g } = c;
  let s = 0;
  for (const p of g.centres) {
    const v = val[p]!;
    if (v === 0) continue;
    let d1 = FAR;
    let d2 = FAR;
    for (const node of nodes) {
      const d = g.dist[node * g.n + p]!;
      if (d < d1) {
        d2 = d1;
        d1 = d;
      } else if (d < d2) d2 = d;
    }
    s += v * (near(d1) + 0.35 * near(d2));
  }
  return s;
}

/** Resolves a full order set and reads the board after it, for the bot's power. */
function after(c: Ctx, orders: MovementOrder[], a: After): void {
  const res = resolveMovement(c.g.map, orders, c.rules);
  a.nodes.length = 0;
  a.occupant.fill(-1);
  a.lost = 0;
  a.hit = 0;
  a.friendlyHit = 0;
  for (let i = 0; i < orders.length; i++) {
    const o = orders[i]!;
    const pw = c.unitPower[i]!;
    const by = res.dislodgedBy[i]!;
    if (by !== -1) {
      const attacker = c.unitPower[by]!;
      if (pw === c.me) a.lost++;
      else if (attacker === c.me) {
        if (friends(c, pw, c.me)) a.friendlyHit++;
        else a.hit++;
      }
      continue;
    }
    const node = o.kind === "move" && res.success[i] ? destNode(c, o, i) : c.unitNode[i]!;
    a.occupant[c.g.nodeProv[node]!] = pw;
    if (pw === c.me) a.nodes.push(node);
  }
}

function closedSet(c: Ctx): ReadonlySet<string> {
  return c.variant.closed?.(c.position.phase) ?? new Set();
}

/**
 * The reply that hurts most, roughly: every enemy unit next to one of the bot's centres or
 * units attacks it (centres first), a second unit of the same power supporting the first
 * attack instead of making its own; other units as in `base`.
 */
function attackReply(
  c: Ctx,
  opts: Options,
  closed: ReadonlySet<string>,
  base: readonly MovementOrder[],
): MovementOrder[] {
  const { g, me, position } = c;
  const units = position.units;
  const out = [...base];
  const mineAt = new Uint8Array(g.n);
  for (let i = 0; i < units.length; i++)
    if (c.unitPower[i] === me) mineAt[g.nodeProv[c.unitNode[i]!]!] = 1;
  /** Per power and target province: the attack made on it. */
  const attacks = new Map<number, MovementOrder & { kind: "move" }>();
  for (let i = 0; i < units.length; i++) {
    const w = c.unitPower[i]!;
    if (w === me || w < 0 || friends(c, w, me) || c.unplayed[w] === 1) continue;
    let target: (MovementOrder & { kind: "move" }) | null = null;
    let rank = 0;
    for (const o of opts.moves[i]!) {
      if (o.kind !== "move") continue;
      const p = g.index.get(o.to.province)!;
      const r = c.owner[p] === me ? 2 : mineAt[p] === 1 ? 1 : 0;
      if (r > rank) {
        rank = r;
        target = o;
      }
    }
    if (!target) continue;
    const p = g.index.get(target.to.province)!;
    const key = w * g.n + p;
    const first = attacks.get(key);
    if (first && canSupportInto(c, i, p, closed)) out[i] = supportMove(units[i]!, first);
    else {
      out[i] = target;
      if (!first) attacks.set(key, target);
    }
  }
  return out;
}

/** The movement phase's orders for the bot's power, by unit index of the position. */
function movementOrders(c: Ctx, seed: number, search: boolean): MovementOrder[] {
  const { position, me } = c;
  const units = position.units;
  const legal = legalMovementOrders(c.variant, position, c.rules);
  const opts = optionsOf(c, legal);
  const closed = closedSet(c);
  const r = rng(seed);
  const mine: number[] = [];
  for (let i = 0; i < units.length; i++) if (c.unitPower[i] === me) mine.push(i);
  const current: (MovementOrder | null)[] = units.map(() => null);
  greedyOrders(c, me, opts, closed, current, search ? null : r);
  if (!search || mine.length === 0) return mine.map((i) => current[i]!);

  // The replies: each other power's greedy orders; everyone holding; attackers.
  const greedy: (MovementOrder | null)[] = units.map(() => null);
  for (let w = 0; w < c.powers.length; w++)
    if (w !== me && c.unplayed[w] === 0) greedyOrders(c, w, opts, closed, greedy, null);
  const replies: MovementOrder[][] = [[], [], []];
  for (let i = 0; i < units.length; i++) {
    const hold = opts.holds[i]!;
    replies[0]!.push(greedy[i] ?? hold);
    replies[1]!.push(hold);
  }
  replies[2] = attackReply(c, opts, closed, replies[0]!);
  const val = centreValues(c, me);
  const board: After = {
    nodes: [],
    occupant: new Int32Array(c.g.n),
    lost: 0,
    hit: 0,
    friendlyHit: 0,
  };
  let spent = 0;
  const budget = resolveBudget(units.length);
  const evaluate = (): number => {
    let s = 0;
    for (let k = 0; k < replies.length; k++) {
      const set = replies[k]!;
      for (const i of mine) set[i] = current[i]!;
      after(c, set, board);
      s += REPLY_WEIGHTS[k]! * scoreBoard(c, val, board);
    }
    spent += replies.length;
    return s;
  };
  let best = evaluate();
  // Try `changes` (unit index, order); keep them if the score rises.
  const attempt = (changes: [number, MovementOrder][]): boolean => {
    const old = changes.map(([i]) => current[i]!);
    for (const [i, o] of changes) current[i] = o;
    const s = evaluate();
    if (s > best + 1e-9) {
      best = s;
      return true;
    }
    changes.forEach(([i], k) => {
      current[i] = old[k]!;
    });
    return false;
  };
  // Sea moves: an army carried by the bot's own fleets (each fleet that could carry it).
  const carried = new Map<number, [MovementOrder, [number, MovementOrder][]][]>();
  {
    const carriers = new Map<string, [number, MovementOrder][]>();
    for (const i of mine)
      for (const o of legal.get(units[i]!.province) ?? [])
        if (o.kind === "convoy") {
          const key = `${o.from}>${o.to}`;
          const list = carriers.get(key) ?? [];
          list.push([i, o]);
          carriers.set(key, list);
        }
    for (const i of mine) {
      const u = units[i]!;
      if (u.type !== "A") continue;
      for (const o of legal.get(u.province) ?? []) {
        if (o.kind !== "move" || c.variant.map.armyAdjacent(u.province, o.to.province)) continue;
        const fleets = carriers.get(`${u.province}>${o.to.province}`);
        if (!fleets) continue;
        const list = carried.get(i) ?? [];
        list.push([o, fleets]);
        carried.set(i, list);
      }
    }
  }
  const order = [...mine];
  for (let pass = 0; pass < 4 && spent < budget; pass++) {
    for (let k = order.length - 1; k > 0; k--) {
      const j = r.int(k + 1);
      [order[k], order[j]] = [order[j]!, order[k]!];
    }
    let improved = false;
    for (const i of order) {
      if (spent >= budget) break;
      const tries: [number, MovementOrder][][] = [];
      const now = current[i]!;
      if (now.kind !== "hold") tries.push([[i, opts.holds[i]!]]);
      for (const o of opts.supportHolds[i]!) if (o !== now) tries.push([[i, o]]);
      // Support a friend's current move.
      for (const j of mine) {
        const x = current[j]!;
        if (j === i || x.kind !== "move") continue;
        const p = c.g.index.get(x.to.province)!;
        if (canSupportInto(c, i, p, closed)) tries.push([[i, supportMove(units[i]!, x)]]);
      }
      for (const o of opts.moves[i]!) {
        if (o === now || o.kind !== "move") continue;
        tries.push([[i, o]]);
        // The move with one supporter.
        const p = c.g.index.get(o.to.province)!;
        for (const s of mine)
          if (s !== i && canSupportInto(c, s, p, closed))
            tries.push([
              [i, o],
              [s, supportMove(units[s]!, o)],
            ]);
      }
      for (const [o, fleets] of carried.get(i) ?? [])
        if (o !== now) tries.push([[i, o], ...fleets]);
      for (const t of tries) {
        if (spent >= budget) break;
        if (attempt(t)) improved = true;
      }
    }
    if (!improved) break;
  }
  // A support or convoy left behind by a move that changed does nothing: hold instead.
  for (const i of mine) {
    const o = current[i]!;
    if (o.kind === "convoy") {
      const j = units.findIndex((u) => u.province === o.from);
      const x = current[j];
      if (x?.kind !== "move" || x.to.province !== o.to) current[i] = opts.holds[i]!;
    }
    if (o.kind !== "support") continue;
    const j = units.findIndex((u) => u.province === o.target);
    const x = current[j];
    if (x === undefined || x === null) continue;
    const matches = o.to === null ? x.kind !== "move" : x.kind === "move" && x.to.province === o.to;
    if (!matches) current[i] = opts.holds[i]!;
  }
  return mine.map((i) => current[i]!);
}

/** The score of a board of units (no adjudication): centres as they would count, nearness. */
function boardScore(c: Ctx, val: Float64Array, units: readonly Unit[]): number {
  const a: After = {
    nodes: [],
    occupant: new Int32Array(c.g.n).fill(-1),
    lost: 0,
    hit: 0,
    friendlyHit: 0,
  };
  const pIndex = new Map(c.powers.map((p, i) => [p as string, i]));
  for (const u of units) {
    const node = nodeOf(c.g, u);
    if (node < 0) continue;
    const w = pIndex.get(u.power) ?? -1;
    a.occupant[c.g.nodeProv[node]!] = w;
    if (w === c.me) a.nodes.push(node);
  }
  return scoreBoard(c, val, a);
}

/** Retreats: each dislodged unit to the place that scores best, two never to one place. */
function retreatOrders(c: Ctx): Order[] {
  const { position, variant, rules, me } = c;
  const power = c.powers[me]!;
  const legal = legalRetreatOrders(variant, position, rules);
  const val = centreValues(c, me);
  const units: Unit[] = [...position.units];
  const out: Order[] = [];
  const used = new Set<string>();
  const mine = position.dislodged.filter((d) => d.power === power);
  for (const d of mine) {
    const options = legal.get(dislodgedKey(d)) ?? [];
    let best: Order | null = null;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const o of options) {
      if (o.kind === "retreat") {
        if (used.has(o.to.province)) continue;
        const s = boardScore(c, val, [
          ...units,
          { ...o.unit, province: o.to.province, coast: o.to.coast },
        ]);
        if (s > bestScore) {
          bestScore = s;
          best = o;
        }
      } else if (o.kind === "disband" && best === null) {
        best = o;
        bestScore = boardScore(c, val, units);
      }
    }
    if (!best) continue;
    out.push(best);
    if (best.kind === "retreat") {
      used.add(best.to.province);
      units.push({ ...best.unit, province: best.to.province, coast: best.to.coast });
    }
  }
  return out;
}

/** Builds where the new unit adds most, or the removals that cost least. */
function adjustmentOrders(c: Ctx): Order[] {
  const { position, variant, rules, me } = c;
  const power = c.powers[me]!;
  const due = legalAdjustmentOrders(variant, position, rules).get(power);
  if (!due) return [];
  const val = centreValues(c, me);
  const out: Order[] = [];
  const units: Unit[] = [...position.units];
  if (due.orders.some((o) => o.kind === "build" || o.kind === "waive")) {
    let left = due.orders.filter((o) => o.kind === "build");
    for (let k = 0; k < due.count && left.length > 0; k++) {
      let best: Order | null = null;
      let bestScore = Number.NEGATIVE_INFINITY;
      for (const o of left) {
        if (o.kind !== "build") continue;
        const s = boardScore(c, val, [...units, o.unit]);
        if (s > bestScore) {
          bestScore = s;
          best = o;
        }
      }
      if (best?.kind !== "build") break;
      out.push(best);
      units.push(best.unit);
      const site = best.unit.province;
      left = left.filter((o) => o.kind === "build" && o.unit.province !== site);
    }
    return out;
  }
  for (let k = 0; k < due.count; k++) {
    let best: Unit | null = null;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const u of units) {
      if (u.power !== power) continue;
      const s = boardScore(
        c,
        val,
        units.filter((x) => x !== u),
      );
      if (s > bestScore) {
        bestScore = s;
        best = u;
      }
    }
    if (!best) break;
    out.push({ kind: "remove", unit: best });
    units.splice(units.indexOf(best), 1);
  }
  return out;
}

/**
 * The winter phase of the house rules (seed 002 II(5) Alternative C): the fall retreats and
 * the adjustments in one set. The retreats first; the adjustments on the board they leave
 * (the other powers' retreats unknown: their units taken as disbanded).
 */
function winterOrders(input: BotInput, c: Ctx): Order[] {
  const retreats = retreatOrders(c);
  const fall = { ...c.position, phase: { ...c.position.phase, season: "F" as const } };
  const texts = new Map([[input.power, retreats.map(formatOrder)]]);
  const next = adjudicate(c.variant, fall, texts, c.rules).next;
  if (next.phase.type !== "A") return retreats;
  const counts = adjustmentCounts(c.variant, next);
  if ((counts.get(input.power) ?? 0) === 0) return retreats;
  return [...retreats, ...adjustmentOrders(context(input, next))];
}

function play(input: BotInput, search: boolean): string[] {
  const c = context(input);
  if (c.me < 0) return [];
  const { phase } = input.position;
  let orders: readonly Order[];
  if (phase.type === "M") orders = movementOrders(c, input.seed, search);
  else if (phase.type === "R")
    orders = phase.season === "W" ? winterOrders(input, c) : retreatOrders(c);
  else orders = adjustmentOrders(c);
  return orders.map(formatOrder);
}

export const greedyBot: Bot = {
  id: "greedy",
  describe:
    "One pass, no look-ahead: each unit to the best place near centres worth taking or defending, idle units supporting.",
  orders: (input) => play(input, false),
};

export const ententeBot: Bot = {
  id: "entente",
  describe:
    "Improves the greedy orders against predicted replies, adjudicated with the engine: supported attacks, defended centres, sensible retreats and builds.",
  orders: (input) => play(input, true),
};
