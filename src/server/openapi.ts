import type { Route } from "./router.ts";

/* The OpenAPI 3.1 document, written from the route table (served at /api/docs). */

export function openApi(routes: readonly Route[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const error = { $ref: "#/components/responses/Error" };
  for (const r of routes) {
    const op: Record<string, unknown> = {
      tags: [r.tag],
      summary: r.summary,
      operationId: `${r.method.toLowerCase()}${r.path.replace(/[{}]/g, "").replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
      ...(r.description ? { description: r.description } : {}),
      ...(r.auth === "required" ? { security: [{ bearer: [] }] } : {}),
      ...(r.auth === "optional" ? { security: [{}, { bearer: [] }] } : {}),
    };
    const parameters = [
      ...r.paramNames.map((n) => ({
        name: n,
        in: "path",
        required: true,
        schema: { type: "string" },
      })),
      ...Object.entries(r.query ?? {}).map(([n, d]) => ({
        name: n,
        in: "query",
        required: false,
        description: d,
        schema: { type: "string" },
      })),
    ];
    if (parameters.length > 0) op.parameters = parameters;
    if (r.bodyJson) {
      op.requestBody = { required: true, content: { "application/json": { schema: r.bodyJson } } };
    }
    const ok = r.successStatus ?? 200;
    op.responses = {
      [ok]: { description: "success", content: { "application/json": { schema: {} } } },
      400: error,
      ...(r.auth === "required" ? { 401: error } : {}),
      ...Object.fromEntries(
        Object.entries(r.responses ?? {}).map(([code, d]) => [code, { ...error, description: d }]),
      ),
    };
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Entente judge API",
      version: "1",
      description:
        'Hosts Diplomacy games: accounts and tokens, games and seats, orders, deadlines, votes, press and the game master\'s tools. Errors are {"error": "what was wrong and what to do"}. docs/judge.md explains the rules behind each call.',
    },
    servers: [{ url: "/" }],
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "a token from /api/users, /api/login or /api/tokens",
        },
      },
      responses: {
        Error: {
          description: "the request was refused; the message says why",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { error: { type: "string" } },
                required: ["error"],
              },
            },
          },
        },
      },
    },
    paths,
  };
}
