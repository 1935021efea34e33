/**
 * The order reader on a small made-up map (parse.fixture.ts): DATC notation, the words of
 * Droidippy records, names and coasts, the order words, and its diagnostics.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  at,
  bad,
  convoy,
  expectAll,
  fixture,
  move,
  ok,
  parse,
  support,
  u,
} from "./parse.fixture.ts";
import { findPlace, suggestPlaces } from "./parse.ts";

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
      ["A ser S A alb-gre", support(u("A", "ser"), u("A", "alb"), "gre")],
      ["A bud SUPPORTS F tri-ven", support(u("A", "bud"), u("F", "tri"), "ven")],
      ["F den Supports A ber - kie", support(u("F", "den"), u("A", "ber"), "kie")],
      ["F tri S A bud", support(u("F", "tri"), u("A", "bud"))],
      ["F tri S A bud H", support(u("F", "tri"), u("A", "bud"))],
      ["F tri supports F tri", support(u("F", "tri"), u("F", "tri"))],
      ["F spa/nc supports F mar-gol", support(u("F", "spa/nc"), u("F", "mar"), "lyo")],
    ]);
  });

  test("convoys, including a convoyed unit written as a fleet", () => {
    expectAll([
      ["F nth C A lon-bel", convoy(u("F", "nth"), u("A", "lon"), "bel")],
      ["F nth convoys A yor - yor", convoy(u("F", "nth"), u("A", "yor"), "yor")],
      ["F nth Convoys F lon-bel", convoy(u("F", "nth"), u("F", "lon"), "bel")],
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
      ["par support mar move bur", support(u(null, "par"), u(null, "mar"), "bur")],
      ["nwy support swe", support(u(null, "nwy"), u(null, "swe"))],
      ["nth convoy lon move bel", convoy(u(null, "nth"), u(null, "lon"), "bel")],
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
      ["nwy support stp/nc", support(u(null, "nwy"), u(null, "stp/nc"))],
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
      ["F North Sea convoys A London to Belgium", convoy(u("F", "nth"), u("A", "lon"), "bel")],
      [
        "F English Channel S F North Sea - Gulf of Lyon",
        support(u("F", "eng"), u("F", "nth"), "lyo"),
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
        support(u("A", "mar"), u("A", "par"), "bur"),
        w,
      );
    }
    for (const w of ["C", "convoy", "convoys"]) {
      assert.deepEqual(
        ok(`F nth ${w} A lon - bel`),
        convoy(u("F", "nth"), u("A", "lon"), "bel"),
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
      ["A mun supports German A ber", support(u("A", "mun"), u("A", "ber", "germany"))],
      ["F bla S Russian F sev - ank", support(u("F", "bla"), u("F", "sev", "russia"), "ank")],
      ["A mun S Germany A ber - kie", support(u("A", "mun"), u("A", "ber", "germany"), "kie")],
      ["F nth C english A lon - bel", convoy(u("F", "nth"), u("A", "lon", "england"), "bel")],
      ["A mun S German ber", support(u("A", "mun"), u(null, "ber", "germany"))],
      // A name that begins like a nationality is the name.
      ["F nth S English Channel", support(u("F", "nth"), u(null, "eng"))],
      ["F nth S English F English Channel", support(u("F", "nth"), u("F", "eng", "england"))],
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
