import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { STORE_KINDS, testStore } from "../store/testing.ts";
import {
  allHold,
  elevenPlayers,
  globalGame,
  judgeWithGm,
  passDeadline,
  sevenPlayerGameOn,
  user,
} from "./testing.ts";

/*
 * Missed orders (NMRs) on SQLite and PostgreSQL: a phase adjudicated without them and
 * recorded, civil disorder after the set number, the GM replacing a player, the seat kept by
 * default with the player and the GM told; and in Global Diplomacy, whose civil disorder only
 * the GM reads, each player who lost the seat is told of their own.
 */

for (const kind of STORE_KINDS) {
  describe(`judge on ${kind}`, () => {
    test("missed orders: adjudicated without them, recorded; civil disorder after two; GM replaces", async (t) => {
      const g = await sevenPlayerGameOn(t, kind, { civilDisorderAfter: 2 });
      if (!g) return;
      await allHold(g, ["italy"]);
      await passDeadline(g);
      let view = await g.judge.views.gameView(g.gm, g.gameId);
      assert.equal(view.seatList[4]!.player !== null, true, "one NMR is not yet civil disorder");
      await allHold(g, ["italy"]);
      await passDeadline(g);
      view = await g.judge.views.gameView(g.gm, g.gameId);
      assert.equal(view.phase, "S1902M");
      assert.equal(view.seatList[4]!.player, null);
      const record = await g.judge.views.record(g.gameId);
      assert.deepEqual(record.phases[1]!.civilDisorder, ["italy"]);
      const events = await g.judge.views.events(g.gm, g.gameId);
      const cd = events.find((e) => e.kind === "civil_disorder");
      assert.deepEqual(cd?.data, {
        seat: 4,
        seatName: "Italy",
        missed: 2,
        player: g.players.italy.name,
        phase: "F1901M",
      });
      // Italy's player, now an observer, is told how they lost the seat; nobody else is.
      const lostItaly = (await g.judge.views.gameView(g.players.italy, g.gameId)).lostSeat;
      assert.deepEqual(lostItaly && { ...lostItaly, at: typeof lostItaly.at }, {
        seat: 4,
        seatName: "Italy",
        phase: "F1901M",
        at: "string",
        cause: "civil_disorder",
        missed: 2,
      });
      assert.equal((await g.judge.views.gameView(g.players.italy, g.gameId)).you?.role, "observer");
      for (const who of [g.gm, g.players.france, null])
        assert.equal(
          "lostSeat" in (await g.judge.views.gameView(who, g.gameId)),
          false,
          "the GM, a player and an anonymous viewer get no lostSeat",
        );
      const replacement = events.find((e) => e.kind === "replacement_needed");
      assert.ok(replacement, "the GM is told, with an invitation for the seat");
      assert.equal(
        (await g.judge.views.events(g.players.france, g.gameId)).some(
          (e) => e.kind === "replacement_needed",
        ),
        false,
      );
      await assert.rejects(
        g.judge.submissions.submitOrders(g.players.italy, g.gameId, { orders: [] }),
        {
          kind: "forbidden",
        },
      );
      const newcomer = await user(g.judge, "newcomer");
      await g.judge.gm.replacePlayer(g.gm, g.gameId, { seat: 4, user: newcomer.name });
      const ans = await g.judge.submissions.submitOrders(newcomer, g.gameId, {
        orders: ["A ven H"],
      });
      assert.equal(ans.diagnostics[0]!.ok, true);
      const replaced = async () =>
        (await g.judge.views.events(g.gm, g.gameId))
          .filter((e) => e.kind === "player_replaced")
          .map((e) => e.data);
      assert.deepEqual(
        await replaced(),
        [{ seat: 4, seatName: "Italy", player: newcomer.name, former: null, phase: "S1902M" }],
        "the seat was empty: nobody lost it",
      );
      assert.equal(
        (await g.judge.views.gameView(g.players.italy, g.gameId)).lostSeat?.cause,
        "civil_disorder",
        "still told after the seat went to a replacement",
      );
      // Given to its own holder, nobody loses it; taken from France, France's player did.
      await g.judge.gm.replacePlayer(g.gm, g.gameId, { seat: 4, user: newcomer.name });
      await g.judge.gm.replacePlayer(g.gm, g.gameId, { seat: 2 });
      assert.deepEqual((await replaced()).slice(1), [
        { seat: 4, seatName: "Italy", player: newcomer.name, former: null, phase: "S1902M" },
        {
          seat: 2,
          seatName: "France",
          player: null,
          former: g.players.france.name,
          phase: "S1902M",
        },
      ]);
      const lostFrance = (await g.judge.views.gameView(g.players.france, g.gameId)).lostSeat;
      assert.deepEqual(lostFrance && { ...lostFrance, at: undefined }, {
        seat: 2,
        seatName: "France",
        phase: "S1902M",
        at: undefined,
        cause: "replaced",
        to: null,
      });
      assert.equal("lostSeat" in (await g.judge.views.gameView(newcomer, g.gameId)), false);
      // Only the GM seats them again: not the game's general invitation, which they still hold;
      // a seat's own invitation does.
      const general = (await g.judge.views.gameView(g.gm, g.gameId)).invites!.find(
        (i) => i.role === "player" && i.seat === null,
      )!.code;
      await assert.rejects(
        g.judge.games.acceptInvite(g.players.france, general, { power: "france" }),
        {
          kind: "forbidden",
          message:
            /you lost your seat \(France\) in this game: only the GM can give you a seat again/,
        },
      );
      const own = (await g.judge.views.gameView(g.gm, g.gameId)).invites!.find(
        (i) => i.seat === 2,
      )!.code;
      await g.judge.games.acceptInvite(g.players.france, own, {});
      assert.equal((await g.judge.views.gameView(g.players.france, g.gameId)).you?.seat, 2);
      await g.judge.gm.replacePlayer(g.gm, g.gameId, { seat: 2 });
      // Given back (France's seat to its former player): nothing lost any more.
      await g.judge.gm.replacePlayer(g.gm, g.gameId, { seat: 2, user: g.players.france.name });
      assert.equal("lostSeat" in (await g.judge.views.gameView(g.players.france, g.gameId)), false);
      await assert.rejects(g.judge.gm.replacePlayer(g.players.austria, g.gameId, { seat: 4 }), {
        kind: "forbidden",
      });
    });

    test("missed orders, by default: the seat is kept, player and GM told, the GM after the contact window", async (t) => {
      const g = await sevenPlayerGameOn(t, kind);
      if (!g) return;
      assert.equal((await g.judge.views.gameView(g.gm, g.gameId)).options.contactWindowHours, 24);
      await allHold(g, ["italy", "russia"]);
      await passDeadline(g);
      const kinds = async (who: typeof g.gm, k: string) =>
        (await g.judge.views.events(who, g.gameId)).filter((e) => e.kind === k);
      const toItaly = await kinds(g.players.italy, "missed_orders");
      assert.deepEqual(
        toItaly.map((e) => (e.data as { seatName: string }).seatName),
        ["Italy"],
        "Italy reads its own NMR notice, not Russia's",
      );
      assert.deepEqual(
        toItaly[0]!.data,
        {
          seat: 4,
          seatName: "Italy",
          player: g.players.italy.name,
          powers: ["italy"],
          phase: "S1901M",
          index: 0,
          contactUntil: new Date(g.clock.t + 24 * 3_600_000).toISOString(),
        },
        "who, what, and until when the GM tries to reach the player",
      );
      assert.equal((await kinds(g.gm, "missed_orders")).length, 2, "the GM reads both");
      assert.equal((await kinds(g.players.france, "missed_orders")).length, 0, "not France");
      // Russia comes back within the window; Italy stays silent.
      await g.judge.submissions.submitOrders(g.players.russia, g.gameId, { orders: ["A mos H"] });
      g.clock.t += 24 * 3_600_000 - 1;
      assert.equal(await g.judge.adjudication.tick(), 0);
      assert.equal((await kinds(g.gm, "replacement_suggested")).length, 0, "the window is open");
      g.clock.t += 1;
      await g.judge.adjudication.tick();
      await g.judge.adjudication.tick();
      const suggested = await kinds(g.gm, "replacement_suggested");
      assert.deepEqual(
        suggested.map((e) => e.data),
        [
          {
            seat: 4,
            seatName: "Italy",
            player: g.players.italy.name,
            phase: "S1901M",
            index: 0,
            missed: 1,
          },
        ],
        "once, for Italy alone: Russia sent orders",
      );
      assert.equal((await kinds(g.players.italy, "replacement_suggested")).length, 0, "GM only");
      // A second missed phase: still Italy's seat, no civil disorder; the GM decides.
      await allHold(g, ["italy"]);
      await passDeadline(g);
      const view = await g.judge.views.gameView(g.gm, g.gameId);
      assert.equal(view.seatList[4]!.player, g.players.italy.name, "the seat is kept");
      assert.equal((await kinds(g.gm, "civil_disorder")).length, 0, "no automatic civil disorder");
      const ans = await g.judge.submissions.submitOrders(g.players.italy, g.gameId, { orders: [] });
      assert.ok(ans, "Italy may still order");
      await g.judge.gm.replacePlayer(g.gm, g.gameId, { seat: 4 });
      assert.equal(
        (await g.judge.views.gameView(g.gm, g.gameId)).seatList[4]!.player,
        null,
        "by the GM",
      );
    });
  });
}

test("Global Diplomacy: whose civil disorder only the GM reads, each player who lost the seat is told of their own", async (t) => {
  const ts = await testStore(t, "sqlite");
  if (!ts) return;
  const { clock, judge, gm } = await judgeWithGm(ts.store);
  const game = await globalGame(judge, gm, { civilDisorderAfter: 1 });
  const players = Object.values(await elevenPlayers(judge, game, "gd"));
  const seats = (await judge.views.gameView(gm, game.id)).seatList;
  const turn = (await judge.views.gameView(gm, game.id)).phase;
  // Nobody sends commands: every seat falls into civil disorder with the first turn.
  clock.t = Date.parse((await judge.views.gameView(gm, game.id)).deadline!) + 1;
  assert.equal(await judge.adjudication.tick(), 1, "turn 1 adjudicated");
  for (const [i, p] of players.entries()) {
    const view = await judge.views.gameView(p, game.id);
    assert.deepEqual(view.lostSeat && { ...view.lostSeat, at: undefined }, {
      seat: i,
      seatName: seats[i]!.name,
      phase: turn,
      at: undefined,
      cause: "civil_disorder",
      missed: 1,
    });
    assert.deepEqual(
      (await judge.views.events(p, game.id)).filter((e) => e.kind === "civil_disorder"),
      [],
      "the event itself stays the GM's",
    );
  }
  assert.equal(
    (await judge.views.events(gm, game.id)).filter((e) => e.kind === "civil_disorder").length,
    11,
  );
  assert.equal("lostSeat" in (await judge.views.gameView(gm, game.id)), false);
});
