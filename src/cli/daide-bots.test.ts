import assert from "node:assert/strict";
import { test } from "node:test";
import { botIds } from "../bots/index.ts";
import { builtInBots, makeHost } from "./daide.ts";
import { CliError } from "./errors.ts";

const args = {
  port: "0",
  variant: "classical",
  moveTime: 5,
  bots: 1,
  seed: 1,
};

test("entente daide host seats any built-in player of src/bots by its id", () => {
  assert.deepEqual([...builtInBots().keys()], [...botIds()]);
  for (const bot of botIds()) {
    const host = makeHost({ ...args, bot }, () => {});
    assert.equal(host.openSeats, 6, `${bot}: six seats for clients, one played by ${bot}`);
  }
  assert.throws(
    () => makeHost({ ...args, bot: "dumbbot" }, () => {}),
    (e: unknown) =>
      e instanceof CliError &&
      /unknown bot "dumbbot"; built-in players: entente, greedy, random, hold/.test(e.message),
  );
});
