/**
 * A movement phase's orders as the resolver reads them: `MovementBoard` turns the orders into
 * integer tables once (per order: the unit it points at, the moves into its province, its
 * supports and convoys, void supports, head-to-head battles) and holds the resolver's state;
 * `provinceIndex`, each province's index on a map. The decisions (`movement-decisions.ts`) and
 * the words (`movement-words.ts`) are built on it.
 */

import { seaRoute } from "./convoy.ts";
import { falseList, filledLists, minusOneList, zeroList } from "./filled.ts";
import type { GameMap } from "./map.ts";
import type { MovementOrder } from "./orders.ts";
import type { RuleOptions } from "./rules.ts";
import type { ProvinceId } from "./types.ts";

const NO_FLAGS: readonly boolean[] = [];
const NO_INDICES: readonly number[] = [];

/** The shared empty list of supports or convoys (never added to: see `addTo`). */
const NONE: number[] = [];

/** A new list of `n` times NONE, for each resolver's `supportsOf` and `convoysOf`. */
const noneList: (n: number) => number[][] = filledLists(NONE);

/** Adds `i` to `lists[k]`, giving it a list of its own if it had the shared empty one. */
function addTo(lists: number[][], k: number, i: number): void {
  const list = lists[k]!;
  if (list === NONE) lists[k] = [i];
  else list.push(i);
}

/**
 * Per map, built once: each province's index, and scratch space indexed by province for one
 * resolver's constructor at a time (left all -1 after each use). The resolver looks up each
 * province an order names once; everything after works on order indices.
 */
interface ProvinceTables {
  readonly index: ReadonlyMap<ProvinceId, number>;
  /** Per province, the order of the unit standing there (scratch). */
  readonly orderAt: Int32Array;
  /** Per province, its list in `Resolver.into` of the moves into it (scratch). */
  readonly listAt: Int32Array;
}

const provinceTables = new WeakMap<GameMap, ProvinceTables>();

function tablesOf(map: GameMap): ProvinceTables {
  let t = provinceTables.get(map);
  if (t === undefined) {
    const n = map.provinces.length;
    t = {
      index: new Map(map.provinces.map((p, i) => [p.id, i])),
      orderAt: new Int32Array(n).fill(-1),
      listAt: new Int32Array(n).fill(-1),
    };
    provinceTables.set(map, t);
  }
  return t;
}

/** Each province's index on `map` (the order of `map.provinces`), built once per map. */
export function provinceIndex(map: GameMap): ReadonlyMap<ProvinceId, number> {
  return tablesOf(map).index;
}

/**
 * Each order's kind as a number (`MovementBoard.kindOf`): the resolver's loops and decisions
 * test it where they need nothing else of the order, instead of reading `kind` from orders
 * of four shapes (a polymorphic read). Anything else than a move, a support or a convoy is
 * OTHER (a hold).
 */
export const OTHER = 0;
export const MOVE = 1;
export const SUPPORT = 2;
export const CONVOY = 3;

const kindCode = (o: MovementOrder): number =>
  o.kind === "move" ? MOVE : o.kind === "support" ? SUPPORT : o.kind === "convoy" ? CONVOY : OTHER;

/** A route's fleets, all accepted (`hasRoute` without a condition). */
const anyFleet = (_c: number): boolean => true;

export class MovementBoard {
  protected readonly n: number;
  /** Per order, its kind: MOVE, SUPPORT, CONVOY or OTHER. */
  protected readonly kindOf: number[];
  /**
   * Per order, the order it points at: for a move, the unit standing where it goes; for a
   * support, the supported unit; for a convoy, the army it names. -1 where no unit stands.
   */
  protected readonly there: number[];
  /** Per order: its list in `into` of the moves into its unit's province, or -1 (none). */
  protected readonly intoHere: number[];
  /** Per move: its list in `into` of the moves into where it goes (it is one); -1 otherwise. */
  protected readonly intoThere: number[];
  /** The moves into each province moved into (in order of the orders), and the provinces. */
  protected readonly into: number[][] = [];
  protected readonly intoProvince: ProvinceId[] = [];
  protected readonly supportsOf: number[][];
  protected readonly convoysOf: number[][];
  protected readonly convoyed: number[];
  protected readonly usesConvoy: boolean[];
  /** Whether the fleets ordered to convoy this army's move form a chain (none dislodged). */
  protected readonly anyRoute: number[];
  protected readonly h2h: number[];
  protected readonly voidSupport: number[];
  protected readonly paradox: boolean[];
  /** Moves the backup rule settled (circular movement, or all-hold in a convoy paradox). */
  protected readonly backup: number[];
  /** Rated at half strength by the seed 002 VI(6) procedure (`alternative-c`). */
  protected readonly half: number[];
  /** The step of that procedure last applied to this order's unit (0: none). */
  protected readonly stage: number[];
  protected readonly state: number[];
  protected readonly res: number[];
  protected readonly deps: number[] = [];
  /** Set by `run`: what the words are made from. */
  protected success: readonly boolean[] = NO_FLAGS;
  protected dislodgedBy: readonly number[] = NO_INDICES;
  /** When each decision was last started (a tick of `clock`): older ones are further up. */
  protected readonly started: number[];
  protected clock = 0;

  /**
   * `places`: each order's unit's province index on the map (`provinceIndex`, -1 for none),
   * when the caller has them (`movementPhase`); looked up otherwise.
   */
  constructor(
    protected readonly map: GameMap,
    protected readonly orders: readonly MovementOrder[],
    protected readonly rules: RuleOptions,
    places: readonly number[] | null = null,
  ) {
    const n = orders.length;
    this.n = n;
    // Copies of kept lists (`filled.ts`): packed, and half the time of `new Array(n).fill`.
    this.state = zeroList(n);
    this.res = zeroList(n);
    this.started = zeroList(n);
    // Most orders have no supports and no convoys: they share one empty list, replaced by
    // the order's own on the first one added (`addTo`).
    this.supportsOf = noneList(n);
    this.convoysOf = noneList(n);
    this.convoyed = minusOneList(n);
    this.usesConvoy = falseList(n);
    this.anyRoute = zeroList(n);
    this.h2h = minusOneList(n);
    this.voidSupport = zeroList(n);
    this.paradox = falseList(n);
    // The paradox procedures' marks, made with the resolver though few phases have a paradox:
    // a field first set to a shared empty list and replaced later changes the resolver's
    // hidden class when it is, and V8 throws away the code optimized for it.
    this.backup = zeroList(n);
    this.half = zeroList(n);
    this.stage = zeroList(n);
    const there = minusOneList(n);
    const intoHere = minusOneList(n);
    const intoThere = minusOneList(n);
    this.there = there;
    this.intoHere = intoHere;
    this.intoThere = intoThere;

    // Each order's province, looked up once; who stands where, and the moves into each
    // province (the per-map scratch tables, cleared again below).
    const { index, orderAt, listAt } = tablesOf(map);
    const place = minusOneList(n);
    const kindOf = zeroList(n);
    this.kindOf = kindOf;
    const { into, intoProvince } = this;
    // The provinces moved into (their indices), to clear `listAt` after.
    const listed: number[] = [];
    // The moves, in order.
    const moves: number[] = [];
    try {
      for (let i = 0; i < n; i++) {
        const o = orders[i]!;
        kindOf[i] = kindCode(o);
        const k = places === null ? (index.get(o.unit.province) ?? -1) : places[i]!;
        place[i] = k;
        if (k !== -1) orderAt[k] = i;
      }
      // One pass over the orders: where each points, the moves into each province, the
      // convoys and the armies they carry, the supports and what they support (each list in
      // the order of the orders).
      for (let i = 0; i < n; i++) {
        const o = orders[i]!;
        if (o.kind === "move") {
          const k = index.get(o.to.province);
          if (k === undefined) throw new Error(`no province ${o.to.province} on this map`);
          there[i] = orderAt[k]!;
          let list = listAt[k]!;
          if (list === -1) {
            list = into.length;
            listAt[k] = list;
            listed.push(k);
            into.push([i]);
            intoProvince.push(o.to.province);
          } else into[list]!.push(i);
          intoThere[i] = list;
          moves.push(i);
        } else if (o.kind === "convoy") {
          const k = index.get(o.from);
          const m = k === undefined ? -1 : orderAt[k]!;
          there[i] = m;
          if (m === -1) continue;
          const mo = orders[m]!;
          if (mo.kind === "move" && mo.unit.type === "A" && mo.to.province === o.to) {
            addTo(this.convoysOf, m, i);
            this.convoyed[i] = m;
          }
        } else if (o.kind === "support") {
          const k = index.get(o.target);
          const t = k === undefined ? -1 : orderAt[k]!;
          there[i] = t;
          const to = t === -1 ? undefined : orders[t]!;
          let matches = false;
          if (to) {
            // A unit ordered to move, even illegally (seed 002 III(5)), is not supported to
            // hold.
            if (o.to === null)
              matches = to.kind !== "move" && !(to.kind === "hold" && to.moveOrdered);
            else if (to.kind === "move" && to.to.province === o.to) {
              matches =
                rules.supportCoast === "ignore" ||
                o.toCoast === null ||
                to.to.coast === null ||
                o.toCoast === to.to.coast;
            }
          }
          if (matches) addTo(this.supportsOf, t, i);
          else this.voidSupport[i] = 1;
        }
      }
      for (let i = 0; i < n; i++) {
        const k = place[i]!;
        intoHere[i] = k === -1 ? -1 : listAt[k]!;
      }
    } finally {
      // The scratch tables are left as they were found: all -1.
      for (let i = 0; i < n; i++) {
        const k = place[i]!;
        if (k !== -1) orderAt[k] = -1;
      }
      for (const k of listed) listAt[k] = -1;
    }

    // The armies' moves: by convoy or over land (every convoy is listed by now).
    for (const i of moves) {
      const o = orders[i]!;
      if (o.kind !== "move" || o.unit.type !== "A") continue;
      const route = this.hasRoute(i, anyFleet);
      this.anyRoute[i] = route ? 1 : 0;
      if (!map.armyAdjacent(o.unit.province, o.to.province)) {
        this.usesConvoy[i] = true;
        continue;
      }
      let wants: boolean;
      switch (rules.convoyToAdjacent) {
        case "explicit":
          wants = o.viaConvoy;
          break;
        case "intent":
          wants =
            o.viaConvoy || this.convoysOf[i]!.some((c) => orders[c]!.unit.power === o.unit.power);
          break;
        case "any-convoy":
          wants = o.viaConvoy || this.convoysOf[i]!.length > 0;
          break;
      }
      // An explicit "via convoy" with no route: over land, or no move at all (DATC 6.G.8).
      this.usesConvoy[i] = wants && (route || (o.viaConvoy && rules.viaConvoyFallback === "none"));
    }

    // Head-to-head battles: two units moving into each other's province, neither by convoy.
    for (const i of moves) {
      const o = orders[i]!;
      if (o.kind !== "move" || this.usesConvoy[i]) continue;
      const k = there[i]!;
      if (k === -1) continue;
      const ko = orders[k]!;
      if (ko.kind === "move" && ko.to.province === o.unit.province && !this.usesConvoy[k]) {
        this.h2h[i] = k;
      }
    }
  }

  /** Is there a chain of fleets ordered to convoy move `m`, each accepted by `fleetOk`? */
  protected hasRoute(m: number, fleetOk: (c: number) => boolean): boolean {
    const o = this.orders[m]!;
    if (o.kind !== "move") return false;
    const convoys = this.convoysOf[m]!;
    if (convoys.length === 0) return false;
    const bySea = new Map<ProvinceId, number>();
    for (const c of convoys) bySea.set(this.orders[c]!.unit.province, c);
    return seaRoute(this.map, o.unit.province, o.to.province, (sea) => {
      const c = bySea.get(sea);
      return c !== undefined && fleetOk(c);
    });
  }

  /** The moves into the province of list `list` (-1: none). */
  protected movesAt(list: number): readonly number[] {
    return list === -1 ? NONE : this.into[list]!;
  }
}
