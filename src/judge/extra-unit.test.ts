import assert from "node:assert/strict";
import { test } from "node:test";
import { testStore } from "../store/testing.ts";
import type { Judge } from "./judge.ts";
import { Clock, rewritePhase, sevenPlayerGame, withoutCentres } from "./testing.ts";

/*
 * Seed 002 VIII(2): an extra unit removed by the house rule that applies, not picked by hand:
 * too many built, the excess-builds rule (V(2)) names the build over the number, followed to
 * where that unit stands now; too few removed, the civil-disorder rule (V(4)) names the unit
 * farthest from home on the board as it stands.
 */

/** What the GM's removal of a unit asks (`judge.units.removeUnit`). */
type RemoveUnit = Parameters<Judge["units"]["removeUnit"]>[2];

for (const [rules, excess] of [
  // DATC: builds beyond the number are taken in the order written: the last written is over.
  ["datc", "A mar"],
  // House rules V(2) Alternative B: counted from the bottom up: the topmost is over.
  ["houserules", "A par"],
] as const) {
  test(`an extra unit by the house rule (${rules}): the excess build, then the farthest from home`, async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const g = await sevenPlayerGame(ts.store, {}, new Clock(), { name: "Dutchman", rules });
    const { clock, judge, gm, players, gameId: id } = g;
    const pass = async (france: string[]) => {
      const view = await judge.views.gameView(gm, id);
      if (france.length > 0)
        await judge.submissions.submitOrders(players.france, id, { orders: france });
      clock.t = Date.parse(view.deadline!) + 1;
      assert.equal(await judge.adjudication.tick(), 1, `${view.phase} adjudicated`);
      return (await judge.views.gameView(gm, id)).phase!;
    };
    /** The GM's removal of an extra unit, asked so (reason "x"), is refused, saying `message`. */
    const refused = (ask: Omit<RemoveUnit, "reason">, message: RegExp) =>
      assert.rejects(judge.units.removeUnit(gm, id, { ...ask, reason: "x" }), {
        kind: "invalid",
        message,
      });
    await pass(["A par-bur", "A mar-spa", "F bre-mao"]);
    const winter = await pass(["F mao-por", "A bur-bel"]);
    await pass(["build A par", "build F bre", "build A mar"]);
    // The record shows no excess (six centres, six units): nothing to remove, and why.
    await refused(
      { power: "france", cause: "built" },
      new RegExp(
        `France built 3 units in ${winter} and had as many units as supply centres after it \\(6 units, 6 centres\\): no build was over the number, so there is no extra unit to remove`,
      ),
    );
    await refused({ power: "france", cause: "not-removed" }, /no removal was ever due for France/);
    // The unit built over the number walks off before anybody notices.
    await pass([`${excess} - gas`]);
    await refused({ power: "france", cause: "built" }, /no build was over the number/);
    // An erroneous adjudication published: the centre table miscounted in the fall (France
    // owed a removal) and in the winter, where France built two over the number.
    await rewritePhase(ts.store, id, "F1901M", (r) =>
      withoutCentres(r, "france", ["bre", "spa", "por", "bel"]),
    );
    await rewritePhase(ts.store, id, winter, (r) => withoutCentres(r, "france", ["spa", "por"]));

    await refused({ power: "france", unit: "A gas", cause: "built" }, /not both/);
    await refused({ power: "england", cause: "built" }, /England has built no unit/);
    await refused(
      { power: "france", cause: "built", phase: "S1901M" },
      /France built nothing in S1901M/,
    );
    await refused(
      { power: "narnia", cause: "built" },
      /unknown power "narnia"; the powers are Austria/,
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
