import { parsePhase } from "../engine/phase.ts";
import type { PowerId } from "../engine/types.ts";
import type { BotSeats } from "./bot-seats.ts";
import { conflict, forbidden, invalid, tooOften } from "./errors.ts";
import { isFamilyGame, loadFamilyGame, readCommands } from "./family.ts";
import { type GameData, iso, loadGame, parseJson } from "./game-data.ts";
import { latestSetRows } from "./latest.ts";
import {
  type LineDiagnostic,
  type ReadOptions,
  type ReadSubmission,
  readSubmission,
  type SubmissionInput,
  storeEarlySets,
  submissionPhase,
} from "./orders.ts";
import type { Bucket } from "./rate.ts";
import type { JudgeCore, SubmissionAnswer, Tx, User } from "./room.ts";
import { Room } from "./room.ts";
import { textProblem } from "./text.ts";

/**
 * The orders-rate quota's default: each player may send 60 order sets in one game at once,
 * then one a second. Every revision is a stored row, so a client sending in a loop would grow
 * the database without bound; a person revising by hand, however fast, or a chair entering a
 * delegation's sets, sends nowhere near 60 in a minute. A second's refill keeps the load
 * bench's paced players (a request a second, four in five of them order sets) within it with
 * a quarter to spare, and the burst lets a player whose requests queued behind a slow server
 * catch up a minute at once (docs/reliability.md, "Hardening").
 */
export const DEFAULT_ORDERS_RATE: Bucket = { burst: 60, perSecond: 1 };

/** `1 a second`, `one every 10 seconds`. */
function rateText(b: Bucket): string {
  if (b.perSecond >= 1) return `${b.perSecond} a second`;
  const every = Math.round(1 / b.perSecond);
  return `one every ${every} seconds`;
}

/*
 * Submissions: order sets sent for the open phase (or kept for a later one), early resolution's
 * "everybody is final" flag, and the order sets on file.
 * A room of the judge (judge.ts builds the rooms; room.ts the shared helpers); calls
 * bot-seats.ts (a takeover bot leaves when its player is back).
 */

export class Submissions extends Room {
  constructor(
    core: JudgeCore,
    private readonly botSeats: BotSeats,
  ) {
    super(core);
  }

  /**
   * How each line of an order set reads for the open phase, as submitOrders would read it,
   * storing nothing: for every game family (src/mail's EMG dialect stores a set only when
   * every line is valid, seed 004 §9).
   */
  async checkOrders(
    user: User,
    gameId: string,
    input: SubmissionInput,
    readOptions: ReadOptions = {},
  ): Promise<{ phase: string; diagnostics: readonly LineDiagnostic[] }> {
    const family = await isFamilyGame(this.db, gameId);
    const g = family ? await loadFamilyGame(this.db, gameId) : await loadGame(this.db, gameId);
    const v = this.viewerIn(g, user);
    if (v.role !== "player" || v.seat === null) {
      throw forbidden("only a player with a seat may send orders in this game");
    }
    if (!("rules" in g)) {
      const read = readSubmission(
        g.scenario.variant,
        g.position,
        g.record.rules,
        v.powers,
        input,
        readOptions,
      );
      return { phase: g.state.phase, diagnostics: read.lines };
    }
    const { diagnostics } = readCommands(g, v.powers, input);
    return { phase: g.state.phase, diagnostics };
  }

  /**
   * Stores an order set (or a game family's command set), under the orders-rate quota: a
   * player past it is refused (429, "too-often", with when to try again) and nothing is
   * stored; only a set taken counts.
   */
  async submitOrders(
    user: User,
    gameId: string,
    input: SubmissionInput & { phase?: string | undefined },
    readOptions: ReadOptions = {},
  ): Promise<SubmissionAnswer> {
    // Orders by mail too: no NUL (PostgreSQL cannot store it) or bidirectional override.
    const lines = typeof input.orders === "string" ? [input.orders] : input.orders;
    for (const line of lines) {
      const bad = textProblem(line, "the orders");
      if (bad) throw invalid(bad);
    }
    const quota = this.core.orderBuckets;
    const key = `${gameId}\n${user.id}`;
    if (quota) {
      const wait = quota.wait(key, this.now());
      if (wait > 0) {
        const s = Math.max(1, Math.ceil(wait / 1000));
        throw tooOften(
          `too many order sets from you in this game: at most ${quota.bucket.burst} at once, then ${rateText(quota.bucket)} (is a program sending them in a loop?); this one was not stored, and your last set taken stands: send it again in ${s} second${s === 1 ? "" : "s"}`,
          s,
        );
      }
    }
    const answer = await this.storeSubmission(user, gameId, input, readOptions);
    quota?.take(key, this.now());
    return answer;
  }

  private async storeSubmission(
    user: User,
    gameId: string,
    input: SubmissionInput & { phase?: string | undefined },
    readOptions: ReadOptions,
  ): Promise<SubmissionAnswer> {
    if (await isFamilyGame(this.db, gameId)) {
      const answer = await this.families.submit(user, gameId, input);
      // A bot that took the seat over after missed commands leaves (bot-seats.ts).
      await this.botSeats.handBackFamily(user, gameId);
      return answer;
    }
    return this.mutate(gameId, async (trx, g) => {
      const v = this.viewerIn(g, user);
      if (v.role !== "player" || v.seat === null) {
        throw forbidden("only a player with a seat may send orders in this game");
      }
      const st = g.state;
      if (st.state === "forming") throw conflict("the game has not started yet");
      if (st.state === "done" || g.game.status === "finished") throw conflict("the game is over");
      // Orders for a later retreat or adjustment phase are kept for it (seed 002 II(5)).
      const rules = g.record.rules;
      const target = submissionPhase(input.phase, st.phase, rules.seasons);
      const position = target.kind === "early" ? null : g.position;
      const early = target.kind === "early" ? parsePhase(target.phase) : null;
      const read = readSubmission(
        g.scenario.variant,
        position,
        rules,
        v.powers,
        input,
        early ? { ...readOptions, phase: early } : readOptions,
      );
      const now = this.now();
      const powers: { power: string; orders: readonly string[] }[] = [];
      if (target.kind === "early") {
        await storeEarlySets(trx, gameId, target.phase, user.id, read.sets, now);
        const sets = [...read.sets].map(([power, orders]) => ({ power, orders }));
        const at = iso(now)!;
        return {
          phase: target.phase,
          final: read.final,
          receivedAt: at,
          powers: sets,
          diagnostics: read.lines,
          early: true,
        };
      }
      for (const [power, orders] of read.sets) powers.push({ power, orders });
      await this.storeSetsLocked(trx, g, user.id, read, now);
      // A player back at a seat a bot took over after missed orders plays it again (bot-seats.ts).
      await this.botSeats.handBack(trx, g, v.seat, user);
      return {
        phase: st.phase,
        final: read.final,
        receivedAt: iso(now)!,
        powers,
        diagnostics: read.lines,
      };
    });
  }

  /**
   * Stores the sets read for the open phase, as sent by `sender` (a user's id, or a built-in
   * player's `bot:<id>`: src/judge/bot-play.ts), and sets early resolution's flag. The caller holds
   * the game's lock (`mutate`) and has checked that the sender plays these powers.
   */
  async storeSetsLocked(
    trx: Tx,
    g: GameData,
    sender: string,
    read: Pick<ReadSubmission, "sets" | "lines" | "final">,
    now: number,
  ): Promise<void> {
    for (const [power, orders] of read.sets) {
      const diag = read.lines.filter((l) => l.power === power);
      await trx
        .insertInto("submissions")
        .values({
          game_id: g.game.id,
          phase_idx: g.state.phase_idx,
          phase: g.state.phase,
          power,
          user_id: sender,
          orders: JSON.stringify(orders),
          final: read.final ? 1 : 0,
          diagnostics: JSON.stringify(diag),
          received_at: now,
        })
        .execute();
    }
    await this.updateReady(trx, g);
  }

  private async updateReady(trx: Tx, g: GameData): Promise<void> {
    // Without early resolution the flag stays 0: no write (g.state was read under the lock).
    if (!g.options.resolveEarly && g.state.ready === 0) return;
    let ready = 0;
    if (g.options.resolveEarly) {
      const latest = await this.latestSets(trx, g);
      const need = this.toOrder(g);
      ready = need.length > 0 && need.every((p) => latest.get(p)?.final === 1) ? 1 : 0;
    }
    await trx.updateTable("phase_state").set({ ready }).where("game_id", "=", g.game.id).execute();
  }

  /**
   * Who still owes orders in the open phase, for a reminder before the deadline, in a game of
   * any family: each seat with a power that must order and has no final set on file, with the
   * seat's player, and whether a preliminary set is on file. Empty when nothing is open.
   */
  async ordersOwed(gameId: string): Promise<{
    phase: string;
    deadline: string | null;
    owed: {
      seat: number;
      seatName: string;
      userId: string | null;
      powers: { power: string; onFile: "none" | "preliminary" }[];
    }[];
  }> {
    const g = await this.loadHosted(this.db, gameId);
    const st = g.state;
    if (st.state !== "open") return { phase: st.phase, deadline: iso(st.deadline_at), owed: [] };
    const must = new Set(await this.mustOrderNow(this.db, gameId));
    // Each power's last revision only, by an index seek per power (latest.ts): reading every
    // revision made this list, asked per game by the notifier's reminders, grow with the
    // phase's history (docs/reliability.md, the soak).
    const rows = await latestSetRows(this.db, {
      gameId,
      phaseIdx: st.phase_idx,
      phase: st.phase,
      powers: [...must],
    });
    const latest = new Map(rows.map((r) => [r.power, r.final === 1]));
    const owed = g.seats.flatMap((s, seat) => {
      const powers = s.powers
        .map(String)
        .filter((p) => must.has(p) && latest.get(p) !== true)
        .map((power) => ({
          power,
          onFile: latest.has(power) ? ("preliminary" as const) : ("none" as const),
        }));
      if (powers.length === 0) return [];
      const holder = g.members.find((m) => m.role === "player" && m.seat === seat);
      return [{ seat, seatName: s.name, userId: holder?.user_id ?? null, powers }];
    });
    return { phase: st.phase, deadline: iso(st.deadline_at), owed };
  }

  /** The caller's current order sets for the open phase (the GM sees every power's). */
  async currentOrders(user: User, gameId: string) {
    if (await isFamilyGame(this.db, gameId)) return this.families.current(user, gameId);
    const g = await loadGame(this.db, gameId);
    const v = this.viewerIn(g, user);
    if (v.role !== "gm" && v.role !== "player") {
      throw forbidden("orders are seen only by the power that sent them and the game master");
    }
    const latest = await this.latestSets(this.db, g);
    const visible = [...latest.values()].filter(
      (r) => v.role === "gm" || v.powers.includes(r.power as PowerId),
    );
    return {
      phase: g.state.phase,
      sets: visible.map((r) => ({
        power: r.power,
        orders: parseJson<string[]>(r.orders),
        final: r.final === 1,
        receivedAt: iso(r.received_at),
        diagnostics: parseJson<LineDiagnostic[]>(r.diagnostics),
      })),
    };
  }
}
