/*
 * A small schema language for the API's inputs: each schema checks a JSON value (with an
 * error that names the field and says what is expected) and describes itself as JSON Schema
 * for the OpenAPI document, so the checks and the documentation cannot drift apart.
 */

export type JsonSchema = { readonly [key: string]: unknown };

export class ValidationError extends Error {}

export interface Schema<T> {
  readonly json: JsonSchema;
  readonly optional: boolean;
  parse(value: unknown, path: string): T;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

const fail = (path: string, what: string): never => {
  throw new ValidationError(`${path}: ${what}`);
};

const describe = (v: unknown): string =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "a list"
      : typeof v === "object"
        ? "an object"
        : JSON.stringify(v);

function schema<T>(json: JsonSchema, parse: (v: unknown, path: string) => T): Schema<T> {
  return { json, optional: false, parse };
}

export function str(
  opts: {
    min?: number;
    max?: number;
    pattern?: RegExp;
    description?: string;
    example?: string;
  } = {},
): Schema<string> {
  const min = opts.min ?? 0;
  const max = opts.max ?? 10_000;
  return schema(
    {
      type: "string",
      ...(min > 0 ? { minLength: min } : {}),
      maxLength: max,
      ...(opts.pattern ? { pattern: opts.pattern.source } : {}),
      ...(opts.description ? { description: opts.description } : {}),
      ...(opts.example ? { example: opts.example } : {}),
    },
    (v, path) => {
      if (typeof v !== "string") return fail(path, `must be a string, not ${describe(v)}`);
      if (v.length < min)
        return fail(path, min === 1 ? "must not be empty" : `must have at least ${min} characters`);
      if (v.length > max) return fail(path, `must have at most ${max} characters`);
      if (opts.pattern && !opts.pattern.test(v))
        return fail(path, `must match ${opts.pattern.source}`);
      return v;
    },
  );
}

export function num(
  opts: { min?: number; max?: number; integer?: boolean; description?: string } = {},
): Schema<number> {
  return schema(
    {
      type: opts.integer ? "integer" : "number",
      ...(opts.min !== undefined ? { minimum: opts.min } : {}),
      ...(opts.max !== undefined ? { maximum: opts.max } : {}),
      ...(opts.description ? { description: opts.description } : {}),
    },
    (v, path) => {
      if (typeof v !== "number" || !Number.isFinite(v))
        return fail(path, `must be a number, not ${describe(v)}`);
      if (opts.integer && !Number.isInteger(v)) return fail(path, "must be a whole number");
      if (opts.min !== undefined && v < opts.min) return fail(path, `must be at least ${opts.min}`);
      if (opts.max !== undefined && v > opts.max) return fail(path, `must be at most ${opts.max}`);
      return v;
    },
  );
}

export const int = (opts: { min?: number; max?: number; description?: string } = {}) =>
  num({ ...opts, integer: true });

export function bool(description?: string): Schema<boolean> {
  return schema({ type: "boolean", ...(description ? { description } : {}) }, (v, path) =>
    typeof v === "boolean" ? v : fail(path, `must be true or false, not ${describe(v)}`),
  );
}

export function oneOf<const T extends string>(
  values: readonly T[],
  description?: string,
): Schema<T> {
  return schema(
    { type: "string", enum: values, ...(description ? { description } : {}) },
    (v, path) =>
      typeof v === "string" && (values as readonly string[]).includes(v)
        ? (v as T)
        : fail(
            path,
            `must be one of ${values.map((x) => JSON.stringify(x)).join(", ")}, not ${describe(v)}`,
          ),
  );
}

export function list<T>(item: Schema<T>, opts: { min?: number; max?: number } = {}): Schema<T[]> {
  const max = opts.max ?? 1000;
  return schema(
    { type: "array", items: item.json, maxItems: max, ...(opts.min ? { minItems: opts.min } : {}) },
    (v, path) => {
      if (!Array.isArray(v)) return fail(path, `must be a list, not ${describe(v)}`);
      if (opts.min !== undefined && v.length < opts.min)
        return fail(path, `must have at least ${opts.min} item(s)`);
      if (v.length > max) return fail(path, `must have at most ${max} items`);
      return v.map((x, i) => item.parse(x, `${path}[${i}]`));
    },
  );
}

export function optional<T>(s: Schema<T>): Schema<T | undefined> {
  return {
    json: s.json,
    optional: true,
    parse: (v, path) => (v === undefined || v === null ? undefined : s.parse(v, path)),
  };
}

/** A value that is any of several schemas (tried in order; the first that fits). */
export function either<A, B>(a: Schema<A>, b: Schema<B>, what: string): Schema<A | B> {
  // A value of the right JSON type that breaks a bound (a list too long, a text too long)
  // is told that bound, not only the two shapes it may take.
  const kind = (v: unknown) =>
    Array.isArray(v) ? "array" : v === null ? "null" : typeof v === "object" ? "object" : typeof v;
  return schema({ oneOf: [a.json, b.json] }, (v, path) => {
    const errors: unknown[] = [];
    for (const s of [a, b] as const) {
      try {
        return s.parse(v, path);
      } catch (e) {
        errors.push(e);
      }
    }
    const near = [a, b].findIndex((s) => s.json.type === kind(v));
    const detail = errors[near];
    if (detail instanceof ValidationError) {
      throw new ValidationError(`${detail.message} (it must be ${what})`);
    }
    return fail(path, `must be ${what}`);
  });
}

/** An object with string keys and values of one schema. */
export function dict<T>(value: Schema<T>, maxKeys = 100): Schema<Record<string, T>> {
  return schema({ type: "object", additionalProperties: value.json }, (v, path) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      return fail(path, `must be an object, not ${describe(v)}`);
    }
    const entries = Object.entries(v);
    if (entries.length > maxKeys) return fail(path, `must have at most ${maxKeys} keys`);
    return Object.fromEntries(entries.map(([k, x]) => [k, value.parse(x, `${path}.${k}`)]));
  });
}

type Shape = Record<string, Schema<unknown>>;
type ObjectOf<S extends Shape> = {
  [K in keyof S as S[K]["optional"] extends true ? never : K]: Infer<S[K]>;
} & {
  [K in keyof S as S[K]["optional"] extends true ? K : never]?: Infer<S[K]>;
};

/** An object with these fields; unknown fields are refused, naming the known ones. */
export function obj<S extends Shape>(shape: S, description?: string): Schema<ObjectOf<S>> {
  const required = Object.entries(shape)
    .filter(([, s]) => !s.optional)
    .map(([k]) => k);
  return schema(
    {
      type: "object",
      properties: Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.json])),
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
      ...(description ? { description } : {}),
    },
    (v, path) => {
      if (typeof v !== "object" || v === null || Array.isArray(v)) {
        return fail(path, `must be a JSON object, not ${describe(v)}`);
      }
      const rec = v as Record<string, unknown>;
      for (const k of Object.keys(rec)) {
        if (!Object.hasOwn(shape, k)) {
          fail(`${path}.${k}`, `unknown field; known: ${Object.keys(shape).join(", ") || "none"}`);
        }
      }
      const out: Record<string, unknown> = {};
      for (const [k, s] of Object.entries(shape)) {
        if (!s.optional && (rec[k] === undefined || rec[k] === null))
          fail(`${path}.${k}`, "is required");
        const x = s.parse(rec[k], `${path}.${k}`);
        if (x !== undefined) out[k] = x;
      }
      return out as ObjectOf<S>;
    },
  );
}

/** Any JSON value (described, not checked here: the judge checks it). */
export function anyJson(description: string): Schema<unknown> {
  return schema({ description }, (v) => v);
}
