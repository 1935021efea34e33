import type { IncomingMessage, ServerResponse } from "node:http";
import type { Judge, User } from "../judge/judge.ts";

/*
 * Live updates over server-sent events. One poller per process reads new events of the games
 * someone is watching from the store, so an event written by any process sharing the database
 * reaches every watcher. Events of one game are written under that game's lock, so their ids
 * grow in commit order and "after id N" never skips one.
 */

interface Watcher {
  lastId: number;
  /** Re-read before each delivery: a revoked token or a lost seat takes effect at once. */
  allowed: (audience: string) => boolean;
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
    const allowed = await this.judge.audienceFilter(user, gameId);
    const backlog = await this.judge.events(user, gameId, after);
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    res.write("retry: 2000\n\n");
    const w: Watcher = { lastId: after, allowed, token, res };
    for (const e of backlog) {
      send(res, e.id, e.kind, { ...e });
      w.lastId = e.id;
    }
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
        const rows = await this.judge.rawEvents(gameId, from);
        if (rows.length === 0) continue;
        const watchers = [...set];
        const filters = await this.judge.audienceFilters(
          gameId,
          watchers.map((w) => w.token),
        );
        watchers.forEach((w, i) => {
          const f = filters[i];
          if (f) {
            w.allowed = f;
            return;
          }
          // The token was revoked: the stream ends (a reconnection is refused with 401).
          set.delete(w);
          w.res.end('event: revoked\ndata: {"error":"this token was revoked; log in again"}\n\n');
        });
        if (set.size === 0) this.games.delete(gameId);
        for (const e of rows) {
          for (const w of set) {
            if (e.id <= w.lastId) continue;
            w.lastId = e.id;
            if (w.allowed(e.audience)) {
              send(w.res, e.id, e.kind, { id: e.id, kind: e.kind, data: e.data, at: e.at });
            }
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

function send(res: ServerResponse, id: number, kind: string, data: unknown): void {
  res.write(`id: ${id}\nevent: ${kind}\ndata: ${JSON.stringify(data)}\n\n`);
}
