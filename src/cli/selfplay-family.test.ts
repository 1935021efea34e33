import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { GameRulesError, hosted } from "../engine/game.ts";
import { runSync } from "../testing/children.ts";
import { gameRules } from "../variants/game-rules.ts";
import { globalRules } from "../variants/global/rules.ts";
import { getGame } from "../variants/registry.ts";
import { playFamilyGame } from "./selfplay.ts";

/* `entente selfplay --variant global|discovery`: random games through the game rules. */

const BIN = fileURLToPath(new URL("../../bin/entente", import.meta.url));

function entente(args: string[]) {
  const r = runSync(BIN, args, { encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("selfplay --variant global: whole games to a victory, a JSON summary line", () => {
  const r = entente(["selfplay", "--variant", "global", "--games", "2", "--seed", "1"]);
  assert.equal(r.status, 0, `exit 0: ${r.stderr}`);
  const s = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.equal(s.variant, "global", "the family played");
  assert.equal(s.games, 2, "two games");
  assert.equal(s.unfinished, 0, "the VC votes end every game (10 to 40 turns)");
  const wins = Object.values(s.winners as Record<string, number>).reduce((a, b) => a + b, 0);
  assert.equal(wins, 2, "each game has its winners");
  assert.ok((s.turns as number) >= 20 && (s.turns as number) <= 80, `turns: ${s.turns}`);
  assert.equal(s.invariantViolations, 0, "no two units in one area, no errors");
});

test("selfplay of a family: the same seed gives the same game; options it does not use are refused", () => {
  const once = entente(["selfplay", "--variant", "global", "--seed", "5"]);
  const twice = entente(["selfplay", "--variant", "global", "--seed", "5"]);
  const strip = (t: string) => {
    const { seconds: _s, turnsPerSecond: _t, ...rest } = JSON.parse(t) as Record<string, unknown>;
    return rest;
  };
  assert.deepEqual(strip(once.stdout), strip(twice.stdout), "reproducible from the seed");
  const bad = entente(["selfplay", "--variant", "global", "--players", "7"]);
  assert.equal(bad.status, 2, "a usage error");
  assert.match(bad.stderr, /Global Diplomacy is played by 11 players/, "says how many play");
  const many = entente(["selfplay", "--variant", "discovery", "--players", "21"]);
  assert.equal(many.status, 2, "too many players for a discovery map");
  assert.match(many.stderr, /--players must be a whole number from 9 to 20/, "says the range");
  const turns = entente(["selfplay", "--turns", "5"]);
  assert.equal(turns.status, 2, "--turns is not for classical");
  assert.match(turns.stderr, /--until/, "and says what is");
});

test("random Global Diplomacy commands are legal: thirty games refuse none (no RU made moot by the turn's losses, no move into a war ended that turn)", () => {
  const rules = hosted(globalRules);
  let rejected = 0;
  let turns = 0;
  // The default seed's games (bin/entente selfplay --variant global), where a run of 200 used
  // to refuse 153 commands.
  for (let g = 0; g < 30; g++) {
    const r = playFamilyGame(rules, 12345 + g, 60);
    rejected += r.rejected;
    turns += r.turns;
    assert.deepEqual(r.problems, [], `game ${12345 + g}`);
  }
  assert.ok(turns > 300, `whole games played: ${turns} turns`);
  assert.equal(rejected, 0, "no random command refused");
});

test("playFamilyGame: discovery plays turns through its game rules; a broken family is caught", () => {
  const discovery = gameRules("discovery");
  assert.ok(discovery, "discovery is registered");
  const r = playFamilyGame(discovery, 3, 4, 12);
  assert.equal(r.turns, 4, "four turns played");
  const twelve = getGame("discovery")!.start(3, 12) as { units: Record<string, unknown> };
  assert.equal(Object.keys(twelve.units).length, 12, "a twelve-player map was generated");
  assert.deepEqual(r.problems, [], "without problems");
  // A family whose adjudicator puts two units in one area, or fails, is reported.
  const stacked = hosted({
    ...globalRules,
    resolve: (s, sets) => {
      const out = globalRules.resolve(s, sets);
      const [u0, u1] = out.next.game.units;
      const units = [...out.next.game.units, { ...u1!, area: u0!.area }];
      return { ...out, next: { ...out.next, game: { ...out.next.game, units } } };
    },
  });
  assert.match(playFamilyGame(stacked, 1, 1).problems[0] ?? "", /two units in one area/, "stacked");
  const failing = hosted({
    ...globalRules,
    resolve: () => {
      throw new GameRulesError("broken");
    },
  });
  assert.deepEqual(playFamilyGame(failing, 1, 3).problems, ["turn 1: broken"], "an error");
});
