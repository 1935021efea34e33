import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type GameRecord, replayRecord } from "../engine/record.ts";
import { STORE_KINDS } from "../store/testing.ts";
import { getScenario } from "../variants/scenarios.ts";
import {
  DAY,
  nmrPowers,
  POWERS,
  passDeadline,
  passDeadlines,
  sevenPlayerGameOn,
} from "./testing.ts";

/*
 * The GM's tools on SQLite and PostgreSQL: pause, resume, moving the deadline, correcting the
 * last adjudication, removing a unit, ending the game; and the draw the GM may declare after
 * game years without a centre changing hands, a year after a warning that lapses when one
 * does.
 */

for (const kind of STORE_KINDS) {
  describe(`judge on ${kind}`, () => {
    test("GM: pause, resume, move the deadline, correct the last adjudication, remove a unit, end", async (t) => {
      const g = await sevenPlayerGameOn(t, kind);
      if (!g) return;
      const { judge, players, gm } = g;
      await assert.rejects(judge.gm.pause(players.england, g.gameId), { kind: "forbidden" });
      g.clock.advance(DAY);
      await judge.gm.pause(gm, g.gameId);
      g.clock.advance(10 * DAY);
      assert.equal(await judge.adjudication.tick(), 0, "a paused game waits");
      let view = await judge.gm.resume(gm, g.gameId);
      assert.equal(
        Date.parse(view.deadline!),
        g.clock.t + 2 * DAY,
        "what was left of the deadline",
      );
      view = await judge.gm.setDeadline(gm, g.gameId, { extendMinutes: 60 });
      assert.equal(Date.parse(view.deadline!), g.clock.t + 2 * DAY + 3_600_000);

      await judge.submissions.submitOrders(players.france, g.gameId, {
        orders: ["A par-bur", "A mar-spa", "F bre-mao"],
      });
      await judge.gm.setDeadline(gm, g.gameId, { at: new Date(g.clock.t).toISOString() });
      assert.equal(await judge.adjudication.tick(), 1);
      let phases = await judge.views.phases(g.gameId);
      assert.equal(phases[0]!.orders.italy, undefined);
      // Italy's orders reached the GM in time after all (seed 002 VII(1)): correct.
      await judge.gm.correct(gm, g.gameId, {
        orders: { italy: ["A ven-pie", "F nap-ion", "A rom-apu"] },
        reason: "Italy's orders arrived before the deadline",
      });
      phases = await judge.views.phases(g.gameId);
      assert.equal(phases.length, 1);
      assert.deepEqual(phases[0]!.orders.italy, ["A ven-pie", "F nap-ion", "A rom-apu"]);
      assert.deepEqual(phases[0]!.orders.france, ["A par-bur", "A mar-spa", "F bre-mao"]);
      view = await judge.views.gameView(gm, g.gameId);
      assert.deepEqual([...view.position.units.italy!].sort(), ["A apu", "A pie", "F ion"]);
      const superseded = await g.judge.store.db
        .selectFrom("phases")
        .select("superseded")
        .where("superseded", "=", 1)
        .execute();
      assert.equal(superseded.length, 1, "the old result is kept for the audit");
      assert.equal((await nmrPowers(g.judge.store, g.gameId)).includes("italy"), false);

      // An extra unit is removed at once (seed 002 VIII(2)).
      await assert.rejects(
        judge.units.removeUnit(gm, g.gameId, { power: "france", unit: "A par", reason: "x" }),
        {
          kind: "invalid",
          message: /A bur/,
        },
      );
      view = await judge.units.removeUnit(gm, g.gameId, {
        power: "france",
        unit: "A bur",
        reason: "built in error",
      });
      assert.deepEqual([...view.position.units.france!].sort(), ["A spa", "F mao"]);
      await judge.submissions.submitOrders(players.france, g.gameId, { orders: ["A spa-por"] });
      await passDeadline(g);
      view = await judge.views.gameView(gm, g.gameId);
      assert.deepEqual((await judge.views.phases(g.gameId))[1]!.results.france?.length, 2);
      // Only the last adjudication can be corrected: F1901M now, not S1901M.
      await judge.gm.correct(gm, g.gameId, { reason: "re-run" });
      assert.equal((await judge.views.phases(g.gameId)).length, 2);
      // The record carries the GM's edit where it was made, so it replays to itself.
      const record = await judge.views.recordFor(gm, g.gameId);
      assert.deepEqual(
        record.edits,
        [
          {
            after: 1,
            kind: "remove-unit",
            power: "france",
            unit: "A bur",
            reason: "built in error",
          },
        ],
        "the edit is in the record",
      );
      const replay = replayRecord(getScenario("classical")!, record as GameRecord);
      assert.deepEqual(replay, { ok: true }, "the record with the GM's edit replays to itself");
      await judge.endings.endGame(gm, g.gameId, { result: "draw", note: "club night is over" });
      view = await judge.views.gameView(gm, g.gameId);
      assert.equal(view.status, "finished");
      assert.equal((view.result as { kind: string }).kind, "draw");
      assert.equal(await judge.adjudication.tick(), 0);
    });

    test("the GM may declare a draw after two game years with no centre change, a year after a warning", async (t) => {
      const g = await sevenPlayerGameOn(t, kind, { civilDisorderAfter: 0 });
      if (!g) return;
      const { judge, gm, players } = g;
      assert.equal(await passDeadlines(g, 2), "S1902M");
      await assert.rejects(judge.endings.declareDraw(gm, g.gameId, { warn: true }), {
        kind: "conflict",
      });
      assert.equal(await passDeadlines(g, 2), "S1903M");
      await assert.rejects(judge.endings.declareDraw(gm, g.gameId, { warn: false }), {
        kind: "conflict",
        message: /warn/,
      });
      await judge.endings.declareDraw(gm, g.gameId, { warn: true });
      const warning = (await judge.views.events(players.italy, g.gameId)).find(
        (e) => e.kind === "draw_warning",
      );
      assert.deepEqual(
        warning?.data,
        { years: 2, phase: "S1903M", after: 4, period: 1, from: "S1904M" },
        "the warning is public and says from when the draw may come",
      );
      // The warning period (drawWarningYears, default one game year) must pass first.
      await assert.rejects(judge.endings.declareDraw(gm, g.gameId, { warn: false }), {
        kind: "conflict",
        message: /runs 1 game year\(s\): the draw may be declared from S1904M/,
      });
      assert.equal(await passDeadlines(g, 2), "S1904M");
      const view = await judge.endings.declareDraw(gm, g.gameId, { warn: false });
      assert.equal(view.status, "finished");
      assert.deepEqual(view.result, { kind: "draw", powers: [...POWERS], by: "gm", years: 3 });
    });

    test("a draw warning lapses when a supply centre changes hands in its period", async (t) => {
      const g = await sevenPlayerGameOn(t, kind, { drawAfterYearsWithoutChange: 1 });
      if (!g) return;
      const { judge, gm, players } = g;
      assert.equal(await passDeadlines(g, 2), "S1902M");
      await judge.endings.declareDraw(gm, g.gameId, { warn: true });
      await judge.submissions.submitOrders(players.france, g.gameId, { orders: ["A mar-spa"] });
      assert.equal(await passDeadlines(g, 3), "S1903M");
      await assert.rejects(judge.endings.declareDraw(gm, g.gameId, { warn: false }), {
        kind: "conflict",
        message: /changed hands in F1902M, after the warning given in S1902M: the warning lapsed/,
      });
      await assert.rejects(judge.endings.declareDraw(gm, g.gameId, { warn: true }), {
        kind: "conflict",
        message: /changed hands in the last game year/,
      });
      assert.equal((await judge.views.gameView(gm, g.gameId)).status, "active");
    });
  });
}
