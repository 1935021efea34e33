import type { IncomingMessage, ServerResponse } from "node:http";
import type { Judge, User } from "../judge/judge.ts";
import { type Reader, readerKey } from "../judge/numbering.ts";

/*
 * Live updates over server-sent events. One poller per process reads new events of the games
 * someone is watching from the store, so an event written by any process sharing the database
 * reaches every watcher. Events of one game are written under that game's lock, so their row
 * ids grow in commit order and "after row N" never skips one. A watcher is shown its own ids
 * (src/judge/numbering.ts): the nth event it may read is `id: n`, as in the JSON list, and a
 * press event names the message by the watcher's own id for it.
 */

interface Watcher {
  /** The last event row read for this watcher (delivered to it or not). */
  lastId: number;
  /** The watcher's id for the last event delivered to it. */
  n: number;
  /** Re-read before each delivery: a revoked token or a lost seat takes effect at once. */
  allowed: (audience: string) => boolean;
  reader: Reader;
  readonly token: string | null;
  readonly res: ServerResponse;
}

export class EventHub {
  private readonly games = new Map<string, Set<Watcher>>();
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    private readonly judge: Judge,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.heartbeat = setInterval(() => {
      for (const set of this.games.values()) for (const w of set) w.res.write(": keep-alive\n\n");
    }, 15_000);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const set of this.games.values()) for (const w of set) w.res.end();
    this.games.clear();
  }

  async stream(
    req: IncomingMessage,
    res: ServerResponse,
    user: User | null,
    token: string | null,
    gameId: string,
    after: number,
  ): Promise<void> {
    const from = await this.judge.views.eventsFrom(user, gameId, after);
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    res.write("retry: 2000\n\n");
    const w: Watcher = {
      lastId: from.row,
      n: from.n,
      allowed: from.allowed,
      reader: from.reader,
      token,
      res,
    };
    for (const e of from.events) send(res, e.id, e.kind, { ...e });
    let set = this.games.get(gameId);
    if (!set) {
      set = new Set();
      this.games.set(gameId, set);
    }
    set.add(w);
    req.on("close", () => {
      set.delete(w);
      if (set.size === 0) this.games.delete(gameId);
    });
  }

  private async poll(): Promise<void> {
    if (this.polling || this.games.size === 0) return;
    this.polling = true;
    try {
      for (const [gameId, set] of this.games) {
        const from = Math.min(...[...set].map((w) => w.lastId));
        const rows = await this.judge.views.rawEvents(gameId, from);
        if (rows.length === 0) continue;
        const watchers = [...set];
        const filters = await this.judge.views.audienceFilters(
          gameId,
          watchers.map((w) => w.token),
        );
        watchers.forEach((w, i) => {
          const f = filters[i];
          if (f) {
            w.allowed = f.allowed;
            w.reader = f.reader;
            return;
          }
          // The token was revoked: the stream ends (a reconnection is refused with 401).
          set.delete(w);
          w.res.end('event: revoked\ndata: {"error":"this token was revoked; log in again"}\n\n');
        });
        if (set.size === 0) this.games.delete(gameId);
        // Each watcher's new events with its own ids; press events name the message by the
        // reader's id for it, asked once per kind of reader (not once per watcher).
        // A watcher's cursor moves only once its events are ready to send (a failed read
        // leaves it where it was, for the next poll).
        const due = new Map<Watcher, { mine: Delivery[]; last: number }>();
        const byReader = new Map<string, { reader: Reader; rows: Map<number, Delivery> }>();
        for (const w of set) {
          const mine: Delivery[] = [];
          let last = w.lastId;
          for (const e of rows) {
            if (e.id <= w.lastId) continue;
            last = e.id;
            if (w.allowed(e.audience))
              mine.push({ row: e.id, kind: e.kind, data: e.data, at: e.at });
          }
          due.set(w, { mine, last });
          if (mine.length === 0) continue;
          const key = readerKey(w.reader);
          const group = byReader.get(key) ?? { reader: w.reader, rows: new Map() };
          for (const d of mine) group.rows.set(d.row, d);
          byReader.set(key, group);
        }
        const shown = new Map<string, Map<number, Delivery>>();
        for (const [key, { reader, rows: list }] of byReader) {
          const out = await this.judge.views.withOwnIds(gameId, reader, [...list.values()]);
          shown.set(key, new Map(out.map((d) => [d.row, d])));
        }
        for (const [w, { mine, last }] of due) {
          w.lastId = last;
          if (mine.length === 0) continue;
          const byRow = shown.get(readerKey(w.reader))!;
          for (const d of mine) {
            const e = byRow.get(d.row)!;
            w.n += 1;
            send(w.res, w.n, e.kind, { id: w.n, kind: e.kind, data: e.data, at: e.at });
          }
        }
      }
    } catch {
      // The database is briefly unreachable: the next poll tries again.
    } finally {
      this.polling = false;
    }
  }
}

/** An event row on its way to a watcher. */
interface Delivery {
  readonly row: number;
  readonly kind: string;
  readonly data: unknown;
  readonly at: string;
}

function send(res: ServerResponse, id: number, kind: string, data: unknown): void {
  res.write(`id: ${id}\nevent: ${kind}\ndata: ${JSON.stringify(data)}\n\n`);
}
