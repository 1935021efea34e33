import { type Scenario, standardScenario } from "../engine/scenario.ts";
import { classicalScenarios } from "./classical/scenarios.ts";
import { getVariant } from "./registry.ts";

/** Scenarios (who plays which powers) per variant; every variant has its standard one. */
const extra: Readonly<Record<string, readonly Scenario[]>> = {
  classical: classicalScenarios,
};

export function scenariosOf(variantId: string): readonly Scenario[] {
  const v = getVariant(variantId);
  if (!v) return [];
  return extra[variantId] ?? [standardScenario(v)];
}

/** A variant's scenario by id (`7`, `4`, `2`, ...); the standard one when `id` is absent. */
export function getScenario(variantId: string, id?: string): Scenario | undefined {
  const list = scenariosOf(variantId);
  if (id === undefined) return list[0];
  return list.find((s) => s.id === id);
}
