/**
 * The board as the lists of legal orders read it: per-variant tables built once and cached
 * (fleet moves per location, armies' neighbours, convoy reach, scratch stamps), the provinces
 * a variant closes in a phase, and one movement phase's board prepared (who stands where, who
 * could move where, which armies fleets could carry).
 */

import type { GameMap } from "./map.ts";
import { KIND_SEA, locationSlot, mapTables } from "./tables.ts";
import {
  COASTS,
  type Coast,
  type Location,
  type Position,
  type ProvinceId,
  type Unit,
} from "./types.ts";
import type { Variant } from "./variant.ts";

/** Where a fleet at one location may go. */
interface FleetInfo {
  /** Target locations (one per reachable coast), not in its own province. */
  readonly targets: readonly Location[];
  /** The province index of each target. */
  readonly targetProv: readonly number[];
  /** The distinct provinces it can reach (any coast), not its own. */
  readonly reach: readonly number[];
}

export interface Tables {
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

export function tablesFor(variant: Variant): Tables {
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

export const fleetInfo = (t: Tables, prov: number, coast: Coast | null): FleetInfo | undefined =>
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
export function markClosed(t: Tables, variant: Variant, position: Position): void {
  t.closed.fill(0);
  const set = variant.closed?.(position.phase);
  if (!set) return;
  for (const p of set) {
    const i = t.index.get(p);
    if (i !== undefined) t.closed[i] = 1;
  }
}

/** The board read for one movement phase (scratch arrays of the tables filled in). */
export interface Prepared {
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
export function addIncoming(t: Tables, d: number, u: number): void {
  t.incoming[d * t.cap + t.incomingN[d]!++] = u;
}

/**
 * Marks (with a fresh stamp, returned) the provinces an army at `p` could be convoyed to, and
 * lists them in `t.marked` (with `p` itself, which is left unmarked).
 */
export function markConvoyReach(prep: Prepared, p: number): number {
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

export function prepare(variant: Variant, position: Position): Prepared {
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
