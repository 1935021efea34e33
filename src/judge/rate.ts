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
