/**
 * Distances for civil-disorder removals (DATC 4.D.8): moves from a unit to the nearest home
 * centre of its power (`distanceToHome`), or to the nearest of a set of provinces
 * (`distanceToOwned`).
 */

import type { GameMap } from "./map.ts";
import type { PowerId, ProvinceId, Unit } from "./types.ts";

/**
 * Moves from a unit to the nearest home centre of `power`, for civil-disorder removals
 * (DATC 4.D.8). Fleets count fleet moves (from their own coast, to any coast); armies count
 * army moves and may also cross seas as if convoyed, whether or not fleets are there.
 * Occupation is ignored. Returns Infinity where no home centre can be reached.
 */
export function distanceToHome(map: GameMap, power: PowerId, unit: Unit): number {
  const homes = new Set<string>(map.homeCenters(power).map((p) => p.id));
  if (homes.has(unit.province)) return 0;
  if (unit.type === "F") {
    const start = unit.coast ? `${unit.province}/${unit.coast}` : unit.province;
    const seen = new Set<string>([start]);
    let frontier = [{ province: unit.province, coast: unit.coast }];
    for (let d = 1; frontier.length > 0; d++) {
      const next: typeof frontier = [];
      for (const loc of frontier) {
        for (const n of map.fleetNeighbours(loc)) {
          const key = n.coast ? `${n.province}/${n.coast}` : n.province;
          if (seen.has(key)) continue;
          if (homes.has(n.province)) return d;
          seen.add(key);
          next.push(n);
        }
      }
      frontier = next;
    }
    return Number.POSITIVE_INFINITY;
  }
  return nearest(unit.province, homes, (p) => {
    const kind = map.get(p).kind;
    const steps = new Set<ProvinceId>(kind === "sea" ? [] : map.armyNeighbours(p));
    if (kind !== "land") {
      // By sea: into a sea next to this coast, or from a sea to any coast it touches.
      for (const c of map.locationsFor("F", p)) {
        for (const n of map.fleetNeighbours(c)) {
          if (kind === "sea" || map.get(n.province).kind === "sea") steps.add(n.province);
        }
      }
    }
    return steps;
  });
}

/**
 * Moves from a unit to the nearest supply centre `owned` lists, as the 2023 rulebook counts
 * them for civil-disorder removals (DATC 3.0, 6.J.6 and 6.J.11): armies and fleets alike may
 * pass over land and sea, and occupation is ignored. Returns Infinity where none is reached.
 */
export function distanceToOwned(map: GameMap, owned: ReadonlySet<ProvinceId>, unit: Unit): number {
  if (owned.has(unit.province)) return 0;
  return nearest(unit.province, owned, (p) => {
    const steps = new Set<ProvinceId>(map.get(p).kind === "sea" ? [] : map.armyNeighbours(p));
    for (const c of map.locationsFor("F", p))
      for (const n of map.fleetNeighbours(c)) steps.add(n.province);
    return steps;
  });
}

/**
 * Moves from province `start` to the nearest of `goals`, one province a move, each move to
 * one of `steps(p)`. Infinity where none is reached.
 */
function nearest(
  start: ProvinceId,
  goals: ReadonlySet<string>,
  steps: (p: ProvinceId) => ReadonlySet<ProvinceId>,
): number {
  const seen = new Set<ProvinceId>([start]);
  let frontier: ProvinceId[] = [start];
  for (let d = 1; frontier.length > 0; d++) {
    const next: ProvinceId[] = [];
    for (const p of frontier) {
      for (const n of steps(p)) {
        if (seen.has(n)) continue;
        if (goals.has(n)) return d;
        seen.add(n);
        next.push(n);
      }
    }
    frontier = next;
  }
  return Number.POSITIVE_INFINITY;
}
