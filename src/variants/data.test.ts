import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { checkVariantFile } from "../cli/variant-check.ts";
import { locationKey } from "../engine/map.ts";
import type { Location } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import { classical } from "./classical/index.ts";
import { classicalMapData } from "./classical/map.ts";
import { loadVariant } from "./data.ts";
import {
  POWER_FIELDS,
  PROVINCE_FIELDS,
  VARIANT_FIELDS,
  type VariantData,
  variantToData,
} from "./data-format.ts";
import { nameKey } from "./data-provinces.ts";
import { europe1935 } from "./europe1935/index.ts";

/** A variant file as the tests build and break it (plain JSON, mutable). */
interface TestProvince {
  id: string;
  name: string;
  aliases?: string[];
  kind: string;
  supplyCenter?: boolean;
  home?: string | null;
  army: string[];
  fleet: string[];
  coasts?: Record<string, string[]>;
  impassable?: boolean;
  [field: string]: unknown;
}
interface TestPower {
  id: string;
  name: string;
  adjective: string;
  letter: string;
  [field: string]: unknown;
}
interface TestVariant {
  id: string;
  name: string;
  victoryCenters: number | null;
  startPhase: string;
  powers: TestPower[];
  provinces: TestProvince[];
  startUnits: Record<string, string[]>;
  [field: string]: unknown;
}

/**
 * A small sound variant: two powers, an ocean and a gulf, three coasts (one of them split),
 * an inland centre and an impassable peak.
 */
function fixture(): TestVariant {
  return {
    id: "tiny",
    name: "Tiny",
    victoryCenters: 3,
    startPhase: "S2000M",
    powers: [
      { id: "north", name: "North", adjective: "Northern", letter: "N" },
      { id: "south", name: "South", adjective: "Southern", letter: "S" },
    ],
    provinces: [
      { id: "oce", name: "Ocean", kind: "sea", army: [], fleet: ["alp", "bet", "spl/nc"] },
      { id: "gul", name: "Gulf", kind: "sea", army: [], fleet: ["bet", "spl/sc"] },
      {
        id: "alp",
        name: "Alpha",
        aliases: ["Alphaville"],
        kind: "coast",
        supplyCenter: true,
        home: "north",
        army: ["bet", "inl"],
        fleet: ["oce", "bet"],
      },
      {
        id: "bet",
        name: "Beta",
        kind: "coast",
        supplyCenter: true,
        home: "south",
        army: ["alp", "inl", "spl"],
        fleet: ["oce", "alp", "gul", "spl/sc"],
      },
      {
        id: "spl",
        name: "Split",
        kind: "coast",
        supplyCenter: true,
        home: "south",
        army: ["bet", "inl"],
        fleet: [],
        coasts: { nc: ["oce"], sc: ["gul", "bet"] },
      },
      {
        id: "inl",
        name: "Inland",
        kind: "land",
        supplyCenter: true,
        army: ["alp", "bet", "spl"],
        fleet: [],
      },
      { id: "pk", name: "Peak", kind: "land", impassable: true, army: [], fleet: [] },
    ],
    startUnits: { north: ["F alp"], south: ["A bet", "F spl/sc"] },
  };
}

const prov = (v: TestVariant, id: string): TestProvince => {
  const p = v.provinces.find((x) => x.id === id);
  if (!p) throw new Error(`no ${id} in the fixture`);
  return p;
};

function errorsOf(json: unknown): readonly string[] {
  const r = loadVariant(json);
  assert.equal(r.ok, false, "expected the variant to be refused");
  return r.ok ? [] : r.errors;
}

/** The variant is refused, and one of its errors is exactly `message`. */
function refused(json: unknown, message: string): void {
  const errors = errorsOf(json);
  assert.ok(
    errors.includes(message),
    `expected ${JSON.stringify(message)} among:\n  ${errors.join("\n  ")}`,
  );
}

const locs = (list: readonly Location[]) => list.map(locationKey).sort();

/** Two variants have the same provinces, adjacency, powers and start. */
function assertSameVariant(a: Variant, b: Variant): void {
  assert.equal(a.id, b.id);
  assert.equal(a.victoryCenters, b.victoryCenters);
  assert.deepEqual(a.powers, b.powers);
  assert.deepEqual(a.map.provinces, b.map.provinces);
  for (const p of a.map.provinces) {
    assert.deepEqual(
      [...a.map.armyNeighbours(p.id)].sort(),
      [...b.map.armyNeighbours(p.id)].sort(),
      `army neighbours of ${p.id}`,
    );
    const places = p.coasts.length > 0 ? p.coasts : [null];
    for (const coast of places) {
      const at = { province: p.id, coast };
      assert.deepEqual(
        locs(a.map.fleetNeighbours(at)),
        locs(b.map.fleetNeighbours(at)),
        `fleet neighbours of ${locationKey(at)}`,
      );
    }
    for (const q of a.map.provinces) {
      assert.equal(a.map.armyAdjacent(p.id, q.id), b.map.armyAdjacent(p.id, q.id));
    }
  }
  assert.deepEqual(a.start.phase, b.start.phase);
  assert.deepEqual(a.start.units, b.start.units);
  assert.deepEqual([...a.start.centers].sort(), [...b.start.centers].sort());
}

describe("variant data: sound files load", () => {
  test("the fixture loads, with start centres = home centres", () => {
    const r = loadVariant(fixture());
    assert.ok(r.ok, r.ok ? "" : r.errors.join("\n"));
    const v = r.variant;
    assert.equal(v.id, "tiny");
    assert.equal(v.map.provinces.length, 7);
    assert.deepEqual(v.map.get(v.map.provinces[4]!.id).coasts, ["nc", "sc"]);
    assert.deepEqual(v.start.phase, { season: "S", year: 2000, type: "M" });
    assert.equal(v.start.units.length, 3);
    assert.deepEqual([...v.start.centers].sort(), [
      ["alp", "north"],
      ["bet", "south"],
      ["spl", "south"],
    ]);
    assert.equal(v.map.province("pk")?.kind, "land");
    assert.equal(v.map.armyNeighbours(v.map.get(v.map.provinces[6]!.id).id).length, 0);
  });

  test("the classical variant re-expressed as data loads and equals the classical map", () => {
    const startUnits: Record<string, string[]> = {};
    for (const u of classical.start.units) {
      const list = startUnits[u.power] ?? [];
      startUnits[u.power] = list;
      list.push(`${u.type} ${locationKey(u)}`);
    }
    const json: VariantData = {
      id: "classical",
      name: "Classical (1901)",
      victoryCenters: 18,
      startPhase: "S1901M",
      powers: classical.powers.map((p) => ({ ...p })),
      provinces: classicalMapData.provinces,
      startUnits,
    };
    // Through text, as a file would be read.
    const r = loadVariant(JSON.parse(JSON.stringify(json)));
    assert.ok(r.ok, r.ok ? "" : r.errors.join("\n"));
    assertSameVariant(r.variant, classical);
  });

  test("variantToData writes a variant back that loads to the same variant", () => {
    for (const v of [classical, europe1935]) {
      const r = loadVariant(JSON.parse(JSON.stringify(variantToData(v))));
      assert.ok(r.ok, r.ok ? "" : r.errors.join("\n"));
      assertSameVariant(r.variant, v);
    }
  });

  test("optional fields: $schema, description, aliases, supplyCenter, home", () => {
    const v = fixture();
    v.$schema = "../docs/variant.schema.json";
    v.description = "A test.";
    prov(v, "oce").aliases = ["Big Water"];
    assert.ok(loadVariant(v).ok);
  });
});

describe("variant data: each kind of error has its message", () => {
  test("not an object", () => {
    refused([], "(top): a variant is a JSON object, not []");
  });

  test("unknown and missing fields, at each level", () => {
    const v = fixture();
    v.colour = "blue";
    v.powers[0]!.flag = "x";
    prov(v, "alp").flet = [];
    refused(v, `colour: unknown field (known: ${VARIANT_FIELDS.join(", ")})`);
    refused(v, `powers[0].flag: unknown field (known: ${POWER_FIELDS.join(", ")})`);
    refused(v, `provinces[2].flet: unknown field (known: ${PROVINCE_FIELDS.join(", ")})`);
    const w = fixture();
    delete (w as Partial<TestVariant>).victoryCenters;
    delete (w.provinces[0] as Partial<TestProvince>).fleet;
    refused(w, "victoryCenters: is required");
    refused(w, "provinces[0].fleet: is required");
  });

  test("a neighbour that is not a province, or not the right kind", () => {
    const v = fixture();
    prov(v, "bet").army.push("bur");
    prov(v, "alp").army.push("oce");
    prov(v, "alp").fleet.push("inl");
    prov(v, "oce").fleet.push("xyz/nc");
    refused(v, 'provinces[3].army[3]: "bur" is not a province');
    refused(v, 'provinces[2].army[2]: "oce" is a sea: armies cannot go there');
    refused(v, 'provinces[2].fleet[2]: "inl" is inland: fleets cannot go there');
    refused(v, 'provinces[0].fleet[3]: "xyz" is not a province');
  });

  test("neighbour lists: self, repeats, impassable, wrong kind of province", () => {
    const v = fixture();
    prov(v, "alp").army.push("alp", "bet");
    prov(v, "inl").army.push("pk");
    prov(v, "oce").army = ["alp"];
    prov(v, "inl").fleet = ["oce"];
    refused(v, "provinces[2].army[2]: a province is not its own neighbour");
    refused(v, 'provinces[2].army[3]: "bet" is listed twice');
    refused(v, 'provinces[5].army[3]: "pk" is impassable');
    refused(v, "provinces[0].army: a sea has no army neighbours: leave it empty");
    refused(v, "provinces[5].fleet: an inland province has no fleet moves: leave it empty");
  });

  test("coasts: a split province needs the coast named, and only its own coasts", () => {
    const v = fixture();
    prov(v, "oce").fleet[2] = "spl";
    prov(v, "gul").fleet[1] = "spl/ec";
    prov(v, "alp").fleet.push("bet/nc");
    refused(v, 'provinces[0].fleet[2]: "spl" has coasts: write "spl/nc" or "spl/sc"');
    refused(v, 'provinces[1].fleet[1]: Split has no "ec" coast (it has nc, sc)');
    refused(v, 'provinces[2].fleet[2]: "bet" has no separate coasts: write "bet"');
    const w = fixture();
    prov(w, "spl").coasts = { nc: ["oce"], xc: [] };
    prov(w, "spl").fleet = ["gul"];
    refused(w, 'provinces[4].coasts.xc: "xc" is not a coast: use nc, sc, ec or wc');
    refused(
      w,
      'provinces[4].fleet: a province with coasts lists its fleet moves under "coasts", so "fleet" must be empty',
    );
    const x = fixture();
    prov(x, "spl").coasts = { nc: ["oce"] };
    refused(
      x,
      'provinces[4].coasts: a province with one coast lists its fleet moves under "fleet" (coasts are for two or more)',
    );
  });

  test("asymmetric adjacency: GameMap's problems are passed through", () => {
    const v = fixture();
    prov(v, "alp").army = ["inl"];
    prov(v, "gul").fleet = ["bet"];
    refused(v, "adjacency: army edge bet-alp is not symmetric");
    refused(v, "adjacency: fleet edge spl/sc-gul is not symmetric");
  });

  test("duplicate province ids, bad ids, and spellings shared between provinces", () => {
    const v = fixture();
    v.provinces.push({ id: "alp", name: "Alpine", kind: "land", army: [], fleet: [] });
    refused(v, 'provinces[7].id: "alp" is already the id of provinces[2]');
    const w = fixture();
    prov(w, "inl").aliases = ["alphaville", "Beta", "to"];
    prov(w, "pk").id = "Peak1";
    refused(w, 'provinces[5].aliases[0]: "alphaville" already names provinces[2] ("alp")');
    refused(w, 'provinces[5].aliases[1]: "Beta" already names provinces[3] ("bet")');
    refused(w, 'provinces[5].aliases[2]: "to" is an order word and cannot name a province');
    refused(
      w,
      'provinces[6].id: "Peak1" must be 2 to 4 lower-case letters (a-z): positions write units as "A pea"',
    );
  });

  test("bad kinds, supply centres and impassable land", () => {
    const v = fixture();
    prov(v, "inl").kind = "mountain";
    prov(v, "oce").supplyCenter = true;
    prov(v, "pk").army = ["inl"];
    refused(v, 'provinces[5].kind: "mountain" is not a kind: use "land", "sea" or "coast"');
    refused(v, "provinces[0].supplyCenter: a sea cannot be a supply centre");
    refused(
      v,
      "provinces[6]: an impassable province has no neighbours: leave army and fleet empty",
    );
    const w = fixture();
    delete prov(w, "pk").impassable;
    prov(w, "alp").fleet = [];
    prov(w, "oce").fleet = ["bet", "spl/nc"];
    refused(
      w,
      'provinces[6].army: an inland province with no neighbours cannot be entered: give it neighbours, or mark it "impassable": true',
    );
    refused(
      w,
      'provinces[2].fleet: a coastal province with no fleet moves is inland: make it "land"',
    );
  });

  test("home centres: of a known power, and supply centres", () => {
    const v = fixture();
    prov(v, "alp").home = "prussia";
    prov(v, "inl").home = "north";
    delete prov(v, "inl").supplyCenter;
    refused(v, 'provinces[2].home: "prussia" is not a power (powers: north, south)');
    refused(v, 'provinces[5].home: a home centre must be a supply centre ("supplyCenter": true)');
  });

  test("powers: duplicate ids, duplicate or bad letters, no home centres", () => {
    const v = fixture();
    v.powers.push({ id: "north", name: "Nord", adjective: "Nordic", letter: "X" });
    v.powers.push({ id: "east", name: "East", adjective: "Eastern", letter: "S" });
    v.powers.push({ id: "west", name: "West", adjective: "Western", letter: "We" });
    refused(v, 'powers[2].id: "north" is already the id of powers[0]');
    refused(v, 'powers[3].letter: "S" is already the letter of powers[1]');
    refused(v, 'powers[4].letter: "We" must be one capital letter (A-Z)');
    const w = fixture();
    w.powers.push({ id: "east", name: "East", adjective: "Eastern", letter: "E" });
    refused(w, 'powers[2]: "east" has no home centres');
  });

  test("start units on illegal places, or two in one province", () => {
    const v = fixture();
    v.startUnits = {
      north: ["A oce", "F inl", "F spl", "A Beta"],
      south: ["A xyz", "F alp", "F bet/nc", "A pk"],
    };
    refused(v, 'startUnits.north[0]: "A oce": an army cannot stand in Ocean (a sea)');
    refused(v, 'startUnits.north[1]: "F inl": a fleet cannot stand in Inland (inland)');
    refused(
      v,
      'startUnits.north[2]: "F spl": a fleet in Split needs its coast: "F spl/nc" or "F spl/sc"',
    );
    refused(v, 'startUnits.north[3]: "A Beta": write TYPE ID[/COAST], e.g. "A par" or "F stp/sc"');
    refused(v, 'startUnits.south[0]: "xyz" is not a province');
    refused(v, 'startUnits.south[2]: "F bet/nc": Beta has no separate coasts; write "F bet"');
    refused(v, 'startUnits.south[3]: "A pk": Peak is impassable');
  });

  test("two units in one province; more units than home centres; unknown power", () => {
    const v = fixture();
    v.startUnits = { north: ["F alp", "A alp"], south: ["A bet", "F spl/sc", "A inl"], east: [] };
    refused(
      v,
      'startUnits.north[1]: "A alp": alp already holds a unit (startUnits.north[0] "F alp")',
    );
    refused(v, "startUnits.north: 2 units but only 1 home centre");
    refused(v, "startUnits.south: 3 units but only 2 home centres");
    refused(v, 'startUnits.east: "east" is not a power (powers: north, south)');
  });

  test("victory centres and the start phase", () => {
    const v = fixture();
    v.victoryCenters = 9;
    v.startPhase = "Spring 2000";
    refused(v, "victoryCenters: 9 is more than the 4 supply centres of the map");
    refused(v, 'startPhase: "Spring 2000" is not a phase: write e.g. "S1901M" or "W1900A"');
    const w = fixture();
    w.victoryCenters = 1.5;
    w.startPhase = "F2000R";
    refused(w, "victoryCenters: must be a whole number of centres, at least 1, not 1.5");
    refused(w, 'startPhase: "F2000R": a game cannot start with retreats');
  });

  test("victoryCenters null: no number of centres wins; loaded and written back", () => {
    const v = fixture();
    v.victoryCenters = null;
    const r = loadVariant(v);
    assert.ok(r.ok, r.ok ? "" : r.errors.join("\n"));
    assert.equal(r.variant.victoryCenters, null, "no centre victory");
    assert.equal(variantToData(r.variant).victoryCenters, null, "written back as null");
  });

  test("rule defaults: known options with allowed values, loaded onto the variant and written back", () => {
    const v = fixture();
    v.rules = { moveWithoutCoast: "required", unitType: "strict" };
    const r = loadVariant(v);
    assert.ok(r.ok, r.ok ? "" : r.errors.join("\n"));
    assert.deepEqual(
      r.variant.rules,
      { moveWithoutCoast: "required", unitType: "strict" },
      "rules",
    );
    assert.deepEqual(variantToData(r.variant).rules, v.rules, "written back");
    assert.equal(europe1935.rules?.moveWithoutCoast, "required", "europe1935's default");
    assert.equal(classical.rules, undefined, "classical has none");
    v.rules = { moveWithoutCoast: "always", colour: "red" };
    refused(
      v,
      'rules.moveWithoutCoast: cannot be "always"; use one of "fail", "default", "required"',
    );
    assert.ok(
      errorsOf(v).some((e) =>
        e.startsWith("rules.colour: unknown rule option (known: multiRouteConvoy"),
      ),
      errorsOf(v).join("\n"),
    );
    v.rules = "datc";
    refused(v, 'rules: must be an object of rule options, not "datc"');
  });

  test("all problems are reported at once", () => {
    const v = fixture();
    prov(v, "bet").army.push("bur");
    v.powers[1]!.letter = "N";
    v.startUnits.north = ["A oce"];
    assert.equal(errorsOf(v).length, 3);
  });
});

describe("nameKey: spellings compared as the order reader sees them", () => {
  test("case, periods and spacing do not count", () => {
    assert.equal(nameKey("St. Petersburg"), nameKey("st  petersburg"));
    assert.equal(nameKey("Mid-Atlantic"), "mid - atlantic");
    assert.notEqual(nameKey("Prussia"), nameKey("East Prussia"));
  });
});

describe("the published schema", () => {
  const schema = JSON.parse(
    readFileSync(new URL("../../docs/variant.schema.json", import.meta.url), "utf8"),
  ) as {
    properties: Record<string, unknown>;
    required: string[];
    $defs: Record<string, { properties: Record<string, unknown>; required: string[] }>;
  };

  test("lists exactly the fields the loader knows, at each level", () => {
    assert.deepEqual(Object.keys(schema.properties).sort(), [...VARIANT_FIELDS].sort());
    assert.deepEqual(Object.keys(schema.$defs.power!.properties).sort(), [...POWER_FIELDS].sort());
    assert.deepEqual(
      Object.keys(schema.$defs.province!.properties).sort(),
      [...PROVINCE_FIELDS].sort(),
    );
  });

  test("the variant files in the tree name it", () => {
    const file = new URL("./europe1935/europe1935.json", import.meta.url);
    const json = JSON.parse(readFileSync(file, "utf8")) as { $schema: string };
    assert.equal(
      new URL(json.$schema, file).href,
      new URL("../../docs/variant.schema.json", import.meta.url).href,
    );
  });
});

describe("checkVariantFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "entente-variant-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("a sound file: a summary of powers, provinces by kind and centres", () => {
    const path = join(dir, "tiny.json");
    writeFileSync(path, JSON.stringify(fixture()));
    const r = checkVariantFile(path);
    assert.equal(r.ok, true, r.report);
    assert.match(r.report, /variant "tiny" \(Tiny\) is valid/);
    assert.match(r.report, /provinces: 7: 2 inland, 3 coastal, 2 sea; impassable: pk/);
    assert.match(r.report, /split coasts: spl \(nc, sc\)/);
    assert.match(r.report, /supply centres: 4: 3 home, 1 neutral \(inl\)/);
    assert.match(r.report, /N North \(north, Northern\): home alp; start F alp/);
    assert.match(r.report, /S South \(south, Southern\): home bet, spl; start A bet, F spl\/sc/);
  });

  test("the europe1935 file checks clean", () => {
    const r = checkVariantFile(new URL("./europe1935/europe1935.json", import.meta.url).pathname);
    assert.equal(r.ok, true, r.report);
    assert.match(r.report, /provinces: 135: 30 inland, 72 coastal, 33 sea; impassable: swi/);
    assert.match(r.report, /supply centres: 60: 45 home, 15 neutral/);
  });

  test("a file with problems lists them, with paths", () => {
    const v = fixture();
    prov(v, "bet").army.push("bur");
    const path = join(dir, "bad.json");
    writeFileSync(path, JSON.stringify(v));
    const r = checkVariantFile(path);
    assert.equal(r.ok, false);
    assert.match(
      r.report,
      /bad\.json: 1 problem\n {2}provinces\[3\]\.army\[3\]: "bur" is not a province\n/,
    );
  });

  test("unreadable files and broken JSON", () => {
    const missing = checkVariantFile(join(dir, "nope.json"));
    assert.equal(missing.ok, false);
    assert.match(missing.report, /nope\.json: cannot read the file/);
    const path = join(dir, "broken.json");
    writeFileSync(path, "{ not json");
    const broken = checkVariantFile(path);
    assert.equal(broken.ok, false);
    assert.match(broken.report, /broken\.json: not valid JSON/);
  });
});
