import type { Kysely, Selectable } from "kysely";
import type { Seat } from "../engine/scenario.ts";
import type { DB, MembersTable } from "../store/schema.ts";
import { botSeatsOf } from "./bot-list.ts";
import { conflict } from "./errors.ts";
import type { FamilyGame } from "./family-game.ts";
import type { GameData } from "./game-data.ts";
import { Room } from "./room.ts";
import type { Tx, User } from "./types.ts";

/*
 * Who plays which seat among the built-in players (issue 31): the rows of `bot_seats` and
 * what changes them, inside the caller's transaction. A bot seated (at creation, by the GM,
 * in a practice game), a takeover row after missed orders, a bot leaving when a player is
 * seated or comes back, each told in the event log. A room that calls no other room: the
 * bots' orders are bot-play.ts's, the GM's gm/bot and the practice game bots.ts's.
 */

/** The sender of a bot's order set, in `submissions.user_id` (never a user's id). */
export const botSender = (id: string) => `bot:${id}`;

/** What seating a bot reads of a game (a game being created has only this). */
export interface SeatsOf {
  readonly game: { readonly id: string };
  readonly state: { readonly phase: string; readonly state: string };
  readonly members: readonly Pick<Selectable<MembersTable>, "role" | "seat" | "user_id">[];
  readonly seats: readonly Seat[];
}

async function userName(trx: Tx, id: string): Promise<string | null> {
  const u = await trx.selectFrom("users").select("name").where("id", "=", id).executeTakeFirst();
  return u?.name ?? null;
}

/** A bot seat has ordered the phase of this index. */
export async function markPlayed(trx: Tx, gameId: string, seat: number, phaseIdx: number) {
  await trx
    .updateTable("bot_seats")
    .set({ played_idx: phaseIdx })
    .where("game_id", "=", gameId)
    .where("seat", "=", seat)
    .execute();
}

/** The seat's row, if a bot plays it. */
function botSeat(trx: Tx, gameId: string, seat: number) {
  return trx
    .selectFrom("bot_seats")
    .selectAll()
    .where("game_id", "=", gameId)
    .where("seat", "=", seat)
    .executeTakeFirst();
}

/** The seat is no longer played by a bot. */
async function removeBotSeat(trx: Tx, gameId: string, seat: number) {
  await trx
    .deleteFrom("bot_seats")
    .where("game_id", "=", gameId)
    .where("seat", "=", seat)
    .execute();
}

/** The room of the `bot_seats` rows (no other room is called from here). */
export class BotSeats extends Room {
  /**
   * A player of a family game sent commands: a bot that took the seat over after missed
   * commands leaves (`handBack`), in its own transaction.
   */
  async handBackFamily(user: User, gameId: string): Promise<void> {
    const takeover = await this.db
      .selectFrom("bot_seats")
      .select("seat")
      .where("game_id", "=", gameId)
      .where("kind", "=", "takeover")
      .executeTakeFirst();
    if (!takeover) return;
    await this.families.mutate(gameId, async (trx, g) => {
      const seat = g.members.find((m) => m.user_id === user.id && m.role === "player")?.seat;
      if (seat === null || seat === undefined) return;
      await this.handBack(trx, g, seat, user);
    });
  }

  /**
   * A player sending orders for a seat a bot took over after missed orders plays it again:
   * the bot leaves (its set for the open phase is replaced by the player's, the latest), and
   * the player and the GM are told (`bot_removed`, cause `player_back`).
   */
  async handBack(
    trx: Tx,
    g: GameData | FamilyGame,
    seat: number,
    user: Pick<User, "name">,
  ): Promise<void> {
    const row = await botSeat(trx, g.game.id, seat);
    if (row?.kind !== "takeover") return;
    await removeBotSeat(trx, g.game.id, seat);
    const s = g.seats[seat]!;
    await this.emit(trx, g.game.id, "bot_removed", `powers:${s.powers.join(",")}`, {
      seat,
      seatName: s.name,
      bot: row.bot,
      cause: "player_back",
      player: user.name,
      phase: g.state.phase,
    });
  }

  /**
   * A player is seated (an invitation accepted, the GM's replace): the seat's bot, if any,
   * leaves; everybody is told (`bot_removed`, cause `player_seated`).
   */
  async seatTaken(
    trx: Tx,
    g: Pick<SeatsOf, "game" | "state">,
    seat: number,
    seatName: string,
    player: string,
  ): Promise<void> {
    await this.leave(trx, g, seat, seatName, "player_seated", player);
  }

  /** The seats bots play in a game, for the seat checks of games.ts. */
  async seatsWithBots(trx: Kysely<DB>, gameId: string): Promise<Set<number>> {
    return new Set((await botSeatsOf(trx, gameId)).map((r) => r.seat));
  }

  /**
   * Seats a bot in a game being created or by the GM, inside the caller's transaction: the
   * seat must be free of players. Returns whether it replaced another bot.
   */
  async seatBotLocked(
    trx: Tx,
    g: SeatsOf,
    seat: number,
    bot: { readonly id: string },
  ): Promise<void> {
    const s = g.seats[seat]!;
    const holder = g.members.find((m) => m.role === "player" && m.seat === seat);
    if (holder) {
      const name = await userName(trx, holder.user_id);
      throw conflict(
        `${s.name} is played by ${name}: replace them first (gm/replace without a user, or REPLACE by mail), then seat a bot`,
      );
    }
    await removeBotSeat(trx, g.game.id, seat);
    await trx
      .insertInto("bot_seats")
      .values({
        game_id: g.game.id,
        seat,
        bot: bot.id,
        kind: "gm",
        played_idx: -1,
        since: g.state.state === "forming" ? null : g.state.phase,
        created_at: this.now(),
      })
      .execute();
    await this.emit(trx, g.game.id, "bot_seated", "public", {
      seat,
      seatName: s.name,
      bot: bot.id,
      phase: g.state.state === "forming" ? null : g.state.phase,
    });
  }

  /**
   * A seat a bot takes over after missed orders (Diplomacy or a family): its takeover row, and
   * the seat's player and the GM told (a `powers:` audience is also the GM's).
   */
  async recordTakeover(
    trx: Tx,
    g: GameData | FamilyGame,
    seat: number,
    bot: string,
    powers: readonly string[],
  ): Promise<void> {
    const s = g.seats[seat]!;
    await trx
      .insertInto("bot_seats")
      .values({
        game_id: g.game.id,
        seat,
        bot,
        kind: "takeover",
        played_idx: g.state.phase_idx,
        since: g.state.phase,
        created_at: this.now(),
      })
      .execute();
    const holder = g.members.find((m) => m.role === "player" && m.seat === seat);
    const player = holder ? await userName(trx, holder.user_id) : null;
    await this.emit(trx, g.game.id, "bot_took_over", `powers:${s.powers.join(",")}`, {
      seat,
      seatName: s.name,
      bot,
      player,
      powers,
      phase: g.state.phase,
    });
  }

  /** The GM takes a seat's bot off: the row removed, everybody told (cause `gm`). */
  async removeLocked(
    trx: Tx,
    g: Pick<SeatsOf, "game" | "state">,
    seat: number,
    seatName: string,
  ): Promise<boolean> {
    return this.leave(trx, g, seat, seatName, "gm", null);
  }

  /**
   * The seat's bot, if any, leaves: the row removed, everybody told (`bot_removed`, with the
   * cause and the player seated). Whether a bot played the seat.
   */
  private async leave(
    trx: Tx,
    g: Pick<SeatsOf, "game" | "state">,
    seat: number,
    seatName: string,
    cause: "player_seated" | "gm",
    player: string | null,
  ): Promise<boolean> {
    const row = await botSeat(trx, g.game.id, seat);
    if (!row) return false;
    await removeBotSeat(trx, g.game.id, seat);
    await this.emit(trx, g.game.id, "bot_removed", "public", {
      seat,
      seatName,
      bot: row.bot,
      cause,
      player,
      phase: g.state.state === "forming" ? null : g.state.phase,
    });
    return true;
  }
}
