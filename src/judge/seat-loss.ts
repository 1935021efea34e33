import type { Kysely } from "kysely";
import type { DB } from "../store/schema.ts";
import { iso, parseJson } from "./game-data.ts";

/*
 * A seat taken from its player (docs/judge.md, "Missed orders"): by civil disorder (the game's
 * `civilDisorderAfter`) or by the GM (gm/replace, REPLACE by mail). The player stays in the
 * game as an observer; the mail tells them (src/mail/notify.ts `seatLost`), and the game view
 * tells them too (`lostSeat`), for a player who plays on the web page without an address. Read
 * from the game's events for that one viewer, whoever may read the events: a Global Diplomacy
 * game's civil disorder is the GM's (seed 004 §8), but its player is told of their own seat.
 * The events name the player by name (user ids are never shown; names never change).
 */

/** How a viewer who holds no seat lost the one they held (the last time), for them alone. */
export interface LostSeat {
  readonly seat: number;
  readonly seatName: string;
  /** When it happened: the phase adjudicated (civil disorder) or open (the GM); null if not known. */
  readonly phase: string | null;
  readonly at: string;
  /** `civil_disorder`: by the game's rule; `replaced`: by the GM. */
  readonly cause: "civil_disorder" | "replaced";
  /** civil_disorder: phases missed in a row. */
  readonly missed?: number;
  /** replaced: who the GM gave the seat to (null: opened for a replacement). */
  readonly to?: string | null;
}

interface SeatEventData {
  seat?: number;
  seatName?: string;
  player?: string | null;
  former?: string | null;
  missed?: number;
  phase?: string;
}

/**
 * For each game of `gameIds` where `name` lost a seat and was not seated since by these events
 * (given back by the GM, or joined again by an invitation), the last loss. The caller asks only
 * for games where the user now holds no seat. One indexed read (`events_by_kind`).
 */
export async function lostSeats(
  db: Kysely<DB>,
  name: string,
  gameIds: readonly string[],
): Promise<Map<string, LostSeat>> {
  const out = new Map<string, LostSeat>();
  if (gameIds.length === 0) return out;
  const rows = await db
    .selectFrom("events")
    .select(["game_id", "kind", "data", "at"])
    .where("game_id", "in", [...gameIds])
    .where("kind", "in", ["civil_disorder", "player_replaced", "joined"])
    .orderBy("id")
    .execute();
  for (const r of rows) {
    const d = parseJson<SeatEventData | null>(r.data) ?? {};
    if (typeof d.seat !== "number") continue;
    const base = {
      seat: d.seat,
      seatName: d.seatName ?? `seat ${d.seat}`,
      phase: d.phase ?? null,
      at: iso(r.at)!,
    };
    if (r.kind === "civil_disorder" && d.player === name) {
      out.set(r.game_id, {
        ...base,
        cause: "civil_disorder",
        ...(d.missed !== undefined ? { missed: d.missed } : {}),
      });
    } else if (r.kind === "player_replaced" && d.former === name) {
      out.set(r.game_id, { ...base, cause: "replaced", to: d.player ?? null });
    } else if ((r.kind === "player_replaced" || r.kind === "joined") && d.player === name) {
      out.delete(r.game_id);
    }
  }
  return out;
}

/**
 * The game view's `lostSeat`: for a member who holds no seat and lost one in this game, how;
 * nobody else's, to nobody else (the GM and seated players get no such field).
 */
export async function lostSeatField(
  db: Kysely<DB>,
  v: {
    readonly user: { readonly name: string } | null;
    readonly role: string | null;
    readonly seat: number | null;
  },
  gameId: string,
): Promise<{ lostSeat?: LostSeat }> {
  if (!v.user || v.role === null || v.role === "gm" || v.seat !== null) return {};
  const lost = (await lostSeats(db, v.user.name, [gameId])).get(gameId);
  return lost ? { lostSeat: lost } : {};
}
