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
 *
 * This file holds the two players, `entente`'s search of a movement phase, and the
 * retreats, builds and removals both make; what a decision reads is in context.ts, the
 * greedy pass in greedy.ts, the scoring of a board in score.ts.
 */
import { adjudicate } from "../engine/adjudicate.ts";
import { adjustmentCounts } from "../engine/adjustments.ts";
import { legalMovementOrders } from "../engine/legal.ts";
import { legalAdjustmentOrders } from "../engine/legal-adjustments.ts";
import { legalRetreatOrders } from "../engine/legal-retreats.ts";
import { formatOrder, type MovementOrder, type Order } from "../engine/orders.ts";
import { rng } from "../engine/random.ts";
import { dislodgedKey, type Unit } from "../engine/types.ts";
import type { Bot, BotInput } from "./bot.ts";
import {
  type Ctx,
  canSupportInto,
  centreValues,
  closedSet,
  context,
  friends,
  type Options,
  optionsOf,
  supportMove,
} from "./context.ts";
import { greedyOrders } from "./greedy.ts";
import { type After, after, boardScore, scoreBoard } from "./score.ts";

/** The weights of the three predicted replies: greedy enemies, enemies holding, attacking. */
const REPLY_WEIGHTS = [0.5, 0.2, 0.3];

/**
 * Adjudications `entente` may spend on one movement phase: 2,400 on the classical board (34
 * units at most, 20 to 40 µs each), fewer where more units make each one longer (europe1935).
 */
const UNIT_RESOLVES = 2400 * 34;
const resolveBudget = (units: number): number =>
  Math.min(2400, Math.floor(UNIT_RESOLVES / Math.max(units, 1)));

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
