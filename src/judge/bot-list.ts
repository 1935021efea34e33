import type { Kysely, Selectable } from "kysely";
import { familyBotInfo } from "../bots/family.ts";
import { type Bot, bots, defaultBot, getBot } from "../bots/index.ts";
import type { BotSeatsTable, DB } from "../store/schema.ts";
import { invalid } from "./errors.ts";

/*
 * Which built-in players a game takes, and how a bot seat shows: the Diplomacy variants take
 * src/bots' players (index.ts `bots`), the game families (Global Diplomacy, Age of Discovery)
 * theirs (`familyBots`: src/bots/family.ts and the rules' own random sets). Kept apart from
 * bots.ts so that the games' views (game-data.ts `viewHead`) read the marks without the room.
 */

export type BotSeatRow = Selectable<BotSeatsTable>;

/** How a seat's bot shows in the seat list (game-data.ts `viewHead`, the lobby, mail). */
export interface BotMark {
  readonly id: string;
  readonly kind: "gm" | "takeover";
  readonly describe: string;
}

/** A built-in player of a game family: its id and one line for people. */
export interface FamilyBot {
  readonly id: string;
  readonly describe: string;
}

/** The game families' built-in players, strongest first (the first is the default). */
export const familyBots: readonly FamilyBot[] = [
  familyBotInfo,
  {
    id: "random",
    describe:
      "Sends a legal command set drawn at random by the game's rules (as random self-play does).",
  },
];

export async function botSeatsOf(db: Kysely<DB>, gameId: string): Promise<BotSeatRow[]> {
  return db.selectFrom("bot_seats").selectAll().where("game_id", "=", gameId).execute();
}

/** A seat's bot mark for the views (`family`: the seat is in a family game). */
export function botMark(row: BotSeatRow, family = false): BotMark {
  const describe = family
    ? familyBots.find((b) => b.id === row.bot)?.describe
    : getBot(row.bot)?.describe;
  return { id: row.bot, kind: row.kind, describe: describe ?? "" };
}

/** A known bot by id ("default": the strongest), or a 400 listing them. */
export function chooseBot(id: string): Bot {
  const bot = id === "default" ? defaultBot() : getBot(id);
  if (!bot)
    throw invalid(
      `no built-in player "${id}"; the built-in players are ${bots.map((b) => `${b.id} (${b.describe})`).join("; ")}, or "default" for ${defaultBot().id}`,
    );
  return bot;
}

/**
 * A built-in player a game of a family (named `familyName`) takes ("default": the first),
 * or a 400 saying which it takes.
 */
export function chooseFamilyBot(id: string, familyName: string): FamilyBot {
  const bot = id === "default" ? familyBots[0] : familyBots.find((b) => b.id === id);
  if (!bot)
    throw invalid(
      `a ${familyName} game takes the built-in players ${familyBots.map((b) => `${b.id} (${b.describe})`).join("; ")}, or "default" for ${familyBots[0]!.id}; not "${id}"${getBot(id) ? ` (${id} plays the Diplomacy variants only)` : ""}`,
    );
  return bot;
}
