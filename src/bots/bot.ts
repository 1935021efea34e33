/*
 * Built-in players: what a bot is given and what it answers. A bot is pure, like the engine
 * it plays on: given the scenario, the rules, the position and the power it plays, and a seed,
 * it answers that power's orders for the phase as text in the engine's notation (the same
 * texts a person would send, read by the judge's one order path). Same inputs, same orders.
 *
 * Two plain players live here as baselines for `entente bench bots`: `hold` (every unit
 * holds; retreats, builds and removals are left to the rules' defaults for a missing order)
 * and `random` (a legal order drawn at random for each unit, as random self-play does).
 */
import { formatOrder } from "../engine/orders.ts";
import { rng } from "../engine/random.ts";
import { randomEngineOrders } from "../engine/research.ts";
import { ordersAsText } from "../engine/research-parsed.ts";
import type { RuleOptions } from "../engine/rules.ts";
import type { Scenario, Seat } from "../engine/scenario.ts";
import type { Position, PowerId } from "../engine/types.ts";

/** What a bot decides from: everything is given, nothing is read from elsewhere. */
export interface BotInput {
  readonly scenario: Scenario;
  readonly rules: RuleOptions;
  readonly position: Position;
  /** The power whose orders are asked for. */
  readonly power: PowerId;
  /** Seeds the bot's own choices; the same seed and inputs give the same orders. */
  readonly seed: number;
  /**
   * Who plays which powers now, when a scenario's events changed its seats (the two-player
   * game's coin toss gives Italy to a side); absent: the scenario's seats. A seat's powers
   * are friends: a bot does not attack its seat-mates or take their centres.
   */
  readonly seats?: readonly Seat[];
}

export interface Bot {
  /** A short name used in options, commands and marks ("random", "hold", ...). */
  readonly id: string;
  /** One line for people: what this player does. */
  readonly describe: string;
  /** The power's orders for the position's phase, as order texts (may be empty). */
  orders(input: BotInput): string[];
}

/** Every unit holds in a movement phase; nothing is ordered in other phases. */
export const holdBot: Bot = {
  id: "hold",
  describe: "Holds every unit and orders nothing else (the rules' defaults apply).",
  orders({ position, power }) {
    if (position.phase.type !== "M") return [];
    return position.units
      .filter((u) => u.power === power)
      .map((unit) => formatOrder({ kind: "hold", unit }));
  },
};

/** A legal order drawn at random for each unit, retreat and adjustment. */
export const randomBot: Bot = {
  id: "random",
  describe: "Gives each unit a legal order drawn at random (as random self-play does).",
  orders({ scenario, rules, position, power, seed }) {
    const orders = randomEngineOrders(scenario, position, scenario.seats, rules, rng(seed));
    const mine = orders.filter((o) => (o.kind === "waive" ? o.power : o.unit.power) === power);
    return [...(ordersAsText(mine).get(power) ?? [])];
  },
};
