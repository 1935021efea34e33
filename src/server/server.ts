import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { JudgeError } from "../judge/errors.ts";
import type { Judge } from "../judge/judge.ts";
import { EventHub } from "./events.ts";
import {
  jsonErrorAt,
  Limits,
  type LimitsConfig,
  RateLimited,
  SECURITY_HEADERS,
  tooDeep,
  tooDeepMessage,
} from "./limits.ts";
import { openApi } from "./openapi.ts";
import { match, type Reply, type Route } from "./router.ts";
import { apiRoutes } from "./routes.ts";
import { ValidationError } from "./schema.ts";
import { serveWeb } from "./web.ts";

/*
 * The HTTP server over the judge (node:http, no framework): JSON in and out, bearer tokens,
 * server-sent events, and the scheduler that adjudicates phases whose deadline has passed.
 */

export interface ServerOptions {
  readonly judge: Judge;
  readonly port: number;
  readonly host?: string;
  /** How often to look for due phases (ms). Default 1000. */
  readonly tickMs?: number;
  /** How often live updates are polled from the store (ms). Default 500. */
  readonly pollMs?: number;
  readonly log?: (message: string) => void;
  /** Rate limits and the body bound (limits.ts); defaults in DEFAULT_LIMITS. */
  readonly limits?: Partial<LimitsConfig>;
}

export interface RunningServer {
  readonly port: number;
  readonly server: Server;
  /** The route table it serves (the access-control test walks it). */
  readonly routes: readonly Route[];
  close(): Promise<void>;
}

const STATUS: Record<JudgeError["kind"], number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The body as text, at most `max` bytes: a larger one is refused with 413 (announced by
 * Content-Length, at once; otherwise once it passes the bound, the rest read and dropped so
 * that the client gets the answer).
 */
function readBody(req: IncomingMessage, max: number): Promise<string> {
  const tooLarge = () =>
    new HttpError(
      413,
      `the request body is larger than ${max >= 1024 * 1024 ? `${max / (1024 * 1024)} MB` : `${max} bytes`}; nothing was stored`,
    );
  return new Promise((resolve, reject) => {
    if (Number(req.headers["content-length"] ?? 0) > max) {
      req.resume();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > max) {
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const { judge } = opts;
  const log = opts.log ?? (() => {});
  const hub = new EventHub(judge, opts.pollMs ?? 500);
  const routes: Route[] = apiRoutes(judge, hub, { database: judge.store.dialect });
  const limits = new Limits(opts.limits, judge.now);
  const docs = openApi(routes);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = req.method ?? "GET";
    // The web client's pages and script (web.ts).
    if (await serveWeb(judge, req, res, url)) return;
    if (
      method === "GET" &&
      (url.pathname === "/api/docs" || url.pathname === "/api/openapi.json")
    ) {
      sendJson(res, 200, docs);
      return;
    }
    const found = match(routes, method, url.pathname);
    if (!found)
      throw new HttpError(
        404,
        `no such path: ${method} ${url.pathname}; the API is described at /api/docs`,
      );
    if ("allowed" in found) {
      res.setHeader("allow", found.allowed.join(", "));
      throw new HttpError(405, `${url.pathname} takes ${found.allowed.join(", ")}, not ${method}`);
    }
    const { route, params } = found;
    const header = req.headers.authorization;
    let token: string | null = null;
    if (header) {
      const m = /^Bearer\s+(\S+)$/i.exec(header);
      if (!m) throw new HttpError(401, 'the Authorization header must be "Bearer <token>"');
      token = m[1]!;
    } else if (route.path.endsWith("/events")) {
      token = url.searchParams.get("token");
    }
    const user = token ? await judge.authenticate(token) : null;
    if (token && !user) throw new HttpError(401, "this token is unknown or revoked; log in again");
    if (route.auth === "required" && !user) {
      throw new HttpError(
        401,
        "log in first: send Authorization: Bearer <token> (from /api/login)",
      );
    }
    let body: unknown;
    if (method === "POST") {
      const text = await readBody(req, limits.config.maxBodyBytes);
      if (text.trim() !== "") {
        const type = String(req.headers["content-type"] ?? "");
        if (!/^application\/json\s*(;|$)/i.test(type)) {
          throw new HttpError(
            415,
            `the body must be JSON, sent with Content-Type: application/json${type ? `, not ${type}` : " (it had no Content-Type)"}`,
          );
        }
        try {
          body = JSON.parse(text);
        } catch {
          throw new HttpError(400, `the body is not valid JSON: ${jsonErrorAt(text)}`);
        }
        const deep = tooDeep(body);
        if (deep) throw new HttpError(400, tooDeepMessage(deep));
      }
    }
    const reply: Reply = await limits.around(`${method} ${route.path}`, req, body, () =>
      route.handle({ user, token, params, query: url.searchParams, body, req, res }),
    );
    if (reply && typeof reply === "object" && "streamed" in reply) return;
    if (
      reply &&
      typeof reply === "object" &&
      "status" in reply &&
      "body" in reply &&
      typeof reply.status === "number"
    ) {
      sendJson(res, reply.status, reply.body);
      return;
    }
    sendJson(res, 200, reply);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent) {
        res.end();
        return;
      }
      if (e instanceof JudgeError) sendJson(res, STATUS[e.kind], { error: e.message });
      else if (e instanceof ValidationError) sendJson(res, 400, { error: e.message });
      else if (e instanceof HttpError) {
        if (e.status === 413) res.setHeader("connection", "close");
        sendJson(res, e.status, { error: e.message });
      } else if (e instanceof RateLimited) {
        res.setHeader("retry-after", String(e.retryAfterSeconds));
        sendJson(res, 429, { error: e.message });
      } else {
        log(`internal error on ${req.method} ${req.url}: ${(e as Error).stack ?? e}`);
        sendJson(res, 500, { error: "internal error; the server's log has the details" });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // Idle keep-alive connections are closed after a minute, not Node's 5 s: a client (or a
    // proxy) reusing one just as the server closes it gets a reset, which a busy client's late
    // timers make likely (bench/load.ts saw it at 500 players); a minute makes it rare.
    server.keepAliveTimeout = 60_000;
    server.headersTimeout = 65_000;
    server.listen(opts.port, opts.host ?? "0.0.0.0", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  // The scheduler: adjudicate what is due now (catching up after a restart), then keep looking.
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    running = judge.tick().catch((e: unknown) => log(`scheduler: ${(e as Error).stack ?? e}`));
  };
  tick();
  const timer = setInterval(tick, opts.tickMs ?? 1000);
  hub.start();

  return {
    port,
    server,
    routes,
    async close() {
      stopped = true;
      clearInterval(timer);
      hub.stop();
      await running;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
