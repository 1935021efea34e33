/*
 * What a DAIDE client does at a seat kept for it (issue 31): taking the seat (NME), coming
 * back to it (IAM), its order sets, its draw vote, its press, and what the DAIDE server
 * reads of the game. The seats' rows and ports are daide-seats.ts's; the protocol is
 * src/daide's, the connections src/server/daide-games.ts's.
 *
 * A client's orders go through the players' path: read by `readSubmission` against the open
 * position, stored as `submissions` rows (the sender `daide:<seat>`) with the game's lock
 * held and the phase named (a set for a phase already adjudicated is refused), so the
 * deadlines, early resolution, NMRs, the adjudication and the record treat them as any
 * player's. A client's DRW is its seat's vote for a draw of every survivor (votes.ts).
 *
 * Calls daide-seats.ts, bot-seats.ts (a takeover bot leaves when the client is back),
 * games.ts (a full game starts), submissions.ts, votes.ts and press.ts.
 */
import { randomInt } from "node:crypto";
import type { PowerId } from "../engine/types.ts";
import type { BotSeats } from "./bot-seats.ts";
import { type DaideSeats, daideSender } from "./daide-seats.ts";
import { conflict, tooMuch } from "./errors.ts";
import { type GameData, loadGame } from "./game-data.ts";
import type { Games } from "./games.ts";
import { latestSetRows } from "./latest.ts";
import { readSubmission } from "./orders.ts";
import type { Press } from "./press.ts";
import { TokenBuckets } from "./rate.ts";
import { type JudgeCore, Room } from "./room.ts";
import type { Submissions } from "./submissions.ts";
import type { Tx } from "./types.ts";
import type { Votes } from "./votes.ts";

export class DaideClients extends Room {
  /** Each DAIDE seat's press, under the quota a web player's press has. */
  readonly #pressBuckets = new TokenBuckets({ burst: 60, perSecond: 60 / 600 });

  constructor(
    core: JudgeCore,
    private readonly daideSeats: DaideSeats,
    private readonly botSeats: BotSeats,
    private readonly games: Games,
    private readonly submissions: Submissions,
    private readonly votes: Votes,
    private readonly pressRoom: Press,
  ) {
    super(core);
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
        for (const b of await this.botSeats.seatsWithBots(trx, gameId)) filled.add(b);
        for (const d of await this.daideSeats.taken(trx, gameId)) filled.add(d);
        if (filled.size === g.seats.length) await this.games.startLocked(trx, g);
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
          const client = await this.daideSeats.clientAt(trx, gameId, seat);
          if (!g.seats[seat] || !client) return false;
          await this.storeLocked(trx, g, seat, sets, final);
          // A client back at a seat a built-in player took over after missed orders plays it
          // again, as a player would (bot-seats.ts).
          const as = { id: daideSender(seat), name: `${client} (DAIDE)` };
          await this.botSeats.handBack(trx, g, seat, as);
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
      await this.submissions.storeSetsLocked(trx, g, daideSender(seat), read, now);
    }
  }

  /** DRW (on) and NOT (DRW) (off): the seat's vote for a draw of every survivor (votes.ts). */
  draw(gameId: string, seat: number, on: boolean): Promise<boolean> {
    return this.votes.seatDraw(gameId, seat, daideSender(seat), on);
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
    await this.pressRoom.seatPress(
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
