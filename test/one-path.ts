import assert from "node:assert/strict";
import { Judge, type User } from "../src/judge/judge.ts";
import type { OptionsPatch } from "../src/judge/options.ts";
import { Clock } from "../src/judge/testing.ts";
import { testStore } from "../src/store/testing.ts";

/*
 * A classical game and a Global Diplomacy game in one judge, every seat taken by its power's
 * name: the table the one-path tests (one-path-judge.test.ts, one-path-talk.test.ts) play on.
 */

export const OPTIONS = {
  deadlines: { unit: "minutes" as const, movement: 10, retreats: 5, adjustments: 5 },
  civilDisorderAfter: 2,
};

export interface Table {
  readonly judge: Judge;
  readonly clock: Clock;
  readonly gm: User;
  readonly classical: string;
  readonly global: string;
  /** Players by game and seat index. */
  readonly players: Record<string, User[]>;
}

let n = 0;
export const user = async (judge: Judge, name: string) =>
  (await judge.accounts.register(`${name}${++n}`, "correct horse battery")).user;

export async function table(
  t: Parameters<typeof testStore>[0],
  kind: "sqlite" | "postgres",
  options: OptionsPatch = OPTIONS,
): Promise<Table | null> {
  const ts = await testStore(t, kind);
  if (!ts) return null;
  const clock = new Clock();
  const judge = new Judge({ store: ts.store, now: clock.now });
  const gm = await user(judge, "gm");
  const classical = await judge.games.createGame(gm, { name: "C", options, seed: 3 });
  const global = await judge.games.createGame(gm, {
    name: "G",
    variant: "global",
    options,
    seed: 5,
  });
  const players: Record<string, User[]> = {};
  for (const g of [classical, global]) {
    const code = g.invites!.find((i) => i.role === "player")!.code;
    players[g.id] = [];
    // Seats taken by a power's name: the same words work for both (`England`, `China`).
    for (const seat of g.seatList) {
      const u = await user(judge, "p");
      const v = await judge.games.acceptInvite(u, code, { power: seat.name });
      assert.equal(v.you?.seat, seat.index, `${g.variant}: ${seat.name} taken by its name`);
      players[g.id]!.push(u);
    }
  }
  return { judge, clock, gm, classical: classical.id, global: global.id, players };
}

export const nmrs = (j: Judge, gameId: string) =>
  j.store.db
    .selectFrom("nmrs")
    .select(["phase", "power", "seat"])
    .where("game_id", "=", gameId)
    .orderBy("id")
    .execute();
