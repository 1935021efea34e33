/*
 * europe1935's map (the Historical Committee board, docs/committee.md): registered and sound,
 * its provinces, coasts, adjacency, names and start as the seed gives them, and its data
 * file. The seed's examples adjudicated on it are in examples.test.ts.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { GameMap } from "../../engine/map.ts";
import { findPlace } from "../../engine/parse.ts";
import { writePosition } from "../../engine/position-json.ts";
import { type ProvinceId, powerId } from "../../engine/types.ts";
import { variantToData } from "../data-format.ts";
import { getVariant, variantIds } from "../registry.ts";
import { europe1935 } from "./index.ts";
import { army, fleet, fleetNeighbours, ids, pid, run } from "./testing.ts";

const v = europe1935;
const map = v.map;

/** The seed's table of start units (Historical Committee rules, "Starting Positions"). */
const SEED_START: Record<string, string[]> = {
  uk: ["F lon", "A edi", "F ire", "F gib", "A egy"],
  france: ["A par", "F bri", "A lyo", "A syr", "F fna"],
  italy: ["F rom", "F nap", "A ven", "A mil", "F lib"],
  germany: ["F ham", "A mns", "A ber", "A fra", "A mun"],
  ussr: ["A mos", "F mur", "A stp", "A sib", "F ros"],
  turkey: ["F ank", "A ada", "F izm", "A ist", "F ant"],
  yugoslavia: ["A ser", "A bos", "F cro", "F mon", "A mac"],
  spain: ["A mad", "A bar", "F nav", "A sev", "F and"],
  poland: ["A pod", "A sil", "F pru", "A kra", "A wbe"],
};

const NEUTRAL = "aus bel bul cze den fin gre hol hun irn mor nwy por rum swe".split(" ");

describe("europe1935: the map", () => {
  test("is registered and builds without map data errors", () => {
    assert.ok(variantIds().includes("europe1935"));
    assert.equal(getVariant("europe1935"), v);
    assert.doesNotThrow(() => new GameMap(variantToData(v)));
    assert.equal(v.name, "Europe 1935");
  });

  test("has nine powers with distinct letters", () => {
    assert.deepEqual(
      v.powers.map((p) => p.id),
      ["uk", "france", "italy", "germany", "ussr", "turkey", "yugoslavia", "spain", "poland"],
    );
    assert.equal(new Set(v.powers.map((p) => p.letter)).size, 9);
    assert.deepEqual(
      v.powers.map((p) => p.name),
      [
        "United Kingdom",
        "France",
        "Italy",
        "Germany",
        "USSR",
        "Turkey",
        "Yugoslavia",
        "Spain",
        "Poland",
      ],
    );
  });

  test("three province types: 135 provinces, 30 inland, 72 coastal, 33 seas", () => {
    const kinds = (k: string) => map.provinces.filter((p) => p.kind === k);
    assert.equal(map.provinces.length, 135);
    assert.equal(kinds("land").length, 30);
    assert.equal(kinds("coast").length, 72);
    assert.equal(kinds("sea").length, 33);
  });

  test("60 supply centres: 45 home centres, 5 per power, and 15 neutral", () => {
    assert.equal(map.supplyCenters.length, 60);
    for (const [power, units] of Object.entries(SEED_START)) {
      const homes = units.map((u) => u.slice(2)).sort();
      assert.deepEqual(ids(map.homeCenters(powerId(power))), homes, power);
    }
    assert.equal(map.provinces.filter((p) => p.home !== null).length, 45);
    assert.deepEqual(ids(map.supplyCenters.filter((p) => p.home === null)), NEUTRAL);
  });

  test("no number of centres wins: a Germany with 32 of 60 centres is no winner and plays on", () => {
    const germany =
      "ber fra ham mns mun bel den nwy swe fin cze aus hun rum bul gre irn mor por par lyo bri syr fna rom nap ven mil lib lon edi".split(
        " ",
      );
    const r = run({
      phase: "F1940M",
      units: { germany: ["A hol", "A ber"] },
      centers: { germany },
      orders: { germany: ["A ber H"] },
    });
    assert.equal(r.next.centers?.germany?.length, 32, "Holland taken: 32 centres");
    assert.equal(r.winner, undefined, "no winner reported");
    assert.equal(r.next.phase, "W1940A", "the game goes on to the adjustments");
  });

  test("starts Spring 1935 with the seed's units and types, each on its home centre", () => {
    assert.deepEqual(v.start.phase, { season: "S", year: 1935, type: "M" });
    // The committee is won on victory points: no number of centres wins or ends the game.
    assert.equal(v.victoryCenters, null);
    const start = writePosition(v, v.start);
    assert.deepEqual(start.units, SEED_START);
    assert.equal(v.start.units.length, 45);
    assert.equal(v.start.units.filter((u) => u.type === "F").length, 19);
    for (const u of v.start.units) assert.equal(map.get(u.province).home, u.power);
    assert.deepEqual(
      Object.fromEntries(Object.entries(start.centers ?? {}).map(([p, cs]) => [p, [...cs].sort()])),
      Object.fromEntries(
        Object.entries(SEED_START).map(([p, us]) => [p, us.map((u) => u.slice(2)).sort()]),
      ),
    );
  });

  test("every fleet of the seed's table starts on a coastal province", () => {
    const coastal =
      "and ank ant bri cro fna gib ham ire izm lib lon mon mur nap nav pru rom ros".split(" ");
    const fleets = v.start.units.filter((u) => u.type === "F").map((u) => u.province as string);
    assert.deepEqual(fleets.sort(), coastal);
    for (const p of coastal) assert.equal(map.get(pid(p)).kind, "coast", p);
    // The seed's own examples of coastal provinces.
    for (const p of ["bri", "nwy", "yor"]) assert.equal(map.get(pid(p)).kind, "coast", p);
  });

  test("Iran is the only province with two coasts: nc on the Caspian, sc on the Gulf", () => {
    assert.deepEqual(ids(map.provinces.filter((p) => p.coasts.length > 0)), ["irn"]);
    assert.deepEqual([...map.get(pid("irn")).coasts], ["nc", "sc"]);
    assert.deepEqual(fleetNeighbours("irn/nc"), ["aze", "cas", "tks"]);
    assert.deepEqual(fleetNeighbours("irn/sc"), ["arb", "irq", "per"]);
    assert.ok(map.get(pid("irn")).supplyCenter);
  });

  test("canals: Hamburg (Kiel), Wolga and Egypt (Nile) have one coast joining two waters", () => {
    for (const p of ["ham", "wol", "egy"]) {
      assert.equal(map.get(pid(p)).kind, "coast");
      assert.deepEqual([...map.get(pid(p)).coasts], []);
    }
    // Kiel canal: Hamburg touches the Heligoland Bight and the Bornholm Sea (the Baltic).
    assert.ok(fleet("ham", "hel") && fleet("ham", "bhm"));
    assert.ok(fleet("hol", "ham") && fleet("ham", "ber"));
    // Nile (Suez): Egypt touches the Eastern Mediterranean and the Red Sea.
    assert.ok(fleet("eme", "egy") && fleet("egy", "red"));
    // Don and Volga: Eastern Black Sea - Rostov - Wolga - Caspian, no shorter way by water.
    assert.ok(fleet("ebs", "ros") && fleet("ros", "wol") && fleet("wol", "cas"));
    assert.ok(!fleet("ebs", "wol") && !fleet("ros", "cas") && !fleet("ebs", "cas"));
    // Kiel and Nile are names players may use.
    assert.equal(findPlace("Kiel", map)?.province, "ham");
    assert.equal(findPlace("Nile", map)?.province, "egy");
    assert.equal(findPlace("Volga", map)?.province, "wol");
  });

  test("no province but a canal joins the Black Sea and the Caspian, or the Mediterranean and the Red Sea", () => {
    const touches = (p: string, seas: string[]) => seas.some((s) => fleet(p, s));
    const black = ["wbs", "ebs"];
    const med = ["aln", "wes", "gol", "lig", "tys", "sic", "ion", "adr", "aeg", "lbs", "eme"];
    for (const p of map.provinces) {
      if (p.kind !== "coast" || p.coasts.length > 0) continue;
      assert.ok(!(touches(p.id, black) && touches(p.id, ["cas"])), p.id);
      if (p.id !== "egy") assert.ok(!(touches(p.id, med) && touches(p.id, ["red"])), p.id);
    }
  });

  test("Sweden and Denmark: adjacent for armies and fleets; Bornholm not next to the Skagerrak", () => {
    assert.ok(army("swe", "den") && army("den", "swe"));
    assert.ok(fleet("swe", "den") && fleet("den", "swe"));
    assert.ok(!fleet("bhm", "ska") && !fleet("ska", "bhm"));
    for (const p of ["swe", "den"]) assert.ok(fleet(p, "bhm") && fleet(p, "ska"), p);
    assert.ok(!army("den", "ber") && !fleet("den", "ber"));
  });

  test("Switzerland is impassable: on the map, with no neighbours", () => {
    const swi = map.get(pid("swi"));
    assert.equal(swi.kind, "land");
    assert.equal(swi.supplyCenter, false);
    assert.deepEqual(map.armyNeighbours(pid("swi")), []);
    for (const p of map.provinces) assert.ok(!army(p.id, "swi"), p.id);
  });

  test("islands cannot be entered, except Britain and Ireland", () => {
    for (const island of ["Sicily", "Sardinia", "Corsica", "Crete", "Cyprus", "Malta", "Iceland"])
      assert.equal(findPlace(island, map), null, island);
    for (const p of ["lon", "edi", "cly", "yor", "lvp", "wal", "ire"])
      assert.ok(map.locationsFor("A", pid(p)).length > 0, p);
    // Ireland is a province of its own, reached by sea only.
    assert.deepEqual(map.armyNeighbours(pid("ire")), []);
    assert.deepEqual(fleetNeighbours("ire"), ["iri", "nao"]);
  });

  test("fleets follow coastlines: coast-to-coast fleet moves are also army moves and share a sea", () => {
    const seas = (p: ProvinceId) =>
      (map.get(p).coasts.length > 0 ? map.get(p).coasts : [null]).flatMap((c) =>
        map
          .fleetNeighbours({ province: p, coast: c })
          .filter((l) => map.get(l.province).kind === "sea")
          .map((l) => l.province as string),
      );
    for (const p of map.provinces) {
      if (p.kind === "sea") {
        assert.deepEqual(map.armyNeighbours(p.id), [], p.id);
        continue;
      }
      if (p.kind === "coast") assert.ok(seas(p.id).length > 0, `${p.id} touches no sea`);
      for (const l of map.fleetNeighbours({ province: p.id, coast: p.coasts[0] ?? null })) {
        if (map.get(l.province).kind !== "coast") continue;
        assert.ok(army(p.id, l.province), `${p.id}-${l.province}`);
        const shared = seas(p.id).filter((s) => seas(l.province).includes(s));
        // The Don-Volga waterway is the one coastline without a shared sea.
        if (!(p.id === "ros" && l.province === "wol") && !(p.id === "wol" && l.province === "ros"))
          assert.ok(shared.length > 0, `${p.id}-${l.province} share no sea`);
      }
    }
  });

  test("every province but Switzerland can be reached from every other", () => {
    const seen = new Set<string>(["lon"]);
    const queue: string[] = ["lon"];
    while (queue.length > 0) {
      const p = queue.pop()!;
      const prov = map.get(pid(p));
      const next = [
        ...map.armyNeighbours(prov.id),
        ...(prov.coasts.length > 0 ? prov.coasts : [null]).flatMap((c) =>
          map.fleetNeighbours({ province: prov.id, coast: c }).map((l) => l.province),
        ),
      ];
      for (const n of next) {
        if (seen.has(n)) continue;
        seen.add(n);
        queue.push(n);
      }
    }
    assert.deepEqual(
      map.provinces.filter((p) => !seen.has(p.id)).map((p) => p.id),
      ["swi"],
    );
  });

  test("the seed's abbreviations and names resolve to provinces", () => {
    const names: Record<string, string> = {
      Cas: "cas",
      Irn: "irn",
      Per: "per",
      Eme: "eme",
      Egy: "egy",
      Par: "par",
      Bri: "bri",
      Lon: "lon",
      Bor: "bor",
      Pic: "pic",
      Eng: "eng",
      Swe: "swe",
      Bal: "bal",
      Sil: "sil",
      Cze: "cze",
      Kra: "kra",
      Sax: "sax",
      Kie: "ham",
      Kiel: "ham",
      Wolga: "wol",
      Nile: "egy",
      Bornholm: "bhm",
      Skagerrak: "ska",
      Switzerland: "swi",
      Bohemia: "cze",
      Czechia: "cze",
      "Eastern Black Sea": "ebs",
      "Caspian Sea": "cas",
      "Persian Gulf": "per",
      "Red Sea": "red",
      "Eastern Mediterranean": "eme",
      "French north Africa": "fna",
      "Western Belarus": "wbe",
      "St. Petersburg": "stp",
      Münster: "mns",
      Silisia: "sil",
      Silesia: "sil",
      Sevilla: "sev",
      Navarra: "nav",
      Andorra: "and",
      Montenegro: "mon",
      Podolia: "pod",
      Prussia: "pru",
      Krakow: "kra",
      Yorkshire: "yor",
      Norway: "nwy",
      Brittany: "bri",
      Holland: "hol",
      Hamburg: "ham",
      Berlin: "ber",
      Denmark: "den",
      Sweden: "swe",
      Iran: "irn",
      Egypt: "egy",
    };
    for (const [name, id] of Object.entries(names))
      assert.equal(findPlace(name, map)?.province, id, name);
    assert.deepEqual(findPlace("Irn NC", map), { province: "irn", coast: "nc" });
    assert.deepEqual(findPlace("Irn SC", map), { province: "irn", coast: "sc" });
  });
});
