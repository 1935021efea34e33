/**
 * The engine's only source of randomness: a small seeded generator (mulberry32), so that
 * every random choice (a coin toss, a self-play move) is reproducible from the seed.
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T;
}

export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(list: readonly T[]): T => {
      if (list.length === 0) throw new Error("pick from an empty list");
      return list[int(list.length)]!;
    },
  };
}

/** A generator for one step of a longer process (phase `index` of a game seeded `seed`). */
export function rngFor(seed: number, index: number): Rng {
  // Mix the two numbers so that neighbouring indices give unrelated streams.
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return rng((h ^ (h >>> 16)) >>> 0);
}
