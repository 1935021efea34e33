import assert from "node:assert/strict";
import { test } from "node:test";
import { wholeQuery } from "./shared.ts";

/*
 * The routes' shared readers: a whole-number query parameter (the report's `turn`, the
 * sequential schedule's `ahead`) left out or empty takes the route's default; anything but a
 * whole number in range is refused, saying what it must be.
 */

const q = (s: string) => new URLSearchParams(s);
const ahead = (s: string) => wholeQuery(q(s), "ahead", 0, 200, "a whole number from 0 to 200");

test("a whole-number query parameter: left out or empty is the default, not 0", () => {
  assert.equal(ahead(""), undefined);
  assert.equal(ahead("ahead="), undefined, "an empty ?ahead= is the default, as ?turn= is");
  assert.equal(ahead("ahead=0"), 0);
  assert.equal(ahead("ahead=200"), 200);
});

test("a whole-number query parameter out of range or not a number is refused, saying why", () => {
  for (const bad of [
    "ahead=x",
    "ahead=-1",
    "ahead=201",
    "ahead=1.5",
    "ahead=%20",
    "ahead=1e2",
    "ahead=0x10",
  ]) {
    assert.throws(
      () => ahead(bad),
      (e: Error) =>
        /"ahead" must be a whole number from 0 to 200, not "/.test(e.message) &&
        e.message.includes(`not "${q(bad).get("ahead")}"`),
      bad,
    );
  }
});
