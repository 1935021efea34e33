import type { Store } from "../store/db.ts";
import { Judge, type User } from "./judge.ts";
import type { OptionsPatch } from "./options.ts";

/* Helpers for judge tests: a clock to move by hand, and a game with its seven players. */

export class Clock {
  constructor(public t = Date.UTC(2030, 0, 1, 12)) {}
  readonly now = () => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export const DAY = 86_400_000;

export const POWERS = [
  "austria",
  "england",
  "france",
  "germany",
  "italy",
  "russia",
  "turkey",
] as const;

export interface TestGame {
  readonly judge: Judge;
  readonly clock: Clock;
  readonly gm: User;
  /** Players by power (seven-player game). */
  readonly players: Record<(typeof POWERS)[number], User>;
  readonly gameId: string;
}

let counter = 0;

/** A user without the cost of a real password hash per test (register once, reuse tokens). */
export async function user(judge: Judge, name: string): Promise<User> {
  return (await judge.register(`${name}${++counter}`, "password1")).user;
}

export async function sevenPlayerGame(
  store: Store,
  options: OptionsPatch = {},
  clock = new Clock(),
): Promise<TestGame> {
  const judge = new Judge({ store, now: clock.now });
  const gm = await user(judge, "gm");
  const game = await judge.createGame(gm, { name: "Test game", options, seed: 7 });
  const code = game.invites!.find((i) => i.role === "player")!.code;
  const players = {} as Record<(typeof POWERS)[number], User>;
  for (const p of POWERS) {
    const u = await user(judge, p);
    await judge.acceptInvite(u, code, { power: p });
    players[p] = u;
  }
  return { judge, clock, gm, players, gameId: game.id };
}
