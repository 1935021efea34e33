import assert from "node:assert/strict";
import { request } from "node:http";
import type { TestContext } from "node:test";
import { sql } from "kysely";
import { Judge } from "../src/judge/judge.ts";
import type { Bucket } from "../src/judge/rate.ts";
import { Clock } from "../src/judge/testing.ts";
import type { Limits } from "../src/server/limits.ts";
import { startServer } from "../src/server/server.ts";
import { Api } from "../src/server/testing.ts";
import type { Store } from "../src/store/db.ts";
import { testStore } from "../src/store/testing.ts";

/*
 * What the tests of the server's hardening share (reliability.test.ts,
 * reliability-rates.test.ts; the snapshot also access.test.ts): a judge on a SQLite store,
 * served on a loopback port with the limits given (`world`), a raw request of exact bytes, and
 * every table of the store as one string, to compare before and after a refused request.
 */

/** Every table, every row (tokens without their last-use time): to compare before and after. */
export async function snapshot(store: Store): Promise<string> {
  const tables = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%'
    and name not like 'kysely_%' order by name`.execute(store.db);
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(
      store.db,
    );
    out[name] = rows.rows.map(({ last_used_at: _, ...rest }) => rest);
  }
  return JSON.stringify(out);
}

export async function world(
  t: TestContext,
  limits: ConstructorParameters<typeof Limits>[0] = {},
  ordersRate?: Bucket,
) {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "a SQLite store");
  const clock = new Clock();
  const judge = new Judge({ store: ts.store, now: clock.now, ordersRate });
  const server = await startServer({
    judge,
    port: 0,
    host: "127.0.0.1",
    tickMs: 60_000,
    pollMs: 50,
    limits,
  });
  t.after(() => server.close());
  const base = `http://127.0.0.1:${server.port}`;
  return { judge, clock, store: ts.store, base, api: new Api(base) };
}

/** A raw request: exact bytes, optional chunked transfer (no Content-Length). */
export function raw(
  base: string,
  method: string,
  path: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
  chunked = false,
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const req = request(
      url,
      {
        method,
        headers: {
          "content-type": "application/json",
          ...(chunked
            ? { "transfer-encoding": "chunked" }
            : { "content-length": Buffer.byteLength(body) }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString(),
            headers: res.headers,
          }),
        );
      },
    );
    req.on("error", reject);
    if (chunked) {
      const b = Buffer.from(body);
      for (let i = 0; i < b.length; i += 64 * 1024) req.write(b.subarray(i, i + 64 * 1024));
      req.end();
    } else req.end(body);
  });
}
