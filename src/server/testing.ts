import type { TestContext } from "node:test";
import type { DaidePorts } from "../judge/daide-seats.ts";
import { Judge } from "../judge/judge.ts";
import { Clock } from "../judge/testing.ts";
import type { Store } from "../store/db.ts";
import { type StoreKind, testStore } from "../store/testing.ts";
import { type RunningServer, type ServerOptions, startServer } from "./server.ts";

/*
 * Helpers for tests that speak HTTP to a judge server: a judge served for one test, a small
 * client and an SSE reader.
 */

export interface Answer<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
}

export class Api {
  constructor(readonly base: string) {}

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<Answer<T>> {
    const res = await fetch(this.base + path, {
      method,
      headers: {
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body !== undefined
        ? { body: typeof body === "string" ? body : JSON.stringify(body) }
        : {}),
    });
    const text = await res.text();
    const parsed =
      text.startsWith("{") || text.startsWith("[") ? (JSON.parse(text) as T) : (text as T);
    return { status: res.status, body: parsed };
  }

  /** Like call, but fails the test unless the status is 2xx. */
  async ok<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<T> {
    const a = await this.call<T>(method, path, body, token);
    if (a.status < 200 || a.status > 299) {
      throw new Error(`${method} ${path} answered ${a.status}: ${JSON.stringify(a.body)}`);
    }
    return a.body;
  }
}

/** A judge served for a test: its client, address, clock, the judge and its store. */
export interface ServedJudge {
  readonly api: Api;
  readonly base: string;
  readonly clock: Clock;
  readonly judge: Judge;
  readonly store: Store;
}

/**
 * A judge on a fresh store of `kind` (with `publicUrl`, its public address, if given), on a
 * clock the test moves, served on a free loopback port (scheduler and event polls every
 * 20 ms) and closed when the test ends; null where the store cannot be had (PostgreSQL not
 * running: the test is skipped).
 */
export async function serveJudge(
  t: TestContext,
  kind: StoreKind = "sqlite",
  publicUrl: string | null = null,
  extra: { daidePorts?: DaidePorts } = {},
): Promise<ServedJudge | null> {
  const ts = await testStore(t, kind);
  if (!ts) return null;
  const clock = new Clock();
  const judge = new Judge({
    store: ts.store,
    now: clock.now,
    publicUrl,
    daidePorts: extra.daidePorts ?? null,
  });
  const { api, base } = await serve(t, judge, extra.daidePorts ? { daide: {} } : {});
  return { api, base, clock, judge, store: ts.store };
}

/** An account for each name, its password `NAME-secret!`: their tokens by name. */
export async function accounts(
  api: Api,
  names: readonly string[],
): Promise<Record<string, string>> {
  const tok: Record<string, string> = {};
  for (const n of names) {
    tok[n] = (
      await api.ok<{ token: string }>("POST", "/api/users", { name: n, password: `${n}-secret!` })
    ).token;
  }
  return tok;
}

/**
 * `judge` served on a free loopback port (scheduler and event polls every 20 ms, unless
 * `more` says otherwise) and closed when the test ends, or before by `close`: the server, its
 * address, a client.
 */
export async function serve(
  t: TestContext,
  judge: Judge,
  more: Omit<Partial<ServerOptions>, "judge"> = {},
): Promise<{ server: RunningServer; base: string; api: Api; close: () => Promise<void> }> {
  const server = await startServer({
    judge,
    port: 0,
    host: "127.0.0.1",
    tickMs: 20,
    pollMs: 20,
    ...more,
  });
  let closing: Promise<void> | null = null;
  /** Closes the server once, whether the test closes it first or the test's end does. */
  const close = () => {
    closing ??= server.close();
    return closing;
  };
  t.after(close);
  const base = `http://127.0.0.1:${server.port}`;
  return { server, base, api: new Api(base), close };
}

export interface SseEvent {
  readonly id: number;
  readonly event: string;
  readonly data: { kind: string; data: Record<string, unknown> };
}

/** Reads server-sent events into a list until closed. */
export class SseReader {
  readonly events: SseEvent[] = [];
  private readonly abort = new AbortController();
  private done: Promise<void> = Promise.resolve();

  async open(url: string): Promise<void> {
    const res = await fetch(url, {
      headers: { accept: "text/event-stream" },
      signal: this.abort.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`SSE ${url}: ${res.status}`);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    this.done = (async () => {
      let buffer = "";
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          let cut = buffer.indexOf("\n\n");
          while (cut !== -1) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const fields = new Map<string, string>();
            for (const line of block.split("\n")) {
              const i = line.indexOf(": ");
              if (i > 0 && !line.startsWith(":")) fields.set(line.slice(0, i), line.slice(i + 2));
            }
            if (fields.has("data") && fields.has("id")) {
              this.events.push({
                id: Number(fields.get("id")),
                event: fields.get("event") ?? "message",
                data: JSON.parse(fields.get("data")!),
              });
            }
            cut = buffer.indexOf("\n\n");
          }
        }
      } catch {
        // aborted
      }
    })();
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.done;
  }
}

/**
 * Polls until `check` returns a value (not undefined/false), or fails after `ms`: generous, as
 * a wait that comes early costs nothing and a loaded 2-core machine (load average 16) is many
 * times slower than an idle one.
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  ms = 120_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (${ms} ms)`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
