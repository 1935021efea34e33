/*
 * Every built-in player, in one list: options, commands and the judge find a bot by its id
 * here (`getBot`). Add a new player to `bots`.
 */
import { type Bot, holdBot, randomBot } from "./bot.ts";
import { ententeBot, greedyBot } from "./entente.ts";

export type { Bot, BotInput } from "./bot.ts";
export { ententeBot, greedyBot, holdBot, randomBot };

/** The built-in players, strongest first. */
export const bots: readonly Bot[] = [ententeBot, greedyBot, randomBot, holdBot];

/** The player with this id, or undefined. */
export function getBot(id: string): Bot | undefined {
  return bots.find((b) => b.id === id);
}

/** The players' ids, for messages and option lists. */
export const botIds = (): readonly string[] => bots.map((b) => b.id);
