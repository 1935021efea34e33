/*
 * Seats kept for DAIDE clients in the judge's games (issue 31; `entente serve --daide-ports`):
 * a game created with DAIDE seats gets a port from the server's range while it is forming or
 * running (table daide_games; the port is free again once the game is over), and each such
 * seat a row of daide_seats: the client that took it (NME) and the passcode it comes back
 * with (IAM). A room of the judge (src/judge/judge.ts is the facade; room.ts the shared
 * helpers); the protocol is src/daide's, the connections src/server/daide-games.ts's.
 *
 * A client's orders go through the players' path: read by `readSubmission` against the open
 * position, stored as `submissions` rows (the sender `daide:<seat>`) with the game's lock
 * held and the phase named (a set for a phase already adjudicated is refused), so the
 * deadlines, early resolution, NMRs, the adjudication and the record treat them as any
 * player's. A client's DRW is its seat's vote for a draw of every survivor (votes.ts).
 */
import { randomInt } from "node:crypto";
import type { Selectable } from "kysely";
import type { PowerId } from "../engine/types.ts";
import type { DaideSeatsTable } from "../store/schema.ts";
import { conflict, invalid, tooMuch } from "./errors.ts";
import { type GameData, loadGame } from "./game-data.ts";
import { latestSetRows } from "./latest.ts";
import { readSubmission } from "./orders.ts";
import { TokenBuckets } from "./rate.ts";
import type { Tx } from "./room.ts";
import { Room } from "./room.ts";

/** The sender of a DAIDE client's order set, in `submissions.user_id` (never a user's id). */
export const daideSender = (seat: number) => `daide:${seat}`;

/** The ports `entente serve --daide-ports FIRST-LAST` gives games with DAIDE seats. */
export interface DaidePorts {
  readonly first: number;
  readonly last: number;
}

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

/** A seat kept for a DAIDE client, as the seat list shows it. */
export interface DaideMark {
  readonly client: string | null;
  readonly version: string | null;
}

export class DaideSeats extends Room {
  /** Each DAIDE seat's press, under the quota a web player's press has. */
  readonly #pressBuckets = new TokenBuckets({ burst: 60, perSecond: 60 / 600 });

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
    const seats = await db
      .selectFrom("daide_seats")
      .selectAll()
      .where("game_id", "=", gameId)
      .orderBy("seat")
      .execute();
    return { port: g.port, seats };
  }

  /** The seats kept for DAIDE clients that a client has taken (for startWhenFull). */
  async taken(trx: Tx, gameId: string): Promise<Set<number>> {
    const rows = await trx
      .selectFrom("daide_seats")
      .select("seat")
      .where("game_id", "=", gameId)
      .where("client", "is not", null)
      .execute();
    return new Set(rows.map((r) => r.seat));
  }

  /** Every seat kept for DAIDE clients, taken or not (no web or mail player is seated there). */
  async kept(trx: Tx, gameId: string): Promise<Set<number>> {
    const rows = await trx
      .selectFrom("daide_seats")
      .select("seat")
      .where("game_id", "=", gameId)
      .execute();
    return new Set(rows.map((r) => r.seat));
  }

  /**
   * NME: the first seat kept for a DAIDE client that no client has taken, now this client's
   * (everybody is told: `joined`); a forming game whose seats are then all taken starts (its
   * option startWhenFull). Null when every such seat is taken or the game is over.
   */
  async claim(
    gameId: string,
    name: string,
    version: string,
  ): Promise<{ seat: number; passcode: number } | null> {
    return this.mutate(gameId, async (trx, g) => {
      if (g.game.status === "finished") return null;
      const free = await trx
        .selectFrom("daide_seats")
        .selectAll()
        .where("game_id", "=", gameId)
        .where("client", "is", null)
        .orderBy("seat")
        .executeTakeFirst();
      if (!free) return null;
      const forming = g.game.status === "forming";
      await trx
        .updateTable("daide_seats")
        .set({ client: name, version, since: forming ? null : g.state.phase })
        .where("game_id", "=", gameId)
        .where("seat", "=", free.seat)
        .execute();
      const seatName = g.seats[free.seat]!.name;
      await this.emit(trx, gameId, "joined", "public", {
        player: `${name} ${version} (DAIDE)`,
        role: "player",
        seat: free.seat,
        seatName,
        daide: true,
      });
      if (forming && g.options.startWhenFull) {
        const filled = new Set(g.members.flatMap((m) => (m.seat === null ? [] : [m.seat])));
        for (const b of await this.rooms.bots.seatsWithBots(trx, gameId)) filled.add(b);
        for (const d of await this.taken(trx, gameId)) filled.add(d);
        if (filled.size === g.seats.length) await this.rooms.games.startLocked(trx, g);
      }
      return { seat: free.seat, passcode: free.passcode };
    });
  }

  /**
   * A client that took a seat left before the game started (it was never given the
   * passcode): the seat waits for a client again, with a new passcode.
   */
  async unclaim(gameId: string, seat: number): Promise<void> {
    await this.mutate(gameId, async (trx, g) => {
      if (g.game.status !== "forming") return;
      await trx
        .updateTable("daide_seats")
        .set({ client: null, version: null, passcode: randomInt(1, 8192), since: null })
        .where("game_id", "=", gameId)
        .where("seat", "=", seat)
        .execute();
    });
  }

  /** IAM: whether the passcode is the one of the seat's HLO (a client has taken the seat). */
  async rejoin(gameId: string, seat: number, passcode: number): Promise<boolean> {
    const row = await this.db
      .selectFrom("daide_seats")
      .select(["passcode", "client"])
      .where("game_id", "=", gameId)
      .where("seat", "=", seat)
      .executeTakeFirst();
    return row !== undefined && row.client !== null && row.passcode === passcode;
  }

  /**
   * A DAIDE seat's order sets for phase `phaseIdx` (each power's whole set, replacing the
   * last), stored as a player's are, under the orders-rate quota (submissions.ts; the seat
   * counts as one player). False when that phase is no longer open, or past the quota.
   */
  async submit(
    gameId: string,
    seat: number,
    phaseIdx: number,
    sets: ReadonlyMap<PowerId, readonly string[]>,
    final: boolean,
  ): Promise<boolean> {
    const quota = this.core.orderBuckets;
    const key = `${gameId}\n${daideSender(seat)}`;
    if (quota && quota.wait(key, this.now()) > 0) return false;
    try {
      const stored = await this.mutate(
        gameId,
        async (trx, g) => {
          if (g.state.state !== "open" || g.game.status !== "active") return false;
          const row = await trx
            .selectFrom("daide_seats")
            .select("client")
            .where("game_id", "=", gameId)
            .where("seat", "=", seat)
            .executeTakeFirst();
          if (!g.seats[seat] || !row?.client) return false;
          await this.storeLocked(trx, g, seat, sets, final);
          // A client back at a seat a built-in player took over after missed orders plays it
          // again, as a player would (bots.ts).
          const as = { id: daideSender(seat), name: `${row.client} (DAIDE)` };
          await this.rooms.bots.handBack(trx, g, seat, as);
          return true;
        },
        phaseIdx,
      );
      if (stored) quota?.take(key, this.now());
      return stored;
    } catch (e) {
      if ((e as { kind?: string }).kind === "conflict") return false;
      throw e;
    }
  }

  private async storeLocked(
    trx: Tx,
    g: GameData,
    seat: number,
    sets: ReadonlyMap<PowerId, readonly string[]>,
    final: boolean,
  ) {
    const powers = g.seats[seat]!.powers;
    const now = this.now();
    for (const [power, lines] of sets) {
      const read = readSubmission(g.scenario.variant, g.position, g.record.rules, powers, {
        power,
        orders: lines,
        final,
      });
      await this.rooms.submissions.storeSetsLocked(trx, g, daideSender(seat), read, now);
    }
  }

  /** DRW (on) and NOT (DRW) (off): the seat's vote for a draw of every survivor (votes.ts). */
  draw(gameId: string, seat: number, on: boolean): Promise<boolean> {
    return this.rooms.votes.seatDraw(gameId, seat, daideSender(seat), on);
  }

  /**
   * A DAIDE seat's press (its client's SND): white press from the seat to `to` (powers'
   * ids), through the players' press path (press.ts: the game's press options and phases,
   * the GM's review). The judge's refusal is thrown (JudgeError).
   */
  async press(gameId: string, seat: number, to: readonly string[], body: string): Promise<void> {
    // The web's press quota for a player (src/server/limits.ts: 60 in 10 minutes), per seat.
    const key = `${gameId}\n${daideSender(seat)}`;
    if (this.#pressBuckets.wait(key, this.now()) > 0)
      throw tooMuch("press messages sent: at most 60 in 10 minutes");
    const row = await this.db
      .selectFrom("daide_seats")
      .select("client")
      .where("game_id", "=", gameId)
      .where("seat", "=", seat)
      .executeTakeFirst();
    if (!row?.client) throw conflict("no DAIDE client has this seat");
    this.#pressBuckets.take(key, this.now());
    await this.rooms.press.seatPress(
      gameId,
      seat,
      { id: daideSender(seat), name: `${row.client} (DAIDE)` },
      { to, body },
    );
  }

  /** The game's press after row `afterId` (every message, as stored; held press is not). */
  async pressAfter(gameId: string, afterId: number) {
    const rows = await this.db
      .selectFrom("press")
      .select(["id", "kind", "author_power", "recipients", "body"])
      .where("game_id", "=", gameId)
      .where("id", ">", afterId)
      .orderBy("id")
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      from: r.author_power,
      to: JSON.parse(r.recipients) as "all" | string[],
      body: r.body,
    }));
  }

  /** The id of the game's last press row (0: none). */
  async lastPressId(gameId: string): Promise<number> {
    const r = await this.db
      .selectFrom("press")
      .select((eb) => eb.fn.max("id").as("m"))
      .where("game_id", "=", gameId)
      .executeTakeFirst();
    return Number(r?.m ?? 0);
  }

  /**
   * The order texts stored for the open phase `phaseIdx` for these powers (each power's last
   * set, whoever sent it), and whether every one of those sets is final (null: none stored).
   */
  async storedSets(
    gameId: string,
    phaseIdx: number,
    phase: string,
    powers: readonly string[],
  ): Promise<{ texts: string[]; final: boolean | null }> {
    const rows = await latestSetRows(this.db, { gameId, phaseIdx, phase, powers });
    const texts = rows.flatMap((r) => JSON.parse(r.orders) as string[]);
    return { texts, final: rows.length === 0 ? null : rows.every((r) => r.final === 1) };
  }

  /** The game's lock version (phase_state.version): every change to the game moves it on. */
  async version(gameId: string): Promise<number | null> {
    const r = await this.db
      .selectFrom("phase_state")
      .select("version")
      .where("game_id", "=", gameId)
      .executeTakeFirst();
    return r ? Number(r.version) : null;
  }

  /** The game as the DAIDE server reads it (a Diplomacy game: the engine's position). */
  game(gameId: string): Promise<GameData> {
    return loadGame(this.db, gameId);
  }
}
