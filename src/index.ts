/**
 * Entente as a library (`import { newGame } from "entente"`): the research API's typed path
 * (docs/research.md) and the text path people's orders take, over the built-in variants.
 */
import { Game, type GameSave } from "./engine/research.ts";
import { readRules } from "./engine/rules.ts";
import type { Scenario } from "./engine/scenario.ts";
import { getVariant, variantIds } from "./variants/registry.ts";
import { getScenario, scenariosOf } from "./variants/scenarios.ts";

export { adjudicate } from "./engine/adjudicate.ts";
export { formatOrder, type Order } from "./engine/orders.ts";
export { parseOrder } from "./engine/parse.ts";
export { phaseName } from "./engine/phase.ts";
export { type PositionJson, readPosition, writePosition } from "./engine/position-json.ts";
export { type Rng, rng } from "./engine/random.ts";
export {
  Game,
  type GameSave,
  type LegalChoice,
  randomLegalOrders,
  type StepResult,
} from "./engine/research.ts";
export {
  type Board,
  boardOf,
  checkTypedOrder,
  type OrderKind,
  type TypedOrder,
  typedOrder,
} from "./engine/research-board.ts";
export { orderText } from "./engine/research-parsed.ts";
export {
  type OrderResult,
  type OrderTexts,
  type PhaseResult,
  plainResult,
} from "./engine/results.ts";
export { DATC_RULES, HOUSE_RULES, type RuleOptions, readRules } from "./engine/rules.ts";
export type { Scenario } from "./engine/scenario.ts";
export { COASTS, type Position, type Unit } from "./engine/types.ts";
export { getScenario, getVariant, scenariosOf, variantIds };

export interface NewGameOptions {
  /** A variant id (`classical`, `europe1935`); default `classical`. */
  readonly variant?: string;
  /** A scenario of the variant (`7`, `4`, `2`, ...); default its standard game. */
  readonly players?: string;
  /** A rule profile (`datc`, `houserules`) or an object of rule options (docs/rules.md). */
  readonly rules?: unknown;
  /** Seed of the scenario's own random events (a coin toss); default 0. */
  readonly seed?: number;
}

/** The scenario a variant id and player count name, or an error saying what exists. */
export function scenarioOf(variant = "classical", players?: string): Scenario {
  if (!getVariant(variant))
    throw new Error(`unknown variant "${variant}"; known: ${variantIds().join(", ")}`);
  const s = getScenario(variant, players);
  if (!s)
    throw new Error(
      `${variant} has no scenario "${players}"; known: ${scenariosOf(variant)
        .map((x) => x.id)
        .join(", ")}`,
    );
  return s;
}

/** A new game at the start of a variant's scenario. */
export function newGame(options: NewGameOptions = {}): Game {
  const scenario = scenarioOf(options.variant, options.players);
  const rules = readRules(options.rules, scenario.variant.rules);
  if (!rules.ok) throw new Error(rules.error);
  return Game.create(scenario, rules.rules, options.seed ?? 0);
}

/** A game saved with `game.save()` (plain JSON), on its variant and scenario. */
export function loadGame(save: GameSave): Game {
  return Game.load(scenarioOf(save.variant, save.scenario), save);
}
