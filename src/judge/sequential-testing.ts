import assert from "node:assert/strict";
import type { TestContext } from "node:test";
import type { PhaseRecord } from "../engine/record.ts";
import type { Store } from "../store/db.ts";
import { type StoreKind, testStore } from "../store/testing.ts";
import { JudgeError } from "./errors.ts";
import type { Judge, User } from "./judge.ts";
import { type Clock, judgeWithGm, type Power as P, POWERS, user } from "./testing.ts";

/*
 * Helpers for the tests of sequential movement in a judge game (sequential.test.ts,
 * sequential-contracts.test.ts): the game with its seven players and an observer, a phase
 * played, the schedule of a season, an order's explanation, everything a viewer can read.
 */

export type { Power as P } from "./testing.ts";

export interface SeqGame {
  readonly judge: Judge;
  readonly clock: Clock;
  readonly gm: User;
  readonly players: Record<P, User>;
  readonly observer: User;
  readonly gameId: string;
}

/**
 * A sequential-movement game of seven players and an observer, by `rules` over the judge's own
 * (`movement: "sequential"`).
 */
export async function sequentialGame(
  store: Store,
  rules: Record<string, unknown> = {},
): Promise<SeqGame> {
  const { judge, clock, gm } = await judgeWithGm(store);
  const game = await judge.games.createGame(gm, {
    name: "Hoyle",
    rules: { movement: "sequential", ...rules },
    seed: 7,
  });
  const code = (role: string) => game.invites!.find((i) => i.role === role)!.code;
  const players = {} as Record<P, User>;
  for (const p of POWERS) {
    const u = await user(judge, p);
    await judge.games.acceptInvite(u, code("player"), { power: p });
    players[p] = u;
  }
  const observer = await user(judge, "watcher");
  await judge.games.acceptInvite(observer, code("observer"), {});
  return { judge, clock, gm, players, observer, gameId: game.id };
}

/**
 * A sequential-movement game (`sequentialGame`) on a fresh store of `kind` for test `t`;
 * undefined where that store cannot be had (PostgreSQL not running).
 */
export async function sequentialGameOn(
  t: TestContext,
  kind: StoreKind = "sqlite",
): Promise<SeqGame | undefined> {
  const ts = await testStore(t, kind);
  return ts ? sequentialGame(ts.store) : undefined;
}

/** Sends these orders (final) and adjudicates the phase. */
export async function play(g: SeqGame, orders: Partial<Record<P, string[]>>): Promise<void> {
  for (const [p, list] of Object.entries(orders)) {
    await g.judge.submissions.submitOrders(g.players[p as P], g.gameId, {
      orders: list,
      final: true,
    });
  }
  const view = await g.judge.views.gameView(g.gm, g.gameId);
  g.clock.t = Date.parse(view.deadline!) + 1;
  assert.equal(await g.judge.adjudication.tick(), 1, "one phase adjudicated");
}

/** The schedule of a season: these powers first, the others after them in their order. */
export const firstThen = (...powers: P[]): string[] => [
  ...powers,
  ...POWERS.filter((p) => !powers.includes(p)),
];

/** The explanation of a power's order starting with `text`. */
export function explained(phases: readonly PhaseRecord[], power: P, text: string): string {
  const last = phases[phases.length - 1]!;
  const r = last.results[power]!.find((o) => (o.text ?? "").startsWith(text));
  assert.ok(r, `${power}: no result for ${text}`);
  return `${r.result}: ${r.explanation ?? ""} ${r.reason ?? ""}`;
}

/** A test for `assert.rejects`: a JudgeError of `kind` whose message matches `re`. */
export const rejectsWith = (kind: string, re: RegExp) => (e: unknown) =>
  e instanceof JudgeError && e.kind === kind && re.test(e.message);

/** Everything a viewer can read of the game, as text. */
export async function everything(g: SeqGame, u: User | null): Promise<string> {
  const parts = [
    await g.judge.views.gameView(u, g.gameId),
    await g.judge.views.phases(g.gameId, u),
    await g.judge.views.recordFor(u, g.gameId),
    await g.judge.views.events(u, g.gameId),
  ];
  return JSON.stringify(parts);
}
