import assert from "node:assert/strict";
import { Ajv } from "ajv";
import type { Api } from "./testing.ts";

/*
 * For the tests of the judge's answers (responses.test.ts, bots.test.ts): the check of an
 * answer against the schema /api/openapi.json documents for it.
 */

/** What the tests read of /api/openapi.json: each route's answers and their schemas. */
export type OpenApiDoc = {
  paths: Record<
    string,
    Record<
      string,
      { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }
    >
  >;
};

/** The judge's /api/openapi.json, and a check of an answer against the schema it documents. */
export async function documented(api: Api) {
  const doc = await api.ok<OpenApiDoc>("GET", "/api/openapi.json");
  const ajv = new Ajv({ strict: false, allErrors: true });
  return {
    doc,
    /** Asserts that `body`, answered with `status` by `method route`, fits its schema. */
    check(method: string, route: string, status: number, body: unknown): void {
      const op = doc.paths[route]?.[method.toLowerCase()];
      assert.ok(op, `${method} ${route} is documented`);
      const schema = op.responses[String(status)]?.content?.["application/json"]?.schema;
      assert.ok(schema, `${method} ${route} ${status} has a schema`);
      const validate = ajv.compile(schema as object);
      assert.ok(
        validate(body),
        `${method} ${route}: the answer does not fit its schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
      );
    },
  };
}
