import type { IncomingMessage, ServerResponse } from "node:http";
import type { User } from "../judge/judge.ts";
import type { JsonSchema, Schema } from "./schema.ts";

/*
 * Routes as data: method, path, who may call, the body's schema, the handler. server.ts
 * registers each with Fastify (which matches the path and validates the body against the
 * schema) and @fastify/swagger writes the OpenAPI document from the same definitions.
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

/**
 * What a handler returns: a JSON body (200, or the route's `successStatus`), or a status with a
 * body, or "streamed".
 */
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
  /** The body may be left out. */
  readonly bodyOptional?: boolean;
  readonly query?: Readonly<Record<string, string>>;
  /** Status codes besides 200 worth documenting, with their meaning. */
  readonly responses?: Readonly<Record<number, string>>;
  /** The JSON Schema of a successful answer (documented, not enforced). */
  readonly response?: JsonSchema;
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
  readonly response?: JsonSchema;
  /** The status of a successful answer (default 200): the handler returns only its body. */
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
  const { successStatus, handler } = def;
  return {
    method: def.method,
    path: def.path,
    tag: def.tag,
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    auth: def.auth,
    ...(def.body ? { bodyJson: def.body.json, bodyOptional: def.body.optional } : {}),
    ...(def.query ? { query: def.query } : {}),
    ...(def.responses ? { responses: def.responses } : {}),
    ...(def.response ? { response: def.response } : {}),
    ...(successStatus ? { successStatus } : {}),
    pattern,
    paramNames,
    // Fastify has validated the body against `bodyJson` before this runs.
    handle: successStatus
      ? async (ctx) => ({ status: successStatus, body: await handler(ctx as Ctx<B>) })
      : (ctx) => handler(ctx as Ctx<B>),
  };
}

/** The methods other routes take at a path no route of this method matches (for 405). */
export function allowedAt(routes: readonly Route[], path: string): string[] {
  return routes.filter((r) => r.pattern.test(path)).map((r) => r.method);
}

/** A path parameter decoded; a malformed percent-escape is the client's error (400). */
export function badEscapeMessage(path: string): string {
  return `the path is not a valid URL: ${path} has a malformed percent-escape (write % followed by two hex digits of UTF-8, such as %20)`;
}
