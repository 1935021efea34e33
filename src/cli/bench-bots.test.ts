import assert from "node:assert/strict";
import { test } from "node:test";
import { type BenchBotsResult, benchBots, benchBotsText } from "./bench-bots.ts";
import { cli } from "./testing.ts";

/** The result without the decision times (the only figures a seed does not decide). */
const untimed = (r: BenchBotsResult) => ({
  ...r,
  matchups: r.matchups.map(({ decisionMs: _, ...m }) => m),
});

test("bench bots: per kind, the seats, mean centres, solos, draws; the same for a seed", () => {
  const args = {
    bot: "entente",
    against: "random,hold",
    games: 2,
    seed: 3,
    until: 1903,
    variant: "classical",
  };
  const r = benchBots(args);
  assert.equal(r.matchups.length, 2);
  for (const m of r.matchups) {
    assert.equal(m.bot.bot, "entente");
    assert.equal(m.bot.seats, 2, "one seat a game");
    assert.equal(m.against.seats, 12, "six seats a game");
    assert.equal(m.games.length, 2);
    assert.deepEqual(
      m.games.map((g) => g.seat),
      ["Austria", "England"],
      "the bot's seat rotates",
    );
    // Every seat ended with a solo, in a draw, or eliminated.
    for (const k of [m.bot, m.against])
      assert.ok(k.solos + k.draws + k.eliminated <= k.seats && k.meanCentres >= 0);
    assert.ok(
      m.bot.meanCentres > m.against.meanCentres,
      `entente ${m.bot.meanCentres} against ${m.against.bot} ${m.against.meanCentres}`,
    );
    assert.equal(
      m.decisionMs.count,
      2 * 3 * 2,
      "two movement phases a year, three years, two games",
    );
  }
  assert.deepEqual(untimed(benchBots(args)), untimed(r), "deterministic for a seed");
  const text = benchBotsText(r);
  assert.match(text, /^entente +random x6 +2 +\d+\.\d\d +\d+ +\d+ +\d+$/m);
  assert.match(text, /^random +entente x1 +12 /m);
});

test("bench bots on the command line: a table or JSON; bad names say what is known", async () => {
  const json = await cli([
    "bench",
    "bots",
    "--against",
    "hold",
    "--games",
    "1",
    "--until",
    "1901",
    "--players",
    "4",
    "--json",
  ]);
  assert.equal(json.status, 0, json.err);
  const r = JSON.parse(json.out) as BenchBotsResult;
  assert.equal(r.scenario, "4");
  assert.equal(r.matchups[0]!.against.seats, 3, "four seats: the bot's and three others");
  const bad = await cli(["bench", "bots", "--against", "dumb"]);
  assert.equal(bad.status, 2);
  assert.match(bad.err, /unknown bot "dumb" in --against; known: entente, greedy, random, hold/);
  const variant = await cli(["bench", "bots", "--variant", "nowhere"]);
  assert.equal(variant.status, 2);
  assert.match(variant.err, /unknown variant "nowhere"/);
});
