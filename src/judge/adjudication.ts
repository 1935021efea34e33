import { sql } from "kysely";
import { powersThatMustOrder } from "../engine/must-order.ts";
import { gameWinner, playPhase } from "../engine/record.ts";
import type { PowerId } from "../engine/types.ts";
import type { BotPlay } from "./bot-play.ts";
import { chairDeadline, chairTimersDue } from "./chair.ts";
import { isFamilyGame, loadFamilyGame } from "./family.ts";
import { advancePhase, type GameData, iso, loadGame, parseJson } from "./game-data.ts";
import { contactWindow, recordMissed } from "./missed.ts";
import { phaseLengthMs } from "./options.ts";
import { applyEarlySets } from "./orders.ts";
import { playedDiplomacy, playedFamily } from "./played.ts";
import type { JudgeCore, Tx } from "./room.ts";
import { Room } from "./room.ts";
import type { Votes } from "./votes.ts";

/*
 * The adjudication scheduler: every due phase claimed exactly once and played with the latest
 * order sets; missed orders (NMRs) recorded and told, the GM told when a contact window has
 * passed, civil disorder declared where the game asks the judge to, the next deadline set.
 * A room of the judge (judge.ts builds the rooms; room.ts the shared helpers); calls
 * votes.ts (due votes first) and bot-play.ts (the sweep, botTakeover).
 */

export class Adjudication extends Room {
  constructor(
    core: JudgeCore,
    private readonly votes: Votes,
    private readonly botPlay: BotPlay,
  ) {
    super(core);
  }

  private ticking = false;

  /** Adjudicates every phase that is due now. Returns how many this call adjudicated. */
  async tick(): Promise<number> {
    if (this.ticking) return 0;
    this.ticking = true;
    try {
      const now = this.now();
      // First the missed orders whose contact window has passed (the GM is told, missed.ts),
      // before the phase that may be due adjudicates past them.
      try {
        await contactWindow(
          this.db,
          now,
          (trx, id, k, a, d) => this.emit(trx, id, k, a, d),
          async (trx, id) => (await this.loadHosted(trx, id)).seats,
        );
      } catch (e) {
        this.log(`contact window: ${(e as Error).stack ?? e}`);
      }
      // The chairs' timers that ran out (chair.ts): announced, and an orders timer may make
      // its phase due now (the game's option), for the query below.
      try {
        await chairTimersDue(this.db, now);
      } catch (e) {
        this.log(`chair timers: ${(e as Error).stack ?? e}`);
      }
      // Bot seats whose open phase has no orders from them yet (bot-play.ts): after a restart,
      // a resumed game, anything a crash kept from being sent.
      await this.botPlay.sweep();
      const due = await this.db
        .selectFrom("phase_state")
        .select(["game_id", "phase_idx"])
        .where("state", "=", "open")
        .where((eb) => eb.or([eb("deadline_at", "<=", now), eb("ready", "=", 1)]))
        .execute();
      let n = 0;
      for (const d of due) {
        try {
          if (await this.adjudicateIfDue(d.game_id, d.phase_idx)) n++;
        } catch (e) {
          this.log(`game ${d.game_id}: adjudication failed: ${(e as Error).stack ?? e}`);
        }
      }
      // The phases just opened: their bots' orders at once (early resolution may need them).
      if (n > 0) await this.botPlay.sweep();
      return n;
    } finally {
      this.ticking = false;
    }
  }

  /**
   * Adjudicates phase `idx` of the game if it is still open and due, for a game of any
   * family. Exactly once: the claim is the conditional update at the start of the transaction.
   */
  async adjudicateIfDue(gameId: string, idx: number): Promise<boolean> {
    const family = await isFamilyGame(this.db, gameId);
    const now = this.now();
    return this.db.transaction().execute(async (trx) => {
      const claim = await trx
        .updateTable("phase_state")
        .set({ version: sql`version + 1` })
        .where("game_id", "=", gameId)
        .where("phase_idx", "=", idx)
        .where("state", "=", "open")
        .where((eb) => eb.or([eb("deadline_at", "<=", now), eb("ready", "=", 1)]))
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) return false;
      const g = family
        ? playedFamily(await loadFamilyGame(trx, gameId))
        : playedDiplomacy(await loadGame(trx, gameId));
      // Votes due with this phase are decided first, for a game of any family: a draw or a
      // concession that passes ends the game instead of the adjudication (seed 002 IX(4)).
      const ended = await this.votes.decideVotes(trx, g);
      // A game of another family plays its turn by its own rules (family.ts).
      // The option botTakeover: a built-in player plays the silent powers (bot-play.ts).
      if (!ended && g.own.kind === "family")
        await this.families.resolveClaimed(
          trx,
          g.own.game,
          await this.botPlay.takeOverFamily(trx, g.own.game),
        );
      else if (!ended && g.own.kind === "diplomacy") await this.resolve(trx, g.own.game);
      this.fail("adjudicate-before-commit");
      this.core.adjudications++;
      return true;
    });
  }

  /** Plays the open phase with the latest order sets; writes the phase, NMRs, next state. */
  private async resolve(trx: Tx, g: GameData): Promise<void> {
    const now = this.now();
    const idx = g.state.phase_idx;
    const latest = await this.latestSets(trx, g);
    const orders = new Map<PowerId, string[]>();
    for (const [power, r] of latest) orders.set(power as PowerId, parseJson<string[]>(r.orders));
    const sent = new Map([...latest].map(([p, r]) => [p, r.received_at]));
    const early = await applyEarlySets(trx, g, sent, orders);
    const need = this.toOrder(g);
    // Missed orders (seed 002 VII(6)). A power that only could have built and sent nothing
    // has waived its builds: no NMR.
    const had = new Set(powersThatMustOrder(g.scenario.variant, g.position, g.record.rules));
    const missed = need.filter((p) => had.has(p) && !latest.has(p) && !early.has(p));
    // The option botTakeover: a built-in player plays them instead of holding (bot-play.ts).
    const takeover = await this.botPlay.takeOver(trx, g, missed);
    for (const [p, o] of takeover.orders) orders.set(p, [...o]);
    const next = playPhase(g.scenario, await this.playedRecord(trx, g), orders);
    const phase = next.phases[next.phases.length - 1]!;
    await trx
      .insertInto("phases")
      .values({
        game_id: g.game.id,
        idx,
        phase: phase.phase,
        record: JSON.stringify(phase),
        superseded: 0,
        adjudicated_at: now,
      })
      .execute();
    // Adjudicated without them (or with the takeover bot's), recorded (missed.ts).
    const disorder = await recordMissed(trx, g, { idx, phase: phase.phase, now }, missed, {
      emit: (k, a, d) => this.emit(trx, g.game.id, k, a, d),
      audience: "public",
      bots: takeover.by,
    });
    const winner = gameWinner(next);
    const nextPhase = phase.position.phase;
    const nextType = nextPhase.slice(-1) as "M" | "R" | "A";
    const deadline = await chairDeadline(trx, g.game.id, now + phaseLengthMs(g.options, nextType));
    const result = winner ? { kind: "solo", winner } : null;
    await advancePhase(trx, g.game.id, { index: idx + 1, phase: nextPhase, deadline, result, now });
    await this.emit(trx, g.game.id, "phase_resolved", "public", {
      index: idx,
      phase: phase.phase,
      next: winner ? null : nextPhase,
      deadline: winner ? null : iso(deadline),
      nmr: missed,
      ...(takeover.by.size > 0 ? { bots: Object.fromEntries(takeover.by) } : {}),
      civilDisorder: disorder,
      ...(winner ? { winner } : {}),
    });
    this.log(`game ${g.game.id}: adjudicated ${phase.phase} (phase ${idx})`);
  }
}
