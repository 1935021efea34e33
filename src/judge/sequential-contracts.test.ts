import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type GameRecord, replayRecord } from "../engine/record.ts";
import { STORE_KINDS } from "../store/testing.ts";
import { getScenario } from "../variants/scenarios.ts";
import {
  everything,
  explained,
  firstThen,
  play,
  rejectsWith,
  sequentialGameOn,
} from "./sequential-testing.ts";

/*
 * Contracts in a sequential-movement game (seed 003, src/judge/schedule.ts): matched (both
 * declared: the contracted units move together in the later slot) and unmatched (one side
 * declared: the other power's support is void); who may declare, for which seasons, and who
 * sees the declarations.
 */

describe("contracts", () => {
  // Germany first into Tyrolia; then Austria, supported by Italy, attacks it there. Italy
  // writes the seed's notation.
  const orders = {
    germany: ["A mun - tyr"],
    austria: ["A vie - tyr"],
    italy: ["A(Ven) S A(Vie)-Tyr"],
  };
  const schedule = firstThen("germany", "austria", "italy");

  for (const kind of STORE_KINDS) {
    test(`matched: both declared; the contracted units move together in Italy's slot (${kind})`, async (t) => {
      const g = await sequentialGameOn(t, kind);
      if (!g) return;
      const { judge, gm, players } = g;
      await judge.gm.setSchedule(gm, g.gameId, "S1901", schedule);
      const a = await judge.gm.declareContract(players.austria, g.gameId, { with: "Italy" });
      assert.deepEqual(
        { power: a.power, with: a.with, from: a.from, until: a.until, season: a.season },
        { power: "austria", with: "italy", from: "S1901", until: "S1901", season: "S1901" },
        "one season, the first still open",
      );
      assert.equal(a.matched, false, "not matched yet");
      const i = await judge.gm.declareContract(players.italy, g.gameId, {
        with: "austria",
        until: "withdrawn",
      });
      assert.equal(i.matched, true, "Italy's matches Austria's");
      assert.equal(
        (await judge.views.contracts(players.austria, g.gameId)).declarations[0]!.matched,
        true,
        "Austria sees that Italy matched",
      );
      assert.deepEqual(
        (await judge.views.contracts(gm, g.gameId)).contracts,
        [["austria", "italy"]],
        "the GM sees the contract that counts",
      );
      await play(g, orders);
      const gmPhases = await judge.views.phases(g.gameId, gm);
      assert.match(
        explained(gmPhases, "austria", "A vie"),
        /^succeeds: .*slot 3 of 7 \(with Italy's orders: contracted units/,
      );
      assert.match(
        explained(gmPhases, "germany", "A mun"),
        /then dislodged from tyr by A vie - tyr/,
      );
      const view = await judge.views.gameView(players.germany, g.gameId);
      assert.equal(view.phase, "S1901R", "Germany must retreat");
      assert.ok(view.position.units.austria!.includes("A tyr"), "Austria in Tyrolia");
      assert.doesNotMatch(
        await everything(g, players.germany),
        /slot \d|contracted|under contract/,
        "Germany is not told why",
      );
      // Italy's contract stands until withdrawn; withdrawn now, it stops before F1901.
      const w = await judge.gm.withdrawContract(players.italy, g.gameId, i.id);
      assert.deepEqual([w.withdrawnFrom, w.season], ["F1901", null], "withdrawn from F1901");
      const sched = await judge.views.schedule(gm, g.gameId, 1);
      assert.deepEqual(sched.seasons[0]!.contracts, [["austria", "italy"]], "S1901 kept it");
      // A GM's correction plays S1901 again with the same schedule and contracts.
      await judge.gm.correct(gm, g.gameId, { reason: "played again" });
      const again = await judge.views.gameView(gm, g.gameId);
      assert.equal(again.phase, "S1901R", "the same outcome: Germany must retreat");
      assert.ok(again.position.units.austria!.includes("A tyr"), "Austria still in Tyrolia");
      const record = await judge.views.recordFor(gm, g.gameId);
      assert.deepEqual(
        record.rules.contracts,
        { S1901: [["austria", "italy"]] },
        "the GM's record has it",
      );
      assert.deepEqual(
        replayRecord(getScenario("classical")!, record as GameRecord),
        { ok: true },
        "replays",
      );
    });
  }

  test("unmatched: one side declared; the other power's support is void", async (t) => {
    const g = await sequentialGameOn(t);
    if (!g) return;
    const { judge, gm, players } = g;
    await judge.gm.setSchedule(gm, g.gameId, "S1901", schedule);
    await judge.gm.declareContract(players.austria, g.gameId, { with: "italy" });
    assert.deepEqual(
      (await judge.views.contracts(players.italy, g.gameId)).declarations,
      [],
      "Italy is not shown Austria's declaration",
    );
    const italyEvents = JSON.stringify(await judge.views.events(players.italy, g.gameId));
    assert.doesNotMatch(italyEvents, /contract/, "nor told of it by an event");
    assert.match(
      JSON.stringify(await judge.views.events(players.austria, g.gameId)),
      /contract_declared/,
      "Austria's events have it",
    );
    await play(g, orders);
    const phases = await judge.views.phases(g.gameId, players.italy);
    assert.match(
      explained(phases, "italy", "A(Ven)"),
      /^fails: support for a unit of Austria needs a contract between Italy and Austria/,
      "Italy is told why its support failed",
    );
    assert.match(explained(phases, "austria", "A vie"), /^fails/, "Austria bounced");
    const view = await judge.views.gameView(players.germany, g.gameId);
    assert.ok(view.position.units.germany!.includes("A tyr"), "Germany keeps Tyrolia");
    assert.equal(view.phase, "F1901M", "nobody dislodged");
    assert.equal(
      (await judge.views.contracts(players.austria, g.gameId)).declarations[0]!.season,
      null,
      "Austria's one-season declaration has nothing left to cover",
    );
  });

  test("who may declare, for which seasons, and who sees declarations", async (t) => {
    const g = await sequentialGameOn(t);
    if (!g) return;
    const { judge, gm, players, observer, gameId } = g;
    await assert.rejects(
      judge.gm.declareContract(observer, gameId, { with: "italy" }),
      rejectsWith("forbidden", /declared by the players/),
    );
    await assert.rejects(
      judge.views.contracts(observer, gameId),
      rejectsWith("forbidden", /only by the powers that made them and the GM/),
    );
    await assert.rejects(
      judge.gm.declareContract(players.austria, gameId, { with: "italy", power: "france" }),
      rejectsWith("forbidden", /you do not play france/),
    );
    await assert.rejects(
      judge.gm.declareContract(players.austria, gameId, { with: "austria" }),
      rejectsWith("invalid", /cannot contract with itself/),
    );
    await assert.rejects(
      judge.gm.declareContract(players.austria, gameId, { with: "prussia" }),
      rejectsWith("invalid", /unknown power "prussia"/),
    );
    await assert.rejects(
      judge.gm.declareContract(players.austria, gameId, {
        with: "italy",
        season: "F1901",
        until: "S1901",
      }),
      rejectsWith("invalid", /until: S1901 is before F1901/),
    );
    await assert.rejects(
      judge.gm.declareContract(gm, gameId, { with: "italy" }),
      rejectsWith("invalid", /say for which power the GM records/),
    );
    // The GM may record a declaration made to it (by mail) for a power.
    const d = await judge.gm.declareContract(gm, gameId, {
      power: "italy",
      with: "austria",
      season: "F1902",
      until: "S1903",
    });
    assert.deepEqual([d.from, d.until, d.season], ["F1902", "S1903", "F1902"], "a run of seasons");
    assert.equal(
      (await judge.views.contracts(players.italy, gameId)).declarations.length,
      1,
      "Italy's own",
    );
    await assert.rejects(
      judge.gm.withdrawContract(players.austria, gameId, d.id),
      rejectsWith("not-found", /no contract declaration/),
      "another power's declaration is not even said to exist",
    );
    await judge.gm.withdrawContract(players.italy, gameId, d.id);
    await assert.rejects(
      judge.gm.withdrawContract(players.italy, gameId, d.id),
      rejectsWith("conflict", /already withdrawn/),
    );
  });
});
