/*
 * The scenario a command's `--players` names for a variant (selfplay, new, bench bots, daide
 * host): one lookup and one message for them all.
 */
import type { Scenario } from "../engine/scenario.ts";
import { getScenario, scenariosOf } from "../variants/scenarios.ts";
import { CliError } from "./errors.ts";

/** The variant's scenario for `players` (its standard one when left out), or a CliError. */
export function scenarioArg(variantId: string, players: string | undefined): Scenario {
  const scenario = getScenario(variantId, players);
  if (scenario) return scenario;
  const known = scenariosOf(variantId)
    .map((s) => s.id)
    .join(", ");
  throw new CliError(`${variantId} has no scenario "${players}"; choose --players ${known}`);
}
