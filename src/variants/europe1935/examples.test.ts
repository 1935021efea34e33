/*
 * The seed's examples (Historical Committee rules) adjudicated on this map through the
 * public contract: its movement examples, and its resolution examples.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ResultJson } from "../../engine/position-json.ts";
import { europe1935 } from "./index.ts";
import {
  army,
  expect,
  fleet,
  fleetNeighbours,
  outcome,
  pid,
  run,
  then,
  unitsOf,
} from "./testing.ts";

const map = europe1935.map;

/** A unit of `power`'s alone on the board, ordered `text`: the order's result is `result`. */
function lone(power: string, unit: string, text: string, result: string): ResultJson {
  const r = run({ units: { [power]: [unit] }, orders: { [power]: [text] } });
  expect(r, power, text, result);
  return r;
}

describe("europe1935: the seed's movement examples", () => {
  test('"A Paris-Brittany (or) A Par-Bri"', () => {
    for (const text of ["A Paris-Brittany", "A Par-Bri"]) {
      const r = run({ orders: { france: [text, "F Bri-Eng"] } });
      expect(r, "france", text, "succeeds");
      assert.ok(unitsOf(r, "france").includes("A bri"));
    }
  });

  test('"A Par Holds", "F London Holds"', () => {
    const r = run({ orders: { france: ["A Par Holds"], uk: ["F London Holds"] } });
    expect(r, "france", "A Par Holds", "succeeds");
    expect(r, "uk", "F London Holds", "succeeds");
  });

  test('"F Lon-Holds" is a hold', () => {
    const r = run({ orders: { uk: ["F Lon-Holds"] } });
    expect(r, "uk", "F Lon-Holds", "succeeds");
    assert.equal(outcome(r, "uk", "F Lon-Holds").order, "F lon H");
  });

  test("army movement: an army in Paris moves to any neighbouring land province", () => {
    assert.deepEqual([...map.armyNeighbours(pid("par"))].sort(), [
      "als",
      "bel",
      "bor",
      "bri",
      "lyo",
      "pic",
    ]);
    lone("france", "A par", "A Par-Pic", "succeeds");
    lone("france", "A bri", "A Bri-Eng", "invalid");
  });

  test("fleet movement: a fleet in the English Channel (Diagram 2)", () => {
    assert.deepEqual(fleetNeighbours("eng"), [
      "bel",
      "bri",
      "iri",
      "lon",
      "mao",
      "nth",
      "pic",
      "wal",
    ]);
    lone("uk", "F eng", "F English Channel - Belgium", "succeeds");
  });

  test("a fleet in Rome moves along the coast to Tuscany or Naples, not to Venice or Apulia", () => {
    for (const to of ["Tus", "Nap", "Tyrrhenian Sea"]) {
      lone("italy", "F rom", `F Rom-${to}`, "succeeds");
    }
    for (const to of ["Ven", "Apu"]) {
      lone("italy", "F rom", `F Rom-${to}`, "invalid");
    }
    lone("italy", "A rom", "A Rom-Apu", "succeeds");
  });

  test("Switzerland is impassable and cannot be occupied", () => {
    const r = run({
      units: { italy: ["A mil"], germany: ["A mun"], france: ["A lyo"] },
      orders: { italy: ["A Mil-Swi"], germany: ["A Munich-Switzerland"], france: ["A Lyo-Swi"] },
    });
    expect(r, "italy", "A Mil-Swi", "invalid");
    expect(r, "germany", "A Munich-Switzerland", "invalid");
    expect(r, "france", "A Lyo-Swi", "invalid");
  });

  test("islands cannot be occupied, except Britain and Ireland", () => {
    lone("italy", "F tys", "F Tys-Sicily", "invalid");
    const ire = run({
      units: { uk: ["A wal", "F iri"] },
      orders: { uk: ["A Wal-Ire", "F Iri C A Wal-Ire"] },
    });
    expect(ire, "uk", "A Wal-Ire", "succeeds");
    assert.ok(unitsOf(ire, "uk").includes("A ire"));
  });

  test('Iran: "F Cas–Irn NC" and "F Per–Irn SC"', () => {
    const r = run({
      units: { ussr: ["F cas"], uk: ["F per"] },
      orders: { ussr: ["F Cas–Irn NC"] },
    });
    expect(r, "ussr", "F Cas–Irn NC", "succeeds");
    assert.deepEqual(unitsOf(r, "ussr"), ["F irn/nc"]);
    const s = lone("uk", "F per", "F Per–Irn SC", "succeeds");
    assert.deepEqual(unitsOf(s, "uk"), ["F irn/sc"]);
  });

  test("Iran: a fleet enters along one coast and then moves only from that coast", () => {
    const wrong = run({
      units: { ussr: ["F cas"], uk: ["F per"] },
      orders: { ussr: ["F Cas-Irn SC"], uk: ["F Per-Irn NC"] },
    });
    expect(wrong, "ussr", "F Cas-Irn SC", "invalid");
    expect(wrong, "uk", "F Per-Irn NC", "invalid");
    const north = run({
      units: { ussr: ["F irn/nc"], uk: ["F irq"] },
      orders: { ussr: ["F Irn-Per"], uk: ["F Irq-Irn"] },
    });
    expect(north, "ussr", "F Irn-Per", "invalid");
    lone("ussr", "F irn/nc", "F Irn-Cas", "succeeds");
    lone("uk", "F irn/sc", "F Irn-Arabian Sea", "succeeds");
  });

  test("Iran: a fleet ordered there without a coast does not move (the variant's rule default)", () => {
    const r = lone("ussr", "F cas", "F Cas-Irn", "invalid");
    assert.match(outcome(r, "ussr", "F Cas-Irn").reason ?? "", /name the coast/, "the reason");
    assert.deepEqual(unitsOf(r, "ussr"), ["F cas"]);
    // An option given explicitly overrides the variant's default.
    const fail = run({
      units: { ussr: ["F cas"] },
      orders: { ussr: ["F Cas-Irn"] },
      rules: { moveWithoutCoast: "fail" },
    });
    expect(fail, "ussr", "F Cas-Irn", "succeeds");
    assert.deepEqual(unitsOf(fail, "ussr"), ["F irn/nc"]);
  });

  test("Nile: F Eme–Egy, then from Egypt to the Red Sea", () => {
    const s = lone("uk", "F eme", "F Eme–Egy", "succeeds");
    assert.equal(s.next.phase, "F1935M");
    const f = then(s, { uk: ["F Egy-Red"] });
    expect(f, "uk", "F Egy-Red", "succeeds");
    assert.deepEqual(unitsOf(f, "uk"), ["F red"]);
    // No jumping over Egypt, and armies bridge the canal freely.
    lone("uk", "F eme", "F Eme-Red", "invalid");
    const armyEgy = run({ orders: { uk: ["A Egy-Arabia"] } });
    expect(armyEgy, "uk", "A Egy-Arabia", "succeeds");
  });

  test("Kiel: Holland to Hamburg, then Hamburg to Berlin through the Kiel Canal", () => {
    const s = lone("germany", "F hol", "F Hol-Ham", "succeeds");
    const f = then(s, { germany: ["F Ham-Ber"] });
    expect(f, "germany", "F Ham-Ber", "succeeds");
    assert.deepEqual(unitsOf(f, "germany"), ["F ber"]);
    lone("germany", "F hol", "F Hol-Ber", "invalid");
    // "Kiel" names the canal province.
    lone("germany", "F ham", "F Kiel-Berlin", "succeeds");
  });

  test("Wolga: from the Eastern Black Sea to the Caspian through two provinces", () => {
    const one = run({
      units: { ussr: ["F ebs"] },
      orders: { ussr: ["F Eastern Black Sea-Rostov"] },
    });
    expect(one, "ussr", "F Eastern Black Sea-Rostov", "succeeds");
    const two = then(one, { ussr: ["F Ros-Wolga"] });
    expect(two, "ussr", "F Ros-Wolga", "succeeds");
    assert.deepEqual(unitsOf(two, "ussr"), ["F wol"]);
    // (Fall 1935 is followed by the Soviet builds; the fleet moves on in Spring 1936.)
    assert.equal(two.next.phase, "W1935A");
    const three = run({
      phase: "S1936M",
      units: two.next.units,
      orders: { ussr: ["F Wolga-Cas"] },
    });
    expect(three, "ussr", "F Wolga-Cas", "succeeds");
    assert.deepEqual(unitsOf(three, "ussr"), ["F cas"]);
    // The two turns in the waterway cannot be skipped.
    const skip = run({
      units: { ussr: ["F ebs", "F ros"] },
      orders: { ussr: ["F Ebs-Wolga", "F Ros-Cas"] },
    });
    expect(skip, "ussr", "F Ebs-Wolga", "invalid");
    expect(skip, "ussr", "F Ros-Cas", "invalid");
    // From the start: the fleet in Rostov reaches the Caspian in two moves.
    const s = run({ orders: { ussr: ["F Ros-Wol"] } });
    const f = then(s, { ussr: ["F Wol-Cas"] });
    expect(f, "ussr", "F Wol-Cas", "succeeds");
    // Armies bridge the waterways.
    const a = run({ orders: { ussr: ["A Mos-Wol"] } });
    expect(a, "ussr", "A Mos-Wol", "succeeds");
  });

  test("Sweden and Denmark: an army or fleet moves between them in one turn", () => {
    lone("germany", "A swe", "A Swe-Den", "succeeds");
    lone("germany", "A den", "A Den-Swe", "succeeds");
    lone("germany", "F swe", "F Swe-Den", "succeeds");
    lone("germany", "F den", "F Den-Swe", "succeeds");
  });

  test("Bornholm and the Skagerrak: not adjacent; a fleet goes by Sweden or Denmark", () => {
    const r = run({
      units: { germany: ["F bhm"], uk: ["F ska"] },
      orders: { germany: ["F Bornholm-Skagerrak"], uk: ["F Ska-Bhm"] },
    });
    expect(r, "germany", "F Bornholm-Skagerrak", "invalid");
    expect(r, "uk", "F Ska-Bhm", "invalid");
    for (const via of ["Swe", "Den"]) {
      const s = lone("germany", "F bhm", `F Bhm-${via}`, "succeeds");
      // Sweden's coast is one coast: from the Bornholm side straight on to the Skagerrak.
      const f = then(s, { germany: [`F ${via}-Ska`] });
      expect(f, "germany", `F ${via}-Ska`, "succeeds");
    }
  });

  test("Denmark does not border Berlin", () => {
    lone("germany", "A ber", "A Ber-Den", "invalid");
    lone("germany", "F ber", "F Ber-Den", "invalid");
    lone("uk", "A den", "A Den-Ber", "invalid");
  });

  test("fleets in coastal provinces (Denmark, Kiel, Istanbul) cannot convoy", () => {
    const r = run({
      units: { germany: ["A swe", "F den"] },
      orders: { germany: ["A Swe-Ham", "F Den C A Swe-Ham"] },
    });
    expect(r, "germany", "F Den C A Swe-Ham", "invalid");
    assert.deepEqual(unitsOf(r, "germany"), ["A swe", "F den"]);
  });
});

describe("europe1935: the seed's resolution examples on this map", () => {
  test("standoff: two armies ordered to Silesia both stay (Diagram 4)", () => {
    const r = run({
      units: { germany: ["A bre"], ussr: ["A war"] },
      orders: { germany: ["A Bre-Sil"], ussr: ["A War-Sil"] },
    });
    expect(r, "germany", "A Bre-Sil", "fails");
    expect(r, "ussr", "A War-Sil", "fails");
    assert.deepEqual(r.next.units, { germany: ["A bre"], ussr: ["A war"] });
  });

  test("one unit not moving stops a series (Diagram 5): A Ber-Pru, F Kie-Ber against F Pru", () => {
    const r = run({ orders: { germany: ["A Ber-Pru", "F Kie-Ber"], poland: ["F Pru Holds"] } });
    expect(r, "germany", "A Ber-Pru", "fails");
    expect(r, "germany", "F Kie-Ber", "fails");
    expect(r, "poland", "F Pru Holds", "succeeds");
  });

  test('"F Swe S F Bal": support to a fleet holding', () => {
    const r = run({
      units: { germany: ["F swe", "F bal"], ussr: ["F bot", "F gof"] },
      orders: { germany: ["F Swe S F Bal"], ussr: ["F Bot-Bal", "F Gof S F Bot-Bal"] },
    });
    expect(r, "germany", "F Swe S F Bal", "succeeds");
    expect(r, "ussr", "F Bot-Bal", "fails");
  });

  test('"A Sil S A Cze–Kra" fails when the army in Czechia goes to Saxony instead', () => {
    const r = run({
      units: { germany: ["A sil", "A cze"] },
      orders: { germany: ["A Sil S A Cze–Kra", "A Cze–Sax"] },
    });
    expect(r, "germany", "A Cze–Sax", "succeeds");
    expect(r, "germany", "A Sil S A Cze–Kra", "fails");
  });

  test("simple support: Silesia and the Baltic fleet push an army out of Prussia (Diagram 9)", () => {
    assert.ok(!fleet("sil", "bal") && !army("sil", "bal"));
    const r = run({
      units: { germany: ["A sil", "F bal"], ussr: ["A pru"] },
      orders: { germany: ["A Sil-Pru", "F Bal S A Sil-Pru"] },
    });
    expect(r, "germany", "A Sil-Pru", "succeeds");
    assert.deepEqual(
      r.next.dislodged?.ussr?.map((d) => d.unit),
      ["A pru"],
    );
  });

  test('"A Par S A Bor-Bri"', () => {
    const r = run({
      units: { france: ["A par", "A bor"], uk: ["A bri"] },
      orders: { france: ["A Par S A Bor-Bri", "A Bor-Bri"] },
    });
    expect(r, "france", "A Par S A Bor-Bri", "succeeds");
    expect(r, "france", "A Bor-Bri", "succeeds");
  });

  test("a dislodged unit has no effect on the province that dislodged it (Diagram 13)", () => {
    const r = run({
      units: { ussr: ["A rum", "F wbs", "A ode"], turkey: ["A bul"] },
      orders: {
        ussr: ["A Rum-Bul", "F Wbs S A Rum-Bul", "A Ode-Rum"],
        turkey: ["A Bul-Rum"],
      },
    });
    expect(r, "ussr", "A Rum-Bul", "succeeds");
    expect(r, "ussr", "A Ode-Rum", "succeeds");
    expect(r, "turkey", "A Bul-Rum", "fails");
  });

  test("support is cut by an attack from Bohemia (Diagram 15)", () => {
    const r = run({
      units: { poland: ["A sil", "A war"], germany: ["A pru", "A cze"] },
      orders: { poland: ["A Sil S A War-Pru", "A War-Pru"], germany: ["A Boh-Sil"] },
    });
    expect(r, "poland", "A Sil S A War-Pru", "fails");
    expect(r, "poland", "A War-Pru", "fails");
  });

  test('convoy: "A Bri-Lon; F Eng C A Bri-Lon"', () => {
    const r = run({
      units: { uk: ["A bri", "F eng"] },
      orders: { uk: ["A Bri-Lon", "F Eng C A Bri-Lon"] },
    });
    expect(r, "uk", "A Bri-Lon", "succeeds");
    expect(r, "uk", "F Eng C A Bri-Lon", "succeeds");
  });

  test("support cannot be convoyed: A Lon S A Pic-Bri is illegal", () => {
    const r = run({
      units: { uk: ["A pic", "A lon", "F eng"], france: ["F bri"] },
      orders: {
        uk: ["A Pic-Bri", "A Lon S A Pic-Bri", "F Eng C A Lon S A Pic-Bri"],
        france: ["F Bri-Holds"],
      },
    });
    expect(r, "uk", "A Pic-Bri", "fails");
    expect(r, "uk", "A Lon S A Pic-Bri", "invalid");
    expect(r, "uk", "F Eng C A Lon S A Pic-Bri", "invalid");
    assert.deepEqual(unitsOf(r, "france"), ["F bri"]);
  });

  test("the North Sea convoys London to Norway (Diagram 20)", () => {
    const r = run({
      units: { uk: ["A lon", "F nth"] },
      orders: { uk: ["A Lon-Nwy", "F Nth C A Lon-Nwy"] },
    });
    expect(r, "uk", "A Lon-Nwy", "succeeds");
    assert.deepEqual(unitsOf(r, "uk"), ["A nwy", "F nth"]);
  });

  test("a convoy over several seas: London to Tunisia (Diagram 21)", () => {
    const seas = ["Eng", "Mao", "Cad", "Aln", "Wes"];
    const r = run({
      units: { uk: ["A lon", "F eng", "F mao"], france: ["F cad", "F aln", "F wes"] },
      orders: {
        uk: ["A Lon-Tun", "F Eng C A Lon-Tun", "F Mao C A Lon-Tun"],
        france: seas.slice(2).map((s) => `F ${s} C A Lon-Tun`),
      },
    });
    expect(r, "uk", "A Lon-Tun", "succeeds");
    assert.ok(unitsOf(r, "uk").includes("A tun"));
  });

  test("dislodging a convoying fleet stops the convoy (Diagram 21)", () => {
    const r = run({
      units: { france: ["A bar", "F wes", "F tys"], italy: ["F tus", "F rom"] },
      orders: {
        france: ["A Bar-Nap", "F Wes C A Bar-Nap", "F Tys C A Bar-Nap"],
        italy: ["F Tus-Tys", "F Rom S F Tus-Tys"],
      },
    });
    expect(r, "italy", "F Tus-Tys", "succeeds");
    expect(r, "france", "A Bar-Nap", "fails");
    assert.ok(unitsOf(r, "france").includes("A bar"));
  });

  test("builds: armies only on inland centres; only in home centres, so never in Iran", () => {
    const r = run({
      phase: "W1935A",
      units: { france: ["F bri"] },
      centers: { france: ["par", "bri", "lyo", "syr", "fna", "irn"] },
      orders: { france: ["Build F Par", "Build A Par", "Build F Irn NC", "Build F FNA"] },
    });
    expect(r, "france", "Build F Par", "invalid");
    expect(r, "france", "Build A Par", "succeeds");
    expect(r, "france", "Build F Irn NC", "invalid");
    expect(r, "france", "Build F FNA", "succeeds");
  });
});
