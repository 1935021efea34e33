import { type Expression, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import type { DB } from "../store/schema.ts";
import type { Viewer } from "./types.ts";

/*
 * The ids a viewer is shown for press and events: their own ordinals. The store's row ids are
 * global sequences (every game's press and events share one), so showing them would let a
 * player count what others wrote privately, and anybody count what happens in other games.
 * Instead the nth message (or event) a viewer may read in a game has id n for them: a
 * player's ids run 1, 2, 3 ... with no gaps, whatever others exchange between their messages.
 * New rows only append (they are written under the game's lock, so row ids grow in commit
 * order within a game), so an item's id for a viewer never changes while what they may read
 * stays the same; `?after=n` is a cursor in that numbering. The game master reads everything:
 * their ids count every message (event) of the game. Contract declarations (sequential
 * movement, src/judge/schedule.ts) are numbered alike, per power; events that name a message
 * or a declaration name it by the reader's own id (`withOwnIds`).
 *
 * Who may read what is decided here in SQL, the same rule as the JavaScript filters (press.ts,
 * views.ts `filterFor`), so that a page or a count is one indexed query per request
 * (`press_by_game`, `events_by_game`), never every row of the game loaded.
 */

/** Who reads: the GM (everything), or a user with the powers of their seat (maybe none). */
export interface Reader {
  readonly gm: boolean;
  readonly userId: string | null;
  readonly powers: readonly string[];
}

export function readerOf(v: Viewer): Reader {
  return { gm: v.role === "gm", userId: v.user?.id ?? null, powers: v.powers.map(String) };
}

/** The same reader, as a key (watchers reading alike share a query). */
export function readerKey(r: Reader): string {
  return r.gm ? "gm" : `${r.userId ?? ""}|${r.powers.join(",")}`;
}

/** A LIKE pattern's literal part, escaped with `!`. */
const lit = (s: string) => s.replace(/[!%_]/g, (c) => `!${c}`);

/**
 * Press a reader may read: sent to all, sent by them, or to one of their powers (recipients
 * are stored as JSON: `"all"` or `["france","italy"]`).
 */
function pressReadable(r: Reader): Expression<SqlBool> | null {
  if (r.gm) return null;
  const any: Expression<SqlBool>[] = [sql<SqlBool>`recipients = '"all"'`];
  if (r.userId !== null) any.push(sql<SqlBool>`author_user = ${r.userId}`);
  for (const p of r.powers) {
    any.push(sql<SqlBool>`recipients like ${`%"${lit(p)}"%`} escape '!'`);
  }
  return sql<SqlBool>`(${sql.join(any, sql` or `)})`;
}

/** Events a reader may read: public, or addressed to one of their powers (`powers:a,b`). */
function eventReadable(r: Reader): Expression<SqlBool> | null {
  if (r.gm) return null;
  const any: Expression<SqlBool>[] = [sql<SqlBool>`audience = 'public'`];
  for (const p of r.powers) {
    any.push(
      sql<SqlBool>`(audience like 'powers:%' and (',' || substr(audience, 8) || ',') like ${`%,${lit(p)},%`} escape '!')`,
    );
  }
  return sql<SqlBool>`(${sql.join(any, sql` or `)})`;
}

/** A game's press rows a reader may read, up to row id `upTo` if given. */
function readablePress(db: Kysely<DB>, gameId: string, r: Reader, upTo?: number) {
  let q = db.selectFrom("press").where("game_id", "=", gameId);
  if (upTo !== undefined) q = q.where("id", "<=", upTo);
  const cond = pressReadable(r);
  return cond ? q.where(cond) : q;
}

/** A game's event rows a reader may read, up to row id `upTo` if given. */
function readableEvents(db: Kysely<DB>, gameId: string, r: Reader, upTo?: number) {
  let q = db.selectFrom("events").where("game_id", "=", gameId);
  if (upTo !== undefined) q = q.where("id", "<=", upTo);
  const cond = eventReadable(r);
  return cond ? q.where(cond) : q;
}

/** The rows of a readable query after the reader's `after`th, at most `limit`, with their ids. */
async function page<T extends "press" | "events", O>(
  q: SelectQueryBuilder<DB, T, O>,
  after: number,
  limit: number,
) {
  const rows = await q.selectAll().orderBy("id").limit(limit).offset(after).execute();
  return rows.map((row, i) => ({ n: after + i + 1, row }));
}

/** The press rows a reader may read after their `after`th, at most `limit`, each with its id for them. */
export async function pressPage(
  db: Kysely<DB>,
  gameId: string,
  r: Reader,
  after: number,
  limit: number,
) {
  return page(readablePress(db, gameId, r), after, limit);
}

/** The event rows a reader may read after their `after`th (up to row id `upTo`), with their ids. */
export async function eventPage(
  db: Kysely<DB>,
  gameId: string,
  r: Reader,
  after: number,
  limit: number,
  upTo?: number,
) {
  return page(readableEvents(db, gameId, r, upTo), after, limit);
}

/** How many rows of a game's press or events a reader may read, up to row id `upTo`. */
export async function readableCount(
  db: Kysely<DB>,
  table: "press" | "events",
  gameId: string,
  r: Reader,
  upTo?: number,
): Promise<number> {
  const row =
    table === "press"
      ? await readablePress(db, gameId, r, upTo)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirst()
      : await readableEvents(db, gameId, r, upTo)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The newest event row id of a game (0 for none). */
export async function lastEventRow(db: Kysely<DB>, gameId: string): Promise<number> {
  const row = await db
    .selectFrom("events")
    .where("game_id", "=", gameId)
    .select((eb) => eb.fn.max("id").as("m"))
    .executeTakeFirst();
  return Number(row?.m ?? 0);
}

/**
 * Press row ids (as stored in press events) to a reader's ids for the same messages; a
 * message the reader may not read has none. Two queries for any number of ids.
 */
export async function pressIds(
  db: Kysely<DB>,
  gameId: string,
  r: Reader,
  rowIds: readonly number[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (rowIds.length === 0) return out;
  const lo = Math.min(...rowIds);
  const hi = Math.max(...rowIds);
  const before = await readableCount(db, "press", gameId, r, lo - 1);
  const rows = await readablePress(db, gameId, r, hi)
    .where("id", ">=", lo)
    .select("id")
    .orderBy("id")
    .execute();
  for (const [i, row] of rows.entries()) out.set(Number(row.id), before + i + 1);
  return out;
}

/** Contract declarations (sequential movement): a reader's ids, the GM's every one's. */
async function contractIds(
  db: Kysely<DB>,
  gameId: string,
  r: Reader,
): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom("contracts")
    .select(["id", "power"])
    .where("game_id", "=", gameId)
    .orderBy("id")
    .execute();
  const own = rows.filter((d) => r.gm || r.powers.includes(d.power));
  return new Map(own.map((d, i) => [Number(d.id), i + 1]));
}

const CONTRACT_EVENTS = new Set(["contract_declared", "contract_withdrawn"]);

/**
 * Events as a reader is shown them: a press event's `id` (the message's row id) becomes the
 * reader's id for that message, a contract event's the reader's id for the declaration
 * (src/judge/schedule.ts); left out where they may not read the thing itself.
 */
export async function withOwnIds<E extends { kind: string; data: unknown }>(
  db: Kysely<DB>,
  gameId: string,
  r: Reader,
  events: readonly E[],
): Promise<E[]> {
  const rowOf = (e: E) => {
    const id = (e.data as { id?: unknown } | null)?.id;
    return (e.kind === "press" || CONTRACT_EVENTS.has(e.kind)) && typeof id === "number"
      ? id
      : null;
  };
  const press = events.flatMap((e) => {
    const id = e.kind === "press" ? rowOf(e) : null;
    return id === null ? [] : [id];
  });
  const contracts = events.some((e) => CONTRACT_EVENTS.has(e.kind) && rowOf(e) !== null);
  if (press.length === 0 && !contracts) return [...events];
  const pressMap = await pressIds(db, gameId, r, press);
  const contractMap = contracts ? await contractIds(db, gameId, r) : new Map<number, number>();
  return events.map((e) => {
    const row = rowOf(e);
    if (row === null) return e;
    const { id: _, ...rest } = e.data as Record<string, unknown>;
    const n = (e.kind === "press" ? pressMap : contractMap).get(row);
    return { ...e, data: n === undefined ? rest : { id: n, ...rest } };
  });
}
