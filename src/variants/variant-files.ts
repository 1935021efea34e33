import { type Scenario, standardScenario } from "../engine/scenario.ts";
import type { Variant } from "../engine/variant.ts";
import { loadVariant } from "./data.ts";
import { getVariant } from "./registry.ts";
import { getScenario } from "./scenarios.ts";

/*
 * Variants loaded from a data file (docs/variant.schema.json) rather than built in: a game
 * record carries the file's content (`variantData`, docs/records.md), and so does a judge
 * game created with an uploaded variant. Such a variant plays its standard scenario (one
 * power per seat). Loaded variants are kept by content, so a game read back many times is
 * checked and built once.
 */

const CACHE_MAX = 50;
const cache = new Map<string, Variant>();

export type FileVariant =
  | { readonly ok: true; readonly variant: Variant }
  | { readonly ok: false; readonly errors: readonly string[] };

/** A variant from a data file's parsed JSON, checked; built-in ids are refused. */
export function variantFromData(data: unknown): FileVariant {
  const key = JSON.stringify(data);
  const hit = cache.get(key);
  if (hit) return { ok: true, variant: hit };
  const r = loadVariant(data);
  if (!r.ok) return r;
  if (getVariant(r.variant.id)) {
    return {
      ok: false,
      errors: [
        `id: "${r.variant.id}" is a built-in variant; give the file a different id (or play the built-in one by its id)`,
      ],
    };
  }
  cache.set(key, r.variant);
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return { ok: true, variant: r.variant };
}

/**
 * The scenario a record (or a stored game's record head) is played with: from its
 * `variantData` when it carries one, else the built-in variant's scenario. Undefined when the
 * variant or scenario is unknown; throws nothing.
 */
export function scenarioOfRecord(head: {
  readonly variant: string;
  readonly scenario?: string;
  readonly variantData?: unknown;
}): Scenario | undefined {
  if (head.variantData === undefined) return getScenario(head.variant, head.scenario);
  const r = variantFromData(head.variantData);
  if (!r.ok || r.variant.id !== head.variant) return undefined;
  const s = standardScenario(r.variant);
  return head.scenario === undefined || head.scenario === s.id ? s : undefined;
}

/** Why `scenarioOfRecord` found nothing, for an error message. */
export function fileVariantProblem(head: {
  readonly variant: string;
  readonly variantData?: unknown;
}): string | null {
  if (head.variantData === undefined) return null;
  const r = variantFromData(head.variantData);
  if (!r.ok) return `its variantData is not a valid variant:\n  ${r.errors.join("\n  ")}`;
  if (r.variant.id !== head.variant)
    return `its variantData is the variant "${r.variant.id}", not "${head.variant}"`;
  return null;
}
