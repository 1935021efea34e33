import assert from "node:assert/strict";
import { test } from "node:test";
import { runLoad } from "../bench/load.ts";

/*
 * Load (docs/reliability.md): 500 players submitting and revising orders on loopback against
 * a real server process, reading them back now and then: no error, no lost submission (every
 * accepted set stored once, in order; each power's current set its last accepted one).
 * A few seconds here; ENTENTE_LONG=1 holds it for a minute (or `bench/load.ts`).
 */

const long = process.env.ENTENTE_LONG === "1";

test(`500 players submitting and revising orders for ${long ? "a minute" : "a few seconds"}: no error, nothing lost`, async (t) => {
  // Without the server's warm-up (its own test is test/warm.test.ts): a second less to wait.
  const r = await runLoad({ players: 500, seconds: long ? 60 : 3, readEvery: 2, cold: true });
  t.diagnostic(JSON.stringify(r));
  assert.equal(r.players, 500, "500 players");
  assert.equal(r.errors, 0, `errors: ${r.errorSamples.join("; ")}`);
  assert.equal(r.lost, 0, `lost submissions: ${r.lostSamples.join("; ")}`);
  assert.ok(
    r.submissions >= r.players,
    `every player got orders in (${r.submissions} submissions)`,
  );
  assert.ok(r.readBacks > 0, `orders were read back (${r.readBacks})`);
});
