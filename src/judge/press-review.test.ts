import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { STORE_KINDS } from "../store/testing.ts";
import { sevenPlayerGame, sevenPlayerGameOn } from "./testing.ts";

/*
 * The GM's review of press (seed 002 X(1), the game option press.review; src/judge/press.ts):
 * a player's message is held, read by its author and the GM only, until the GM approves it
 * (delivered as sent, its time kept) or refuses it with a reason told to the author alone.
 */

const bodies = (ms: readonly { body: string }[]) => ms.map((m) => m.body);

for (const kind of STORE_KINDS) {
  describe(`press review on ${kind}`, () => {
    test("held press is read by its author and the GM only until approved, then delivered as sent", async (t) => {
      const g = await sevenPlayerGameOn(t, kind, { press: { review: true } });
      if (!g) return;
      const { judge, players, clock } = g;
      const sentAt = clock.t;
      const sent = await judge.press.sendPress(players.england, g.gameId, {
        to: ["france"],
        body: "Channel stays empty?",
      });
      assert.equal("held" in sent && sent.held, 1);
      const second = await judge.press.sendPress(players.germany, g.gameId, {
        to: "all",
        body: "Hello all",
        kind: "grey",
      });
      // Germany's first held message, whatever others sent: no count of others' press.
      assert.equal("held" in second && second.held, 1);
      // Nobody but the author and the GM knows of them: no press, no event.
      for (const who of [players.france, players.italy, null]) {
        assert.deepEqual(await judge.press.press(who, g.gameId), []);
        const events = await judge.views.events(who, g.gameId);
        assert.ok(
          !events.some((e) => e.kind.startsWith("press")),
          "no press event before approval",
        );
      }
      assert.deepEqual(
        await judge.press.press(players.england, g.gameId),
        [],
        "not yet in the press",
      );
      const own = await judge.press.heldPress(players.england, g.gameId);
      assert.deepEqual(
        own.map((m) => [m.n, m.status, m.body]),
        [[1, "held", "Channel stays empty?"]],
      );
      assert.deepEqual(await judge.press.heldPress(players.france, g.gameId), []);
      assert.deepEqual(
        (await judge.press.heldPress(players.germany, g.gameId)).map((m) => m.n),
        [1],
        "the author's own numbers",
      );
      const gmHeld = await judge.press.heldPress(g.gm, g.gameId);
      assert.deepEqual(
        gmHeld.map((m) => [m.n, m.from, m.status]),
        [
          [1, "england", "held"],
          [2, "germany", "held"],
        ],
      );
      const gmEvents = await judge.views.events(g.gm, g.gameId);
      assert.equal(
        gmEvents.filter((e) => e.kind === "press_held").length,
        2,
        "the GM is told once per message",
      );
      // Players may not decide.
      await assert.rejects(judge.press.approvePress(players.france, g.gameId, 1), {
        kind: "forbidden",
      });
      clock.advance(3_600_000);
      assert.deepEqual(await judge.press.approvePress(g.gm, g.gameId, 1), {
        held: 1,
        status: "approved",
      });
      await assert.rejects(judge.press.approvePress(g.gm, g.gameId, 1), {
        kind: "conflict",
        message: /already approved/,
      });
      await assert.rejects(judge.press.approvePress(g.gm, g.gameId, 9), { kind: "not-found" });
      const france = await judge.press.press(players.france, g.gameId);
      assert.deepEqual(
        france.map((m) => [m.id, m.from, m.body, m.at]),
        [[1, "england", "Channel stays empty?", new Date(sentAt).toISOString()]],
        "delivered as sent, its time kept",
      );
      const fe = await judge.views.events(players.france, g.gameId);
      assert.equal(fe.filter((e) => e.kind === "press").length, 1);
      assert.deepEqual(
        bodies(await judge.press.press(players.italy, g.gameId)),
        [],
        "private stays private",
      );
      assert.equal((await judge.press.press(players.england, g.gameId))[0]!.yours, true);
      const ee = await judge.views.events(players.england, g.gameId);
      assert.ok(
        ee.some((e) => e.kind === "press_approved"),
        "the author is told",
      );
      // Germany's grey press, approved: public, authorship still hidden.
      await judge.press.approvePress(g.gm, g.gameId, 2);
      const italy = await judge.press.press(null, g.gameId);
      assert.deepEqual(
        italy.map((m) => [m.from, m.body]),
        [[null, "Hello all"]],
      );
    });

    test("refused press is never delivered; its author alone is told the reason", async (t) => {
      const g = await sevenPlayerGameOn(t, kind, { press: { review: true } });
      if (!g) return;
      const { judge, players } = g;
      await judge.press.sendPress(players.russia, g.gameId, { to: "all", body: "Rude words" });
      await assert.rejects(judge.press.refusePress(g.gm, g.gameId, 1, "  "), {
        kind: "invalid",
        message: /reason/,
      });
      await assert.rejects(judge.press.refusePress(players.turkey, g.gameId, 1, "no"), {
        kind: "forbidden",
      });
      const r = await judge.press.refusePress(g.gm, g.gameId, 1, "Insults are not published");
      assert.deepEqual(r, { held: 1, status: "refused", reason: "Insults are not published" });
      await assert.rejects(judge.press.approvePress(g.gm, g.gameId, 1), { kind: "conflict" });
      for (const who of [players.turkey, null, g.gm, players.russia]) {
        assert.deepEqual(await judge.press.press(who, g.gameId), [], "never in the press");
      }
      for (const who of [players.turkey, players.france, null]) {
        const events = await judge.views.events(who, g.gameId);
        assert.ok(!events.some((e) => e.kind.startsWith("press")), "nobody else learns of it");
      }
      const re = await judge.views.events(players.russia, g.gameId);
      const told = re.find((e) => e.kind === "press_refused");
      assert.equal(
        (told?.data as { reason?: string } | undefined)?.reason,
        "Insults are not published",
      );
      const own = await judge.press.heldPress(players.russia, g.gameId);
      assert.deepEqual(
        own.map((m) => [m.status, m.reason]),
        [["refused", "Insults are not published"]],
      );
    });

    test("the GM's own press is not held; with the option off press goes out at once", async (t) => {
      const g = await sevenPlayerGameOn(t, kind, { press: { review: true } });
      if (!g) return;
      const sent = await g.judge.press.sendPress(g.gm, g.gameId, { to: "all", body: "Welcome" });
      assert.equal("id" in sent && sent.id, 1);
      assert.deepEqual(bodies(await g.judge.press.press(g.players.italy, g.gameId)), ["Welcome"]);
      assert.deepEqual(await g.judge.press.heldPress(g.gm, g.gameId), []);

      const off = await sevenPlayerGame(g.judge.store);
      const plain = await off.judge.press.sendPress(off.players.england, off.gameId, {
        to: ["france"],
        body: "Hi",
      });
      assert.ok(!("held" in plain), "not held");
      assert.deepEqual(bodies(await off.judge.press.press(off.players.france, off.gameId)), ["Hi"]);
      assert.deepEqual(await off.judge.press.heldPress(off.gm, off.gameId), []);
      const fe = await off.judge.views.events(off.players.france, off.gameId);
      assert.equal(fe.filter((e) => e.kind === "press").length, 1);
    });
  });
}
