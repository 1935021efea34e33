import { sql } from "kysely";
import type { GameRecord } from "../engine/record.ts";
import { gameWinner, playPhase } from "../engine/record.ts";
import type { PowerId } from "../engine/types.ts";
import type { BotPlay } from "./bot-play.ts";
import type { BotSeats } from "./bot-seats.ts";
import { chairDeadline } from "./chair.ts";
import { type ActInput, recordCommitteeAct } from "./committee.ts";
import { conflict, invalid, notFound } from "./errors.ts";
import { type FamilyGame, isFamilyGame, playTurn, powerOf, stateAt } from "./family.ts";
import { type GameData, iso, parseJson, placeMember } from "./game-data.ts";
import { phaseLengthMs } from "./options.ts";
import { randomId } from "./password.ts";
import type { HostedGame, JudgeCore, Tx, User } from "./room.ts";
import { phaseTypeOf, Room } from "./room.ts";
import { type ContractInput, declareContract, setSchedule, withdrawContract } from "./schedule.ts";
import type { Views } from "./views.ts";

/*
 * The game master's tools: pause, resume, deadlines, correcting the last adjudication,
 * replacing a player; the committee's and sequential movement's acts (committee.ts,
 * schedule.ts). Removing and relocating a unit are unit-edits.ts; ending the game and the
 * warned draw are endings.ts.
 * A room of the judge (judge.ts builds the rooms; room.ts the shared helpers); calls
 * views.ts, bot-seats.ts and bot-play.ts.
 */

/** The last adjudicated phase played again: what a correction stores. */
interface ReplayedPhase {
  /** The phase played (`F1901M`, `T3`) and its record as the phases table keeps it. */
  readonly phase: string;
  readonly record: unknown;
  /** The phase open after it. */
  readonly next: string;
  /** The game's result if the phase ended it, else null. */
  readonly result: Record<string, unknown> | null;
}

/** What a correction needs of a game's family: its last phase, and playing it again. */
interface Replay {
  /** Phases adjudicated so far; the last is the one corrected. */
  readonly adjudicated: number;
  /** The phases adjudicated, by name, in order (`S1901M`, `T3`): the last is the one corrected. */
  readonly names: readonly string[];
  /** The last phase's order sets, by power. */
  readonly orders: Readonly<Record<string, readonly string[]>>;
  /** The game's power ids, and the id a GM's name for a power stands for. */
  readonly powers: readonly string[];
  power(name: string): string | undefined;
  /** Commands are secret (seed 004 §8): who sent what is not public. */
  readonly secret: boolean;
  /** Plays the last phase again from the state before it; `supplied` the GM's powers. */
  play(orders: Readonly<Record<string, string[]>>, supplied: readonly string[]): ReplayedPhase;
}

/** A Diplomacy game: the record without its last phase, played again by the engine. */
function classicalReplay(g: GameData, record: GameRecord): Replay {
  const n = g.record.phases.length;
  const powers = g.scenario.variant.powers;
  return {
    adjudicated: n,
    names: g.record.phases.map((p) => p.phase),
    orders: n > 0 ? g.record.phases[n - 1]!.orders : {},
    powers: powers.map((p) => p.id),
    power: (name) => {
      const w = name.trim().toLowerCase();
      return powers.find((p) => p.id === w || p.name.toLowerCase() === w)?.id;
    },
    secret: false,
    play: (orders) => {
      const sets = new Map(Object.entries(orders).map(([p, l]) => [p as PowerId, l]));
      const again = playPhase(
        g.scenario,
        { ...record, phases: record.phases.slice(0, n - 1) },
        sets,
      );
      const phase = again.phases.at(-1)!;
      const winner = gameWinner(again);
      return {
        phase: phase.phase,
        record: phase,
        next: phase.position.phase,
        result: winner ? { kind: "solo", winner } : null,
      };
    },
  };
}

/** A family game: the turn played again from the position before it, its reports re-issued. */
function familyReplay(g: FamilyGame): Replay {
  const n = g.turns.length;
  const last = g.turns[n - 1];
  return {
    adjudicated: n,
    names: g.turns.map((t) => t.phase),
    orders: last?.orders ?? {},
    powers: g.rules.powers(g.open).map((p) => `${p.id} (${p.name})`),
    power: (name) => powerOf(g, name),
    secret: true,
    play: (orders, supplied) => {
      const before = stateAt(g, n > 1 ? g.turns[n - 2]!.position : g.head.start);
      const missed = (last?.missed ?? []).filter((p) => !supplied.includes(p));
      const { turn, next, winners } = playTurn(g, before, orders, missed);
      return {
        phase: turn.phase,
        record: turn,
        next,
        result: winners ? { kind: "victory", winners } : null,
      };
    },
  };
}

/** A correction: the powers' replacement orders, the GM's reason, the phase it is for. */
export interface CorrectionInput {
  readonly orders?: Readonly<Record<string, readonly string[]>> | undefined;
  readonly reason: string;
  /** The phase the GM means to correct: refused unless it is the last adjudicated. */
  readonly phase?: string | undefined;
}

export class GmTools extends Room {
  constructor(
    core: JudgeCore,
    private readonly views: Views,
    private readonly botSeats: BotSeats,
    private readonly botPlay: BotPlay,
  ) {
    super(core);
  }

  /**
   * Tells the GM of every game in play something about the server itself (the store's
   * faults: src/server/readiness.ts), as an event to the GM: their page shows it and, where
   * they gave an address, it is mailed (src/mail/notify.ts). Written under each game's lock,
   * as every event is. Answers how many games were told.
   */
  async tellEveryGm(kind: string, data: unknown): Promise<number> {
    const games = await this.db
      .selectFrom("games")
      .select("id")
      .where("status", "=", "active")
      .execute();
    for (const g of games) {
      await this.mutateBase(g.id, (trx) => this.emit(trx, g.id, kind, "gm", data));
    }
    return games.length;
  }

  async pause(user: User, gameId: string) {
    await this.mutateBase(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.state.state !== "open") throw conflict(`the game is ${g.state.state}, not running`);
      const now = this.now();
      const remaining = Math.max(0, (g.state.deadline_at ?? now) - now);
      await trx
        .updateTable("phase_state")
        .set({ state: "paused", remaining_ms: remaining, deadline_at: null, updated_at: now })
        .where("game_id", "=", gameId)
        .execute();
      await this.emit(trx, gameId, "paused", "public", { phase: g.state.phase });
    });
    return this.views.gameView(user, gameId);
  }

  async resume(user: User, gameId: string) {
    await this.mutateBase(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.state.state !== "paused") throw conflict("the game is not paused");
      const now = this.now();
      const deadline = await chairDeadline(
        trx,
        gameId,
        now + Math.max(g.state.remaining_ms ?? 0, 60_000),
      );
      await trx
        .updateTable("phase_state")
        .set({ state: "open", remaining_ms: null, deadline_at: deadline, updated_at: now })
        .where("game_id", "=", gameId)
        .execute();
      await this.emit(trx, gameId, "resumed", "public", {
        phase: g.state.phase,
        deadline: iso(deadline),
      });
    });
    return this.views.gameView(user, gameId);
  }

  /** Moves the deadline: later by an amount, or to a given time (now or past: resolve next tick). */
  async setDeadline(
    user: User,
    gameId: string,
    input: { extendMinutes?: number | undefined; at?: string | undefined },
  ) {
    await this.mutateBase(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.state.state !== "open" && g.state.state !== "paused") {
        throw conflict(`the game is ${g.state.state}: there is no deadline to move`);
      }
      const now = this.now();
      let deadline: number;
      if (input.at !== undefined) {
        deadline = Date.parse(input.at);
        if (Number.isNaN(deadline))
          throw invalid(`"at" must be a date and time (ISO 8601), not "${input.at}"`);
      } else if (input.extendMinutes !== undefined) {
        const base =
          g.state.state === "paused"
            ? now + (g.state.remaining_ms ?? 0)
            : (g.state.deadline_at ?? now);
        deadline = base + input.extendMinutes * 60_000;
      } else throw invalid('give "extendMinutes" or "at"');
      const set =
        g.state.state === "paused"
          ? { remaining_ms: Math.max(0, deadline - now), updated_at: now }
          : { deadline_at: deadline, updated_at: now };
      await trx.updateTable("phase_state").set(set).where("game_id", "=", gameId).execute();
      await this.emit(trx, gameId, "deadline", "public", {
        phase: g.state.phase,
        deadline: iso(deadline),
      });
    });
    return this.views.gameView(user, gameId);
  }

  /**
   * Corrects the last adjudication (seed 002 VIII(1); seed 004's moderator likewise): allowed
   * until the next phase is adjudicated, for a game of any family. The phase is played again
   * from the state before it with its orders, some powers' sets replaced by the GM (a late
   * order accepted, a mistyped one fixed); the old result is kept, marked superseded, and
   * what players read (the phase's results, a family game's reports) is the new one. The
   * families differ only in how the phase is played again (`Replay`).
   */
  async correct(user: User, gameId: string, input: CorrectionInput) {
    const apply = (trx: Tx, g: HostedGame, replay: Replay) =>
      this.applyCorrection(trx, g, replay, user, input);
    if (await isFamilyGame(this.db, gameId))
      await this.families.mutate(gameId, async (trx, g) => {
        await apply(trx, g, familyReplay(g));
        // The open turn's position is another now: the bots send its commands again.
        await trx
          .updateTable("bot_seats")
          .set({ played_idx: -1 })
          .where("game_id", "=", gameId)
          .execute();
      });
    else
      await this.mutate(gameId, async (trx, g) => {
        await apply(trx, g, classicalReplay(g, await this.playedRecord(trx, g)));
        // The open phase is another now: the built-in players order it again (bot-play.ts).
        await trx
          .updateTable("bot_seats")
          .set({ played_idx: -1 })
          .where("game_id", "=", gameId)
          .execute();
      });
    await this.botPlay.playAfter(gameId);
    return this.views.gameView(user, gameId);
  }

  private async applyCorrection(
    trx: Tx,
    g: HostedGame,
    replay: Replay,
    user: User,
    input: CorrectionInput,
  ): Promise<void> {
    this.requireGm(g, user);
    const gameId = g.game.id;
    const n = replay.adjudicated;
    if (n === 0) throw conflict("no phase has been adjudicated yet");
    // The phase the GM names must be the one corrected: only the last adjudication can be
    // (VIII(1) Alternative B: an error not corrected before the next adjudication stands).
    const last = replay.names[n - 1]!;
    if (input.phase !== undefined && input.phase.trim().toUpperCase() !== last.toUpperCase()) {
      const named = input.phase.trim().toUpperCase();
      const known = replay.names.some((p) => p.toUpperCase() === named);
      throw conflict(
        known
          ? `${named} cannot be corrected: another adjudication has been published since, so its result stands (seed 002 VIII(1), Alternative B). Only the last adjudication, ${last}, can be corrected`
          : `${named} is not a phase adjudicated in this game; only the last adjudication, ${last}, can be corrected`,
      );
    }
    const result = g.game.result ? parseJson<{ kind: string }>(g.game.result) : null;
    if (result && result.kind !== "solo" && result.kind !== "victory") {
      throw conflict("the game ended by vote or by the GM; there is nothing to correct");
    }
    const orders: Record<string, string[]> = {};
    for (const [p, l] of Object.entries(replay.orders)) orders[p] = [...l];
    const supplied: string[] = [];
    for (const [name, list] of Object.entries(input.orders ?? {})) {
      const power = replay.power(name);
      if (power === undefined)
        throw invalid(`unknown power "${name}"; the powers are ${replay.powers.join(", ")}`);
      orders[power] = list.map((l) => l.trim()).filter((l) => l !== "");
      supplied.push(power);
    }
    let again: ReplayedPhase;
    try {
      again = replay.play(orders, supplied);
    } catch (e) {
      throw invalid((e as Error).message);
    }
    const now = this.now();
    await trx
      .updateTable("phases")
      .set({ superseded: 1 })
      .where("game_id", "=", gameId)
      .where("idx", "=", n - 1)
      .where("superseded", "=", 0)
      .execute();
    await trx
      .insertInto("phases")
      .values({
        game_id: gameId,
        idx: n - 1,
        phase: again.phase,
        record: JSON.stringify(again.record),
        superseded: 0,
        adjudicated_at: now,
      })
      .execute();
    // Powers whose orders the GM supplied did not miss the phase after all.
    if (supplied.length > 0) {
      await trx
        .deleteFrom("nmrs")
        .where("game_id", "=", gameId)
        .where("phase_idx", "=", n - 1)
        .where("power", "in", supplied)
        .execute();
    }
    const over = again.result !== null;
    const keepDeadline = g.state.state === "open" && g.state.deadline_at !== null;
    const deadline = keepDeadline
      ? g.state.deadline_at!
      : now + phaseLengthMs(g.options, phaseTypeOf(again.next));
    await trx
      .updateTable("phase_state")
      .set({
        phase: again.next,
        state: over ? "done" : g.state.state === "paused" ? "paused" : "open",
        deadline_at: over || g.state.state === "paused" ? null : deadline,
        ready: 0,
        updated_at: now,
      })
      .where("game_id", "=", gameId)
      .execute();
    await trx
      .updateTable("games")
      .set(
        again.result
          ? { status: "finished", result: JSON.stringify(again.result) }
          : { status: "active", result: null },
      )
      .where("id", "=", gameId)
      .execute();
    await this.emit(trx, gameId, "phase_corrected", "public", {
      index: n - 1,
      phase: again.phase,
      next: again.next,
      // The open phase's deadline (kept), for the mail that tells of the correction.
      ...(over || g.state.state === "paused" ? {} : { deadline: iso(deadline) }),
      reason: input.reason,
      // Whose commands changed is the moderator's to know where commands are secret.
      ...(replay.secret ? {} : { powers: supplied }),
    });
  }

  /** Gives a seat to another user (by name), or vacates it with an invitation for a replacement. */
  async replacePlayer(
    user: User,
    gameId: string,
    input: { seat: number; user?: string | undefined },
  ) {
    return this.mutateBase(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (!g.seats[input.seat]) throw invalid(`no seat ${input.seat}`);
      const old = g.members.find((m) => m.role === "player" && m.seat === input.seat);
      if (old) {
        await trx
          .updateTable("members")
          .set({ role: "observer", seat: null })
          .where("game_id", "=", gameId)
          .where("user_id", "=", old.user_id)
          .execute();
      }
      let code: string | null = null;
      let name: string | null = null;
      let newHolder: string | null = null;
      if (input.user !== undefined) {
        const u = await trx
          .selectFrom("users")
          .select(["id", "name"])
          .where(sql<string>`lower(name)`, "=", input.user.toLowerCase())
          .executeTakeFirst();
        if (!u) throw notFound(`no user "${input.user}"`);
        const m = g.members.find((x) => x.user_id === u.id);
        if (m?.role === "gm") throw invalid("the game master cannot take a seat");
        if (m?.role === "player" && m.seat !== null && m.seat !== input.seat) {
          throw conflict(`${u.name} already plays ${g.seats[m.seat]?.name}`);
        }
        const place = { role: "player", seat: input.seat } as const;
        await placeMember(trx, gameId, u.id, place, m !== undefined, this.now());
        name = u.name;
        newHolder = u.id;
        // A seat a built-in player played is the player's now (bot-seats.ts).
        await this.botSeats.seatTaken(trx, g, input.seat, g.seats[input.seat]!.name, u.name);
      } else {
        code = randomId(16);
        await trx
          .insertInto("invites")
          .values({
            code,
            game_id: gameId,
            role: "player",
            seat: input.seat,
            created_by: user.id,
            created_at: this.now(),
            revoked: 0,
          })
          .execute();
      }
      // `former`: who held the seat (by name, as the seat list showed it), so that they are
      // told (src/mail/notify.ts); null for a seat that was empty or given to its own holder.
      const former =
        old && old.user_id !== newHolder
          ? ((
              await trx
                .selectFrom("users")
                .select("name")
                .where("id", "=", old.user_id)
                .executeTakeFirst()
            )?.name ?? null)
          : null;
      // The former player's orders for later phases (early retreats and adjustments, seed 002
      // II(5)) are theirs, not the newcomer's: dropped, and both are told (`dropped`).
      let dropped: string[] = [];
      if (old && old.user_id !== newHolder) {
        const seatPowers = g.seats[input.seat]!.powers.map(String);
        const early = await trx
          .selectFrom("early_orders")
          .select(["id", "phase"])
          .where("game_id", "=", gameId)
          .where("user_id", "=", old.user_id)
          .where("power", "in", seatPowers)
          .execute();
        if (early.length > 0) {
          await trx
            .deleteFrom("early_orders")
            .where(
              "id",
              "in",
              early.map((r) => r.id),
            )
            .execute();
          dropped = [...new Set(early.map((r) => r.phase))].sort();
        }
      }
      // `phase`: the phase open when it was done (null before the game started).
      await this.emit(trx, gameId, "player_replaced", "public", {
        seat: input.seat,
        seatName: g.seats[input.seat]!.name,
        player: name,
        former,
        ...(dropped.length > 0 ? { dropped } : {}),
        phase: g.state.state === "forming" ? null : g.state.phase,
      });
      return { seat: input.seat, player: name, invite: code };
    });
  }

  async committeeAct(user: User, gameId: string, input: ActInput) {
    return this.mutate(gameId, (trx, g) =>
      recordCommitteeAct(trx, g, this.viewerIn(g, user), input, this.now(), (k, a, d) =>
        this.emit(trx, gameId, k, a, d),
      ),
    );
  }

  /** The GM: a season's schedule (a list of powers, "simultaneous" or "generated"). */
  async setSchedule(user: User, gameId: string, season: string, schedule: unknown) {
    await this.mutate(gameId, (trx, g) =>
      setSchedule(trx, g, this.viewerIn(g, user), season, schedule, this.now(), (k, a, d) =>
        this.emit(trx, gameId, k, a, d),
      ),
    );
    return this.views.schedule(user, gameId);
  }

  async declareContract(user: User, gameId: string, input: ContractInput) {
    return this.mutate(gameId, (trx, g) =>
      declareContract(trx, g, this.viewerIn(g, user), input, this.now(), (k, a, d) =>
        this.emit(trx, gameId, k, a, d),
      ),
    );
  }

  async withdrawContract(user: User, gameId: string, id: number) {
    return this.mutate(gameId, (trx, g) =>
      withdrawContract(trx, g, this.viewerIn(g, user), id, this.now(), (k, a, d) =>
        this.emit(trx, gameId, k, a, d),
      ),
    );
  }
}
