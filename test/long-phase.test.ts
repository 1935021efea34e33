import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CompiledQuery as Compiled, type CompiledQuery, type KyselyPlugin, sql } from "kysely";
import {
  type LongPhase,
  longPhaseRound,
  POWERS,
  prefillRevisions,
  sevenPlayerGame,
} from "../src/judge/testing.ts";
import type { Store } from "../src/store/db.ts";
import { STORE_KINDS, testStore } from "../src/store/testing.ts";

/*
 * A long phase (issue 21, the soak): every revision of an order set stays on file, so a phase
 * revised in a loop holds thousands of rows; the work of a submission, its read-back, the
 * reminders' list and the scheduler's tick must not grow with them. Measured without a clock
 * (the machine is shared): every query the judge makes in a round is captured, and the store
 * says how it reads the order sets. PostgreSQL counts the rows each query actually read
 * (EXPLAIN ANALYZE); SQLite shows its plan (EXPLAIN QUERY PLAN), which must reach each
 * power's last set by a seek. bench/revisions.ts times the same round (docs/performance.md).
 */

const REVISIONS = 10_000;

/** A store whose every query is also kept, compiled, in `queries`. */
function capturing(store: Store): { store: Store; queries: CompiledQuery[] } {
  const queries: CompiledQuery[] = [];
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      queries.push(store.db.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  return { store: { ...store, db: store.db.withPlugin(plugin) }, queries };
}

interface PgPlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PgPlanNode[];
}

/** Rows of `submissions` a PostgreSQL plan read (returned or filtered away), all loops. */
function submissionRowsRead(n: PgPlanNode): number {
  let rows = 0;
  if (n["Relation Name"] === "submissions") {
    const loops = n["Actual Loops"] ?? 1;
    rows +=
      ((n["Actual Rows"] ?? 0) +
        (n["Rows Removed by Filter"] ?? 0) +
        (n["Rows Removed by Index Recheck"] ?? 0)) *
      loops;
  }
  for (const c of n.Plans ?? []) rows += submissionRowsRead(c);
  return rows;
}

const readsSubmissions = (q: CompiledQuery) =>
  /^\s*select/i.test(q.sql) && q.sql.includes('"submissions"');

describe("a long phase: the work per request does not grow with the stored revisions", () => {
  for (const kind of STORE_KINDS) {
    test(`${kind}: ${REVISIONS} revisions on file, each power's last set read by a seek`, async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const { store, queries } = capturing(ts.store);
      const lp: LongPhase = { game: await sevenPlayerGame(store), revisions: REVISIONS };
      await prefillRevisions(ts.store, lp);
      if (kind === "postgres") await sql`analyze submissions`.execute(ts.store.db);
      // One round (a submission, its read-back, who owes orders) and the scheduler's tick.
      await longPhaseRound(lp, 0);
      queries.length = 0;
      await longPhaseRound(lp, 1);
      await lp.game.judge.adjudication.tick();
      const reads = queries.filter(readsSubmissions);
      assert.ok(reads.length >= 2, `the round read the order sets (${reads.length} queries)`);
      for (const q of reads) {
        if (kind === "postgres") {
          const r = await ts.store.db.executeQuery<{ "QUERY PLAN": { Plan: PgPlanNode }[] }>(
            Compiled.raw(`explain (analyze, format json) ${q.sql}`, [...q.parameters]),
          );
          const plan = r.rows[0]!["QUERY PLAN"][0]!.Plan;
          const read = submissionRowsRead(plan);
          // Each power's last row by an index seek, then that row by its id: about two per
          // power; every revision read would be 10,000.
          assert.ok(
            read <= 3 * POWERS.length,
            `${read} rows of submissions read (at most ${3 * POWERS.length}) by: ${q.sql}\n${JSON.stringify(plan)}`,
          );
        } else {
          const r = await ts.store.db.executeQuery<{ detail: string }>(
            Compiled.raw(`explain query plan ${q.sql}`, [...q.parameters]),
          );
          for (const { detail } of r.rows) {
            if (!/\bsubmissions\b/.test(detail)) continue;
            // A row by its id, or one power's rows by the index that ends in the id (the
            // query takes the newest: one entry read).
            assert.match(
              detail,
              /^SEARCH submissions USING (INTEGER PRIMARY KEY \(rowid=\?\)|COVERING INDEX submissions_last \(game_id=\? AND phase_idx=\? AND phase=\? AND power=\?\))$/,
              `a plan that reads more than each power's last set: ${detail}\nfor: ${q.sql}`,
            );
          }
          if (!/\blimit\b/i.test(q.sql) && /submissions_last/.test(JSON.stringify(r.rows))) {
            assert.fail(
              `a seek on submissions_last without a limit reads every revision: ${q.sql}`,
            );
          }
        }
      }
    });
  }
});
