// Load (issues 12 and 21): many players submitting and revising orders on loopback, against a
// real `bin/entente serve` process, checked for zero errors and zero lost submissions.
//   node --import tsx bench/load.ts [--players 500] [--seconds 60 | --minutes 30]
//       [--interval MS] [--warmup SECONDS] [--sample SECONDS] [--postgres] [--cpu-prof DIR]
//       [--cold] [--prefill REVISIONS]
//   SOAK=1 node --import tsx bench/load.ts     # the soak: 30 minutes, sampled every minute
// Prints one JSON line: requests, errors, lost submissions, requests/s, latency percentiles
// (ms) over all requests and over each player's first, the server's CPU per request and
// memory; with --minutes or SOAK=1 also a sample per minute and whether memory and latency
// stayed flat. Exits 1 on any error or lost submission (or, in a soak, if either grew).
// test/load.test.ts runs the same for a few seconds (a minute with ENTENTE_LONG=1).
// docs/performance.md gives the figures, docs/reliability.md the soak.
// Its players and their order sets are bench/load-seats.ts, its measures bench/load-stats.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEFAULT_ORDERS_RATE } from "../src/judge/submissions.ts";
import { spawnServer } from "../src/server/process.ts";
import { openStore, type Store } from "../src/store/db.ts";
import { dropSchema, freshSchemaName, postgresUrl } from "../src/store/testing.ts";
import { prefill, REVISIONS, type Seat, setUp, TEXTS } from "./load-seats.ts";
import { type Percentiles, percentiles, processStats, rise, round } from "./load-stats.ts";

export interface LoadOptions {
  /** Players in all (five-player games: a multiple of 5 is used). */
  readonly players: number;
  readonly seconds: number;
  readonly postgres?: boolean;
  /** Every how many submissions a player reads its orders back (read-your-writes check). */
  readonly readEvery?: number;
  /**
   * Each player starts a request every `intervalMs` (0: as soon as the last is answered).
   * Latency is counted from when the request was due, so a late answer also counts the wait
   * it caused to the next one.
   */
  readonly intervalMs?: number;
  /** Sample the server's memory and the latency every this many seconds (the soak). */
  readonly sampleSeconds?: number;
  /**
   * Before the players start, other players (25, in games of their own) send orders for this
   * long, not measured: the server has then served requests before, as a server that has run
   * for a while has, and each measured player's first request is still its first.
   */
  readonly warmupSeconds?: number;
  /** Write the server's CPU profile here. */
  readonly cpuProf?: string | undefined;
  /** Start the server without its warm-up (src/server/warm.ts), as before issue 21's. */
  readonly cold?: boolean;
  /**
   * Before the server starts, store this many order revisions in the players' own open
   * phases (SQLite only), spread over the players in turn as paced players would have sent
   * them, and count them as accepted: the state a soak reaches after a while (750,000 after
   * thirty minutes), without running it for thirty minutes.
   */
  readonly prefill?: number;
}

export interface Sample {
  /** Seconds since the load began, at the end of this sample. */
  readonly at: number;
  readonly requests: number;
  readonly perSecond: number;
  readonly latencyMs: Percentiles;
  /** The server's resident memory at the end of the sample. */
  readonly rssMB: number | null;
  /** The server's CPU time in the sample per request answered in it (ms): steady under load. */
  readonly cpuMsPerRequest: number | null;
  readonly loadavg: number;
}

export interface LoadResult {
  readonly players: number;
  readonly games: number;
  readonly seconds: number;
  readonly database: string;
  readonly intervalMs: number;
  readonly warmupSeconds: number;
  /** Revisions stored before the server started (`prefill`), and how long that took (s). */
  readonly prefilled: { revisions: number; seconds: number };
  /** Whether the server warmed its hot paths before listening (src/server/warm.ts). */
  readonly serverWarmUp: boolean;
  /** The server's orders-rate quota in this run. */
  readonly ordersQuota: string;
  readonly requests: number;
  readonly submissions: number;
  readonly readBacks: number;
  /** Answers other than 200, and connection failures. */
  readonly errors: number;
  readonly errorSamples: readonly string[];
  /** Accepted submissions not found in the store, or a power's current set not its last. */
  readonly lost: number;
  readonly lostSamples: readonly string[];
  readonly perSecond: number;
  /** Every request, first ones included. */
  readonly allMs: Percentiles;
  /** Each player's first request (connection included, all players at once). */
  readonly firstMs: Percentiles;
  /** Every later request. */
  readonly laterMs: Percentiles;
  /** The server process: CPU time per request (ms), resident memory at the end (MB). */
  readonly server: {
    cpuMsPerRequest: number | null;
    rssMB: number | null;
    peakRssMB: number | null;
  };
  /** The soak: one sample per period, and whether memory and latency stayed flat. */
  readonly samples?: readonly Sample[];
  readonly flat?: { memory: boolean; latency: boolean; why: string };
  readonly machine: { cpus: number; model: string; loadavg: number[]; loadavgBefore: number[] };
}

/** Memory may grow by a tenth over the run, the latency's p99 by a half (the machine is shared). */
const MEMORY_TOLERANCE = 0.1;
const LATENCY_TOLERANCE = 0.5;

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const readEvery = opts.readEvery ?? 5;
  const intervalMs = opts.intervalMs ?? 0;
  let dir: string | null = null;
  let pg: { url: string; schema: string } | null = null;
  let env: Record<string, string>;
  let args: string[] = [];
  let store: Store;
  if (opts.postgres) {
    const url = await postgresUrl();
    if (!url) throw new Error("PostgreSQL not reachable on 127.0.0.1:5432 (database test)");
    pg = { url, schema: freshSchemaName() };
    store = await openStore({ url, schema: pg.schema });
    env = { DATABASE_URL: url, ENTENTE_PG_SCHEMA: pg.schema };
  } else {
    dir = mkdtempSync(join(tmpdir(), "entente-load-"));
    store = await openStore({ sqlitePath: join(dir, "entente.sqlite") });
    env = {};
    args = ["--data", dir];
  }
  try {
    const seats = await setUp(store, opts.players);
    const warmSeats = opts.warmupSeconds ? await setUp(store, 25) : [];
    const prefillStarted = performance.now();
    if (opts.prefill) {
      if (!dir) throw new Error("--prefill is for SQLite only");
      await prefill(store, join(dir, "entente.sqlite"), seats, opts.prefill);
    }
    const prefillSeconds = round((performance.now() - prefillStarted) / 1000);
    // The orders-rate quota (60 sets at once, then one a second per player and game) holds
    // for paced players sending at most one set a second; players sending as fast as answered,
    // and the warm-up's, would be refused past it, so the quota is lifted for those runs.
    const setsPerSecond =
      intervalMs > 0
        ? ((1000 / intervalMs) * (readEvery - 1)) / readEvery
        : Number.POSITIVE_INFINITY;
    const withinQuota = setsPerSecond <= DEFAULT_ORDERS_RATE.perSecond && !opts.warmupSeconds;
    const server = await spawnServer(
      {
        ...env,
        ENTENTE_TICK_MS: "1000",
        ENTENTE_POLL_MS: "500",
        ...(withinQuota ? {} : { ENTENTE_ORDERS_BURST: "0" }),
        // The server warms its hot paths before listening, as `entente serve` does; --cold not.
        ENTENTE_WARMUP: opts.cold ? "0" : "1",
      },
      args,
      opts.cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${opts.cpuProf}`] : [],
    );
    const errors: string[] = [];
    // The bench's own client warmed (fetch and its HTTP client compiled in this process), as
    // 500 real players' browsers would already be, so that a player's first request times
    // the server, not this process's first use of fetch on the same two cores. Not the server's
    // hot paths (it warms them itself, or not with --cold): a health check, each on a
    // connection closed after it, so every player still opens its own for its first request.
    for (let i = 0; i < 10; i++) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const res = await fetch(`${server.base}/api/health`, {
            headers: { connection: "close" },
          });
          await res.json();
        }),
      );
    }
    if (opts.warmupSeconds) {
      const until = performance.now() + opts.warmupSeconds * 1000;
      await Promise.all(
        warmSeats.map(async (s) => {
          const sets = REVISIONS.get(s.power)!;
          for (let n = 0; performance.now() < until; n++) {
            const orders = sets[n % sets.length]!;
            try {
              const res = await fetch(`${server.base}/api/games/${s.game}/orders`, {
                method: "POST",
                headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
                body: JSON.stringify({ orders, phase: "S1901M" }),
              });
              const text = await res.text();
              if (res.status !== 200) errors.push(`warm-up: ${res.status} ${text.slice(0, 200)}`);
              else s.accepted.push(n % sets.length);
            } catch (e) {
              errors.push(`warm-up: connection: ${(e as Error).message}`);
            }
          }
        }),
      );
    }
    const loadavgBefore = loadavg().map(round);
    /** Every request's latency (ms), in the order answered; and the first and later ones. */
    const latencies: number[] = [];
    const firsts: number[] = [];
    const laters: number[] = [];
    let requests = 0;
    let readBacks = 0;
    const started = performance.now();
    const end = started + opts.seconds * 1000;
    const timed = async (
      f: () => Promise<Response>,
      due: number,
      first: boolean,
    ): Promise<Response | null> => {
      try {
        const res = await f();
        const ms = performance.now() - due;
        latencies.push(ms);
        (first ? firsts : laters).push(ms);
        requests++;
        return res;
      } catch (e) {
        requests++;
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        errors.push(
          `connection: ${(e as Error).message} (${cause?.code ?? cause?.message ?? "no cause"})`,
        );
        return null;
      }
    };
    /** Waits until `due` (the player's pace), and says when the request is due. */
    const pace = async (due: number): Promise<number> => {
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      return intervalMs > 0 ? due : performance.now();
    };
    const player = async (s: Seat, index: number) => {
      const base = `${server.base}/api/games/${s.game}/orders`;
      const auth = { authorization: `Bearer ${s.token}` };
      const sets = REVISIONS.get(s.power)!;
      /** Reads the orders back: exactly the last accepted set. */
      const readBack = async (at: number) => {
        const back = await timed(() => fetch(base, { headers: auth }), at, false);
        if (!back) return;
        const body = (await back.json()) as { sets?: { power: string; orders: string[] }[] };
        readBacks++;
        const mine = body.sets?.find((x) => x.power === s.power);
        if (back.status !== 200) errors.push(`read ${back.status} ${JSON.stringify(body)}`);
        else if (JSON.stringify(mine?.orders) !== TEXTS.get(s.power)![s.accepted.at(-1)!]) {
          errors.push(`read-back: ${s.game} ${s.power} reads ${JSON.stringify(mine?.orders)}`);
        }
      };
      // Paced players start spread over one interval, not all at the same instant.
      let due = started + (intervalMs * index) / seats.length;
      let readLast = false;
      for (let n = 0; ; n++) {
        const at = await pace(due);
        due = at + intervalMs;
        if (at >= end && n > 0) break;
        readLast = false;
        const orders = sets[n % sets.length]!;
        const res = await timed(
          () =>
            fetch(base, {
              method: "POST",
              headers: { ...auth, "content-type": "application/json" },
              body: JSON.stringify({ orders, phase: "S1901M" }),
            }),
          at,
          n === 0,
        );
        if (!res) continue;
        const text = await res.text();
        if (res.status !== 200) errors.push(`${res.status} ${text.slice(0, 200)}`);
        else s.accepted.push(n % sets.length);
        if (n % readEvery === readEvery - 1) {
          const readAt = await pace(due);
          if (readAt >= end) break;
          if (intervalMs > 0) due = readAt + intervalMs;
          await readBack(readAt);
          readLast = true;
        }
      }
      // Each player ends by reading its orders back (counted like any other request).
      if (!readLast && s.accepted.length > 0) await readBack(performance.now());
    };

    // The soak: every period, the server's memory and the latency of the requests answered.
    const samples: Sample[] = [];
    let peakRss = 0;
    let sampled = 0;
    let cpuAtSample: number | null = null;
    const sample = () => {
      const now = performance.now() - started;
      const window = latencies.slice(sampled);
      const stats = processStats(server.proc.pid);
      const rssMB = stats?.rssMB ?? null;
      if (rssMB !== null) peakRss = Math.max(peakRss, rssMB);
      const cpuMsPerRequest =
        stats && cpuAtSample !== null && window.length > 0
          ? Math.round(((stats.cpuMs - cpuAtSample) / window.length) * 100) / 100
          : null;
      cpuAtSample = stats?.cpuMs ?? null;
      samples.push({
        at: round(now / 1000),
        requests: window.length,
        perSecond: round(window.length / ((now - (samples.at(-1)?.at ?? 0) * 1000) / 1000)),
        latencyMs: percentiles(window),
        rssMB,
        cpuMsPerRequest,
        loadavg: round(loadavg()[0]!),
      });
      sampled = latencies.length;
    };
    const sampler =
      opts.sampleSeconds !== undefined
        ? setInterval(sample, opts.sampleSeconds * 1000)
        : setInterval(() => {
            peakRss = Math.max(peakRss, processStats(server.proc.pid)?.rssMB ?? 0);
          }, 1000);

    const cpuBefore = processStats(server.proc.pid)?.cpuMs ?? null;
    cpuAtSample = cpuBefore;
    await Promise.all(seats.map(player));
    clearInterval(sampler);
    const elapsed = (performance.now() - started) / 1000;
    const after = processStats(server.proc.pid);
    // The tail since the last sample, if it is at least half a period (a few requests
    // answered after the end would only add noise to the fit).
    const lastAt = samples.at(-1)?.at ?? 0;
    if (
      opts.sampleSeconds !== undefined &&
      latencies.length > sampled &&
      elapsed - lastAt >= opts.sampleSeconds / 2
    ) {
      sample();
    }
    await server.stop();

    // Nothing lost: each accepted set is stored, once, in order; the current set is the last.
    const rows = await store.db
      .selectFrom("submissions")
      .select(["game_id", "power", "orders"])
      .orderBy("id")
      .execute();
    const stored = new Map<string, string[]>();
    for (const r of rows) {
      const k = `${r.game_id} ${r.power}`;
      const list = stored.get(k) ?? [];
      list.push(r.orders);
      stored.set(k, list);
    }
    const lost: string[] = [];
    for (const s of [...seats, ...warmSeats]) {
      const have = stored.get(`${s.game} ${s.power}`) ?? [];
      const texts = TEXTS.get(s.power)!;
      if (have.length !== s.accepted.length || have.some((t, i) => t !== texts[s.accepted[i]!])) {
        lost.push(
          `${s.game} ${s.power}: ${s.accepted.length} accepted, ${have.length} stored; last accepted ${texts[s.accepted.at(-1)!]}, last stored ${have.at(-1)}`,
        );
      }
    }
    const submissions = seats.reduce((a, s) => a + s.accepted.length, 0) - (opts.prefill ?? 0);
    let flat: LoadResult["flat"];
    if (samples.length >= 3) {
      const mem = rise(samples.map((x) => x.rssMB ?? 0));
      const lat = rise(samples.map((x) => x.latencyMs.p99));
      const memory = mem.rise <= MEMORY_TOLERANCE * mem.mean;
      const latency = lat.rise <= LATENCY_TOLERANCE * lat.mean;
      flat = {
        memory,
        latency,
        why: `after the first sample, server RSS rose ${round(mem.rise)} MB over the run (mean ${round(mem.mean)} MB; flat if at most ${MEMORY_TOLERANCE * 100}%), p99 latency ${round(lat.rise)} ms (mean ${round(lat.mean)} ms; flat if at most ${LATENCY_TOLERANCE * 100}%), by least squares`,
      };
    }
    return {
      players: seats.length,
      games: new Set(seats.map((s) => s.game)).size,
      seconds: round(elapsed),
      database: store.dialect,
      intervalMs,
      warmupSeconds: opts.warmupSeconds ?? 0,
      prefilled: { revisions: opts.prefill ?? 0, seconds: prefillSeconds },
      serverWarmUp: !opts.cold,
      ordersQuota: withinQuota
        ? `the default: ${DEFAULT_ORDERS_RATE.burst} at once, then ${DEFAULT_ORDERS_RATE.perSecond} a second`
        : "off (the players send faster than it allows)",
      requests,
      submissions,
      readBacks,
      errors: errors.length,
      errorSamples: errors.slice(0, 5),
      lost: lost.length,
      lostSamples: lost.slice(0, 5),
      perSecond: round(requests / elapsed),
      allMs: percentiles(latencies),
      firstMs: percentiles(firsts),
      laterMs: percentiles(laters),
      server: {
        cpuMsPerRequest:
          cpuBefore !== null && after
            ? Math.round(((after.cpuMs - cpuBefore) / Math.max(1, requests)) * 100) / 100
            : null,
        rssMB: after?.rssMB ?? null,
        peakRssMB: peakRss || null,
      },
      ...(opts.sampleSeconds !== undefined ? { samples, flat } : {}),
      machine: {
        cpus: cpus().length,
        model: cpus()[0]?.model ?? "unknown",
        loadavg: loadavg().map(round),
        loadavgBefore,
      },
    };
  } finally {
    await store.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (pg) await dropSchema(pg.url, pg.schema);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      players: { type: "string", default: "500" },
      seconds: { type: "string" },
      minutes: { type: "string" },
      interval: { type: "string", default: "0" },
      warmup: { type: "string", default: "0" },
      sample: { type: "string", default: "60" },
      postgres: { type: "boolean", default: false },
      "cpu-prof": { type: "string" },
      cold: { type: "boolean", default: false },
      prefill: { type: "string", default: "0" },
    },
  });
  const soak = process.env.SOAK === "1" || values.minutes !== undefined;
  const seconds =
    values.seconds !== undefined
      ? Number(values.seconds)
      : values.minutes !== undefined
        ? Number(values.minutes) * 60
        : soak
          ? 30 * 60
          : 60;
  const result = await runLoad({
    players: Number(values.players),
    seconds,
    intervalMs: Number(values.interval),
    warmupSeconds: Number(values.warmup),
    postgres: values.postgres,
    cpuProf: values["cpu-prof"],
    cold: values.cold,
    prefill: Number(values.prefill),
    ...(soak ? { sampleSeconds: Number(values.sample) } : {}),
  });
  console.log(JSON.stringify(result));
  const flat = result.flat ? result.flat.memory && result.flat.latency : true;
  process.exit(result.errors === 0 && result.lost === 0 && flat ? 0 : 1);
}
