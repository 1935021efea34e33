import type { Route } from "./router.ts";

/*
 * What each route tells Fastify and @fastify/swagger: its body, path and query schemas (which
 * Fastify validates) and its documentation (tag, summary, security, the answers it gives).
 * @fastify/swagger writes the OpenAPI 3.1 document (/api/openapi.json) from these, and
 * @fastify/swagger-ui renders it at /api/docs.
 */

export const API_INFO = {
  title: "Entente judge API",
  version: "1",
  description:
    'Hosts Diplomacy games: accounts and tokens, games and seats, orders, deadlines, votes, press and the game master\'s tools. Errors are {"error": "what was wrong and what to do"}. Bodies are JSON (Content-Type: application/json), at most 1 MB, nested at most 64 levels. docs/judge.md explains the rules behind each call.',
};

const ERROR = {
  type: "object",
  properties: { error: { type: "string", description: "what was wrong and what to do" } },
  required: ["error"],
} as const;

export const COMPONENTS = {
  securitySchemes: {
    bearer: {
      type: "http" as const,
      scheme: "bearer",
      description: "a token from /api/users, /api/login or /api/tokens",
    },
  },
};

const error = (description: string) => ({ description, ...ERROR });

export function routeSchema(r: Route): Record<string, unknown> {
  const params = r.paramNames;
  const ok = r.successStatus ?? 200;
  return {
    tags: [r.tag],
    summary: r.summary,
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[{}]/g, "").replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
    ...(r.description ? { description: r.description } : {}),
    ...(r.auth === "required" ? { security: [{ bearer: [] }] } : {}),
    ...(r.auth === "optional" ? { security: [{}, { bearer: [] }] } : {}),
    ...(params.length > 0
      ? {
          params: {
            type: "object",
            properties: Object.fromEntries(
              params.map((n) => [n, { type: "string", minLength: 1, maxLength: 200 }]),
            ),
            required: [...params],
          },
        }
      : {}),
    ...(r.query
      ? {
          querystring: {
            type: "object",
            properties: Object.fromEntries(
              Object.entries(r.query).map(([n, d]) => [
                n,
                { type: "string", maxLength: 2000, description: d },
              ]),
            ),
          },
        }
      : {}),
    ...(r.bodyJson ? { body: r.bodyJson } : {}),
    response: {
      [ok]: { description: "success", ...(r.response ?? {}) },
      400: error(
        "the request does not fit its schema, or the judge refused its content; the message says which field and why",
      ),
      ...(r.auth === "required"
        ? { 401: error("log in first, or the token is unknown or revoked") }
        : {}),
      ...Object.fromEntries(Object.entries(r.responses ?? {}).map(([code, d]) => [code, error(d)])),
      ...(r.bodyJson
        ? {
            413: error("the body is larger than 1 MB"),
            415: error("the body is not sent as application/json"),
          }
        : {}),
    },
  };
}
