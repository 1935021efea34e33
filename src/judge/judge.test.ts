import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type GameRecord, replayRecord } from "../engine/record.ts";
import { STORE_KINDS, testStore } from "../store/testing.ts";
import { getScenario } from "../variants/scenarios.ts";
import { Judge } from "./judge.ts";
import {
  DAY,
  elevenPlayers,
  globalGame,
  judgeWithGm,
  POWERS,
  sevenPlayerGame,
  type TestGame,
  user,
} from "./testing.ts";

/** Everybody orders every unit to hold, final: no NMR. */
async function allHold(g: TestGame, except: readonly string[] = []) {
  const view = await g.judge.views.gameView(g.gm, g.gameId);
  for (const p of view.toOrder) {
    if (except.includes(p)) continue;
    const units = view.phase?.endsWith("M") ? (view.position.units[p] ?? []) : [];
    await g.judge.submissions.submitOrders(g.players[p as (typeof POWERS)[number]], g.gameId, {
      orders: units.map((u) => `${u} H`),
      final: true,
    });
  }
}

/** Moves the clock past the deadline and runs the scheduler once. */
async function passDeadline(g: TestGame): Promise<number> {
  const view = await g.judge.views.gameView(g.gm, g.gameId);
  if (view.deadline) g.clock.t = Date.parse(view.deadline) + 1;
  return g.judge.adjudication.tick();
}

for (const kind of STORE_KINDS) {
  describe(`judge on ${kind}`, () => {
    test("accounts: register, log in, tokens, revoke", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const judge = new Judge({ store: ts.store });
      const { user: ann, token } = await judge.accounts.register("Ann", "correct horse");
      assert.deepEqual(await judge.accounts.authenticate(token), ann);
      await assert.rejects(judge.accounts.register("ann", "another one"), { kind: "conflict" });
      await assert.rejects(judge.accounts.register("bob", "short"), { kind: "invalid" });
      await assert.rejects(judge.accounts.login("ann", "wrong password"), {
        kind: "unauthenticated",
      });
      const again = await judge.accounts.login("ANN", "correct horse");
      assert.equal(again.user.id, ann.id);
      const api = await judge.accounts.issueToken(ann.id, "bot");
      assert.equal((await judge.accounts.listTokens(ann)).length, 3);
      await judge.accounts.revokeToken(ann, api.id);
      assert.equal(await judge.accounts.authenticate(api.token), null);
      assert.equal(await judge.accounts.authenticate("ent_nonsense"), null);
      const row = await ts.store.db
        .selectFrom("users")
        .select("password_hash")
        .executeTakeFirstOrThrow();
      assert.match(row.password_hash, /^scrypt\$/);
      assert.ok(!row.password_hash.includes("correct horse"));
    });

    test("orders: private until adjudicated, per-line diagnostics, the last set wins whole", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const g = await sevenPlayerGame(ts.store);
      const { judge, players } = g;
      let view = await judge.views.gameView(players.england, g.gameId);
      assert.equal(view.status, "active");
      assert.equal(view.phase, "S1901M");
      assert.equal(Date.parse(view.deadline!), g.clock.t + 3 * DAY);
      assert.deepEqual(view.you, { role: "player", seat: 1, powers: ["england"] });

      const first = await judge.submissions.submitOrders(players.england, g.gameId, {
        orders: "F lon-nth\nA lvp-yor\nF edi - Norwegian Sea\nA par-bur\n",
      });
      assert.equal(first.final, false);
      assert.deepEqual(
        first.diagnostics.map((d) => [d.line, d.ok]),
        [
          [1, true],
          [2, true],
          [3, true],
          [4, false],
        ],
      );
      assert.equal(first.diagnostics[0]!.order, "F lon - nth");
      assert.equal(first.diagnostics[2]!.order, "F edi - nwg");
      assert.match(first.diagnostics[3]!.message!, /Paris is French, not yours/);
      const bad = await judge.submissions.submitOrders(players.england, g.gameId, {
        orders: ["F lon-xyzzy"],
      });
      assert.equal(bad.diagnostics[0]!.ok, false);
      assert.ok(bad.diagnostics[0]!.start !== undefined);
      // A revised set replaces the previous one entirely (seed 002 III(4) A).
      const last = await judge.submissions.submitOrders(players.england, g.gameId, {
        orders: ["F lon - eng", "Final"],
      });
      assert.equal(last.final, true);

      const mine = await judge.submissions.currentOrders(players.england, g.gameId);
      assert.deepEqual(
        mine.sets.map((s) => [s.power, s.orders, s.final]),
        [["england", ["F lon - eng"], true]],
      );
      assert.deepEqual((await judge.submissions.currentOrders(players.france, g.gameId)).sets, []);
      assert.equal((await judge.submissions.currentOrders(g.gm, g.gameId)).sets.length, 1);
      await assert.rejects(
        judge.submissions.submitOrders(players.france, g.gameId, { orders: "Germany:\nA ber-kie" }),
        { kind: "invalid", message: /you do not play Germany/ },
      );
      const observer = await user(judge, "watcher");
      const obsCode = view.invites === undefined ? null : "";
      assert.equal(obsCode, null); // a player does not see the invitations
      const gmView = await judge.views.gameView(g.gm, g.gameId);
      await judge.games.acceptInvite(
        observer,
        gmView.invites!.find((i) => i.role === "observer")!.code,
        {},
      );
      await assert.rejects(judge.submissions.submitOrders(observer, g.gameId, { orders: [] }), {
        kind: "forbidden",
      });
      await assert.rejects(judge.submissions.currentOrders(observer, g.gameId), {
        kind: "forbidden",
      });
      assert.deepEqual(await judge.views.phases(g.gameId), []);

      // Not before the deadline (seed 002 VII(2) A), even with final orders.
      g.clock.advance(3 * DAY - 60_000);
      assert.equal(await judge.adjudication.tick(), 0);
      g.clock.advance(60_000);
      assert.equal(await judge.adjudication.tick(), 1);
      assert.equal(await judge.adjudication.tick(), 0);
      const phases = await judge.views.phases(g.gameId);
      assert.equal(phases.length, 1);
      assert.deepEqual(phases[0]!.orders, { england: ["F lon - eng"] });
      view = await judge.views.gameView(players.england, g.gameId);
      assert.equal(view.phase, "F1901M");
      assert.deepEqual(view.position.units.england, ["F eng", "F edi", "A lvp"]);
      const nmrs = await ts.store.db.selectFrom("nmrs").select("power").orderBy("power").execute();
      assert.deepEqual(
        nmrs.map((n) => n.power),
        POWERS.filter((p) => p !== "england"),
      );
      // Orders written for the phase just adjudicated are refused, not moved to the next.
      await assert.rejects(
        judge.submissions.submitOrders(players.england, g.gameId, {
          orders: ["F eng-bre"],
          phase: "S1901M",
        }),
        { kind: "conflict", message: /F1901M/ },
      );
    });

    test("each phase is adjudicated exactly once, however many judges try at once", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const g = await sevenPlayerGame(ts.store);
      g.clock.advance(4 * DAY);
      const stores =
        kind === "postgres"
          ? await Promise.all([1, 2, 3].map(() => ts.reopen()))
          : [ts.store, ts.store, ts.store];
      const judges = [g.judge, ...stores.map((store) => new Judge({ store, now: g.clock.now }))];
      const done = await Promise.all(
        judges.map((j) => j.adjudication.adjudicateIfDue(g.gameId, 0)),
      );
      assert.equal(done.filter(Boolean).length, 1);
      g.clock.advance(4 * DAY);
      const ticks = await Promise.all(judges.map((j) => j.adjudication.tick()));
      assert.equal(
        ticks.reduce((a, b) => a + b, 0),
        1,
        "the next phase, due as well, once too",
      );
      const rows = await ts.store.db.selectFrom("phases").select(["idx"]).execute();
      assert.deepEqual(rows.map((r) => r.idx).sort(), [0, 1]);
      const resolved = await ts.store.db
        .selectFrom("events")
        .select("id")
        .where("kind", "=", "phase_resolved")
        .execute();
      assert.equal(resolved.length, 2);
    });

    test("missed orders: adjudicated without them, recorded; civil disorder after two; GM replaces", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const g = await sevenPlayerGame(ts.store, { civilDisorderAfter: 2 });
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
      const ts = await testStore(t, kind);
      if (!ts) return;
      const g = await sevenPlayerGame(ts.store);
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

    test("votes: unanimity of those not abstaining, uncast is no, only counts published", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const g = await sevenPlayerGame(ts.store);
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
      const ts = await testStore(t, kind);
      if (!ts) return;
      const g = await sevenPlayerGame(ts.store);
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
      const h = await sevenPlayerGame(ts.store);
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
      const ts = await testStore(t, kind);
      if (!ts) return;
      const g = await sevenPlayerGame(ts.store);
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
      const ts = await testStore(t, kind);
      if (!ts) return;
      const g = await sevenPlayerGame(ts.store);
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

    test("press: white and grey to one, some or all; grey authorship hidden; dark grey and black refused", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const g = await sevenPlayerGame(ts.store);
      const { judge, players } = g;
      await judge.press.sendPress(players.england, g.gameId, {
        to: ["france"],
        body: "Channel stays empty?",
      });
      await judge.press.sendPress(players.germany, g.gameId, {
        to: "all",
        body: "Beware the bear",
        kind: "grey",
      });
      await judge.press.sendPress(players.russia, g.gameId, {
        to: ["turkey", "austria"],
        body: "Black Sea DMZ",
        kind: "gray",
      });
      await judge.press.sendPress(g.gm, g.gameId, { to: "all", body: "Welcome" });
      const france = await judge.press.press(players.france, g.gameId);
      assert.deepEqual(
        france.map((m) => [m.from, m.body]),
        [
          ["england", "Channel stays empty?"],
          [null, "Beware the bear"],
          ["gm", "Welcome"],
        ],
      );
      assert.equal(france[1]!.fromName, "Anonymous");
      const turkey = await judge.press.press(players.turkey, g.gameId);
      assert.deepEqual(
        turkey.map((m) => m.from),
        [null, null, "gm"],
      );
      const germany = await judge.press.press(players.germany, g.gameId);
      assert.equal(germany[0]!.from, "germany");
      assert.equal(germany[0]!.yours, true);
      const gm = await judge.press.press(g.gm, g.gameId);
      assert.deepEqual(
        gm.map((m) => m.from),
        ["england", "germany", "russia", "gm"],
      );
      const italyEvents = await judge.views.events(players.italy, g.gameId);
      assert.equal(
        italyEvents.filter((e) => e.kind === "press").length,
        2,
        "only what Italy may read",
      );
      const pressEvents = italyEvents.filter((e) => e.kind === "press");
      assert.ok(!JSON.stringify(pressEvents).includes("germany"), "no author in grey press events");
      await assert.rejects(
        judge.press.sendPress(players.england, g.gameId, {
          to: "all",
          body: "x",
          kind: "dark grey",
        }),
        { kind: "invalid", message: /dark grey/ },
      );
      await assert.rejects(
        judge.press.sendPress(players.england, g.gameId, {
          to: "all",
          body: "x",
          signedAs: "france",
        }),
        { kind: "invalid", message: /dark grey/ },
      );
      await assert.rejects(
        judge.press.sendPress(players.england, g.gameId, { to: "all", body: "x", kind: "black" }),
        {
          kind: "invalid",
          message: /black/,
        },
      );
      await assert.rejects(
        judge.press.sendPress(players.england, g.gameId, { to: ["narnia"], body: "x" }),
        {
          kind: "invalid",
        },
      );
    });

    test("GM: pause, resume, move the deadline, correct the last adjudication, remove a unit, end", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const g = await sevenPlayerGame(ts.store);
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
      const superseded = await ts.store.db
        .selectFrom("phases")
        .select("superseded")
        .where("superseded", "=", 1)
        .execute();
      assert.equal(superseded.length, 1, "the old result is kept for the audit");
      const nmrs = await ts.store.db
        .selectFrom("nmrs")
        .select("power")
        .where("power", "=", "italy")
        .execute();
      assert.equal(nmrs.length, 0);

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
      const ts = await testStore(t, kind);
      if (!ts) return;
      const g = await sevenPlayerGame(ts.store, { civilDisorderAfter: 0 });
      const { judge, gm, players } = g;
      await passDeadline(g);
      await passDeadline(g);
      assert.equal((await judge.views.gameView(gm, g.gameId)).phase, "S1902M");
      await assert.rejects(judge.endings.declareDraw(gm, g.gameId, { warn: true }), {
        kind: "conflict",
      });
      await passDeadline(g);
      await passDeadline(g);
      assert.equal((await judge.views.gameView(gm, g.gameId)).phase, "S1903M");
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
      await passDeadline(g);
      await passDeadline(g);
      assert.equal((await judge.views.gameView(gm, g.gameId)).phase, "S1904M");
      const view = await judge.endings.declareDraw(gm, g.gameId, { warn: false });
      assert.equal(view.status, "finished");
      assert.deepEqual(view.result, { kind: "draw", powers: [...POWERS], by: "gm", years: 3 });
    });

    test("a draw warning lapses when a supply centre changes hands in its period", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const g = await sevenPlayerGame(ts.store, { drawAfterYearsWithoutChange: 1 });
      const { judge, gm, players } = g;
      await passDeadline(g);
      await passDeadline(g);
      assert.equal((await judge.views.gameView(gm, g.gameId)).phase, "S1902M");
      await judge.endings.declareDraw(gm, g.gameId, { warn: true });
      await judge.submissions.submitOrders(players.france, g.gameId, { orders: ["A mar-spa"] });
      await passDeadline(g);
      await passDeadline(g);
      await passDeadline(g);
      assert.equal((await judge.views.gameView(gm, g.gameId)).phase, "S1903M");
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

    test("deadlines in minutes for live play; a seat with several powers orders each", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const { clock, judge, gm } = await judgeWithGm(ts.store);
      const game = await judge.games.createGame(gm, {
        name: "Four",
        scenario: "4",
        options: { deadlines: { unit: "minutes", movement: 10, retreats: 2, adjustments: 2 } },
      });
      const code = game.invites!.find((i) => i.role === "player")!.code;
      const us = [];
      for (let i = 0; i < 4; i++) {
        const u = await user(judge, "p");
        await judge.games.acceptInvite(u, code, {});
        us.push(u);
      }
      const view = await judge.views.gameView(us[1]!, game.id);
      assert.deepEqual(view.you?.powers, ["austria", "france"]);
      assert.equal(Date.parse(view.deadline!), clock.t + 10 * 60_000);
      await assert.rejects(
        judge.submissions.submitOrders(us[1]!, game.id, { orders: ["A vie-gal"] }),
        {
          kind: "invalid",
          message: /before any power/,
        },
      );
      const ans = await judge.submissions.submitOrders(us[1]!, game.id, {
        orders: "Austria:\nA vie-gal\nFrance:\nA par-bur\nfinal",
      });
      assert.deepEqual(ans.powers, [
        { power: "austria", orders: ["A vie-gal"] },
        { power: "france", orders: ["A par-bur"] },
      ]);
      assert.equal(ans.final, true);
      const one = await judge.submissions.submitOrders(us[1]!, game.id, {
        power: "france",
        orders: ["A par-pic"],
      });
      assert.deepEqual(
        one.powers.map((p) => p.power),
        ["france"],
      );
      const sets = await judge.submissions.currentOrders(us[1]!, game.id);
      assert.deepEqual(
        sets.sets.map((s) => [s.power, s.orders]),
        [
          ["austria", ["A vie-gal"]],
          ["france", ["A par-pic"]],
        ],
      );
      await assert.rejects(judge.games.acceptInvite(await user(judge, "late"), code, {}), {
        kind: "conflict",
      });
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
