import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Variant } from "../engine/variant.ts";
import { getVariant } from "../variants/registry.ts";
import { type AreaLike, sourceOfAreas, specOfAreas } from "./areas.ts";
import { adjacencyDifferences, namesUnderUnits, zoomLabelProblems } from "./check.ts";
import { buildMap, builtMap, geometrySpec } from "./geometry.ts";
import type { BuiltMap, GeometrySpec } from "./geometry-spec.ts";
import { textWidth } from "./places.ts";

/*
 * Each variant's drawn map against its rules: the cells that touch are exactly the adjacent
 * provinces (except the differences the geometry file declares), every province has a shape,
 * a unit spot and a name inside it, no two names overlap. Each map is built once.
 */

const MAPPED = ["classical", "europe1935"];

function boxesOverlap(a: BuiltMap["labels"][number], b: BuiltMap["labels"][number]): boolean {
  const hw = (l: typeof a) => textWidth(l.text, l.size) / 2;
  const hh = (l: typeof a) => l.size * 0.55;
  return Math.abs(a.x - b.x) < hw(a) + hw(b) - 0.01 && Math.abs(a.y - b.y) < hh(a) + hh(b) - 0.01;
}

for (const id of MAPPED) {
  describe(`the ${id} map`, () => {
    const variant = getVariant(id) as Variant;
    const built = builtMap(variant);
    const g = built.geometry;

    // The classical board names by one rule (its geometry file's `uniformLabels`).
    if (id === "classical") {
      it("names provinces by one rule of size: full names from a size up, abbreviations below", () => {
        const pixels = built.raster.pixelsByCell(built.ids.length);
        const area = (p: string) => pixels[built.ids.indexOf(p)]?.length ?? 0;
        const full: string[] = [];
        const short: string[] = [];
        for (const p of variant.map.provinces) {
          const l = built.labels.find((x) => x.id === p.id);
          assert.ok(l, `${p.id} has a name`);
          assert.ok(l.text === p.name || l.text === p.id.toUpperCase(), `${p.id}: ${l.text}`);
          (l.text === p.name ? full : short).push(p.id);
        }
        const smallestFull = Math.min(...full.map(area));
        const largestShort = Math.max(...short.map(area));
        assert.ok(
          smallestFull > largestShort,
          `every full name's province (${full.length}, the smallest ${smallestFull} px) is larger than every abbreviated one (${short.length}, the largest ${largestShort} px)`,
        );
        assert.ok(
          full.length >= 15 && short.length >= 15,
          `${full.length} full, ${short.length} short`,
        );
      });
    }

    it("agrees with the adjacency, but for the declared differences", () => {
      assert.deepEqual(adjacencyDifferences(built), [], "drawing and adjacency differ");
    });

    it("gives every province one path, a shape, and its unit inside it", () => {
      for (const p of variant.map.provinces) {
        const count = g.base.split(`id="prov-${p.id}"`).length - 1;
        assert.equal(count, 1, `${p.id} appears ${count} times in the base map`);
        const pg = g.provinces[p.id];
        assert.ok(pg, `${p.id} has no geometry`);
        assert.ok(pg.path && pg.path.length > 10, `${p.id} has an empty path`);
        const index = built.ids.indexOf(p.id);
        assert.equal(built.raster.at(...pg.unit), index, `${p.id}'s unit spot lies outside it`);
        for (const [coast, at] of Object.entries(pg.coasts ?? {})) {
          assert.equal(built.raster.at(...at), index, `${p.id}/${coast}'s spot lies outside it`);
        }
        if (p.supplyCenter) assert.ok(pg.centerMark, `${p.id} is a centre without a marker`);
      }
      assert.equal(
        Object.keys(g.provinces).length,
        variant.map.provinces.length,
        "extra provinces",
      );
    });

    it("writes every name inside its province, none over another", () => {
      const named = new Set(built.labels.map((l) => l.id));
      for (const p of variant.map.provinces) {
        assert.ok(named.has(p.id), `${p.id} has no name on the map`);
      }
      for (const l of built.labels) {
        if (l.id.startsWith("_")) continue;
        // The one exception (normalNames): a name outside, led to its province by a line.
        const at = l.leader ? ([l.leader[2], l.leader[3]] as const) : ([l.x, l.y] as const);
        assert.equal(
          built.raster.at(...at),
          built.ids.indexOf(l.id),
          `${l.id}'s name "${l.text}" is outside it${l.leader ? " (its leader ends outside it)" : ""}`,
        );
      }
      for (let i = 0; i < built.labels.length; i++) {
        for (let j = i + 1; j < built.labels.length; j++) {
          const a = built.labels[i] as BuiltMap["labels"][number];
          const b = built.labels[j] as BuiltMap["labels"][number];
          assert.ok(!boxesOverlap(a, b), `the names of ${a.id} and ${b.id} overlap`);
        }
      }
    });

    if (id === "europe1935") {
      it("writes no name smaller than normal, each inside its province or led to it by a line, clear of every unit and marker", () => {
        const fs = g.fontSize ?? g.width / 100;
        const unitR = fs * 0.9;
        const markR = fs * 0.35;
        const led: string[] = [];
        for (const p of variant.map.provinces) {
          const l = built.labels.find((x) => x.id === p.id);
          assert.ok(l, `${p.id} has a name`);
          assert.ok(l.size >= fs, `${p.id}'s name "${l.text}" at ${l.size} < ${fs}`);
          assert.equal(l.minZoom, undefined, `${p.id}'s name shown at the whole map`);
          const hw = textWidth(l.text, l.size) / 2;
          const hh = l.size * 0.55;
          const index = built.ids.indexOf(p.id);
          if (l.leader) {
            led.push(p.id);
            const cell = built.raster.at(l.x, l.y);
            assert.notEqual(cell, index, `${p.id}'s led name stands outside it`);
            assert.ok(built.raster.boxIn(cell, l.x, l.y, hw, hh), `${p.id}'s name in one cell`);
            assert.equal(built.raster.at(l.leader[2], l.leader[3]), index, `${p.id}'s leader`);
            const [x1, y1] = l.leader;
            assert.ok(
              Math.abs(x1 - l.x) <= hw + 0.1 && Math.abs(y1 - l.y) <= hh + 0.1,
              `${p.id}'s leader starts at its name`,
            );
            const [, , x2, y2] = l.leader;
            for (let t = 0.05; t < 1; t += 0.05) {
              const x = x1 + (x2 - x1) * t;
              const y = y1 + (y2 - y1) * t;
              for (const m of built.labels) {
                if (m.id === l.id) continue;
                const across =
                  Math.abs(m.x - x) < textWidth(m.text, m.size) / 2 &&
                  Math.abs(m.y - y) < m.size * 0.55;
                assert.ok(!across, `${p.id}'s leader crosses ${m.id}'s name`);
              }
            }
          } else {
            assert.ok(built.raster.boxIn(index, l.x, l.y, hw, hh), `${p.id}'s name box inside it`);
          }
          for (const [q, pg] of Object.entries(g.provinces)) {
            const clear = (x: number, y: number, r: number) =>
              Math.abs(x - l.x) >= hw + r - 0.01 || Math.abs(y - l.y) >= hh + r - 0.01;
            assert.ok(clear(pg.unit[0], pg.unit[1], unitR), `${q}'s unit over ${p.id}'s name`);
            if (pg.centerMark) {
              assert.ok(
                clear(pg.centerMark[0], pg.centerMark[1], markR),
                `${q}'s centre marker over ${p.id}'s name`,
              );
            }
          }
        }
        // Led names are the last resort: the crowded centre's smallest provinces only.
        assert.ok(led.length <= 25, `${led.length} names led by a line: ${led.join(" ")}`);
        for (const p of ["rom", "apu", "nap", "mon", "gib"]) {
          assert.ok(
            built.labels.some((l) => l.id === p && l.size >= fs),
            `${p} at full size`,
          );
        }
      });
    }

    it("draws no unit over a name: every unit spot and coast spot clear of every name", () => {
      assert.deepEqual(namesUnderUnits(built), [], "names a unit would cover");
    });

    it("names in full, for a zoomed-in view, the provinces written as abbreviations", () => {
      const short = built.labels.filter(
        (l) => !l.id.startsWith("_") && l.text !== g.provinces[l.id]?.name,
      );
      const full = new Map(built.zoomLabels.map((z) => [z.id, z]));
      const missing = short.filter((l) => !full.has(l.id)).map((l) => l.text);
      // A few are too small even for the smallest size (europe1935: BAR, PIE, MON).
      assert.ok(
        missing.length <= short.length / 10,
        `${missing.length} of ${short.length} without a full name: ${missing.join(" ")}`,
      );
      for (const z of built.zoomLabels) {
        assert.equal(z.text, g.provinces[z.id]?.name, `${z.id}'s full name`);
        assert.ok(z.minZoom > 1, `${z.id} is for a zoomed-in view`);
        const drawn = `class="label zoom-name" data-province="${z.id}"`;
        assert.ok(g.base.includes(drawn), `${z.id}'s full name in the base map`);
      }
      assert.match(g.base, /class="label zoom-name"[^>]* display="none"/, "hidden in pictures");
      assert.deepEqual(zoomLabelProblems(built), [], "full names placed badly");
      assert.deepEqual(namesUnderUnits(built), [], "under a unit");
    });

    it("is cached", () => {
      assert.equal(builtMap(variant), built, "built twice");
    });
  });
}

describe("the adjacency check", () => {
  it("fails when a province is drawn in the wrong place", () => {
    const variant = getVariant("classical") as Variant;
    const spec = geometrySpec("classical") as GeometrySpec;
    // Belgium's anchors moved into Burgundy: its cell no longer touches Holland or the sea.
    const moved: GeometrySpec = {
      ...spec,
      provinces: { ...spec.provinces, bel: { land: [[5.2, 47.8]] } },
    };
    const diffs = adjacencyDifferences(buildMap(variant, moved));
    assert.ok(
      diffs.some((d) => d.startsWith("bel-hol")),
      `bel-hol not reported: ${diffs.join("; ")}`,
    );
    assert.ok(
      diffs.some((d) => d.startsWith("bel-nth")),
      `bel-nth not reported: ${diffs.join("; ")}`,
    );
  });

  it("draws and checks generated maps given as squares, and reports a stale declaration", () => {
    // Four areas on a 3 by 2 grid: a (two squares) and b over c and d; edges between neighbours.
    const edge = (to: number) => ({ to, land: true, sea: false });
    /** A land area of the grid: its squares and the areas it borders. */
    const area = (
      id: number,
      name: string,
      supply: number,
      to: number[],
      squares: [number, number][],
    ): AreaLike => ({
      id,
      name,
      kind: "land",
      supply,
      lon: 0,
      lat: 0,
      adjacency: to.map(edge),
      squares,
    });
    const areas: AreaLike[] = [
      area(
        1,
        "Aa",
        1,
        [2, 3, 4],
        [
          [0, 0],
          [1, 0],
        ],
      ),
      area(2, "Bb", 0, [1, 4], [[2, 0]]),
      area(3, "Cc", 0, [1, 4], [[0, 1]]),
      area(
        4,
        "Dd",
        0,
        [1, 2, 3],
        [
          [1, 1],
          [2, 1],
        ],
      ),
    ];
    const source = sourceOfAreas("grid", areas, [{ id: 1, name: "Red" }]);
    const spec = specOfAreas(areas, { width: 300, height: 200, fontSize: 10, square: 100 });
    const built = buildMap(source, spec);
    assert.equal(built.raster.at(150, 50), 0, "area 1 covers both its squares");
    assert.deepEqual(adjacencyDifferences(built), [], "the grid agrees with its edges");
    assert.ok(built.geometry.provinces["1"]?.centerMark, "area 1 is a centre");

    const stale = buildMap(source, {
      ...spec,
      declared: [{ between: ["2", "3"], adjacent: true, note: "not so" }],
    });
    assert.deepEqual(
      adjacencyDifferences(stale),
      ["2-3: declared adjacent without touching, which is not so"],
      "a declaration that is not needed",
    );
    const unlinked = areas.map((a) => ({
      ...a,
      adjacency: a.adjacency.filter(
        (e) => !((a.id === 2 && e.to === 4) || (a.id === 4 && e.to === 2)),
      ),
    }));
    const cut = buildMap(sourceOfAreas("grid", unlinked, []), spec);
    assert.ok(
      adjacencyDifferences(cut).includes(
        `2-4: the cells touch (${cut.touching.get("2|4")} px) but are not adjacent`,
      ),
      `a missing edge is reported: ${adjacencyDifferences(cut).join("; ")}`,
    );
  });
});
