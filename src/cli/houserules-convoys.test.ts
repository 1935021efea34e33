import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { datc, house, moves } from "./houserules-testing.ts";
import { convoyParadox, entry, units } from "./testing.ts";

/*
 * The game master's house rules (seed 002) on convoys (VI), clause by clause: retreats from a
 * convoyed attack, convoys by one's own fleets, routes, paradoxes (Alternative C) and foreign
 * convoys; each under the `houserules` profile and, where the clause is a rule option, without.
 */

describe("VI Convoys", () => {
  test("VI(1) no retreat to the origin of a convoyed attacker", () => {
    const input = {
      phase: "U1901R",
      units: { england: ["F eng"] },
      dislodged: { france: [{ unit: "A bel", from: "hol", viaConvoy: true }] },
      orders: { france: ["A bel - hol"] },
    };
    const r = house(input);
    assert.equal(entry(r, "france", 0).result, "invalid");
    assert.match(entry(r, "france", 0).reason ?? "", /attacker came from/);
    assert.equal(entry(datc(input), "france", 0).result, "succeeds");
  });

  test("VI(2) by convoy when a fleet of the army's power convoys it; else over land", () => {
    const own = moves(
      { england: ["A nwy", "F ska"], russia: ["A swe"] },
      { england: ["A nwy - swe", "F ska C A nwy - swe"], russia: ["A swe - nwy"] },
    );
    assert.ok(units(own).includes("england:A swe"), "by convoy: no head-to-head, they swap");
    // A German fleet convoys England's army, written plainly or explicitly via convoy.
    const foreign = (order: string) =>
      moves(
        { england: ["A nwy"], germany: ["F ska"], russia: ["A swe"] },
        { england: [order], germany: ["F ska C A nwy - swe"], russia: ["A swe - nwy"] },
      );
    assert.ok(
      units(foreign("A nwy - swe")).includes("england:A nwy"),
      "over land: a head-to-head bounce",
    );
    assert.ok(
      units(foreign("A nwy - swe via convoy")).includes("england:A swe"),
      "explicitly via convoy",
    );
  });

  test("VI(3) a route named in the order is ignored: any fleets ordered to convoy carry it", () => {
    const position = { england: ["A lon", "F nth", "F eng"] };
    // The route names the Channel; the North Sea fleet carries the army.
    const orders = { england: ["A lon - eng - bel", "F nth C A lon - bel", "F eng H"] };
    const r = moves(position, orders);
    assert.ok(units(r).includes("england:A bel"));
    assert.match(entry(r, "england", 0).explanation ?? "", /route through eng is ignored/);
    const via = moves(position, {
      england: ["A lon - bel via eng", "F nth C A lon - bel", "F eng H"],
    });
    assert.ok(units(via).includes("england:A bel"));
    // Only fleets ordered to convoy it may carry it.
    const unordered = moves(position, { england: ["A lon - nth - bel", "F eng H"] });
    assert.ok(units(unordered).includes("england:A lon"));
    const d = moves(position, orders, "datc");
    assert.equal(entry(d, "england", 0).result, "invalid");
    assert.ok(
      units(moves(position, orders, { convoyRouteNames: "ignored" })).includes("england:A bel"),
    );
  });

  test("VI(4) a convoy with several routes fails only when every route is broken", () => {
    const r = moves(
      { england: ["A lon", "F eng", "F nth"], france: ["F bre", "F mao"] },
      {
        england: ["A lon - bel", "F eng C A lon - bel", "F nth C A lon - bel"],
        france: ["F bre - eng", "F mao S F bre - eng"],
      },
    );
    assert.ok(units(r).includes("england:A bel"));
  });

  test("VI(5) a convoyed army cuts a support for an attack on its own origin (DATC 6.G.13)", () => {
    const position = { austria: ["F adr", "A tri"], italy: ["A ven", "F alb"] };
    const orders = {
      austria: ["F adr C A tri - ven", "A tri - ven"],
      italy: ["A ven S F alb - tri", "F alb - tri"],
    };
    assert.equal(moves(position, orders).dislodged, undefined);
    assert.deepEqual(Object.keys(moves(position, orders, "datc").dislodged ?? {}), ["austria"]);
  });

  test("VI(6) convoy paradox, Alternative C: half strength for the armies, then the fleets in land provinces", () => {
    // DATC 6.F.14, the simple convoy paradox. Step 1 (the army at half strength) leaves the
    // paradox: its attack cuts London's support whatever its strength. Step 2 rates London's
    // support and the Welsh fleet's move at half: 1/2 + 1/2 cannot dislodge the Channel fleet
    // (1) even with the support, so the convoy stands, the army's attack (1/2) bounces off
    // London (1/2), and the support is cut. Nothing moves.
    const { position, orders } = convoyParadox;
    const r = moves(position, orders);
    assert.equal(r.dislodged, undefined);
    assert.deepEqual(units(r), ["england:F lon", "england:F wal", "france:A bre", "france:F eng"]);
    assert.match(entry(r, "france", 0).reason ?? "", /0\.5 against 0\.5.*Alternative C step 2/);
    // Szykman (the DATC's choice): the army does not move, and the Channel fleet is dislodged.
    assert.deepEqual(Object.keys(moves(position, orders, "datc").dislodged ?? {}), ["france"]);
    const own = moves(position, orders, { convoyParadox: "alternative-c" });
    assert.deepEqual(units(own), units(r));
  });

  test("VI(6) Alternative C, step 3: the convoyed army fails, holding without support", () => {
    // DATC 6.G.11: Russia convoys Sweden to adjacent Norway while England attacks the convoy.
    const r = moves(
      { england: ["F nwy", "F nth"], russia: ["A swe", "F ska", "F bar"] },
      {
        england: ["F nwy S F nth - ska", "F nth - ska"],
        russia: ["A swe - nwy", "F ska C A swe - nwy", "F bar S A swe - nwy"],
      },
    );
    assert.match(entry(r, "russia", 0).reason ?? "", /Alternative C \(step 3\).*fails and holds/);
    assert.deepEqual(Object.keys(r.dislodged ?? {}), ["russia"]);
    assert.ok(units(r).includes("russia:A swe"));
  });

  test("VI(7) a foreign convoy may carry an attack on the convoying player's own unit", () => {
    const r = moves(
      { england: ["F nth", "A hol"], germany: ["A den", "A kie"] },
      { england: ["F nth C A den - hol"], germany: ["A den - hol", "A kie S A den - hol"] },
    );
    assert.deepEqual(Object.keys(r.dislodged ?? {}), ["england"]);
    assert.ok(units(r).includes("germany:A hol"));
    // And it cuts the support the attacked unit gives.
    const cut = moves(
      { england: ["F nth", "A hol", "A bel"], germany: ["A den"], france: ["A pic", "A bur"] },
      {
        england: ["F nth C A den - hol", "A hol S A bel"],
        germany: ["A den - hol"],
        france: ["A pic - bel", "A bur S A pic - bel"],
      },
    );
    assert.match(entry(cut, "england", 1).reason ?? "", /cut by A den - hol/);
  });

  test("VI(8) a convoyed army dislodged by the unit from its destination still bounces a third", () => {
    // England convoys Norway to adjacent Sweden; Russia's Sweden army, supported, dislodges
    // it; the English army still stands off the German one from Denmark.
    const r = moves(
      { england: ["A nwy", "F ska"], russia: ["A swe", "A fin"], germany: ["A den"] },
      {
        england: ["A nwy - swe", "F ska C A nwy - swe"],
        russia: ["A swe - nwy", "A fin S A swe - nwy"],
        germany: ["A den - swe"],
      },
    );
    assert.deepEqual(Object.keys(r.dislodged ?? {}), ["england"]);
    assert.ok(units(r).includes("germany:A den"), "the German army bounced");
    assert.ok(!units(r).some((u) => u.endsWith("A swe")), "Sweden is left empty");
  });
});
