import assert from "node:assert/strict";
import { test } from "node:test";
import { scenariosOf } from "../variants/scenarios.ts";
import { replayRecord } from "./record.ts";
import { DATC_RULES } from "./rules.ts";
import { selfPlayGame } from "./selfplay.ts";
import { powerId } from "./types.ts";

/*
 * Random legal play through every player-count scenario: no error, no broken invariant in
 * any position along the way, and the same seed gives the same game.
 */

for (const scenario of scenariosOf("classical")) {
  test(`self-play: 100 games of the ${scenario.id}-player game, invariants hold`, () => {
    const until = scenario.variant.start.phase.year + 3;
    let phases = 0;
    for (let g = 0; g < 100; g++) {
      const game = selfPlayGame({
        scenario,
        rules: DATC_RULES,
        seed: 1000 + g,
        untilYear: until,
        keepRecord: false,
      });
      assert.deepEqual(game.problems, [], `game ${g}`);
      assert.ok(game.phases > 0);
      phases += game.phases;
    }
    assert.ok(phases >= 100 * 8, `${phases} phases`);
  });
}

test("self-play is deterministic for a seed, and its records replay", () => {
  const scenario = scenariosOf("classical")[0]!;
  const a = selfPlayGame({
    scenario,
    rules: DATC_RULES,
    seed: 7,
    untilYear: 1905,
    keepRecord: true,
  });
  const b = selfPlayGame({
    scenario,
    rules: DATC_RULES,
    seed: 7,
    untilYear: 1905,
    keepRecord: true,
  });
  assert.deepEqual(a.record, b.record);
  const c = selfPlayGame({
    scenario,
    rules: DATC_RULES,
    seed: 8,
    untilYear: 1905,
    keepRecord: true,
  });
  assert.notDeepEqual(a.record, c.record);
  assert.deepEqual(replayRecord(scenario, a.record!), { ok: true });
});

test("self-play in the two-player game tosses the coin and opens Italy in 1915", () => {
  const scenario = scenariosOf("classical").find((s) => s.id === "2")!;
  const game = selfPlayGame({
    scenario,
    rules: DATC_RULES,
    seed: 3,
    untilYear: 1916,
    keepRecord: true,
  });
  const tosses = game
    .record!.phases.flatMap((p) => p.events ?? [])
    .filter((e) => e.kind === "coin-toss");
  assert.equal(tosses.length, 1);
  assert.ok(game.final.seats.some((s) => s.powers.includes(powerId("italy"))));
});
