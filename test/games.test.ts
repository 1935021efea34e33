import assert from "node:assert/strict";
import { test } from "node:test";
import { adjudicate } from "../src/engine/adjudicate.ts";
import { phaseName, phaseOrdinal } from "../src/engine/phase.ts";
import { readPosition, writePosition } from "../src/engine/position-json.ts";
import { DATC_RULES } from "../src/engine/rules.ts";
import { type Position, type PowerId, powerId } from "../src/engine/types.ts";
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

for (const game of games) {
  test(`replays ${game.id} (${game.phases.length} phases)`, () => {
    const first = game.phases[0]!;
    let pos: Position = readPosition(
      { phase: first.name, units: groupUnits(first.units), centers: first.centers },
      classical,
    );
    let winner: string | null = null;
    for (const [i, phase] of game.phases.entries()) {
      const at = `${game.id} ${phase.name}`;
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
      const result = adjudicate(classical, pos, ordersOf(phase), DATC_RULES);
      winner ??= result.winner;
      pos = result.next;
      const next = game.phases[i + 1];
      if (!next) break;
      const target = phaseOrdinal(
        readPosition({ phase: next.name, units: {}, centers: {} }, classical).phase,
      );
      // Phases the record leaves out: nobody had to act in them.
      while (phaseOrdinal(pos.phase) < target) {
        const skipped = adjudicate(classical, pos, new Map(), DATC_RULES);
        winner ??= skipped.winner;
        pos = skipped.next;
      }
    }
    if (game.soloWinner) assert.equal(winner, game.soloWinner, `${game.id}: solo winner`);
  });
}

test("the replay corpus is there", () => {
  assert.equal(games.length, 30);
});
