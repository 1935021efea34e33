import type { TestContext } from "node:test";
import { formatOrder } from "../engine/orders.ts";
import type { PhaseRecord } from "../engine/record.ts";
import type { Store } from "../store/db.ts";
import { type StoreKind, testStore } from "../store/testing.ts";
import { getVariant } from "../variants/registry.ts";
import { Judge, type User } from "./judge.ts";
import type { OptionsPatch } from "./options.ts";

/*
 * Helpers for judge tests: a clock to move by hand, a judge on it with its GM, a game with its
 * seven players (everybody holding, the deadline passed), a Global Diplomacy game with its
 * eleven.
 */

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

export type Power = (typeof POWERS)[number];

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
  return (await judge.accounts.register(`${name}${++counter}`, "correct horse battery")).user;
}

/**
 * A judge (on the real clock) on a fresh store of `kind` for test `t`; undefined where that
 * store cannot be had (PostgreSQL not running).
 */
export async function judgeOn(t: TestContext, kind: StoreKind): Promise<Judge | undefined> {
  const ts = await testStore(t, kind);
  return ts ? new Judge({ store: ts.store }) : undefined;
}

/** A judge on `store` whose clock the test moves (a new one unless `clock` is given). */
export function clockedJudge(store: Store, clock = new Clock()): { judge: Judge; clock: Clock } {
  return { judge: new Judge({ store, now: clock.now }), clock };
}

/** A judge on `store` whose clock the test moves (`clockedJudge`), and a user to be its GM. */
export async function judgeWithGm(
  store: Store,
  clock = new Clock(),
): Promise<{ judge: Judge; clock: Clock; gm: User }> {
  const { judge } = clockedJudge(store, clock);
  return { judge, clock, gm: await user(judge, "gm") };
}

/**
 * A seven-player game (`sevenPlayerGame`, by the judge options given) on a fresh store of
 * `kind` for test `t`; undefined where that store cannot be had (PostgreSQL not running).
 */
export async function sevenPlayerGameOn(
  t: TestContext,
  kind: StoreKind,
  options: OptionsPatch = {},
): Promise<TestGame | undefined> {
  const ts = await testStore(t, kind);
  return ts ? sevenPlayerGame(ts.store, options) : undefined;
}

/**
 * A classical game (seed 7) with its seven players seated, created by the judge options given
 * and, in `game`, its name and rules.
 */
export async function sevenPlayerGame(
  store: Store,
  options: OptionsPatch = {},
  clock = new Clock(),
  game: { readonly name?: string; readonly rules?: string } = {},
): Promise<TestGame> {
  const { judge, gm } = await judgeWithGm(store, clock);
  const created = await judge.games.createGame(gm, {
    name: game.name ?? "Test game",
    options,
    seed: 7,
    ...(game.rules !== undefined && { rules: game.rules }),
  });
  const code = created.invites!.find((i) => i.role === "player")!.code;
  const players = {} as Record<Power, User>;
  for (const p of POWERS) {
    const u = await user(judge, p);
    await judge.games.acceptInvite(u, code, { power: p });
    players[p] = u;
  }
  return { judge, clock, gm, players, gameId: created.id };
}

/** A Global Diplomacy game of the GM's ("World", seed 9), with the judge options given. */
export function globalGame(judge: Judge, gm: User, options?: OptionsPatch) {
  return judge.games.createGame(gm, { name: "World", variant: "global", seed: 9, options });
}

/**
 * The eleven players of a Global Diplomacy game seated by its invitation: player p is the user
 * `NAMEp`, at power p; `before` runs for each before they join. Their users by power number.
 */
export async function elevenPlayers(
  judge: Judge,
  game: { invites?: readonly { code: string; role: string }[] },
  name: string,
  before?: (p: number, u: User) => Promise<unknown>,
): Promise<Record<number, User>> {
  const code = game.invites!.find((i) => i.role === "player")!.code;
  const players: Record<number, User> = {};
  for (let p = 1; p <= 11; p++) {
    const u = await user(judge, `${name}${p}`);
    players[p] = u;
    await before?.(p, u);
    await judge.games.acceptInvite(u, code, { power: String(p) });
  }
  return players;
}

/** Everybody (but the powers in `except`) orders every unit to hold, final: no NMR. */
export async function allHold(g: TestGame, except: readonly string[] = []) {
  const view = await g.judge.views.gameView(g.gm, g.gameId);
  for (const p of view.toOrder) {
    if (except.includes(p)) continue;
    const units = view.phase?.endsWith("M") ? (view.position.units[p] ?? []) : [];
    await g.judge.submissions.submitOrders(g.players[p as Power], g.gameId, {
      orders: units.map((u) => `${u} H`),
      final: true,
    });
  }
}

/** Moves the clock past the deadline and runs the scheduler once. */
export async function passDeadline(g: TestGame): Promise<number> {
  const view = await g.judge.views.gameView(g.gm, g.gameId);
  if (view.deadline) g.clock.t = Date.parse(view.deadline) + 1;
  return g.judge.adjudication.tick();
}

/** Passes `n` deadlines in turn (`passDeadline`): the phase the game is in then. */
export async function passDeadlines(g: TestGame, n: number): Promise<string | null> {
  for (let i = 0; i < n; i++) await passDeadline(g);
  return (await g.judge.views.gameView(g.gm, g.gameId)).phase;
}

/** The powers recorded as having missed orders (NMRs) in `gameId`, in `phase` only if given. */
export async function nmrPowers(store: Store, gameId: string, phase?: string): Promise<string[]> {
  let q = store.db.selectFrom("nmrs").select("power").where("game_id", "=", gameId);
  if (phase !== undefined) q = q.where("phase", "=", phase);
  return (await q.orderBy("power").execute()).map((r) => r.power);
}

/**
 * The order sets stored for `gameId`, every revision in the order written (in `phase` only if
 * given): the power, who sent it (a user's id, or `bot:NAME` for a built-in player), final.
 */
export async function storedSets(store: Store, gameId: string, phase?: string) {
  let q = store.db
    .selectFrom("submissions")
    .select(["power", "user_id", "final"])
    .where("game_id", "=", gameId);
  if (phase !== undefined) q = q.where("phase", "=", phase);
  return q.orderBy("id").execute();
}

/** A game whose open phase is to hold this many stored order revisions (the soak's shape). */
export interface LongPhase {
  readonly game: TestGame;
  readonly revisions: number;
}

/** Each power's starting units on the classical board, as order lines (every unit holds). */
function startHolds(power: string): string {
  const units = getVariant("classical")!.start.units.filter((u) => u.power === power);
  return JSON.stringify(units.map((unit) => formatOrder({ kind: "hold", unit })));
}

/**
 * Fills the open phase of a game with stored revisions, as players revising in a loop would
 * leave them (written straight into the store: the judge's own path would take minutes): the
 * powers in turn, each row a full set of holds, not final.
 */
export async function prefillRevisions(store: Store, lp: LongPhase): Promise<void> {
  const { gameId, players } = lp.game;
  const st = await store.db
    .selectFrom("phase_state")
    .select(["phase_idx", "phase"])
    .where("game_id", "=", gameId)
    .executeTakeFirstOrThrow();
  const holds = new Map(POWERS.map((p) => [p, startHolds(p)]));
  const rows = [];
  for (let i = 0; i < lp.revisions; i++) {
    const power = POWERS[i % POWERS.length]!;
    rows.push({
      game_id: gameId,
      phase_idx: st.phase_idx,
      phase: st.phase,
      power,
      user_id: players[power].id,
      orders: holds.get(power)!,
      final: 0,
      diagnostics: "[]",
      received_at: lp.game.clock.now(),
    });
  }
  for (let i = 0; i < rows.length; i += 500) {
    await store.db
      .insertInto("submissions")
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

/**
 * One round of what a revising player and the judge's reminders do in a long phase: England
 * sends a set (the `n`th variant: one unit moves), reads it back (it must read exactly that
 * set), and the list of who still owes orders is made.
 */
export async function longPhaseRound(
  lp: LongPhase,
  n: number,
): Promise<{ submit: number; read: number; owed: number }> {
  const { judge, gameId, players } = lp.game;
  const moves = ["F lon - nth", "F lon - eng", "F lon - wal", "F lon - yor"];
  const orders = [moves[n % moves.length]!, "F edi H", "A lvp H"];
  // A revision a second, as the load bench's players: within the orders-rate quota.
  lp.game.clock.advance(1000);
  const t0 = performance.now();
  await judge.submissions.submitOrders(players.england, gameId, { orders });
  const t1 = performance.now();
  const back = await judge.submissions.currentOrders(players.england, gameId);
  const t2 = performance.now();
  const mine = back.sets.find((s) => s.power === "england");
  if (JSON.stringify(mine?.orders) !== JSON.stringify(orders)) {
    throw new Error(`read back ${JSON.stringify(mine?.orders)}, sent ${JSON.stringify(orders)}`);
  }
  const owed = await judge.submissions.ordersOwed(gameId);
  const t3 = performance.now();
  if (!owed.owed.some((o) => o.powers.some((p) => p.power === "england"))) {
    throw new Error("England's set is not final: it still owes orders");
  }
  return { submit: t1 - t0, read: t2 - t1, owed: t3 - t2 };
}

/**
 * An erroneous adjudication, as a test's fixture: the stored record of `phase` (the current
 * one) rewritten by `edit`, as if the judge had published it so (seed 002 VIII(2) is about
 * such records: more units than supply centres after an adjustment phase). Stored as a
 * correction stores a phase (the old row superseded, a new one written).
 */
export async function rewritePhase(
  store: Store,
  gameId: string,
  phase: string,
  edit: (record: PhaseRecord) => PhaseRecord,
): Promise<void> {
  const row = await store.db
    .selectFrom("phases")
    .selectAll()
    .where("game_id", "=", gameId)
    .where("phase", "=", phase)
    .where("superseded", "=", 0)
    .executeTakeFirstOrThrow();
  const record = edit(JSON.parse(row.record) as PhaseRecord);
  await store.db.updateTable("phases").set({ superseded: 1 }).where("id", "=", row.id).execute();
  await store.db
    .insertInto("phases")
    .values({
      game_id: gameId,
      idx: row.idx,
      phase: row.phase,
      record: JSON.stringify(record),
      superseded: 0,
      adjudicated_at: Number(row.adjudicated_at) + 1,
    })
    .execute();
}

/** A position's supply centres of `power` without `drop`: the fixture of a miscounted table. */
export function withoutCentres(record: PhaseRecord, power: string, drop: readonly string[]) {
  const centers = { ...record.position.centers };
  centers[power] = (centers[power] ?? []).filter((c) => !drop.includes(c));
  return { ...record, position: { ...record.position, centers } };
}
