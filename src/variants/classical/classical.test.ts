import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { GameMap, type MapData, MapDataError } from "../../engine/map.ts";
import {
  type Coast,
  type Location,
  type ProvinceId,
  powerId,
  provinceId,
} from "../../engine/types.ts";
import { getVariant, variantIds } from "../registry.ts";
import { classical } from "./index.ts";
import { classicalMapData } from "./map.ts";

const map = classical.map;
const at = (key: string): Location => {
  const [p, c] = key.split("/");
  return { province: provinceId(p!), coast: (c ?? null) as Coast | null };
};
const fleet = (a: string, b: string) => map.fleetAdjacent(at(a), at(b));
const army = (a: string, b: string) => map.armyAdjacent(provinceId(a), provinceId(b));
const ids = (list: readonly { id: ProvinceId }[]) => list.map((p) => p.id as string).sort();

describe("classical map", () => {
  test("builds without map data errors", () => {
    assert.doesNotThrow(() => new GameMap(classicalMapData));
  });

  test("has 75 provinces: 19 seas, 14 inland, 42 coastal", () => {
    assert.equal(map.provinces.length, 75);
    const kinds = (k: string) => map.provinces.filter((p) => p.kind === k);
    assert.equal(kinds("sea").length, 19);
    assert.equal(kinds("coast").length, 42);
    assert.deepEqual(
      ids(kinds("land")),
      "boh bud bur gal mos mun par ruh ser sil tyr ukr vie war".split(" "),
    );
    assert.deepEqual(
      ids(kinds("sea")),
      "adr aeg bal bar bla bot eas eng hel ion iri lyo mao nao nth nwg ska tys wes".split(" "),
    );
    assert.equal(map.province("swi"), undefined);
  });

  test("has 34 supply centres, 22 of them home centres with the right owners", () => {
    assert.equal(map.supplyCenters.length, 34);
    const homes: Record<string, string> = {
      austria: "bud tri vie",
      england: "edi lon lvp",
      france: "bre mar par",
      germany: "ber kie mun",
      italy: "nap rom ven",
      russia: "mos sev stp war",
      turkey: "ank con smy",
    };
    for (const [power, centres] of Object.entries(homes)) {
      assert.deepEqual(ids(map.homeCenters(powerId(power))), centres.split(" "), power);
    }
    const neutral = map.supplyCenters.filter((p) => p.home === null);
    assert.deepEqual(ids(neutral), "bel bul den gre hol nwy por rum ser spa swe tun".split(" "));
    assert.equal(map.provinces.filter((p) => p.home !== null).length, 22);
  });

  test("split coasts: spa, stp, bul and no others", () => {
    const split = map.provinces.filter((p) => p.coasts.length > 0);
    assert.deepEqual(ids(split), ["bul", "spa", "stp"]);
    assert.deepEqual([...map.get(provinceId("spa")).coasts].sort(), ["nc", "sc"]);
    assert.deepEqual([...map.get(provinceId("stp")).coasts].sort(), ["nc", "sc"]);
    assert.deepEqual([...map.get(provinceId("bul")).coasts].sort(), ["ec", "sc"]);
  });

  test("fleets on split coasts reach exactly their coast's neighbours", () => {
    const expected: Record<string, string[]> = {
      "spa/nc": ["gas", "mao", "por"],
      "spa/sc": ["lyo", "mao", "mar", "por", "wes"],
      "stp/nc": ["bar", "nwy"],
      "stp/sc": ["bot", "fin", "lvn"],
      "bul/ec": ["bla", "con", "rum"],
      "bul/sc": ["aeg", "con", "gre"],
    };
    for (const [from, to] of Object.entries(expected)) {
      const got = map.fleetNeighbours(at(from)).map((l) => l.province as string);
      assert.deepEqual(got.sort(), to, from);
    }
  });

  test("a fleet in a split-coast province needs the coast", () => {
    for (const p of ["spa", "stp", "bul"]) {
      const locs = map.locationsFor("F", provinceId(p));
      assert.equal(locs.length, 2, p);
      assert.ok(
        locs.every((l) => l.coast !== null),
        p,
      );
      assert.deepEqual(map.locationsFor("A", provinceId(p)), [{ province: p, coast: null }]);
    }
    assert.equal(map.fleetNeighbours(at("spa")).length, 0);
    assert.equal(fleet("mao", "spa"), false);
    assert.ok(fleet("mao", "spa/nc"));
    assert.ok(fleet("mao", "spa/sc"));
    assert.deepEqual(map.fleetTargets(at("gas"), provinceId("spa")), [at("spa/nc")]);
    assert.deepEqual(map.fleetTargets(at("con"), provinceId("bul")).length, 2);
  });

  test("Kiel, Constantinople and Denmark let fleets pass", () => {
    assert.ok(fleet("hel", "kie") && fleet("kie", "bal"));
    assert.ok(fleet("bla", "con") && fleet("con", "aeg"));
    assert.ok(fleet("nth", "den") && fleet("den", "bal"));
    assert.ok(fleet("ska", "den") && fleet("hel", "den"));
    const names = (from: string) =>
      map
        .fleetNeighbours(at(from))
        .map((l) => (l.coast ? `${l.province}/${l.coast}` : l.province))
        .sort();
    assert.deepEqual(names("kie"), ["bal", "ber", "den", "hel", "hol"]);
    assert.deepEqual(names("con"), ["aeg", "ank", "bla", "bul/ec", "bul/sc", "smy"]);
    assert.deepEqual(names("den"), ["bal", "hel", "kie", "nth", "ska", "swe"]);
    assert.equal(fleet("nth", "bal"), false);
    assert.equal(fleet("bla", "aeg"), false);
  });

  test("well-known adjacencies and non-adjacencies", () => {
    assert.equal(fleet("rom", "ven"), false);
    assert.ok(army("rom", "ven"));
    assert.equal(army("lvp", "iri"), false);
    assert.ok(fleet("lvp", "iri"));
    assert.ok(army("lvp", "edi"));
    assert.equal(fleet("lvp", "edi"), false);
    assert.ok(fleet("ven", "tri"));
    assert.ok(army("pie", "ven"));
    assert.equal(fleet("pie", "ven"), false);
    assert.equal(fleet("spa/nc", "lyo"), false);
    assert.equal(fleet("stp/sc", "bar"), false);
    assert.ok(army("nap", "apu"));
    assert.equal(fleet("kie", "mun"), false);
    assert.ok(army("kie", "mun"));
    assert.equal(army("nth", "lon"), false);
    assert.equal(fleet("bur", "mar"), false);
    assert.ok(army("den", "swe") && fleet("den", "swe"));
    assert.ok(army("naf", "tun"));
    assert.equal(army("bre", "lon"), false);
  });

  test("every fleet edge joins places a fleet can stand and every army edge land", () => {
    for (const p of map.provinces) {
      for (const q of map.armyNeighbours(p.id)) {
        assert.notEqual(map.get(q).kind, "sea");
        assert.ok(army(q, p.id), `${q}-${p.id}`);
      }
      for (const from of map.locationsFor("F", p.id)) {
        for (const to of map.fleetNeighbours(from)) {
          assert.ok(map.fleetAdjacent(to, from), `${to.province}-${from.province}`);
        }
      }
    }
  });

  test("asymmetric map data is rejected", () => {
    const bad: MapData = {
      provinces: [
        { id: "aaa", name: "A", kind: "coast", army: ["bbb"], fleet: ["sss"] },
        { id: "bbb", name: "B", kind: "coast", army: [], fleet: [] },
        { id: "sss", name: "S", kind: "sea", army: [], fleet: ["aaa"] },
      ],
    };
    assert.throws(() => new GameMap(bad), MapDataError);
    try {
      new GameMap(bad);
    } catch (e) {
      assert.ok(e instanceof MapDataError);
      assert.deepEqual(e.problems, ["army edge aaa-bbb is not symmetric"]);
    }
  });

  test("every name and alias resolves to exactly one province", () => {
    const owner = new Map<string, string>();
    for (const p of map.provinces) owner.set(p.id, p.id);
    for (const p of map.provinces) {
      for (const name of new Set([p.name, ...p.aliases].map((s) => s.toLowerCase()))) {
        const prev = owner.get(name);
        assert.ok(prev === undefined || prev === p.id, `${name}: ${prev} and ${p.id}`);
        owner.set(name, p.id);
      }
    }
    const want: Record<string, string> = {
      "mid-atlantic ocean": "mao",
      mid: "mao",
      mat: "mao",
      "gulf of lyons": "lyo",
      gol: "lyo",
      nrg: "nwg",
      nat: "nao",
      ech: "eng",
      "st. petersburg": "stp",
      "helgoland bight": "hel",
      tyn: "tys",
      lvo: "lvn",
      nor: "nwy",
      denmark: "den",
    };
    for (const [alias, id] of Object.entries(want)) assert.equal(owner.get(alias), id, alias);
  });
});

describe("classical variant", () => {
  test("has seven powers with unique letters", () => {
    assert.equal(classical.id, "classical");
    assert.equal(classical.name, "Classical (1901)");
    assert.equal(classical.victoryCenters, 18);
    assert.deepEqual(
      classical.powers.map((p) => p.id),
      ["austria", "england", "france", "germany", "italy", "russia", "turkey"],
    );
    assert.equal(classical.powers.map((p) => p.letter).join(""), "AEFGIRT");
    assert.deepEqual(
      classical.powers.map((p) => p.adjective),
      ["Austrian", "English", "French", "German", "Italian", "Russian", "Turkish"],
    );
  });

  test("starts in Spring 1901 with 22 units on legal locations", () => {
    const { start } = classical;
    assert.deepEqual(start.phase, { season: "S", year: 1901, type: "M" });
    assert.equal(start.units.length, 22);
    assert.deepEqual(start.dislodged, []);
    assert.deepEqual(start.contested, []);
    for (const power of classical.powers) {
      const n = start.units.filter((u) => u.power === power.id).length;
      assert.equal(n, power.id === "russia" ? 4 : 3, power.id);
    }
    for (const u of start.units) {
      const legal = map.locationsFor(u.type, u.province);
      assert.ok(
        legal.some((l) => l.province === u.province && l.coast === u.coast),
        `${u.type} ${u.province}/${u.coast}`,
      );
      assert.equal(map.get(u.province).home, u.power, `${u.province} is a home of ${u.power}`);
    }
    const stp = start.units.find((u) => u.province === "stp");
    assert.deepEqual(stp, { power: "russia", type: "F", province: "stp", coast: "sc" });
    const occupied = new Set(start.units.map((u) => u.province));
    assert.equal(occupied.size, 22);
  });

  test("home centres start owned by their powers, neutral centres unowned", () => {
    const { centers } = classical.start;
    assert.equal(centers.size, 22);
    for (const p of map.supplyCenters) assert.equal(centers.get(p.id), p.home ?? undefined, p.id);
  });
});

describe("variant registry", () => {
  test("finds classical by id", () => {
    assert.equal(getVariant("classical"), classical);
    assert.equal(getVariant("nope"), undefined);
    assert.ok(variantIds().includes("classical"));
  });
});
