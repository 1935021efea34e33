/**
 * Sea routes: which provinces a sea touches, whether a chain of seas (each accepted by the
 * caller) carries an army from one province to another (`seaRoute`), and the seas a minimal
 * route needs (`minimalRouteSeas`): the legality of convoys and convoyed moves, and convoy paths.
 */

import type { GameMap } from "./map.ts";
import type { ProvinceId } from "./types.ts";

/** Per map: its seas, and which provinces each sea touches. Built once, then only read. */
interface SeaTables {
  readonly seas: readonly ProvinceId[];
  readonly touching: ReadonlyMap<ProvinceId, ReadonlySet<ProvinceId>>;
  /** Per sea (by its index in `seas`), the indices of the seas next to it. */
  readonly seaNext: readonly Int32Array[];
  /** Per province, the indices of the seas touching it. */
  readonly seasAt: ReadonlyMap<ProvinceId, Int32Array>;
  // Scratch space for one search at a time (the functions are synchronous).
  readonly open: Uint8Array;
  readonly seen: Uint8Array;
  readonly queue: Int32Array;
}

const tables = new WeakMap<GameMap, SeaTables>();

function seaTables(map: GameMap): SeaTables {
  const cached = tables.get(map);
  if (cached) return cached;
  const seas = map.provinces.filter((p) => p.kind === "sea").map((p) => p.id);
  const index = new Map<ProvinceId, number>(seas.map((s, i) => [s, i]));
  const touching = new Map<ProvinceId, Set<ProvinceId>>();
  for (const s of seas) {
    touching.set(
      s,
      new Set(map.fleetNeighbours({ province: s, coast: null }).map((l) => l.province)),
    );
  }
  const seaNext = seas.map((s) =>
    Int32Array.from([...touching.get(s)!].filter((p) => index.has(p)).map((p) => index.get(p)!)),
  );
  const at = new Map<ProvinceId, number[]>();
  seas.forEach((s, i) => {
    for (const p of touching.get(s)!) {
      const list = at.get(p) ?? [];
      at.set(p, list);
      list.push(i);
    }
  });
  const seasAt = new Map([...at].map(([p, l]) => [p, Int32Array.from(l)]));
  const n = seas.length;
  const t: SeaTables = {
    seas,
    touching,
    seaNext,
    seasAt,
    open: new Uint8Array(n),
    seen: new Uint8Array(n),
    queue: new Int32Array(n),
  };
  tables.set(map, t);
  return t;
}

/** Whether fleets in sea `sea` touch province `p` (any coast). */
export function seaTouches(map: GameMap, sea: ProvinceId, p: ProvinceId): boolean {
  return seaTables(map).touching.get(sea)?.has(p) ?? false;
}

const NONE = new Int32Array(0);

/**
 * Marks `mark` in `t.seen` the open seas reachable from the seas in `start` through open
 * seas. (A module function, not one made inside `seaRoute`: tsx makes named inner
 * functions cost a property definition each time.)
 */
function reach(t: SeaTables, start: Int32Array, mark: number): void {
  const { seaNext, open, seen, queue } = t;
  let n = 0;
  for (const s of start) {
    if (open[s] === 1 && seen[s] !== mark) {
      seen[s] = mark;
      queue[n++] = s;
    }
  }
  for (let q = 0; q < n; q++) {
    for (const s of seaNext[queue[q]!]!) {
      if (open[s] === 1 && seen[s] !== mark) {
        seen[s] = mark;
        queue[n++] = s;
      }
    }
  }
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
  const t = seaTables(map);
  const { seas, open, seen } = t;
  const starts = t.seasAt.get(from) ?? NONE;
  const ends = t.seasAt.get(to) ?? NONE;
  if (starts.length === 0 || ends.length === 0) return false;
  for (let i = 0; i < seas.length; i++) open[i] = usable(seas[i]!) ? 1 : 0;
  seen.fill(0);
  reach(t, starts, 1);
  if (through !== undefined) {
    const k = seas.indexOf(through);
    if (k === -1 || seen[k] !== 1) return false;
    seen.fill(0);
    reach(t, ends, 1);
    return seen[k] === 1;
  }
  for (const s of ends) if (seen[s] === 1) return true;
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
