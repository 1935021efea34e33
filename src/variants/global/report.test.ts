import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { accountingSection, newsBulletins, turnReport } from "./report.ts";
import { play } from "./testing.ts";
import { worldMap } from "./world.ts";

describe("8.0 the report", () => {
  const r = play(
    { units: { 3: ["F 233", "F 234", "A 4"], 5: ["S 235", "F 61"], 11: ["F 144"] } },
    { 3: ["MO 234 235", "MO 233 234"], 5: ["MO 235 234", "SA 61 234"], 11: ["MO 144 212"] },
  );
  const eng = turnReport(worldMap, r, 3);

  test("marks failed commands in brackets and retreats as (-/R area)", () => {
    assert.match(eng, /^233 English Channel .*\(MO 233 234\)/m, "failed move bracketed");
    assert.match(eng, /^234 North Sea .*\(MO 234 235\) \(-\/R237\)/m, "retreat to 237");
    assert.match(eng, /^234 North Sea .*S {4}5$/m, "the German squadron is there now");
  });

  test("shows its own results with reasons, and nothing of far-away powers", () => {
    assert.match(eng, /\(MO 233 234\) +FAILED: beaten at 234/, "result with reason");
    assert.doesNotMatch(eng, /MO 144 212/, "the American move is not England's business");
    assert.doesNotMatch(eng, /^144 /m, "nor New York");
    const us = turnReport(worldMap, r, 11);
    assert.match(us, /MO 144 212 +OK/, "the Americans see their own");
    assert.doesNotMatch(us, /MO 235 234/, "and not the North Sea");
  });

  test("dead units and the moderator's removals", () => {
    const dead = play(
      { owners: { 139: 11, 143: 11 }, units: { 11: ["A 139", "S 143", "S 138", "S 209"] } },
      { 11: ["MO 139 138", "MO 209 139"] },
    );
    assert.match(turnReport(worldMap, dead, 11), /\(MO 139 138\) \(-\/DEAD\)/, "DEAD");
    const forced = play({ seed: 3, units: { 3: ["F 7", "F 3", "A 4", "A 2"] } }, {});
    const text = turnReport(worldMap, forced, 3);
    assert.match(text, /\(-\/FRU\)|\(FDU\)/, "FRU or FDU beside the unit");
    assert.match(text, /the moderator (removed|downgraded)/, "and in the results");
  });

  test("news: captures by size, and the alliance headlines", () => {
    const big = play(
      {
        owners: { 16: 3, 14: 3 },
        units: { 3: ["A 16", "S 233", "C 14"], 4: ["A 17", "C 18"] },
        relations: { "3-4": "war" },
      },
      { 3: ["MO 16 17", "SA 233 17", "MO 14 18"], 4: ["SD 18 17"] },
    );
    const news = newsBulletins(worldMap, big);
    assert.ok(
      news.some((n) => /3-England captures 17-Picardy from 4-France \(gain, 1 VP\)/.test(n)),
      "capture",
    );
    const cap = play(
      { units: { 3: ["A 17", "S 233"] }, owners: { 17: 3 }, relations: { "3-4": "war" } },
      { 3: ["MO 17 18", "SA 233 17"] },
    );
    assert.ok(
      newsBulletins(worldMap, cap).some((n) => /captures 18-Paris .*major gain, 8 VP/.test(n)),
      "Paris: 1 + 2 + 5 = 8 VP, a major gain",
    );
    const allies = play({ units: {} }, { 3: ["DA 4"], 4: ["DA 3"] });
    assert.match(
      turnReport(worldMap, allies, 9),
      /3-England and 4-France are now allies/,
      "headline",
    );
  });
});

describe("the accounting section (section 8)", () => {
  test("the account, and the last ten turns with the commands received", () => {
    const turns = Array.from({ length: 12 }, (_, i) => ({
      turn: i + 1,
      processed: `2030-01-${String(i + 1).padStart(2, "0")} 12:00 UTC`,
      commands: i === 10 ? 0 : i + 1,
    }));
    const text = accountingSection({
      accountId: "4hT9xQ2mKp7L",
      name: "ann",
      address: "ann@example.org",
      game: "GD001",
      power: "3-England",
      turns,
      next: { turn: 13, deadline: "2030-01-20 12:00 UTC" },
    });
    assert.match(text, /^ACCOUNTING\n {2}Account Id {2}4hT9xQ2mKp7L /, "the account id first");
    assert.match(text, /Name {8}ann\n {2}Address {5}ann@example\.org/, "name and address");
    assert.match(text, /Game {8}GD001, Great Power 3-England/, "the game's id and the power");
    assert.match(text, /Last 10 turns/, "ten turns");
    assert.doesNotMatch(text, /^ {7}[12] {2}/m, "not turns 1 and 2");
    assert.match(text, /^ {7}3 {2}2030-01-03 12:00 UTC {2}3 received$/m, "turn 3 with its count");
    assert.match(text, /^ {6}11 {2}2030-01-11 12:00 UTC {2}none received: your units held$/m);
    assert.match(text, /^ {6}12 /m, "up to the last");
    assert.match(text, /Next turn {3}13, commands due by 2030-01-20 12:00 UTC/, "the next turn");
    const none = accountingSection({
      accountId: null,
      name: "bob",
      address: null,
      game: "GD001",
      power: "4-France",
      turns: [],
      next: null,
    });
    assert.match(none, /Account Id {2}none: register a mail address/, "no account id yet");
    assert.match(none, /Last turns {2}none processed yet/);
    assert.match(none, /The game is over\./);
  });
});
