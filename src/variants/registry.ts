/*
 * The registry: every Diplomacy variant the project knows (`getVariant`, `variantIds`) and
 * every game family with its own JSON (`getGame`, `gameIds`). Imports nothing of the
 * rules built over them; every game's GameRules by id are in game-rules.ts.
 */
import type { GameFamily, Variant } from "../engine/variant.ts";
import { classical } from "./classical/index.ts";
import { discovery } from "./discovery/index.ts";
import { europe1935 } from "./europe1935/index.ts";
import { global } from "./global/index.ts";

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

/** Games of other families (Global Diplomacy, seed 004), with their own rules and JSON. */
const games: readonly GameFamily[] = [global, discovery];

/** The game family with this id (e.g. "global"), or undefined. */
export function getGame(id: string): GameFamily | undefined {
  return games.find((g) => g.id === id);
}

/** The ids of the game families, in registration order. */
export function gameIds(): readonly string[] {
  return games.map((g) => g.id);
}
