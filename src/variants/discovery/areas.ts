/**
 * The areas of an Age of Discovery map and the graphs units move on. Pure functions over a
 * generated map (generate.ts makes one).
 */
import type { Grid } from "./grid.ts";

/** Land (inland), coast (land touching water) or water (a sea area). */
export type Terrain = "land" | "coast" | "water";

export interface DiscoveryArea {
  /** The area id every player shares (1..n: land and coast first, then water, as in the seed). */
  readonly id: number;
  readonly terrain: Terrain;
  /**
   * Its one to three squares in index order (north to south, west to east); the first is the
   * anchor, which names the area and where the map prints its data.
   */
  readonly squares: readonly number[];
  /** Supply points: 0 (none), 1 or 2. Only land and coast areas have any. */
  readonly supply: 0 | 1 | 2;
  /** Areas sharing at least one square edge with this one, ascending. */
  readonly neighbours: readonly number[];
}

/** A player's start: the same for every player (docs/discovery.md, "Fair starts"). */
export interface PlayerStart {
  /** Players are numbered 1..n, as Great Powers are in Global Diplomacy. */
  readonly player: number;
  /** Owned areas: [the coastal 2-point centre, the 1-point centre, a third area]. */
  readonly areas: readonly number[];
  readonly units: readonly { readonly area: number; readonly kind: "squadron" | "corps" }[];
}

export interface DiscoveryMap extends Grid {
  /** The seed the map was generated from. */
  readonly seed: number;
  readonly players: number;
  /** Which of the generator's attempts met every fairness condition (generate.ts). */
  readonly attempt: number;
  /** The area id of every square. */
  readonly squareArea: readonly number[];
  /** All areas; `areas[id - 1]` has that id. */
  readonly areas: readonly DiscoveryArea[];
  /** `starts[player - 1]`. */
  readonly starts: readonly PlayerStart[];
  /** Each player's offset for square names (names.ts), `offsets[player - 1]`. */
  readonly offsets: readonly { readonly dx: number; readonly dy: number }[];
}

export function areaOf(map: DiscoveryMap, id: number): DiscoveryArea {
  const a = map.areas[id - 1];
  if (a === undefined)
    throw new Error(`no area ${id}: areas are numbered 1 to ${map.areas.length}`);
  return a;
}

const isLand = (a: DiscoveryArea): boolean => a.terrain !== "water";

/** Areas an army or corps may move to from `id`: adjacent land or coast. */
export function armyNeighbours(map: DiscoveryMap, id: number): number[] {
  const a = areaOf(map, id);
  if (!isLand(a)) return [];
  return a.neighbours.filter((n) => isLand(areaOf(map, n)));
}

/**
 * Areas a fleet or squadron may move to from `id`: water to adjacent water or coast; coast to
 * adjacent water, and to an adjacent coast only when both border one same water area (the
 * seed's 90-Siam/91-Malay States/245-Bay of Bengal rule, section 3).
 */
export function navalNeighbours(map: DiscoveryMap, id: number): number[] {
  const a = areaOf(map, id);
  if (a.terrain === "land") return [];
  if (a.terrain === "water") return a.neighbours.filter((n) => areaOf(map, n).terrain !== "land");
  const seas = new Set(a.neighbours.filter((n) => areaOf(map, n).terrain === "water"));
  return a.neighbours.filter((n) => {
    const b = areaOf(map, n);
    if (b.terrain === "water") return true;
    if (b.terrain === "land") return false;
    return b.neighbours.some((m) => seas.has(m));
  });
}

/**
 * Distances in moves from the `from` nodes over a graph of nodes 0..size-1 (`next` gives a
 * node's neighbours), as an array with -1 for nodes not reached: the fast form.
 */
export function distanceArray(
  size: number,
  from: Iterable<number>,
  next: (id: number) => readonly number[],
): Int32Array {
  const dist = new Int32Array(size).fill(-1);
  const queue = new Int32Array(size);
  let head = 0;
  let tail = 0;
  for (const f of from) {
    if (dist[f] === -1) {
      dist[f] = 0;
      queue[tail++] = f;
    }
  }
  while (head < tail) {
    const a = queue[head++]!;
    const d = dist[a]! + 1;
    for (const n of next(a)) {
      if (dist[n] === -1) {
        dist[n] = d;
        queue[tail++] = n;
      }
    }
  }
  return dist;
}

/**
 * Distances in moves from the `from` areas over a graph (`next` gives an area's neighbours);
 * unreachable areas are absent.
 */
export function distances(
  from: Iterable<number>,
  next: (id: number) => readonly number[],
): Map<number, number> {
  const dist = new Map<number, number>();
  let frontier: number[] = [];
  for (const f of from) {
    if (!dist.has(f)) {
      dist.set(f, 0);
      frontier.push(f);
    }
  }
  let d = 0;
  while (frontier.length > 0) {
    d++;
    const nextFrontier: number[] = [];
    for (const a of frontier) {
      for (const n of next(a)) {
        if (!dist.has(n)) {
          dist.set(n, d);
          nextFrontier.push(n);
        }
      }
    }
    frontier = nextFrontier;
  }
  return dist;
}

/** Distances over every border, whatever the terrain (used for spies and spacing). */
export function areaDistances(map: DiscoveryMap, from: Iterable<number>): Map<number, number> {
  return distances(from, (id) => areaOf(map, id).neighbours);
}

/** Distances over land borders only (how far an army walks). */
export function landDistances(map: DiscoveryMap, from: Iterable<number>): Map<number, number> {
  return distances(from, (id) => armyNeighbours(map, id));
}

/**
 * The index of the one home strictly nearest to `area` (`from`: the distances from each home), or -1 when
 * two or more are equally near.
 */
export function nearestHome(from: readonly ReadonlyMap<number, number>[], area: number): number {
  let best = -1;
  let bestD = Infinity;
  let tie = false;
  for (const [i, d] of from.entries()) {
    const di = d.get(area) ?? Infinity;
    if (di < bestD) {
      bestD = di;
      best = i;
      tie = false;
    } else if (di === bestD) tie = true;
  }
  return tie ? -1 : best;
}
