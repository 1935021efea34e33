/**
 * The order reader's robustness (random and mutated texts never throw, and every answer has
 * its shape), and the classical map with the DATC and real game records.
 */

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { classical } from "../variants/classical/index.ts";
import type { GameMap } from "./map.ts";
import type { ParsedOrder, UnitSpec } from "./orders.ts";
import {
  bad,
  convoy,
  fixture,
  fixturePowers,
  move,
  ok,
  parse,
  support,
  u,
} from "./parse.fixture.ts";
import { parseOrder } from "./parse.ts";
import type { ParseResult } from "./parse-types.ts";
import { rng } from "./random.ts";
import type { Power } from "./types.ts";

// Robustness

/** The engine's seeded generator (mulberry32), as a plain function. */
const mulberry32 = (seed: number): (() => number) => {
  const r = rng(seed);
  return () => r.next();
};

function checkShape(text: string, r: ParseResult): void {
  if (r.ok) {
    assert.equal(typeof r.order.kind, "string");
    return;
  }
  const { start, end, message, suggestions } = r.error;
  assert.ok(
    Number.isInteger(start) &&
      Number.isInteger(end) &&
      0 <= start &&
      start <= end &&
      end <= text.length,
    `bad span ${start}..${end} for ${JSON.stringify(text)} (length ${text.length})`,
  );
  assert.ok(typeof message === "string" && message.length > 0);
  assert.ok(Array.isArray(suggestions) && suggestions.length <= 3);
}

const SAMPLE_ORDERS: readonly string[] = [
  "F nth-pic",
  "A lon - bel via convoy",
  "F spa/sc-gol",
  "A ser S A alb-gre",
  "F nth Convoys F lon-bel",
  "build F stp/nc",
  "par support mar move bur",
  "St. Petersburg(sc) - Gulf of Bothnia",
  "A mun supports German A ber - kie",
  "remove par",
  "ank disband",
  "waive",
];

function mutate(s: string, rnd: () => number): string {
  const pool = "abcdefghijklmnopqrstuvwxyz -/().>=AFSCH\u00e9\u2013\u0000\ud83d\ude00";
  let out = s;
  const edits = 1 + Math.floor(rnd() * 3);
  for (let e = 0; e < edits; e++) {
    const i = Math.floor(rnd() * (out.length + 1));
    const c = pool[Math.floor(rnd() * pool.length)] ?? "x";
    const op = Math.floor(rnd() * 3);
    if (op === 0) out = out.slice(0, i) + out.slice(i + 1);
    else if (op === 1) out = out.slice(0, i) + c + out.slice(i);
    else if (i + 1 < out.length) out = out.slice(0, i) + out[i + 1] + out[i] + out.slice(i + 2);
  }
  return out;
}

function randomString(rnd: () => number): string {
  const alphabets = [
    "abcdefghijklmnopqrstuvwxyz",
    "AFSCHD -/().,",
    "lon bel nth stp sc nc via convoy move support hold build remove",
  ];
  const n = Math.floor(rnd() * 60);
  let s = "";
  const mode = Math.floor(rnd() * 4);
  for (let i = 0; i < n; i++) {
    if (mode === 3) s += String.fromCharCode(Math.floor(rnd() * 0x10000));
    else {
      const a = alphabets[mode]!;
      s += a[Math.floor(rnd() * a.length)];
    }
  }
  return s;
}

describe("parseOrder: robustness", () => {
  test("2,000 random strings and mutations of real orders never throw", () => {
    const rnd = mulberry32(20240601);
    let count = 0;
    for (let k = 0; k < 2000; k++) {
      const text = randomString(rnd);
      checkShape(text, parse(text));
      count++;
    }
    for (const base of SAMPLE_ORDERS) {
      for (let k = 0; k < 200; k++) {
        const text = mutate(base, rnd);
        checkShape(text, parse(text));
        count++;
      }
    }
    assert.equal(count, 2000 + 200 * SAMPLE_ORDERS.length);
  });

  test("huge and odd inputs", () => {
    const huge = "A lon - bel ".repeat(100_000);
    checkShape(huge, parse(huge));
    assert.ok(!parse(huge).ok);
    const longWord = "x".repeat(900);
    checkShape(longWord, parse(longWord));
    for (const text of [
      "\u0000",
      "\ud83d",
      "-",
      "()",
      "/",
      "->->",
      "A (",
      "F stp (",
      "F stp (sc",
      "...",
      "''",
    ]) {
      checkShape(text, parse(text));
    }
    // Not a string at all (a caller without types): still a diagnostic, never an exception.
    const notText = null as unknown as string;
    const r = parseOrder(notText, fixture, fixturePowers);
    assert.equal(r.ok, false);
  });
});

// ---------------------------------------------------------------------------------------------
// The classical map, with the DATC and real game records

interface OrderRecord {
  readonly text: string;
  readonly norm: string;
}

const sharedRoot = new URL("../../../shared/", import.meta.url);

function readShared<T>(relative: string): T {
  const url = new URL(relative, sharedRoot);
  const path = fileURLToPath(url);
  if (!existsSync(path)) {
    assert.fail(
      `the shared test data is missing: expected ${path} (the /work/shared folder next to the repository)`,
    );
  }
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/**
 * Whether the reading of a record's text agrees with the reading of its canonical spelling.
 * The records' words (`bud move ser`) leave unit types out where the canonical spelling writes
 * them: a type the text leaves out (null) agrees with any; everything else must be equal.
 */
function withTypesFrom(text: ParsedOrder, norm: ParsedOrder): ParsedOrder {
  const fill = (a: UnitSpec, b: UnitSpec | undefined): UnitSpec =>
    a.type === null && b ? { ...a, type: b.type } : a;
  switch (text.kind) {
    case "hold":
    case "disband":
    case "remove":
      return { ...text, unit: fill(text.unit, "unit" in norm ? norm.unit : undefined) };
    case "move":
      return { ...text, unit: fill(text.unit, "unit" in norm ? norm.unit : undefined) };
    case "support":
      return {
        ...text,
        unit: fill(text.unit, "unit" in norm ? norm.unit : undefined),
        supported: fill(text.supported, norm.kind === "support" ? norm.supported : undefined),
      };
    case "convoy":
      return {
        ...text,
        unit: fill(text.unit, "unit" in norm ? norm.unit : undefined),
        convoyed: fill(text.convoyed, norm.kind === "convoy" ? norm.convoyed : undefined),
      };
    case "build":
      return text.unitType === null && norm.kind === "build"
        ? { ...text, unitType: norm.unitType }
        : text;
    case "waive":
      return text;
  }
}

function checkRecords(
  label: string,
  records: readonly OrderRecord[],
  map: GameMap,
  powers: readonly Power[],
): { typesFilled: number } {
  const failures: string[] = [];
  let typesFilled = 0;
  for (const { text, norm } of records) {
    const a = parseOrder(text, map, powers);
    const b = parseOrder(norm, map, powers);
    if (!a.ok) failures.push(`${label}: ${JSON.stringify(text)}: ${a.error.message}`);
    if (!b.ok) failures.push(`${label}: norm ${JSON.stringify(norm)}: ${b.error.message}`);
    if (!a.ok || !b.ok) continue;
    const filled = withTypesFrom(a.order, b.order);
    if (JSON.stringify(filled) !== JSON.stringify(a.order)) typesFilled++;
    try {
      assert.deepEqual(filled, b.order);
    } catch {
      failures.push(
        `${label}: ${JSON.stringify(text)} and ${JSON.stringify(norm)} read differently`,
      );
    }
  }
  assert.deepEqual(failures.slice(0, 20), [], `${failures.length} failures`);
  return { typesFilled };
}

describe("parseOrder: classical map with the DATC and real games", () => {
  test("every DATC order parses, and its text reads as its norm", () => {
    const cases = readShared<readonly { orders: readonly OrderRecord[] }[]>("datc/datc.json");
    const records = cases.flatMap((c) => c.orders);
    assert.ok(records.length > 500, `only ${records.length} DATC orders`);
    const { typesFilled } = checkRecords("DATC", records, classical.map, classical.powers);
    assert.equal(typesFilled, 0, "every DATC text writes its unit types");
  });

  test("every order of the real games parses, and its text reads as its norm", () => {
    const games =
      readShared<readonly { phases: readonly { orders: readonly OrderRecord[] }[] }[]>(
        "games/games.json",
      );
    const records = games.flatMap((g) => g.phases.flatMap((p) => p.orders));
    assert.ok(records.length > 18_000, `only ${records.length} game orders`);
    checkRecords("games", records, classical.map, classical.powers);
  });

  test("full names and spellings on the classical map", () => {
    const { map, powers } = classical;
    const read = (text: string) => ok(text, map, powers);
    assert.deepEqual(
      read("St Petersburg (south coast) - Gulf of Bothnia"),
      move(u(null, "stp/sc"), "bot"),
    );
    assert.deepEqual(read("F St. Petersburg(sc) H"), { kind: "hold", unit: u("F", "stp/sc") });
    assert.deepEqual(read("F mid - Spain/NC"), move(u("F", "mao"), "spa/nc"));
    assert.deepEqual(read("F gol - spa (south coast)"), move(u("F", "lyo"), "spa/sc"));
    assert.deepEqual(read("F nrg - nat"), move(u("F", "nwg"), "nao"));
    assert.deepEqual(read("F Gulf of Lyons - Western Mediterranean"), move(u("F", "lyo"), "wes"));
    assert.deepEqual(read("F English Channel - North Sea"), move(u("F", "eng"), "nth"));
    assert.deepEqual(
      read("F North Sea convoys A London to Belgium"),
      convoy(u("F", "nth"), u("A", "lon"), "bel"),
    );
    assert.deepEqual(read("A Liverpool - Edinburgh"), move(u("A", "lvp"), "edi"));
    assert.deepEqual(
      read("F bla S Russian F sev - rum"),
      support(u("F", "bla"), u("F", "sev", "russia"), "rum"),
    );
    const e = bad("A Burgandy - Paris", map);
    assert.equal(e.message, 'unknown province "Burgandy": did you mean Burgundy?');
    assert.deepEqual(e.suggestions, ["Burgundy"]);
    const f = bad("F mao - spa/ec", map);
    assert.equal(
      f.message,
      "Spain has no east coast: it has a north coast (spa/nc) and a south coast (spa/sc)",
    );
  });

  test("the mutated DATC orders never throw", () => {
    const cases = readShared<readonly { orders: readonly OrderRecord[] }[]>("datc/datc.json");
    const rnd = mulberry32(7);
    for (const c of cases) {
      for (const o of c.orders) {
        const text = mutate(o.text, rnd);
        checkShape(text, parseOrder(text, classical.map, classical.powers));
      }
    }
  });
});

test("a hold word after the dash is a hold (F Lon-Holds)", () => {
  const map = classical.map;
  const r = parseOrder("F Lon-Holds", map, classical.powers);
  assert.ok(r.ok && r.order.kind === "hold" && r.order.unit.province === "lon");
  const m = parseOrder("F lon - holds extra", map, classical.powers);
  assert.equal(m.ok, false);
});
