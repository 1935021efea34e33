import assert from "node:assert/strict";
import { test } from "node:test";
import { phaseName, phaseOrdinal } from "../src/engine/phase.ts";
import { readPosition, writePosition } from "../src/engine/position-json.ts";
import {
  currentPosition,
  gameWinner,
  newRecord,
  playPhase,
  replayRecord,
} from "../src/engine/record.ts";
import { DATC_RULES } from "../src/engine/rules.ts";
import { standardScenario } from "../src/engine/scenario.ts";
import { type PowerId, powerId } from "../src/engine/types.ts";
import { classical } from "../src/variants/classical/index.ts";
import {
  groupOrders,
  groupUnits,
  readShared,
  type SharedOrder,
  type SharedUnit,
  unitSet,
} from "./shared.ts";

/*
 * Thirty real games replayed from their first position with the players' own order text:
 * after every phase, the units, the centres and the next phase's name must be the recorded
 * ones. Phases the records leave out (nobody had anything to do) resolve with no orders.
 */

interface GamePhase {
  name: string;
  units: SharedUnit[];
  centers: Record<string, string[]>;
  orders: SharedOrder[];
}

interface Game {
  id: string;
  soloWinner: string | null;
  finalCenters: Record<string, number>;
  phases: GamePhase[];
}

const games = readShared<Game[]>("games/games.json");

const centerSet = (c: Record<string, string[]>): string[] =>
  Object.entries(c)
    .flatMap(([p, cs]) => cs.map((x) => `${x}:${p}`))
    .sort();

const ordersOf = (phase: GamePhase): Map<PowerId, string[]> =>
  new Map(Object.entries(groupOrders(phase.orders, "text")).map(([p, l]) => [powerId(p), l]));

const scenario = standardScenario(classical);

for (const game of games) {
  test(`replays ${game.id} (${game.phases.length} phases) as a record`, () => {
    let record = newRecord(scenario, DATC_RULES, 1);
    for (const [i, phase] of game.phases.entries()) {
      const at = `${game.id} ${phase.name}`;
      const pos = currentPosition(scenario, record);
      assert.equal(phaseName(pos.phase), phase.name, `${at}: phase`);
      const written = writePosition(classical, pos);
      assert.deepEqual(
        unitSet(written.units),
        unitSet(groupUnits(phase.units)),
        `${at}: units before`,
      );
      assert.deepEqual(
        centerSet(written.centers ?? {}),
        centerSet(phase.centers),
        `${at}: centres before`,
      );
      record = playPhase(scenario, record, ordersOf(phase));
      const next = game.phases[i + 1];
      if (!next) break;
      if (gameWinner(record)) {
        // The game ends with the fall that gave the win; the site still recorded the
        // adjustments after it.
        assert.deepEqual(
          game.phases.slice(i + 1).map((p) => p.name.at(-1)),
          ["A"],
          `${at}: after the win`,
        );
        break;
      }
      const target = phaseOrdinal(
        readPosition({ phase: next.name, units: {}, centers: {} }, classical).phase,
      );
      // Phases the record leaves out: nobody had to act in them.
      while (phaseOrdinal(currentPosition(scenario, record).phase) < target) {
        record = playPhase(scenario, record, new Map());
      }
    }
    if (game.soloWinner)
      assert.equal(gameWinner(record), game.soloWinner, `${game.id}: solo winner`);
    assert.deepEqual(replayRecord(scenario, record), { ok: true });
  });
}

test("the replay corpus is there", () => {
  assert.equal(games.length, 30);
});
