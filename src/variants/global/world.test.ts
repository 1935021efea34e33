import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { validateMap } from "./map.ts";
import type { MapData } from "./types.ts";
import { worldData, worldMap } from "./world.ts";

describe("the world map", () => {
  test("is sound: symmetric edges, crossings, starts within supply", () => {
    assert.deepEqual(validateMap(worldData), [], "no errors");
  });

  test("the validator catches a one-sided edge and a start over supply", () => {
    const areas = worldData.areas.map((a) =>
      a.id === 1 ? { ...a, adjacency: [...a.adjacency, { to: 2, land: true, sea: false }] } : a,
    );
    const bad: MapData = { ...worldData, areas };
    assert.ok(
      validateMap(bad).some((e) => e.includes("1-2")),
      "asymmetry found",
    );
    const powers = worldData.powers.map((p) =>
      p.id === 3 ? { ...p, units: [...p.units, { area: 2, kind: "army" as const }] } : p,
    );
    assert.ok(
      validateMap({ ...worldData, powers }).some((e) => e.includes("supply")),
      "over supply found",
    );
  });

  test("about 250 numbered areas, seas numbered after land", () => {
    const ids = worldData.areas.map((a) => a.id);
    assert.deepEqual(
      ids,
      Array.from({ length: 250 }, (_, i) => i + 1),
      "1 to 250",
    );
    const lastLand = Math.max(...worldData.areas.filter((a) => a.kind !== "sea").map((a) => a.id));
    const firstSea = Math.min(...worldData.areas.filter((a) => a.kind === "sea").map((a) => a.id));
    assert.ok(lastLand < firstSea, "every sea after every land area");
  });

  test("five regions, each linked to another, every area reachable", () => {
    assert.deepEqual(
      [...new Set(worldData.areas.map((a) => a.region))].sort(),
      ["africa", "asia", "europe", "north-america", "south-america"],
      "the five maps",
    );
    for (const region of worldData.regions) {
      const out = worldData.areas.some(
        (a) =>
          a.region === region && a.adjacency.some((e) => worldMap.area(e.to)!.region !== region),
      );
      assert.ok(out, `${region} links to another region`);
    }
    const seen = new Set([1]);
    const queue = [1];
    while (queue.length > 0) {
      for (const n of worldMap.neighbours(queue.pop()!)) {
        if (!seen.has(n)) {
          seen.add(n);
          queue.push(n);
        }
      }
    }
    assert.equal(seen.size, 250, "connected");
    for (const a of worldData.areas) {
      assert.ok(Math.abs(a.lat) <= 90 && Math.abs(a.lon) <= 180, `${a.id} anchor on the globe`);
    }
  });

  test("the seed's numbers and names", () => {
    const names: Record<number, string> = {
      3: "Edinburgh",
      7: "London",
      17: "Picardy",
      18: "Paris",
      20: "Belgium",
      21: "Burgundy",
      90: "Siam",
      91: "Malay States",
      92: "Cochin",
      148: "Mexico",
      245: "Bay of Bengal",
    };
    for (const [id, name] of Object.entries(names)) {
      assert.equal(worldMap.area(Number(id))?.name, name, `${id} is ${name}`);
    }
    assert.equal(worldMap.area(7)!.capital, 3, "London is England's capital");
    assert.equal(worldMap.area(3)!.supply, 2, "Edinburgh is a 2-point centre");
    assert.equal(worldMap.area(148)!.supply, 1, "Mexico is a 1-point centre");
    assert.deepEqual(
      worldData.powers.map((p) => `${p.id} ${p.name}`),
      [
        "1 Austria-Hungary",
        "2 China",
        "3 England",
        "4 France",
        "5 Germany",
        "6 Italy",
        "7 Japan",
        "8 Ottoman Empire",
        "9 Russia",
        "10 Spain-Portugal",
        "11 United States",
      ],
      "the eleven powers in the seed's order",
    );
    for (const p of worldData.powers) {
      assert.equal(worldMap.area(p.capital!)!.capital, p.id, `${p.name} has its capital`);
    }
  });

  test("3.0: naval units pass 90-91 by the Bay of Bengal but not 90-92", () => {
    assert.ok(worldMap.canCross("fleet", 90, 91), "Siam to Malay States by sea");
    assert.ok(!worldMap.canCross("fleet", 90, 92), "not Siam to Cochin by sea");
    assert.ok(worldMap.canCross("army", 90, 92), "but by land");
    assert.ok(!worldMap.canCross("army", 7, 233), "armies do not enter seas");
    assert.ok(!worldMap.canCross("fleet", 17, 18), "fleets do not enter inland areas");
  });

  test("5.0: the corps at 41, 29 and 45 all border neutral 42", () => {
    for (const a of [41, 29, 45]) assert.ok(worldMap.adjacent(a, 42), `${a} borders 42`);
    const start = (p: number) =>
      worldData.powers.find((x) => x.id === p)!.units.map((u) => `${u.kind} ${u.area}`);
    assert.ok(start(1).includes("corps 41"), "Austria's corps at 41");
    assert.ok(start(5).includes("corps 29"), "Germany's corps at 29");
    assert.ok(start(9).includes("corps 45"), "Russia's corps at 45");
    assert.ok(start(10).includes("corps 11"), "Spain's corps at 11 (5.5)");
  });
});
