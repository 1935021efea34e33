import { setImmediate } from "node:timers/promises";
import type { Kysely, Selectable } from "kysely";
import { type Bot, defaultBot, getBot } from "../bots/index.ts";
import type { Seat } from "../engine/scenario.ts";
import type { PowerId } from "../engine/types.ts";
import type { DB, MembersTable } from "../store/schema.ts";
import { gameFamily } from "../variants/game-rules.ts";
import { getGame } from "../variants/registry.ts";
import { getScenario } from "../variants/scenarios.ts";
import { botSeatsOf, chooseBot, chooseFamilyBot, familyBots } from "./bot-list.ts";
import { conflict, invalid } from "./errors.ts";
import { type FamilyGame, isFamilyGame, loadFamilyGame, readCommands } from "./family.ts";
import { familyBotLines } from "./family-rules.ts";
import { type GameData, loadGame, seatNamed } from "./game-data.ts";
import { readSubmission } from "./orders.ts";
import type { GameView, Tx, User } from "./room.ts";
import { Room } from "./room.ts";

/*
 * Built-in players at the table (issue 31): a seat played by one of src/bots' players,
 * chosen by the GM (at creation, or later: gm/bot, the mail command BOT) or taken over after
 * missed orders (the game option botTakeover), and the lobby's practice game (one player, six
 * bots). A room of the judge (src/judge/judge.ts is the facade; room.ts the shared helpers).
 *
 * Kept in `bot_seats` (one row per seat). A bot's orders go through the players' path: read
 * by `readSubmission` against the open position, stored as `submissions` rows (final, the
 * sender `bot:<id>`) with the game's lock held, so early resolution, the adjudication and the
 * record treat them as any player's. They are sent as soon as a phase opens (after the start,
 * each adjudication, a correction, the GM seating a bot), and `played_idx` says which phase a
 * bot has already ordered: the scheduler's sweep (every tick, the first one after a restart
 * too) gives every open phase its bot orders that a crash may have kept from being sent. The
 * bot's seed is made from the game's id, the phase and the power (`botSeed`): the same game
 * plays the same way.
 *
 * The game families (Global Diplomacy, Age of Discovery: family.ts) take their own built-in
 * players (bot-list.ts `familyBots`: src/bots/family.ts, and the rules' random sets), seated
 * and played the same way: a bot's command set is read as a player's (`readCommands`) and
 * stored by the family's path (family.ts `storeSetLocked`), final, as the turn opens. Its
 * commands are seen as any power's are: by the GM only (seed 004 §8).
 */

export {
  type BotMark,
  type BotSeatRow,
  botMark,
  botSeatsOf,
  chooseBot,
  chooseFamilyBot,
  familyBots,
} from "./bot-list.ts";

/** The sender of a bot's order set, in `submissions.user_id` (never a user's id). */
export const botSender = (id: string) => `bot:${id}`;

/** The seed of a bot's choices for a power in a phase of a game: FNV-1a over the three. */
export function botSeed(gameId: string, phase: string, power: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${gameId}/${phase}/${power}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

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
async function markPlayed(trx: Tx, gameId: string, seat: number, phaseIdx: number) {
  await trx
    .updateTable("bot_seats")
    .set({ played_idx: phaseIdx })
    .where("game_id", "=", gameId)
    .where("seat", "=", seat)
    .execute();
}

/** The seat is no longer played by a bot. */
async function removeBotSeat(trx: Tx, gameId: string, seat: number) {
  await trx
    .deleteFrom("bot_seats")
    .where("game_id", "=", gameId)
    .where("seat", "=", seat)
    .execute();
}

/** A bot's orders for a power of the open phase, seeded by the game, the phase and the power. */
function decide(g: GameData, bot: Bot, power: PowerId): string[] {
  return bot.orders({
    scenario: g.scenario,
    rules: g.record.rules,
    position: g.position,
    power,
    seed: botSeed(g.game.id, g.state.phase, power),
  });
}

/** What a bot's decision depends on besides the bot: the phase, the rules and the board. */
function fingerprint(g: GameData): string {
  const p = g.position;
  return JSON.stringify([
    g.state.phase_idx,
    g.state.phase,
    g.record.rules,
    p.units,
    p.dislodged,
    p.contested,
    [...p.centers],
  ]);
}

/** The bot a stored id names (a bot no longer built in: the default, so the seat plays on). */
function botOf(id: string): Bot {
  return getBot(id) ?? defaultBot();
}

/**
 * A family bot's command lines for a power of a family game's open turn, seeded as `decide`:
 * `family` weighs sets one turn ahead (src/bots/family.ts), `random` sends one of the rules'
 * random sets. Never a line the rules refuse: a set with one is not sent (silence).
 */
function decideFamily(g: FamilyGame, botId: string, power: string): string[] {
  const family = gameFamily(g.head.family);
  if (!family) throw new Error(`game ${g.game.id}: no family ${g.head.family}`);
  const seed = botSeed(g.game.id, g.state.phase, power);
  const lines =
    botId === "random"
      ? [...family.lines(g.rules.random(g.open, power, seed))]
      : familyBotLines(family, g.open, power, seed);
  const read = g.rules.read(g.open, power, lines.join("\n"));
  return read.verdicts.every((v) => v.ok) ? lines : [];
}

/** What a family bot's decision depends on: the turn and the position (the GM's edits too). */
function familyFingerprint(g: FamilyGame): string {
  return JSON.stringify([g.state.phase_idx, g.state.phase, g.position]);
}

/** A family game's built-in player by a stored id (one no longer known: the default). */
function familyBotOf(id: string): string {
  return familyBots.some((b) => b.id === id) ? id : familyBots[0]!.id;
}

export class BotPlayers extends Room {
  /**
   * The command sets of a family game's bot seats that have not yet sent the open turn's
   * (`play` for a family game): decided before the game's lock, stored inside it if the
   * position is still the one decided on (otherwise decided again).
   */
  private async playFamily(gameId: string): Promise<number> {
    const before = await loadFamilyGame(this.db, gameId);
    const decided = new Map<string, { bot: string; lines: string[] }>();
    if (before.state.state === "open" && before.game.status === "active") {
      const must = new Set(this.families.toOrder(before));
      for (const row of await botSeatsOf(this.db, gameId)) {
        if (row.played_idx >= before.state.phase_idx) continue;
        const bot = familyBotOf(row.bot);
        for (const power of before.seats[row.seat]?.powers ?? []) {
          if (!must.has(power)) continue;
          await setImmediate();
          decided.set(power, { bot, lines: decideFamily(before, bot, power) });
        }
      }
    }
    const onBoard = familyFingerprint(before);
    return this.families.mutate(gameId, async (trx, g) => {
      if (g.state.state !== "open" || g.game.status !== "active") return 0;
      const still = familyFingerprint(g) === onBoard ? decided : undefined;
      const rows = await trx
        .selectFrom("bot_seats")
        .selectAll()
        .where("game_id", "=", gameId)
        .where("played_idx", "<", g.state.phase_idx)
        .execute();
      const must = new Set(this.families.toOrder(g));
      let n = 0;
      for (const row of rows) {
        const seat = g.seats[row.seat];
        if (!seat) continue;
        const bot = familyBotOf(row.bot);
        const powers = seat.powers.filter((p) => must.has(p));
        for (const power of powers) {
          const ready = still?.get(power);
          const lines = ready?.bot === bot ? ready.lines : decideFamily(g, bot, power);
          const { diagnostics } = readCommands(g, seat.powers, { power, orders: lines });
          await this.families.storeSetLocked(trx, g, {
            power,
            lines,
            diagnostics,
            sender: botSender(bot),
            final: true,
          });
        }
        if (powers.length > 0) n++;
        await markPlayed(trx, gameId, row.seat, g.state.phase_idx);
      }
      return n;
    });
  }

  /**
   * The orders of `bot` for `powers` of the open phase, read as a player's would be, stored
   * (final) with the game's lock held. Returns each power's stored order texts.
   */
  private async sendOrders(
    trx: Tx,
    g: GameData,
    bot: Bot,
    powers: readonly PowerId[],
    seatPowers: readonly PowerId[],
    decided?: ReadonlyMap<PowerId, { readonly bot: string; readonly lines: readonly string[] }>,
  ): Promise<Map<PowerId, readonly string[]>> {
    const out = new Map<PowerId, readonly string[]>();
    const now = this.now();
    for (const power of powers) {
      const ready = decided?.get(power);
      const lines = ready?.bot === bot.id ? ready.lines : decide(g, bot, power);
      const read = readSubmission(g.scenario.variant, g.position, g.record.rules, seatPowers, {
        power,
        orders: lines,
        final: true,
      });
      await this.rooms.submissions.storeSetsLocked(trx, g, botSender(bot.id), read, now);
      out.set(power, read.sets.get(power) ?? []);
    }
    return out;
  }

  /**
   * Sends the open phase's orders of every bot seat of the game that has not yet sent them.
   * Its own transaction, with the game's lock. Returns how many seats sent orders.
   */
  async play(gameId: string): Promise<number> {
    const behind = await this.db
      .selectFrom("bot_seats")
      .innerJoin("phase_state", "phase_state.game_id", "bot_seats.game_id")
      .select("bot_seats.seat")
      .where("bot_seats.game_id", "=", gameId)
      .where("phase_state.state", "=", "open")
      .whereRef("bot_seats.played_idx", "<", "phase_state.phase_idx")
      .execute();
    if (behind.length === 0) return 0;
    if (await isFamilyGame(this.db, gameId)) return this.playFamily(gameId);
    // The bots decide before the game's lock is taken, one power at a time with a turn of the
    // event loop between (a strong bot thinks for tens to hundreds of milliseconds a power):
    // other requests, and other games' writes, go on meanwhile. Stored only if the position
    // is still the one decided on; otherwise decided again inside.
    const before = await loadGame(this.db, gameId);
    const decided = new Map<PowerId, { bot: string; lines: readonly string[] }>();
    if (before.state.state === "open" && before.game.status === "active") {
      const must = new Set(this.toOrder(before));
      for (const row of await botSeatsOf(this.db, gameId)) {
        if (row.played_idx >= before.state.phase_idx) continue;
        for (const power of before.seats[row.seat]?.powers ?? []) {
          if (!must.has(power)) continue;
          await setImmediate();
          const bot = botOf(row.bot);
          decided.set(power, { bot: bot.id, lines: decide(before, bot, power) });
        }
      }
    }
    const onBoard = fingerprint(before);
    return this.mutate(gameId, async (trx, g) => {
      if (g.state.state !== "open" || g.game.status !== "active") return 0;
      // What was decided before the lock, if on the same board (sendOrders: by the same bot).
      const still = fingerprint(g) === onBoard ? decided : undefined;
      const rows = await trx
        .selectFrom("bot_seats")
        .selectAll()
        .where("game_id", "=", gameId)
        .where("played_idx", "<", g.state.phase_idx)
        .execute();
      const must = new Set(this.toOrder(g));
      let n = 0;
      for (const row of rows) {
        const seat = g.seats[row.seat];
        if (!seat) continue;
        const powers = seat.powers.filter((p) => must.has(p));
        if (powers.length > 0) {
          await this.sendOrders(trx, g, botOf(row.bot), powers, seat.powers, still);
          n++;
        }
        await markPlayed(trx, gameId, row.seat, g.state.phase_idx);
      }
      return n;
    });
  }

  /**
   * `play` after a change is committed: a failure is logged, not answered (the change
   * stands, and the scheduler's sweep tries again at its next tick).
   */
  async playAfter(gameId: string): Promise<void> {
    try {
      await this.play(gameId);
    } catch (e) {
      this.log(`game ${gameId}: built-in players: ${(e as Error).stack ?? e}`);
    }
  }

  /**
   * Every open phase with a bot seat that has not sent its orders gets them (the scheduler,
   * every tick: after a restart, after each adjudication). Returns how many games played.
   */
  async sweep(): Promise<number> {
    const games = await this.db
      .selectFrom("bot_seats")
      .innerJoin("phase_state", "phase_state.game_id", "bot_seats.game_id")
      .select("bot_seats.game_id")
      .distinct()
      .where("phase_state.state", "=", "open")
      .whereRef("bot_seats.played_idx", "<", "phase_state.phase_idx")
      .execute();
    let n = 0;
    for (const { game_id } of games) {
      try {
        if ((await this.play(game_id)) > 0) n++;
      } catch (e) {
        this.log(`game ${game_id}: built-in players: ${(e as Error).stack ?? e}`);
      }
    }
    return n;
  }

  /**
   * The adjudication, with the option botTakeover on: the powers that missed the phase are
   * played by the game's takeover bot instead of holding; each seat that had no bot gets one
   * (kind takeover) and its player and the GM are told (`bot_took_over`). Runs inside the
   * adjudication's transaction, before the phase is played. Returns the orders to play and
   * which bot played each power.
   */
  async takeOver(
    trx: Tx,
    g: GameData,
    missed: readonly PowerId[],
  ): Promise<{ orders: Map<PowerId, readonly string[]>; by: Map<string, string> }> {
    const orders = new Map<PowerId, readonly string[]>();
    const by = new Map<string, string>();
    const choice = g.options.botTakeover;
    if (!choice || missed.length === 0) return { orders, by };
    const rows = new Map((await botSeatsOf(trx, g.game.id)).map((r) => [r.seat, r]));
    const bySeat = new Map<number, PowerId[]>();
    for (const p of missed) {
      const seat = g.seats.findIndex((s) => s.powers.includes(p));
      if (seat >= 0) bySeat.set(seat, [...(bySeat.get(seat) ?? []), p]);
    }
    for (const [seat, powers] of bySeat) {
      const row = rows.get(seat);
      const bot = botOf(row?.bot ?? choice);
      const s = g.seats[seat]!;
      let sent: Map<PowerId, readonly string[]>;
      try {
        sent = await this.sendOrders(trx, g, bot, powers, s.powers);
      } catch (e) {
        // A bot's failure never holds up the adjudication: its powers hold, as without it.
        this.log(
          `game ${g.game.id}: the built-in player ${bot.id} failed for ${s.name}: ${(e as Error).stack ?? e}`,
        );
        continue;
      }
      for (const [p, o] of sent) {
        orders.set(p, o);
        by.set(p, bot.id);
      }
      if (row) {
        await markPlayed(trx, g.game.id, seat, g.state.phase_idx);
        continue;
      }
      await this.recordTakeover(trx, g, seat, bot.id, powers);
    }
    return { orders, by };
  }

  /**
   * A seat a bot takes over after missed orders (Diplomacy or a family): its takeover row, and
   * the seat's player and the GM told (a `powers:` audience is also the GM's).
   */
  private async recordTakeover(
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

  /**
   * The option botTakeover in a family game (family.ts `resolveClaimed`): each power that
   * sent no commands for the turn is played by the seat's bot or the game's takeover bot (a
   * Diplomacy bot id there means the family bot; `random` the rules' random sets): its set
   * is stored as a bot's, the seat gets a takeover bot if it had none, and the seat's player
   * and the GM are told. Runs in the adjudication's transaction; answers which bot played
   * each power (those powers still missed the turn).
   */
  async takeOverFamily(trx: Tx, g: FamilyGame): Promise<Map<string, string>> {
    const by = new Map<string, string>();
    const choice = g.options.botTakeover;
    if (!choice) return by;
    const sent = new Set(
      (
        await trx
          .selectFrom("submissions")
          .select("power")
          .where("game_id", "=", g.game.id)
          .where("phase_idx", "=", g.state.phase_idx)
          .execute()
      ).map((r) => r.power),
    );
    const missed = this.families.toOrder(g).filter((p) => !sent.has(p));
    if (missed.length === 0) return by;
    const rows = new Map((await botSeatsOf(trx, g.game.id)).map((r) => [r.seat, r]));
    for (const [seat, s] of g.seats.entries()) {
      const powers = s.powers.filter((p) => missed.includes(p));
      if (powers.length === 0) continue;
      const row = rows.get(seat);
      const bot = familyBotOf(row?.bot ?? choice);
      try {
        for (const power of powers) {
          const lines = decideFamily(g, bot, power);
          const { diagnostics } = readCommands(g, s.powers, { power, orders: lines });
          await this.families.storeSetLocked(trx, g, {
            power,
            lines,
            diagnostics,
            sender: botSender(bot),
            final: true,
          });
          by.set(power, bot);
        }
      } catch (e) {
        // A bot's failure never holds up the adjudication: its powers are silent, as without it.
        this.log(
          `game ${g.game.id}: the built-in player ${bot} failed for ${s.name}: ${(e as Error).stack ?? e}`,
        );
        continue;
      }
      if (row) {
        await markPlayed(trx, g.game.id, seat, g.state.phase_idx);
        continue;
      }
      await this.recordTakeover(trx, g, seat, bot, powers);
    }
    return by;
  }

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
    const row = await trx
      .selectFrom("bot_seats")
      .selectAll()
      .where("game_id", "=", g.game.id)
      .where("seat", "=", seat)
      .executeTakeFirst();
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
    const row = await trx
      .selectFrom("bot_seats")
      .selectAll()
      .where("game_id", "=", g.game.id)
      .where("seat", "=", seat)
      .executeTakeFirst();
    if (!row) return;
    await removeBotSeat(trx, g.game.id, seat);
    await this.emit(trx, g.game.id, "bot_removed", "public", {
      seat,
      seatName,
      bot: row.bot,
      cause: "player_seated",
      player,
      phase: g.state.state === "forming" ? null : g.state.phase,
    });
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
   * The GM seats a built-in player (`bot`: its id, or "default") in a seat (by index, or by a
   * power's id or name), or takes it off (`bot` null: the seat is empty again, in civil
   * disorder until somebody takes it). A forming game whose seats are then all taken starts
   * (its option startWhenFull). The bot sends the open phase's orders at once.
   */
  async setBot(
    user: User,
    gameId: string,
    input: { seat?: number | undefined; power?: string | undefined; bot: string | null },
  ): Promise<GameView & { bot: { seat: number; seatName: string; bot: string | null } }> {
    const family = await isFamilyGame(this.db, gameId);
    const answer = await this.mutateBase(gameId, async (trx, hosted) => {
      this.requireGm(hosted, user);
      // A family game (family.ts) has the same seats, members and state as a Diplomacy one.
      const g = hosted as GameData | FamilyGame;
      if (g.game.status === "finished") throw conflict("the game is over");
      let seat = input.seat ?? -1;
      if (input.power !== undefined) {
        seat = seatNamed(g.seats, input.power);
        if (seat === -1)
          throw invalid(
            `nobody plays "${input.power}" in this game; the seats are ${g.seats.map((s) => s.name).join(", ")}`,
          );
      } else if (input.seat === undefined)
        throw invalid("name the seat: seat (its number) or power");
      const s = g.seats[seat];
      if (!s) throw invalid(`no seat ${seat}; seats are 0 to ${g.seats.length - 1}`);
      if (input.bot === null) {
        const row = await trx
          .selectFrom("bot_seats")
          .selectAll()
          .where("game_id", "=", gameId)
          .where("seat", "=", seat)
          .executeTakeFirst();
        if (!row) throw conflict(`no built-in player plays ${s.name}`);
        await removeBotSeat(trx, gameId, seat);
        await this.emit(trx, gameId, "bot_removed", "public", {
          seat,
          seatName: s.name,
          bot: row.bot,
          cause: "gm",
          player: null,
          phase: g.state.state === "forming" ? null : g.state.phase,
        });
        return { seat, seatName: s.name, bot: null };
      }
      const bot = family
        ? chooseFamilyBot(input.bot, (g as FamilyGame).rules.name)
        : chooseBot(input.bot);
      await this.seatBotLocked(trx, g, seat, bot);
      if (g.game.status === "forming" && g.options.startWhenFull) {
        const filled = new Set(g.members.flatMap((m) => (m.seat === null ? [] : [m.seat])));
        for (const b of await this.seatsWithBots(trx, gameId)) filled.add(b);
        for (const d of await this.rooms.daide.taken(trx, gameId)) filled.add(d);
        if (filled.size === g.seats.length) await this.rooms.games.startLocked(trx, g);
      }
      return { seat, seatName: s.name, bot: bot.id };
    });
    await this.playAfter(gameId);
    return { ...(await this.rooms.views.gameView(user, gameId)), bot: answer };
  }

  /**
   * A practice game (the lobby's one click): `user` plays one power (the one asked for, else
   * one drawn at random), built-in players (the strongest) the six others; it starts at once.
   * Each phase resolves as soon as the player's orders are final (the bots' always are), and
   * waits a week otherwise; nobody is its GM.
   */
  async practice(
    user: User,
    input: { variant?: string | undefined; power?: string | undefined; bot?: string | undefined },
  ): Promise<GameView> {
    const variant = input.variant ?? "classical";
    const scenario = getScenario(variant, undefined);
    const family = scenario ? undefined : gameFamily(variant);
    // A family game (Global Diplomacy, Age of Discovery) of its default player count.
    const seats: readonly { readonly name: string; readonly powers: readonly string[] }[] =
      scenario?.seats ??
      family?.hosting
        .seats(family.rules.players.default)
        .map((p) => ({ name: p.name, powers: [p.power] })) ??
      [];
    if (!scenario && !family) {
      if (getGame(variant))
        throw invalid(
          `a practice game is played in a Diplomacy variant or a game family the judge hosts; ${variant} is neither`,
        );
      throw invalid(`unknown variant "${variant}"`);
    }
    const bot = family
      ? chooseFamilyBot(input.bot ?? "default", family.rules.name)
      : chooseBot(input.bot ?? "default");
    let seat = Math.floor(Math.random() * seats.length);
    if (input.power !== undefined) {
      seat = seatNamed(seats as readonly Seat[], input.power);
      if (seat === -1)
        throw invalid(
          `no power "${input.power}" in ${variant}; the powers are ${seats.map((s) => s.name).join(", ")}`,
        );
    }
    const view = await this.rooms.games.createGame(user, {
      name: `Practice: ${user.name} as ${seats[seat]!.name}`,
      variant,
      options: {
        deadlines: { unit: "days", movement: 7, retreats: 7, adjustments: 7 },
        resolveEarly: true,
        startWhenFull: true,
      },
    });
    await this.mutateBase(view.id, async (trx, g) => {
      // The player plays, nobody is GM: the creator's membership becomes the seat.
      await trx
        .updateTable("members")
        .set({ role: "player", seat })
        .where("game_id", "=", g.game.id)
        .where("user_id", "=", user.id)
        .execute();
      for (let i = 0; i < g.seats.length; i++)
        if (i !== seat) await this.seatBotLocked(trx, { ...g, members: [] }, i, bot);
      await this.emit(trx, g.game.id, "joined", "public", {
        player: user.name,
        role: "player",
        seat,
        seatName: g.seats[seat]!.name,
      });
      await this.rooms.games.startLocked(trx, g);
    });
    await this.playAfter(view.id);
    return this.rooms.views.gameView(user, view.id);
  }
}
