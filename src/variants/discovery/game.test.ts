import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { GlobalMap } from "../global/map.ts";
import { gameIds, getGame } from "../registry.ts";
import { discoveryMap, discoveryStart } from "./index.ts";

type Json = Record<string, unknown>;

describe("discovery as a game family", () => {
  it("is registered beside global", () => {
    assert.ok(gameIds().includes("discovery"), "discovery is a game id");
    assert.equal(getGame("discovery")?.name, "Age of Discovery", "found by id");
  });

  it("plays a whole self-play game on a generated map to its end, with reports", () => {
    const game = getGame("discovery")!;
    let pos: Json = game.start(2024);
    const { map: dmap, global: gmap } = discoveryMap(2024, 9);
    assert.deepEqual(pos.map, { seed: 2024, players: 9 }, "the start names its map");
    let turns = 0;
    let lastKnown = pos.known as Record<string, number[]>;
    while (!(pos as { winners?: unknown }).winners) {
      assert.ok(turns < 40, "the game ends by turn 40 (the longest vote)");
      const orders: Record<string, string[]> = {};
      for (const p of gmap.powers) orders[String(p.id)] = game.randomOrders(pos, p.id, 77);
      const out = game.adjudicateJson({ ...pos, orders, reports: [1, 9] });
      assert.equal(out.error, undefined, `turn ${turns + 1} adjudicates`);
      const next = out.next as Json;
      const units = next.units as Record<string, string[]>;
      const seen = new Set<number>();
      for (const [p, list] of Object.entries(units)) {
        for (const u of list) {
          const [letter, area] = u.split(" ");
          const a = gmap.area(Number(area))!;
          assert.ok(!seen.has(a.id), `one unit in area ${a.id}`);
          seen.add(a.id);
          const naval = letter === "F" || letter === "S";
          assert.ok(
            GlobalMap.allowed(naval ? "fleet" : "army", a.kind),
            `player ${p}'s ${letter} may stand in ${a.kind} ${a.id}`,
          );
        }
      }
      const known = next.known as Record<string, number[]>;
      for (const [p, list] of Object.entries(lastKnown)) {
        assert.ok(
          list.every((a) => known[p]!.includes(a)),
          `player ${p} forgets nothing`,
        );
      }
      const results = out.results as Record<
        string,
        { text: string; status: string; reason?: string }[]
      >;
      for (const r of Object.values(results).flat()) {
        if (r.status !== "ok") assert.ok(r.reason, `"${r.text}" ${r.status} with a reason`);
      }
      const reports = out.reports as Record<string, string>;
      for (const p of ["1", "9"]) {
        assert.match(reports[p]!, /MAP OF KNOWN AREAS/, `player ${p}'s report has its map`);
        assert.match(
          reports[p]!,
          new RegExp(`Great Power ${p}-`),
          `player ${p}'s report is its own`,
        );
      }
      lastKnown = known;
      pos = next;
      turns++;
    }
    const winners = (pos as { winners: number[] }).winners;
    assert.ok(winners.length >= 1, "someone wins");
    assert.ok(turns >= 10, "not before the shortest vote");
    assert.equal(dmap.players, 9, "nine players");
  });

  it("starts any player count from 9 to 20 and explains a position without a usable map", () => {
    const twenty = discoveryStart(5, 20);
    assert.equal(Object.keys(twenty.known as Json).length, 20, "twenty players know their homes");
    const game = getGame("discovery")!;
    assert.match(
      String(game.adjudicateJson({ variant: "discovery" }).error),
      /needs the generated map's "map"/,
      "no map",
    );
    assert.match(
      String(game.adjudicateJson({ variant: "discovery", map: { seed: 1, players: 30 } }).error),
      /9 to 20 players, not 30/,
      "a bad player count",
    );
    assert.match(
      String(
        game.adjudicateJson({
          variant: "discovery",
          map: { seed: 1, players: 9 },
          known: { 1: [99999] },
        }).error,
      ),
      /known.1 must be a list of area ids/,
      "a bad known list",
    );
  });

  it("takes orders through the contract: XXYY spies, percentages 900-1500", () => {
    const game = getGame("discovery")!;
    const pos = game.start(31);
    const { map: dmap } = discoveryMap(31, 9);
    const own = dmap.starts[0]!.areas[2]!;
    const out = game.adjudicateJson({
      ...pos,
      orders: { 1: ["VC 20 1200", "SP 0101"], 2: ["VC 20 400"] },
    });
    const r = out.results as Record<string, { text: string; status: string; reason?: string }[]>;
    assert.equal(r["1"]![0]!.status, "ok", "VC 20 1200 is in range");
    assert.equal(r["2"]![0]!.status, "rejected", "VC 20 400 is not");
    assert.match(r["2"]![0]!.reason ?? "", /900 and 1500/, "saying the range");
    assert.ok(own > 0, "a start area");
  });
});
