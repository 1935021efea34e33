import type { IncomingMessage, ServerResponse } from "node:http";
import type { User } from "../judge/judge.ts";
import { type JsonSchema, type Schema, ValidationError } from "./schema.ts";

/*
 * Routes as data: method, path, who may call, the body's schema, the handler. The server
 * matches and validates with them and the OpenAPI document is written from them.
 */

export type Auth = "none" | "optional" | "required";

export interface Ctx<B> {
  readonly user: User | null;
  /** The bearer token the user was authenticated with (live streams re-check it). */
  readonly token: string | null;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: B;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}

/** What a handler returns: a JSON body (200), or a status with a body, or "streamed". */
export type Reply = { status: number; body: unknown } | { streamed: true } | object | unknown[];

export interface Route {
  readonly method: "GET" | "POST" | "DELETE";
  /** `/api/games/{id}/orders` */
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly auth: Auth;
  readonly bodyJson?: JsonSchema;
  readonly query?: Readonly<Record<string, string>>;
  /** Status codes besides 200 worth documenting, with their meaning. */
  readonly responses?: Readonly<Record<number, string>>;
  readonly successStatus?: number;
  readonly pattern: RegExp;
  readonly paramNames: readonly string[];
  handle(ctx: Ctx<unknown>): Promise<Reply>;
}

export interface RouteDef<B> {
  readonly method: Route["method"];
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly auth: Auth;
  readonly body?: Schema<B>;
  readonly query?: Readonly<Record<string, string>>;
  readonly responses?: Readonly<Record<number, string>>;
  readonly successStatus?: number;
  readonly handler: (ctx: Ctx<B>) => Promise<Reply>;
}

export function route<B = undefined>(def: RouteDef<B>): Route {
  const paramNames: string[] = [];
  const pattern = new RegExp(
    `^${def.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      paramNames.push(name);
      return "([^/]+)";
    })}$`,
  );
  return {
    method: def.method,
    path: def.path,
    tag: def.tag,
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    auth: def.auth,
    ...(def.body ? { bodyJson: def.body.json } : {}),
    ...(def.query ? { query: def.query } : {}),
    ...(def.responses ? { responses: def.responses } : {}),
    ...(def.successStatus ? { successStatus: def.successStatus } : {}),
    pattern,
    paramNames,
    handle: (ctx) => {
      const body = def.body ? def.body.parse(ctx.body ?? undefined, "body") : (undefined as B);
      return def.handler({ ...ctx, body });
    },
  };
}

export function match(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | { allowed: string[] } | null {
  const allowed: string[] = [];
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    if (r.method !== method) {
      allowed.push(r.method);
      continue;
    }
    const params: Record<string, string> = {};
    r.paramNames.forEach((n, i) => {
      params[n] = decodePathParam(n, m[i + 1]!);
    });
    return { route: r, params };
  }
  return allowed.length > 0 ? { allowed } : null;
}

/** A path parameter decoded; a malformed percent-escape is the client's error (400). */
export function decodePathParam(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ValidationError(
      `the path is not a valid URL: its ${name} "${raw}" has a malformed percent-escape (write % followed by two hex digits of UTF-8, such as %20)`,
    );
  }
}
