import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

/*
 * The API's input schemas. Each builder writes JSON Schema (which Fastify validates every
 * body, path parameter and query with, through Ajv, and @fastify/swagger documents) and
 * carries the TypeScript type of what passes, so a handler's `c.body` is typed by its schema.
 * What is written here by hand is only the wording of a refusal: Ajv's errors are turned
 * into one message that names the field and says what is expected
 * ("body.extendMinutes: must be a number"; a text too short or long in a sentence: 'The field
 * "name" is too short: it must have at least 2 characters, and has 1 (body.name)').
 */

export type JsonSchema = { readonly [key: string]: unknown };

export class ValidationError extends Error {}

export interface Schema<T> {
  readonly json: JsonSchema;
  readonly optional: boolean;
  /** Never set: it only carries the type of what passes. */
  readonly _type?: T;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

function schema<T>(json: JsonSchema): Schema<T> {
  return { json, optional: false };
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
  return schema({
    type: "string",
    ...(min > 0 ? { minLength: min } : {}),
    maxLength: opts.max ?? 10_000,
    ...(opts.pattern ? { pattern: opts.pattern.source } : {}),
    ...(opts.description ? { description: opts.description } : {}),
    ...(opts.example ? { examples: [opts.example] } : {}),
  });
}

export function num(
  opts: { min?: number; max?: number; integer?: boolean; description?: string } = {},
): Schema<number> {
  return schema({
    type: opts.integer ? "integer" : "number",
    ...(opts.min !== undefined ? { minimum: opts.min } : {}),
    ...(opts.max !== undefined ? { maximum: opts.max } : {}),
    ...(opts.description ? { description: opts.description } : {}),
  });
}

export const int = (opts: { min?: number; max?: number; description?: string } = {}) =>
  num({ ...opts, integer: true });

export function bool(description?: string): Schema<boolean> {
  return schema({ type: "boolean", ...(description ? { description } : {}) });
}

export function oneOf<const T extends string>(
  values: readonly T[],
  description?: string,
): Schema<T> {
  return schema({ type: "string", enum: values, ...(description ? { description } : {}) });
}

export function list<T>(item: Schema<T>, opts: { min?: number; max?: number } = {}): Schema<T[]> {
  return schema({
    type: "array",
    items: item.json,
    maxItems: opts.max ?? 1000,
    ...(opts.min ? { minItems: opts.min } : {}),
  });
}

/** A field that may be left out (or sent as null, which counts as left out). */
export function optional<T>(s: Schema<T>): Schema<T | undefined> {
  return { json: s.json, optional: true };
}

/**
 * A value that is any of two schemas of different JSON types; `what` names both for the
 * message ("a list of order lines or one text").
 */
export function either<A, B>(a: Schema<A>, b: Schema<B>, what: string): Schema<A | B> {
  return schema({ oneOf: [a.json, b.json], description: what });
}

/** An object with string keys and values of one schema. */
export function dict<T>(value: Schema<T>, maxKeys = 100): Schema<Record<string, T>> {
  return schema({ type: "object", additionalProperties: value.json, maxProperties: maxKeys });
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
  return schema({
    type: "object",
    properties: Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.json])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(description ? { description } : {}),
  });
}

/** Any JSON value (described, not checked here: the judge checks it). */
export function anyJson(description: string): Schema<unknown> {
  return schema({ description });
}

// Builders for answers (response schemas, documented in the OpenAPI document): no bounds
// that the judge does not itself keep.

/** A string in an answer, with what it holds. */
export function text(description?: string): Schema<string> {
  return schema({ type: "string", ...(description ? { description } : {}) });
}

/** A value of this schema, or null. */
export function nullable<T>(s: Schema<T>): Schema<T | null> {
  return schema({ anyOf: [s.json, { type: "null" }] });
}

/** A list of any length, in an answer. */
export function many<T>(item: Schema<T>, description?: string): Schema<T[]> {
  return schema({ type: "array", items: item.json, ...(description ? { description } : {}) });
}

// ---------------------------------------------------------------------------------------------
// Validation: Ajv, and the wording of its errors

/**
 * The one Ajv instance: every error collected (the message names the first in the order the
 * fields are declared), values never coerced nor extra fields silently dropped, and each
 * error carrying its schema and value for the message.
 */
const ajv = new Ajv({
  allErrors: true,
  verbose: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  strict: true,
  strictTypes: false,
  allowUnionTypes: true,
});

const describe = (v: unknown): string =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "a list"
      : typeof v === "object"
        ? "an object"
        : JSON.stringify(v);

const kindOf = (v: unknown) =>
  Array.isArray(v) ? "array" : v === null ? "null" : typeof v === "object" ? "object" : typeof v;

type Json = Record<string, unknown>;

/**
 * A field declared in an object schema and sent as null counts as left out (as it always
 * has: clients write `"seat": null`). Follows the schema down objects and lists.
 */
function dropNulls(s: Json | undefined, v: unknown): void {
  if (!s || typeof v !== "object" || v === null) return;
  if (Array.isArray(v)) {
    const items = s.items as Json | undefined;
    if (items) for (const x of v) dropNulls(items, x);
    return;
  }
  const props = s.properties as Record<string, Json> | undefined;
  const rec = v as Record<string, unknown>;
  if (props) {
    for (const k of Object.keys(props)) {
      if (!Object.hasOwn(rec, k)) continue;
      if (rec[k] === null) delete rec[k];
      else dropNulls(props[k], rec[k]);
    }
  }
}

/** `/orders/3/name` → `.orders[3].name` */
const fieldPath = (instancePath: string): string =>
  instancePath
    .split("/")
    .slice(1)
    .map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`))
    .join("");

/** Where an error stands in the order the fields are declared (the old reading order). */
function rank(root: Json, e: ErrorObject): number[] {
  const out: number[] = [];
  let s: Json | undefined = root;
  for (const seg of e.instancePath.split("/").slice(1)) {
    const props = s?.properties as Record<string, Json> | undefined;
    if (props) {
      const i = Object.keys(props).indexOf(seg.replace(/~1/g, "/").replace(/~0/g, "~"));
      out.push(i);
      s = props[seg] ?? (s?.additionalProperties as Json | undefined);
    } else if (s?.items) {
      out.push(Number(seg));
      s = s.items as Json;
    } else {
      out.push(0);
      s = s?.additionalProperties as Json | undefined;
    }
  }
  if (e.keyword === "additionalProperties" || e.keyword === "maxProperties") out.push(-1);
  else if (e.keyword === "required") {
    const props = Object.keys((s?.properties as Json | undefined) ?? {});
    out.push(props.indexOf(String(e.params.missingProperty)));
  }
  return out;
}

const before = (a: number[], b: number[]): boolean => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]!;
  }
  return a.length < b.length;
};

/** A field as a sentence names it: `body.password` is `The field "password"`, `body.orders[2]` `Item 3 of "orders"`. */
function fieldName(at: string): string {
  const last = at.split(".").at(-1) ?? at;
  const item = /^(.*)\[(\d+)\]$/.exec(last) ?? /^(.*)\/(\d+)$/.exec(last);
  if (item) return `Item ${Number(item[2]) + 1} of "${item[1]}"`;
  return `The field "${last}"`;
}

/** A text's length in characters (as the schema counts them: code points). */
const length = (v: unknown) => (typeof v === "string" ? [...v].length : 0);

/** One Ajv error in words. */
function say(e: ErrorObject, path: string, all: readonly ErrorObject[]): string {
  const at = `${path}${fieldPath(e.instancePath)}`;
  const p = e.params as Record<string, unknown>;
  const v = e.data;
  switch (e.keyword) {
    case "type": {
      const t = String(p.type);
      if (t === "integer" && typeof v === "number") return `${at}: must be a whole number`;
      const what: Record<string, string> = {
        string: "a string",
        number: "a number",
        integer: "a number",
        boolean: "true or false",
        array: "a list",
        object: "a JSON object",
      };
      return `${at}: must be ${what[t] ?? t}, not ${describe(v)}`;
    }
    // A text too short or too long, in a sentence a person reads ("The password is too
    // short: ..."), the field's path after it for a program's author.
    case "minLength":
      return p.limit === 1
        ? `${fieldName(at)} must not be empty (${at})`
        : `${fieldName(at)} is too short: it must have at least ${p.limit} characters, and has ${length(v)} (${at})`;
    case "maxLength":
      return `${fieldName(at)} is too long: it must have at most ${p.limit} characters, and has ${length(v)} (${at})`;
    case "pattern":
      return `${at}: must match ${p.pattern}`;
    case "minimum":
      return `${at}: must be at least ${p.limit}`;
    case "maximum":
      return `${at}: must be at most ${p.limit}`;
    case "enum":
      return `${at}: must be one of ${(p.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(", ")}, not ${describe(v)}`;
    case "minItems":
      return `${at}: must have at least ${p.limit} item(s)`;
    case "maxItems":
      return `${at}: must have at most ${p.limit} items`;
    case "maxProperties":
      return `${at}: must have at most ${p.limit} keys`;
    case "required":
      return `${at}.${p.missingProperty}: is required`;
    case "additionalProperties": {
      const known = Object.keys((e.parentSchema?.properties as Json | undefined) ?? {});
      return `${at}.${p.additionalProperty}: unknown field; known: ${known.join(", ") || "none"}`;
    }
    case "oneOf": {
      // A value of one shape's JSON type that breaks that shape's bound (a list too long)
      // is told the bound, and what the field may be.
      const what = String(e.parentSchema?.description ?? "one of the shapes documented");
      const branches = (e.schema as Json[]) ?? [];
      const near = branches.findIndex((b) => b.type === kindOf(v));
      const inside = all.filter(
        (x) =>
          x !== e &&
          x.instancePath.startsWith(e.instancePath) &&
          x.schemaPath.startsWith(`${e.schemaPath}/${near}/`),
      );
      if (near >= 0 && inside[0]) return `${say(inside[0], path, all)} (it must be ${what})`;
      return `${at}: must be ${what}`;
    }
    default:
      return `${at}: ${e.message ?? "is not valid"}`;
  }
}

/** The message for a value refused by `root`: the first error in declaration order. */
export function validationMessage(
  root: JsonSchema,
  errors: readonly ErrorObject[],
  path: string,
): string {
  // Errors inside a oneOf's branches are told through the oneOf's own error.
  const inBranch = (e: ErrorObject) => /\/oneOf\/\d+\//.test(e.schemaPath);
  const top = errors.filter((e) => !inBranch(e));
  const candidates = top.length > 0 ? top : errors;
  let first = candidates[0]!;
  let firstRank = rank(root as Json, first);
  for (const e of candidates.slice(1)) {
    const r = rank(root as Json, e);
    if (before(r, firstRank)) {
      first = e;
      firstRank = r;
    }
  }
  return say(first, path, errors);
}

const compiled = new WeakMap<object, ValidateFunction>();
/**
 * The same, by the schema's text: the warm-up's throwaway app and the real one (and each
 * route table built) make equal schemas as new objects, compiled once (a restart's CPU).
 */
const compiledByText = new Map<string, ValidateFunction>();

/**
 * A validator for a JSON Schema: answers the value (with null fields dropped), or throws a
 * ValidationError saying what is wrong. `path` names the value in messages ("body").
 */
export function validatorFor(json: JsonSchema): (value: unknown, path: string) => unknown {
  let validate = compiled.get(json);
  if (!validate) {
    const text = JSON.stringify(json);
    validate = compiledByText.get(text);
    if (!validate) {
      validate = ajv.compile(json);
      compiledByText.set(text, validate);
    }
    compiled.set(json, validate);
  }
  const check = validate;
  return (value, path) => {
    dropNulls(json as Json, value);
    if (check(value)) return value;
    throw new ValidationError(validationMessage(json, check.errors ?? [], path));
  };
}

/** Checks a value against a schema (tests, and anything outside an HTTP route). */
export function parse<T>(s: Schema<T>, value: unknown, path: string): T {
  return validatorFor(s.json)(value, path) as T;
}
