import { adjustmentCounts, buildSites } from "./adjustments.ts";
import { minimalRouteSeas } from "./convoy.ts";
import type { GameMap } from "./map.ts";
import type { MovementOrder, Order } from "./orders.ts";
import type { Rng } from "./random.ts";
import type { RuleOptions } from "./rules.ts";
import { makeUnit } from "./shapes.ts";
import { KIND_COAST, KIND_SEA, locationSlot, mapTables, nextMark, powerTables } from "./tables.ts";
import {
  COASTS,
  type Coast,
  type DislodgedUnit,
  dislodgedKey,
  type Location,
  type Position,
  type PowerId,
  type ProvinceId,
  type Unit,
} from "./types.ts";
import type { Variant } from "./variant.ts";

/*
 * Legal orders: every order a unit may be given in the current phase, as the adjudicator
 * would understand it. "Legal" means what interpret.ts and adjudicate.ts accept as not
 * invalid, narrowed to orders that can mean something: supports only of units standing on
 * the board and only into places those units could go, convoys only along chains of seas that
 * hold fleets now. Pure; per-variant tables are built once and cached.
 */

/** Where a fleet at one location may go. */
interface FleetInfo {
  /** Target locations (one per reachable coast), not in its own province. */
  readonly targets: readonly Location[];
  /** The province index of each target. */
  readonly targetProv: readonly number[];
  /** The distinct provinces it can reach (any coast), not its own. */
  readonly reach: readonly number[];
}

interface Tables {
  readonly n: number;
  readonly index: ReadonlyMap<string, number>;
  readonly ids: readonly ProvinceId[];
  readonly kind: Uint8Array;
  /** `{ province, coast: null }` per province: an army's move target. */
  readonly armyLoc: readonly Location[];
  /** Army neighbours per province (never seas, never itself). */
  readonly armyAdj: readonly (readonly number[])[];
  /** n*n: 1 where armies may move from row to column. */
  readonly armyAdjM: Uint8Array;
  /** Per province, index 0 for no coast and 1+i for COASTS[i]. */
  readonly fleet: readonly (FleetInfo | undefined)[];
  /** Per sea province, its sea neighbours; empty for others. */
  readonly seaSeas: readonly (readonly number[])[];
  /** Per sea province, the coastal provinces it touches; empty for others. */
  readonly seaCoasts: readonly (readonly number[])[];
  /** Per province, the seas that touch it. */
  readonly seasTouching: readonly (readonly number[])[];
  // Scratch space, reused by every call (the functions are synchronous).
  readonly at: Int32Array;
  readonly comp: Int32Array;
  readonly stamp: Int32Array;
  readonly compStamp: Int32Array;
  /**
   * Per province, the units that could move there: the first `incomingN[p]` entries of the
   * row `incoming[p * cap ..]` (one row of `cap` entries per province; `cap` grows with the
   * number of units, so no phase reallocates them).
   */
  incoming: Int32Array;
  cap: number;
  readonly incomingN: Int32Array;
  /** 1 for provinces closed in the phase being generated. */
  readonly closed: Uint8Array;
  /**
   * The provinces `markConvoyReach` marked last, in no particular order: the first
   * `marked[n]` entries (the army's own province among them).
   */
  readonly marked: Int32Array;
  /** Each unit's province index (`Prepared.up`), and a count per unit. */
  up: Int32Array;
  counts: Int32Array;
  stampCounter: number;
}

/** Keyed by the map: variants that share a board (scenarios) share the tables. */
const tableCache = new WeakMap<GameMap, Tables>();

function tablesFor(variant: Variant): Tables {
  const map = variant.map;
  const cached = tableCache.get(map);
  if (cached) return cached;
  const provs = map.provinces;
  // The map's own integer tables (tables.ts): its indices, kinds and plain locations.
  const { n, index, ids, kind, plainLoc: armyLoc } = mapTables(map);
  const idx = (id: string): number => index.get(id)!;
  const armyAdjM = new Uint8Array(n * n);
  const armyAdj = provs.map((p, i) =>
    map
      .armyNeighbours(p.id)
      .map(idx)
      .filter((j) => j !== i && kind[j] !== KIND_SEA),
  );
  armyAdj.forEach((list, i) => {
    for (const j of list) armyAdjM[i * n + j] = 1;
  });
  const fleet: (FleetInfo | undefined)[] = new Array(n * (COASTS.length + 1)).fill(undefined);
  provs.forEach((p, i) => {
    if (p.kind === "land") return;
    const coasts: (Coast | null)[] = p.coasts.length > 0 ? [...p.coasts] : [null];
    for (const coast of coasts) {
      const targets = map
        .fleetNeighbours({ province: p.id, coast })
        .filter((l) => l.province !== p.id);
      const targetProv = targets.map((l) => idx(l.province));
      const reach = [...new Set(targetProv)];
      fleet[locationSlot(i, coast)] = { targets, targetProv, reach };
    }
  });
  const seaSeas: number[][] = provs.map(() => []);
  const seaCoasts: number[][] = provs.map(() => []);
  const seasTouching: number[][] = provs.map(() => []);
  provs.forEach((p, i) => {
    if (p.kind !== "sea") return;
    const info = fleet[locationSlot(i, null)]!;
    for (const j of info.reach) {
      if (kind[j] === KIND_SEA) seaSeas[i]!.push(j);
      else seaCoasts[i]!.push(j);
      seasTouching[j]!.push(i);
    }
  });
  const t: Tables = {
    n,
    index,
    ids,
    kind,
    armyLoc,
    armyAdj,
    armyAdjM,
    fleet,
    seaSeas,
    seaCoasts,
    seasTouching,
    at: new Int32Array(n),
    comp: new Int32Array(n),
    stamp: new Int32Array(n),
    compStamp: new Int32Array(n),
    incoming: new Int32Array(0),
    cap: 0,
    incomingN: new Int32Array(n),
    closed: new Uint8Array(n),
    marked: new Int32Array(n + 1),
    up: new Int32Array(n),
    counts: new Int32Array(n),
    stampCounter: 0,
  };
  tableCache.set(map, t);
  return t;
}

const fleetInfo = (t: Tables, prov: number, coast: Coast | null): FleetInfo | undefined =>
  t.fleet[locationSlot(prov, coast)];

/** A fresh stamp for the `stamp` / `compStamp` scratch arrays (cleared when it wraps). */
function nextStamp(t: Tables): number {
  if (t.stampCounter >= 0x7ffffff0) {
    t.stampCounter = 0;
    t.stamp.fill(0);
    t.compStamp.fill(0);
  }
  return ++t.stampCounter;
}

/** Fills `t.closed` for the position's phase (see `Variant.closed`). */
function markClosed(t: Tables, variant: Variant, position: Position): void {
  t.closed.fill(0);
  const set = variant.closed?.(position.phase);
  if (!set) return;
  for (const p of set) {
    const i = t.index.get(p);
    if (i !== undefined) t.closed[i] = 1;
  }
}

/** The board read for one movement phase (scratch arrays of the tables filled in). */
interface Prepared {
  readonly t: Tables;
  readonly units: readonly Unit[];
  /** Each unit's province index (scratch: longer than `units`). */
  readonly up: Int32Array;
  /** Per connected group of fleet-held seas, the coastal provinces it touches. */
  readonly compCoasts: readonly (readonly number[])[];
  readonly anyConvoy: boolean;
}

/*
 * The hot functions here define no functions inside them: tsx keeps function names by
 * wrapping every named inner function in a call that defines its `name` each time it is
 * made, which cost the self-play loop several per cent. Helpers are module functions.
 */

/** Lists unit `u` among those that could move to province `d`. */
function addIncoming(t: Tables, d: number, u: number): void {
  t.incoming[d * t.cap + t.incomingN[d]!++] = u;
}

/**
 * Marks (with a fresh stamp, returned) the provinces an army at `p` could be convoyed to, and
 * lists them in `t.marked` (with `p` itself, which is left unmarked).
 */
function markConvoyReach(prep: Prepared, p: number): number {
  const { t, compCoasts } = prep;
  const { comp, stamp, compStamp, marked, n } = t;
  const s = nextStamp(t);
  let m = 0;
  const seas = t.seasTouching[p]!;
  for (let x = 0; x < seas.length; x++) {
    const c = comp[seas[x]!]!;
    if (c === -1 || compStamp[c] === s) continue;
    compStamp[c] = s;
    const coasts = compCoasts[c]!;
    for (let y = 0; y < coasts.length; y++) {
      const j = coasts[y]!;
      if (stamp[j] === s) continue;
      stamp[j] = s;
      marked[m++] = j;
    }
  }
  marked[n] = m;
  stamp[p] = 0;
  return s;
}

function prepare(variant: Variant, position: Position): Prepared {
  const t = tablesFor(variant);
  const { kind, at, comp, stamp } = t;
  markClosed(t, variant, position);
  const units = position.units;
  const nu = units.length;
  at.fill(-1);
  comp.fill(-1);
  t.incomingN.fill(0);
  if (t.cap < units.length) {
    t.cap = units.length;
    t.incoming = new Int32Array(t.n * t.cap);
  }

  if (t.up.length < nu) t.up = new Int32Array(nu);
  const { up } = t;
  for (let u = 0; u < nu; u++) {
    const p = t.index.get(units[u]!.province)!;
    up[u] = p;
    at[p] = u;
  }

  // Connected groups of fleet-held seas, and the coasts each group touches.
  const compCoasts: number[][] = [];
  for (let u = 0; u < nu; u++) {
    const p = up[u]!;
    if (units[u]!.type !== "F" || kind[p] !== KIND_SEA || comp[p] !== -1) continue;
    const c = compCoasts.length;
    const coasts: number[] = [];
    compCoasts.push(coasts);
    const s0 = nextStamp(t);
    comp[p] = c;
    const queue = [p];
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      const seaCoasts = t.seaCoasts[s]!;
      for (let x = 0; x < seaCoasts.length; x++) {
        const j = seaCoasts[x]!;
        if (stamp[j] !== s0) {
          stamp[j] = s0;
          coasts.push(j);
        }
      }
      const seaSeas = t.seaSeas[s]!;
      for (let x = 0; x < seaSeas.length; x++) {
        const j = seaSeas[x]!;
        if (comp[j] !== -1) continue;
        const v = at[j]!;
        if (v === -1 || units[v]!.type !== "F") continue;
        comp[j] = c;
        queue.push(j);
      }
    }
  }
  const anyConvoy = compCoasts.length > 0;

  return { t, units, up, compCoasts, anyConvoy };
}

/**
 * Movement phase: for every unit of the position, every legal order (hold, moves incl. by
 * convoy, supports to hold and to move, convoys). Keys are the units' provinces, in the order
 * of `position.units`.
 *
 * - Armies move to each army neighbour; to each coastal province a chain of fleet-held seas
 *   joins to theirs (`viaConvoy: false` when not a land neighbour); and, for a land neighbour
 *   such a chain also reaches, `viaConvoy: true` as well.
 * - Fleets move to each location they can reach, one order per coast of a split coast.
 * - Supports: to hold, of each unit in a province the supporter can reach; to move, of each
 *   unit that could move (as above) into a province the supporter can reach (`toCoast` null).
 * - Convoys (fleets in seas): each army on a coast and each coastal destination joined to it
 *   by a chain of fleet-held seas that passes this fleet's sea.
 * - Nothing moves, supports a move or is convoyed into a province the variant closes in this
 *   phase (`Variant.closed`), and nothing supports a unit holding there (the supporter could
 *   not move there).
 */
export function legalMovementOrders(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
): Map<ProvinceId, readonly MovementOrder[]> {
  // DATC 6.G.19 (`unneededConvoy: illegal`): only fleets some minimal route needs convoy.
  const unneeded = rules.unneededConvoy === "illegal";
  const prep = prepare(variant, position);
  const { t, units, up, compCoasts, anyConvoy } = prep;
  const { n, kind, armyAdj, armyAdjM, ids, at, comp, stamp, incoming, cap, incomingN, closed } = t;
  const nu = units.length;
  const out = new Map<ProvinceId, MovementOrder[]>();
  // Holds and moves; and who could move where, for supports.
  for (let u = 0; u < nu; u++) {
    const unit = units[u]!;
    const p = up[u]!;
    const list: MovementOrder[] = [{ kind: "hold", unit }];
    out.set(unit.province, list);
    if (unit.type === "A") {
      const convoy = anyConvoy && kind[p] === KIND_COAST && t.seasTouching[p]!.length > 0;
      const s = convoy ? markConvoyReach(prep, p) : -1;
      for (const d of armyAdj[p]!) {
        if (closed[d] === 1) continue;
        list.push({ kind: "move", unit, to: t.armyLoc[d]!, viaConvoy: false });
        if (stamp[d] === s) list.push({ kind: "move", unit, to: t.armyLoc[d]!, viaConvoy: true });
        addIncoming(t, d, u);
      }
      if (convoy) {
        const row = p * n;
        for (let d = 0; d < n; d++) {
          if (stamp[d] !== s || armyAdjM[row + d] === 1 || closed[d] === 1) continue;
          list.push({ kind: "move", unit, to: t.armyLoc[d]!, viaConvoy: false });
          addIncoming(t, d, u);
        }
      }
    } else {
      const info = fleetInfo(t, p, unit.coast);
      if (!info) continue;
      const { targets, targetProv } = info;
      for (let i = 0; i < targets.length; i++) {
        if (closed[targetProv[i]!] === 1) continue;
        list.push({ kind: "move", unit, to: targets[i]!, viaConvoy: false });
      }
      for (const d of info.reach) if (closed[d] !== 1) addIncoming(t, d, u);
    }
  }

  // Supports and convoys.
  for (let u = 0; u < nu; u++) {
    const unit = units[u]!;
    const p = up[u]!;
    const list = out.get(unit.province)!;
    const reach = unit.type === "A" ? armyAdj[p]! : (fleetInfo(t, p, unit.coast)?.reach ?? []);
    for (const d of reach) {
      const v = at[d]!;
      if (v === -1 || closed[d] === 1) continue;
      list.push({
        kind: "support",
        unit,
        target: ids[d]!,
        targetType: units[v]!.type,
        to: null,
        toCoast: null,
      });
    }
    for (const d of reach) {
      const row = d * cap;
      for (let q = 0; q < incomingN[d]!; q++) {
        const v = incoming[row + q]!;
        if (v === u) continue;
        const x = units[v]!;
        list.push({
          kind: "support",
          unit,
          target: x.province,
          targetType: x.type,
          to: ids[d]!,
          toCoast: null,
        });
      }
    }
    if (unit.type === "F" && kind[p] === KIND_SEA) {
      const coasts = compCoasts[comp[p]!]!;
      for (const a of coasts) {
        const v = at[a]!;
        if (v === -1 || units[v]!.type !== "A") continue;
        for (const d of coasts) {
          if (d === a || closed[d] === 1) continue;
          if (unneeded && !minimalRouteSeas(variant.map, ids[a]!, ids[d]!).has(ids[p]!)) continue;
          list.push({ kind: "convoy", unit, from: ids[a]!, to: ids[d]!, targetType: "A" });
        }
      }
    }
  }
  return out;
}

/**
 * One legal order per unit, each drawn uniformly from the unit's legal orders by `r` (as
 * `r.pick` draws from the unit's list of `legalMovementOrders`, in the order of
 * `position.units`), without building the lists: each unit's orders are counted, and only
 * the one drawn is made. Self-play's random agent; a test holds it to the lists.
 */
export function randomLegalMovementOrders(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
  r: Rng,
): MovementOrder[] {
  const unneeded = rules.unneededConvoy === "illegal";
  const prep = prepare(variant, position);
  const { t, units, up, compCoasts, anyConvoy } = prep;
  const { n, kind, armyAdj, armyAdjM, ids, at, comp, stamp, incoming, cap, incomingN, closed } = t;
  const nu = units.length;
  if (t.counts.length < nu) t.counts = new Int32Array(nu);
  const moves = t.counts;
  // Pass 1, as legalMovementOrders' first loop: the moves of each unit counted, and who could
  // move where.
  for (let u = 0; u < nu; u++) {
    const unit = units[u]!;
    const p = up[u]!;
    let c = 0;
    if (unit.type === "A") {
      const convoy = anyConvoy && kind[p] === KIND_COAST && t.seasTouching[p]!.length > 0;
      const s = convoy ? markConvoyReach(prep, p) : -1;
      const adj = armyAdj[p]!;
      for (let x = 0; x < adj.length; x++) {
        const d = adj[x]!;
        if (closed[d] === 1) continue;
        c += stamp[d] === s ? 2 : 1;
        addIncoming(t, d, u);
      }
      if (convoy) {
        // The marked provinces, in another order than legalMovementOrders' scan: only the
        // count matters here, and each unit is listed once per province.
        const row = p * n;
        const { marked } = t;
        const m = marked[n]!;
        for (let i = 0; i < m; i++) {
          const d = marked[i]!;
          if (stamp[d] !== s || armyAdjM[row + d] === 1 || closed[d] === 1) continue;
          c++;
          addIncoming(t, d, u);
        }
      }
    } else {
      const info = fleetInfo(t, p, unit.coast);
      if (info) {
        const { targetProv, reach } = info;
        for (let x = 0; x < targetProv.length; x++) if (closed[targetProv[x]!] !== 1) c++;
        for (let x = 0; x < reach.length; x++) {
          const d = reach[x]!;
          if (closed[d] !== 1) addIncoming(t, d, u);
        }
      }
    }
    moves[u] = c;
  }
  const out: MovementOrder[] = [];
  for (let u = 0; u < nu; u++) {
    const unit = units[u]!;
    const p = up[u]!;
    const reach = unit.type === "A" ? armyAdj[p]! : (fleetInfo(t, p, unit.coast)?.reach ?? []);
    let holdSupports = 0;
    let moveSupports = 0;
    for (let x = 0; x < reach.length; x++) {
      const d = reach[x]!;
      // Pass 1 listed this unit among those that could move to each open province of its
      // reach (that reach is where it moves), and only there: it supports none of its own.
      if (closed[d] === 1) moveSupports += incomingN[d]!;
      else {
        moveSupports += incomingN[d]! - 1;
        if (at[d] !== -1) holdSupports++;
      }
    }
    const convoyer = unit.type === "F" && kind[p] === KIND_SEA;
    const coasts = convoyer ? compCoasts[comp[p]!]! : [];
    let convoys = 0;
    if (convoyer) {
      let open = 0;
      for (let x = 0; x < coasts.length; x++) if (closed[coasts[x]!] !== 1) open++;
      for (let x = 0; x < coasts.length; x++) {
        const a = coasts[x]!;
        const v = at[a]!;
        if (v === -1 || units[v]!.type !== "A") continue;
        if (unneeded)
          for (let y = 0; y < coasts.length; y++)
            convoys += convoyListed(variant, t, unneeded, p, a, coasts[y]!) ? 1 : 0;
        else convoys += open - (closed[a] !== 1 ? 1 : 0);
      }
    }
    let k = r.int(1 + moves[u]! + holdSupports + moveSupports + convoys);
    if (k === 0) {
      out.push({ kind: "hold", unit });
      continue;
    }
    k -= 1;
    if (k < moves[u]!) {
      out.push(kthMove(prep, unit, p, k));
      continue;
    }
    k -= moves[u]!;
    if (k < holdSupports) {
      for (let x = 0; x < reach.length; x++) {
        const d = reach[x]!;
        const v = at[d]!;
        if (v === -1 || closed[d] === 1 || k-- > 0) continue;
        out.push({
          kind: "support",
          unit,
          target: ids[d]!,
          targetType: units[v]!.type,
          to: null,
          toCoast: null,
        });
        break;
      }
      continue;
    }
    k -= holdSupports;
    if (k < moveSupports) {
      let found: MovementOrder | null = null;
      for (let x = 0; x < reach.length; x++) {
        const d = reach[x]!;
        const row = d * cap;
        for (let q = 0; q < incomingN[d]!; q++) {
          const v = incoming[row + q]!;
          if (v === u || k-- > 0) continue;
          const x = units[v]!;
          found = {
            kind: "support",
            unit,
            target: x.province,
            targetType: x.type,
            to: ids[d]!,
            toCoast: null,
          };
          break;
        }
        if (found) break;
      }
      out.push(found!);
      continue;
    }
    k -= moveSupports;
    let found: MovementOrder | null = null;
    for (let x = 0; x < coasts.length; x++) {
      const a = coasts[x]!;
      const v = at[a]!;
      if (v === -1 || units[v]!.type !== "A") continue;
      for (let y = 0; y < coasts.length; y++) {
        const d = coasts[y]!;
        if (!convoyListed(variant, t, unneeded, p, a, d) || k-- > 0) continue;
        found = { kind: "convoy", unit, from: ids[a]!, to: ids[d]!, targetType: "A" };
        break;
      }
      if (found) break;
    }
    out.push(found!);
  }
  return out;
}

/** Whether the convoy by the fleet in `p` of the army in `a` to `d` is listed. */
function convoyListed(
  variant: Variant,
  t: Tables,
  unneeded: boolean,
  p: number,
  a: number,
  d: number,
): boolean {
  const { ids } = t;
  return (
    d !== a &&
    t.closed[d] !== 1 &&
    !(unneeded && !minimalRouteSeas(variant.map, ids[a]!, ids[d]!).has(ids[p]!))
  );
}

/** The `k`-th move of a unit, in the order `legalMovementOrders` lists its moves. */
function kthMove(prep: Prepared, unit: Unit, p: number, k: number): MovementOrder {
  const { t, anyConvoy } = prep;
  const { n, kind, armyAdj, armyAdjM, stamp, closed } = t;
  if (unit.type === "A") {
    const convoy = anyConvoy && kind[p] === KIND_COAST && t.seasTouching[p]!.length > 0;
    const s = convoy ? markConvoyReach(prep, p) : -1;
    const adj = armyAdj[p]!;
    for (let x = 0; x < adj.length; x++) {
      const d = adj[x]!;
      if (closed[d] === 1) continue;
      if (k-- === 0) return { kind: "move", unit, to: t.armyLoc[d]!, viaConvoy: false };
      if (stamp[d] === s && k-- === 0)
        return { kind: "move", unit, to: t.armyLoc[d]!, viaConvoy: true };
    }
    const row = p * n;
    for (let d = 0; d < n; d++) {
      if (stamp[d] !== s || armyAdjM[row + d] === 1 || closed[d] === 1) continue;
      if (k-- === 0) return { kind: "move", unit, to: t.armyLoc[d]!, viaConvoy: false };
    }
  } else {
    const info = fleetInfo(t, p, unit.coast)!;
    for (let i = 0; i < info.targets.length; i++) {
      if (closed[info.targetProv[i]!] === 1) continue;
      if (k-- === 0) return { kind: "move", unit, to: info.targets[i]!, viaConvoy: false };
    }
  }
  throw new Error(`no move ${k} for ${unit.type} ${unit.province}`);
}

/**
 * Whether dislodged unit `d` may not retreat to province `q` (`t.at` marks occupied ones).
 * `toConvoyOrigin` is the rule `retreatToConvoyedAttackerOrigin`, read once by the caller (a
 * read here, on a path few retreats take, was a deoptimization of its optimized caller).
 */
function retreatBlocked(t: Tables, d: DislodgedUnit, q: number, toConvoyOrigin: boolean): boolean {
  return (
    t.at[q] === 1 ||
    t.closed[q] === 1 ||
    (d.attackerFrom === t.ids[q] && !(d.viaConvoy && toConvoyOrigin))
  );
}

/**
 * Retreat phase: for every dislodged unit (keyed by its province), its legal retreats (one
 * per reachable coast) and the disband. The orders name the position's `DislodgedUnit`
 * objects, as the adjudicator does when it reads a retreat order.
 */
export function legalRetreatOrders(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
): Map<string, readonly Order[]> {
  const t = tablesFor(variant);
  const { at } = t;
  const toConvoyOrigin = rules.retreatToConvoyedAttackerOrigin;
  markClosed(t, variant, position);
  at.fill(-1);
  for (const u of position.units) at[t.index.get(u.province)!] = 1;
  for (const c of position.contested) at[t.index.get(c)!] = 1;
  const out = new Map<string, Order[]>();
  for (const dislodged of position.dislodged) {
    const d = dislodged;
    const unit = makeUnit(d.power, d.type, d.province, d.coast);
    const list: Order[] = [];
    const p = t.index.get(d.province)!;
    if (d.type === "A") {
      for (const q of t.armyAdj[p]!) {
        if (!retreatBlocked(t, d, q, toConvoyOrigin))
          list.push({ kind: "retreat", unit, to: t.armyLoc[q]! });
      }
    } else {
      const info = fleetInfo(t, p, d.coast);
      if (info) {
        info.targets.forEach((to, i) => {
          if (!retreatBlocked(t, d, info.targetProv[i]!, toConvoyOrigin))
            list.push({ kind: "retreat", unit, to });
        });
      }
    }
    list.push({ kind: "disband", unit });
    out.set(dislodgedKey(d), list);
  }
  return out;
}

/**
 * Adjustment phase: per power with something to do, the legal orders and how many may be
 * given. A power with builds due gets a build of each possible type (and coast) at each free
 * owned home centre, and `waive`; `count` is the builds due (waives fill what builds cannot).
 * A power with too many units gets a remove of each of its units; `count` is the removals
 * required. Powers with nothing to do are absent.
 */
export function legalAdjustmentOrders(
  variant: Variant,
  position: Position,
  _rules: RuleOptions,
): Map<PowerId, { readonly count: number; readonly orders: readonly Order[] }> {
  const map = variant.map;
  const out = new Map<PowerId, { readonly count: number; readonly orders: readonly Order[] }>();
  for (const [power, n] of adjustmentCounts(variant, position)) {
    if (n === 0) continue;
    const orders: Order[] = [];
    if (n > 0) {
      for (const site of buildSites(variant, position, power)) {
        const prov = map.get(site);
        if (prov.kind !== "sea")
          orders.push({ kind: "build", unit: { power, type: "A", province: site, coast: null } });
        if (prov.kind === "coast") {
          if (prov.coasts.length === 0)
            orders.push({ kind: "build", unit: { power, type: "F", province: site, coast: null } });
          else
            for (const coast of prov.coasts)
              orders.push({ kind: "build", unit: { power, type: "F", province: site, coast } });
        }
      }
      orders.push({ kind: "waive", power });
      out.set(power, { count: n, orders });
    } else {
      for (const u of position.units)
        if (u.power === power) orders.push({ kind: "remove", unit: u });
      out.set(power, { count: -n, orders });
    }
  }
  return out;
}

/**
 * Random adjustments, drawn as self-play draws them from `legalAdjustmentOrders`' lists
 * (`randomEngineOrders`: per power with something to do, in the variant's order of powers,
 * the build sites, or the units to remove, shuffled by `r`, and the first `count` of them
 * each given one of its orders by `r.pick`), without making the lists: the same draws in the
 * same order, the same orders. Powers in `skip` are drawn for but get no orders. null when the
 * position names a power the variant does not list or puts two units in one province: the
 * caller then draws from the lists.
 */
export function randomAdjustmentOrders(
  variant: Variant,
  position: Position,
  skip: readonly PowerId[],
  r: Rng,
): Order[] | null {
  const pt = powerTables(variant);
  const mt = mapTables(variant.map);
  const np = pt.ids.length;
  const counts = new Int32Array(np);
  for (const owner of position.centers.values()) {
    const w = pt.index.get(owner);
    if (w === undefined) return null;
    counts[w]!++;
  }
  const s = nextMark(mt);
  for (const u of position.units) {
    const w = pt.index.get(u.power);
    const i = mt.index.get(u.province);
    if (w === undefined || i === undefined || mt.mark[i] === s) return null;
    counts[w]!--;
    mt.mark[i] = s;
  }
  const out: Order[] = [];
  const sites: number[] = [];
  for (let w = 0; w < np; w++) {
    const n = counts[w]!;
    if (n === 0) continue;
    const power = pt.ids[w]!;
    sites.length = 0;
    if (n > 0) {
      // buildSites: the power's home centres it owns, empty.
      for (const h of pt.homes[w]!)
        if (
          mt.mark[h] !== s &&
          mt.kind[h] !== KIND_SEA &&
          position.centers.get(mt.ids[h]!) === power
        )
          sites.push(h);
    } else {
      for (let u = 0; u < position.units.length; u++)
        if (position.units[u]!.power === power) sites.push(u);
    }
    for (let i = sites.length - 1; i > 0; i--) {
      const j = r.int(i + 1);
      const x = sites[i]!;
      sites[i] = sites[j]!;
      sites[j] = x;
    }
    const take = Math.min(sites.length, Math.abs(n));
    for (let k = 0; k < take; k++) {
      let o: Order;
      if (n > 0) {
        const h = sites[k]!;
        const prov = variant.map.get(mt.ids[h]!);
        // The site's builds as legalAdjustmentOrders lists them: an army, then the fleets.
        const armies = prov.kind !== "sea" ? 1 : 0;
        const fleets = prov.kind === "coast" ? Math.max(1, prov.coasts.length) : 0;
        const c = r.int(armies + fleets);
        const type = c < armies ? "A" : "F";
        const coast = type === "A" || prov.coasts.length === 0 ? null : prov.coasts[c - armies]!;
        o = { kind: "build", unit: { power, type, province: prov.id, coast } };
      } else {
        r.int(1); // r.pick from the unit's one order
        o = { kind: "remove", unit: position.units[sites[k]!]! };
      }
      if (!skip.includes(power)) out.push(o);
    }
  }
  return out;
}
