// Load (issue 12): many players submitting and revising orders on loopback, against a real
// `bin/entente serve` process, checked for zero errors and zero lost submissions.
//   node --import tsx bench/load.ts [--players 500] [--seconds 60] [--postgres]
// Prints one JSON line: requests, errors, submissions accepted, latency percentiles (ms).
// test/load.test.ts runs the same for a few seconds (a minute with ENTENTE_LONG=1).
// docs/reliability.md gives the figures and the machine.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { writePosition } from "../src/engine/position-json.ts";
import { Judge } from "../src/judge/judge.ts";
import { randomId } from "../src/judge/password.ts";
import { spawnServer } from "../src/server/process.ts";
import { openStore, type Store } from "../src/store/db.ts";
import { dropSchema, freshSchemaName, postgresUrl } from "../src/store/testing.ts";
import { classical } from "../src/variants/classical/index.ts";
import { getScenario } from "../src/variants/scenarios.ts";

export interface LoadOptions {
  /** Players in all (five-player games: a multiple of 5 is used). */
  readonly players: number;
  readonly seconds: number;
  readonly postgres?: boolean;
  /** Every how many submissions a player reads its orders back (read-your-writes check). */
  readonly readEvery?: number;
}

export interface LoadResult {
  readonly players: number;
  readonly games: number;
  readonly seconds: number;
  readonly database: string;
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
  /** Each player's first request (connection included, 500 opened at once). */
  readonly firstRequestMs: { p50: number; p99: number; max: number };
  /** Every later request. */
  readonly latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  readonly machine: { cpus: number; model: string; loadavg: number[] };
}

const UNITS = writePosition(classical, classical.start).units as Record<string, string[]>;

interface Seat {
  readonly game: string;
  readonly power: string;
  readonly token: string;
  /** Every accepted text, in order. */
  readonly accepted: string[];
}

/** Users, games and seats, written straight into the store (no password hashing per user). */
async function setUp(store: Store, players: number): Promise<Seat[]> {
  const judge = new Judge({ store });
  const scenario = getScenario("classical", "5")!;
  const perGame = scenario.seats.length;
  const games = Math.max(1, Math.round(players / perGame));
  const gm = await judge.register(`load-gm-${randomId(4)}`, "load-password");
  const seats: Seat[] = [];
  let n = 0;
  for (let i = 0; i < games; i++) {
    const game = await judge.createGame(gm.user, {
      name: `Load ${i}`,
      scenario: "5",
      options: { deadlines: { unit: "days", movement: 30 } },
    });
    const code = game.invites!.find((x) => x.role === "player")!.code;
    for (const seat of scenario.seats) {
      const id = randomId(12);
      const name = `load-${++n}-${randomId(4)}`;
      await store.db
        .insertInto("users")
        .values({ id, name, password_hash: "none: load-test user", created_at: Date.now() })
        .execute();
      const { token } = await judge.issueToken(id, "load");
      const power = seat.powers[0]!;
      await judge.acceptInvite({ id, name }, code, { power });
      seats.push({ game: game.id, power, token, accepted: [] });
    }
  }
  return seats;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const round = (x: number) => Math.round(x * 10) / 10;

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const readEvery = opts.readEvery ?? 5;
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
    const server = await spawnServer(
      { ...env, ENTENTE_TICK_MS: "1000", ENTENTE_POLL_MS: "500" },
      args,
    );
    const latencies: number[] = [];
    /** Each player's first request: it opens the connection, all 500 at once. */
    const firsts: number[] = [];
    const errors: string[] = [];
    let requests = 0;
    let readBacks = 0;
    const end = Date.now() + opts.seconds * 1000;
    const timed = async (f: () => Promise<Response>, first = false): Promise<Response | null> => {
      const t0 = performance.now();
      try {
        const res = await f();
        (first ? firsts : latencies).push(performance.now() - t0);
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
    const player = async (s: Seat) => {
      const base = `${server.base}/api/games/${s.game}/orders`;
      const auth = { authorization: `Bearer ${s.token}` };
      for (let n = 0; Date.now() < end; n++) {
        // A full set of holds, revised each time (the last line marks the revision).
        const orders = [...UNITS[s.power]!.map((u) => `${u} H`), `revision ${n}`];
        const res = await timed(
          () =>
            fetch(base, {
              method: "POST",
              headers: { ...auth, "content-type": "application/json" },
              body: JSON.stringify({ orders, phase: "S1901M" }),
            }),
          n === 0,
        );
        if (!res) continue;
        const text = await res.text();
        if (res.status !== 200) errors.push(`${res.status} ${text.slice(0, 200)}`);
        else s.accepted.push(JSON.stringify(orders));
        if (n % readEvery === readEvery - 1) {
          const back = await timed(() => fetch(base, { headers: auth }));
          if (!back) continue;
          const body = (await back.json()) as { sets?: { power: string; orders: string[] }[] };
          readBacks++;
          const mine = body.sets?.find((x) => x.power === s.power);
          if (back.status !== 200) errors.push(`read ${back.status} ${JSON.stringify(body)}`);
          else if (JSON.stringify(mine?.orders) !== s.accepted.at(-1)) {
            errors.push(`read-back: ${s.game} ${s.power} reads ${JSON.stringify(mine?.orders)}`);
          }
        }
      }
    };
    const started = Date.now();
    await Promise.all(seats.map(player));
    const elapsed = (Date.now() - started) / 1000;
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
    for (const s of seats) {
      const have = stored.get(`${s.game} ${s.power}`) ?? [];
      if (JSON.stringify(have) !== JSON.stringify(s.accepted)) {
        lost.push(
          `${s.game} ${s.power}: ${s.accepted.length} accepted, ${have.length} stored; last accepted ${s.accepted.at(-1)}, last stored ${have.at(-1)}`,
        );
      }
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const sortedFirsts = [...firsts].sort((a, b) => a - b);
    const submissions = seats.reduce((a, s) => a + s.accepted.length, 0);
    return {
      players: seats.length,
      games: new Set(seats.map((s) => s.game)).size,
      seconds: round(elapsed),
      database: store.dialect,
      requests,
      submissions,
      readBacks,
      errors: errors.length,
      errorSamples: errors.slice(0, 5),
      lost: lost.length,
      lostSamples: lost.slice(0, 5),
      perSecond: round(requests / elapsed),
      firstRequestMs: {
        p50: round(percentile(sortedFirsts, 50)),
        p99: round(percentile(sortedFirsts, 99)),
        max: round(sortedFirsts.at(-1) ?? 0),
      },
      latencyMs: {
        p50: round(percentile(sorted, 50)),
        p90: round(percentile(sorted, 90)),
        p99: round(percentile(sorted, 99)),
        max: round(sorted.at(-1) ?? 0),
        mean: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)),
      },
      machine: {
        cpus: cpus().length,
        model: cpus()[0]?.model ?? "unknown",
        loadavg: loadavg().map(round),
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
      seconds: { type: "string", default: "60" },
      postgres: { type: "boolean", default: false },
    },
  });
  const result = await runLoad({
    players: Number(values.players),
    seconds: Number(values.seconds),
    postgres: values.postgres,
  });
  console.log(JSON.stringify(result));
  process.exit(result.errors === 0 && result.lost === 0 ? 0 : 1);
}
