import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runSync } from "../testing/children.ts";
import { discoveryMap } from "../variants/discovery/index.ts";
import { areaName } from "../variants/discovery/names.ts";
import { worldMap } from "../variants/global/world.ts";
import { adjacencyDifferences, namesUnderUnits, zoomLabelProblems } from "./check.ts";
import {
  discoveryBuilt,
  discoveryMapFor,
  discoveryStart,
  drawDiscovery,
  drawWorld,
  FamilyRenderError,
  renderFamily,
  windowStart,
  worldMapBuilt,
} from "./families.ts";
import type { BuiltMap } from "./geometry-spec.ts";
import { textWidth } from "./places.ts";
import { hasMap, sendMap } from "./serve.ts";
import { BIN, scratchDir } from "./testing.ts";

/*
 * Global Diplomacy's world and Age of Discovery's generated maps (docs/maps.md): the world's
 * cells agree with its adjacency but for the declared list, every area has a shape, a unit
 * spot and a label inside it, no labels overlap; a player's generated map holds only what that
 * player knows, in its own names; the CLI writes SVG and PNG.
 */

type Label = BuiltMap["labels"][number];
function boxesOverlap(a: Label, b: Label): boolean {
  const hw = (l: Label) => textWidth(l.text, l.size) / 2;
  const hh = (l: Label) => l.size * 0.55;
  return Math.abs(a.x - b.x) < hw(a) + hw(b) - 0.01 && Math.abs(a.y - b.y) < hh(a) + hh(b) - 0.01;
}

function shapesAndLabels(built: BuiltMap, ids: readonly string[]): void {
  const g = built.geometry;
  const named = new Map(built.labels.map((l) => [l.id, l]));
  for (const id of ids) {
    const pg = g.provinces[id];
    assert.ok(pg?.path && pg.path.length > 10, `${id} has no shape`);
    const count = g.base.split(`id="prov-${id}"`).length - 1;
    assert.equal(count, 1, `${id} appears ${count} times in the base map`);
    const index = built.ids.indexOf(id);
    assert.equal(built.raster.at(...pg.unit), index, `${id}'s unit spot lies outside it`);
    const l = named.get(id);
    assert.ok(l, `${id} has no label`);
    assert.ok(l.text.startsWith(id), `${id}'s label "${l.text}" does not start with its number`);
    if (built.raster.at(l.x, l.y) !== index) {
      // A tiny island (Hawaii, the Falklands at world scale): its bare number beside its unit.
      const pixels = built.raster.cell.reduce((n, c) => n + (c === index + 1 ? 1 : 0), 0);
      const near = Math.hypot(l.x - pg.unit[0], l.y - pg.unit[1]) < l.size * 4;
      assert.ok(
        l.text === id && pixels < 300 && near,
        `${id}'s label "${l.text}" is outside it (${pixels} px)`,
      );
    }
  }
  for (let i = 0; i < built.labels.length; i++) {
    for (let j = i + 1; j < built.labels.length; j++) {
      const a = built.labels[i] as Label;
      const b = built.labels[j] as Label;
      assert.ok(!boxesOverlap(a, b), `the labels of ${a.id} and ${b.id} overlap`);
    }
  }
}

describe("the Global Diplomacy world map", () => {
  const built = worldMapBuilt();
  const ids = worldMap.areas.map((a) => String(a.id));

  it("agrees with the adjacency, but for the declared differences, each with a reason", () => {
    assert.deepEqual(adjacencyDifferences(built), [], "drawing and adjacency differ");
    const declared = built.spec.declared ?? [];
    assert.ok(
      declared.length <= 55,
      `more declared differences than the reviewed 55: ${declared.length}`,
    );
    for (const d of declared) {
      assert.ok(d.note.length > 30, `${d.between.join("-")} is declared without a reason`);
    }
  });

  it("gives all 250 areas a shape, a unit spot and a numbered label inside, none overlapping", () => {
    assert.equal(ids.length, 250, "the world has 250 areas");
    shapesAndLabels(built, ids);
    const full = built.labels.filter((l) => /^\d+ \S/.test(l.text)).length;
    assert.ok(full >= 140, `only ${full} areas are named in full`);
  });

  it("draws no unit over a label: every area's unit spot clear of every label", () => {
    assert.deepEqual(namesUnderUnits(built), [], "labels a unit would cover");
  });

  it("names in full, for a zoomed-in view, most areas that show only their number", () => {
    const numbers = built.labels.filter((l) => /^\d+$/.test(l.text));
    const full = new Map(built.zoomLabels.map((z) => [z.id, z]));
    const named = numbers.filter((l) => full.has(l.id));
    assert.ok(
      named.length >= numbers.length * 0.8,
      `only ${named.length} of ${numbers.length} numbers get their full name`,
    );
    // Europe's small areas among them: Belgium, Holland, London, Rome, Vienna, Berlin.
    for (const id of ["20", "19", "7", "33", "39", "26"]) {
      const z = full.get(id);
      const area = worldMap.areas.find((a) => String(a.id) === id);
      assert.equal(z?.text, `${id} ${area?.name}`, `${id}'s full name`);
      const own = built.labels.find((l) => l.id === id);
      assert.equal(own?.text, id, `${id} shows its number at the whole map`);
      assert.equal(own?.maxZoom, z?.minZoom, `${id}'s number gives way to its name`);
    }
    // Thresholds a zooming client reaches (zoom.ts goes to 1.25 × the highest).
    for (const z of built.zoomLabels)
      assert.ok(z.minZoom > 1 && z.minZoom < 40, `${z.id}: ${z.minZoom}`);
    assert.deepEqual(zoomLabelProblems(built), [], "full names placed badly");
  });

  it("is a world projection: the Americas west of Europe, Asia east, Australia south-east", () => {
    const at = (id: number) => built.geometry.provinces[String(id)]!.unit;
    assert.ok(at(144)[0] < at(7)[0] && at(7)[0] < at(113)[0], "New York, London, Tokyo");
    assert.ok(at(124)[1] > at(113)[1] && at(159)[1] > at(144)[1], "the southern hemisphere");
    assert.ok(built.geometry.width / built.geometry.height > 1.8, "the whole globe's width");
  });

  it("draws centres by value, capitals, owners' colours and the family's unit letters", () => {
    const svg = drawWorld({
      turn: 3,
      owners: { "17": 4, "18": 4, "7": 3 },
      units: { "3": ["F 233", "S 231"], "4": ["A 18", "C 17"] },
    });
    assert.equal(svg.match(/class="capital"/g)?.length, 11, "eleven capitals");
    const twos = worldMap.areas.filter((a) => a.supply === 2).length;
    assert.equal(svg.match(/class="sc2"/g)?.length, twos, "a ring per 2-point centre");
    assert.equal(svg.match(/class="unit"/g)?.length, 4, "four units");
    for (const l of ["F", "S", "A", "C"]) {
      assert.match(svg, new RegExp(`font-weight="bold"[^>]*>${l}</text>`), `a unit lettered ${l}`);
    }
    assert.match(svg, /data-phase="turn 3"/, "the turn");
    assert.equal(svg.match(/class="owner"/g)?.length, 3, "three owned areas tinted");
  });

  it("rejects a bad position with a clear message", () => {
    assert.throws(
      () => renderFamily({ variant: "global", position: { units: { "3": ["X 7"] } } }),
      (e: unknown) => e instanceof FamilyRenderError && /is not a unit/.test(e.message),
      "a bad unit",
    );
  });
});

describe("Age of Discovery's generated maps", () => {
  const position = discoveryStart(5, 9);
  const { map } = discoveryMap(5, 9);

  it("draws a player's known world in one piece, framed on it, as its report's window wraps", () => {
    assert.equal(windowStart([0, 1, 8, 9], 10), 8, "a window across the edge starts at 8");
    assert.equal(windowStart([3, 4, 6], 10), 3, "after the longest gap");
    assert.equal(windowStart([], 10), 0, "nothing held");
    for (let p = 1; p <= 9; p++) {
      const own = discoveryMapFor(position, p);
      assert.ok(own.frame, `player ${p}'s map is framed`);
      const [x, y, w, hgt] = own.frame;
      assert.ok(
        w <= own.geometry.width / 2 && hgt <= own.geometry.height / 2,
        `${p}: ${own.frame}`,
      );
      for (const [id, g] of Object.entries(own.geometry.provinces)) {
        const [ux, uy] = g.unit;
        assert.ok(ux >= x && ux <= x + w && uy >= y && uy <= y + hgt, `${p}: ${id} in the frame`);
      }
    }
    assert.equal(discoveryMapFor(position, null).frame, null, "the GM's map is whole");
  });

  it("draws the whole map for the moderator, every area from its squares", () => {
    const built = discoveryBuilt(position);
    assert.deepEqual(adjacencyDifferences(built), [], "drawing and adjacency differ");
    assert.equal(Object.keys(built.geometry.provinces).length, map.areas.length, "all areas");
    shapesAndLabels(
      built,
      map.areas.map((a) => String(a.id)),
    );
    assert.equal(built.geometry.width, (map.width + 1) * 24, "24 units a square, and a margin");
  });

  it("draws for a player only the areas it knows, named in its own frame", () => {
    const player = 3;
    const built = discoveryBuilt(position, player);
    const drawn = Object.keys(built.geometry.provinces).map(Number);
    const start = map.starts[player - 1]!;
    for (const a of start.areas) assert.ok(drawn.includes(a), `its own area ${a} is drawn`);
    // Known: its areas and units' areas and what borders them; nothing else.
    const seen = new Set<number>(start.areas);
    for (const u of start.units) seen.add(u.area);
    for (const a of [...seen]) for (const n of map.areas[a - 1]!.neighbours) seen.add(n);
    assert.deepEqual(
      drawn.sort((x, y) => x - y),
      [...seen].sort((x, y) => x - y),
      "exactly the areas the player knows",
    );
    assert.ok(drawn.length < map.areas.length / 3, "far from the whole map");
    for (const id of drawn) {
      const name = `${id} ${areaName(map, player, id)}`;
      assert.equal(built.geometry.provinces[String(id)]!.name, name, `${id} in P's names`);
    }
    const other = areaName(map, 1, drawn[0]!);
    const mine = areaName(map, player, drawn[0]!);
    assert.notEqual(other, mine, "another player's names differ");
    shapesAndLabels(
      built,
      drawn.map((d) => String(d)),
    );
    const svg = drawDiscovery(position, player);
    for (const m of svg.matchAll(/data-province="(\d+)"/g)) {
      assert.ok(seen.has(Number(m[1])), `area ${m[1]} is drawn, which the player does not know`);
    }
    for (const u of svg.match(/data-location="(\d+)"/g) ?? []) {
      const id = Number(/\d+/.exec(u)![0]);
      assert.ok(seen.has(id), `a unit in ${id}, which the player does not see`);
    }
    assert.doesNotMatch(svg, /<title>\d+<\/title>/, "no bare moderator names in a player's map");
  });

  it("refuses a player the map does not have", () => {
    assert.throws(
      () => renderFamily({ variant: "discovery", seed: "5", players: "9", player: "12" }),
      (e: unknown) => e instanceof FamilyRenderError && /players 1 to 9/.test(e.message),
      "player 12 of 9",
    );
  });
});

describe("the legend's counts in a family's picture", () => {
  const counts = (svg: string) =>
    new Map(
      [
        ...svg.matchAll(
          /<g class="legend-power" data-power="(\d+)"[^>]*>.*?class="legend-count"[^>]*>([^<]*)</g,
        ),
      ].map((m) => [m[1]!, m[2]!]),
    );
  it("the world: supply centres (areas with supply value) and points, every power balanced", () => {
    const legend = counts(drawWorld({}, { legend: true }));
    assert.equal(legend.size, worldMap.powers.length, "every power counted");
    // England owns seven areas, four of them centres: never "7 centres".
    assert.equal(legend.get("3"), "4 centres (6 points), 3 units (6 points)");
    for (const [p, text] of legend) {
      const m = /\((\d+) points?\), .* \((\d+) points?\)$/.exec(text);
      assert.ok(m && m[1] === m[2], `${p} starts with as many supply as unit points: ${text}`);
    }
  });
  it("a discovery player's own map: its realm counted, every other realm unknown, not 0", () => {
    const position = discoveryStart(4, 9);
    const legend = counts(drawDiscovery(position, 2, { legend: true }));
    assert.match(legend.get("2") ?? "", /^\d+ centres? \(\d+ points?\), \d+ units? /);
    const others = [...legend].filter(([p]) => p !== "2");
    assert.equal(others.length, 8, "the eight other realms are listed");
    for (const [p, text] of others) assert.equal(text, "unknown", `realm ${p}`);
    const moderator = counts(drawDiscovery(position, undefined, { legend: true }));
    assert.ok(
      [...moderator.values()].every((t) => t !== "unknown" && !/^0 centres, 0 units/.test(t)),
      "the moderator's whole map knows every realm",
    );
  });
});

describe("bin/entente render for the families", () => {
  const dir = scratchDir("entente-families-");

  it("draws the world from a position as SVG", () => {
    const pos = join(dir, "world.json");
    writeFileSync(pos, JSON.stringify({ variant: "global", units: { "3": ["F 233"] } }));
    const svg = join(dir, "world.svg");
    const r = runSync(BIN, ["render", "--variant", "global", "--position", pos, "--out", svg], {
      encoding: "utf8",
    });
    assert.equal(r.status, 0, `render failed: ${r.stderr}`);
    assert.match(r.stdout, /global turn 1, 1 units/, "what it drew");
    assert.equal(readFileSync(svg, "utf8").match(/class="unit"/g)?.length, 1, "one unit");
  });

  it("draws a player's generated map as PNG, and says what is wrong with bad arguments", () => {
    const png = join(dir, "p3.png");
    const r = runSync(
      BIN,
      ["render", "--variant", "discovery", "--seed", "5", "--players", "9", "--player", "3"].concat(
        ["--out", png],
      ),
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, `render failed: ${r.stderr}`);
    assert.match(r.stdout, /as player 3 knows it/, "whose view");
    assert.equal(readFileSync(png).subarray(1, 4).toString(), "PNG", "a PNG file");
    // Without --seed (or --position), the default seed's map, and it says which.
    const dflt = runSync(
      BIN,
      ["render", "--variant", "discovery", "--players", "9", "--out", join(dir, "x.svg")],
      { encoding: "utf8" },
    );
    assert.equal(dflt.status, 0, `drawn with the default seed: ${dflt.stderr}`);
    assert.match(dflt.stdout, /map seed 1, the default; choose another with --seed S/, "says so");
    const bad = runSync(
      BIN,
      ["render", "--variant", "discovery", "--players", "9", "--player", "12"].concat([
        "--out",
        join(dir, "x.svg"),
      ]),
      { encoding: "utf8" },
    );
    assert.equal(bad.status, 2, "a usage error");
    assert.match(bad.stderr, /no player 12: this map has players 1 to 9/, bad.stderr);
  });
});

describe("the map routes for the families", () => {
  it("serve the world's geometry and start; no whole map of a generated game", async () => {
    assert.equal(hasMap("global"), true, "the world has a map");
    assert.equal(hasMap("discovery"), false, "no public map of a generated game");
    const server = createServer((req, res) => {
      const what = req.url === "/geometry" ? "geometry" : "start";
      sendMap("global", what, req, res);
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const g = (await (await fetch(`${base}/geometry`)).json()) as { provinces: object };
      assert.equal(Object.keys(g.provinces).length, 250, "250 areas");
      const svg = await (await fetch(`${base}/start`)).text();
      assert.equal(svg.match(/class="unit"/g)?.length, 43, "the 43 starting units");
    } finally {
      server.close();
    }
  });
});
