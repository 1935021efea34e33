import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { User } from "../src/judge/judge.ts";
import { STORE_KINDS } from "../src/store/testing.ts";
import { nmrs, OPTIONS, table, user } from "./one-path.ts";

/*
 * A classical game and a Global Diplomacy game in one judge go through the same code for
 * seats, deadlines, missed orders, civil disorder, replacement and GM corrections
 * (src/judge/games.ts, adjudication.ts, missed.ts, gm-tools.ts): each feature checked on both, side by side.
 * Votes, press, the GM's end of a game, draws and removed units: one-path-talk.test.ts.
 */

for (const kind of STORE_KINDS) {
  describe(`one path for every game family (${kind})`, () => {
    test("seats: taken by name, refused when taken, the game starts full with its deadline", async (t) => {
      const x = await table(t, kind);
      if (!x) return;
      const { judge, clock } = x;
      for (const id of [x.classical, x.global]) {
        const view = await judge.views.gameView(x.gm, id);
        assert.equal(
          view.status,
          "active",
          `${view.variant}: started when the last seat was taken`,
        );
        assert.equal(
          Date.parse(view.deadline!),
          clock.t + 10 * 60_000,
          `${view.variant}: the first deadline is the movement length`,
        );
        const code = view.invites!.find((i) => i.role === "player")!.code;
        const late = await user(judge, "late");
        await assert.rejects(
          judge.games.acceptInvite(late, code, { power: view.seatList[0]!.name }),
          /is taken/,
          `${view.variant}: a taken seat is refused`,
        );
        await assert.rejects(
          judge.games.acceptInvite(late, code, { power: "Atlantis" }),
          /nobody plays "Atlantis" in this game; the seats are/,
          `${view.variant}: an unknown power names the seats`,
        );
      }
    });

    test("deadlines, NMRs and civil disorder: both games adjudicated by one tick, misses recorded, seats vacated", async (t) => {
      const x = await table(t, kind);
      if (!x) return;
      const { judge, clock } = x;
      const france = x.players[x.classical]![2]!; // seats in power order: austria, england, france
      const china = x.players[x.global]![2]!;
      const chinaPower = (await judge.views.gameView(china, x.global)).you!.powers[0]!;
      for (let phase = 0; phase < 2; phase++) {
        await judge.submissions.submitOrders(france, x.classical, { orders: ["A par H"] });
        await judge.submissions.submitOrders(china, x.global, { orders: [] });
        assert.equal(await judge.adjudication.tick(), 0, "nothing due before the deadline");
        // The GM moves one game's deadline: the other is due at its own.
        await judge.gm.setDeadline(x.gm, x.global, {
          at: new Date(clock.t + 60_000).toISOString(),
        });
        clock.advance(60_000);
        assert.equal(await judge.adjudication.tick(), 1, "the global game, due first, alone");
        clock.advance(9 * 60_000);
        assert.equal(await judge.adjudication.tick(), 1, "then the classical game at its deadline");
      }
      const c = await nmrs(judge, x.classical);
      assert.equal(c.length, 12, "classical: six silent powers in two phases");
      assert.ok(!c.some((r) => r.power === "france"), "France sent orders");
      const g = await nmrs(judge, x.global);
      assert.equal(g.length, 20, "global: ten silent powers in two turns");
      assert.ok(!g.some((r) => r.power === chinaPower), "the power that sent commands");
      for (const [id, kept] of [
        [x.classical, france],
        [x.global, china],
      ] as const) {
        const view = await judge.views.gameView(x.gm, id);
        const held = view.seatList.filter((s) => s.player !== null);
        assert.equal(held.length, 1, `${view.variant}: every silent seat is in civil disorder`);
        assert.equal(held[0]!.player, kept.name, `${view.variant}: the one who sent keeps it`);
        const events = await judge.views.events(x.gm, id);
        const needed = events.filter((e) => e.kind === "replacement_needed");
        assert.equal(needed.length, view.seatList.length - 1, `${view.variant}: the GM is told`);
        const open = view.invites!.filter((i) => i.seat !== null);
        assert.equal(
          open.length,
          view.seatList.length - 1,
          `${view.variant}: a seat invitation each`,
        );
      }
      // Who missed is the moderator's to know in Global Diplomacy (seed 004 §8), public in Diplomacy.
      const seen = async (id: string) =>
        (await judge.views.events(china, id)).filter((e) => e.kind === "civil_disorder").length;
      assert.equal(await seen(x.classical), 6, "classical: civil disorder is public");
      assert.equal(await seen(x.global), 0, "global: players do not read it");
    });

    test("reminders: who still owes orders, asked of each game's rules the same way", async (t) => {
      const x = await table(t, kind);
      if (!x) return;
      const { judge } = x;
      for (const id of [x.classical, x.global]) {
        const view = await judge.views.gameView(x.gm, id);
        const a: User = x.players[id]![0]!;
        const b: User = x.players[id]![1]!;
        await judge.submissions.submitOrders(a, id, { orders: [], final: true });
        await judge.submissions.submitOrders(b, id, { orders: [] });
        const r = await judge.submissions.ordersOwed(id);
        assert.equal(r.phase, view.phase, `${view.variant}: the open phase`);
        assert.equal(r.deadline, view.deadline, `${view.variant}: its deadline`);
        assert.equal(
          r.owed.length,
          view.seatList.length - 1,
          `${view.variant}: all but the final one`,
        );
        assert.ok(!r.owed.some((o) => o.seat === 0), `${view.variant}: a final set owes nothing`);
        const second = r.owed.find((o) => o.seat === 1);
        assert.deepEqual(
          second?.powers.map((p) => p.onFile),
          ["preliminary"],
          `${view.variant}: a preliminary set is still owed, and said so`,
        );
        assert.equal(second?.userId, b.id, `${view.variant}: with its player`);
        assert.ok(
          r.owed.filter((o) => o.seat > 1).every((o) => o.powers.every((p) => p.onFile === "none")),
          `${view.variant}: the others have nothing on file`,
        );
      }
      // In the two-player game Italy is nobody's: never owed (the rules' mustOrder says who).
      const two = await judge.games.createGame(x.gm, {
        name: "2",
        scenario: "2",
        options: OPTIONS,
      });
      const code = two.invites!.find((i) => i.role === "player")!.code;
      for (const seat of two.seatList)
        await judge.games.acceptInvite(await user(judge, "t"), code, { seat: seat.index });
      const owed = (await judge.submissions.ordersOwed(two.id)).owed.flatMap((o) =>
        o.powers.map((p) => p.power),
      );
      assert.equal(owed.includes("italy"), false, "Italy is owed by nobody");
      assert.equal(owed.length, 6, "the six played powers");
    });

    test("replacement: the GM seats a new player in either game, who may then order", async (t) => {
      const x = await table(t, kind);
      if (!x) return;
      const { judge } = x;
      for (const id of [x.classical, x.global]) {
        const before = await judge.views.gameView(x.gm, id);
        const old = x.players[id]![1]!;
        const fresh = await user(judge, "fresh");
        const r = await judge.gm.replacePlayer(x.gm, id, { seat: 1, user: fresh.name });
        assert.deepEqual(
          r,
          { seat: 1, player: fresh.name, invite: null },
          `${before.variant}: seated`,
        );
        const view = await judge.views.gameView(fresh, id);
        assert.equal(view.you?.seat, 1, `${before.variant}: the new player holds seat 1`);
        const gone = await judge.views.gameView(old, id);
        assert.equal(gone.you?.role, "observer", `${before.variant}: the old one watches`);
        await assert.rejects(
          judge.submissions.submitOrders(old, id, { orders: [] }),
          /only a player with a seat/,
          `${before.variant}: the old player may no longer order`,
        );
        const sent = await judge.submissions.submitOrders(fresh, id, { orders: [] });
        assert.equal(sent.phase, before.phase, `${before.variant}: the new player orders`);
        const byInvite = await judge.gm.replacePlayer(x.gm, id, { seat: 2 });
        assert.ok(byInvite.invite, `${before.variant}: or an invitation for the seat`);
      }
    });

    test("GM corrections: the last phase of either game played again with a power's set replaced", async (t) => {
      const x = await table(t, kind);
      if (!x) return;
      const { judge, clock } = x;
      const NOTE = "CORRECTEDNOTEQX";
      const globalSender = x.players[x.global]![2]!;
      const globalReader = x.players[x.global]![0]!;
      const sender = (await judge.views.gameView(globalSender, x.global)).you!.powers[0]!;
      const reader = (await judge.views.gameView(globalReader, x.global)).you!.powers[0]!;
      // Both games adjudicated with France and the third global power silent.
      clock.advance(10 * 60_000);
      assert.equal(await judge.adjudication.tick(), 2, "both games adjudicated at their deadline");
      const before = await judge.views.report(globalReader, x.global, {});
      assert.doesNotMatch(before.report, new RegExp(NOTE), "no message before the correction");
      // Only the GM corrects, and only powers of the game.
      await assert.rejects(
        judge.gm.correct(globalReader, x.global, { reason: "x" }),
        /only the game master/,
        "a player may not correct",
      );
      for (const id of [x.classical, x.global])
        await assert.rejects(
          judge.gm.correct(x.gm, id, { orders: { atlantis: [] }, reason: "x" }),
          /unknown power "atlantis"; the powers are/,
          "an unknown power is refused with the game's powers",
        );

      // The commands reached the GM in time after all.
      await judge.gm.correct(x.gm, x.classical, {
        orders: { France: ["A par-bur", "F bre-mao"] },
        reason: "France's orders arrived in time",
      });
      await judge.gm.correct(x.gm, x.global, {
        orders: { [sender]: [`ME ${reader} ${NOTE}`] },
        reason: "the commands arrived in time",
      });

      // Classical: the phase's results and the board everybody sees are the corrected ones.
      const phases = await judge.views.phases(x.classical);
      assert.equal(phases.length, 1, "classical: still one phase adjudicated");
      assert.deepEqual(phases[0]!.orders.france, ["A par-bur", "F bre-mao"], "France's orders");
      const seen = await judge.views.gameView(x.players[x.classical]![0]!, x.classical);
      assert.deepEqual(
        [...seen.position.units.france!].sort(),
        ["A bur", "A mar", "F mao"],
        "classical: a player sees France's corrected moves",
      );
      assert.equal(seen.phase, "F1901M", "classical: the next phase is open");

      // Global: the turn played again, its reports re-issued: the message is received.
      const turns = (await judge.views.familyTurns(x.gm, x.global)).turns;
      assert.equal(turns.length, 1, "global: still one turn adjudicated");
      assert.deepEqual(turns[0]!.orders[sender], [`ME ${reader} ${NOTE}`], "the corrected set");
      assert.ok(!turns[0]!.missed.includes(sender), "the sender no longer missed the turn");
      const after = await judge.views.report(globalReader, x.global, {});
      assert.equal(after.turn, 1, "global: the report of turn 1");
      assert.match(after.report, new RegExp(NOTE), "the reader now receives the message");
      assert.equal((await judge.views.gameView(globalReader, x.global)).phase, "T2", "T2 is open");

      for (const [id, power] of [
        [x.classical, "france"],
        [x.global, sender],
      ] as const) {
        const view = await judge.views.gameView(x.gm, id);
        assert.ok(
          !(await nmrs(judge, id)).some((r) => r.power === power),
          `${view.variant}: the corrected power's NMR is gone`,
        );
        assert.equal(
          Date.parse(view.deadline!),
          clock.t + 10 * 60_000,
          `${view.variant}: the next deadline is kept`,
        );
        const superseded = await judge.store.db
          .selectFrom("phases")
          .select("idx")
          .where("game_id", "=", id)
          .where("superseded", "=", 1)
          .execute();
        assert.equal(superseded.length, 1, `${view.variant}: the old result kept for the audit`);
        const events = await judge.views.events(x.players[id]![0]!, id);
        const told = events.filter((e) => e.kind === "phase_corrected");
        assert.equal(told.length, 1, `${view.variant}: the players are told of the correction`);
        const data = told[0]!.data as { powers?: string[] };
        // Whose commands changed is public in Diplomacy, the moderator's in Global Diplomacy.
        assert.deepEqual(
          data.powers,
          id === x.classical ? ["france"] : undefined,
          `${view.variant}: whose orders changed`,
        );
      }
    });
  });
}
