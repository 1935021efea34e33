// Work that must not grow with a long phase (issue 21, the soak): a submission and its
// read-back, and the reminders' list, in a game whose open phase already holds many stored
// revisions, against the same in a game whose phase holds a few.
//   node --import tsx bench/revisions.ts [--revisions 10000] [--rounds 200] [--postgres]
// Prints one JSON line: per game, the median and p90 time (ms) of one round (a submission,
// the orders read back, who still owes orders), the median of each step, and the ratio of the
// medians. docs/performance.md ("Long phases") gives the figures; test/long-phase.test.ts
// checks the same round by the rows the store reads, without a clock.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  type LongPhase,
  longPhaseRound,
  prefillRevisions,
  sevenPlayerGame,
} from "../src/judge/testing.ts";
import { openStore, type Store } from "../src/store/db.ts";
import { dropSchema, freshSchemaName, postgresUrl } from "../src/store/testing.ts";

export interface Timing {
  readonly p50: number;
  readonly p90: number;
  readonly submit: number;
  readonly read: number;
  readonly owed: number;
}

export interface RevisionsResult {
  readonly database: string;
  readonly revisions: number;
  readonly rounds: number;
  /** ms per round (a submission, the read-back, the reminders' list), and each's median. */
  readonly few: Timing;
  readonly many: Timing;
  /** many / few, by the medians. */
  readonly ratio: number;
  readonly machine: { cpus: number; loadavg: number[] };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

function quantiles(xs: number[]): { p50: number; p90: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return { p50: round(at(0.5)), p90: round(at(0.9)) };
}

export async function runRevisions(opts: {
  revisions: number;
  rounds: number;
  store: Store;
}): Promise<RevisionsResult> {
  const { store } = opts;
  const few: LongPhase = { game: await sevenPlayerGame(store), revisions: 10 };
  const many: LongPhase = { game: await sevenPlayerGame(store), revisions: opts.revisions };
  for (const g of [few, many]) await prefillRevisions(store, g);
  // Warm both (compiled code, prepared statements, caches), then alternate.
  for (let i = 0; i < 20; i++) for (const g of [few, many]) await longPhaseRound(g, i);
  const times = { few: [] as number[], many: [] as number[] };
  const parts = { few: [] as number[][], many: [] as number[][] };
  for (let i = 0; i < opts.rounds; i++) {
    for (const [name, g] of [
      ["few", few],
      ["many", many],
    ] as const) {
      const t = performance.now();
      const p = await longPhaseRound(g, i);
      times[name].push(performance.now() - t);
      parts[name].push([p.submit, p.read, p.owed]);
    }
  }
  const a = quantiles(times.few);
  const b = quantiles(times.many);
  const part = (xs: number[][], j: number) => quantiles(xs.map((x) => x[j]!)).p50;
  const split = (xs: number[][]) => ({ submit: part(xs, 0), read: part(xs, 1), owed: part(xs, 2) });
  return {
    database: store.dialect,
    revisions: opts.revisions,
    rounds: opts.rounds,
    few: { ...a, ...split(parts.few) },
    many: { ...b, ...split(parts.many) },
    ratio: round(b.p50 / a.p50),
    machine: { cpus: cpus().length, loadavg: loadavg().map((x) => Math.round(x * 10) / 10) },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      revisions: { type: "string", default: "10000" },
      rounds: { type: "string", default: "200" },
      postgres: { type: "boolean", default: false },
    },
  });
  let dir: string | null = null;
  let pg: { url: string; schema: string } | null = null;
  let store: Store;
  if (values.postgres) {
    const url = await postgresUrl();
    if (!url) throw new Error("PostgreSQL not reachable on 127.0.0.1:5432 (database test)");
    pg = { url, schema: freshSchemaName() };
    store = await openStore({ url, schema: pg.schema });
  } else {
    dir = mkdtempSync(join(tmpdir(), "entente-revisions-"));
    store = await openStore({ sqlitePath: join(dir, "entente.sqlite") });
  }
  try {
    const r = await runRevisions({
      revisions: Number(values.revisions),
      rounds: Number(values.rounds),
      store,
    });
    console.log(JSON.stringify(r));
  } finally {
    await store.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (pg) await dropSchema(pg.url, pg.schema);
  }
}
