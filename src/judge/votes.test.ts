import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { STORE_KINDS } from "../store/testing.ts";
import { allHold, POWERS, passDeadline, sevenPlayerGame, sevenPlayerGameOn } from "./testing.ts";

/*
 * Votes on SQLite and PostgreSQL: unanimity of those not abstaining (uncast is no, only the
 * counts published), proposing is voting yes, a house-rule change passing with the GM's vote,
 * and the GM refusing a repetitive proposal with a reason.
 */

for (const kind of STORE_KINDS) {
  describe(`judge on ${kind}`, () => {
    test("votes: unanimity of those not abstaining, uncast is no, only counts published", async (t) => {
      const g = await sevenPlayerGameOn(t, kind);
      if (!g) return;
      const { judge, players } = g;
      const p1 = await judge.votes.propose(players.england, g.gameId, { kind: "draw" });
      assert.deepEqual(p1.powers, [...POWERS]);
      // No second proposal to end the game while one is open, from anyone.
      for (const [who, input] of [
        ["france", { kind: "draw" as const, powers: ["france", "england"] }],
        ["germany", { kind: "concede" as const, powers: ["germany"] }],
      ] as const) {
        await assert.rejects(judge.votes.propose(players[who], g.gameId, input), (e: Error) => {
          assert.equal((e as { kind?: string }).kind, "conflict");
          assert.match(e.message, new RegExp(`proposal ${p1.id} \\(draw: .*\\) is still open`));
          assert.match(e.message, /once it is decided with the orders of S1901M/);
          return true;
        });
      }
      for (const p of POWERS) {
        if (p === "italy") continue; // Italy does not vote: that is a no
        await judge.votes.vote(players[p], g.gameId, p1.id, p === "turkey" ? "abstain" : "yes");
      }
      await judge.votes.vote(players.austria, g.gameId, p1.id, "no");
      await judge.votes.vote(players.austria, g.gameId, p1.id, "yes"); // a revised vote
      const listed = await judge.votes.proposals(players.france, g.gameId);
      assert.equal(listed[0]!.yours, false);
      assert.equal(listed[0]!.yourVote, "yes");
      assert.equal((await judge.votes.proposals(players.england, g.gameId))[0]!.yours, true);
      await assert.rejects(judge.votes.vote(g.gm, g.gameId, p1.id, "yes"), { kind: "forbidden" });
      await passDeadline(g);
      const decided = (await judge.votes.proposals(players.france, g.gameId))[0]!;
      assert.equal(decided.status, "failed");
      assert.deepEqual(decided.counts, { for: 5, against: 1, abstain: 1 });
      assert.equal(decided.yourVote, undefined);
      const result = (await judge.views.events(players.france, g.gameId)).find(
        (e) => e.kind === "vote_result",
      );
      assert.deepEqual(result?.data, {
        id: p1.id,
        kind: "draw",
        text: "A draw including all survivors",
        passed: false,
        for: 5,
        against: 1,
        abstain: 1,
      });
      assert.ok(!JSON.stringify(result).includes("england"), "neither proposer nor voters named");
      assert.equal(
        (await judge.views.phases(g.gameId)).length,
        1,
        "a failed vote goes with the adjudication",
      );

      // A house-rule change needs the GM too; passed, it applies.
      const rule = await judge.votes.propose(players.france, g.gameId, {
        kind: "houserule",
        text: "Phases resolve once all orders are final",
        options: { resolveEarly: true },
      });
      for (const p of POWERS) await judge.votes.vote(players[p], g.gameId, rule.id, "yes");
      // A concession: France counts as yes without voting.
      const c = await judge.votes.propose(players.germany, g.gameId, {
        kind: "concede",
        powers: ["france"],
      });
      for (const p of POWERS)
        if (p !== "france") await judge.votes.vote(players[p], g.gameId, c.id, "yes");
      await passDeadline(g);
      let list = await judge.votes.proposals(players.france, g.gameId);
      assert.equal(list[1]!.status, "failed", "the GM did not vote");
      assert.equal(list[2]!.status, "passed");
      assert.deepEqual(list[2]!.counts, { for: 7, against: 0, abstain: 0 });
      const view = await judge.views.gameView(g.gm, g.gameId);
      assert.equal(view.status, "finished");
      assert.deepEqual(view.result, {
        kind: "concession",
        winner: "france",
        powers: ["france"],
        by: "vote",
      });
      assert.equal(
        (await judge.views.phases(g.gameId)).length,
        1,
        "published instead of the adjudication",
      );
      await assert.rejects(
        judge.submissions.submitOrders(players.france, g.gameId, { orders: [] }),
        {
          kind: "conflict",
        },
      );
      list = await judge.votes.proposals(players.france, g.gameId);
      assert.equal(list.length, 3);
    });

    test("proposing is voting yes: the proposer need not vote again, and may change it", async (t) => {
      const g = await sevenPlayerGameOn(t, kind);
      if (!g) return;
      const { judge, players } = g;
      const p1 = await judge.votes.propose(players.england, g.gameId, { kind: "draw" });
      assert.equal(p1.yourVote, "yes", "the answer says the proposer's vote");
      assert.equal((await judge.votes.proposals(players.england, g.gameId))[0]!.yourVote, "yes");
      assert.equal((await judge.votes.proposals(players.france, g.gameId))[0]!.yourVote, null);
      for (const p of POWERS)
        if (p !== "england") await judge.votes.vote(players[p], g.gameId, p1.id, "yes");
      await passDeadline(g);
      let list = await judge.votes.proposals(players.france, g.gameId);
      assert.equal(list[0]!.status, "passed", "England's proposal is England's yes");
      assert.deepEqual(list[0]!.counts, { for: 7, against: 0, abstain: 0 });

      // Another game: the proposer changes their mind (IX(5) C: they may vote against it).
      const h = await sevenPlayerGame(g.judge.store);
      const p2 = await h.judge.votes.propose(h.players.france, h.gameId, { kind: "draw" });
      await h.judge.votes.vote(h.players.france, h.gameId, p2.id, "no");
      for (const p of POWERS)
        if (p !== "france") await h.judge.votes.vote(h.players[p], h.gameId, p2.id, "yes");
      await passDeadline(h);
      list = await h.judge.votes.proposals(h.players.france, h.gameId);
      assert.equal(list[0]!.status, "failed");
      assert.deepEqual(list[0]!.counts, { for: 6, against: 1, abstain: 0 });
    });

    test("a house-rule change passes with the GM's vote and changes the options", async (t) => {
      const g = await sevenPlayerGameOn(t, kind);
      if (!g) return;
      const rule = await g.judge.votes.propose(g.gm, g.gameId, {
        kind: "houserule",
        text: "Resolve early",
        options: { resolveEarly: true },
      });
      for (const p of POWERS) await g.judge.votes.vote(g.players[p], g.gameId, rule.id, "yes");
      await g.judge.votes.vote(g.gm, g.gameId, rule.id, "yes");
      await passDeadline(g);
      assert.equal((await g.judge.views.gameView(g.gm, g.gameId)).options.resolveEarly, true);
      // Now all final orders resolve the phase before its deadline.
      await allHold(g);
      assert.equal(await g.judge.adjudication.tick(), 1);
      assert.equal((await g.judge.views.gameView(g.gm, g.gameId)).phase, "S1902M");
    });

    test("the GM refuses a repetitive proposal with a reason: nobody votes, the proposer is told why", async (t) => {
      const g = await sevenPlayerGameOn(t, kind);
      if (!g) return;
      const { judge, gm, players } = g;
      const p = await judge.votes.propose(players.turkey, g.gameId, { kind: "draw" });
      await judge.votes.vote(players.italy, g.gameId, p.id, "yes");
      await assert.rejects(judge.votes.refuse(players.italy, g.gameId, p.id, "no"), {
        kind: "forbidden",
      });
      await assert.rejects(judge.votes.refuse(gm, g.gameId, p.id, "  "), {
        kind: "invalid",
        message: /reason/,
      });
      await assert.rejects(judge.votes.refuse(gm, g.gameId, 999, "x"), { kind: "not-found" });
      const r = await judge.votes.refuse(gm, g.gameId, p.id, "the same draw failed last phase");
      assert.deepEqual(r, {
        proposal: p.id,
        status: "refused",
        reason: "the same draw failed last phase",
      });
      await assert.rejects(judge.votes.vote(players.austria, g.gameId, p.id, "yes"), {
        kind: "conflict",
      });
      await assert.rejects(judge.votes.refuse(gm, g.gameId, p.id, "again"), {
        kind: "conflict",
        message: /refused, not open/,
      });
      const list = await judge.votes.proposals(players.austria, g.gameId);
      assert.equal(list[0]!.status, "refused");
      assert.equal(list[0]!.reason, undefined, "another player does not read the reason");
      const mine = await judge.votes.proposals(players.turkey, g.gameId);
      assert.equal(mine[0]!.reason, "the same draw failed last phase", "the proposer does");
      assert.equal((await judge.votes.proposals(gm, g.gameId))[0]!.reason, mine[0]!.reason);
      // Everybody is told it was refused; the reason only the proposer (and the GM) reads.
      const kinds = async (u: typeof gm) =>
        (await judge.views.events(u, g.gameId))
          .filter((e) => e.kind.startsWith("proposal_refused"))
          .map((e) => [e.kind, (e.data as { reason?: string }).reason ?? null]);
      assert.deepEqual(await kinds(players.austria), [["proposal_refused", null]]);
      assert.deepEqual(await kinds(players.turkey), [
        ["proposal_refused", null],
        ["proposal_refused_reason", "the same draw failed last phase"],
      ]);
      assert.deepEqual(await kinds(gm), await kinds(players.turkey));
      await passDeadline(g);
      assert.equal(
        (await judge.views.events(gm, g.gameId)).filter((e) => e.kind === "vote_result").length,
        0,
        "a refused proposal is not decided at the deadline",
      );
    });
  });
}
