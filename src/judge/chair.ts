import { type Kysely, sql } from "kysely";
import type { PhaseRecord } from "../engine/record.ts";
import type { DB } from "../store/schema.ts";
import { conflict, forbidden, invalid, notFound } from "./errors.ts";
import type { Judge, User } from "./judge.ts";
import { phaseLengthMs } from "./options.ts";

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

export async function isChaired(db: Kysely<DB>, gameId: string): Promise<boolean> {
  const row = await db
    .selectFrom("events")
    .select("data")
    .where("game_id", "=", gameId)
    .where("kind", "=", CHAIR_EVENT)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return false;
  return (JSON.parse(row.data) as { on?: unknown }).on === true;
}

/** The judge's hook: the deadline a newly opened phase gets (none in a chaired game). */
export async function chairDeadline(
  db: Kysely<DB>,
  gameId: string,
  deadline: number,
): Promise<number | null> {
  return (await isChaired(db, gameId)) ? null : deadline;
}

async function requireGm(judge: Judge, user: User, gameId: string) {
  const view = await judge.gameView(user, gameId);
  if (view.you?.role !== "gm") {
    throw forbidden("only the game master (the chair) may do this");
  }
  return view;
}

/** Locks the game's row (as the judge's own transactions do) and reads its state. */
async function lockState(trx: Kysely<DB>, gameId: string) {
  const r = await trx
    .updateTable("phase_state")
    .set({ version: sql`version + 1` })
    .where("game_id", "=", gameId)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw notFound(`no game "${gameId}"`);
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
  judge: Judge,
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
  judge: Judge,
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
  await judge.adjudicateIfDue(gameId, idx);
  const phases = await judge.phases(gameId);
  const phase = phases[idx];
  if (!phase) throw conflict("the phase could not be resolved; the server's log says why");
  return { index: idx, phase };
}
