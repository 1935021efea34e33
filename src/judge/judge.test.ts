import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { STORE_KINDS, testStore } from "../store/testing.ts";
import { Judge } from "./judge.ts";
import {
  DAY,
  judgeOn,
  judgeWithGm,
  nmrPowers,
  POWERS,
  sevenPlayerGame,
  sevenPlayerGameOn,
  user,
} from "./testing.ts";

/*
 * The judge on SQLite and PostgreSQL: accounts (register, log in, tokens), orders (private
 * until adjudicated, per-line diagnostics, the last set wins whole), each phase adjudicated
 * exactly once however many judges try, press (white and grey, dark grey and black refused),
 * and deadlines in minutes for live play. Missed orders: missed.test.ts; votes: votes.test.ts;
 * the GM's tools and draws: gm-tools.test.ts.
 */

for (const kind of STORE_KINDS) {
  describe(`judge on ${kind}`, () => {
    test("accounts: register, log in, tokens, revoke", async (t) => {
      const judge = await judgeOn(t, kind);
      if (!judge) return;
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
      const row = await judge.store.db
        .selectFrom("users")
        .select("password_hash")
        .executeTakeFirstOrThrow();
      assert.match(row.password_hash, /^scrypt\$/);
      assert.ok(!row.password_hash.includes("correct horse"));
    });

    test("orders: private until adjudicated, per-line diagnostics, the last set wins whole", async (t) => {
      const g = await sevenPlayerGameOn(t, kind);
      if (!g) return;
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
      assert.deepEqual(
        await nmrPowers(g.judge.store, g.gameId),
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

    test("press: white and grey to one, some or all; grey authorship hidden; dark grey and black refused", async (t) => {
      const g = await sevenPlayerGameOn(t, kind);
      if (!g) return;
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
      // Refused, each saying why: dark grey (signed as another power, too), black.
      for (const [press, message] of [
        [{ to: "all", body: "x", kind: "dark grey" }, /dark grey/],
        [{ to: "all", body: "x", signedAs: "france" }, /dark grey/],
        [{ to: "all", body: "x", kind: "black" }, /black/],
      ] as const) {
        await assert.rejects(judge.press.sendPress(players.england, g.gameId, press), {
          kind: "invalid",
          message,
        });
      }
      await assert.rejects(
        judge.press.sendPress(players.england, g.gameId, { to: ["narnia"], body: "x" }),
        { kind: "invalid" },
      );
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
