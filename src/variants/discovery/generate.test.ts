import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { GlobalMap, validateMap } from "../global/map.ts";
import {
  areaDistances,
  areaOf,
  armyNeighbours,
  type DiscoveryMap,
  distances,
  landDistances,
  navalNeighbours,
} from "./areas.ts";
import {
  fairnessViolations,
  MAX_CONTESTED_SPREAD,
  MIN_HOME_DISTANCE,
  measureFairness,
  OWN_NEUTRALS,
} from "./fairness.ts";
import { GenerateError, generateMap, MAX_AREA_ID } from "./generate.ts";
import { coordinates, neighbours, squareAt } from "./grid.ts";
import { toMapData } from "./mapdata.ts";

const maps = new Map<string, DiscoveryMap>();
function map(seed: number, players: number): DiscoveryMap {
  const k = `${seed}/${players}`;
  let m = maps.get(k);
  if (!m) {
    m = generateMap({ seed, players });
    maps.set(k, m);
  }
  return m;
}

describe("discovery map generator", () => {
  it("gives the same map for the same seed and different maps for different seeds", () => {
    const a = map(7, 9);
    const b = generateMap({ seed: 7, players: 9 });
    assert.deepEqual(b, a, "same seed and players, same map");
    const c = map(8, 9);
    assert.notDeepEqual(c.squareArea, a.squareArea, "another seed, another layout");
    const terrainA = a.squareArea.map((id) => areaOf(a, id).terrain === "water");
    const terrainC = c.squareArea.map((id) => areaOf(c, id).terrain === "water");
    assert.notDeepEqual(terrainC, terrainA, "another seed, other land and sea");
  });

  it("refuses player counts outside 9-20 and bad seeds, saying what is allowed", () => {
    for (const players of [8, 21, 9.5]) {
      assert.throws(
        () => generateMap({ seed: 1, players }),
        (e: unknown) => e instanceof GenerateError && /9 to 20 players/.test(e.message),
        `${players} players refused`,
      );
    }
    assert.throws(
      () => generateMap({ seed: -1, players: 9 }),
      (e: unknown) => e instanceof GenerateError && /0 to 4294967295/.test(e.message),
      "a negative seed refused",
    );
  });

  it("partitions every square into connected areas of one to three squares of one kind", () => {
    for (const m of [map(7, 9), map(3, 20)]) {
      const seen = new Set<number>();
      for (const a of m.areas) {
        assert.ok(a.squares.length >= 1 && a.squares.length <= 3, `area ${a.id} has 1-3 squares`);
        for (const s of a.squares) {
          assert.ok(!seen.has(s), `square ${s} in one area only`);
          seen.add(s);
          assert.equal(m.squareArea[s], a.id, `square ${s} points back to area ${a.id}`);
        }
        const inArea = new Set(a.squares);
        const reached = distances([a.squares[0]!], (s) =>
          neighbours(m, s).filter((n) => inArea.has(n)),
        );
        assert.equal(reached.size, a.squares.length, `area ${a.id} is connected`);
      }
      assert.equal(seen.size, m.width * m.height, "every square belongs to an area");
      assert.ok(m.areas.length <= MAX_AREA_ID, "area ids stay below 1000 (XXYY is four digits)");
    }
  });

  it("numbers land and coast before water, and makes a coast exactly what touches water", () => {
    const m = map(7, 9);
    const firstWater = m.areas.findIndex((a) => a.terrain === "water");
    assert.ok(firstWater > 0, "there is land and water");
    assert.ok(
      m.areas.slice(firstWater).every((a) => a.terrain === "water"),
      "all water after the land",
    );
    for (const a of m.areas) {
      if (a.terrain === "water") continue;
      const touches = a.neighbours.some((n) => areaOf(m, n).terrain === "water");
      assert.equal(a.terrain === "coast", touches, `area ${a.id}: coast iff it borders water`);
    }
  });

  it("has symmetric adjacency that wraps east-west and north-south", () => {
    const m = map(3, 14);
    for (const a of m.areas) {
      for (const n of a.neighbours) {
        assert.ok(areaOf(m, n).neighbours.includes(a.id), `${a.id}-${n} written both ways`);
      }
      for (const n of navalNeighbours(m, a.id)) {
        assert.ok(navalNeighbours(m, n).includes(a.id), `naval ${a.id}-${n} both ways`);
      }
      for (const n of armyNeighbours(m, a.id)) {
        assert.ok(armyNeighbours(m, n).includes(a.id), `army ${a.id}-${n} both ways`);
      }
    }
    let wrapsX = 0;
    let wrapsY = 0;
    for (let y = 0; y < m.height; y++) {
      const east = m.squareArea[squareAt(m, m.width - 1, y)]!;
      const west = m.squareArea[squareAt(m, 0, y)]!;
      assert.ok(east === west || areaOf(m, east).neighbours.includes(west), `row ${y} wraps`);
      if (east !== west) wrapsX++;
    }
    for (let x = 0; x < m.width; x++) {
      const south = m.squareArea[squareAt(m, x, m.height - 1)]!;
      const north = m.squareArea[squareAt(m, x, 0)]!;
      assert.ok(
        south === north || areaOf(m, south).neighbours.includes(north),
        `column ${x} wraps`,
      );
      if (south !== north) wrapsY++;
    }
    assert.ok(wrapsX > 0 && wrapsY > 0, "some borders cross the map's edges");
    assert.deepEqual(
      coordinates(m, squareAt(m, -1, -1)),
      { x: m.width - 1, y: m.height - 1 },
      "squareAt wraps",
    );
  });

  it("lets fleets between coasts only along a shared sea, and never inland", () => {
    const m = map(7, 9);
    for (const a of m.areas) {
      const naval = navalNeighbours(m, a.id);
      if (a.terrain === "land") assert.equal(naval.length, 0, `no fleet enters inland ${a.id}`);
      for (const n of naval) {
        const b = areaOf(m, n);
        assert.notEqual(b.terrain, "land", `fleet from ${a.id} not into inland ${n}`);
        if (a.terrain === "coast" && b.terrain === "coast") {
          const seas = a.neighbours.filter((x) => areaOf(m, x).terrain === "water");
          assert.ok(
            seas.some((s) => b.neighbours.includes(s)),
            `coasts ${a.id} and ${n} share a sea`,
          );
        }
      }
    }
  });

  it("reaches every area from every home by army, fleet or convoy", () => {
    for (const m of [map(7, 9), map(3, 20)]) {
      const both = (id: number): number[] => [...armyNeighbours(m, id), ...navalNeighbours(m, id)];
      for (const s of m.starts) {
        assert.equal(
          distances(s.areas, both).size,
          m.areas.length,
          `all reachable from ${s.player}`,
        );
      }
      // Every land mass has a coast, so an army can be convoyed to it.
      const landMass = new Set<number>();
      for (const a of m.areas) {
        if (a.terrain === "water" || landMass.has(a.id)) continue;
        const mass = distances([a.id], (id) => armyNeighbours(m, id));
        for (const id of mass.keys()) landMass.add(id);
        assert.ok(
          [...mass.keys()].some((id) => areaOf(m, id).terrain === "coast"),
          `the land mass of ${a.id} has a coast`,
        );
      }
    }
  });

  it("is valid Global Diplomacy map data", () => {
    for (const m of [map(7, 9), map(3, 20)]) {
      const data = toMapData(m);
      assert.deepEqual(validateMap(data), [], "validateMap finds nothing wrong");
      const g = new GlobalMap(data);
      assert.equal(g.powers.length, m.players, "one power per player");
      assert.equal(data.spies, 12, "twelve spies");
      assert.deepEqual(data.percentRange, [900, 1500], "percentage 900-1500");
      assert.ok(
        g.powers.every((p) => p.capital === undefined) &&
          g.areas.every((a) => a.capital === undefined),
        "no capitals",
      );
      const sq = data.areas.reduce((n, a) => n + (a.squares?.length ?? 0), 0);
      assert.equal(sq, m.width * m.height, "the squares are exported with the areas");
    }
  });
});

describe("fair starts", () => {
  for (const players of [9, 14, 20]) {
    it(`are fair for ${players} players`, () => {
      for (const seed of [1, 2]) {
        const m = map(seed, players);
        const report = measureFairness(m);
        assert.deepEqual(fairnessViolations(report), [], `seed ${seed}: no fairness violation`);
        assert.equal(m.starts.length, players, "one start per player");
        const owned = m.starts.flatMap((s) => s.areas);
        assert.equal(new Set(owned).size, owned.length, "no area in two starts");
        const centres = m.areas.filter((a) => a.supply > 0);
        assert.ok(
          centres.every((a) => a.terrain !== "water"),
          "supply centres are on land",
        );
        assert.ok(
          centres.some((a) => a.supply === 1),
          "1-point centres exist",
        );
        assert.ok(
          centres.some((a) => a.supply === 2),
          "2-point centres exist",
        );
        // Home and own centres, then two contested per player and some more.
        assert.ok(centres.length >= players * (2 + OWN_NEUTRALS.length + 2), "enough centres");
        for (const p of report.players) {
          assert.equal(p.startSupply, 3, `player ${p.player}: 3 supply points`);
          assert.equal(p.startUnitPoints, 2, `player ${p.player}: 2 unit points`);
          assert.deepEqual(p.ownNeutrals, OWN_NEUTRALS, `player ${p.player}: own neutrals`);
          assert.equal(p.tiedNearNeutrals, 0, `player ${p.player}: no shared near centre`);
          const home = areaOf(m, m.starts[p.player - 1]!.areas[0]!);
          assert.ok(
            home.terrain === "coast" && home.supply === 2,
            "home is a coastal 2-point centre",
          );
        }
        assert.ok(report.minHomeDistance >= MIN_HOME_DISTANCE, "homes are far apart");
        const nearest = report.players.map((p) => p.nearestContested);
        assert.ok(
          Math.max(...nearest) - Math.min(...nearest) <= MAX_CONTESTED_SPREAD,
          "contested centres about as near",
        );
        for (const s of m.starts) {
          const d = areaDistances(m, [s.areas[0]!]);
          for (const t of m.starts) {
            if (t !== s) assert.ok((d.get(t.areas[0]!) ?? 0) >= MIN_HOME_DISTANCE, "spacing");
          }
        }
      }
    });
  }

  it("are measured: a map made unfair is caught", () => {
    const m = map(1, 9);
    const own = m.areas.find(
      (a) =>
        a.supply === 1 &&
        !m.starts.some((s) => s.areas.includes(a.id)) &&
        measureFairness(m).players[0]!.ownNeutrals.length === 3 &&
        landDistances(m, m.starts[0]!.areas).get(a.id) === 1,
    );
    assert.ok(own, "player 1 has a 1-point own centre");
    const richer: DiscoveryMap = {
      ...m,
      areas: m.areas.map((a) => (a.id === own.id ? { ...a, supply: 2 } : a)),
    };
    assert.ok(
      fairnessViolations(measureFairness(richer)).some((v) =>
        v.startsWith("player 1 has own neutrals"),
      ),
      "an extra point near one home is a violation",
    );
    const crowded: DiscoveryMap = {
      ...m,
      starts: m.starts.map((s, i) =>
        i === 1
          ? { ...s, areas: [armyNeighbours(m, m.starts[0]!.areas[0]!)[0]!, ...s.areas.slice(1)] }
          : s,
      ),
    };
    assert.ok(
      fairnessViolations(measureFairness(crowded)).some((v) => v.startsWith("two homes")),
      "homes side by side are a violation",
    );
  });
});
