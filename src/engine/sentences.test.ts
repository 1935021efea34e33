import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classical } from "../variants/classical/index.ts";
import { formatParsed, readOrderSet } from "./orderset.ts";
import { parseOrder } from "./parse.ts";
import type { ParseOptions } from "./parse-types.ts";
import { DATC_RULES, HOUSE_RULES } from "./rules.ts";
import { type Position, powerId } from "./types.ts";

/*
 * Orders as people write them in mail (seed 002 III(1)-(2), Alternative D): plain English
 * sentences, read by the tolerant reader (the profiles with typo correction on), each shown
 * in its normalised form. What is not an order stays chatter.
 */

const TOLERANT: ParseOptions = { typos: "correct" };

/** Each phrasing and the order it is read as (the reader's canonical form, no board). */
const PHRASINGS: readonly (readonly [string, string])[] = [
  ["A Paris moves to Burgundy", "A par - bur"],
  ["A Paris moves to Burgundy.", "A par - bur"],
  ["A Paris moves to Burgundy;", "A par - bur"],
  ["A Paris move to Burgundy", "A par - bur"],
  ["A Paris moves into Burgundy", "A par - bur"],
  ["A Paris goes to Burgundy", "A par - bur"],
  ["A Paris attacks Burgundy", "A par - bur"],
  ["A Paris into Burgundy", "A par - bur"],
  ["Army Paris will move to Burgundy", "A par - bur"],
  ["The army in Paris moves to Burgundy.", "A par - bur"],
  ["The army at Paris attacks Burgundy", "A par - bur"],
  ["Paris to Burgundy", "par - bur"],
  ["The fleet in the North Sea moves to the English Channel", "F nth - eng"],
  ["Fleet in St Petersburg south coast goes to the Gulf of Bothnia", "F stp/sc - bot"],
  ["A Pic-Wal (via convoy)", "A pic - wal via convoy"],
  ["A Picardy moves to Wales via convoy.", "A pic - wal via convoy"],
  ["A Paris retreats to Gascony", "A par - gas"],
  ["A Paris retreats into Gascony;", "A par - gas"],
  ["A Paris supports A Marseille to Burgundy", "A par S A mar - bur"],
  ["A Paris supports the army in Marseille moving into Burgundy.", "A par S A mar - bur"],
  ["A Paris supports A Marseille into Burgundy", "A par S A mar - bur"],
  ["A Munich supports A Berlin to hold", "A mun S A ber"],
  ["A Munich supports A Berlin holding", "A mun S A ber"],
  ["A Munich supports A Berlin", "A mun S A ber"],
  ["F North Sea convoys A London to Belgium", "F nth C A lon - bel"],
  ["The fleet in the North Sea convoys the army in London to Belgium.", "F nth C A lon - bel"],
  ["A Paris holds", "A par H"],
  ["A Paris holds.", "A par H"],
  ["The army in Paris stays", "A par H"],
  ["Fleet at Kiel remains;", "F kie H"],
  ["Build an army in Berlin", "build A ber"],
  ["Build a fleet in Kiel.", "build F kie"],
  ["Build fleet at St Petersburg north coast", "build F stp/nc"],
  ["builds an army at Munich", "build A mun"],
  ["Build in Berlin", "build ber"],
  ["no build", "waive"],
  ["No builds.", "waive"],
  ["waive build", "waive"],
  ["Disband the fleet in Kiel", "F kie D"],
  ["The fleet in Kiel disbands.", "F kie D"],
  ["Remove the army in Munich", "remove A mun"],
  ["Removes A Munich;", "remove A mun"],
  ["A Paris moves to Burgndy", "A par - bur"],
];

describe("plain English orders, read by the tolerant reader", () => {
  for (const [text, expected] of PHRASINGS) {
    test(JSON.stringify(text), () => {
      const r = parseOrder(text, classical.map, classical.powers, TOLERANT);
      assert.ok(r.ok, `${text}: ${r.ok ? "" : r.error.message}`);
      assert.equal(r.readings, undefined, `${text} has several readings`);
      assert.equal(formatParsed(r.order), expected, `${text} is read as ${expected}`);
    });
  }

  test("the strict reader (the DATC profile) reads sentences as before: not at all", () => {
    for (const text of ["A Paris moves to Burgundy", "Build an army in Berlin", "no build"]) {
      const r = parseOrder(text, classical.map, classical.powers);
      assert.ok(!r.ok, `the strict reader should not read ${text}`);
    }
  });

  test("a name of the map is never set aside as a word of the sentence", () => {
    // "to" is an order word, never a filler before a name; Tyrolia stays Tyrolia.
    const r = parseOrder("A Venice moves to Tyrolia", classical.map, classical.powers, TOLERANT);
    assert.ok(r.ok && formatParsed(r.order) === "A ven - tyr", "A ven - tyr");
  });
});

const germany = powerId("germany");
const france = powerId("france");

/** Winter 1901: Germany has lost its army in Berlin and may build there. */
const WINTER: Position = {
  ...classical.start,
  phase: { season: "W", year: 1901, type: "A" },
  units: classical.start.units.filter((u) => u.province !== "ber"),
};

describe("an order mail in sentences: each line shown as read; chatter stays chatter", () => {
  test("spring: numbered lists, sentences and chatter", () => {
    const body = [
      "Dear GM, my orders:",
      "1. The army in Paris moves to Burgundy.",
      "2) A Marseille supports the army in Paris moving into Burgundy;",
      "(3) The fleet in Brest goes to the Mid-Atlantic Ocean",
      "I will attack Burgundy next year, maybe.",
      "Let's hope Germany stays quiet.",
      "Thanks!",
    ].join("\n");
    const set = readOrderSet(body, classical, france, {
      rules: HOUSE_RULES,
      position: classical.start,
    });
    const orders = set.lines.filter((l) => l.kind === "order");
    assert.deepEqual(
      orders.map((l) => [l.status, l.order]),
      [
        ["understood", "A par - bur"],
        ["understood", "A mar S A par - bur"],
        ["understood", "F bre - mao"],
      ],
      "each sentence is shown as the order it was read as",
    );
    assert.deepEqual(
      set.lines.filter((l) => l.kind === "chatter").map((l) => l.line),
      [1, 5, 6, 7],
      "the greeting, the plans and the thanks are chatter",
    );
    assert.deepEqual(set.orders.get(france), [
      "The army in Paris moves to Burgundy.",
      "A Marseille supports the army in Paris moving into Burgundy;",
      "The fleet in Brest goes to the Mid-Atlantic Ocean",
    ]);
  });

  test("winter: a build and a waive in sentences", () => {
    const set = readOrderSet("Build an army in Berlin.\nno build\n", classical, germany, {
      rules: HOUSE_RULES,
      position: WINTER,
    });
    const orders = set.lines.filter((l) => l.kind === "order");
    assert.deepEqual(
      orders.map((l) => [l.status, l.order]),
      [
        ["understood", "build A ber"],
        ["understood", "waive"],
      ],
    );
  });

  test("in the DATC profile a sentence is not read (the strict reader), but is reported", () => {
    const set = readOrderSet("A Paris moves to Burgundy", classical, france, {
      rules: DATC_RULES,
      position: classical.start,
    });
    const line = set.lines[0]!;
    assert.equal(line.kind, "order", "a line that starts with a unit is an order attempt");
    assert.equal(line.status, "unreadable");
  });
});
