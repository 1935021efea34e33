import assert from "node:assert/strict";
import { describe, type TestContext, test } from "node:test";
import { defaultBot, getBot } from "../bots/index.ts";
import { type GameRecord, replayRecord } from "../engine/record.ts";
import { STORE_KINDS, type StoreKind, testStore } from "../store/testing.ts";
import { getScenario } from "../variants/scenarios.ts";
import { botSeed } from "./bot-play.ts";
import { Judge } from "./judge.ts";
import type { LineDiagnostic } from "./orders.ts";
import {
  clockedJudge,
  judgeWithGm,
  nmrPowers,
  POWERS,
  passDeadline,
  sevenPlayerGame,
  sevenPlayerGameOn,
  storedSets,
  user,
} from "./testing.ts";

/* Built-in players at the table (issue 31): bot seats, the takeover option, practice games. */

const SIX = POWERS.filter((p) => p !== "england");

/**
 * A judge with its GM (`judgeWithGm`) on a fresh store of `kind` for test `t`, and the GM's
 * game created from `input`; undefined where that store cannot be had (PostgreSQL not running).
 */
async function gmGameOn(
  t: TestContext,
  kind: StoreKind,
  input: Parameters<Judge["games"]["createGame"]>[1],
) {
  const ts = await testStore(t, kind);
  if (!ts) return undefined;
  const { clock, judge, gm } = await judgeWithGm(ts.store);
  const game = await judge.games.createGame(gm, input);
  return { store: ts.store, clock, judge, gm, game };
}

/** Every power in `powers` holds every unit (final), or sends an empty final set. */
async function holds(judge: Judge, u: import("./judge.ts").User, gameId: string) {
  const view = await judge.views.gameView(u, gameId);
  const units = view.phase?.endsWith("M")
    ? (view.position.units[view.you!.powers[0]!] ?? []).map((x) => `${x} H`)
    : [];
  if (view.toOrder.includes(view.you!.powers[0]!))
    await judge.submissions.submitOrders(u, gameId, { orders: units, final: true });
}

for (const kind of STORE_KINDS) {
  describe(`built-in players on ${kind}`, () => {
    test("bot seats chosen at creation send legal final orders as each phase opens, reproducibly seeded; the game advances", async (t) => {
      const on = await gmGameOn(t, kind, {
        name: "Bots",
        seed: 3,
        options: { resolveEarly: true },
        bots: Object.fromEntries(SIX.map((p) => [p, "random"])),
      });
      if (!on) return;
      const { store, judge, gm, game: created } = on;
      assert.equal(created.status, "forming");
      assert.equal(created.bots, 6);
      assert.deepEqual(
        created.seatList.filter((s) => s.bot).map((s) => [s.powers[0], s.bot!.id, s.bot!.kind]),
        SIX.map((p) => [p, "random", "gm"]),
      );
      const listed = (await judge.games.listGames()).find((g) => g.id === created.id)!;
      assert.equal(listed.bots, 6);
      // A general invitation seats the newcomer in the one seat no bot plays; the game starts.
      const ann = await user(judge, "ann");
      const code = created.invites!.find((i) => i.role === "player")!.code;
      const joined = await judge.games.acceptInvite(ann, code, {});
      assert.deepEqual(joined.you?.powers, ["england"]);
      assert.equal(joined.status, "active");
      for (let phase = 0; phase < 6; phase++) {
        const view = await judge.views.gameView(gm, created.id);
        if (view.status !== "active") break;
        const on = await judge.submissions.currentOrders(gm, created.id);
        const bots = on.sets.filter((s) => s.power !== "england");
        const owed = view.toOrder.filter((p) => p !== "england");
        assert.deepEqual(
          bots.map((s) => s.power).sort(),
          [...owed].sort(),
          `${view.phase}: every bot power that must order has a set`,
        );
        for (const s of bots) {
          assert.equal(s.final, true);
          for (const d of s.diagnostics as LineDiagnostic[])
            assert.ok(d.ok, `${view.phase} ${s.power}: ${d.text} is legal`);
          if (view.phase?.endsWith("M"))
            assert.ok(s.orders.length > 0, `${s.power} orders its units`);
        }
        await holds(judge, ann, created.id);
        // Early resolution: England's final set and the bots' make the phase due at once.
        assert.equal(await judge.adjudication.tick(), 1, `${view.phase} resolves early`);
      }
      const record = await judge.views.record(created.id);
      assert.ok(record.phases.length >= 6);
      assert.equal(
        replayRecord(getScenario("classical")!, record as GameRecord).ok,
        true,
        "the record replays",
      );
      // No bot power is ever an NMR.
      assert.deepEqual(await nmrPowers(store, created.id), []);
    });

    test("the bot's orders are the bot's own for the game id and phase: the same in a second judge", async (t) => {
      const on = await gmGameOn(t, kind, { name: "Seeded", seed: 1, bots: { france: "random" } });
      if (!on) return;
      const { judge, gm, game: g } = on;
      await judge.games.start(gm, g.id);
      const sets = (await judge.submissions.currentOrders(gm, g.id)).sets;
      const france = sets.find((s) => s.power === "france")!;
      const { getVariant } = await import("../variants/registry.ts");
      const { standardScenario } = await import("../engine/scenario.ts");
      const { DATC_RULES } = await import("../engine/rules.ts");
      const { powerId } = await import("../engine/types.ts");
      const variant = getVariant("classical")!;
      const expected = getBot("random")!.orders({
        scenario: standardScenario(variant),
        rules: DATC_RULES,
        position: variant.start,
        power: powerId("france"),
        seed: botSeed(g.id, "S1901M", "france"),
      });
      assert.deepEqual(france.orders, expected);
    });

    test("the GM seats a bot later and takes it off; a bot cannot take a player's seat; a player seated takes the bot's", async (t) => {
      const on = await gmGameOn(t, kind, { name: "Later", seed: 2 });
      if (!on) return;
      const { judge, gm, game: g } = on;
      const code = g.invites!.find((i) => i.role === "player")!.code;
      const ann = await user(judge, "ann");
      await judge.games.acceptInvite(ann, code, { power: "england" });
      await assert.rejects(judge.bots.setBot(gm, g.id, { power: "england", bot: "random" }), {
        kind: "conflict",
        message: /England is played by ann\d+: replace them first/,
      });
      await assert.rejects(judge.bots.setBot(ann, g.id, { power: "france", bot: "random" }), {
        kind: "forbidden",
      });
      await assert.rejects(judge.bots.setBot(gm, g.id, { power: "france", bot: "deep-blue" }), {
        kind: "invalid",
        message: /no built-in player "deep-blue"; the built-in players are .*random \(/,
      });
      await judge.games.start(gm, g.id);
      const seated = await judge.bots.setBot(gm, g.id, { power: "France", bot: "default" });
      assert.deepEqual(seated.bot, { seat: 2, seatName: "France", bot: defaultBot().id });
      // Sent at once: France's orders for the open phase are on file.
      let sets = (await judge.submissions.currentOrders(gm, g.id)).sets;
      assert.ok(sets.some((s) => s.power === "france" && s.final));
      const taken = await judge.bots.setBot(gm, g.id, { seat: 2, bot: null });
      assert.equal(taken.seatList[2]!.bot, undefined);
      await assert.rejects(judge.bots.setBot(gm, g.id, { seat: 2, bot: null }), {
        kind: "conflict",
      });
      // Seated again, then a player takes the seat by name: the bot leaves, all are told.
      await judge.bots.setBot(gm, g.id, { seat: 3, bot: "hold" });
      const info = await judge.games.inviteInfo(code);
      assert.deepEqual(
        info.freeSeats.filter((s) => s.index >= 2).map((s) => [s.name, s.bot]),
        [
          ["France", undefined],
          ["Germany", "hold"],
          ["Italy", undefined],
          ["Russia", undefined],
          ["Turkey", undefined],
        ],
        "the invitation marks the seat a bot plays",
      );
      const bob = await user(judge, "bob");
      const view = await judge.games.acceptInvite(bob, code, { power: "germany" });
      assert.equal(view.seatList[3]!.player, bob.name);
      assert.equal(view.seatList[3]!.bot, undefined);
      const events = await judge.views.events(gm, g.id);
      const removed = events
        .filter((e) => e.kind === "bot_removed")
        .map((e) => e.data as { cause: string; seatName: string });
      assert.deepEqual(
        removed.map((d) => [d.seatName, d.cause]),
        [
          ["France", "gm"],
          ["Germany", "player_seated"],
        ],
      );
      sets = (await judge.submissions.currentOrders(gm, g.id)).sets;
      assert.equal(
        sets.filter((s) => s.power === "germany").length,
        1,
        "the hold bot's set stays until Germany's player sends one",
      );
      // Global Diplomacy takes its family's built-in players, not the Diplomacy ones
      // (family-bots.test.ts plays them).
      await assert.rejects(
        judge.games.createGame(gm, { name: "G", variant: "global", bots: { "1": "greedy" } }),
        {
          kind: "invalid",
          message: /a Global Diplomacy game takes the built-in players family .*not "greedy"/,
        },
      );
    });

    test("botTakeover: a bot plays a power whose player missed orders, the player and the GM are told, and the player takes it back by sending orders", async (t) => {
      const g = await sevenPlayerGameOn(t, kind, { botTakeover: "random" });
      if (!g) return;
      const { judge, players, gm, gameId } = g;
      for (const p of POWERS) if (p !== "france") await holds(judge, players[p], gameId);
      assert.equal(await passDeadline(g), 1);
      const first = (await judge.views.record(gameId)).phases[0]!;
      assert.equal(
        first.orders.france?.length,
        3,
        "France's units were ordered by the bot, not left to hold",
      );
      let view = await judge.views.gameView(players.france, gameId);
      assert.deepEqual(view.seatList[2]!.bot, {
        id: "random",
        kind: "takeover",
        describe: getBot("random")!.describe,
      });
      assert.equal(view.seatList[2]!.player, players.france.name, "the player keeps the seat");
      // The NMR is recorded; the player and the GM are told, others are not.
      const told = (await judge.views.events(players.france, gameId)).filter(
        (e) => e.kind === "bot_took_over",
      );
      assert.equal(told.length, 1);
      assert.deepEqual(told[0]!.data, {
        seat: 2,
        seatName: "France",
        bot: "random",
        player: players.france.name,
        powers: ["france"],
        phase: "S1901M",
      });
      assert.equal(
        (await judge.views.events(gm, gameId)).filter((e) => e.kind === "bot_took_over").length,
        1,
      );
      assert.equal(
        (await judge.views.events(players.italy, gameId)).filter((e) => e.kind === "bot_took_over")
          .length,
        0,
      );
      const missed = (await judge.views.events(gm, gameId)).find(
        (e) => e.kind === "missed_orders",
      )!;
      assert.equal((missed.data as { bot?: string }).bot, "random");
      // The next phase: the bot's orders are on file at once.
      let sets = (await judge.submissions.currentOrders(gm, gameId)).sets;
      assert.ok(sets.some((s) => s.power === "france" && s.final));
      // The player comes back: the set is theirs, the bot leaves, they and the GM are told.
      await judge.submissions.submitOrders(players.france, gameId, {
        orders: ["A par H"],
        final: false,
      });
      view = await judge.views.gameView(gm, gameId);
      assert.equal(view.seatList[2]!.bot, undefined);
      const back = (await judge.views.events(players.france, gameId)).filter(
        (e) => e.kind === "bot_removed",
      );
      assert.equal((back[0]!.data as { cause: string }).cause, "player_back");
      sets = (await judge.submissions.currentOrders(gm, gameId)).sets;
      assert.deepEqual(sets.find((s) => s.power === "france")!.orders, ["A par H"]);
      for (const p of POWERS) if (p !== "france") await holds(judge, players[p], gameId);
      assert.equal(await passDeadline(g), 1);
      const second = (await judge.views.record(gameId)).phases[1]!;
      assert.deepEqual(second.orders.france, ["A par H"]);
      // Without the option a missed power holds, as before.
      const plain = await sevenPlayerGame(g.judge.store);
      for (const p of POWERS)
        if (p !== "france") await holds(plain.judge, plain.players[p], plain.gameId);
      await passDeadline(plain);
      assert.equal(
        (await plain.judge.views.record(plain.gameId)).phases[0]!.orders.france,
        undefined,
      );
      assert.equal(
        (await plain.judge.views.gameView(plain.gm, plain.gameId)).seatList[2]!.bot,
        undefined,
      );
    });

    test("restart: the bot seats and their orders survive, and the first tick sends what a crash kept from being sent", async (t) => {
      const on = await gmGameOn(t, kind, {
        name: "Restart",
        seed: 5,
        bots: { turkey: "random", italy: "hold" },
      });
      if (!on) return;
      const { store, clock, judge, gm, game: g } = on;
      await judge.games.start(gm, g.id);
      const before = (await judge.submissions.currentOrders(gm, g.id)).sets.filter(
        (s) => s.power === "turkey" || s.power === "italy",
      );
      assert.equal(before.length, 2);
      // As if the process died after the phase opened and before the bots sent orders.
      await store.db.deleteFrom("submissions").where("game_id", "=", g.id).execute();
      await store.db
        .updateTable("bot_seats")
        .set({ played_idx: -1 })
        .where("game_id", "=", g.id)
        .execute();
      const again = new Judge({ store, now: clock.now });
      const view = await again.views.gameView(gm, g.id);
      assert.deepEqual(
        view.seatList.filter((s) => s.bot).map((s) => s.bot!.id),
        ["hold", "random"],
      );
      await again.adjudication.tick();
      const after = (await again.submissions.currentOrders(gm, g.id)).sets.filter(
        (s) => s.power === "turkey" || s.power === "italy",
      );
      assert.deepEqual(
        after.map((s) => [s.power, s.orders]),
        before.map((s) => [s.power, s.orders]),
        "the same orders: seeded by the game and the phase",
      );
      // Sent once: a second tick adds no revision.
      await again.adjudication.tick();
      assert.equal((await storedSets(store, g.id)).length, 2);
    });

    test("practice: one click, the player gets a power and six bots the others; it starts at once and resolves when the player is done", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const { clock, judge } = clockedJudge(ts.store);
      const ann = await user(judge, "ann");
      const view = await judge.bots.practice(ann, { power: "russia" });
      assert.equal(view.status, "active");
      assert.equal(view.phase, "S1901M");
      assert.deepEqual(view.you, { role: "player", seat: 5, powers: ["russia"] });
      assert.equal(view.seatList.filter((s) => s.bot?.kind === "gm").length, 6);
      assert.equal(view.options.resolveEarly, true);
      assert.equal(Date.parse(view.deadline!) - clock.t, 7 * 86_400_000);
      assert.deepEqual(
        (await judge.submissions.currentOrders(ann, view.id)).sets,
        [],
        "the bots' sets are theirs",
      );
      const bots = await storedSets(ts.store, view.id);
      assert.deepEqual(
        bots.map((b) => [b.power, b.user_id, b.final]).sort(),
        POWERS.filter((p) => p !== "russia").map((p) => [p, `bot:${defaultBot().id}`, 1]),
      );
      await holds(judge, ann, view.id);
      assert.equal(await judge.adjudication.tick(), 1);
      assert.equal((await judge.views.gameView(ann, view.id)).phase, "F1901M");
      const random = await judge.bots.practice(ann, {});
      assert.equal(random.you?.powers.length, 1);
      await assert.rejects(judge.bots.practice(ann, { variant: "shogi" }), {
        kind: "invalid",
        message: /unknown variant "shogi"/,
      });
    });
  });
}
