/*
 * Every built-in player, in one list, strongest first: options, commands, the DAIDE host and
 * the judge (src/judge/bots.ts) find a bot by its id here (`getBot`). The first is the default
 * for a seat, for a takeover after missed orders (the game option `botTakeover`) and for the
 * lobby's practice game. Each is a pure `Bot` (bot.ts). Add a new player to `bots`.
 */
import { type Bot, holdBot, randomBot } from "./bot.ts";
import { ententeBot, greedyBot } from "./entente.ts";

export type { Bot, BotInput } from "./bot.ts";
export { ententeBot, greedyBot, holdBot, randomBot };

/** The built-in players, strongest first (the first is the default). */
export const bots: readonly Bot[] = [ententeBot, greedyBot, randomBot, holdBot];

/** The player with this id, or undefined. */
export function getBot(id: string): Bot | undefined {
  return bots.find((b) => b.id === id);
}

/** The players' ids, for messages and option lists. */
export const botIds = (): readonly string[] => bots.map((b) => b.id);

/** The default built-in player: the strongest. */
export function defaultBot(): Bot {
  return bots[0]!;
}
