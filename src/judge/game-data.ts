import { type Kysely, type Selectable, sql } from "kysely";
import { parsePhase } from "../engine/phase.ts";
import type { PositionJson } from "../engine/position-json.ts";
import {
  applyEdits,
  currentPosition,
  currentSeats,
  type GameRecord,
  type PhaseRecord,
  type RecordEdit,
} from "../engine/record.ts";
import type { Scenario, Seat } from "../engine/scenario.ts";
import type { Position } from "../engine/types.ts";
import { inSnapshot } from "../store/db.ts";
import type {
  DB,
  EditsTable,
  GamesTable,
  MembersTable,
  PhaseStateTable,
  Role,
} from "../store/schema.ts";
import { scenarioOfRecord } from "../variants/variant-files.ts";
import { type BotMark, botMark, botSeatsOf } from "./bot-list.ts";
import { conflict, invalid, notFound } from "./errors.ts";
import { labelFree } from "./labels.ts";
import type { GameOptions } from "./options.ts";
import { randomId } from "./password.ts";

/*
 * A game as stored, read back: its row, its options, its record (the head kept in the games
 * row and one row per adjudicated phase) with the GM's edits applied, and the phase state;
 * and what every family's game view holds first (its summary, seat list and invitations).
 */

export type RecordHead = Omit<GameRecord, "phases">;

export interface GameData {
  readonly game: Selectable<GamesTable>;
  readonly options: GameOptions;
  readonly scenario: Scenario;
  readonly state: Selectable<PhaseStateTable>;
  /** The record as the judge plays it: stored phases, with GM edits applied to positions. */
  readonly record: GameRecord;
  readonly seats: readonly Seat[];
  readonly members: readonly Selectable<MembersTable>[];
  /** The position of the phase now open for orders. */
  readonly position: Position;
}

/** The `scenario` of a game of another game family (src/judge/family.ts). */
export const FAMILY_SCENARIO = "family";

export interface RemoveUnitEdit {
  readonly power: string;
  readonly unit: string;
}

/** A unit put where it should stand (seed 002 VIII(3)): `to` as the position writes it. */
export interface MoveUnitEdit extends RemoveUnitEdit {
  readonly to: string;
}

export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** A game's events of one kind: the data of each, oldest first. */
export async function eventsData<T>(db: Kysely<DB>, gameId: string, kind: string): Promise<T[]> {
  const rows = await kindOfEvents(db, gameId, kind).orderBy("id").execute();
  return rows.map((r) => parseJson<T>(r.data));
}

/** A game's latest event of one kind: its data, or null when there is none. */
export async function latestEventData<T>(
  db: Kysely<DB>,
  gameId: string,
  kind: string,
): Promise<T | null> {
  const row = await kindOfEvents(db, gameId, kind)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? parseJson<T>(row.data) : null;
}

const kindOfEvents = (db: Kysely<DB>, gameId: string, kind: string) =>
  db.selectFrom("events").select("data").where("game_id", "=", gameId).where("kind", "=", kind);

/** The GM's edits as the record keeps them (docs/records.md); a family game's likewise. */
export function recordEdits(rows: readonly Selectable<EditsTable>[]): RecordEdit[] {
  return rows
    .filter((e) => e.kind === "remove-unit" || e.kind === "move-unit")
    .map((e) => {
      const d = parseJson<RemoveUnitEdit & { to?: string }>(e.data);
      return {
        after: e.after_idx,
        kind: e.kind === "move-unit" ? ("move-unit" as const) : ("remove-unit" as const),
        power: d.power,
        unit: d.unit,
        ...(e.kind === "move-unit" && d.to !== undefined ? { to: d.to } : {}),
        ...(e.reason ? { reason: e.reason } : {}),
      };
    });
}

/*
 * Parsed phase records, kept between calls. Every order submission and every GM action loads
 * the game, and parsing every adjudicated phase's JSON each time was most of a submission's
 * cost late in a game (docs/performance.md). A phase row's record never changes once written
 * (a correction marks the row superseded and writes a new row), a committed row's id is never
 * given to another, and the judge loads a game only before writing phase rows in a
 * transaction, so it never reads one that is rolled back. So a parsed record is kept under its
 * game, row id and time of adjudication. The records are frozen: every caller shares them.
 * Bounded; the least recently used go first.
 */
const PHASE_CACHE_MAX = 5000;
const phaseCache = new Map<string, PhaseRecord>();

function deepFreeze<T>(x: T): T {
  if (x !== null && typeof x === "object" && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

/** A game's current (not superseded) phase records, in order, parsed once per row. */
async function phaseRecords(db: Kysely<DB>, gameId: string): Promise<PhaseRecord[]> {
  const rows = await db
    .selectFrom("phases")
    .select(["id", "adjudicated_at"])
    .where("game_id", "=", gameId)
    .where("superseded", "=", 0)
    .orderBy("idx")
    .execute();
  const key = (r: { id: number; adjudicated_at: number }) =>
    `${gameId}/${r.id}/${r.adjudicated_at}`;
  // Taken from the cache before any await: other calls may evict entries meanwhile.
  const found = new Map<string, PhaseRecord>();
  for (const r of rows) {
    const p = phaseCache.get(key(r));
    if (p) found.set(key(r), p);
  }
  const missing = rows.filter((r) => !found.has(key(r))).map((r) => r.id);
  for (let i = 0; i < missing.length; i += 500) {
    const texts = await db
      .selectFrom("phases")
      .select(["id", "adjudicated_at", "record"])
      .where("id", "in", missing.slice(i, i + 500))
      .execute();
    for (const t of texts) found.set(key(t), deepFreeze(parseJson<PhaseRecord>(t.record)));
  }
  return rows.map((r) => {
    const k = key(r);
    const p = found.get(k);
    if (!p) throw new Error(`game ${gameId}: phase row ${r.id} could not be read`);
    phaseCache.delete(k);
    phaseCache.set(k, p);
    if (phaseCache.size > PHASE_CACHE_MAX) phaseCache.delete(phaseCache.keys().next().value!);
    return p;
  });
}

/**
 * Takes the game's lock inside `trx`: its phase_state row updated first (version + 1), as
 * every writer of the game does before it reads; a game that does not exist is not found.
 */
export async function lockGame(trx: Kysely<DB>, gameId: string): Promise<void> {
  const r = await trx
    .updateTable("phase_state")
    .set({ version: sql`version + 1` })
    .where("game_id", "=", gameId)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw notFound(`no game "${gameId}"`);
}

/** A game as stored, read on one snapshot of the database (`inSnapshot`). */
export function loadGame(db: Kysely<DB>, gameId: string): Promise<GameData> {
  return inSnapshot(db, (snapshot) => readGame(snapshot, gameId));
}

async function readGame(db: Kysely<DB>, gameId: string): Promise<GameData> {
  // Asked at once: on SQLite they then wait for the connection once together, not one by one
  // behind every other request's queries (docs/reliability.md, load).
  const [game, state, stored, edits, members] = await Promise.all([
    db.selectFrom("games").selectAll().where("id", "=", gameId).executeTakeFirst(),
    db.selectFrom("phase_state").selectAll().where("game_id", "=", gameId).executeTakeFirst(),
    phaseRecords(db, gameId),
    db.selectFrom("edits").selectAll().where("game_id", "=", gameId).orderBy("id").execute(),
    db.selectFrom("members").selectAll().where("game_id", "=", gameId).execute(),
  ]);
  if (!game || !state) throw notFound(`no game "${gameId}"`);
  // Games of another family (Global Diplomacy) are served by family.ts, not as records.
  if (game.scenario === FAMILY_SCENARIO)
    throw conflict(
      `game "${gameId}" is a ${game.variant} game: this is not available for it (docs/global.md says what the judge serves for it)`,
    );
  const head = parseJson<RecordHead>(game.record_head);
  // A game with an uploaded variant keeps its data in the record head (variantData).
  const scenario = scenarioOfRecord(head);
  if (!scenario) throw new Error(`game ${gameId}: unknown scenario ${head.scenario}`);
  const made = recordEdits(edits);
  const editsAt = (k: number) => made.filter((e) => e.after === k);
  const phases: PhaseRecord[] = stored.map((p, i) => {
    const e = editsAt(i + 1);
    return e.length === 0 ? p : { ...p, position: applyEdits(p.position, e) };
  });
  const record: GameRecord = {
    ...head,
    start: applyEdits(head.start, editsAt(0)),
    phases,
    ...(made.length > 0 ? { edits: made } : {}),
  };
  return {
    game,
    options: parseJson<GameOptions>(game.options),
    scenario,
    state,
    record,
    seats: currentSeats(record),
    members,
    position: currentPosition(scenario, record),
  };
}

/** The seat a power belongs to now, or -1 (nobody plays it). */
export function seatOf(seats: readonly Seat[], power: string): number {
  return seats.findIndex((s) => s.powers.some((p) => p === power));
}

/**
 * The seat a player names when taking one: by one of its powers' ids (`england`, `3`), or by
 * the seat's name (`England`, `3-Abe`, also without its number: `Abe`); -1 for none.
 */
export function seatNamed(seats: readonly Seat[], word: string): number {
  const w = word.trim().toLowerCase();
  return seats.findIndex((s) => {
    const name = s.name.toLowerCase();
    return (
      s.powers.some((p) => p.toLowerCase() === w) || name === w || name.replace(/^\d+-/, "") === w
    );
  });
}

/**
 * Game years in a row, up to the last completed one, in which no supply centre changed hands
 * (seed 002 IX(2)). The start counts as the end of the year before the first.
 */
export function yearsWithoutCentreChange(record: GameRecord): number {
  const key = (p: PositionJson) =>
    JSON.stringify(
      Object.entries(p.centers ?? {})
        .map(([k, v]) => [k, [...v].sort()])
        .sort(),
    );
  const startYear = parsePhase(record.start.phase)?.year ?? 0;
  let lastChange = startYear - 1;
  let completed = startYear - 1;
  let prev = key(record.start);
  for (const p of record.phases) {
    const now = parsePhase(p.position.phase);
    const centres = key(p.position);
    if (centres !== prev) {
      lastChange = parsePhase(p.phase)?.year ?? lastChange;
      prev = centres;
    }
    if (now) completed = Math.max(completed, now.season === "W" ? now.year : now.year - 1);
  }
  return Math.max(0, completed - lastChange);
}

/**
 * The first phase after the first `after` adjudicated phases in which a supply centre changed
 * hands (seed 002 IX(2): a draw warning lapses when one does), or null if none has.
 */
export function centreChangeSince(record: GameRecord, after: number): string | null {
  const key = (p: PositionJson) =>
    JSON.stringify(
      Object.entries(p.centers ?? {})
        .map(([k, v]) => [k, [...v].sort()])
        .sort(),
    );
  let prev = key(after > 0 ? (record.phases[after - 1]?.position ?? record.start) : record.start);
  for (const p of record.phases.slice(after)) {
    const centres = key(p.position);
    if (centres !== prev) return p.phase;
    prev = centres;
  }
  return null;
}

/** What a new game's rows are made of (a standard game or a game family alike). */
export interface NewGameRows {
  readonly id: string;
  readonly name: string;
  readonly variant: string;
  readonly scenario: string;
  readonly options: GameOptions;
  /** The record's head (engine record or family head), stored as JSON. */
  readonly head: unknown;
  /** The first phase's name, shown while the game forms. */
  readonly phase: string;
  readonly gmUserId: string;
  readonly now: number;
  /** The game's id as its players know it (labels.ts), checked; null: none. */
  readonly label?: string | null;
}

/**
 * Writes a new game inside the caller's transaction: the game, its phase state (forming), its
 * GM, where the judge's own mail for it starts, and one player and one observer invitation.
 */
export async function insertNewGame(trx: Kysely<DB>, g: NewGameRows): Promise<void> {
  if (g.label) await labelFree(trx, g.label, null);
  await trx
    .insertInto("games")
    .values({
      id: g.id,
      name: g.name,
      variant: g.variant,
      scenario: g.scenario,
      options: JSON.stringify(g.options),
      record_head: JSON.stringify(g.head),
      status: "forming",
      result: null,
      created_by: g.gmUserId,
      created_at: g.now,
      label: g.label ?? null,
    })
    .execute();
  await trx
    .insertInto("phase_state")
    .values({
      game_id: g.id,
      phase_idx: 0,
      phase: g.phase,
      state: "forming",
      deadline_at: null,
      remaining_ms: null,
      ready: 0,
      version: 0,
      updated_at: g.now,
    })
    .execute();
  await trx
    .insertInto("members")
    .values({ game_id: g.id, user_id: g.gmUserId, role: "gm", seat: null, joined_at: g.now })
    .execute();
  // The judge's own mail follows the game from its first event (src/mail/notify.ts).
  await trx
    .insertInto("notice_games")
    .values({ game_id: g.id, last_event: 0, reminded_idx: -1 })
    .execute();
  for (const role of ["player", "observer"] as const) {
    await insertInvite(trx, {
      gameId: g.id,
      role,
      seat: null,
      seats: 0,
      by: g.gmUserId,
      now: g.now,
    });
  }
}

/**
 * A new invitation code for a game: a player's (optionally to one seat, of `seats`) or an
 * observer's. The caller has checked that its user is the game master.
 */
export async function insertInvite(
  db: Kysely<DB>,
  i: {
    readonly gameId: string;
    readonly role: "player" | "observer";
    readonly seat: number | null;
    readonly seats: number;
    readonly by: string;
    readonly now: number;
  },
): Promise<{ code: string }> {
  if (i.seat !== null && !(Number.isInteger(i.seat) && i.seat >= 0 && i.seat < i.seats)) {
    throw invalid(`no seat ${i.seat}`);
  }
  if (i.seat !== null && i.role !== "player")
    throw invalid("only a player invitation names a seat");
  const code = randomId(16);
  await db
    .insertInto("invites")
    .values({
      code,
      game_id: i.gameId,
      role: i.role,
      seat: i.seat,
      created_by: i.by,
      created_at: i.now,
      revoked: 0,
    })
    .execute();
  return { code };
}

/**
 * The phase state after an adjudication, in every family: phase `index` open until `deadline`,
 * or, with a `result`, the game over (no deadline, the game finished with that result).
 */
export async function advancePhase(
  trx: Kysely<DB>,
  gameId: string,
  next: {
    readonly index: number;
    readonly phase: string;
    readonly deadline: number | null;
    readonly result: Record<string, unknown> | null;
    readonly now: number;
  },
): Promise<void> {
  await trx
    .updateTable("phase_state")
    .set({
      phase_idx: next.index,
      phase: next.phase,
      state: next.result ? "done" : "open",
      deadline_at: next.result ? null : next.deadline,
      remaining_ms: null,
      ready: 0,
      updated_at: next.now,
    })
    .where("game_id", "=", gameId)
    .execute();
  if (next.result) {
    await trx
      .updateTable("games")
      .set({ status: "finished", result: JSON.stringify(next.result) })
      .where("id", "=", gameId)
      .execute();
  }
}

/**
 * A user's place in a game (their role, their seat or none): their member row changed, or
 * added (joined `now`) when `isMember` is false.
 */
export async function placeMember(
  trx: Kysely<DB>,
  gameId: string,
  userId: string,
  place: { readonly role: Role; readonly seat: number | null },
  isMember: boolean,
  now: number,
): Promise<void> {
  if (isMember) {
    await trx
      .updateTable("members")
      .set({ role: place.role, seat: place.seat })
      .where("game_id", "=", gameId)
      .where("user_id", "=", userId)
      .execute();
  } else {
    await trx
      .insertInto("members")
      .values({
        game_id: gameId,
        user_id: userId,
        role: place.role,
        seat: place.seat,
        joined_at: now,
      })
      .execute();
  }
}

/** A time as the API writes it (ISO 8601, UTC), or null. */
export const iso = (ms: number | null): string | null =>
  ms === null ? null : new Date(ms).toISOString();

/**
 * What every list and view of a game says of it first (`GameSummary` in judge.ts): the game,
 * its phase while it is on, the deadline while orders are open, its seats and players.
 */
export function gameSummary(
  game: Pick<Selectable<GamesTable>, "id" | "name" | "variant" | "scenario" | "status"> & {
    readonly label?: string | null;
  },
  state: Pick<Selectable<PhaseStateTable>, "phase" | "deadline_at" | "state">,
  seats: number,
  players: number,
  bots = 0,
) {
  return {
    id: game.id,
    name: game.name,
    variant: game.variant,
    scenario: game.scenario,
    status: game.status,
    phase: state.state === "forming" ? null : state.phase,
    deadline: state.state === "open" ? iso(state.deadline_at) : null,
    seats,
    players,
    ...(bots > 0 ? { bots } : {}),
    ...(game.label ? { label: game.label } : {}),
  };
}

/** Users' names by id (those of `ids` that exist). */
async function userNames(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("users")
    .select(["id", "name"])
    .where("id", "in", [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** A seat kept for a DAIDE client, as the seat list shows it (daide-seats.ts). */
export interface DaideMark {
  readonly client: string | null;
  readonly version: string | null;
}

export interface SeatView {
  readonly index: number;
  readonly name: string;
  readonly powers: readonly string[];
  readonly player: string | null;
  /** A built-in player plays the seat (bot-seats.ts): which, and whether the GM chose it. */
  readonly bot?: BotMark;
  /** The seat is kept for a DAIDE client (daide-seats.ts): the client that took it, if one has. */
  readonly daide?: DaideMark;
}

/**
 * What a game's view holds in every family (views.ts, family-views.ts): its summary, its seat
 * list (who holds each seat, the built-in player that plays it: `family`, a family game's) and,
 * for the GM, the open invitations.
 */
export async function viewHead(
  db: Kysely<DB>,
  g: {
    readonly game: Selectable<GamesTable>;
    readonly state: Selectable<PhaseStateTable>;
    readonly seats: readonly Seat[];
    readonly members: readonly Selectable<MembersTable>[];
  },
  gm: boolean,
  family: boolean,
) {
  const gameId = g.game.id;
  const names = await userNames(
    db,
    g.members.map((m) => m.user_id),
  );
  // Seats built-in players play (bot-list.ts), marked as such for every viewer.
  const bots = new Map((await botSeatsOf(db, gameId)).map((r) => [r.seat, r]));
  const seatList: SeatView[] = g.seats.map((s, i) => {
    const holder = g.members.find((m) => m.seat === i && m.role === "player");
    const bot = bots.get(i);
    return {
      index: i,
      name: s.name,
      powers: [...s.powers],
      player: holder ? (names.get(holder.user_id) ?? null) : null,
      ...(bot ? { bot: botMark(bot, family) } : {}),
    };
  });
  const invites = gm
    ? await db
        .selectFrom("invites")
        .select(["code", "role", "seat"])
        .where("game_id", "=", gameId)
        .where("revoked", "=", 0)
        .execute()
    : undefined;
  const players = seatList.filter((s) => s.player !== null).length;
  return {
    summary: gameSummary(g.game, g.state, g.seats.length, players, bots.size),
    seatList,
    invites,
  };
}
