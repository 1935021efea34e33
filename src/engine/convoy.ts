import type { GameMap } from "./map.ts";
import type { ProvinceId } from "./types.ts";

/** Per map: its seas, and which provinces each sea touches. Built once, then only read. */
interface SeaTables {
  readonly seas: readonly ProvinceId[];
  readonly touching: ReadonlyMap<ProvinceId, ReadonlySet<ProvinceId>>;
}

const tables = new WeakMap<GameMap, SeaTables>();

function seaTables(map: GameMap): SeaTables {
  const cached = tables.get(map);
  if (cached) return cached;
  const seas = map.provinces.filter((p) => p.kind === "sea").map((p) => p.id);
  const touching = new Map<ProvinceId, Set<ProvinceId>>();
  for (const s of seas) {
    touching.set(
      s,
      new Set(map.fleetNeighbours({ province: s, coast: null }).map((l) => l.province)),
    );
  }
  const t = { seas, touching };
  tables.set(map, t);
  return t;
}

/** Whether fleets in sea `sea` touch province `p` (any coast). */
export function seaTouches(map: GameMap, sea: ProvinceId, p: ProvinceId): boolean {
  return seaTables(map).touching.get(sea)?.has(p) ?? false;
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
  const { seas, touching } = seaTables(map);
  const open = seas.filter(usable);
  // The usable seas reachable from `start` through usable seas.
  const reach = (start: ProvinceId): Set<ProvinceId> => {
    const seen = new Set<ProvinceId>();
    const queue = open.filter((s) => touching.get(s)!.has(start));
    for (const s of queue) seen.add(s);
    for (let i = 0; i < queue.length; i++) {
      const next = touching.get(queue[i]!)!;
      for (const t of open) {
        if (!seen.has(t) && next.has(t)) {
          seen.add(t);
          queue.push(t);
        }
      }
    }
    return seen;
  };
  const fromSide = reach(from);
  if (through !== undefined) return fromSide.has(through) && reach(to).has(through);
  for (const s of fromSide) if (touching.get(s)!.has(to)) return true;
  return false;
}

/** Per map: the seas of some minimal convoy route, per `from>to` pair (computed on demand). */
const minimal = new WeakMap<GameMap, Map<string, ReadonlySet<ProvinceId>>>();

/**
 * The seas that some convoy route from `from` to `to` needs: the seas of the minimal routes,
 * chains of seas of which no fleet could be left out (DATC 6.G.19). Such a chain touches
 * `from` only at its first sea and `to` only at its last, and no two of its seas touch
 * unless they follow each other. A fleet in any other sea cannot be necessary to any convoy
 * between the two, whatever the other fleets do, so its convoy order is illegal.
 */
export function minimalRouteSeas(
  map: GameMap,
  from: ProvinceId,
  to: ProvinceId,
): ReadonlySet<ProvinceId> {
  let perMap = minimal.get(map);
  if (!perMap) {
    perMap = new Map();
    minimal.set(map, perMap);
  }
  const key = `${from}>${to}`;
  const cached = perMap.get(key);
  if (cached) return cached;
  const { seas, touching } = seaTables(map);
  const out = new Set<ProvinceId>();
  const path: ProvinceId[] = [];
  const extend = (s: ProvinceId): void => {
    if (touching.get(s)!.has(to)) {
      for (const q of path) out.add(q);
      return;
    }
    for (const t of seas) {
      if (!touching.get(s)!.has(t) || path.includes(t) || touching.get(t)!.has(from)) continue;
      // No shortcut: `t` touches no sea of the chain but the last.
      let chord = false;
      for (let k = 0; k < path.length - 1 && !chord; k++) chord = touching.get(path[k]!)!.has(t);
      if (chord) continue;
      path.push(t);
      extend(t);
      path.pop();
    }
  };
  for (const s of seas) {
    if (!touching.get(s)!.has(from)) continue;
    path.push(s);
    extend(s);
    path.pop();
  }
  perMap.set(key, out);
  return out;
}
