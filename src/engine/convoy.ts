import type { GameMap } from "./map.ts";
import type { ProvinceId } from "./types.ts";

/** Whether fleets in sea `sea` touch province `p` (any coast). */
export function seaTouches(map: GameMap, sea: ProvinceId, p: ProvinceId): boolean {
  return map.fleetTargets({ province: sea, coast: null }, p).length > 0;
}

/**
 * Is there a chain of sea provinces, each accepted by `usable`, from a sea next to `from`
 * to a sea next to `to`? With `through`, the chain must be able to pass that sea.
 */
export function seaRoute(
  map: GameMap,
  from: ProvinceId,
  to: ProvinceId,
  usable: (sea: ProvinceId) => boolean,
  through?: ProvinceId,
): boolean {
  const seas = map.provinces.filter((p) => p.kind === "sea" && usable(p.id)).map((p) => p.id);
  // The seas reachable from `from`, and those from which `to` is reachable.
  const reach = (start: ProvinceId): Set<ProvinceId> => {
    const seen = new Set<ProvinceId>();
    const queue = seas.filter((s) => seaTouches(map, s, start));
    for (const s of queue) seen.add(s);
    while (queue.length > 0) {
      const s = queue.shift()!;
      for (const t of seas) {
        if (!seen.has(t) && seaTouches(map, s, t)) {
          seen.add(t);
          queue.push(t);
        }
      }
    }
    return seen;
  };
  const fromSide = reach(from);
  if (through !== undefined) {
    if (!fromSide.has(through)) return false;
    return reach(to).has(through);
  }
  for (const s of fromSide) if (seaTouches(map, s, to)) return true;
  return false;
}
