/*
 * Counting events per key over a sliding window: the rate limits of the server (logins,
 * registrations) and of the mail gateway (mails per sender) share it.
 */

/** At most `max` events in any `windowMs` milliseconds. */
export interface Window {
  readonly max: number;
  readonly windowMs: number;
}

/** A sliding-window counter per key: the times of the last `max` events, nothing older. */
export class SlidingWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly window: Window,
    /** At most this many keys are remembered (the oldest are forgotten first). */
    private readonly maxKeys = 100_000,
  ) {}

  /** Milliseconds until one more event is allowed for `key` (0: allowed now). */
  wait(key: string, now: number): number {
    const list = this.prune(key, now);
    if (list.length < this.window.max) return 0;
    return list[0]! + this.window.windowMs - now;
  }

  add(key: string, now: number): void {
    const list = this.prune(key, now);
    list.push(now);
    // Re-inserted: the map's order is least recently used first.
    this.hits.delete(key);
    this.hits.set(key, list.slice(-this.window.max));
    while (this.hits.size > this.maxKeys) {
      const oldest = this.hits.keys().next().value as string;
      this.hits.delete(oldest);
    }
  }

  clear(key: string): void {
    this.hits.delete(key);
  }

  private prune(key: string, now: number): number[] {
    const list = this.hits.get(key) ?? [];
    const from = now - this.window.windowMs;
    let i = 0;
    while (i < list.length && list[i]! <= from) i++;
    return i === 0 ? list : list.slice(i);
  }
}

/** A token bucket: `burst` at once, then `perSecond` (fractions allowed) as they refill. */
export interface Bucket {
  readonly burst: number;
  readonly perSecond: number;
}

/**
 * A token bucket per key: each key starts full (`burst` tokens) and refills at `perSecond`,
 * never above `burst`; an event takes one token. The orders-rate quota (submissions.ts).
 */
export class TokenBuckets {
  private readonly levels = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly bucket: Bucket,
    /** At most this many keys are remembered (the least recently used are forgotten). */
    private readonly maxKeys = 100_000,
  ) {}

  private level(key: string, now: number): number {
    const b = this.levels.get(key);
    if (!b) return this.bucket.burst;
    const refilled = ((now - b.at) / 1000) * this.bucket.perSecond;
    return Math.min(this.bucket.burst, b.tokens + Math.max(0, refilled));
  }

  /** Milliseconds until `key` has a token (0: it has one now). */
  wait(key: string, now: number): number {
    const tokens = this.level(key, now);
    if (tokens >= 1) return 0;
    return Math.ceil(((1 - tokens) / this.bucket.perSecond) * 1000);
  }

  /** Takes one token (the caller asked `wait` first; a race of two may go one below zero). */
  take(key: string, now: number): void {
    const tokens = this.level(key, now) - 1;
    // Re-inserted: the map's order is least recently used first.
    this.levels.delete(key);
    this.levels.set(key, { tokens, at: now });
    while (this.levels.size > this.maxKeys) {
      this.levels.delete(this.levels.keys().next().value as string);
    }
  }
}
