import assert from "node:assert/strict";
import { test } from "node:test";
import { testStore } from "../store/testing.ts";
import type { User } from "./judge.ts";
import { judgeWithGm, POWERS, rewritePhase, user, withoutCentres } from "./testing.ts";

/*
 * Seed 002 VIII(2): an extra unit removed by the house rule that applies, not picked by hand:
 * too many built, the excess-builds rule (V(2)) names the build over the number, followed to
 * where that unit stands now; too few removed, the civil-disorder rule (V(4)) names the unit
 * farthest from home on the board as it stands.
 */

for (const [rules, excess] of [
  // DATC: builds beyond the number are taken in the order written: the last written is over.
  ["datc", "A mar"],
  // House rules V(2) Alternative B: counted from the bottom up: the topmost is over.
  ["houserules", "A par"],
] as const) {
  test(`an extra unit by the house rule (${rules}): the excess build, then the farthest from home`, async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const { clock, judge, gm } = await judgeWithGm(ts.store);
    const created = await judge.games.createGame(gm, { name: "Dutchman", rules, seed: 7 });
    const code = created.invites!.find((i) => i.role === "player")!.code;
    const players = {} as Record<(typeof POWERS)[number], User>;
    for (const p of POWERS) {
      players[p] = await user(judge, p);
      await judge.games.acceptInvite(players[p], code, { power: p });
    }
    const id = created.id;
    const pass = async (france: string[]) => {
      const view = await judge.views.gameView(gm, id);
      if (france.length > 0)
        await judge.submissions.submitOrders(players.france, id, { orders: france });
      clock.t = Date.parse(view.deadline!) + 1;
      assert.equal(await judge.adjudication.tick(), 1, `${view.phase} adjudicated`);
      return (await judge.views.gameView(gm, id)).phase!;
    };
    await pass(["A par-bur", "A mar-spa", "F bre-mao"]);
    const winter = await pass(["F mao-por", "A bur-bel"]);
    await pass(["build A par", "build F bre", "build A mar"]);
    // The record shows no excess (six centres, six units): nothing to remove, and why.
    await assert.rejects(
      judge.units.removeUnit(gm, id, { power: "france", cause: "built", reason: "x" }),
      {
        kind: "invalid",
        message: new RegExp(
          `France built 3 units in ${winter} and had as many units as supply centres after it \\(6 units, 6 centres\\): no build was over the number, so there is no extra unit to remove`,
        ),
      },
    );
    await assert.rejects(
      judge.units.removeUnit(gm, id, { power: "france", cause: "not-removed", reason: "x" }),
      { kind: "invalid", message: /no removal was ever due for France/ },
    );
    // The unit built over the number walks off before anybody notices.
    await pass([`${excess} - gas`]);
    await assert.rejects(
      judge.units.removeUnit(gm, id, { power: "france", cause: "built", reason: "x" }),
      { kind: "invalid", message: /no build was over the number/ },
    );
    // An erroneous adjudication published: the centre table miscounted in the fall (France
    // owed a removal) and in the winter, where France built two over the number.
    await rewritePhase(ts.store, id, "F1901M", (r) =>
      withoutCentres(r, "france", ["bre", "spa", "por", "bel"]),
    );
    await rewritePhase(ts.store, id, winter, (r) => withoutCentres(r, "france", ["spa", "por"]));

    await assert.rejects(
      judge.units.removeUnit(gm, id, {
        power: "france",
        unit: "A gas",
        cause: "built",
        reason: "x",
      }),
      { kind: "invalid", message: /not both/ },
    );
    await assert.rejects(
      judge.units.removeUnit(gm, id, { power: "england", cause: "built", reason: "x" }),
      { kind: "invalid", message: /England has built no unit/ },
    );
    await assert.rejects(
      judge.units.removeUnit(gm, id, {
        power: "france",
        cause: "built",
        phase: "S1901M",
        reason: "x",
      }),
      { kind: "invalid", message: /France built nothing in S1901M/ },
    );
    await assert.rejects(
      judge.units.removeUnit(gm, id, { power: "narnia", cause: "built", reason: "x" }),
      { kind: "invalid", message: /unknown power "narnia"; the powers are Austria/ },
    );
    const built = await judge.units.removeUnit(gm, id, {
      power: "France",
      cause: "built",
      reason: "one build too many",
    });
    assert.equal(built.removed.unit, "A gas", "the excess build, where it stands now");
    assert.match(
      built.removed.rule!,
      new RegExp(`built in ${winter}.*build of ${excess}.*now A gas`),
    );
    assert.equal(built.position.units.france!.includes("A gas"), false);
    const events = await judge.views.events(players.italy, id);
    const notice = events.find((e) => e.kind === "unit_removed")!.data as Record<string, string>;
    assert.equal(notice.unit, "A gas");
    assert.match(notice.rule!, /excess-builds rule/, "every player reads which rule named it");

    // Too few removed: the civil-disorder rule, distances from the position now. F por and
    // A bel are two moves from home; fleets go first.
    const dropped = await judge.units.removeUnit(gm, id, {
      power: "france",
      cause: "not-removed",
      reason: "a removal was missed",
    });
    assert.equal(dropped.removed.unit, "F por");
    assert.match(dropped.removed.rule!, /civil-disorder rule .* farthest from home \(2 moves\)/);
    assert.deepEqual(
      [...dropped.position.units.france!].sort(),
      ["A bel", "A spa", "F bre", excess === "A par" ? "A mar" : "A par"].sort(),
    );
    // Both extra units gone: nothing is left to remove, and the GM is told so.
    for (const cause of ["built", "not-removed"] as const) {
      await assert.rejects(
        judge.units.removeUnit(gm, id, { power: "france", cause, reason: "x" }),
        {
          kind: "invalid",
          message: new RegExp(`France's extra units from ${winter} have already been removed`),
        },
      );
    }
  });
}
