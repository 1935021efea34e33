import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { writePosition } from "../engine/position-json.ts";
import type { Variant } from "../engine/variant.ts";
import { getVariant } from "../variants/registry.ts";
import { COLOURS } from "./base.ts";
import { deltaE, over } from "./colour.ts";
import { builtMap } from "./geometry.ts";
import { drawBoard, legendEntries } from "./layers.ts";

/*
 * The Historical Committee's own look (seed 000, "The Map"), as data in its geometry file:
 * the powers' colours, square armies and narrow fleets, Switzerland impassable, the Kiel,
 * Volga and Nile waterways, Iran's two coasts named, and every power's tint told apart from
 * the sea, from unowned land and from every other power.
 */

const variant = getVariant("europe1935") as Variant;
const built = builtMap(variant);
const g = built.geometry;
const start = { position: writePosition(variant, variant.start) };

describe("the Historical Committee's board", () => {
  it("takes the colours its rules give each power", () => {
    const svg = drawBoard(g, start);
    const want: Record<string, RegExp> = {
      uk: /light blue/,
      france: /dark blue/,
      italy: /dark green/,
      germany: /black/,
      ussr: /red/,
      turkey: /yellow/,
      yugoslavia: /light green/,
      spain: /orange/,
      poland: /white/,
    };
    // A colour named as the seed names it: hue and lightness of the chosen tone.
    const named = (hex: string): string => {
      const v = Number.parseInt(hex.slice(1), 16);
      const [r, gg, b] = [(v >> 16) & 255, (v >> 8) & 255, v & 255];
      const max = Math.max(r, gg, b);
      const min = Math.min(r, gg, b);
      const light = (max + min) / 510;
      if (max - min < 30) return light > 0.9 ? "white" : light < 0.2 ? "black" : "grey";
      const hue =
        max === r
          ? ((gg - b) / (max - min) + 6) % 6
          : max === gg
            ? (b - r) / (max - min) + 2
            : (r - gg) / (max - min) + 4;
      const deg = hue * 60;
      const name =
        deg < 20 || deg >= 340
          ? "red"
          : deg < 45
            ? "orange"
            : deg < 70
              ? "yellow"
              : deg < 170
                ? "green"
                : deg < 260
                  ? "blue"
                  : "purple";
      return `${light > 0.55 ? "light" : light < 0.4 ? "dark" : "mid"} ${name}`;
    };
    for (const [power, pattern] of Object.entries(want)) {
      const colour = g.style?.colours?.[power];
      assert.ok(colour, `${power} has no colour of its own`);
      assert.match(named(colour), pattern, `${power}'s ${colour} reads as ${named(colour)}`);
      assert.match(
        svg,
        new RegExp(
          `class="unit" data-power="${power}"[^>]*><rect class="piece"[^>]*fill="${colour}"`,
        ),
        `${power}'s units are drawn in ${colour}`,
      );
    }
  });

  it("tells every power's provinces apart from the sea, unowned land and each other", () => {
    const style = g.style ?? {};
    const sea = style.sea ?? COLOURS.sea;
    const land = style.land ?? COLOURS.land;
    const tint = style.tint ?? 0.45;
    assert.ok(deltaE(sea, land) >= 20, `land and sea too alike (ΔE ${deltaE(sea, land)})`);
    const owned = Object.fromEntries(
      variant.powers.map((p) => [p.id, over(land, style.colours?.[p.id] as string, tint)]),
    );
    for (const [p, c] of Object.entries(owned)) {
      const s = deltaE(c, sea);
      assert.ok(s >= 20, `${p}'s provinces (${c}) read as water: ΔE ${s.toFixed(1)} from the sea`);
      const l = deltaE(c, land);
      assert.ok(l >= 15, `${p}'s provinces (${c}) read as unowned: ΔE ${l.toFixed(1)}`);
      for (const [q, d] of Object.entries(owned)) {
        if (p >= q) continue;
        const e = deltaE(c, d);
        assert.ok(e >= 20, `${p} and ${q} look alike: ΔE ${e.toFixed(1)}`);
      }
    }
    assert.match(g.base, new RegExp(`class="sea-bg" [^>]*fill="${sea}"`), "the sea in its colour");
  });

  it("draws armies as square pieces and fleets as narrow rectangles", () => {
    const svg = drawBoard(g, start);
    const pieces = [...svg.matchAll(/<g class="unit" [^>]*data-location="([^"]+)">(.*?)<\/g>/g)];
    assert.equal(pieces.length, 45, "the 45 units of 1935");
    for (const [, loc, body] of pieces) {
      const m = /<rect class="piece" x="[^"]+" y="[^"]+" width="([\d.]+)" height="([\d.]+)"/.exec(
        body as string,
      );
      assert.ok(m, `the unit in ${loc} is not a block`);
      const [w, h] = [Number(m[1]), Number(m[2])];
      const type = />([AF])<\/text>/.exec(body as string)?.[1];
      if (type === "A") assert.equal(w, h, `the army in ${loc} is square`);
      else assert.ok(w >= h * 1.8, `the fleet in ${loc} is narrow (${w} by ${h})`);
    }
  });

  it("hatches Switzerland as impassable, draws the waterways and names Iran's coasts", () => {
    assert.match(
      g.base,
      /<path id="prov-swi" [^>]*class="prov land impassable"[^>]*fill="url\(#impassable-europe1935\)"/,
      "Switzerland is hatched",
    );
    for (const p of ["ham", "wol", "egy"]) {
      assert.match(g.base, new RegExp(`class="waterway" data-province="${p}"`), `${p}'s waterway`);
    }
    assert.match(g.base, /<title>the Kiel Canal<\/title>/, "the Kiel Canal is named");
    // Drawn over Germany's tint, and clear of Hamburg's unit and centre marker (issue 29: the
    // canal was under both).
    const svg = drawBoard(g, start);
    assert.ok(
      svg.indexOf('class="waterway" data-province="ham"') > svg.indexOf('<g class="owners"'),
      "the canal above the owners' tint",
    );
    const kiel = /class="waterway" data-province="ham" d="([^"]+)"/.exec(g.base)?.[1] ?? "";
    const points = [...kiel.matchAll(/([\d.]+) ([\d.]+)/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    const ham = g.provinces.ham!;
    const fs = g.fontSize ?? 13;
    for (const [x, y] of points) {
      const unit = Math.hypot(x! - ham.unit[0], y! - ham.unit[1]);
      assert.ok(unit > fs * 1.2, `Hamburg's unit ${unit.toFixed(1)} from the canal`);
      const mark = Math.hypot(x! - ham.centerMark![0], y! - ham.centerMark![1]);
      assert.ok(mark > fs * 0.6, `Hamburg's centre ${mark.toFixed(1)} from the canal`);
    }
    for (const c of ["nc", "sc"]) {
      const m = new RegExp(
        `class="coast-label" data-province="irn" data-coast="${c}" x="([\\d.]+)" y="([\\d.]+)"`,
      ).exec(g.base);
      assert.ok(m, `Iran's ${c} is not named`);
      const at = g.provinces.irn?.coasts?.[c] as [number, number];
      const d = Math.hypot(Number(m[1]) - at[0], Number(m[2]) - at[1]);
      assert.ok(d < (g.fontSize ?? 13) * 3, `Iran's ${c} is named ${d} away from its fleet spot`);
    }
  });

  it("draws a legend of the powers with their centres and units", () => {
    const svg = drawBoard(g, start, { legend: true });
    assert.match(svg, /viewBox="0 0 ([\d.]+) /, "a viewBox");
    const width = Number(/viewBox="0 0 ([\d.]+) /.exec(svg)?.[1]);
    assert.ok(width > g.width, "the legend stands beside the map");
    for (const p of variant.powers) {
      assert.match(
        svg,
        new RegExp(
          `class="legend-power" data-power="${p.id}" data-centres="5">.*?>${p.name}</text>.*?>5 centres, 5 units</text>`,
        ),
        `${p.name} in the legend with its 5 centres`,
      );
    }
  });
});

describe("the legend for a page", () => {
  it("gives each power its name, its own colour, its pieces as the board draws them, its counts", () => {
    const entries = legendEntries(g, start.position);
    assert.deepEqual(
      entries.map((e) => e.power),
      variant.powers.map((p) => p.id),
      "every power, in the map's order",
    );
    for (const e of entries) {
      const p = variant.powers.find((q) => q.id === e.power)!;
      assert.equal(e.name, p.name);
      assert.equal(e.colour, g.style?.colours?.[e.power], `${e.name} in the committee's colour`);
      assert.equal(e.swatch.match(/<rect class="piece"/g)?.length, 2, "a square army, a fleet");
      assert.match(e.swatch, new RegExp(`fill="${e.colour}"`), "in the power's colour");
      assert.equal(e.centres, start.position.centers?.[e.power]?.length, `${e.name}'s centres`);
      assert.equal(e.units, start.position.units[e.power]?.length, `${e.name}'s units`);
    }
    const fogged = legendEntries(g, { ...start.position, centers: undefined });
    assert.ok(
      fogged.every((e) => e.centres === undefined),
      "no centre counts without centres",
    );
    const cb = legendEntries(g, start.position, "colorblind");
    assert.match(cb[0]!.swatch, new RegExp(`>A${g.powers![0]!.letter}</text>`), "lettered");
  });
});

describe("names for a zoomed-in view", () => {
  it("marks names written small or under their unit with the zoom that shows them", () => {
    const fs = g.fontSize ?? 13;
    // Issue 29: no province name smaller than normal, even in the crowded centre (Rome,
    // Apulia, Naples, Monaco, Gibraltar): none is written small or hidden at the whole map.
    const small = built.labels.filter((l) => !l.id.startsWith("_") && l.size < fs * 0.99);
    assert.deepEqual(
      small.map((l) => `${l.id} ${l.size}`),
      [],
      "no province name smaller than normal",
    );
    const hidden = built.labels.filter((l) => !l.id.startsWith("_") && l.minZoom !== undefined);
    assert.deepEqual(
      hidden.map((l) => l.id),
      [],
      "every province name shown at the whole map",
    );
    for (const l of built.labels) {
      if (l.id.startsWith("_")) continue;
      const want = l.size < fs * 0.99 ? Math.round((15 * fs) / l.size) / 10 : 0;
      if (want) {
        assert.ok(
          (l.minZoom ?? 0) >= want,
          `${l.id} "${l.text}" at ${l.size}: minZoom ${l.minZoom}`,
        );
      }
      assert.equal(g.provinces[l.id]?.labelMinZoom, l.minZoom, `${l.id}'s geometry carries it`);
      const attr = new RegExp(`data-min-zoom="${l.minZoom}">${l.text}</text>`);
      if (l.minZoom) assert.match(g.base, attr, `${l.id}'s name in the base carries it`);
    }
    const full = built.labels.filter((l) => !l.id.startsWith("_") && l.minZoom === undefined);
    assert.ok(full.length > 100, `most names are always shown (${full.length})`);
  });
});
