import type { Kysely, Selectable } from "kysely";
import type { Seat } from "../engine/scenario.ts";
import type { DB, MembersTable } from "../store/schema.ts";
import { eventsData, seatOf } from "./game-data.ts";
import { DEFAULT_OPTIONS, type GameOptions } from "./options.ts";
import { randomId } from "./password.ts";
import type { Tx } from "./types.ts";

/*
 * Missed orders (seed 002 VII(6)) and civil disorder, for every game family: the phase is
 * adjudicated without the missing sets (the game's rules say what silence means: the powers
 * are in civil disorder for that phase), each miss ("no orders received", NMR) is recorded in
 * `nmrs` with the seat and its player, and the player keeps the seat. The player and the GM
 * are told at once (a `missed_orders` event for the seat's powers, which the GM also reads).
 * When the contact window (`contactWindowHours` after the results) has passed with no orders
 * from that player, the GM is told that a replacement may be arranged (`replacement_suggested`,
 * `contactWindow` below). Emptying the seat is the GM's act (replacePlayer, or REPLACE by
 * mail); only a game that asks for it (`civilDisorderAfter` > 0, off by default) has the
 * judge empty a seat by itself after that many missed phases in a row.
 */

/** What missed orders need of a game, whatever its family. */
export interface SeatedGame {
  readonly game: { readonly id: string };
  readonly options: GameOptions;
  readonly seats: readonly Seat[];
  readonly members: readonly Selectable<MembersTable>[];
}

/** Where the news goes: the game's event log, civil disorder for `audience`. */
export interface MissedOutput {
  readonly emit: (kind: string, audience: string, data: unknown) => Promise<void>;
  /**
   * Who reads of a civil disorder: everybody in Diplomacy; the GM alone in Global Diplomacy,
   * where who sent commands is the moderator's to know (seed 004 §8).
   */
  readonly audience: string;
  /** The built-in player that played each missed power instead (the option botTakeover). */
  readonly bots?: ReadonlyMap<string, string>;
}

/**
 * Records the powers that missed phase `at.idx` and declares the seats in civil disorder that
 * this makes so. Returns the names of those seats. Runs in the adjudication's transaction.
 */
export async function recordMissed(
  trx: Tx,
  g: SeatedGame,
  at: { readonly idx: number; readonly phase: string; readonly now: number },
  missed: readonly string[],
  to: MissedOutput,
): Promise<string[]> {
  const bySeat = new Map<number, string[]>();
  for (const power of missed) {
    const seat = seatOf(g.seats, power);
    bySeat.set(seat, [...(bySeat.get(seat) ?? []), power]);
    const holder = g.members.find((m) => m.role === "player" && m.seat === seat);
    await trx
      .insertInto("nmrs")
      .values({
        game_id: g.game.id,
        phase_idx: at.idx,
        phase: at.phase,
        power,
        seat,
        user_id: holder?.user_id ?? null,
        at: at.now,
      })
      .execute();
  }
  const until = at.now + contactWindowMs(g.options);
  for (const [seat, powers] of bySeat) {
    const holder = g.members.find((m) => m.role === "player" && m.seat === seat);
    if (!holder || !g.seats[seat]) continue;
    const user = await trx
      .selectFrom("users")
      .select("name")
      .where("id", "=", holder.user_id)
      .executeTakeFirst();
    // To the seat's player and the GM (a `powers:` audience is also the GM's).
    await to.emit("missed_orders", `powers:${g.seats[seat].powers.join(",")}`, {
      seat,
      seatName: g.seats[seat].name,
      player: user?.name ?? null,
      powers,
      phase: at.phase,
      index: at.idx,
      contactUntil: new Date(until).toISOString(),
      ...(to.bots?.has(powers[0]!) ? { bot: to.bots.get(powers[0]!) } : {}),
    });
  }
  return civilDisorder(trx, g, at, missed, to);
}

/** The contact window after a missed phase's results, in milliseconds. */
export function contactWindowMs(options: GameOptions): number {
  return Math.round((options.contactWindowHours ?? DEFAULT_OPTIONS.contactWindowHours) * 3_600_000);
}

/**
 * The contact window: for each open game whose last adjudicated phase has a miss by a player
 * who still holds the seat, sent no orders since and was not yet followed up, once the window
 * has passed the GM is told that a replacement may be arranged (`replacement_suggested`, for
 * the GM alone: the seat, the player, the phase, how many phases missed in a row). Once per
 * seat and missed phase. Returns how many were told.
 */
export async function contactWindow(
  db: Kysely<DB>,
  now: number,
  emit: (trx: Tx, gameId: string, kind: string, audience: string, data: unknown) => Promise<void>,
  seatsOf: (trx: Tx, gameId: string) => Promise<readonly Seat[]>,
): Promise<number> {
  const rows = await db
    .selectFrom("nmrs")
    .innerJoin("phase_state", "phase_state.game_id", "nmrs.game_id")
    .innerJoin("games", "games.id", "nmrs.game_id")
    .select([
      "nmrs.game_id",
      "nmrs.phase_idx",
      "nmrs.phase",
      "nmrs.seat",
      "nmrs.user_id",
      "nmrs.at",
      "games.options",
      "games.status",
    ])
    .where("phase_state.state", "=", "open")
    .where("nmrs.user_id", "is not", null)
    .where("nmrs.seat", "is not", null)
    .where((eb) => eb("nmrs.phase_idx", "=", eb("phase_state.phase_idx", "-", 1)))
    .execute();
  let n = 0;
  const seen = new Set<string>();
  for (const r of rows) {
    const key = `${r.game_id}/${r.seat}/${r.phase_idx}`;
    if (seen.has(key) || r.status !== "active") continue;
    seen.add(key);
    const options = JSON.parse(r.options) as GameOptions;
    if (now < Number(r.at) + contactWindowMs(options)) continue;
    const told = await db.transaction().execute(async (trx) => {
      const holder = await trx
        .selectFrom("members")
        .innerJoin("users", "users.id", "members.user_id")
        .select(["users.name"])
        .where("members.game_id", "=", r.game_id)
        .where("members.role", "=", "player")
        .where("members.seat", "=", r.seat)
        .where("members.user_id", "=", r.user_id!)
        .executeTakeFirst();
      if (!holder) return false; // the seat changed hands: nothing to suggest
      const sent = await trx
        .selectFrom("submissions")
        .select("id")
        .where("game_id", "=", r.game_id)
        .where("user_id", "=", r.user_id!)
        .where("phase_idx", ">", r.phase_idx)
        .limit(1)
        .executeTakeFirst();
      if (sent) return false; // the player is back
      const earlier = await eventsData<{ seat?: number; index?: number }>(
        trx,
        r.game_id,
        "replacement_suggested",
      );
      if (earlier.some((d) => d.seat === r.seat && d.index === r.phase_idx)) return false;
      const streak = await missedInARow(trx, r.game_id, r.seat!, r.user_id!);
      const seats = await seatsOf(trx, r.game_id);
      await emit(trx, r.game_id, "replacement_suggested", "gm", {
        seat: r.seat,
        seatName: seats[r.seat!]?.name ?? `seat ${r.seat}`,
        player: holder.name,
        phase: r.phase,
        index: r.phase_idx,
        missed: streak,
      });
      return true;
    });
    if (told) n++;
  }
  return n;
}

/** How many phases in a row the seat's player has missed, up to the last adjudicated one. */
async function missedInARow(trx: Tx, gameId: string, seat: number, userId: string) {
  const lastSent = await trx
    .selectFrom("submissions")
    .select((eb) => eb.fn.max("phase_idx").as("m"))
    .where("game_id", "=", gameId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  const nmrs = await trx
    .selectFrom("nmrs")
    .select("phase_idx")
    .distinct()
    .where("game_id", "=", gameId)
    .where("seat", "=", seat)
    .where("user_id", "=", userId)
    .where("phase_idx", ">", Number(lastSent?.m ?? -1))
    .execute();
  return nmrs.length;
}

/**
 * Seats whose player missed `civilDisorderAfter` phases in a row (counting this one) are
 * declared in civil disorder: the player leaves the seat (staying as an observer), which is
 * offered to a replacement; the event names the player, who is mailed about it.
 */
async function civilDisorder(
  trx: Tx,
  g: SeatedGame,
  at: { readonly now: number; readonly phase: string },
  missed: readonly string[],
  to: MissedOutput,
): Promise<string[]> {
  const limit = g.options.civilDisorderAfter;
  if (limit === 0 || missed.length === 0) return [];
  const out: string[] = [];
  const seats = new Set(missed.map((p) => seatOf(g.seats, p)));
  for (const seat of seats) {
    // A seat is in NMR only when all its powers that had to order missed.
    const holder = g.members.find((m) => m.role === "player" && m.seat === seat);
    if (!holder) continue;
    const missedRow = await missedInARow(trx, g.game.id, seat, holder.user_id);
    if (missedRow < limit) continue;
    await trx
      .updateTable("members")
      .set({ role: "observer", seat: null })
      .where("game_id", "=", g.game.id)
      .where("user_id", "=", holder.user_id)
      .execute();
    const code = randomId(16);
    await trx
      .insertInto("invites")
      .values({
        code,
        game_id: g.game.id,
        role: "player",
        seat,
        created_by: holder.user_id,
        created_at: at.now,
        revoked: 0,
      })
      .execute();
    const name = g.seats[seat]!.name;
    out.push(name);
    const player = await trx
      .selectFrom("users")
      .select("name")
      .where("id", "=", holder.user_id)
      .executeTakeFirst();
    // `player`: who lost the seat, by name (as the seat list shows it to everybody; user ids
    // are never shown), so that they are told (src/mail/notify.ts). Events stored before it
    // have none. `phase`: the phase that made it so (the page tells the player, seat-loss.ts).
    await to.emit("civil_disorder", to.audience, {
      seat,
      seatName: name,
      missed: missedRow,
      player: player?.name ?? null,
      phase: at.phase,
    });
    await to.emit("replacement_needed", "gm", { seat, seatName: name, code });
  }
  return out;
}
