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

/**
 * mulberry32. One class, its methods shared by every generator (call them on it: `r.int(6)`),
 * so that the code calling them meets one function however many generators a run makes (a
 * new closure per generator was a new call target in optimized code: docs/performance.md,
 * "Warm-up: shapes and deopts"). The state is kept in a typed array: a plain number field
 * above 2^30 would be boxed.
 */
class Mulberry32 implements Rng {
  private readonly state = new Uint32Array(1);

  constructor(seed: number) {
    this.state[0] = seed >>> 0;
  }

  next(): number {
    const a = (this.state[0]! + 0x6d2b79f5) >>> 0;
    this.state[0] = a;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(list: readonly T[]): T {
    if (list.length === 0) throw new Error("pick from an empty list");
    return list[this.int(list.length)]!;
  }
}

export function rng(seed: number): Rng {
  return new Mulberry32(seed);
}

/** A generator for one step of a longer process (phase `index` of a game seeded `seed`). */
export function rngFor(seed: number, index: number): Rng {
  // Mix the two numbers so that neighbouring indices give unrelated streams.
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return rng((h ^ (h >>> 16)) >>> 0);
}
