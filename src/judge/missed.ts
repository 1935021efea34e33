import type { Selectable } from "kysely";
import type { Seat } from "../engine/scenario.ts";
import type { MembersTable } from "../store/schema.ts";
import { seatOf } from "./game-data.ts";
import type { GameOptions } from "./options.ts";
import { randomId } from "./password.ts";
import type { Tx } from "./room.ts";

/*
 * Missed orders (seed 002 VII(6)) and civil disorder, for every game family: the phase is
 * adjudicated without the missing sets (the game's rules say what silence means), each miss
 * is recorded in `nmrs` with the seat and its player, and a seat whose player missed
 * `civilDisorderAfter` phases in a row is declared in civil disorder: the player leaves the
 * seat, which is offered to a replacement (an invitation for the GM to pass on).
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
  for (const power of missed) {
    const seat = seatOf(g.seats, power);
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
  return civilDisorder(trx, g, at, missed, to);
}

/**
 * Seats whose player missed `civilDisorderAfter` phases in a row (counting this one) are
 * declared in civil disorder: the player leaves the seat, which is offered to a replacement.
 */
async function civilDisorder(
  trx: Tx,
  g: SeatedGame,
  at: { readonly now: number },
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
    const lastSent = await trx
      .selectFrom("submissions")
      .select((eb) => eb.fn.max("phase_idx").as("m"))
      .where("game_id", "=", g.game.id)
      .where("user_id", "=", holder.user_id)
      .executeTakeFirst();
    const since = lastSent?.m ?? -1;
    const nmrs = await trx
      .selectFrom("nmrs")
      .select("phase_idx")
      .distinct()
      .where("game_id", "=", g.game.id)
      .where("seat", "=", seat)
      .where("user_id", "=", holder.user_id)
      .where("phase_idx", ">", Number(since))
      .execute();
    if (nmrs.length < limit) continue;
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
    await to.emit("civil_disorder", to.audience, {
      seat,
      seatName: name,
      missed: nmrs.length,
    });
    await to.emit("replacement_needed", "gm", { seat, seatName: name, code });
  }
  return out;
}
