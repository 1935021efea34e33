import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { europe1935 } from "../variants/europe1935/index.ts";
import { deltaE, LAND, over, SEA } from "./colour.ts";
import { drawBoard, drawnOrderFromText, drawnResults, powerColours } from "./layers.ts";
import type { MapGeometry, ProvinceGeometry } from "./types.ts";

/* The board's layers, on a small hand-made geometry (no map building needed). */

/** A province drawn as the 100 by 100 square `column` squares from the left. */
function square(
  column: number,
  name: string,
  kind: ProvinceGeometry["kind"],
  center: boolean,
): ProvinceGeometry {
  const x = 100 * column;
  return {
    name,
    kind,
    center,
    label: [x + 50, 80],
    unit: [x + 50, 50],
    dislodged: [x + 60, 40],
    path: `M${x} 0H${x + 100}V100H${x}Z`,
  };
}

const geometry: MapGeometry = {
  variant: "test",
  width: 300,
  height: 100,
  fontSize: 10,
  base: '<path id="prov-aaa" data-province="aaa" class="prov land" d="M0 0H100V100H0Z"/><g class="labels"><text>Aaa</text></g>',
  provinces: {
    aaa: { ...square(0, "Aaa", "land", true), centerMark: [20, 20] },
    bbb: { ...square(1, "Bbb", "coast", false), coasts: { nc: [150, 10], sc: [150, 90] } },
    ccc: square(2, "Ccc", "sea", false),
  },
  powers: [
    { id: "red", name: "Red", letter: "R" },
    { id: "blue", name: "Blue", letter: "B" },
  ],
};

describe("drawnOrderFromText", () => {
  it("reads every canonical form", () => {
    const cases: [string, object | null][] = [
      ["F nth - pic", { kind: "move", unitType: "F", unit: "nth", target: "pic" }],
      ["A lon - bel via convoy", { kind: "move", unitType: "A", unit: "lon", target: "bel" }],
      ["F stp/sc - bot", { kind: "move", unitType: "F", unit: "stp/sc", target: "bot" }],
      [
        "A lvp S F nth - pic",
        { kind: "support", unitType: "A", unit: "lvp", from: "nth", target: "pic" },
      ],
      ["A ank S A con", { kind: "support", unitType: "A", unit: "ank", from: "con" }],
      [
        "A rum S A vie in gal",
        { kind: "support", unitType: "A", unit: "rum", from: "vie", target: "gal" },
      ],
      [
        "F nth C A lon - nwy",
        { kind: "convoy", unitType: "F", unit: "nth", from: "lon", target: "nwy" },
      ],
      ["build A par", { kind: "build", unitType: "A", unit: "par" }],
      ["remove par", { kind: "remove", unit: "par" }],
      ["A ank D", { kind: "disband", unitType: "A", unit: "ank" }],
      ["A mun H", { kind: "hold", unitType: "A", unit: "mun" }],
      ["waive", { kind: "waive", unit: "" }],
      ["gibberish here", null],
    ];
    for (const [text, want] of cases) {
      const got = drawnOrderFromText("red", text, "fails");
      assert.deepEqual(got, want && { power: "red", result: "fails", ...want }, `reading ${text}`);
    }
  });
});

describe("drawnResults", () => {
  it("notes each order's explanation, the reason where there is none; drops what it cannot draw", () => {
    const drawn = drawnResults({
      red: [
        // The explanation says what the reader corrected; the reason alone does not.
        {
          order: "A aaa - bbb",
          result: "fails",
          reason: "bounced with A ccc - bbb",
          explanation: 'bounced with A ccc - bbb (read "Bbbb" as Bbb)',
        },
        { order: "A aaa H", result: "succeeds", explanation: "held with strength 1" },
        // A record written to the plain contract: a reason, no explanation.
        { order: "F ccc - bbb", result: "fails", reason: "bounced with A aaa - bbb" },
        { order: null, result: "invalid", reason: "not understood" },
      ],
      blue: [
        { order: "A bbb H", result: "dislodged" },
        { order: "gibberish here", result: "fails" },
      ],
    });
    assert.deepEqual(drawn, [
      {
        power: "red",
        result: "fails",
        unitType: "A",
        unit: "aaa",
        kind: "move",
        target: "bbb",
        note: 'bounced with A ccc - bbb (read "Bbbb" as Bbb)',
      },
      {
        power: "red",
        result: "succeeds",
        unitType: "A",
        unit: "aaa",
        kind: "hold",
        note: "held with strength 1",
      },
      {
        power: "red",
        result: "fails",
        unitType: "F",
        unit: "ccc",
        kind: "move",
        target: "bbb",
        note: "bounced with A aaa - bbb",
      },
      { power: "blue", unitType: "A", unit: "bbb", kind: "hold" },
    ]);
  });
});

describe("powerColours", () => {
  it("gives every power its own colour in both palettes", () => {
    // Europe 1935's nine: uk, france, italy, germany, ussr, turkey, yugoslavia, spain, poland.
    const powers = europe1935.powers.map((p) => p.id);
    for (const palette of ["standard", "colorblind"] as const) {
      const c = powerColours(powers, palette);
      assert.equal(new Set(Object.values(c)).size, powers.length, `${palette}: colours repeat`);
    }
    assert.equal(powerColours(["england"]).england, "#2e3f9e", "England keeps its colour");
  });
});

describe("drawBoard", () => {
  const view = {
    position: {
      variant: "test",
      phase: "S1901M",
      units: { red: ["A aaa"], blue: ["F bbb/sc"] },
      centers: { red: ["aaa"] },
      dislodged: { blue: [{ unit: "F ccc", from: "bbb" }] },
    },
    orders: [
      {
        power: "red",
        kind: "move" as const,
        unitType: "A",
        unit: "aaa",
        target: "bbb",
        result: "fails" as const,
        note: "bounced",
      },
      {
        power: "blue",
        kind: "support" as const,
        unitType: "F",
        unit: "bbb/sc",
        from: "aaa",
        result: "invalid" as const,
      },
      { power: "blue", kind: "retreat" as const, unitType: "F", unit: "ccc", target: "bbb/nc" },
    ],
    dislodgedHere: ["bbb/sc"],
  };

  it("draws owners, units, a dislodged unit and orders with their results", () => {
    const svg = drawBoard(geometry, view);
    assert.match(svg, /^<svg [^>]*viewBox="0 0 300 100"/, "an svg with the map's viewBox");
    assert.equal(svg.match(/class="unit"/g)?.length, 2, "two units on the board");
    assert.equal(svg.match(/class="unit dislodged"/g)?.length, 1, "one dislodged unit");
    assert.match(svg, /data-location="bbb\/sc"/, "the fleet stands on its coast");
    assert.match(
      svg,
      /class="order move fails"[^>]*>.*?stroke-dasharray/,
      "a failed move is dashed",
    );
    assert.match(
      svg,
      /class="order support invalid"[^>]*opacity="0.6"/,
      "an invalid order is greyed",
    );
    assert.match(
      svg,
      /<title>red: move aaa → bbb \(fails\): bounced<\/title>/,
      "the result's note is a tooltip",
    );
    assert.match(svg, /class="order retreat"/, "the retreat is drawn");
    assert.match(
      svg,
      /class="dislodged-mark" data-location="bbb\/sc"/,
      "dislodged by this phase is marked",
    );
    assert.match(svg, /class="owner" data-power="red"/, "the owned centre is tinted");
    assert.ok(
      svg.indexOf('class="owners"') < svg.indexOf('<g class="labels"'),
      "names stay above the tint",
    );
  });

  it("marks an owned supply centre in its owner's colour, larger than a free centre's marker", () => {
    const svg = drawBoard(geometry, view);
    const red = powerColours(["red", "blue"]).red;
    const mark = svg.match(/<g class="sc-owner" data-power="red">(.*?)<\/g>/)?.[1] ?? "";
    const circles = [...mark.matchAll(/<circle cx="20" cy="20" r="([\d.]+)" fill="([^"]+)"/g)];
    assert.equal(circles[0]?.[2], red, "filled with the owner's colour");
    // The free centre's marker (the base map's) has a radius of 0.3 font sizes.
    assert.ok(Number(circles[0]?.[1]) >= 10 * 0.4, `a radius of ${circles[0]?.[1]}`);
    assert.match(mark, /stroke="#fff"/, "a white ring sets it off from its owner's tint");
  });

  it("backs colour with letters and patterns in the colour-blind palette", () => {
    const svg = drawBoard(geometry, view, { palette: "colorblind" });
    assert.match(svg, /<pattern id="pat-red"/, "a pattern per power");
    assert.match(svg, />AR<\/text>/, "the army shows its power's letter");
    assert.match(svg, /fill="url\(#pat-red\)"/, "the province is hatched");
  });
});

describe("the legend and the tints", () => {
  it("draws a legend beside the map: each power's piece, name, centres and units", () => {
    const view = {
      position: {
        variant: "test",
        phase: "F1901M",
        units: { red: ["A aaa"], blue: ["F bbb/sc", "A ccc"] },
        centers: { red: ["aaa"] },
      },
    };
    const svg = drawBoard(geometry, view, { legend: true });
    const width = Number(/viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg)?.[1]);
    assert.ok(width > 300, `the legend widens the picture (${width})`);
    assert.match(
      svg,
      /data-power="red" data-centres="1">.*?>Red<\/text>.*?>1 centre, 1 unit<\/text>/,
      "Red: one centre, one unit",
    );
    assert.match(
      svg,
      /data-power="blue" data-centres="0">.*?>Blue<\/text>.*?>0 centres, 2 units<\/text>/,
      "Blue: no centre, two units",
    );
    assert.match(svg, />F1901M<\/text>/, "the phase heads the legend");
    assert.doesNotMatch(drawBoard(geometry, view), /class="legend"/, "no legend unless asked");
    const cb = drawBoard(geometry, view, { legend: true, palette: "colorblind" });
    assert.match(cb, /class="legend-power" data-power="red"[^>]*>.*?>R<\/text>/, "letters too");
  });

  it("tints a power's provinces so that they never read as water", () => {
    // France's familiar sky blue at the usual strength is within ΔE 8 of the sea.
    const view = {
      position: { variant: "test", phase: "S1901M", units: {}, centers: { france: ["aaa"] } },
    };
    const svg = drawBoard(geometry, view);
    const opacity = Number(/data-power="france"[^>]*fill-opacity="([\d.]+)"/.exec(svg)?.[1]);
    const colour = powerColours(["france"]).france as string;
    assert.ok(deltaE(over(LAND, colour, opacity), SEA) >= 20, `France at ${opacity} reads as sea`);
    const red = drawBoard(geometry, {
      position: { variant: "test", phase: "S1901M", units: {}, centers: { austria: ["aaa"] } },
    });
    assert.match(red, /data-power="austria"[^>]*fill-opacity="0.45"/, "others keep 0.45");
  });

  it("draws blocks and a variant's own colours when its style says so", () => {
    const styled = {
      ...geometry,
      style: { pieces: "blocks" as const, colours: { red: "#123456" } },
    };
    const svg = drawBoard(styled, {
      position: { variant: "test", phase: "S1901M", units: { red: ["A aaa", "F ccc"] } },
    });
    assert.equal(svg.match(/<rect class="piece"/g)?.length, 2, "two blocks");
    assert.match(svg, /<rect class="piece"[^>]*fill="#123456"/, "the style's colour");
  });
});

describe("the choices of an order being given", () => {
  const position = { variant: "test", phase: "S1901M", units: { x: ["A aaa"] } };

  it("outlines each target province (a coast counts as its province) and dims the rest", () => {
    const svg = drawBoard(geometry, {
      position,
      selected: ["aaa"],
      targets: ["bbb/nc", "ccc", "bbb"],
    });
    const outlined = [...svg.matchAll(/class="target" data-province="(\w+)"/g)].map((m) => m[1]);
    assert.deepEqual(outlined, ["bbb", "ccc"], "each target once, by province");
    assert.match(svg, /<mask id="choice-dim">.*M100 0H200V100H100Z.*<\/mask>/, "bbb cut out");
    assert.match(svg, /<rect class="dim"[^>]*mask="url\(#choice-dim\)"/, "the rest dimmed");
    assert.doesNotMatch(svg, /class="target" data-province="aaa"/, "the unit's own province");
    // Drawn under the names and units, so these stay readable and clickable.
    assert.ok(svg.indexOf('class="targets"') < svg.indexOf('class="names"'), "under the names");
    assert.match(svg, /<g class="targets" pointer-events="none">/, "clicks pass through");
  });

  it("cuts a sea to the water and land to the coastline, as the base draws them", () => {
    const coastal: MapGeometry = {
      ...geometry,
      base: `<defs><clipPath id="land-test"><path d="M0 0H200V100H0Z"/></clipPath></defs>${geometry.base}`,
      provinces: {
        ...geometry.provinces,
        bbb: { ...(geometry.provinces.bbb as MapGeometry["provinces"][string]), clip: "land-test" },
      },
    };
    const svg = drawBoard(coastal, { position, targets: ["bbb", "ccc"] });
    assert.match(svg, /<clipPath id="water-choice"><path d="M0 0H300V100H0ZM0 0H200V100H0Z"/);
    assert.match(svg, /class="target" data-province="bbb" [^>]*clip-path="url\(#land-test\)"/);
    assert.match(svg, /class="target" data-province="ccc" [^>]*clip-path="url\(#water-choice\)"/);
  });

  it("draws nothing of it without targets", () => {
    const svg = drawBoard(geometry, { position, selected: ["aaa"], targets: [] });
    assert.doesNotMatch(svg, /class="targets"|choice-dim/);
  });
});
