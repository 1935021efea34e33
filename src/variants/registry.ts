import type { Variant } from "../engine/variant.ts";
import { classical } from "./classical/index.ts";
import { europe1935 } from "./europe1935/index.ts";

/** Every variant the project knows; add a new one here. */
const variants: readonly Variant[] = [classical, europe1935];

const byId = new Map(variants.map((v) => [v.id, v]));

/** The variant with this id, or undefined. */
export function getVariant(id: string): Variant | undefined {
  return byId.get(id);
}

/** The ids of all known variants, in registration order. */
export function variantIds(): readonly string[] {
  return variants.map((v) => v.id);
}
