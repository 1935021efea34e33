/**
 * The Age of Discovery map generator (appendix C): a unique map per game from a seed and a
 * player count, pure and reproducible (the only randomness is src/engine/random.ts).
 *
 * 1. Terrain: smooth seeded noise on a torus, cut at its median so half the squares are land.
 * 2. Areas: land squares and water squares are each grouped into connected areas of one to
 *    three squares; a land area touching water along an edge is a coast.
 * 3. Starts: every player gets the same package far from the others; near each home three
 *    neutral centres only that player can reach first; further centres are spread so that
 *    every player's nearest contested centre is about as far (fairness.ts measures it all).
 * An attempt that misses a fairness condition is thrown away and the next one is tried
 * (`rngFor(seed, attempt)`), so a seed always gives the same map.
 */
import { type Rng, rng, rngFor } from "../../engine/random.ts";
import {
  areaDistances,
  armyNeighbours,
  type DiscoveryArea,
  type DiscoveryMap,
  distanceArray,
  landDistances,
  nearestHome,
  type PlayerStart,
  type Terrain,
} from "./areas.ts";
import {
  fairnessViolations,
  MIN_HOME_DISTANCE,
  measureFairness,
  OWN_NEUTRALS,
} from "./fairness.ts";
import { allSquares, type Grid, neighbours } from "./grid.ts";

export const MIN_PLAYERS = 9;
export const MAX_PLAYERS = 20;
/** Squares per player: about 33 areas each (Global Diplomacy has about 23 per power). */
export const SQUARES_PER_PLAYER = 70;
/** The largest area id a map may have: ids have at most three digits, square names four. */
export const MAX_AREA_ID = 999;
/** How many attempts the generator makes before it gives up (none has been seen to). */
export const MAX_ATTEMPTS = 200;

export interface GenerateOptions {
  /** A non-negative integer below 2^32. */
  readonly seed: number;
  /** 9 to 20. */
  readonly players: number;
}

export class GenerateError extends Error {}

/** The grid size for a player count: about SQUARES_PER_PLAYER squares each, wider than high. */
export function gridSize(players: number): Grid {
  const squares = players * SQUARES_PER_PLAYER;
  const width = Math.round(Math.sqrt(squares * 1.2));
  return { width, height: Math.ceil(squares / width) };
}

/** Generate a map; throws GenerateError with what was wrong for bad options. */
export function generateMap(options: GenerateOptions): DiscoveryMap {
  const { seed, players } = options;
  if (!Number.isInteger(players) || players < MIN_PLAYERS || players > MAX_PLAYERS) {
    throw new GenerateError(
      `Age of Discovery is for ${MIN_PLAYERS} to ${MAX_PLAYERS} players, not ${players}`,
    );
  }
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new GenerateError(`the map seed must be an integer from 0 to 4294967295, not ${seed}`);
  }
  const grid = gridSize(players);
  let last: readonly string[] = [];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const map = attemptMap(grid, seed, players, attempt);
    if (map === null) continue;
    last = fairnessViolations(measureFairness(map));
    if (last.length === 0) return map;
  }
  throw new GenerateError(
    `no fair map for seed ${seed} and ${players} players in ${MAX_ATTEMPTS} attempts` +
      (last.length > 0 ? `: ${last.join("; ")}` : ""),
  );
}

function shuffle<T>(r: Rng, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    const t = list[i]!;
    list[i] = list[j]!;
    list[j] = t;
  }
  return list;
}

/**
 * Value noise on the torus: random values on a coarse lattice of `cells` x `cells` points,
 * interpolated smoothly; the lattice wraps, so the noise does too.
 */
function noise(r: Rng, grid: Grid, cellsX: number, cellsY: number): number[] {
  const lattice = Array.from({ length: cellsX * cellsY }, () => r.next());
  const at = (i: number, j: number): number =>
    lattice[(((j % cellsY) + cellsY) % cellsY) * cellsX + (((i % cellsX) + cellsX) % cellsX)]!;
  const smooth = (t: number): number => t * t * (3 - 2 * t);
  return allSquares(grid).map((s) => {
    const fx = ((s % grid.width) * cellsX) / grid.width;
    const fy = (Math.floor(s / grid.width) * cellsY) / grid.height;
    const i = Math.floor(fx);
    const j = Math.floor(fy);
    const tx = smooth(fx - i);
    const ty = smooth(fy - j);
    const top = at(i, j) * (1 - tx) + at(i + 1, j) * tx;
    const bottom = at(i, j + 1) * (1 - tx) + at(i + 1, j + 1) * tx;
    return top * (1 - ty) + bottom * ty;
  });
}

/** Land (true) or water for every square: half of each. */
function terrain(r: Rng, grid: Grid): boolean[] {
  const coarse = noise(
    r,
    grid,
    Math.max(3, Math.round(grid.width / 6)),
    Math.max(3, Math.round(grid.height / 6)),
  );
  const fine = noise(
    r,
    grid,
    Math.max(4, Math.round(grid.width / 3)),
    Math.max(4, Math.round(grid.height / 3)),
  );
  const value = coarse.map((c, i) => c + 0.5 * fine[i]! + 0.15 * r.next());
  const sorted = [...value].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return value.map((v) => v >= median);
}

/** Group squares of one kind (land or water) into connected areas of one to three squares. */
function partition(r: Rng, grid: Grid, land: readonly boolean[]): number[][] {
  const owner = new Array<number>(land.length).fill(-1);
  const groups: number[][] = [];
  for (const start of shuffle(r, allSquares(grid))) {
    if (owner[start] !== -1) continue;
    const roll = r.next();
    const size = roll < 0.2 ? 1 : roll < 0.6 ? 2 : 3;
    const group = [start];
    owner[start] = groups.length;
    while (group.length < size) {
      const free = group.flatMap((s) =>
        neighbours(grid, s).filter((n) => owner[n] === -1 && land[n] === land[start]),
      );
      if (free.length === 0) break;
      const n = r.pick(free);
      owner[n] = groups.length;
      group.push(n);
    }
    groups.push(group);
  }
  return groups;
}

/** Build areas with their ids: land and coast numbered first, then water (as in the seed). */
function buildAreas(
  r: Rng,
  grid: Grid,
  land: readonly boolean[],
): { areas: DiscoveryArea[]; squareArea: number[] } {
  const groups = partition(r, grid, land);
  const landGroups = shuffle(
    r,
    groups.filter((g) => land[g[0]!]),
  );
  const waterGroups = shuffle(
    r,
    groups.filter((g) => !land[g[0]!]),
  );
  const ordered = [...landGroups, ...waterGroups];
  const squareArea = new Array<number>(land.length).fill(0);
  ordered.forEach((g, i) => {
    for (const s of g) squareArea[s] = i + 1;
  });
  const areas = ordered.map((g, i): DiscoveryArea => {
    const id = i + 1;
    const touching = new Set<number>();
    let coast = false;
    for (const s of g) {
      for (const n of neighbours(grid, s)) {
        if (squareArea[n] !== id) touching.add(squareArea[n]!);
        if (!land[n]) coast = true;
      }
    }
    const t: Terrain = !land[g[0]!] ? "water" : coast ? "coast" : "land";
    return {
      id,
      terrain: t,
      squares: [...g].sort((a, b) => a - b),
      supply: 0,
      neighbours: [...touching].sort((a, b) => a - b),
    };
  });
  return { areas, squareArea };
}

/** One attempt at a map, or null when no start placement fits it. */
function attemptMap(
  grid: Grid,
  seed: number,
  players: number,
  attempt: number,
): DiscoveryMap | null {
  const r = rngFor(seed, attempt);
  const land = terrain(r, grid);
  const { areas, squareArea } = buildAreas(r, grid, land);
  // Area ids must stay below 1000, so that a four-digit spy target is always a square (XXYY).
  if (areas.length > MAX_AREA_ID) return null;
  const base: DiscoveryMap = {
    ...grid,
    seed,
    players,
    attempt,
    squareArea,
    areas,
    starts: [],
    offsets: [],
  };
  const homes = placeHomes(r, base, players);
  if (homes === null) return null;
  const supply = new Map<number, 0 | 1 | 2>();
  const starts: PlayerStart[] = [];
  const packages: number[][] = [];
  const homeFrom = homes.map((h) => areaDistances(base, [h]));
  for (const [i, home] of homes.entries()) {
    // The two other start areas: the pair of the home's land neighbours that leaves the most
    // land areas next to the start that are nearer to this home than to any other.
    const landNext = armyNeighbours(base, home);
    let pairs: [number, number][] = [];
    let most = -1;
    for (const [j, a] of landNext.entries()) {
      for (const b of landNext.slice(j + 1)) {
        const around = new Set([home, a, b].flatMap((x) => armyNeighbours(base, x)));
        let n = 0;
        for (const x of around) {
          if (x !== home && x !== a && x !== b && nearestHome(homeFrom, x) === i) n++;
        }
        if (n > most) {
          most = n;
          pairs = [[a, b]];
        } else if (n === most) pairs.push([a, b]);
      }
    }
    const pair = r.pick(pairs);
    const [one, third] = r.int(2) === 0 ? pair : ([pair[1], pair[0]] as const);
    supply.set(home, 2);
    supply.set(one, 1);
    packages.push([home, one, third]);
    starts.push({
      player: i + 1,
      areas: [home, one, third],
      units: [
        { area: home, kind: "squadron" },
        { area: one, kind: "corps" },
      ],
    });
  }
  if (new Set(packages.flat()).size !== packages.flat().length) return null;
  const landFrom = packages.map((p) => landDistances(base, p));
  const anyFrom = packages.map((p) => areaDistances(base, p));
  const inPackage = new Set(packages.flat());
  // Each player's own neutral centres: a 2-point and two 1-point centres one land step from
  // home, each strictly nearer (by any route) to this home than to any other.
  for (const [p, dist] of landFrom.entries()) {
    const own = shuffle(
      r,
      [...dist.entries()]
        .filter(
          ([a, da]) =>
            da === 1 && !inPackage.has(a) && !supply.has(a) && nearestHome(anyFrom, a) === p,
        )
        .map(([a]) => a)
        .sort((a, b) => a - b),
    );
    if (own.length < OWN_NEUTRALS.length) return null;
    for (const [i, [points]] of OWN_NEUTRALS.entries()) supply.set(own[i]!, points);
  }
  // Contested centres: more than two land steps from every home. Two for each player, taken in
  // turns, each the free candidate nearest that player (a 2-point and a 1-point one), then half
  // as many again anywhere, so the open spaces are worth going to.
  const candidates = areas
    .filter(
      (a) =>
        a.terrain !== "water" &&
        !inPackage.has(a.id) &&
        landFrom.every((d) => (d.get(a.id) ?? Infinity) > 2),
    )
    .map((a) => a.id);
  const free = new Set(candidates);
  const take = (id: number, points: 1 | 2): void => {
    supply.set(id, points);
    free.delete(id);
  };
  for (const points of [2, 1] as const) {
    for (const p of shuffle(
      r,
      Array.from({ length: players }, (_, i) => i),
    )) {
      const dist = anyFrom[p]!;
      let best: number[] = [];
      let bestD = Infinity;
      for (const id of free) {
        const d = dist.get(id) ?? Infinity;
        if (d < bestD) {
          bestD = d;
          best = [id];
        } else if (d === bestD) best.push(id);
      }
      if (best.length === 0) return null;
      take(r.pick(best.sort((a, b) => a - b)), points);
    }
  }
  const extra = shuffle(
    r,
    [...free].sort((a, b) => a - b),
  );
  for (let i = 0; i < Math.ceil(players / 2) && i < extra.length; i++) {
    const id = extra[i]!;
    if (free.has(id)) take(id, r.next() < 1 / 3 ? 2 : 1);
  }
  const withSupply = areas.map((a): DiscoveryArea => ({ ...a, supply: supply.get(a.id) ?? 0 }));
  return { ...base, areas: withSupply, starts, offsets: nameOffsets(seed, attempt, grid, players) };
}

/**
 * Home centres: coastal areas with at least two land neighbours, chosen far apart (each next
 * one as far as possible from those chosen, from several random first picks; the best
 * spread wins). Null when no choice keeps MIN_HOME_DISTANCE.
 */
function placeHomes(r: Rng, map: DiscoveryMap, players: number): number[] | null {
  const candidates = map.areas
    .filter((a) => a.terrain === "coast" && armyNeighbours(map, a.id).length >= 2)
    .filter((a) => reachesAtLeast(a.id, (id) => armyNeighbours(map, id), 8))
    .map((a) => a.id);
  if (candidates.length < players) return null;
  const size = map.areas.length + 1;
  const next = (id: number): readonly number[] => map.areas[id - 1]?.neighbours ?? [];
  const dist = new Map(candidates.map((c) => [c, distanceArray(size, [c], next)]));
  const d = (a: number, b: number): number => {
    const x = dist.get(a)![b]!;
    return x < 0 ? Infinity : x;
  };
  /** The distance from `c` to the nearest of `chosen` other than itself. */
  const nearestTo = (c: number, chosen: readonly number[]): number =>
    Math.min(...chosen.filter((x) => x !== c).map((x) => d(c, x)));
  let best: number[] | null = null;
  let bestSpread = -1;
  for (let trial = 0; trial < 4; trial++) {
    // Farthest-point sampling from a random first home...
    const chosen = [r.pick(candidates)];
    const nearest = new Map(candidates.map((c) => [c, d(chosen[0]!, c)]));
    while (chosen.length < players) {
      let far: number[] = [];
      let farD = -1;
      for (const c of candidates) {
        if (chosen.includes(c)) continue;
        const dc = nearest.get(c)!;
        if (dc > farD) {
          farD = dc;
          far = [c];
        } else if (dc === farD) far.push(c);
      }
      const next = r.pick(far);
      chosen.push(next);
      for (const c of candidates) nearest.set(c, Math.min(nearest.get(c)!, d(next, c)));
    }
    // ...then move the home of a closest pair wherever it is farther from all the others,
    // while that helps.
    for (let step = 0; step < players * 4; step++) {
      const worst = chosen.map((c) => nearestTo(c, chosen));
      const spread = Math.min(...worst);
      const crowded = chosen.filter((_, i) => worst[i] === spread);
      const moving = r.pick(crowded);
      const others = chosen.filter((c) => c !== moving);
      let target: number[] = [];
      let targetD = spread;
      for (const c of candidates) {
        if (chosen.includes(c)) continue;
        const dc = Math.min(...others.map((o) => d(c, o)));
        if (dc > targetD) {
          targetD = dc;
          target = [c];
        } else if (dc === targetD && dc > spread) target.push(c);
      }
      if (target.length === 0) break;
      chosen[chosen.indexOf(moving)] = r.pick(target);
    }
    const spread = Math.min(...chosen.map((c) => nearestTo(c, chosen)));
    if (spread > bestSpread) {
      bestSpread = spread;
      best = chosen;
    }
  }
  return bestSpread >= MIN_HOME_DISTANCE ? best : null;
}

/** Whether a search from `start` over `next` finds at least `k` nodes (stopping there). */
function reachesAtLeast(
  start: number,
  next: (id: number) => readonly number[],
  k: number,
): boolean {
  const seen = new Set([start]);
  const queue = [start];
  for (let i = 0; i < queue.length && seen.size < k; i++) {
    for (const n of next(queue[i]!)) {
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return seen.size >= k;
}

/**
 * Each player's square-name offset (names.ts): distinct for every player, drawn from their own
 * stream so the names do not depend on how the terrain came out.
 */
function nameOffsets(
  seed: number,
  attempt: number,
  grid: Grid,
  players: number,
): { dx: number; dy: number }[] {
  const r = rng((rngFor(seed, attempt).int(0x7fffffff) ^ 0x5bd1e995) >>> 0);
  const used = new Set<number>();
  const out: { dx: number; dy: number }[] = [];
  while (out.length < players) {
    const dx = r.int(grid.width);
    const dy = r.int(grid.height);
    const key = dy * grid.width + dx;
    if (used.has(key)) continue;
    used.add(key);
    out.push({ dx, dy });
  }
  return out;
}
