/*
 * The built-in players the judge seats (src/judge/bots.ts), strongest first: the first is the
 * default for a seat, for a takeover after missed orders (the game option `botTakeover`) and
 * for the lobby's practice game. Each is a pure `Bot` (bot.ts).
 */
import { type Bot, holdBot, randomBot } from "./bot.ts";

export type { Bot, BotInput } from "./bot.ts";

/** Every built-in player, strongest first (the first is the default). */
export const bots: readonly Bot[] = [randomBot, holdBot];

/** The built-in player with this id, or undefined. */
export function getBot(id: string): Bot | undefined {
  return bots.find((b) => b.id === id);
}

/** The default built-in player: the strongest. */
export function defaultBot(): Bot {
  return bots[0]!;
}
