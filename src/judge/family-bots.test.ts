import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { STORE_KINDS, testStore } from "../store/testing.ts";
import { gameFamily } from "../variants/game-rules.ts";
import { botSeed } from "./bot-play.ts";
import { familyBotLines } from "./family-rules.ts";
import { clockedJudge, judgeWithGm, storedSets, user } from "./testing.ts";

/*
 * Built-in players in Global Diplomacy games (issue 31): seated at creation and by the GM,
 * sending legal final command sets as each turn opens (the family bot of src/bots/family.ts
 * and the rules' random sets), marked as bots in the seat list, their commands seen by the
 * GM alone (seed 004 §8); a bot id the family does not take is refused with the list; the
 * lobby's practice game in Global Diplomacy.
 */

interface Diagnostic {
  readonly ok: boolean;
  readonly text: string;
}

for (const kind of STORE_KINDS) {
  describe(`built-in players in Global Diplomacy on ${kind}`, () => {
    test("bot seats send legal final commands as each turn opens, seen by the GM only; the game plays on", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const { clock, judge, gm } = await judgeWithGm(ts.store);
      // A bot the family does not take: a 400 naming the ones it does.
      await assert.rejects(
        judge.games.createGame(gm, { name: "G", variant: "global", bots: { "1": "entente" } }),
        {
          kind: "invalid",
          message:
            /a Global Diplomacy game takes the built-in players family \(.*\); random \(.*\), or "default" for family; not "entente" \(entente plays the Diplomacy variants only\)/,
        },
      );
      const created = await judge.games.createGame(gm, {
        name: "World",
        variant: "global",
        seed: 9,
        bots: { "1": "default" },
      });
      assert.equal(created.status, "forming");
      assert.equal(created.bots, 1);
      // The GM seats another bot later; a Diplomacy-only bot is refused there too.
      await assert.rejects(judge.bots.setBot(gm, created.id, { seat: 1, bot: "greedy" }), {
        kind: "invalid",
        message: /takes the built-in players family .* not "greedy"/,
      });
      const seated = await judge.bots.setBot(gm, created.id, { power: "2", bot: "random" });
      assert.deepEqual(seated.bot, { seat: 1, seatName: seated.seatList[1]!.name, bot: "random" });
      const code = created.invites!.find((i) => i.role === "player")!.code;
      const players = [];
      for (let p = 3; p <= 11; p++) {
        const u = await user(judge, `gd${p}`);
        await judge.games.acceptInvite(u, code, { power: String(p) });
        players.push(u);
      }
      const started = await judge.views.gameView(players[0]!, created.id);
      assert.equal(started.status, "active");
      assert.deepEqual(
        started.seatList.filter((s) => s.bot).map((s) => [s.powers[0], s.bot!.id, s.bot!.kind]),
        [
          ["1", "family", "gm"],
          ["2", "random", "gm"],
        ],
        "a player sees which seats bots play",
      );
      const family = gameFamily("global")!;
      for (let turn = 1; turn <= 3; turn++) {
        const view = await judge.views.gameView(gm, created.id);
        assert.equal(view.phase, `T${turn}`);
        const sets = (await judge.submissions.currentOrders(gm, created.id)).sets;
        assert.deepEqual(
          sets.map((s) => s.power).sort(),
          ["1", "2"],
          `T${turn}: the GM sees both bots' sets`,
        );
        for (const s of sets) {
          assert.equal(s.final, true);
          for (const d of s.diagnostics as Diagnostic[])
            assert.ok(d.ok, `T${turn} power ${s.power}: ${d.text} reads without an error`);
        }
        assert.ok(
          sets.find((s) => s.power === "1")!.orders.length > 0,
          `T${turn}: the family bot sends commands`,
        );
        // The family bot's set is its own for the game, the turn and the power.
        if (turn === 1) {
          const open = family.rules.setup(9);
          assert.deepEqual(
            sets.find((s) => s.power === "1")!.orders,
            familyBotLines(family, open, "1", botSeed(created.id, "T1", "1")),
          );
        }
        const senders = await storedSets(ts.store, created.id, `T${turn}`);
        assert.deepEqual(senders.map((r) => [r.power, r.user_id]).sort(), [
          ["1", "bot:family"],
          ["2", "bot:random"],
        ]);
        // Nobody else sees another power's commands (seed 004 §8).
        const mine = await judge.submissions.currentOrders(players[0]!, created.id);
        assert.deepEqual(mine.sets, [], "a player sees no bot's commands");
        clock.t = Date.parse(view.deadline!) + 1;
        assert.equal(await judge.adjudication.tick(), 1, `T${turn} adjudicated`);
      }
      const turns = await judge.views.familyTurns(gm, created.id);
      assert.equal(turns.turns.length, 3);
      // The GM corrects turn 3: the open turn's position is another, and the bots send its
      // commands again.
      const t4 = async () =>
        (await storedSets(ts.store, created.id, "T4")).filter((r) => r.user_id === "bot:family")
          .length;
      assert.equal(await t4(), 1);
      await judge.gm.correct(gm, created.id, { orders: { "3": [] }, reason: "a lost letter" });
      assert.equal(await t4(), 2, "the family bot sent T4's commands again");
    });

    test("botTakeover: the family bot plays a power whose player sent no commands, from then on, until the player sends commands again", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const { clock, judge, gm } = await judgeWithGm(ts.store);
      const others = Object.fromEntries(
        Array.from({ length: 10 }, (_, i) => [String(i + 1), "random"]),
      );
      const created = await judge.games.createGame(gm, {
        name: "World",
        variant: "global",
        seed: 4,
        bots: others,
        options: { botTakeover: true },
      });
      const ann = await user(judge, "ann");
      const code = created.invites!.find((i) => i.role === "player")!.code;
      const joined = await judge.games.acceptInvite(ann, code, { power: "11" });
      assert.equal(joined.status, "active");
      clock.t = Date.parse(joined.deadline!) + 1;
      assert.equal(await judge.adjudication.tick(), 1, "T1 adjudicated without Ann's commands");
      const t1 = (await judge.views.familyTurns(gm, created.id)).turns[0]!;
      // The takeover bot played Ann's power: its set is stored as the bot's, and it is not
      // silence (the bot holds back only when holding scores strictly better than every set
      // it drew; in the opening nothing does).
      const played = await ts.store.db
        .selectFrom("submissions")
        .select("user_id")
        .where("game_id", "=", created.id)
        .where("phase", "=", "T1")
        .where("power", "=", "11")
        .execute();
      assert.deepEqual(
        played.map((r) => r.user_id),
        ["bot:family"],
        "the takeover bot's set was played",
      );
      assert.ok(t1.orders["11"] !== undefined, "the turn's record holds its set");
      assert.ok(t1.orders["11"]!.length > 0, "the takeover bot sent commands, not silence");
      assert.deepEqual(t1.missed, ["11"], "Ann still missed the turn");
      const view = await judge.views.gameView(ann, created.id);
      assert.deepEqual(view.seatList[10]!.bot, {
        id: "family",
        kind: "takeover",
        describe: view.seatList[10]!.bot!.describe,
      });
      const t2 = (await judge.submissions.currentOrders(gm, created.id)).sets.find(
        (s) => s.power === "11",
      );
      assert.equal(t2?.final, true, "the takeover bot sends T2's commands as it opens");
      await judge.submissions.submitOrders(ann, created.id, { orders: [], final: false });
      const back = await judge.views.gameView(ann, created.id);
      assert.equal(back.seatList[10]!.bot, undefined, "Ann plays her seat again");
      assert.equal(back.seatList[10]!.player, ann.name);
    });

    test("practice: one click in Global Diplomacy, the player gets a power and bots the ten others; it resolves when the player is done", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const { judge } = clockedJudge(ts.store);
      const ann = await user(judge, "ann");
      await assert.rejects(judge.bots.practice(ann, { variant: "global", bot: "entente" }), {
        kind: "invalid",
        message: /takes the built-in players family/,
      });
      const view = await judge.bots.practice(ann, { variant: "global", power: "3" });
      assert.equal(view.status, "active");
      assert.equal(view.phase, "T1");
      assert.deepEqual(view.you, { role: "player", seat: 2, powers: ["3"] });
      assert.equal(view.seatList.filter((s) => s.bot?.id === "family").length, 10);
      const sent = await storedSets(ts.store, view.id);
      assert.equal(sent.length, 10);
      assert.ok(sent.every((r) => r.user_id === "bot:family" && r.final === 1 && r.power !== "3"));
      assert.deepEqual((await judge.submissions.currentOrders(ann, view.id)).sets, []);
      await judge.submissions.submitOrders(ann, view.id, { orders: [], final: true });
      assert.equal(await judge.adjudication.tick(), 1, "resolved early: every set is final");
      assert.equal((await judge.views.gameView(ann, view.id)).phase, "T2");
    });
  });
}
