import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Judge, User } from "../src/judge/judge.ts";
import { STORE_KINDS } from "../src/store/testing.ts";
import { OPTIONS, type Table, table } from "./one-path.ts";

/*
 * A classical game and a Global Diplomacy game in one judge go through the same code for
 * votes, press, the GM's end of a game, declared draws and removed units (src/judge/votes.ts,
 * press.ts, endings.ts, unit-edits.ts over played.ts): each checked on both, side by side.
 */

interface SeatOf {
  readonly id: string;
  readonly name: string;
  readonly user: User;
}

/** A seat's power id and name in a game, as its players' view gives them. */
async function seat(j: Judge, x: Table, id: string, i: number): Promise<SeatOf> {
  const view = await j.views.gameView(x.gm, id);
  const s = view.seatList[i]!;
  return { id: s.powers[0]!, name: s.name, user: x.players[id]![i]! };
}

const games = (x: Table): readonly string[] => [x.classical, x.global];

for (const kind of STORE_KINDS) {
  describe(`votes, press and the GM's end for every game family (${kind})`, () => {
    test("votes: a refused concession and a unanimous draw, decided at the deadline instead of the phase", async (t) => {
      const x = await table(t, kind);
      if (!x) return;
      const { judge, clock } = x;
      for (const id of games(x)) {
        const variant: string = (await judge.views.gameView(x.gm, id)).variant;
        const first = await seat(judge, x, id, 0);
        const second = await seat(judge, x, id, 1);
        await assert.rejects(
          judge.votes.propose(first.user, id, { kind: "draw", powers: ["Atlantis"] }),
          /atlantis is not a surviving power/,
          `${variant}: an unknown power is refused`,
        );
        // Powers named by their name, as people write them (`England`, `China`).
        const concede = await judge.votes.propose(first.user, id, {
          kind: "concede",
          powers: [second.name],
        });
        assert.deepEqual(concede.powers, [second.id], `${variant}: the win conceded to a power`);
        await assert.rejects(
          judge.votes.propose(x.gm, id, { kind: "draw" }),
          /only players/,
          `${variant}: the GM proposes no draw`,
        );
        // One proposal to end the game open at a time (votes.ts): the draw waits.
        await assert.rejects(
          judge.votes.propose(second.user, id, { kind: "draw" }),
          /proposal \d+ \(concede: .*\) is still open/,
          `${variant}: no second ending while one is open`,
        );
        await judge.votes.vote(first.user, id, concede.id, "no");
      }
      clock.advance(10 * 60_000);
      assert.equal(await judge.adjudication.tick(), 2, "both games' first deadlines pass");
      for (const id of games(x)) {
        const variant: string = (await judge.views.gameView(x.gm, id)).variant;
        const first = await seat(judge, x, id, 0);
        const second = await seat(judge, x, id, 1);
        const draw = await judge.votes.propose(second.user, id, { kind: "draw" });
        assert.equal(draw.text, "A draw including all survivors", `${variant}: all survivors`);
        const seats: User[] = x.players[id]!;
        assert.equal(draw.powers?.length, seats.length, `${variant}: every power is in the draw`);
        for (const u of seats) await judge.votes.vote(u, id, draw.id, "yes");
        const mine = await judge.votes.proposals(first.user, id);
        assert.deepEqual(
          mine.map((p) => [p.kind, p.status, p.yourVote]),
          [
            ["concede", "failed", undefined],
            ["draw", "open", "yes"],
          ],
          `${variant}: each player reads its own ballot on the open proposal`,
        );
      }
      clock.advance(10 * 60_000);
      assert.equal(await judge.adjudication.tick(), 2, "both games' second deadlines pass");
      for (const id of games(x)) {
        const view = await judge.views.gameView(x.gm, id);
        assert.equal(view.status, "finished", `${view.variant}: the draw ended the game`);
        const result = view.result as { kind: string; powers: string[]; by: string };
        assert.equal(result.kind, "draw", `${view.variant}: a draw`);
        assert.equal(result.by, "vote", `${view.variant}: by vote`);
        assert.equal(result.powers.length, view.seatList.length, `${view.variant}: of everyone`);
        assert.equal(view.state, "done", `${view.variant}: no phase is open`);
        const played = await judge.store.db
          .selectFrom("phases")
          .select("idx")
          .where("game_id", "=", id)
          .execute();
        assert.equal(
          played.length,
          1,
          `${view.variant}: the first phase played; the draw replaced the second's adjudication`,
        );
        const outcome: unknown[] = (await judge.votes.proposals(x.players[id]![2]!, id)).map(
          (p) => [p.status, p.counts],
        );
        const n = view.seatList.length;
        assert.deepEqual(
          outcome,
          [
            // The conceded power's yes; one no and every uncast vote against.
            ["failed", { for: 1, against: n - 1, abstain: 0 }],
            ["passed", { for: n, against: 0, abstain: 0 }],
          ],
          `${view.variant}: only the counts are published`,
        );
      }
    });

    test("press: white and grey, to powers named as people name them, read by who may read them, in each negotiation phase", async (t) => {
      const x = await table(t, kind);
      if (!x) return;
      const { judge, clock } = x;
      for (const id of games(x)) {
        const variant: string = (await judge.views.gameView(x.gm, id)).variant;
        const [a, b, c]: [SeatOf, SeatOf, SeatOf] = [
          await seat(judge, x, id, 0),
          await seat(judge, x, id, 1),
          await seat(judge, x, id, 2),
        ];
        const white = await judge.press.sendPress(a.user, id, { to: [b.name], body: "Ally?" });
        assert.deepEqual(white.to, [b.id], `${variant}: to ${b.name}, by name`);
        await judge.press.sendPress(c.user, id, { to: "all", body: "Who?", kind: "grey" });
        await assert.rejects(
          judge.press.sendPress(a.user, id, { to: ["Atlantis"], body: "x" }),
          /unknown power "atlantis"; use .* or "all"/,
          `${variant}: an unknown recipient names the powers`,
        );
        await assert.rejects(
          judge.press.sendPress(a.user, id, { to: [a.name], body: "x" }),
          /is yours/,
          `${variant}: not to oneself`,
        );
        const read = async (u: User) =>
          (await judge.press.press(u, id)).map((m) => [m.body, m.fromName]);
        assert.deepEqual(
          await read(b.user),
          [
            ["Ally?", a.name],
            ["Who?", "Anonymous"],
          ],
          `${variant}: the recipient reads the white press signed, the grey anonymous`,
        );
        assert.deepEqual(
          await read(c.user),
          [["Who?", c.name]],
          `${variant}: a third power does not read private press; its own grey is its own`,
        );
        assert.deepEqual(
          (await read(x.gm)).map((m) => m[1]),
          [a.name, c.name],
          `${variant}: the GM reads every author`,
        );
      }
      // After one adjudication the next negotiation phase takes press: F1901M, and T2 (every
      // turn of Global Diplomacy is one, seed 004 §7.12), with retreat-phase press off.
      clock.advance(10 * 60_000);
      assert.equal(await judge.adjudication.tick(), 2);
      for (const id of games(x)) {
        const view = await judge.views.gameView(x.gm, id);
        assert.equal(view.options.press.duringRetreatsAndAdjustments, false);
        const sent = await judge.press.sendPress(x.players[id]![0]!, id, {
          to: "all",
          body: "Again",
        });
        assert.equal(sent.phase, view.phase, `${view.variant}: press in ${view.phase}`);
      }
    });

    test("press follows the game's options: white press off is refused in either game", async (t) => {
      const x = await table(t, kind, { ...OPTIONS, press: { white: false } });
      if (!x) return;
      const { judge } = x;
      for (const id of games(x)) {
        const a = x.players[id]![0]!;
        await assert.rejects(
          judge.press.sendPress(a, id, { to: "all", body: "x" }),
          /white press is off in this game/,
        );
        const grey = await judge.press.sendPress(a, id, { to: "all", body: "x", kind: "grey" });
        assert.equal(grey.kind, "grey");
      }
    });

    test("the GM ends a game: a draw of named powers, once, by the GM only", async (t) => {
      const x = await table(t, kind);
      if (!x) return;
      const { judge } = x;
      for (const id of games(x)) {
        const [a, b]: [SeatOf, SeatOf] = [await seat(judge, x, id, 0), await seat(judge, x, id, 1)];
        await assert.rejects(
          judge.endings.endGame(a.user, id, { result: "abandoned" }),
          /only the game master/,
        );
        await assert.rejects(
          judge.endings.endGame(x.gm, id, { result: "concession", powers: [a.name, b.name] }),
          /exactly one power/,
        );
        await assert.rejects(
          judge.endings.endGame(x.gm, id, { result: "points" }),
          /end it with "draw", "concession" or "abandoned"/,
          "no victory-point end in either game",
        );
        const view = await judge.endings.endGame(x.gm, id, {
          result: "draw",
          powers: [a.name, b.name],
          note: "agreed by all",
        });
        assert.equal(view.status, "finished", `${view.variant}: over`);
        assert.deepEqual(
          view.result,
          { kind: "draw", powers: [a.id, b.id], by: "gm", note: "agreed by all" },
          `${view.variant}: a draw of the two`,
        );
        await assert.rejects(
          judge.endings.endGame(x.gm, id, { result: "abandoned" }),
          /already over/,
          `${view.variant}: once`,
        );
        const events = await judge.views.events(a.user, id);
        assert.ok(
          events.some((e) => e.kind === "game_over"),
          `${view.variant}: the players are told`,
        );
        await assert.rejects(
          judge.submissions.submitOrders(a.user, id, { orders: [] }),
          /over/,
          `${view.variant}: no more orders`,
        );
      }
    });

    test("declared draws: after a quiet game year or turn, a warning, then a draw of all survivors", async (t) => {
      const x = await table(t, kind, { ...OPTIONS, drawAfterYearsWithoutChange: 1 });
      if (!x) return;
      const { judge, clock } = x;
      await assert.rejects(
        judge.endings.declareDraw(x.gm, x.classical, { warn: true }),
        /changed hands in the last game year; a draw may be declared after 1 years without change/,
      );
      await assert.rejects(
        judge.endings.declareDraw(x.gm, x.global, { warn: true }),
        /changed hands in the last turn; a draw may be declared after 1 turns without change/,
      );
      // Every power holds: 1901 (two movement phases) and turn 1 pass with no centre taken.
      for (let i = 0; i < 2; i++) {
        clock.advance(10 * 60_000);
        await judge.adjudication.tick();
      }
      assert.equal((await judge.views.gameView(x.gm, x.classical)).phase, "S1902M");
      assert.equal((await judge.views.gameView(x.gm, x.global)).phase, "T3");
      for (const id of games(x)) {
        const variant: string = (await judge.views.gameView(x.gm, id)).variant;
        await assert.rejects(
          judge.endings.declareDraw(x.players[id]![0]!, id, { warn: true }),
          /only the game master/,
        );
        await assert.rejects(
          judge.endings.declareDraw(x.gm, id, { warn: false }),
          /warn the players first/,
          `${variant}: a warning comes first`,
        );
        await judge.endings.declareDraw(x.gm, id, { warn: true });
        const warned: unknown[] = (await judge.views.events(x.players[id]![0]!, id)).filter(
          (e) => e.kind === "draw_warning",
        );
        assert.equal(warned.length, 1, `${variant}: the players are warned`);
        await assert.rejects(
          judge.endings.declareDraw(x.gm, id, { warn: false }),
          /the warning given in (S1902M|T3) runs 1 (game year|turn)/,
          `${variant}: not before the warning period (drawWarningYears, one year or turn) has passed`,
        );
      }
      // Two more quiet phases: spring and fall 1902 (no adjustments), turns 3 and 4.
      for (let i = 0; i < 2; i++) {
        clock.advance(10 * 60_000);
        await judge.adjudication.tick();
      }
      for (const id of games(x)) {
        const variant: string = (await judge.views.gameView(x.gm, id)).variant;
        const view = await judge.endings.declareDraw(x.gm, id, { warn: false });
        const result = view.result as { kind: string; powers: string[]; by: string };
        assert.equal(result.kind, "draw", `${variant}: drawn`);
        assert.equal(result.by, "gm");
        assert.deepEqual(
          [...result.powers].sort(),
          view.seatList.flatMap((s) => s.powers).sort(),
          `${variant}: all survivors`,
        );
      }
      const g = (await judge.views.gameView(x.gm, x.global)).result as { turns?: number };
      assert.equal(g.turns, 4, "global: the quiet turns counted");
      const c = (await judge.views.gameView(x.gm, x.classical)).result as { years?: number };
      assert.equal(c.years, 2, "classical: the quiet years counted");
    });

    test("removed units: the GM removes a unit by its power's name in either game; the adjudication plays without it", async (t) => {
      const x = await table(t, kind);
      if (!x) return;
      const { judge, clock } = x;
      const removed: Record<string, string> = {};
      for (const id of games(x)) {
        const before = await judge.views.gameView(x.gm, id);
        const owner = await seat(judge, x, id, 2);
        const units = before.position.units[owner.id]!;
        const unit = units[0]!;
        await assert.rejects(
          judge.units.removeUnit(owner.user, id, { power: owner.name, unit, reason: "x" }),
          /only the game master/,
        );
        await assert.rejects(
          judge.units.removeUnit(x.gm, id, { power: owner.name, unit: "A nowhere", reason: "x" }),
          new RegExp(`has no unit "A nowhere"; its units: ${units.join(", ")}`),
          `${before.variant}: a unit not there is refused with the power's units`,
        );
        const after = await judge.units.removeUnit(x.gm, id, {
          power: owner.name,
          unit: unit.toLowerCase(),
          reason: "an extra unit",
        });
        assert.deepEqual(
          after.position.units[owner.id],
          units.slice(1),
          `${before.variant}: ${unit} is gone`,
        );
        removed[id] = unit;
        const told = async (u: User) =>
          (await judge.views.events(u, id)).filter((e) => e.kind === "unit_removed").length;
        assert.equal(await told(owner.user), 1, `${before.variant}: its power is told`);
        // Units are public in Diplomacy; in Global Diplomacy a power sees only its own (§8).
        assert.equal(
          await told(x.players[id]![0]!),
          id === x.classical ? 1 : 0,
          `${before.variant}: another power is told only where units are public`,
        );
      }
      clock.advance(10 * 60_000);
      assert.equal(await judge.adjudication.tick(), 2);
      for (const id of games(x)) {
        const view = await judge.views.gameView(x.gm, id);
        const all = Object.values(view.position.units).flat();
        assert.ok(!all.includes(removed[id]!), `${view.variant}: still gone after the phase`);
      }
      // Global Diplomacy: a unit named by its area alone.
      const owner = await seat(judge, x, x.global, 3);
      const [unit] = (await judge.views.gameView(x.gm, x.global)).position.units[owner.id]!;
      const area = unit!.split(" ")[1]!;
      const view = await judge.units.removeUnit(x.gm, x.global, {
        power: owner.id,
        unit: area,
        reason: "by area",
      });
      assert.ok(!view.position.units[owner.id]!.includes(unit!), "global: removed by its area");
    });
  });
}
