/*
 * A map as the built-in players read it: every place a unit can stand (an army in a
 * province, a fleet on a coast or a sea) is a node, and each node knows how many moves its
 * unit needs to reach each province. Built once per map (variants sharing a board share it);
 * pure, like the engine.
 */
import type { GameMap } from "../engine/map.ts";
import { KIND_LAND, KIND_SEA, locationSlot, mapTables } from "../engine/tables.ts";
import type { Coast, Location, ProvinceId, Unit, UnitType } from "../engine/types.ts";

/** Moves a unit cannot make at all (no path for its type). */
export const FAR = 255;

export interface Geometry {
  readonly map: GameMap;
  /** Provinces, indexed as `mapTables(map)` indexes them. */
  readonly n: number;
  readonly ids: readonly ProvinceId[];
  readonly index: ReadonlyMap<string, number>;
  /** The supply centres' province indices. */
  readonly centres: Int32Array;
  /** 1 for a supply centre. */
  readonly isCentre: Uint8Array;
  /** Per province, its army node (-1 where an army cannot stand). */
  readonly armyNode: Int32Array;
  /** Per `locationSlot`, the fleet node (-1 where a fleet cannot stand). */
  readonly fleetNode: Int32Array;
  /** Per node, its province and unit type. */
  readonly nodeProv: Int32Array;
  readonly nodeType: readonly UnitType[];
  /** Per node, the nodes its unit may move to. */
  readonly adj: readonly Int32Array[];
  /** `dist[node * n + province]`: moves from the node to the province (FAR: none). */
  readonly dist: Uint8Array;
}

const cache = new WeakMap<GameMap, Geometry>();

export function geometryOf(map: GameMap): Geometry {
  const known = cache.get(map);
  if (known) return known;
  const t = mapTables(map);
  const { n, ids, index, kind } = t;
  const armyNode = new Int32Array(n).fill(-1);
  const fleetNode = new Int32Array(n * 5).fill(-1);
  const nodeProv: number[] = [];
  const nodeType: UnitType[] = [];
  const nodeLoc: Location[] = [];
  map.provinces.forEach((p, i) => {
    if (p.impassable) return;
    if (kind[i] !== KIND_SEA) {
      armyNode[i] = nodeProv.length;
      nodeProv.push(i);
      nodeType.push("A");
      nodeLoc.push({ province: p.id, coast: null });
    }
    if (kind[i] !== KIND_LAND) {
      const coasts: (Coast | null)[] = p.coasts.length > 0 ? [...p.coasts] : [null];
      for (const coast of coasts) {
        fleetNode[locationSlot(i, coast)] = nodeProv.length;
        nodeProv.push(i);
        nodeType.push("F");
        nodeLoc.push({ province: p.id, coast });
      }
    }
  });
  const adj: Int32Array[] = nodeLoc.map((loc, v) => {
    if (nodeType[v] === "A")
      return Int32Array.from(
        map
          .armyNeighbours(loc.province)
          .map((q) => armyNode[index.get(q)!]!)
          .filter((x) => x >= 0),
      );
    return Int32Array.from(
      map
        .fleetNeighbours(loc)
        .map((l) => fleetNode[locationSlot(index.get(l.province)!, l.coast)]!)
        .filter((x) => x >= 0),
    );
  });
  const nodes = nodeProv.length;
  const dist = new Uint8Array(nodes * n).fill(FAR);
  const seen = new Int32Array(nodes).fill(-1);
  const queue = new Int32Array(nodes);
  for (let s = 0; s < nodes; s++) {
    // Breadth first over the nodes of the unit's type; a province is reached at any coast.
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    seen[s] = s;
    const depth = new Int32Array(nodes);
    while (head < tail) {
      const v = queue[head++]!;
      const d = depth[v]!;
      const cell = s * n + nodeProv[v]!;
      if (dist[cell]! > d) dist[cell] = Math.min(d, FAR - 1);
      for (const w of adj[v]!) {
        if (seen[w] === s) continue;
        seen[w] = s;
        depth[w] = d + 1;
        queue[tail++] = w;
      }
    }
  }
  const centres = Int32Array.from(
    map.provinces.flatMap((p, i) => (p.supplyCenter && !p.impassable ? [i] : [])),
  );
  const g: Geometry = {
    map,
    n,
    ids,
    index,
    centres,
    isCentre: t.supplyCenter,
    armyNode,
    fleetNode,
    nodeProv: Int32Array.from(nodeProv),
    nodeType,
    adj,
    dist,
  };
  cache.set(map, g);
  return g;
}

/** The node a unit (or a unit about to stand at a location) occupies; -1 if none. */
export function nodeAt(
  g: Geometry,
  type: UnitType,
  province: ProvinceId,
  coast: Coast | null,
): number {
  const p = g.index.get(province);
  if (p === undefined) return -1;
  if (type === "A") return g.armyNode[p]!;
  return g.fleetNode[locationSlot(p, coast)]!;
}

export const nodeOf = (g: Geometry, u: Unit): number => nodeAt(g, u.type, u.province, u.coast);
