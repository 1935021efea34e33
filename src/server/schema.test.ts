import assert from "node:assert/strict";
import { test } from "node:test";
import { either, list, parse, str, ValidationError } from "./schema.ts";

/* The request schemas: what a client is told when its input does not fit. */

const orders = either(
  list(str({ max: 200 }), { max: 500 }),
  str({ max: 50_000 }),
  "a list of order lines or one text",
);

const message = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ValidationError, `a validation error, not ${String(e)}`);
    return e.message;
  }
  assert.fail("the input was accepted");
};

test("either: a value of one of the shapes passes as it is", () => {
  assert.deepEqual(parse(orders, ["A par - bur"], "orders"), ["A par - bur"], "a list");
  assert.equal(parse(orders, "A par - bur", "orders"), "A par - bur", "a text");
});

test("either: a list that breaks its bound is told the bound, not only the shapes", () => {
  const long = message(() => parse(orders, Array(501).fill("A par H"), "orders"));
  assert.match(long, /orders: must have at most 500 items/, `the bound is named: ${long}`);
  assert.match(long, /a list of order lines or one text/, "and what the field may be");
  const text = message(() => parse(orders, "x".repeat(50_001), "orders"));
  assert.match(
    text,
    /^The field "orders" is too long: it must have at most 50000 characters, and has 50001 \(orders\)/,
    `a text too long says so, in a sentence: ${text}`,
  );
  const neither = message(() => parse(orders, 42, "orders"));
  assert.equal(
    neither,
    "orders: must be a list of order lines or one text",
    "a number: the shapes",
  );
});
