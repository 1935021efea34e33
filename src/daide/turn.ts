/*
 * One phase as DAIDE tells it, for any game behind the protocol (the standalone host,
 * host.ts, and the judge's games, src/server/daide-game.ts): a side's orders of the open
 * phase (SUB read against the engine's legal orders, NOT (SUB), MIS, complete or not), and
 * the server's messages made from a position and a phase's result (SCO, NOW, ORD, HLO).
 * Pure: no socket, no clock.
 */

import { adjustmentCounts } from "../engine/adjustments.ts";
import { powersToOrder } from "../engine/must-order.ts";
import { formatOrder, type Order } from "../engine/orders.ts";
import type { PhaseResult } from "../engine/results.ts";
import type { RuleOptions } from "../engine/rules.ts";
import type { Seat } from "../engine/scenario.ts";
import { dislodgedKey, type Position, type PowerId } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import { type Item, itemsText } from "./language.ts";
import type { DaideMap, Side } from "./mapdef.ts";
import {
  type AdjustmentSoFar,
  checkOrder,
  orderItem,
  type PhaseTables,
  resultTokens,
  turnItem,
  unitItem,
} from "./orders.ts";
import { intToken, type Token, tok } from "./tokens.ts";

const T = tok;

/** An order a side gave for the open phase, in its own words and in the engine's. */
export interface UnitOrder {
  readonly item: Item;
  readonly text: string;
  readonly power: PowerId;
  readonly adjustment: "build" | "remove" | "waive" | null;
}

/** The open phase as the protocol reads it. */
export interface Turn {
  readonly map: DaideMap;
  readonly variant: Variant;
  readonly rules: RuleOptions;
  readonly position: Position;
  readonly seats: readonly Seat[];
  readonly tables: PhaseTables;
}

/** The variant's powers a side plays under these seats. */
export function powersOf(map: DaideMap, variant: Variant, seats: readonly Seat[], side: Side) {
  return variant.powers.map((p) => p.id).filter((p) => map.sideOf(p, seats).token === side.token);
}

/** Whether the side has something to order in the open phase. */
export function mustOrder(t: Turn, side: Side): boolean {
  const must = new Set(powersToOrder(t.variant, t.position, t.rules));
  return powersOf(t.map, t.variant, t.seats, side).some((p) => must.has(p));
}

/** Whether a SUB's turn, if it names one, is the open phase's. */
export function openTurn(t: Turn, turn: Item | null): boolean {
  const names = t.map.names;
  return (
    turn === null || itemsText([turn], names) === itemsText([turnItem(t.position.phase)], names)
  );
}

/** What a side has ordered so far in an adjustment phase (for NMB, NMR, BPR). */
export function soFar(orders: ReadonlyMap<string, UnitOrder>): AdjustmentSoFar {
  const builds = new Map<PowerId, number>();
  const removes = new Map<PowerId, number>();
  const sites = new Set<string>();
  const removed = new Set<string>();
  for (const [key, o] of orders) {
    if (o.adjustment === "build" || o.adjustment === "waive") {
      builds.set(o.power, (builds.get(o.power) ?? 0) + 1);
      if (o.adjustment === "build") sites.add(key);
    }
    if (o.adjustment === "remove") {
      removes.set(o.power, (removes.get(o.power) ?? 0) + 1);
      removed.add(key);
    }
  }
  return {
    builds,
    removes,
    sites: sites as ReadonlySet<string> as AdjustmentSoFar["sites"],
    removed: removed as ReadonlySet<string> as AdjustmentSoFar["removed"],
  };
}

/**
 * A SUB's orders read one by one into `orders` (a later order for a unit replaces the
 * earlier): a THX per order read, and where reading stopped (an order not in DAIDE's syntax:
 * the orders before it stand), or null.
 */
export function submit(
  t: Turn,
  side: Side,
  orders: Map<string, UnitOrder>,
  items: readonly Item[],
): { answers: Item[][]; stoppedAt: number | null } {
  const answers: Item[][] = [];
  for (let i = 0; i < items.length; i++) {
    const order = items[i]!;
    const c = checkOrder(
      {
        map: t.map,
        variant: t.variant,
        position: t.position,
        seats: t.seats,
        tables: t.tables,
        side,
        soFar: soFar(orders),
      },
      order,
    );
    if (c.kind === "syntax") return { answers, stoppedAt: i };
    if (c.accepted) {
      const a = c.accepted;
      const key = a.adjustment === "waive" ? `waive ${orders.size}` : a.key;
      orders.set(key, { item: order, text: a.text, power: a.power, adjustment: a.adjustment });
    }
    answers.push([T("THX"), order, [c.note]]);
  }
  return { answers, stoppedAt: null };
}

/**
 * A side's orders of the open phase read back from their engine texts (an order set the
 * judge has stored: after a restart of the server, the set stands and MIS says what it
 * lacks). A text that is no legal order of the phase is passed over.
 */
export function restore(t: Turn, side: Side, texts: readonly string[]): Map<string, UnitOrder> {
  const legal = new Map<string, Order>();
  const lists: (readonly Order[])[] = [
    ...(t.tables.movement?.values() ?? []),
    ...(t.tables.retreats?.values() ?? []),
    ...[...(t.tables.adjustments?.values() ?? [])].map((a) => a.orders),
  ];
  for (const list of lists) for (const o of list) legal.set(formatOrder(o), o);
  const orders = new Map<string, UnitOrder>();
  for (const text of texts) {
    const o = legal.get(text);
    // A waived build is no order of the tables: its DAIDE form is the side's WVE.
    const item = o
      ? orderItem(t.map, t.seats, t.position, o)
      : /^waive\b/i.test(text)
        ? [side.token, T("WVE")]
        : null;
    if (item) submit(t, side, orders, [item]);
  }
  return orders;
}

/** NOT (SUB (order) ...): withdraws the orders named (all with none); false if one was not given. */
export function withdraw(
  map: DaideMap,
  orders: Map<string, UnitOrder>,
  named: readonly Item[],
): boolean {
  if (named.length === 0) {
    orders.clear();
    return true;
  }
  const texts = named.map((o) => itemsText([o], map.names));
  let found = 0;
  for (const [k, v] of orders)
    if (texts.includes(itemsText([v.item], map.names))) {
      orders.delete(k);
      found++;
    }
  return found === texts.length;
}

/** What a side still has to order: units (with retreats) or a number of adjustments. */
function missing(
  t: Turn,
  side: Side,
  orders: ReadonlyMap<string, UnitOrder>,
): { units: Item[]; adjust: number } {
  const pos = t.position;
  const powers = new Set(powersOf(t.map, t.variant, t.seats, side));
  if (pos.phase.type === "M") {
    const units = pos.units
      .filter((u) => powers.has(u.power) && !orders.has(`${u.power} ${u.province}`))
      .map((u) => unitItem(t.map, t.seats, u));
    return { units, adjust: 0 };
  }
  if (pos.phase.type === "R") {
    const units = pos.dislodged
      .filter((d) => powers.has(d.power) && !orders.has(`${d.power} ${d.province}`))
      .map((d) => {
        const retreats = t.tables.retreats?.get(dislodgedKey(d)) ?? [];
        const places = retreats.flatMap((o) =>
          o.kind === "retreat" ? [t.map.provinceToken(o.to.province)] : [],
        );
        return [...unitItem(t.map, t.seats, d), T("MRT"), places];
      });
    return { units, adjust: 0 };
  }
  // Adjustments: positive, removals still owed; negative, builds still open (as MILA's
  // server counts them).
  let owed = 0;
  const counts = adjustmentCounts(t.variant, pos);
  for (const p of powers) {
    const n = counts.get(p) ?? 0;
    const given = [...orders.values()].filter((o) => o.power === p);
    if (n < 0) owed += -n - given.filter((o) => o.adjustment === "remove").length;
    if (n > 0) {
      const due = t.tables.adjustments?.get(p)?.count ?? 0;
      const sites = t.tables.adjustments?.get(p)?.orders.some((o) => o.kind === "build") ? due : 0;
      owed -= Math.max(0, sites - given.length);
    }
  }
  return { units: [], adjust: owed };
}

/** The MIS message for a side. */
export function misMessage(t: Turn, side: Side, orders: ReadonlyMap<string, UnitOrder>): Item[] {
  const m = missing(t, side, orders);
  if (t.position.phase.type === "A")
    return m.adjust === 0 ? [T("MIS")] : [T("MIS"), [intToken(m.adjust)]];
  return [T("MIS"), ...m.units];
}

/** Whether a side has ordered everything it must. */
export function complete(t: Turn, side: Side, orders: ReadonlyMap<string, UnitOrder>): boolean {
  const m = missing(t, side, orders);
  return m.units.length === 0 && m.adjust === 0;
}

/** SCO: who owns each supply centre. */
export function scoMessage(
  map: DaideMap,
  variant: Variant,
  pos: Position,
  seats: readonly Seat[],
): Item[] {
  const owned = new Map<Token, Token[]>();
  const unowned: Token[] = [];
  for (const p of variant.map.provinces) {
    if (!p.supplyCenter || p.impassable) continue;
    const owner = pos.centers.get(p.id);
    const x = map.provinceToken(p.id);
    if (owner === undefined) unowned.push(x);
    else {
      const side = map.sideOf(owner, seats).token;
      owned.set(side, [...(owned.get(side) ?? []), x]);
    }
  }
  const out: Item[] = [T("SCO")];
  for (const s of map.sides) {
    const list = owned.get(s.token);
    if (list) out.push([s.token, ...list]);
  }
  if (unowned.length > 0) out.push([T("UNO"), ...unowned]);
  return out;
}

/** NOW: the turn and every unit, dislodged ones with where they may retreat (MRT). */
export function nowMessage(
  map: DaideMap,
  pos: Position,
  seats: readonly Seat[],
  tables: PhaseTables | null,
): Item[] {
  const out: Item[] = [T("NOW"), turnItem(pos.phase)];
  for (const u of pos.units) out.push(unitItem(map, seats, u));
  for (const d of pos.dislodged) {
    const retreats = tables?.retreats?.get(dislodgedKey(d)) ?? [];
    const places = retreats.flatMap((o) =>
      o.kind === "retreat"
        ? [
            o.to.coast === null
              ? map.provinceToken(o.to.province)
              : ([map.provinceToken(o.to.province), tokCoast(o.to.coast)] as Item),
          ]
        : [],
    );
    out.push([...unitItem(map, seats, d), T("MRT"), places]);
  }
  return out;
}

/**
 * The ORD messages of an adjudicated phase: every order the engine adjudicated (a deemed
 * hold's too), in the words its side used where known (`byText`: power and engine text to
 * the client's item), with its result tokens (RET for a dislodged unit).
 */
export function ordMessages(
  map: DaideMap,
  seats: readonly Seat[],
  pos: Position,
  result: PhaseResult,
  byText: ReadonlyMap<string, Item>,
): Item[][] {
  const dislodged = new Set(result.dislodged.map((d) => `${d.unit.power} ${d.unit.province}`));
  const turn = turnItem(pos.phase);
  const ords: Item[][] = [];
  for (const r of result.results) {
    if (!r.order) continue;
    const item =
      (r.text !== null ? byText.get(`${r.power}\n${r.text}`) : undefined) ??
      orderItem(map, seats, pos, r.order);
    if (!item) continue;
    const res = resultTokens(r.order, r.result === "succeeds", r.reason);
    if (r.order.kind !== "waive" && r.order.kind !== "build" && pos.phase.type === "M") {
      const u = r.order.unit;
      if (dislodged.has(`${u.power} ${u.province}`)) res.push(T("RET"));
    }
    if (res.length === 0) res.push(T("SUC"));
    ords.push([T("ORD"), turn, item, res]);
  }
  if (pos.phase.type === "M") {
    // A unit whose order has no DAIDE form (a variant's own: europe1935's insurrections) and
    // which stands where it stood: it held (an invalid such order is a hold), and is told so.
    // One that left the board (it joined an insurrection) is told by NOW alone.
    const told = new Set(
      result.results.flatMap((r) =>
        r.order && r.order.kind !== "waive" && r.order.kind !== "build"
          ? [`${r.order.unit.power} ${r.order.unit.province}`]
          : [],
      ),
    );
    for (const u of pos.units) {
      if (told.has(`${u.power} ${u.province}`)) continue;
      const still = result.next.units.some(
        (x) => x.province === u.province && x.power === u.power && x.type === u.type,
      );
      if (still) ords.push([T("ORD"), turn, [unitItem(map, seats, u), T("HLD")], [T("SUC")]]);
    }
  }
  return ords;
}

/** HLO (power) (passcode) ((LVL 0) [(MTL s) (RTL s) (BTL s)]). */
export function hloMessage(
  side: Side,
  passcode: number,
  times: { movement: number; retreats: number; builds: number } | null,
  level: 0 | 10 = 0,
): Item[] {
  const params: Item[] = [[T("LVL"), intToken(level)]];
  if (times) {
    const s = (n: number) => intToken(Math.min(Math.max(0, Math.round(n)), 8191));
    params.push(
      [T("MTL"), s(times.movement)],
      [T("RTL"), s(times.retreats)],
      [T("BTL"), s(times.builds)],
    );
  }
  return [T("HLO"), [side.token], [intToken(passcode)], params];
}

function tokCoast(c: "nc" | "sc" | "ec" | "wc"): Token {
  return T({ nc: "NCS", sc: "SCS", ec: "ECS", wc: "WCS" }[c]);
}
