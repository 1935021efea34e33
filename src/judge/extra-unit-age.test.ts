import assert from "node:assert/strict";
import { test } from "node:test";
import { GAME_ADDRESS, gatewayOf, rawMail } from "../mail/testing.ts";
import { serveJudge, waitFor } from "../server/testing.ts";
import { STORE_KINDS } from "../store/testing.ts";
import { configureMailGame, setMailAddress } from "./mail.ts";
import { POWERS, rewritePhase, withoutCentres } from "./testing.ts";

/*
 * Seed 002 VIII(2) removes an extra unit that "has existed for more than one adjudication";
 * one that came in the last adjudication only is an error of that adjudication, corrected
 * under VIII(1) (gm/correct, CORRECT by mail). Both sides of the boundary, by the API and by
 * mail, on both stores: an excess build in W1901A is refused right after W1901A, with the
 * correction named; after S1902M it is removed.
 */

for (const kind of STORE_KINDS) {
  test(`VIII(2) after more than one adjudication only; the last one is corrected (${kind})`, async (t) => {
    const served = await serveJudge(t, kind);
    if (!served) return;
    const { api, judge, clock } = served;
    const gm = await judge.accounts.register(`gm-${kind}`, "correct horse battery");
    const created = await judge.games.createGame(gm.user, { name: "Dutchman", seed: 7 });
    const id = created.id;
    await configureMailGame(judge, gm.user, id, { abbreviation: "SED", address: GAME_ADDRESS });
    const code = created.invites!.find((i) => i.role === "player")!.code;
    const players: Record<string, Awaited<ReturnType<typeof judge.accounts.register>>["user"]> = {};
    for (const p of POWERS) {
      players[p] = (await judge.accounts.register(`${p}-${kind}`, "correct horse battery")).user;
      await judge.games.acceptInvite(players[p]!, code, { power: p });
    }
    const pass = async (france: string[]) => {
      const before = (await judge.views.gameView(gm.user, id)).phase;
      if (france.length > 0)
        await judge.submissions.submitOrders(players.france!, id, { orders: france });
      clock.t = Date.parse((await judge.views.gameView(gm.user, id)).deadline!) + 1;
      // The server's scheduler may adjudicate it first: wait for the next phase either way.
      await judge.adjudication.tick();
      await waitFor(`${before} adjudicated`, async () => {
        return (await judge.views.gameView(gm.user, id)).phase !== before;
      });
    };
    await pass(["A par-bur", "A mar-spa", "F bre-mao"]);
    await pass(["F mao-por", "A bur-bel"]);
    await pass(["build A par", "build F bre", "build A mar"]);
    // The adjudication as published miscounted France's centres: two builds over the number.
    await rewritePhase(served.store, id, "W1901A", (r) =>
      withoutCentres(r, "france", ["spa", "por"]),
    );
    const remove = (body: Record<string, unknown>) =>
      api.call<{ error?: string; removed?: { unit: string } }>(
        "POST",
        `/api/games/${id}/gm/remove-unit`,
        { power: "france", reason: "one build too many", ...body },
        gm.token,
      );

    // One adjudication (W1901A) since the excess build: refused, the correction named.
    // No removal was ever due: NOT-REMOVED has nothing to remove, whatever the age.
    const none = await remove({ cause: "not-removed" });
    assert.equal(none.status, 400, JSON.stringify(none.body));
    assert.match(String(none.body.error), /no removal was ever due for France/);
    for (const body of [{ cause: "built" }, { unit: "A mar" }]) {
      const refused = await remove(body);
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.match(
        String(refused.body.error),
        /France's extra unit \([AF] [a-z/]+\) came to be in W1901A, the last adjudication: it has not existed for more than one adjudication.*corrects \(VIII\(1\)\).*gm\/correct/,
      );
    }
    const secret = (await setMailAddress(judge, gm.user, { address: "gm@club.test" })).secret;
    const gw = gatewayOf(judge);
    const send = async (subject: string) =>
      (
        await gw.receive(
          rawMail({
            from: "gm@club.test",
            to: GAME_ADDRESS,
            subject,
            text: `Secret: ${secret}\nReason: one build too many`,
          }),
        )
      ).replies[0]!;
    const byMail = await send("REMOVE SED France BUILT");
    assert.match(byMail.text, /NOT done.*came to be in W1901A, the last adjudication/s);
    assert.match(
      byMail.text,
      /What to send instead: "CORRECT SED France" with a line "Reason: \.\.\." and the orders France should have had in W1901A \(seed 002 VIII\(1\)\)/,
    );
    const named = await send("REMOVE SED France NOT-REMOVED W1901A");
    assert.match(named.text, /NOT done.*no removal was ever due for France in W1901A/s);
    // A phase named that was not adjudicated: a clear refusal.
    const unknown = await remove({ unit: "A mar", phase: "F1905M" });
    assert.equal(unknown.status, 400);
    assert.match(String(unknown.body.error), /F1905M is not a phase adjudicated in this game/);
    assert.equal(
      (await judge.views.gameView(gm.user, id)).position.units.france!.length,
      6,
      "nothing removed",
    );

    // A second adjudication (S1902M) published: VIII(2) applies, by the API and by mail.
    await pass([]);
    const removed = await remove({ unit: "A mar" });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(removed.body.removed!.unit, "A mar");
    const mailed = await send("REMOVE SED France BUILT W1901A");
    assert.match(mailed.text, /France's [AF] [a-z]+ is removed from the board of SED/);
    assert.equal((await judge.views.gameView(gm.user, id)).position.units.france!.length, 4);
  });
}
