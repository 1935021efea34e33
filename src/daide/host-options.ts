import type { Bot } from "../bots/bot.ts";
import { rngFor } from "../engine/random.ts";
import type { GameRecord } from "../engine/record.ts";
import type { RuleOptions } from "../engine/rules.ts";
import type { Scenario } from "../engine/scenario.ts";
import type { DaideMap, Side } from "./mapdef.ts";
import type { PressLevel } from "./press.ts";

/*
 * What a game hosted for DAIDE clients (host.ts) is given, HostOptions, the seats its
 * built-in players take (botSeats), and what it reports when it ends (GameSummary: the
 * summary line `entente daide host` prints).
 */

export interface HostOptions {
  readonly scenario: Scenario;
  readonly rules: RuleOptions;
  /** Seeds the scenario's own draws and the built-in players. */
  readonly seed: number;
  /** Seconds for a movement phase (retreats and adjustments too); 0: no time limit. */
  readonly moveTime: number;
  /** The game ends at the start of this year (a draw among the survivors); null: never. */
  readonly until: number | null;
  /** Built-in players, one per seat: on the last seats, or on `botPowers`'. */
  readonly bots: readonly Bot[];
  /**
   * The seats the built-in players take: by their DAIDE power (`TUR`), one per bot; "random",
   * drawn with the seed; absent: the last seats.
   */
  readonly botPowers?: readonly string[] | "random" | undefined;
  /** The press level offered: 0 (default), no press; 10, press between the clients. */
  readonly level?: PressLevel | undefined;
  readonly port: number;
  readonly host?: string;
  /** How long a new connection has to send its initial message (ms). */
  readonly initialTimeout?: number;
  /** A game id for the summary and the record file. */
  readonly id?: string;
  /** Lines for the operator (stderr in the CLI). */
  readonly log?: (line: string) => void;
}

/** How the game ended, and each side's end: the summary line `entente daide host` prints. */
export interface GameSummary {
  readonly game: string;
  readonly variant: string;
  readonly scenario: string;
  readonly map: string;
  readonly phases: number;
  /** The last phase played into (the position the game ended on). */
  readonly endPhase: string;
  /** Seconds from the start of the game (every seat taken) to its end. */
  readonly seconds: number;
  /** Phases that ended because their time ran out (not every power was ready). */
  readonly timedOut: number;
  readonly result:
    | { readonly kind: "solo"; readonly winner: string }
    | {
        readonly kind: "draw";
        readonly reason: "agreed" | "until";
        readonly powers: readonly string[];
      };
  readonly powers: readonly {
    readonly power: string;
    readonly plays: readonly string[];
    readonly centres: number;
    readonly client: string | null;
    readonly version: string | null;
    readonly bot: string | null;
    readonly eliminated: number | null;
  }[];
  readonly record: GameRecord;
}

/**
 * The seats the built-in players take: on `botPowers`' seats (one per bot), drawn with the
 * seed ("random"), or else the last seats; refused when the bots would leave no seat for a
 * DAIDE client.
 */
export function botSeats(map: DaideMap, options: HostOptions): Map<Side, Bot> {
  const seated = map.sides.filter((s) => s.seat !== null);
  if (options.bots.length > seated.length)
    throw new Error(`--bots ${options.bots.length}: the game has only ${seated.length} seats`);
  if (options.bots.length === seated.length)
    throw new Error(
      `--bots ${options.bots.length} leaves no seat for a DAIDE client: give at most ${seated.length - 1}`,
    );
  const botAt = new Map<Side, Bot>();
  if (options.botPowers === "random") {
    // A seeded draw (a shuffle of the seats, the first K): the same seed, the same seats.
    const r = rngFor(options.seed, 0xb07);
    const pool = [...seated];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = r.int(i + 1);
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    for (const [i, bot] of options.bots.entries()) botAt.set(pool[i]!, bot);
  } else if (options.botPowers) {
    if (options.botPowers.length !== options.bots.length)
      throw new Error(
        `${options.botPowers.length} powers given for ${options.bots.length} built-in players: give one power per bot`,
      );
    options.botPowers.forEach((name, i) => {
      const side = seated.find((s) => s.name === name.toUpperCase());
      if (!side)
        throw new Error(
          `"${name}" is not a seat of ${map.name}: give one of ${seated.map((s) => s.name).join(", ")}`,
        );
      if (botAt.has(side)) throw new Error(`${side.name} is given twice: give each power once`);
      botAt.set(side, options.bots[i]!);
    });
  } else {
    const firstBot = seated.length - options.bots.length;
    seated.forEach((side, i) => {
      if (i >= firstBot) botAt.set(side, options.bots[i - firstBot]!);
    });
  }
  return botAt;
}
