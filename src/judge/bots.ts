import type { Seat } from "../engine/scenario.ts";
import { gameFamily } from "../variants/game-rules.ts";
import { getGame } from "../variants/registry.ts";
import { getScenario } from "../variants/scenarios.ts";
import { chooseBot, chooseFamilyBot } from "./bot-list.ts";
import type { BotPlay } from "./bot-play.ts";
import type { BotSeats } from "./bot-seats.ts";
import type { DaideSeats } from "./daide-seats.ts";
import { conflict, invalid } from "./errors.ts";
import { type FamilyGame, isFamilyGame } from "./family-game.ts";
import { type GameData, seatNamed } from "./game-data.ts";
import type { Games } from "./games.ts";
import { type JudgeCore, Room } from "./room.ts";
import type { GameView, User } from "./types.ts";
import type { Views } from "./views.ts";

/*
 * Built-in players at the table (issue 31), the operations a caller asks for: the GM seating
 * one of src/bots' players in a seat or taking it off (gm/bot, the mail command BOT), and the
 * lobby's practice game (one player, the bots in every other seat). The rows are
 * bot-seats.ts's, the bots' orders (as each phase opens, the option botTakeover after missed
 * orders) bot-play.ts's. A family game (Global Diplomacy, Age of Discovery) takes its own
 * built-in players (bot-list.ts `familyBots`), seated the same way.
 *
 * Calls games.ts (a practice game created and started, a full game started), views.ts,
 * bot-seats.ts, bot-play.ts and daide-seats.ts (seats kept for DAIDE clients count as taken).
 */

export class BotPlayers extends Room {
  constructor(
    core: JudgeCore,
    private readonly games: Games,
    private readonly views: Views,
    private readonly botSeats: BotSeats,
    private readonly botPlay: BotPlay,
    private readonly daideSeats: DaideSeats,
  ) {
    super(core);
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
        if (!(await this.botSeats.removeLocked(trx, g, seat, s.name)))
          throw conflict(`no built-in player plays ${s.name}`);
        return { seat, seatName: s.name, bot: null };
      }
      const bot = family
        ? chooseFamilyBot(input.bot, (g as FamilyGame).rules.name)
        : chooseBot(input.bot);
      await this.botSeats.seatBotLocked(trx, g, seat, bot);
      if (g.game.status === "forming" && g.options.startWhenFull) {
        const filled = new Set(g.members.flatMap((m) => (m.seat === null ? [] : [m.seat])));
        for (const b of await this.botSeats.seatsWithBots(trx, gameId)) filled.add(b);
        for (const d of await this.daideSeats.taken(trx, gameId)) filled.add(d);
        if (filled.size === g.seats.length) await this.games.startLocked(trx, g);
      }
      return { seat, seatName: s.name, bot: bot.id };
    });
    await this.botPlay.playAfter(gameId);
    return { ...(await this.views.gameView(user, gameId)), bot: answer };
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
    const view = await this.games.createGame(user, {
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
        if (i !== seat) await this.botSeats.seatBotLocked(trx, { ...g, members: [] }, i, bot);
      await this.emit(trx, g.game.id, "joined", "public", {
        player: user.name,
        role: "player",
        seat,
        seatName: g.seats[seat]!.name,
      });
      await this.games.startLocked(trx, g);
    });
    await this.botPlay.playAfter(view.id);
    return this.views.gameView(user, view.id);
  }
}
