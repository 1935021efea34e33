import type { Kysely } from "kysely";
import type { PhaseRecord } from "../engine/record.ts";
import type { Store } from "../store/db.ts";
import type { DB } from "../store/schema.ts";
import { conflict, forbidden, invalid } from "./errors.ts";
import { latestEventData, lockGame } from "./game-data.ts";
import { phaseLengthMs } from "./options.ts";
import type { GameView, User } from "./types.ts";

/*
 * Chaired play (seed 000, the Historical Committee): the chairs, not a clock, decide when a
 * phase is resolved. Delegations send their orders as usual (hidden from everybody but the
 * chair, as every order set is until adjudication); the chair then reveals and resolves them
 * all at once. A chaired game's phases have no deadline, so the scheduler never adjudicates
 * them; `chairResolve` adjudicates the open phase at once.
 *
 * The mode is recorded as a public `chair_mode` event ({ on: boolean }): the latest one
 * counts, so turning it on and off is kept in the game's log like every other GM action.
 */

export const CHAIR_EVENT = "chair_mode";

/**
 * What the chair's acts use of the judge (src/judge/judge.ts's Judge is one): the store, the
 * clock, the game view and record (views.ts) and the scheduler's claim (adjudication.ts).
 * Named here, not imported, so that the rooms may call this file's hooks.
 */
export interface ChairJudge {
  readonly store: Store;
  readonly now: () => number;
  readonly views: {
    gameView(user: User, gameId: string): Promise<GameView>;
    phases(gameId: string): Promise<PhaseRecord[]>;
  };
  readonly adjudication: { adjudicateIfDue(gameId: string, idx: number): Promise<boolean> };
}

export async function isChaired(db: Kysely<DB>, gameId: string): Promise<boolean> {
  const chair = await latestEventData<{ on?: unknown }>(db, gameId, CHAIR_EVENT);
  return chair?.on === true;
}

/** The judge's hook: the deadline a newly opened phase gets (none in a chaired game). */
export async function chairDeadline(
  db: Kysely<DB>,
  gameId: string,
  deadline: number,
): Promise<number | null> {
  return (await isChaired(db, gameId)) ? null : deadline;
}

async function requireGm(judge: ChairJudge, user: User, gameId: string) {
  const view = await judge.views.gameView(user, gameId);
  if (view.you?.role !== "gm") {
    throw forbidden("only the game master (the chair) may do this");
  }
  return view;
}

/** Locks the game's row (as the judge's own transactions do) and reads its state. */
async function lockState(trx: Kysely<DB>, gameId: string) {
  await lockGame(trx, gameId);
  return trx
    .selectFrom("phase_state")
    .selectAll()
    .where("game_id", "=", gameId)
    .executeTakeFirstOrThrow();
}

/**
 * Turns chaired play on or off. On: the open phase loses its deadline. Off: it gets a fresh
 * one of the game's length for its type.
 */
export async function setChairMode(
  judge: ChairJudge,
  user: User,
  gameId: string,
  on: boolean,
): Promise<{ chaired: boolean }> {
  const view = await requireGm(judge, user, gameId);
  if (on && view.options.resolveEarly) {
    throw invalid(
      "a chaired game cannot resolve early by itself: turn resolveEarly off first (the chair resolves)",
    );
  }
  await judge.store.db.transaction().execute(async (trx) => {
    const st = await lockState(trx, gameId);
    if (st.state === "done") throw conflict("the game is over");
    const now = judge.now();
    if (st.state === "open") {
      const type = st.phase.slice(-1) as "M" | "R" | "A";
      await trx
        .updateTable("phase_state")
        .set({
          deadline_at: on ? null : now + phaseLengthMs(view.options, type),
          updated_at: now,
        })
        .where("game_id", "=", gameId)
        .execute();
    }
    await trx
      .insertInto("events")
      .values({
        game_id: gameId,
        kind: CHAIR_EVENT,
        audience: "public",
        data: JSON.stringify({ on, phase: st.phase }),
        at: now,
      })
      .execute();
  });
  return { chaired: on };
}

/**
 * The chair reveals and resolves the open phase now, with the orders sent so far. Answers
 * with the adjudicated phase (orders, results, explanations).
 */
export async function chairResolve(
  judge: ChairJudge,
  user: User,
  gameId: string,
): Promise<{ index: number; phase: PhaseRecord }> {
  await requireGm(judge, user, gameId);
  const idx = await judge.store.db.transaction().execute(async (trx) => {
    const st = await lockState(trx, gameId);
    if (st.state === "forming") throw conflict("the game has not started yet");
    if (st.state === "done") throw conflict("the game is over");
    if (st.state === "paused") throw conflict("the game is paused: resume it first");
    await trx
      .updateTable("phase_state")
      .set({ deadline_at: judge.now(), updated_at: judge.now() })
      .where("game_id", "=", gameId)
      .execute();
    return st.phase_idx;
  });
  await judge.adjudication.adjudicateIfDue(gameId, idx);
  const phases = await judge.views.phases(gameId);
  const phase = phases[idx];
  if (!phase) throw conflict("the phase could not be resolved; the server's log says why");
  return { index: idx, phase };
}

// ---------------------------------------------------------------------------------------------
// The chairs' timers

/*
 * The chairs keep time (seed 000: "The chairs keep time for the negotiation sessions"): a
 * speech, the diplomatic phase (30 minutes before the first turn, 15 after) and the order
 * writing. The timer is state of the game, kept here (table `chair_timers`), changed by the GM
 * (the chair) and public: every change is a public `chair_timer` event carrying the timer, so
 * every page watching the game (the chairs' windows, the projector, each delegation's game
 * page) shows the same time, and a reload or a restart reads it back from the store. The
 * clock is the judge's (`judge.now()`); a client counts down to `endsAt`, corrected by the
 * `now` each answer carries. When a running timer reaches its end the scheduler announces it
 * once (`chairTimersDue`): a public `chair_timer` (stopped, 0 left) and a `chair_timer_ended`
 * for the GM (shown on the chair's page, mailed to a chair who takes mail); an orders timer
 * ending resolves the open phase at once if the game's option `resolveWhenOrdersTimerEnds`
 * says so.
 */

export const TIMER_EVENT = "chair_timer";
export const TIMER_ENDED_EVENT = "chair_timer_ended";

export type ChairStage = "speech" | "diplomacy" | "orders";
export const CHAIR_STAGES: readonly ChairStage[] = ["speech", "diplomacy", "orders"];

/** The lengths the chair set, in seconds. */
export interface ChairLengths {
  readonly speech: number;
  /** The diplomatic phase before the first turn (seed 000: 30 minutes). */
  readonly firstDiplomacy: number;
  /** The diplomatic phase before each later turn (seed 000: 15 minutes). */
  readonly diplomacy: number;
  readonly orders: number;
}

export const DEFAULT_LENGTHS: ChairLengths = {
  speech: 5 * 60,
  firstDiplomacy: 30 * 60,
  diplomacy: 15 * 60,
  orders: 10 * 60,
};

/** What is stored. */
export interface ChairTimerState {
  /** The stage timed, or null before the first start and after a reset. */
  readonly stage: ChairStage | null;
  readonly lengths: ChairLengths;
  /** The length of the stage timed, in seconds. */
  readonly length: number;
  readonly running: boolean;
  /** When running: the instant it ends (ms since 1970); otherwise null. */
  readonly endsAt: number | null;
  /** When not running: the time left (ms); 0 once it has run out. */
  readonly leftMs: number;
}

/** What everybody is shown: the state, the time left now and the judge's clock. */
export interface ChairTimerView extends ChairTimerState {
  readonly remainingMs: number;
  /** The judge's clock when the answer was made: clients count down from it. */
  readonly now: number;
  /** The stage's time has run out. */
  readonly ended: boolean;
}

const STOPPED: ChairTimerState = {
  stage: null,
  lengths: DEFAULT_LENGTHS,
  length: 0,
  running: false,
  endsAt: null,
  leftMs: 0,
};

export function timerView(state: ChairTimerState, now: number): ChairTimerView {
  const remainingMs =
    state.running && state.endsAt !== null ? Math.max(0, state.endsAt - now) : state.leftMs;
  return { ...state, remainingMs, now, ended: state.stage !== null && remainingMs === 0 };
}

async function readTimer(db: Kysely<DB>, gameId: string): Promise<ChairTimerState> {
  const row = await db
    .selectFrom("chair_timers")
    .select("data")
    .where("game_id", "=", gameId)
    .executeTakeFirst();
  if (!row) return STOPPED;
  const s = JSON.parse(row.data) as ChairTimerState;
  return { ...s, lengths: { ...DEFAULT_LENGTHS, ...s.lengths } };
}

/** The game's timer as everybody is shown it. */
export async function chairTimer(judge: ChairJudge, gameId: string): Promise<ChairTimerView> {
  return timerView(await readTimer(judge.store.db, gameId), judge.now());
}

async function writeTimer(
  trx: Kysely<DB>,
  gameId: string,
  state: ChairTimerState,
  now: number,
  told: boolean,
): Promise<void> {
  const values = {
    data: JSON.stringify(state),
    ends_at: state.running ? state.endsAt : null,
    told: told ? 1 : 0,
    updated_at: now,
  };
  const r = await trx
    .updateTable("chair_timers")
    .set(values)
    .where("game_id", "=", gameId)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) {
    await trx
      .insertInto("chair_timers")
      .values({ game_id: gameId, ...values })
      .execute();
  }
}

/** What a chair may do to the timer (`POST /api/games/{id}/chair/timer`). */
export type TimerAction =
  | { readonly action: "start"; readonly stage: ChairStage; readonly seconds?: number | undefined }
  | { readonly action: "pause" }
  | { readonly action: "resume" }
  | { readonly action: "reset" }
  | { readonly action: "lengths"; readonly lengths: Partial<ChairLengths> };

/** The next state of the timer after a chair's action, or the reason it is refused. */
export function applyTimerAction(
  state: ChairTimerState,
  a: TimerAction,
  now: number,
  firstTurn: boolean,
): ChairTimerState | string {
  const left = timerView(state, now).remainingMs;
  switch (a.action) {
    case "start": {
      const length =
        a.seconds ??
        (a.stage === "diplomacy"
          ? firstTurn
            ? state.lengths.firstDiplomacy
            : state.lengths.diplomacy
          : state.lengths[a.stage]);
      return {
        ...state,
        stage: a.stage,
        length,
        running: true,
        endsAt: now + length * 1000,
        leftMs: length * 1000,
      };
    }
    case "pause":
      if (!state.running) return "the timer is not running";
      return { ...state, running: false, endsAt: null, leftMs: left };
    case "resume":
      if (state.running) return "the timer is already running";
      if (state.stage === null || left === 0) return "nothing to resume: start a timer";
      return { ...state, running: true, endsAt: now + left, leftMs: left };
    case "reset":
      return { ...STOPPED, lengths: state.lengths };
    case "lengths":
      return { ...state, lengths: { ...state.lengths, ...a.lengths } };
  }
}

/** A chair changes the timer; everybody watching the game is told. */
export async function setChairTimer(
  judge: ChairJudge,
  user: User,
  gameId: string,
  a: TimerAction,
): Promise<ChairTimerView> {
  await requireGm(judge, user, gameId);
  return judge.store.db.transaction().execute(async (trx) => {
    const st = await lockState(trx, gameId);
    if (st.state === "done") throw conflict("the game is over");
    const now = judge.now();
    const before = await readTimer(trx, gameId);
    const next = applyTimerAction(before, a, now, st.phase_idx === 0);
    if (typeof next === "string") throw conflict(next);
    await writeTimer(trx, gameId, next, now, !next.running);
    const view = timerView(next, now);
    await trx
      .insertInto("events")
      .values({
        game_id: gameId,
        kind: TIMER_EVENT,
        audience: "public",
        data: JSON.stringify({ ...view, action: a.action, phase: st.phase }),
        at: now,
      })
      .execute();
    return view;
  });
}

/**
 * The scheduler's part: every running timer whose end has come is stopped and announced, once
 * (the claim on `told`). An orders timer ending resolves the open phase of a chaired game when
 * the game's option `resolveWhenOrdersTimerEnds` is on: the phase's deadline becomes now, and
 * the same tick adjudicates it. Answers the games whose timer ended.
 */
export async function chairTimersDue(db: Kysely<DB>, now: number): Promise<string[]> {
  const due = await db
    .selectFrom("chair_timers")
    .select("game_id")
    .where("told", "=", 0)
    .where("ends_at", "<=", now)
    .execute();
  const ended: string[] = [];
  for (const { game_id: gameId } of due) {
    const done = await db.transaction().execute(async (trx) => {
      const st = await lockState(trx, gameId);
      const claim = await trx
        .updateTable("chair_timers")
        .set({ told: 1 })
        .where("game_id", "=", gameId)
        .where("told", "=", 0)
        .where("ends_at", "<=", now)
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) === 0) return false;
      const before = await readTimer(trx, gameId);
      const next: ChairTimerState = { ...before, running: false, endsAt: null, leftMs: 0 };
      await writeTimer(trx, gameId, next, now, true);
      let resolving = false;
      if (before.stage === "orders" && st.state === "open" && (await isChaired(trx, gameId))) {
        const game = await trx
          .selectFrom("games")
          .select("options")
          .where("id", "=", gameId)
          .executeTakeFirstOrThrow();
        const options = JSON.parse(game.options) as { resolveWhenOrdersTimerEnds?: boolean };
        if (options.resolveWhenOrdersTimerEnds === true) {
          resolving = true;
          await trx
            .updateTable("phase_state")
            .set({ deadline_at: now, updated_at: now })
            .where("game_id", "=", gameId)
            .execute();
        }
      }
      const events = [
        {
          kind: TIMER_EVENT,
          audience: "public",
          data: { ...timerView(next, now), action: "ended", phase: st.phase },
        },
        {
          kind: TIMER_ENDED_EVENT,
          audience: "gm",
          data: { stage: before.stage, length: before.length, phase: st.phase, resolving },
        },
      ];
      for (const e of events) {
        await trx
          .insertInto("events")
          .values({
            game_id: gameId,
            kind: e.kind,
            audience: e.audience,
            data: JSON.stringify(e.data),
            at: now,
          })
          .execute();
      }
      return true;
    });
    if (done) ended.push(gameId);
  }
  return ended;
}
