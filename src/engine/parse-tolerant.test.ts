import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classical } from "../variants/classical/index.ts";
import { formatParsed } from "./orderset.ts";
import { parseOrder } from "./parse.ts";
import type { ParseOptions, ParseResult } from "./parse-types.ts";

/*
 * The reader's tolerances (seed 002 III(2) typo correction, VI(3) convoy routes), on the
 * classical map. Off by default: the reader's answers without options are unchanged.
 */

const CORRECT: ParseOptions = { typos: "correct" };

function read(text: string, options?: ParseOptions): ParseResult {
  return parseOrder(text, classical.map, classical.powers, options);
}

function order(text: string, options: ParseOptions = CORRECT): string {
  const r = read(text, options);
  assert.ok(r.ok, `${text}: ${r.ok ? "" : r.error.message}`);
  assert.equal(r.readings, undefined, `${text} has several readings`);
  return formatParsed(r.order);
}

function readings(text: string, options: ParseOptions = CORRECT): string[] {
  const r = read(text, options);
  assert.ok(r.ok && r.readings, `${text} should have several readings`);
  return r.readings.map(formatParsed);
}

describe("typo correction off (the default)", () => {
  test("a misspelt name is an error with suggestions, as before", () => {
    const r = read("A Pari - Burgndy");
    assert.ok(!r.ok);
    assert.match(r.error.message, /did you mean Paris/);
    assert.ok(!read("A lon - nth - nwy").ok, "no route naming");
  });
});

describe("typo correction on", () => {
  test("misspellings close to one name are read as it, with a note", () => {
    const r = read("A Pari - Burgndy", CORRECT);
    assert.ok(r.ok);
    assert.equal(formatParsed(r.order), "A par - bur");
    assert.deepEqual(r.notes, ['read "Pari" as Paris', 'read "Burgndy" as Burgundy']);
    assert.equal(order("F Edinbrugh - Norht Sea"), "F edi - nth");
  });

  test("abbreviations: the start of a name, or of each of its words", () => {
    assert.equal(order("A Bulg - Rum"), "A bul - rum");
    assert.equal(order("F Eng Chan - Brest"), "F eng - bre");
    assert.equal(order("F Mid Atl - Spain nc"), "F mao - spa/nc");
    assert.equal(order("F Tyrr - Tun"), "F tys - tun", "an abbreviation beats a misspelling");
    assert.equal(order("F English Chanel - Brest"), "F eng - bre", "the longest name wins");
  });

  test("a name written exactly is never corrected", () => {
    const r = read("A par - bre", CORRECT);
    assert.ok(r.ok);
    assert.equal(formatParsed(r.order), "A par - bre");
    assert.equal(r.notes, undefined);
  });

  test("several names as close: several readings, each with its notes", () => {
    assert.deepEqual(readings("A vie - Tyo").sort(), ["A vie - lyo", "A vie - tyr", "A vie - tys"]);
    assert.deepEqual(readings("A Norw - swe").sort(), ["A nwg - swe", "A nwy - swe"]);
    const r = read("A vie - Tyo", CORRECT);
    assert.ok(r.ok && r.readingNotes);
    assert.equal(r.readingNotes.length, 3);
  });

  test("misspelt and abbreviated order words", () => {
    assert.equal(order("A par suport A mar - bur"), "A par S A mar - bur");
    assert.equal(order("A par supp A mar - bur"), "A par S A mar - bur");
    assert.equal(order("F nth convoi A lon - bel"), "F nth C A lon - bel");
    assert.equal(order("A mun hld"), "A mun H");
    assert.equal(order("buld A par"), "build A par");
    assert.equal(order("remvoe F nth"), "remove F nth");
  });

  test("a dash left out", () => {
    assert.equal(order("A par bur"), "A par - bur");
    assert.equal(order("A par S A mar bur"), "A par S A mar - bur");
    assert.equal(order("F nth C A lon bel"), "F nth C A lon - bel");
  });

  test("a coast the province does not have is read as none", () => {
    const r = read("F mao - spa/ec", CORRECT);
    assert.ok(r.ok);
    assert.equal(formatParsed(r.order), "F mao - spa");
    assert.match(r.notes?.[0] ?? "", /no east coast/);
    assert.ok(!read("F mao - spa/ec").ok);
  });

  test("chatter stays unreadable", () => {
    assert.ok(!read("Hi GM, here are my orders", CORRECT).ok);
    assert.ok(!read("Thanks!", CORRECT).ok);
  });
});

describe("convoy routes (seed 002 VI(3))", () => {
  const ROUTES: ParseOptions = { convoyRoutes: true };
  test("a route is read as a move by convoy, and set aside", () => {
    const r = read("A lon - nth - nwy", ROUTES);
    assert.ok(r.ok);
    assert.equal(formatParsed(r.order), "A lon - nwy via convoy");
    assert.match(r.notes?.[0] ?? "", /route through nth is ignored/);
    assert.equal(order("A lon - eng - mao - bre", ROUTES), "A lon - bre via convoy");
    assert.equal(order("A lon - bel via nth and eng", ROUTES), "A lon - bel via convoy");
    assert.equal(order("A lon - bel via convoy", ROUTES), "A lon - bel via convoy");
  });

  test("a route through land is an error", () => {
    const r = read("A lon - wal - bel", ROUTES);
    assert.ok(!r.ok);
    assert.match(r.error.message, /seas only.*Wales is not a sea/);
  });
});
