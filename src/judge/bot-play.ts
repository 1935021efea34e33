import { setImmediate } from "node:timers/promises";
import type { Kysely } from "kysely";
import { type Bot, defaultBot, getBot } from "../bots/index.ts";
import type { Seat } from "../engine/scenario.ts";
import type { PowerId } from "../engine/types.ts";
import type { DB } from "../store/schema.ts";
import { gameFamily } from "../variants/game-rules.ts";
import { botSeatsOf, familyBots } from "./bot-list.ts";
import { type BotSeats, botSender, markPlayed } from "./bot-seats.ts";
import { type FamilyGame, isFamilyGame, loadFamilyGame, readCommands } from "./family-game.ts";
import { familyBotLines } from "./family-rules.ts";
import { type GameData, loadGame } from "./game-data.ts";
import { readSubmission } from "./orders.ts";
import { type JudgeCore, Room } from "./room.ts";
import type { Submissions } from "./submissions.ts";
import type { Tx } from "./types.ts";

/*
 * The built-in players' orders (issue 31): a bot's orders go through the players' path, read
 * by `readSubmission` against the open position, stored as `submissions` rows (final, the
 * sender `bot:<id>`) with the game's lock held, so early resolution, the adjudication and the
 * record treat them as any player's. They are sent as soon as a phase opens (after the start,
 * each adjudication, a correction, the GM seating a bot), and `played_idx` says which phase a
 * bot has already ordered: the scheduler's sweep (every tick, the first one after a restart
 * too) gives every open phase its bot orders that a crash may have kept from being sent. The
 * bot's seed is made from the game's id, the phase and the power (`botSeed`): the same game
 * plays the same way. The option botTakeover: the powers that missed a phase played by a bot.
 *
 * The game families (Global Diplomacy, Age of Discovery: family.ts) take their own built-in
 * players (bot-list.ts `familyBots`: src/bots/family.ts, and the rules' random sets), played
 * the same way by the same loop (`playTable`, given a `BotTable` per kind of game): a bot's
 * command set is read as a player's (`readCommands`) and stored by the family's path
 * (family.ts `storeSetLocked`), final, as the turn opens. Its commands are seen as any
 * power's are: by the GM only (seed 004 §8).
 *
 * Calls submissions.ts (a Diplomacy bot's order sets) and bot-seats.ts (the rows).
 */

/** The seed of a bot's choices for a power in a phase of a game: FNV-1a over the three. */
export function botSeed(gameId: string, phase: string, power: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${gameId}/${phase}/${power}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
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

/** A decision made before the game's lock: by which bot, for one power. */
type Decided = ReadonlyMap<string, { readonly bot: string; readonly lines: readonly string[] }>;

/** What `playTable` needs of one kind of game (Diplomacy, a family's). */
interface BotTable<G extends GameData | FamilyGame> {
  load(db: Kysely<DB>, gameId: string): Promise<G>;
  mutate<T>(gameId: string, fn: (trx: Tx, g: G) => Promise<T>): Promise<T>;
  /** The seated powers that have something to order now. */
  toOrder(g: G): readonly string[];
  /** What a bot's decision depends on besides the bot. */
  fingerprint(g: G): string;
  /** The bot a stored id names (one no longer known: the default). */
  botId(stored: string): string;
  decide(g: G, bot: string, power: string): readonly string[];
  /** A bot's set for the powers of a seat, stored with the game's lock held. */
  send(
    trx: Tx,
    g: G,
    bot: string,
    powers: readonly string[],
    seat: Seat,
    decided?: Decided,
  ): Promise<unknown>;
}

export class BotPlay extends Room {
  constructor(
    core: JudgeCore,
    private readonly submissions: Submissions,
    private readonly botSeats: BotSeats,
  ) {
    super(core);
  }

  /** Diplomacy games: the engine's position, src/bots' players, the players' order path. */
  private readonly diplomacy: BotTable<GameData> = {
    load: loadGame,
    mutate: (gameId, fn) => this.mutate(gameId, fn),
    toOrder: (g) => this.toOrder(g),
    fingerprint,
    botId: (stored) => botOf(stored).id,
    decide: (g, bot, power) => decide(g, botOf(bot), power as PowerId),
    send: (trx, g, bot, powers, seat, decided) =>
      this.sendOrders(trx, g, bot, powers as readonly PowerId[], seat.powers, decided),
  };

  /** Family games: the rules' state, the family bots, the family's command path. */
  private readonly family: BotTable<FamilyGame> = {
    load: loadFamilyGame,
    mutate: (gameId, fn) => this.families.mutate(gameId, fn),
    toOrder: (g) => this.families.toOrder(g),
    fingerprint: familyFingerprint,
    botId: familyBotOf,
    decide: decideFamily,
    send: async (trx, g, bot, powers, seat, decided) => {
      for (const power of powers) {
        const ready = decided?.get(power);
        const lines = ready?.bot === bot ? ready.lines : decideFamily(g, bot, power);
        await this.storeFamilySet(trx, g, bot, power, lines, seat.powers);
      }
    },
  };

  /** A family bot's command set for a power, read as a player's and stored, final. */
  private async storeFamilySet(
    trx: Tx,
    g: FamilyGame,
    bot: string,
    power: string,
    lines: readonly string[],
    seatPowers: readonly string[],
  ): Promise<void> {
    const { diagnostics } = readCommands(g, seatPowers, { power, orders: lines });
    await this.families.storeSetLocked(trx, g, {
      power,
      lines: [...lines],
      diagnostics,
      sender: botSender(bot),
      final: true,
    });
  }

  /**
   * The orders of `bot` for `powers` of the open phase, read as a player's would be, stored
   * (final) with the game's lock held. Returns each power's stored order texts.
   */
  private async sendOrders(
    trx: Tx,
    g: GameData,
    botId: string,
    powers: readonly PowerId[],
    seatPowers: readonly PowerId[],
    decided?: Decided,
  ): Promise<Map<PowerId, readonly string[]>> {
    const bot = botOf(botId);
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
      await this.submissions.storeSetsLocked(trx, g, botSender(bot.id), read, now);
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
    if (await isFamilyGame(this.db, gameId)) return this.playTable(gameId, this.family);
    return this.playTable(gameId, this.diplomacy);
  }

  /**
   * `play` for one kind of game. The bots decide before the game's lock is taken, one power
   * at a time with a turn of the event loop between (a strong bot thinks for tens to hundreds
   * of milliseconds a power): other requests, and other games' writes, go on meanwhile.
   * Stored only if the position is still the one decided on (and by the same bot);
   * otherwise decided again inside.
   */
  private async playTable<G extends GameData | FamilyGame>(
    gameId: string,
    t: BotTable<G>,
  ): Promise<number> {
    const before = await t.load(this.db, gameId);
    const decided = new Map<string, { bot: string; lines: readonly string[] }>();
    if (before.state.state === "open" && before.game.status === "active") {
      const must = new Set(t.toOrder(before));
      for (const row of await botSeatsOf(this.db, gameId)) {
        if (row.played_idx >= before.state.phase_idx) continue;
        for (const power of before.seats[row.seat]?.powers ?? []) {
          if (!must.has(power)) continue;
          await setImmediate();
          const bot = t.botId(row.bot);
          decided.set(power, { bot, lines: t.decide(before, bot, power) });
        }
      }
    }
    const onBoard = t.fingerprint(before);
    return t.mutate(gameId, async (trx, g) => {
      if (g.state.state !== "open" || g.game.status !== "active") return 0;
      const still = t.fingerprint(g) === onBoard ? decided : undefined;
      const rows = await trx
        .selectFrom("bot_seats")
        .selectAll()
        .where("game_id", "=", gameId)
        .where("played_idx", "<", g.state.phase_idx)
        .execute();
      const must = new Set(t.toOrder(g));
      let n = 0;
      for (const row of rows) {
        const seat = g.seats[row.seat];
        if (!seat) continue;
        const powers = seat.powers.filter((p) => must.has(p));
        if (powers.length > 0) {
          await t.send(trx, g, t.botId(row.bot), powers, seat, still);
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
    const bySeat = new Map<number, PowerId[]>();
    for (const p of missed) {
      const seat = g.seats.findIndex((s) => s.powers.includes(p));
      if (seat >= 0) bySeat.set(seat, [...(bySeat.get(seat) ?? []), p]);
    }
    const pick = (id: string) => botOf(id).id;
    await this.takeOverSeats(trx, g, bySeat, choice, pick, async (bot, powers, seat) => {
      const sent = await this.sendOrders(trx, g, bot, powers, g.seats[seat]!.powers);
      for (const [p, o] of sent) {
        orders.set(p, o);
        by.set(p, bot);
      }
    });
    return { orders, by };
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
    const bySeat = new Map<number, string[]>();
    for (const [seat, s] of g.seats.entries()) {
      const powers = s.powers.filter((p) => missed.includes(p));
      if (powers.length > 0) bySeat.set(seat, powers);
    }
    await this.takeOverSeats(trx, g, bySeat, choice, familyBotOf, async (bot, powers, seat) => {
      for (const power of powers) {
        const set = decideFamily(g, bot, power);
        await this.storeFamilySet(trx, g, bot, power, set, g.seats[seat]!.powers);
        by.set(power, bot);
      }
    });
    return by;
  }

  /**
   * The takeover's seat loop, for Diplomacy and family games alike: each seat with powers that
   * missed the phase is played by its own bot (a bot seat whose player is away) or the game's
   * takeover bot (`pick`: the bot's id as the game kind knows it); a bot's failure is logged
   * and its powers are left as without it (they hold, or stay silent), never holding up the
   * adjudication. A seat that had a bot is marked played; one that had none gets a takeover
   * bot, and its player and the GM are told (`recordTakeover`).
   */
  private async takeOverSeats<P extends string>(
    trx: Tx,
    g: GameData | FamilyGame,
    bySeat: ReadonlyMap<number, readonly P[]>,
    choice: string,
    pick: (id: string) => string,
    play: (bot: string, powers: readonly P[], seat: number) => Promise<void>,
  ): Promise<void> {
    if (bySeat.size === 0) return;
    const rows = new Map((await botSeatsOf(trx, g.game.id)).map((r) => [r.seat, r]));
    for (const [seat, powers] of bySeat) {
      const row = rows.get(seat);
      const bot = pick(row?.bot ?? choice);
      const s = g.seats[seat]!;
      try {
        await play(bot, powers, seat);
      } catch (e) {
        this.log(
          `game ${g.game.id}: the built-in player ${bot} failed for ${s.name}: ${(e as Error).stack ?? e}`,
        );
        continue;
      }
      if (row) await markPlayed(trx, g.game.id, seat, g.state.phase_idx);
      else await this.botSeats.recordTakeover(trx, g, seat, bot, powers);
    }
  }
}
