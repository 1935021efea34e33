import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { GameMap, type MapData, type ProvinceData } from "./map.ts";
import type { ParsedOrder, UnitSpec } from "./orders.ts";
import { findPlace, parseOrder, suggestPlaces } from "./parse.ts";
import type { ParseResult } from "./parse-types.ts";
import { rng } from "./random.ts";
import { type Coast, type Power, powerId, provinceId, type UnitType } from "./types.ts";

// ---------------------------------------------------------------------------------------------
// A small map for the grammar: names and coasts matter here, adjacency does not.

function land(id: string, name: string, aliases: string[] = []): ProvinceData {
  return { id, name, aliases, kind: "land", army: [], fleet: [] };
}
function coastal(id: string, name: string, aliases: string[] = []): ProvinceData {
  return { id, name, aliases, kind: "coast", army: [], fleet: [] };
}
function sea(id: string, name: string, aliases: string[] = []): ProvinceData {
  return { id, name, aliases, kind: "sea", army: [], fleet: [] };
}

const fixtureData: MapData = {
  provinces: [
    coastal("lon", "London"),
    coastal("lvp", "Liverpool"),
    coastal("edi", "Edinburgh"),
    coastal("yor", "Yorkshire"),
    coastal("bel", "Belgium"),
    coastal("pic", "Picardy"),
    coastal("hol", "Holland"),
    coastal("den", "Denmark"),
    coastal("kie", "Kiel"),
    coastal("ber", "Berlin"),
    coastal("nwy", "Norway"),
    coastal("swe", "Sweden"),
    coastal("mar", "Marseilles"),
    coastal("alb", "Albania"),
    coastal("gre", "Greece"),
    coastal("tri", "Trieste"),
    coastal("ven", "Venice"),
    coastal("ank", "Ankara"),
    coastal("con", "Constantinople"),
    coastal("sev", "Sevastopol"),
    land("par", "Paris"),
    land("bur", "Burgundy"),
    land("ser", "Serbia"),
    land("bud", "Budapest"),
    land("vie", "Vienna"),
    land("war", "Warsaw"),
    land("mun", "Munich"),
    sea("nth", "North Sea"),
    sea("eng", "English Channel"),
    sea("bla", "Black Sea"),
    // Other spellings come from the map's aliases; the reader knows no variant of its own.
    sea("mao", "Mid-Atlantic Ocean", ["mid", "Mid Atlantic"]),
    sea("lyo", "Gulf of Lyon", ["gol", "Gulf of Lyons"]),
    sea("nwg", "Norwegian Sea", ["nrg"]),
    sea("nao", "North Atlantic Ocean", ["nat"]),
    { id: "bot", name: "Gulf of Bothnia", kind: "sea", army: [], fleet: ["stp/sc"] },
    { id: "bar", name: "Barents Sea", kind: "sea", army: [], fleet: ["stp/nc"] },
    {
      id: "stp",
      name: "St. Petersburg",
      kind: "coast",
      army: [],
      fleet: [],
      coasts: { nc: ["bar"], sc: ["bot"] },
    },
    { id: "spa", name: "Spain", kind: "coast", army: [], fleet: [], coasts: { nc: [], sc: [] } },
    { id: "bul", name: "Bulgaria", kind: "coast", army: [], fleet: [], coasts: { ec: [], sc: [] } },
  ],
};

const fixture = new GameMap(fixtureData);

const fixturePowers: readonly Power[] = [
  { id: powerId("england"), name: "England", adjective: "English", letter: "E" },
  { id: powerId("germany"), name: "Germany", adjective: "German", letter: "G" },
  { id: powerId("russia"), name: "Russia", adjective: "Russian", letter: "R" },
  { id: powerId("turkey"), name: "Turkey", adjective: "Turkish", letter: "T" },
];

// ---------------------------------------------------------------------------------------------
// Helpers to write expectations briefly

function u(type: UnitType | null, where: string, power: string | null = null): UnitSpec {
  const [p, c] = where.split("/") as [string, Coast | undefined];
  return {
    type,
    province: provinceId(p),
    coast: c ?? null,
    power: power === null ? null : powerId(power),
  };
}
function at(where: string): { province: ReturnType<typeof provinceId>; coast: Coast | null } {
  const [p, c] = where.split("/") as [string, Coast | undefined];
  return { province: provinceId(p), coast: c ?? null };
}

function parse(text: string, map: GameMap = fixture, powers: readonly Power[] = fixturePowers) {
  return parseOrder(text, map, powers);
}

function ok(
  text: string,
  map: GameMap = fixture,
  powers: readonly Power[] = fixturePowers,
): ParsedOrder {
  const r = parse(text, map, powers);
  if (!r.ok) assert.fail(`${JSON.stringify(text)} did not parse: ${r.error.message}`);
  return r.order;
}

function bad(text: string, map: GameMap = fixture) {
  const r = parse(text, map);
  if (r.ok) assert.fail(`${JSON.stringify(text)} parsed, as ${JSON.stringify(r.order)}`);
  return r.error;
}

function expectAll(cases: readonly (readonly [string, ParsedOrder])[]): void {
  for (const [text, order] of cases) assert.deepEqual(ok(text), order, text);
}

const move = (unit: UnitSpec, to: string, viaConvoy = false): ParsedOrder => ({
  kind: "move",
  unit,
  to: at(to),
  viaConvoy,
});

// ---------------------------------------------------------------------------------------------

describe("parseOrder: DATC notation", () => {
  test("moves", () => {
    expectAll([
      ["F nth-pic", move(u("F", "nth"), "pic")],
      ["F nth - pic", move(u("F", "nth"), "pic")],
      ["F spa/sc-gol", move(u("F", "spa/sc"), "lyo")],
      ["F spa/nc - lyo", move(u("F", "spa/nc"), "lyo")],
      ["F gas-spa/sc".replace("gas", "mar"), move(u("F", "mar"), "spa/sc")],
      ["A lon-bel via convoy", move(u("A", "lon"), "bel", true)],
      ["A lon - bel via Convoy", move(u("A", "lon"), "bel", true)],
      ["A lon - bel by convoy", move(u("A", "lon"), "bel", true)],
      ["A yor-yor", move(u("A", "yor"), "yor")],
    ]);
  });

  test("supports", () => {
    expectAll([
      [
        "A ser S A alb-gre",
        { kind: "support", unit: u("A", "ser"), supported: u("A", "alb"), to: at("gre") },
      ],
      [
        "A bud SUPPORTS F tri-ven",
        { kind: "support", unit: u("A", "bud"), supported: u("F", "tri"), to: at("ven") },
      ],
      [
        "F den Supports A ber - kie",
        { kind: "support", unit: u("F", "den"), supported: u("A", "ber"), to: at("kie") },
      ],
      [
        "F tri S A bud",
        { kind: "support", unit: u("F", "tri"), supported: u("A", "bud"), to: null },
      ],
      [
        "F tri S A bud H",
        { kind: "support", unit: u("F", "tri"), supported: u("A", "bud"), to: null },
      ],
      [
        "F tri supports F tri",
        { kind: "support", unit: u("F", "tri"), supported: u("F", "tri"), to: null },
      ],
      [
        "F spa/nc supports F mar-gol",
        { kind: "support", unit: u("F", "spa/nc"), supported: u("F", "mar"), to: at("lyo") },
      ],
    ]);
  });

  test("convoys, including a convoyed unit written as a fleet", () => {
    expectAll([
      [
        "F nth C A lon-bel",
        { kind: "convoy", unit: u("F", "nth"), convoyed: u("A", "lon"), to: at("bel") },
      ],
      [
        "F nth convoys A yor - yor",
        { kind: "convoy", unit: u("F", "nth"), convoyed: u("A", "yor"), to: at("yor") },
      ],
      [
        "F nth Convoys F lon-bel",
        { kind: "convoy", unit: u("F", "nth"), convoyed: u("F", "lon"), to: at("bel") },
      ],
    ]);
  });

  test("holds, builds, removals, waive", () => {
    expectAll([
      ["F tri H", { kind: "hold", unit: u("F", "tri") }],
      ["A ven HOLD", { kind: "hold", unit: u("A", "ven") }],
      ["Build A war", { kind: "build", unitType: "A", location: at("war") }],
      ["build F stp/nc", { kind: "build", unitType: "F", location: at("stp/nc") }],
      ["Remove gol", { kind: "remove", unit: u(null, "lyo") }],
      ["remove par", { kind: "remove", unit: u(null, "par") }],
      ["waive", { kind: "waive" }],
      ["WAIVE.", { kind: "waive" }],
    ]);
  });
});

describe("parseOrder: the words of Droidippy records", () => {
  test("every kind of order", () => {
    expectAll([
      ["bud move ser", move(u(null, "bud"), "ser")],
      [
        "par support mar move bur",
        { kind: "support", unit: u(null, "par"), supported: u(null, "mar"), to: at("bur") },
      ],
      [
        "nwy support swe",
        { kind: "support", unit: u(null, "nwy"), supported: u(null, "swe"), to: null },
      ],
      [
        "nth convoy lon move bel",
        { kind: "convoy", unit: u(null, "nth"), convoyed: u(null, "lon"), to: at("bel") },
      ],
      ["lon move bel via convoy", move(u(null, "lon"), "bel", true)],
      ["build Army vie", { kind: "build", unitType: "A", location: at("vie") }],
      ["build Fleet kie", { kind: "build", unitType: "F", location: at("kie") }],
      ["build Fleet stp/sc", { kind: "build", unitType: "F", location: at("stp/sc") }],
      ["remove par", { kind: "remove", unit: u(null, "par") }],
      ["remove spa/sc", { kind: "remove", unit: u(null, "spa/sc") }],
      ["ank disband", { kind: "disband", unit: u(null, "ank") }],
      ["ven hold", { kind: "hold", unit: u(null, "ven") }],
      ["con move bul/sc", move(u(null, "con"), "bul/sc")],
      ["bul/ec move con", move(u(null, "bul/ec"), "con")],
      [
        "nwy support stp/nc",
        { kind: "support", unit: u(null, "nwy"), supported: u(null, "stp/nc"), to: null },
      ],
    ]);
  });
});

describe("parseOrder: names and coasts", () => {
  test("coast spellings", () => {
    const spellings = [
      "St Petersburg (south coast)",
      "St. Petersburg(sc)",
      "Saint Petersburg south coast",
      "stp/sc",
      "stp(sc)",
      "stp sc",
      "STP/SC",
      "stp (s.c.)",
      "stp s.c.",
      "stp/s",
      "stp (south)",
      "stp [sc]",
    ];
    for (const s of spellings) {
      assert.deepEqual(ok(`F ${s} - bot`), move(u("F", "stp/sc"), "bot"), s);
      assert.deepEqual(ok(`F bot - ${s}`), move(u("F", "bot"), "stp/sc"), s);
    }
    for (const s of [
      "Spain/NC",
      "spa (north coast)",
      "spa n.c.",
      "spa nc",
      "Spain (nc)",
      "spa north coast",
    ]) {
      assert.deepEqual(ok(`F mao - ${s}`), move(u("F", "mao"), "spa/nc"), s);
    }
    assert.deepEqual(ok("F mao - spa"), move(u("F", "mao"), "spa"));
  });

  test("ids, full names, common spellings, any case", () => {
    const names: readonly (readonly [string, string])[] = [
      ["Gulf of Lyons", "lyo"],
      ["gulf of lyon", "lyo"],
      ["gol", "lyo"],
      ["LYO", "lyo"],
      ["mid", "mao"],
      ["Mid-Atlantic Ocean", "mao"],
      ["mid atlantic", "mao"],
      ["nrg", "nwg"],
      ["nat", "nao"],
      ["North Sea", "nth"],
      ["north   sea", "nth"],
      ["NorthSea", "nth"],
      ["English Channel", "eng"],
      ["Black Sea", "bla"],
    ];
    for (const [name, id] of names) {
      assert.deepEqual(ok(`F ${name} H`), { kind: "hold", unit: u("F", id) }, name);
      assert.deepEqual(findPlace(name, fixture), { province: id, coast: null }, name);
    }
  });

  test("multi-word names anywhere a province may stand", () => {
    expectAll([
      ["A Liverpool - Edinburgh", move(u("A", "lvp"), "edi")],
      [
        "F North Sea convoys A London to Belgium",
        { kind: "convoy", unit: u("F", "nth"), convoyed: u("A", "lon"), to: at("bel") },
      ],
      [
        "F English Channel S F North Sea - Gulf of Lyon",
        { kind: "support", unit: u("F", "eng"), supported: u("F", "nth"), to: at("lyo") },
      ],
      [
        "Build Fleet St. Petersburg (north coast)",
        { kind: "build", unitType: "F", location: at("stp/nc") },
      ],
      ["remove North Sea", { kind: "remove", unit: u(null, "nth") }],
      ["North Sea - English Channel", move(u(null, "nth"), "eng")],
      ["F Black Sea Holds", { kind: "hold", unit: u("F", "bla") }],
    ]);
  });

  test("findPlace", () => {
    assert.deepEqual(findPlace("stp/nc", fixture), { province: "stp", coast: "nc" });
    assert.deepEqual(findPlace("St. Petersburg (North Coast)", fixture), {
      province: "stp",
      coast: "nc",
    });
    assert.deepEqual(findPlace("  Berlin ", fixture), { province: "ber", coast: null });
    assert.equal(findPlace("Burgandy", fixture), null);
    assert.equal(findPlace("spa/ec", fixture), null);
    assert.equal(findPlace("lon - bel", fixture), null);
    assert.equal(findPlace("", fixture), null);
  });

  test("suggestPlaces", () => {
    assert.deepEqual(suggestPlaces("Burgandy", fixture), ["Burgundy"]);
    assert.deepEqual(suggestPlaces("Edinburg", fixture), ["Edinburgh"]);
    assert.deepEqual(suggestPlaces("Norht Sea", fixture), ["North Sea"]);
    assert.deepEqual(suggestPlaces("xyzzy", fixture), []);
    assert.ok(suggestPlaces("bux", fixture).length <= 3);
    assert.ok(suggestPlaces("bux", fixture).includes("Budapest"));
  });
});

describe("parseOrder: the order words", () => {
  test("move words", () => {
    for (const w of ["-", "->", "=>", "to", "move", "moves", "m", "–", "→", "MOVES"]) {
      assert.deepEqual(ok(`A par ${w} bur`), move(u("A", "par"), "bur"), w);
    }
    assert.deepEqual(ok("A par->bur"), move(u("A", "par"), "bur"));
    assert.deepEqual(ok("A par=>bur"), move(u("A", "par"), "bur"));
  });

  test("support, convoy and hold words", () => {
    for (const w of ["S", "support", "supports", "SUPPORTS"]) {
      assert.deepEqual(
        ok(`A mar ${w} A par - bur`),
        { kind: "support", unit: u("A", "mar"), supported: u("A", "par"), to: at("bur") },
        w,
      );
    }
    for (const w of ["C", "convoy", "convoys"]) {
      assert.deepEqual(
        ok(`F nth ${w} A lon - bel`),
        { kind: "convoy", unit: u("F", "nth"), convoyed: u("A", "lon"), to: at("bel") },
        w,
      );
    }
    for (const w of ["H", "hold", "holds", "stand", ""]) {
      assert.deepEqual(ok(`A par ${w}`), { kind: "hold", unit: u("A", "par") }, w);
    }
  });

  test("build, remove, disband as prefix and suffix", () => {
    expectAll([
      ["b A war", { kind: "build", unitType: "A", location: at("war") }],
      ["build war", { kind: "build", unitType: null, location: at("war") }],
      ["r par", { kind: "remove", unit: u(null, "par") }],
      ["remove A par", { kind: "remove", unit: u("A", "par") }],
      ["A par remove", { kind: "remove", unit: u("A", "par") }],
      ["disband A ank", { kind: "disband", unit: u("A", "ank") }],
      ["d F ank", { kind: "disband", unit: u("F", "ank") }],
      ["ank disband", { kind: "disband", unit: u(null, "ank") }],
      ["A ank D", { kind: "disband", unit: u("A", "ank") }],
      ["A ank disbands.", { kind: "disband", unit: u("A", "ank") }],
    ]);
  });

  test("unit words are optional and may be spelt out", () => {
    expectAll([
      ["Army par - bur", move(u("A", "par"), "bur")],
      ["Fleet nth - eng", move(u("F", "nth"), "eng")],
      ["a par - bur", move(u("A", "par"), "bur")],
      ["par - bur", move(u(null, "par"), "bur")],
      ["A ber", { kind: "hold", unit: u("A", "ber") }],
      ["Berlin", { kind: "hold", unit: u(null, "ber") }],
    ]);
  });

  test("nationality of a supported or convoyed unit", () => {
    expectAll([
      [
        "A mun supports German A ber",
        { kind: "support", unit: u("A", "mun"), supported: u("A", "ber", "germany"), to: null },
      ],
      [
        "F bla S Russian F sev - ank",
        { kind: "support", unit: u("F", "bla"), supported: u("F", "sev", "russia"), to: at("ank") },
      ],
      [
        "A mun S Germany A ber - kie",
        {
          kind: "support",
          unit: u("A", "mun"),
          supported: u("A", "ber", "germany"),
          to: at("kie"),
        },
      ],
      [
        "F nth C english A lon - bel",
        { kind: "convoy", unit: u("F", "nth"), convoyed: u("A", "lon", "england"), to: at("bel") },
      ],
      [
        "A mun S German ber",
        { kind: "support", unit: u("A", "mun"), supported: u(null, "ber", "germany"), to: null },
      ],
      // A name that begins like a nationality is the name.
      [
        "F nth S English Channel",
        { kind: "support", unit: u("F", "nth"), supported: u(null, "eng"), to: null },
      ],
      [
        "F nth S English F English Channel",
        { kind: "support", unit: u("F", "nth"), supported: u("F", "eng", "england"), to: null },
      ],
    ]);
  });

  test("whitespace, case and a trailing period do not matter", () => {
    const want = move(u("A", "lon"), "bel", true);
    for (const t of [
      "A lon-bel via convoy.",
      "  a   LON  -  BEL   VIA   CONVOY  ",
      "\tA lon\t-\tbel via convoy\n",
      "A lon - bel via convoy .",
    ]) {
      assert.deepEqual(ok(t), want, t);
    }
  });
});

describe("parseOrder: diagnostics", () => {
  test("unknown province, with a suggestion and its span", () => {
    const text = "A Burgandy - par";
    const e = bad(text);
    assert.equal(e.message, 'unknown province "Burgandy": did you mean Burgundy?');
    assert.deepEqual(e.suggestions, ["Burgundy"]);
    assert.equal(text.slice(e.start, e.end), "Burgandy");
  });

  test("unknown destination of several words", () => {
    const text = "F nth - Nrth Sea";
    const e = bad(text.replace("nth -", "eng -"));
    assert.deepEqual(e.suggestions, ["North Sea"]);
    assert.equal(text.replace("nth -", "eng -").slice(e.start, e.end), "Nrth Sea");
  });

  test("unknown province without a suggestion", () => {
    const e = bad("A par - xyzzy");
    assert.equal(e.message, 'unknown province "xyzzy"');
    assert.deepEqual(e.suggestions, []);
    assert.equal(e.start, 8);
    assert.equal(e.end, 13);
  });

  test("unknown word", () => {
    const text = "A ber suport A mun";
    const e = bad(text);
    assert.match(e.message, /unknown word "suport"/);
    assert.match(e.message, /did you mean support/);
    assert.deepEqual(e.suggestions, ["support"]);
    assert.equal(text.slice(e.start, e.end), "suport");
    const f = bad("biuld A war");
    assert.match(f.message, /unknown word "biuld": did you mean build\?/);
  });

  test("a province where an order word should be", () => {
    const text = "A ber kie";
    const e = bad(text);
    assert.match(e.message, /expected "-" \(move\)/);
    assert.equal(text.slice(e.start, e.end), "kie");
  });

  test("missing destination", () => {
    for (const text of ["A ber -", "A ber - ", "A ber move", "F nth C A lon -"]) {
      const e = bad(text);
      assert.match(e.message, /missing (destination|the destination)/, text);
      assert.ok(e.end <= text.length && e.start < e.end, text);
    }
    const e = bad("A ber -");
    assert.equal(e.start, 6);
    assert.equal(e.end, 7);
  });

  test("convoy without a destination", () => {
    const e = bad("F nth C A lon");
    assert.equal(
      e.message,
      'a convoy needs the destination of the convoyed unit: write "F nth C A lon - <province>"',
    );
  });

  test("a nationality with no unit after it", () => {
    const text = "A mun S German";
    const e = bad(text);
    assert.equal(e.message, 'missing the unit after "A mun S German"');
    assert.equal(text.slice(e.start, e.end), "German");
  });

  test("a coast the province does not have", () => {
    const text = "F mao - spa/ec";
    const e = bad(text);
    assert.equal(
      e.message,
      "Spain has no east coast: it has a north coast (spa/nc) and a south coast (spa/sc)",
    );
    assert.deepEqual(e.suggestions, ["spa/nc", "spa/sc"]);
    assert.equal(text.slice(e.start, e.end), "/ec");
    const f = bad("F lon/nc - nth");
    assert.match(f.message, /London has no separate coasts/);
    const g = bad("F stp (west coast) H");
    assert.match(g.message, /St\. Petersburg has no west coast/);
    const h = bad("F stp/xx H");
    assert.match(h.message, /expected a coast after "\/"/);
  });

  test("empty text", () => {
    for (const text of ["", "   ", "\n\t", " . "]) {
      const e = bad(text);
      assert.match(e.message, /empty order/);
      assert.equal(e.start, 0);
      assert.equal(e.end, text.length);
    }
  });

  test("trailing words", () => {
    const text = "A lon - bel please now";
    const e = bad(text);
    assert.match(e.message, /did not understand "please now"/);
    assert.equal(text.slice(e.start, e.end), "please now");
    assert.ok(!parse("waive now").ok);
    assert.ok(!parse("A lon - bel - hol").ok);
    // MILA's records: `VIA` alone ending a move means via convoy (issue 16), not a trailing word.
    const via = parse("A lon - bel via");
    assert.ok(via.ok && via.order.kind === "move" && via.order.viaConvoy, "VIA alone: via convoy");
    assert.ok(!parse("A lon - bel via land").ok);
    assert.ok(!parse("A lon - bel; A yor - lon").ok);
  });

  test("words missing after a prefix or unit letter", () => {
    for (const text of [
      "build",
      "remove",
      "disband",
      "build A",
      "A",
      "A ber S",
      "F nth C",
      "A -",
    ]) {
      const e = bad(text);
      assert.ok(e.start <= e.end && e.end <= text.length, text);
      assert.ok(e.message.length > 0, text);
    }
  });

  test("no adjacency or unit checks: that is the engine's job", () => {
    assert.ok(parse("A par - lon").ok);
    assert.ok(parse("A nth H").ok);
    assert.ok(parse("F par - mos".replace("mos", "mun")).ok);
    assert.ok(parse("A ber - spa/nc").ok);
  });
});

// ---------------------------------------------------------------------------------------------
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

const variantFile = new URL("../variants/classical/index.ts", import.meta.url);
const { classical } = existsSync(fileURLToPath(variantFile))
  ? ((await import(variantFile.href)) as typeof import("../variants/classical/index.ts"))
  : { classical: null };

describe("parseOrder: classical map with the DATC and real games", () => {
  test("the classical variant is present", () => {
    assert.ok(classical, `missing ${fileURLToPath(variantFile)}`);
  });

  test("every DATC order parses, and its text reads as its norm", () => {
    assert.ok(classical, "no classical variant");
    const cases = readShared<readonly { orders: readonly OrderRecord[] }[]>("datc/datc.json");
    const records = cases.flatMap((c) => c.orders);
    assert.ok(records.length > 500, `only ${records.length} DATC orders`);
    const { typesFilled } = checkRecords("DATC", records, classical.map, classical.powers);
    assert.equal(typesFilled, 0, "every DATC text writes its unit types");
  });

  test("every order of the real games parses, and its text reads as its norm", () => {
    assert.ok(classical, "no classical variant");
    const games =
      readShared<readonly { phases: readonly { orders: readonly OrderRecord[] }[] }[]>(
        "games/games.json",
      );
    const records = games.flatMap((g) => g.phases.flatMap((p) => p.orders));
    assert.ok(records.length > 18_000, `only ${records.length} game orders`);
    checkRecords("games", records, classical.map, classical.powers);
  });

  test("full names and spellings on the classical map", () => {
    assert.ok(classical, "no classical variant");
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
    assert.deepEqual(read("F North Sea convoys A London to Belgium"), {
      kind: "convoy",
      unit: u("F", "nth"),
      convoyed: u("A", "lon"),
      to: at("bel"),
    });
    assert.deepEqual(read("A Liverpool - Edinburgh"), move(u("A", "lvp"), "edi"));
    assert.deepEqual(read("F bla S Russian F sev - rum"), {
      kind: "support",
      unit: u("F", "bla"),
      supported: u("F", "sev", "russia"),
      to: at("rum"),
    });
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
    assert.ok(classical, "no classical variant");
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
  assert.ok(classical, "the classical variant");
  const map = classical.map;
  const r = parseOrder("F Lon-Holds", map, classical.powers);
  assert.ok(r.ok && r.order.kind === "hold" && r.order.unit.province === "lon");
  const m = parseOrder("F lon - holds extra", map, classical.powers);
  assert.equal(m.ok, false);
});
