/*
 * Integer tables of a map and of a variant's powers, built once and cached, for the hot
 * paths around the adjudicator (the invariant check, the centres and adjustments of a phase):
 * a province's facts are array reads at its index, and a set of provinces is a stamp array
 * (no `Set` or `Map` made per phase). The engine's types stay keyed by ids; these are views
 * of the same map. Pure; the scratch arrays are used by synchronous functions only.
 */

import type { GameMap } from "./map.ts";
import { COASTS, type Coast, type Location, type PowerId, type ProvinceId } from "./types.ts";
import type { Variant } from "./variant.ts";

export const KIND_LAND = 0;
export const KIND_SEA = 1;
export const KIND_COAST = 2;

export interface MapTables {
  readonly n: number;
  /** A province's index (its place in `GameMap.provinces`). */
  readonly index: ReadonlyMap<string, number>;
  readonly ids: readonly ProvinceId[];
  /** `KIND_LAND`, `KIND_SEA` or `KIND_COAST` per province. */
  readonly kind: Uint8Array;
  /** 1 for a supply centre. */
  readonly supplyCenter: Uint8Array;
  /** Per province, bit `i` set when `COASTS[i]` is one of its named coasts (0: none). */
  readonly coastBits: Uint8Array;
  /** 1 for impassable land. */
  readonly impassable: Uint8Array;
  /** n*n: 1 where `GameMap.armyAdjacent(row, column)`. */
  readonly armyAdjM: Uint8Array;
  /** `{ province, coast: null }` per province. */
  readonly plainLoc: readonly Location[];
  /**
   * `GameMap.fleetTargets(from, to)` as a table: at `locationSlot(p, coast)` of `from`, per
   * province index of `to`, the locations of `to` a fleet there can reach (often empty).
   */
  readonly fleetTo: readonly (readonly (readonly Location[])[])[];
  /** Per province, its place among the seas (0 to `seas - 1`), or -1 for land and coasts. */
  readonly seaIndex: Int32Array;
  readonly seas: number;
  /**
   * n*n*seas, made and filled on demand: whether a chain of seas (all of them usable) from a
   * sea next to province `a` to a sea next to `b` can pass sea `s` (`seaRoute(map, a, b, all,
   * s)`), at `(a*n + b)*seas + seaIndex[s]`: 0 not yet known, 1 no, 2 yes.
   */
  convoyThrough: Uint8Array | null;
  /** Per province, the seas that touch it (a fleet there could move to it), as in convoy.ts. */
  readonly seasAt: readonly Int32Array[];
  /** Per sea, the seas next to it; empty for other provinces. */
  readonly seaNext: readonly Int32Array[];
  /** Scratch: provinces marked with the current stamp (`nextMark`). */
  readonly mark: Int32Array;
  markCounter: number;
}

const mapCache = new WeakMap<GameMap, MapTables>();

export function mapTables(map: GameMap): MapTables {
  const cached = mapCache.get(map);
  if (cached) return cached;
  const provs = map.provinces;
  const n = provs.length;
  const index = new Map<string, number>();
  const kind = new Uint8Array(n);
  const supplyCenter = new Uint8Array(n);
  const coastBits = new Uint8Array(n);
  const impassable = new Uint8Array(n);
  provs.forEach((p, i) => {
    index.set(p.id, i);
    kind[i] = p.kind === "sea" ? KIND_SEA : p.kind === "coast" ? KIND_COAST : KIND_LAND;
    supplyCenter[i] = p.supplyCenter ? 1 : 0;
    impassable[i] = p.impassable ? 1 : 0;
    for (const c of p.coasts) coastBits[i]! |= coastBit(c);
  });
  const armyAdjM = new Uint8Array(n * n);
  provs.forEach((p, i) => {
    for (const q of map.armyNeighbours(p.id)) armyAdjM[i * n + index.get(q)!] = 1;
  });
  const none: (readonly Location[])[] = new Array(n).fill(NO_LOCATIONS);
  const fleetTo: (readonly (readonly Location[])[])[] = new Array(n * SLOTS).fill(none);
  provs.forEach((p, i) => {
    const coasts: (Coast | null)[] = p.coasts.length > 0 ? [...p.coasts] : [null];
    for (const coast of coasts) {
      const row: Location[][] = provs.map(() => []);
      for (const l of map.fleetNeighbours({ province: p.id, coast }))
        row[index.get(l.province)!]!.push(l);
      fleetTo[locationSlot(i, coast)] = row.map((l) => (l.length === 0 ? NO_LOCATIONS : l));
    }
  });
  const seaIndex = new Int32Array(n).fill(-1);
  let seas = 0;
  provs.forEach((p, i) => {
    if (p.kind === "sea") seaIndex[i] = seas++;
  });
  const seasAt: number[][] = provs.map(() => []);
  const seaNext: number[][] = provs.map(() => []);
  provs.forEach((p, i) => {
    if (p.kind !== "sea") return;
    const touching = new Set<number>();
    for (const l of map.fleetNeighbours({ province: p.id, coast: null }))
      touching.add(index.get(l.province)!);
    for (const j of touching) {
      seasAt[j]!.push(i);
      if (kind[j] === KIND_SEA) seaNext[i]!.push(j);
    }
  });
  const t: MapTables = {
    n,
    index,
    ids: provs.map((p) => p.id),
    kind,
    supplyCenter,
    coastBits,
    impassable,
    armyAdjM,
    plainLoc: provs.map((p) => ({ province: p.id, coast: null })),
    fleetTo,
    seaIndex,
    seas,
    convoyThrough: null,
    seasAt: seasAt.map((l) => Int32Array.from(l)),
    seaNext: seaNext.map((l) => Int32Array.from(l)),
    mark: new Int32Array(n),
    markCounter: 0,
  };
  mapCache.set(map, t);
  return t;
}

const NO_LOCATIONS: readonly Location[] = [];
const SLOTS = COASTS.length + 1;

/** Where a location's row is in `MapTables.fleetTo`: province index and coast. */
export const locationSlot = (p: number, coast: Coast | null): number =>
  p * SLOTS + (coast === null ? 0 : 1 + COASTS.indexOf(coast));

/** The bit of a named coast in `MapTables.coastBits`. */
export const coastBit = (c: Coast): number => 1 << COASTS.indexOf(c);

/** A fresh stamp for `t.mark` (the array is cleared when the counter wraps). */
export function nextMark(t: MapTables): number {
  if (t.markCounter >= 0x7ffffff0) {
    t.markCounter = 0;
    t.mark.fill(0);
  }
  return ++t.markCounter;
}

export interface PowerTables {
  /** A power's index (its place in `Variant.powers`). */
  readonly index: ReadonlyMap<string, number>;
  readonly ids: readonly PowerId[];
  /** Per power, its home supply centres' province indices, in the map's order. */
  readonly homes: readonly Int32Array[];
  /** Scratch counters, one per power (centres, units). */
  readonly a: Int32Array;
  readonly b: Int32Array;
}

const powerCache = new WeakMap<Variant, PowerTables>();

export function powerTables(variant: Variant): PowerTables {
  const cached = powerCache.get(variant);
  if (cached) return cached;
  const ids = variant.powers.map((p) => p.id);
  const index = new Map<string, number>(ids.map((id, i) => [id, i]));
  const m = mapTables(variant.map);
  const homes = ids.map((id) =>
    Int32Array.from(variant.map.homeCenters(id).map((p) => m.index.get(p.id)!)),
  );
  const t: PowerTables = {
    index,
    ids,
    homes,
    a: new Int32Array(ids.length),
    b: new Int32Array(ids.length),
  };
  powerCache.set(variant, t);
  return t;
}
