import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { adjudicateAnyJson, adjudicateJson } from "../../cli/adjudicate.ts";
import { globalNew, globalPlay, globalReplay } from "../../cli/global.ts";
import { DATC_RULES } from "../../engine/rules.ts";
import { gameIds, getGame } from "../registry.ts";

describe("entente adjudicate with global positions", () => {
  test("the 235 example through the JSON, with a report", () => {
    const out = adjudicateAnyJson(
      {
        variant: "global",
        turn: 2,
        units: { England: ["F 233", "F 234"], "5": ["S 235", "F 61"] },
        orders: { "3": ["MO 234 235", "MO 233 234"], germany: ["MO 235 234", "SA 61 234"] },
        reports: [3],
      },
      DATC_RULES,
    ) as Record<string, unknown>;
    assert.equal(out.error, undefined, "no error");
    const results = out.results as Record<string, { text: string; status: string }[]>;
    assert.equal(results["5"]![0]!.status, "ok", "MO 235 234 succeeds");
    const next = out.next as { units: Record<string, string[]>; turn: number };
    assert.deepEqual(next.units["5"], ["F 61", "S 234"], "Germany's units after");
    assert.equal(next.turn, 3, "the next turn");
    const reports = out.reports as Record<string, string>;
    assert.match(reports["3"]!, /\(MO 234 235\)/, "England's report brackets the failed move");
    assert.deepEqual(Object.keys(reports), ["3"], "only the asked report");
  });

  test("the next position reads back and plays on", () => {
    const first = adjudicateAnyJson(
      { variant: "global", orders: { "3": ["MO 7 233"] } },
      DATC_RULES,
    ) as {
      next: Record<string, unknown>;
    };
    const second = adjudicateAnyJson(
      { ...first.next, orders: { "3": ["MO 233 221"] } },
      DATC_RULES,
    ) as {
      next: { units: Record<string, string[]> };
    };
    assert.ok(second.next.units["3"]!.includes("F 221"), "the fleet went on to 221");
  });

  test("bad input gets a message naming what is wrong", () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ units: { "3": ["A 233"] } }, /cannot stand in 233-English Channel/],
      [{ units: { "12": ["A 1"] } }, /unknown power "12"/],
      [{ owners: { "233": 3 } }, /seas are only occupied/],
      [{ relations: { "3-4": "friends" } }, /"war", "alliance" or "neutral"/],
      [{ rules: { convoyDisruption: "9.9" } }, /"7.6" or "5.5"/],
      [{ orders: { "3": "MO 7 233" } }, /list of command lines/],
      [{ turn: 0 }, /whole number from 1/],
    ];
    for (const [input, why] of cases) {
      const out = adjudicateAnyJson({ variant: "global", ...input }, DATC_RULES) as {
        error?: string;
      };
      assert.match(out.error ?? "", why, JSON.stringify(input));
    }
  });

  test("classical input is untouched by the dispatch", () => {
    const input = {
      variant: "classical",
      phase: "S1901M",
      units: { england: ["F lon"] },
      orders: { england: ["F lon - nth"] },
    };
    assert.deepEqual(
      adjudicateAnyJson(input, DATC_RULES),
      adjudicateJson(input, DATC_RULES),
      "same",
    );
    assert.ok(gameIds().includes("global"), "registered");
    assert.equal(getGame("global")?.name, "Global Diplomacy", "by id");
  });

  test("the game family: start, random orders, adjudicate", () => {
    const g = getGame("global")!;
    const start = g.start(4);
    const orders = g.randomOrders(start, 3, 4);
    assert.ok(orders.length > 0, "some commands");
    const out = g.adjudicateJson({ ...start, orders: { "3": orders } });
    assert.equal(out.error, undefined, "adjudicated");
  });
});

describe("entente global (the moderator's CLI)", () => {
  test("new, play with an order file, reports, replay", () => {
    const dir = mkdtempSync(join(tmpdir(), "global-"));
    const file = join(dir, "game.json");
    assert.equal(globalNew({ seed: 2, out: file }).status, 0, "new");
    assert.match(globalNew({ seed: 1, out: file }).error ?? "", /exists/, "no overwrite");
    writeFileSync(join(dir, "t1.txt"), "POWER 3\nMO 7 233\nPOWER 4\nMO 14 11\n");
    const play = globalPlay(file, join(dir, "t1.txt"));
    assert.equal(play.status, 0, "played");
    assert.match(play.text, /4: MO 14 11: rejected/, "the refused command is listed");
    assert.equal(readdirSync(join(dir, "reports")).length, 11, "one report per power");
    assert.match(
      readFileSync(join(dir, "reports", "turn1-power3.txt"), "utf8"),
      /MO 7 233/,
      "report",
    );
    const game = JSON.parse(readFileSync(file, "utf8")) as { history: unknown[] };
    assert.equal(game.history.length, 1, "history kept");
    assert.equal(globalReplay(file).status, 0, "replays");
    // An unknown subcommand is commander's: src/cli/cli-definitions.test.ts.
  });
});
