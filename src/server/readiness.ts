import type { Judge } from "../judge/judge.ts";

/*
 * Whether the store can read and write, told truthfully (docs/judge.md, "Health and
 * readiness"; issue 28). A damaged database or a full disk made routes answer 500 while
 * /api/health said "ok". Now:
 *
 * - A probe reads (the newest game) and writes (one row of `health_probe`, committed to the
 *   disk as every acknowledged order is) through the store every `intervalMs`, bounded by
 *   `timeoutMs`; /api/health runs it when the last one is older than a second (one at a time,
 *   shared by the callers).
 * - An error of the storage itself met by a request or the scheduler (a full disk, an I/O
 *   error, a damaged page, a read-only file, a lost PostgreSQL connection) makes the store
 *   not ready too, until a probe succeeds with no such error for `faultWindowMs`; such a
 *   request is answered 503, saying why, not 500.
 * - A damage found by the check of every page (src/store/sqlite-preflight.ts) is not ready
 *   until the server is restarted on a good database.
 * - The log names the cause once when the store stops being ready (and when the cause
 *   changes), and once when it is ready again; not once per request.
 * - The GM of every game in play is told (an event `store_fault` to the GM: the game's page,
 *   and mail where they gave an address): while it lasts, if the store can write that much
 *   (once), and when it is over (its cause, since and until), as soon as the store can write.
 */

export interface ReadinessOptions {
  /** How often the probe runs in the background (ms); default 10 s. */
  readonly intervalMs?: number;
  /** The probe's bound (ms); default 5 s. */
  readonly timeoutMs?: number;
  /** How long after a request's storage error the store stays not ready (ms); default 30 s. */
  readonly faultWindowMs?: number;
}

export interface ReadinessState {
  readonly ready: boolean;
  /** Why not, in a sentence. */
  readonly cause: string | null;
  /** Since when it is not ready (ms since the epoch). */
  readonly since: number | null;
}

interface Episode {
  cause: string;
  since: number;
  until: number | null;
  /** The GMs were told while it lasted (the store could write meanwhile). */
  told: boolean;
}

const SQLITE_FAULTS: Record<string, string> = {
  SQLITE_FULL: "the disk is full",
  SQLITE_IOERR: "an I/O error",
  SQLITE_CORRUPT: "the database file is damaged",
  SQLITE_NOTADB: "the database file is not a database any more",
  SQLITE_READONLY: "the database file cannot be written",
  SQLITE_CANTOPEN: "the database file cannot be opened",
  SQLITE_PROTOCOL: "the database's locks fail",
  SQLITE_NOLFS: "the file system cannot hold the database",
};

/** PostgreSQL's SQLSTATE classes and codes of the storage itself. */
const PG_FAULTS: [RegExp, string][] = [
  [/^53100$/, "the database server's disk is full"],
  [/^53/, "the database server is out of resources"],
  [/^58/, "the database server has an I/O error"],
  [/^XX00[12]$/, "the database is damaged"],
  [/^57P0[1-3]$/, "the database server is shutting down or restarting"],
  [/^08/, "the connection to the database server failed"],
  [/^25006$/, "the database is read-only"],
];

const NET_FAULTS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND"]);

/**
 * The cause, when `e` is a failure of the storage itself (not of the request): a sentence
 * with the database's own words; null otherwise.
 */
export function storageFault(e: unknown): string | null {
  if (!(e instanceof Error)) return null;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string") {
    if (code.startsWith("SQLITE_")) {
      const base = code.replace(/^(SQLITE_[A-Z]+?)(_[A-Z_]+)?$/, "$1");
      const what = SQLITE_FAULTS[base] ?? SQLITE_FAULTS[code];
      if (what) return `${what} (${code}: ${e.message})`;
      return null;
    }
    for (const [re, what] of PG_FAULTS) if (re.test(code)) return `${what} (${code}: ${e.message})`;
    if (NET_FAULTS.has(code))
      return `the database server cannot be reached (${code}: ${e.message})`;
  }
  if (/^the database rolled the transaction back$/.test(e.message)) {
    return "the database rolled a transaction back (after an I/O error or a full disk)";
  }
  if (/Connection terminated|timeout exceeded when trying to connect/i.test(e.message)) {
    return `the connection to the database server failed (${e.message})`;
  }
  return null;
}

export class Readiness {
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private readonly faultWindowMs: number;
  private timer: NodeJS.Timeout | null = null;
  private probing: Promise<void> | null = null;
  private lastProbeAt = Number.NEGATIVE_INFINITY;
  /** The last probe's failure, if it failed. */
  private probeCause: string | null = null;
  /** The last storage error met by a request, and when. */
  private requestFault: { cause: string; at: number } | null = null;
  /** A damage found by the page check: until a restart. */
  private damage: string | null = null;
  private episode: Episode | null = null;
  /** Episodes over but not yet told to the GMs. */
  private untold: Episode[] = [];
  private stopped = false;

  constructor(
    private readonly judge: Judge,
    private readonly log: (message: string) => void,
    opts: ReadinessOptions = {},
  ) {
    this.intervalMs = opts.intervalMs ?? 10_000;
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.faultWindowMs = opts.faultWindowMs ?? 30_000;
  }

  /** Probes now, then every `intervalMs` (the timer does not keep the process alive). */
  async start(): Promise<void> {
    await this.probe();
    this.timer = setInterval(() => void this.probe(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.probing;
  }

  /** Notes an error met by a request or the scheduler; true when it is the storage's. */
  noteError(e: unknown): boolean {
    const cause = storageFault(e);
    if (cause === null) return false;
    this.requestFault = { cause, at: Date.now() };
    this.update();
    return true;
  }

  /** The cause now, if the store is not ready. */
  lastCause(): string | null {
    return this.current().cause;
  }

  /** A damage found by the check of every page: not ready until a restart. */
  noteDamage(cause: string): void {
    this.damage = cause;
    this.update();
  }

  /** The state now, probing first when the last probe is older than a second. */
  async state(): Promise<ReadinessState> {
    if (Date.now() - this.lastProbeAt > 1000) await this.probe();
    // A request's fault may have aged out since the probe: the state answered is the one
    // followed (logged, its episode closed and told), never one read a moment later (a fault
    // window ending between the two answered "ok" before the log said "ready again").
    const s = this.update();
    if (this.untold.length > 0) await this.tell();
    return s;
  }

  private current(): ReadinessState {
    const cause =
      this.damage ??
      this.probeCause ??
      (this.requestFault && Date.now() - this.requestFault.at < this.faultWindowMs
        ? this.requestFault.cause
        : null);
    return cause === null
      ? { ready: true, cause: null, since: null }
      : { ready: false, cause, since: this.episode?.since ?? Date.now() };
  }

  /** One probe at a time; callers meanwhile share it. */
  probe(): Promise<void> {
    this.probing ??= this.runProbe().finally(() => {
      this.probing = null;
    });
    return this.probing;
  }

  private async runProbe(): Promise<void> {
    const db = this.judge.store.db;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `the database did not answer a read and a write within ${this.timeoutMs / 1000} s`,
            ),
          ),
        this.timeoutMs,
      );
    });
    try {
      await Promise.race([
        (async () => {
          await db.selectFrom("games").select("id").orderBy("id", "desc").limit(1).execute();
          // The same row each time (so that a test comparing tables sees no change), but a
          // real write: the commit reaches the disk before the probe is answered.
          await db
            .insertInto("health_probe")
            .values({ id: 1, at: 0 })
            .onConflict((oc) => oc.column("id").doUpdateSet({ at: 0 }))
            .execute();
        })(),
        bound,
      ]);
      this.probeCause = null;
    } catch (e) {
      this.probeCause = storageFault(e) ?? (e as Error).message;
    } finally {
      clearTimeout(timer);
      this.lastProbeAt = Date.now();
    }
    this.update();
    await this.tell();
  }

  /** Follows the state: logs its changes, opens and closes episodes; the state followed. */
  private update(): ReadinessState {
    const s = this.current();
    const e = this.episode;
    if (!s.ready) {
      if (!e) {
        this.episode = { cause: s.cause!, since: Date.now(), until: null, told: false };
        this.log(`the store is NOT ready: ${s.cause}`);
      } else if (e.cause !== s.cause) {
        e.cause = s.cause!;
        this.log(`the store is still not ready, now: ${s.cause}`);
      }
      return s;
    }
    if (e) {
      e.until = Date.now();
      this.episode = null;
      this.log(
        `the store is ready again after ${Math.round((e.until - e.since) / 1000)} s (it was not: ${e.cause})`,
      );
      this.untold.push(e);
    }
    return s;
  }

  /**
   * Tells the GM of every game in play, when the store can write it: of an episode going on
   * (once), and of its end (with its cause, its start and its end).
   */
  private async tell(): Promise<void> {
    if (this.stopped) return;
    const pending = [...this.untold, ...(this.episode && !this.episode.told ? [this.episode] : [])];
    for (const ep of pending) {
      try {
        await this.judge.gm.tellEveryGm("store_fault", {
          cause: ep.cause,
          since: new Date(ep.since).toISOString(),
          until: ep.until === null ? null : new Date(ep.until).toISOString(),
        });
        ep.told = true;
        this.untold = this.untold.filter((x) => x !== ep);
      } catch {
        return; // the store cannot write yet: at the next probe
      }
    }
  }
}
