import assert from "node:assert/strict";
import { test } from "node:test";
import { afterParam, wholeQuery } from "./shared.ts";

/*
 * The routes' shared readers: a whole-number query parameter (the report's `turn`, the
 * sequential schedule's `ahead`) left out or empty takes the route's default; anything but a
 * whole number in range is refused, saying what it must be. The cursor of press, outbox and
 * events (`?after=`, or `Last-Event-ID`) is read the same way, from 0.
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

test("the cursor ?after= (or Last-Event-ID): an id from 0, left out or empty from the start", () => {
  assert.equal(afterParam(q("")), 0);
  assert.equal(afterParam(q("after=")), 0);
  assert.equal(afterParam(q("after=42")), 42);
  assert.equal(afterParam(q(""), "17"), 17, "a reconnecting stream's Last-Event-ID");
  assert.equal(afterParam(q("after=5"), "17"), 5, "?after= goes first");
  assert.equal(afterParam(q("after=9007199254740991")), Number.MAX_SAFE_INTEGER);
  for (const bad of ["x", "-1", "1.5", " ", "1e2", "0x10", "9007199254740992"]) {
    assert.throws(
      () => afterParam(q(`after=${encodeURIComponent(bad)}`)),
      (e: Error) => e.message === `"after" must be an id (a whole number from 0), not "${bad}"`,
      bad,
    );
    assert.throws(() => afterParam(q(""), bad), /"after" must be an id/, `Last-Event-ID ${bad}`);
  }
});
