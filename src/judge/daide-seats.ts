/*
 * Seats kept for DAIDE clients in the judge's games (issue 31; `entente serve --daide-ports`):
 * a game created with DAIDE seats gets a port from the server's range while it is forming or
 * running (table daide_games; the port is free again once the game is over), and each such
 * seat a row of daide_seats: the client that took it (NME) and the passcode it comes back
 * with (IAM). This room keeps those rows and the ports (src/server/daide-games.ts opens and
 * frees the listeners with it) and calls no other room; what a client does at its seat is
 * daide.ts's.
 */
import { randomInt } from "node:crypto";
import type { Selectable } from "kysely";
import type { DaideSeatsTable } from "../store/schema.ts";
import { conflict, invalid } from "./errors.ts";
import { Room } from "./room.ts";
import type { DaidePorts, Tx } from "./types.ts";

/** The sender of a DAIDE client's order set, in `submissions.user_id` (never a user's id). */
export const daideSender = (seat: number) => `daide:${seat}`;

export type { DaideMark, DaidePorts } from "./types.ts";

/** `16713-16812` (or one port): the range, or a message saying what is wrong. */
export function readDaidePorts(text: string): DaidePorts {
  const m = /^\s*(\d{1,5})\s*(?:-\s*(\d{1,5}))?\s*$/.exec(text);
  const first = m ? Number(m[1]) : Number.NaN;
  const last = m ? Number(m[2] ?? m[1]) : Number.NaN;
  if (!m || first < 1 || last > 65535 || last < first)
    throw new Error(
      `--daide-ports takes a range of TCP ports, FIRST-LAST (16713-16812) or one port, 1 to 65535; not "${text}"`,
    );
  return { first, last };
}

export type DaideSeatRow = Selectable<DaideSeatsTable>;

/** The rows of daide_games and daide_seats, and the ports. */
export class DaideSeats extends Room {
  /** The ports of this judge's games with DAIDE seats (null: not configured). */
  get ports(): DaidePorts | null {
    return this.core.daidePorts;
  }

  /**
   * The seats of a game being created kept for DAIDE clients, and its port (the lowest of the
   * range no other game holds), inside the creation's transaction.
   */
  async reserveLocked(trx: Tx, gameId: string, seats: readonly number[]): Promise<void> {
    const port = await this.freePort(trx, new Set());
    await trx
      .insertInto("daide_games")
      .values({ game_id: gameId, port, created_at: this.now() })
      .execute();
    for (const seat of seats)
      await trx
        .insertInto("daide_seats")
        .values({
          game_id: gameId,
          seat,
          client: null,
          version: null,
          passcode: randomInt(1, 8192),
          since: null,
        })
        .execute();
  }

  /** The lowest port of the range no game holds and not in `skip`; 409 when none is left. */
  private async freePort(trx: Tx, skip: ReadonlySet<number>): Promise<number> {
    const range = this.ports;
    if (!range)
      throw invalid(
        "this judge takes no DAIDE clients: its server was started without --daide-ports (entente serve --daide-ports 16713-16812)",
      );
    const held = new Set(
      (
        await trx.selectFrom("daide_games").select("port").where("port", "is not", null).execute()
      ).map((r) => r.port),
    );
    for (let p = range.first; p <= range.last; p++) if (!held.has(p) && !skip.has(p)) return p;
    throw conflict(
      `every DAIDE port of this judge (${range.first}-${range.last}) is held by a game in play: a game with DAIDE seats can be created when one of them ends`,
    );
  }

  /**
   * The games whose DAIDE port is open now: forming or running. A game that is over lets its
   * port go (set to null here, so that it shows nowhere and the next game may take it).
   */
  async open(): Promise<{ gameId: string; port: number }[]> {
    const rows = await this.db
      .selectFrom("daide_games")
      .innerJoin("games", "games.id", "daide_games.game_id")
      .select(["daide_games.game_id", "daide_games.port", "games.status"])
      .where("daide_games.port", "is not", null)
      .execute();
    const out: { gameId: string; port: number }[] = [];
    for (const r of rows) {
      if (r.status === "finished") await this.release(r.game_id);
      else out.push({ gameId: r.game_id, port: r.port! });
    }
    return out;
  }

  /** The game's port is free again (the game is over). */
  async release(gameId: string): Promise<void> {
    await this.db
      .updateTable("daide_games")
      .set({ port: null })
      .where("game_id", "=", gameId)
      .execute();
  }

  /** The port could not be listened on (another program holds it): the game takes another. */
  async movePort(gameId: string, failed: ReadonlySet<number>): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const port = await this.freePort(trx, failed);
      await trx.updateTable("daide_games").set({ port }).where("game_id", "=", gameId).execute();
      return port;
    });
  }

  /** A game's DAIDE port (null: none, or the game is over) and its seats kept for clients. */
  async of(db: Tx, gameId: string): Promise<{ port: number | null; seats: DaideSeatRow[] } | null> {
    const g = await db
      .selectFrom("daide_games")
      .select("port")
      .where("game_id", "=", gameId)
      .executeTakeFirst();
    if (!g) return null;
    const seats = await keptSeats(db, gameId).orderBy("seat").execute();
    return { port: g.port, seats };
  }

  /** The seats kept for DAIDE clients that a client has taken (for startWhenFull). */
  async taken(trx: Tx, gameId: string): Promise<Set<number>> {
    const rows = await keptSeats(trx, gameId).where("client", "is not", null).execute();
    return new Set(rows.map((r) => r.seat));
  }

  /** The client (its NME name) at a seat kept for DAIDE clients; null: no client took it. */
  async clientAt(trx: Tx, gameId: string, seat: number): Promise<string | null> {
    const row = await keptSeats(trx, gameId).where("seat", "=", seat).executeTakeFirst();
    return row?.client ?? null;
  }

  /** Every seat kept for DAIDE clients, taken or not (no web or mail player is seated there). */
  async kept(trx: Tx, gameId: string): Promise<Set<number>> {
    const rows = await keptSeats(trx, gameId).execute();
    return new Set(rows.map((r) => r.seat));
  }
}

/** A game's seats kept for DAIDE clients: their rows (client null: no client took it). */
const keptSeats = (db: Tx, gameId: string) =>
  db.selectFrom("daide_seats").selectAll().where("game_id", "=", gameId);
