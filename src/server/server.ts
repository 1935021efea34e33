import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from "fastify";
import { JudgeError } from "../judge/errors.ts";
import type { Judge, User } from "../judge/judge.ts";
import { jsonTextProblem, lineProblem } from "../judge/text.ts";
import { judgeKey } from "../judge/unsubscribe.ts";
import { arrival } from "../store/db.ts";
import { DaideGames } from "./daide-games.ts";
import { EventHub } from "./events.ts";
import { jsonErrorAt, tooDeep, tooDeepMessage } from "./json-body.ts";
import { attackMail, Limits, type LimitsConfig, RateLimited, SECURITY_HEADERS } from "./limits.ts";
import { API_INFO, COMPONENTS, routeSchema } from "./openapi.ts";
import { Readiness, type ReadinessOptions } from "./readiness.ts";
import { allowedAt, badEscapeMessage, type Reply, type Route } from "./router.ts";
import { apiResources } from "./routes.ts";
import { type JsonSchema, ValidationError, validatorFor } from "./schema.ts";
import { warmUp } from "./warm.ts";
import { serveWeb } from "./web.ts";

/*
 * The HTTP server over the judge, on Fastify: each resource of the table (routes.ts: one file
 * a resource in routes/, web-routes.ts, pictures.ts) is one plugin, its routes registered in
 * it with their schemas (Fastify validates every body, path parameter and query with Ajv;
 * @fastify/swagger documents the same schemas, @fastify/swagger-ui renders them at
 * /api/docs), bearer tokens, JSON bodies
 * only (415 otherwise, 413 over the bound, 400 when malformed or nested too deep),
 * server-sent events, the web client's pages, one error shape
 * ({"error": "..."}) for every refusal, and the scheduler that adjudicates phases whose
 * deadline has passed.
 */

export interface ServerOptions {
  readonly judge: Judge;
  readonly port: number;
  /** The address to listen on; default 0.0.0.0 (every interface). */
  readonly host?: string;
  /** How often to look for due phases (ms). Default 1000. */
  readonly tickMs?: number;
  /** How often live updates are polled from the store (ms). Default 500. */
  readonly pollMs?: number;
  readonly log?: (message: string) => void;
  /** Rate limits and the body bound (limits.ts); defaults in DEFAULT_LIMITS. */
  readonly limits?: Partial<LimitsConfig>;
  /**
   * Before listening, send the hot paths' requests to a throwaway game in memory (warm.ts),
   * so that the first players are not served by code V8 has not compiled yet. Default off
   * (tests); `entente serve` turns it on (ENTENTE_WARMUP=0 turns it off).
   */
  readonly warmUp?: boolean;
  /** The sender of the judge's mail to account owners (an attack on their password). */
  readonly mailFrom?: string;
  /** The readiness probe's timing (readiness.ts); defaults there. */
  readonly readiness?: ReadinessOptions;
  /**
   * DAIDE clients in the judge's games (daide-games.ts): each game with DAIDE seats listens on
   * its port (the judge's `daidePorts`), on this address (default: the server's `host`).
   */
  readonly daide?: { readonly host?: string | undefined };
}

export interface RunningServer {
  readonly port: number;
  readonly server: Server;
  /** The route table it serves (the access-control test walks it). */
  readonly routes: readonly Route[];
  /** Whether the store can read and write (readiness.ts), as /api/health answers. */
  readonly readiness: Readiness;
  close(): Promise<void>;
}

const STATUS: Record<JudgeError["kind"], number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  "too-much": 422,
  "too-often": 429,
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const bytes = (max: number) => (max >= 1024 * 1024 ? `${max / (1024 * 1024)} MB` : `${max} bytes`);

/** Who is calling: set by each route's onRequest hook, read by its handler. */
const callers = new WeakMap<
  FastifyRequest,
  { user: User | null; token: string | null; arrived: number }
>();

/** The 400 message for the first query parameter `r` does not take, or null. */
function unknownQueryMessage(r: Route, query: URLSearchParams): string | null {
  const takes = Object.keys(r.query ?? {});
  for (const k of query.keys()) {
    if (takes.includes(k)) continue;
    const accepted =
      takes.length === 0
        ? "it takes no query parameters"
        : `it takes ${takes.map((t) => `"${t}"`).join(", ")}`;
    return `unknown query parameter "${k}" for ${r.method} ${r.path}: ${accepted}; leave it out (to act on a power or a phase, put it in the body or the path as the API documents)`;
  }
  return null;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const { judge } = opts;
  const log = opts.log ?? (() => {});
  // The hot paths run (compiled by V8) before the first player arrives: warm.ts.
  if (opts.warmUp) {
    const w = await warmUp((j) =>
      buildApp({ ...opts, judge: j }, log, new Readiness(j, () => {})).then((b) => b.app),
    );
    log(`warmed up: ${w.requests} requests to a throwaway game in ${w.ms} ms`);
  }
  // The store is probed before the server listens, then every few seconds (readiness.ts).
  const readiness = new Readiness(judge, log, opts.readiness);
  await readiness.start();
  const { app, routes, hub } = await buildApp(opts, log, readiness);

  await app.listen({ port: opts.port, host: opts.host ?? "0.0.0.0" });
  const port = (app.server.address() as AddressInfo).port;

  // The scheduler: adjudicate what is due now (catching up after a restart), then keep looking;
  // the DAIDE clients are told what it did (daide-games.ts).
  const daide = opts.daide
    ? new DaideGames(judge, { host: opts.daide.host ?? opts.host, log })
    : null;
  let stopped = false;
  // The tick under way: a tick starts only when the last one is done, so that `close` waits
  // for the work still running (a tick slower than the interval, under load), not for a tick
  // that found the judge busy and did nothing.
  let running: Promise<void> | null = null;
  const tick = () => {
    if (stopped || running) return;
    running = judge.adjudication
      .tick()
      .then(() => daide?.refresh())
      .catch((e: unknown) => {
        // A fault of the storage is logged once, by readiness.ts, not at every tick.
        if (!readiness.noteError(e)) log(`scheduler: ${(e as Error).stack ?? e}`);
      })
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, opts.tickMs ?? 1000);
  hub.start();

  return {
    port,
    server: app.server,
    routes,
    readiness,
    async close() {
      stopped = true;
      clearInterval(timer);
      hub.stop();
      await running;
      await daide?.close();
      await readiness.stop();
      await app.close();
    },
  };
}

/**
 * The Fastify app over a judge, every route registered, not yet listening (startServer, and
 * the throwaway app of the warm-up).
 */
async function buildApp(
  opts: ServerOptions,
  log: (message: string) => void,
  readiness: Readiness,
): Promise<{ app: FastifyInstance; routes: Route[]; hub: EventHub }> {
  const { judge } = opts;
  const hub = new EventHub(judge, opts.pollMs ?? 500);
  const resources = apiResources(judge, hub, { database: judge.store.dialect, readiness });
  const routes: Route[] = resources.flatMap((r) => r.routes);
  const limits = new Limits(opts.limits, judge.now, {
    key: () => judgeKey(judge.store, "login-devices"),
    // The owner of an account under attack is told by mail, once for each attack.
    onAttack: async (a) => {
      const mail = attackMail(a);
      try {
        const sent = await judge.accounts.mailOwner(
          a.account,
          opts.mailFrom ?? "entente@localhost",
          mail,
        );
        log(
          `login: ${a.failures} wrong passwords for account ${a.account} from new addresses; ${sent ? "its owner is mailed" : "its owner has no mail address"}`,
        );
      } catch (e) {
        log(`login: mailing the owner of ${a.account}: ${(e as Error).stack ?? e}`);
      }
    },
  });

  const app = Fastify({
    logger: false,
    bodyLimit: limits.config.maxBodyBytes,
    // Idle keep-alive connections are closed after a minute, not Node's 5 s: a client (or a
    // proxy) reusing one just as the server closes it gets a reset, which a busy client's
    // late timers make likely (bench/load.ts saw it at 500 players); a minute makes it rare.
    keepAliveTimeout: 60_000,
    forceCloseConnections: true,
    // HEAD is answered for the web pages only (web.ts), as before.
    exposeHeadRoutes: false,
    // A path Fastify cannot decode (a malformed percent-escape): 400 with the shape of every
    // other refusal.
    frameworkErrors: (error, request, reply) => {
      for (const [k, v] of Object.entries(SECURITY_HEADERS)) reply.raw.setHeader(k, v);
      const path = request.url.split("?")[0] ?? "";
      const message =
        error.code === "FST_ERR_BAD_URL"
          ? badEscapeMessage(path)
          : error.code === "FST_ERR_MAX_PARAM_LENGTH"
            ? `a path parameter of ${path} is too long (at most 100 characters)`
            : error.message;
      const status = error.code === "FST_ERR_MAX_PARAM_LENGTH" ? 414 : 400;
      void (reply as unknown as FastifyReply)
        .code(status)
        .header("cache-control", "no-store")
        .send({ error: message });
    },
  });
  app.server.headersTimeout = 65_000;

  // Answers are written with JSON.stringify as they are: the response schemas document them.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const check = validatorFor(schema as JsonSchema);
    const where = httpPart === "body" ? "body" : httpPart === "params" ? "path" : "query";
    return (data: unknown) => {
      try {
        if (data === null && where === "body") {
          throw new ValidationError(
            "the body is missing: send a JSON object with Content-Type: application/json",
          );
        }
        return { value: check(data, where) };
      } catch (e) {
        return { error: e as Error };
      }
    };
  });

  // JSON bodies only; parsed here so that a malformed one is located and a deep one refused
  // before a schema, the judge or the engine recurses into it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, text, done) => {
    const body = String(text);
    if (body.trim() === "") {
      done(null, undefined);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      done(new HttpError(400, `the body is not valid JSON: ${jsonErrorAt(body)}`), undefined);
      return;
    }
    const deep = tooDeep(value);
    if (deep) {
      done(new HttpError(400, tooDeepMessage(deep)), undefined);
      return;
    }
    // No field of any route stores a NUL (PostgreSQL cannot) or a bidirectional override.
    const unsafe = jsonTextProblem(value);
    if (unsafe) done(new HttpError(400, unsafe), undefined);
    else done(null, value);
  });

  // Form data only for the one-click unsubscribe (RFC 8058: the mail program POSTs
  // List-Unsubscribe=One-Click as a form); every other route keeps to JSON, so no page
  // elsewhere can make a browser send a form to any other route.
  const oneClickForm = (req: FastifyRequest, text: string | Buffer, multipart: boolean) => {
    if (!new URL(req.url, "http://localhost").pathname.startsWith("/api/unsubscribe/")) {
      const type = req.headers["content-type"];
      throw new HttpError(
        415,
        `the body must be JSON, sent with Content-Type: application/json, not ${type}`,
      );
    }
    const body = String(text);
    if (!multipart) return Object.fromEntries(new URLSearchParams(body));
    // multipart/form-data: the one field RFC 8058 sends.
    const m = /name="List-Unsubscribe"\r?\n(?:[^\r\n]+\r?\n)*\r?\n([^\r\n]*)/i.exec(body);
    return m ? { "List-Unsubscribe": m[1] } : {};
  };
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (req, text, done) => {
      try {
        done(null, oneClickForm(req, text, false));
      } catch (e) {
        done(e as Error, undefined);
      }
    },
  );
  app.addContentTypeParser("multipart/form-data", { parseAs: "string" }, (req, text, done) => {
    try {
      done(null, oneClickForm(req, text, true));
    } catch (e) {
      done(e as Error, undefined);
    }
  });

  app.addHook("onRequest", async (_request, reply) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) reply.raw.setHeader(k, v);
  });

  const refuse = (reply: FastifyReply, status: number, message: string) =>
    reply.code(status).header("cache-control", "no-store").send({ error: message });

  app.setErrorHandler((e: FastifyError, request, reply) => {
    if (reply.raw.headersSent) {
      reply.hijack();
      reply.raw.end();
      return;
    }
    if (e instanceof JudgeError) {
      if (e.retryAfterSeconds !== undefined)
        reply.header("retry-after", String(e.retryAfterSeconds));
      return refuse(reply, STATUS[e.kind], e.message);
    }
    if (e instanceof ValidationError) return refuse(reply, 400, e.message);
    if (e instanceof HttpError) return refuse(reply, e.status, e.message);
    if (e instanceof RateLimited) {
      reply.header("retry-after", String(e.retryAfterSeconds));
      return refuse(reply, 429, e.message);
    }
    switch (e.code) {
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        reply.header("connection", "close");
        return refuse(
          reply,
          413,
          `the request body is larger than ${bytes(limits.config.maxBodyBytes)}; nothing was stored`,
        );
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE": {
        const type = request.headers["content-type"];
        return refuse(
          reply,
          415,
          `the body must be JSON, sent with Content-Type: application/json${type ? `, not ${type}` : " (it had no Content-Type)"}`,
        );
      }
      case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
        return refuse(reply, 400, "the body's length is not the Content-Length announced");
    }
    if (typeof e.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 500) {
      return refuse(reply, e.statusCode, e.message);
    }
    // The storage failed (a full disk, a damaged page...): 503, saying why; logged once by
    // readiness.ts, not at every request.
    if (readiness.noteError(e)) {
      reply.header("retry-after", "30");
      return refuse(
        reply,
        503,
        `the judge cannot use its database just now (${readiness.lastCause() ?? "a storage error"}); nothing of this request was stored: try again later (GET /api/health says when it is ready)`,
      );
    }
    log(`internal error on ${request.method} ${request.url}: ${e.stack ?? e}`);
    return refuse(reply, 500, "internal error; the server's log has the details");
  });

  // Not an API route: the web client's pages and script (web.ts), or 405 / 404.
  app.setNotFoundHandler(async (request, reply) => {
    const url = new URL(request.url, "http://localhost");
    if (await serveWeb(judge, request.raw, reply.raw, url)) {
      reply.hijack();
      return reply;
    }
    const allowed = allowedAt(routes, url.pathname);
    if (allowed.length > 0) {
      reply.header("allow", allowed.join(", "));
      return refuse(
        reply,
        405,
        `${url.pathname} takes ${allowed.join(", ")}, not ${request.method}`,
      );
    }
    return refuse(
      reply,
      404,
      `no such path: ${request.method} ${url.pathname}; the API is described at /api/docs`,
    );
  });

  // The OpenAPI document from the route schemas; the reference rendered at /api/docs.
  await app.register(swagger, {
    openapi: { openapi: "3.1.0", info: API_INFO, servers: [{ url: "/" }], components: COMPONENTS },
  });
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    uiConfig: { validatorUrl: null, deepLinking: true },
  });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  /** A route of the table as Fastify takes it: who calls, the body, the handler's answer. */
  const fastifyRoute = (r: Route): RouteOptions => ({
    method: r.method,
    url: r.path.replace(/\{(\w+)\}/g, ":$1"),
    schema: routeSchema(r),
    // Who calls, before the body is read: a refused caller is told so first.
    onRequest: async (request) => {
      // The request's work is done in its arrival's name: the store serves the oldest
      // request first (src/store/sqlite-group.ts), so its later steps do not queue behind
      // requests that came after it.
      const arrived = performance.now();
      for (const [k, v] of Object.entries((request.params ?? {}) as Record<string, string>)) {
        const bad = lineProblem(v, `the path's ${k}`);
        if (bad) throw new HttpError(400, bad);
      }
      const query = new URL(request.url, "http://localhost").searchParams;
      // A query parameter the route does not take is refused, not ignored: a caller who
      // wrote `votes/1?power=england` meant something the route would not have done.
      const unknown = unknownQueryMessage(r, query);
      if (unknown) throw new HttpError(400, unknown);
      for (const [k, v] of query) {
        const bad =
          lineProblem(v, `the query's ${k}`) ?? lineProblem(k, "a query parameter's name");
        if (bad) throw new HttpError(400, bad);
      }
      const header = request.headers.authorization;
      let token: string | null = null;
      if (header) {
        const m = /^Bearer\s+(\S+)$/i.exec(header);
        if (!m) throw new HttpError(401, 'the Authorization header must be "Bearer <token>"');
        token = m[1]!;
      } else if (r.path.endsWith("/events")) {
        token = new URL(request.url, "http://localhost").searchParams.get("token");
      }
      const user = token
        ? await arrival.run(arrived, () => judge.accounts.authenticate(token))
        : null;
      if (token && !user)
        throw new HttpError(
          401,
          "this token is unknown or revoked, or has expired (unused for too long: docs/judge.md); log in again",
        );
      if (r.auth === "required" && !user) {
        throw new HttpError(
          401,
          "log in first: send Authorization: Bearer <token> (from /api/login)",
        );
      }
      callers.set(request, { user, token, arrived });
    },
    // A body that may be left out is checked as an empty object.
    ...(r.bodyOptional
      ? {
          preValidation: async (request: FastifyRequest) => {
            if (request.body === undefined || request.body === null) request.body = {};
          },
        }
      : {}),
    handler: async (request, reply) => {
      const { user, token, arrived } = callers.get(request) ?? {
        user: null,
        token: null,
        arrived: performance.now(),
      };
      const query = new URL(request.url, "http://localhost").searchParams;
      const params = request.params as Record<string, string>;
      const body = request.body;
      const out: Reply = await arrival.run(arrived, () =>
        limits.around(
          `${r.method} ${r.path}`,
          request.raw,
          body,
          () => r.handle({ user, token, params, query, body, req: request.raw, res: reply.raw }),
          user,
        ),
      );
      if (out && typeof out === "object" && "streamed" in out) {
        reply.hijack();
        return reply;
      }
      reply.header("cache-control", "no-store");
      if (
        out &&
        typeof out === "object" &&
        "status" in out &&
        "body" in out &&
        typeof out.status === "number"
      ) {
        return reply.code(out.status).send(out.body);
      }
      return reply.send(out);
    },
  });
  // One plugin a resource, in the table's order (the OpenAPI document's): encapsulated, so a
  // hook or decorator a resource may add stays with its routes; named for `app.printPlugins()`.
  for (const resource of resources) {
    const plugin = async (scope: FastifyInstance) => {
      for (const r of resource.routes) scope.route(fastifyRoute(r));
    };
    Object.defineProperty(plugin, Symbol.for("fastify.display-name"), {
      value: `resource: ${resource.name}`,
    });
    await app.register(plugin);
  }
  return { app, routes, hub };
}
