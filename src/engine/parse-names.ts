/**
 * The names a reader knows: a map's name index (ids, names, aliases and derived spellings of
 * every province, built once per map and cached) and the powers' index (names, adjectives,
 * aliases, possessives). `nameKey` is the lookup key of a name; `keptFor` what a reader keeps
 * per map and powers (the plain forms' ids, the texts read).
 */

import type { GameMap } from "./map.ts";
import { tokenize } from "./parse-tokens.ts";
import type { Power, PowerId, Province, ProvinceId } from "./types.ts";

/** The lookup key of a name: its tokens, normalised, joined by single spaces. */
export function nameKey(name: string): string {
  return tokenize(name)
    .map((t) => t.text)
    .join(" ");
}

// ---------------------------------------------------------------------------------------------
// What a reader keeps per map and powers (the names it knows)

/** Values kept per map and powers: each kept while its map and its powers are. */
export type PerMapAndPowers<T> = WeakMap<GameMap, WeakMap<readonly Power[], T>>;

/** The value kept for this map and these powers, made by `make` on first use. */
export function keptFor<T>(
  kept: PerMapAndPowers<T>,
  map: GameMap,
  powers: readonly Power[],
  make: () => T,
): T {
  let byPowers = kept.get(map);
  if (!byPowers) {
    byPowers = new WeakMap();
    kept.set(map, byPowers);
  }
  let value = byPowers.get(powers);
  if (value === undefined) {
    value = make();
    byPowers.set(powers, value);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// The name index of a map

export interface NameIndex {
  /** Name key (see `nameKey`) to province. */
  readonly names: ReadonlyMap<string, ProvinceId>;
  /** First words of the names of more than one token. */
  readonly multiFirst: ReadonlySet<string>;
  readonly maxTokens: number;
  readonly provinces: ReadonlyMap<string, Province>;
  /** Every spelling with its province, for suggestions. */
  readonly spellings: readonly (readonly [string, Province])[];
}

const indexCache = new WeakMap<GameMap, NameIndex>();

export function nameIndex(map: GameMap): NameIndex {
  const cached = indexCache.get(map);
  if (cached) return cached;
  const names = new Map<string, ProvinceId>();
  const multiFirst = new Set<string>();
  const provinces = new Map<string, Province>();
  const spellings: [string, Province][] = [];
  let maxTokens = 1;
  const add = (spelling: string, p: Province): void => {
    const tokens = tokenize(spelling);
    if (tokens.length === 0) return;
    const key = tokens.map((t) => t.text).join(" ");
    if (names.has(key)) return;
    names.set(key, p.id);
    spellings.push([key, p]);
    if (tokens.length > 1) {
      multiFirst.add(tokens[0]!.text);
      if (tokens.length > maxTokens) maxTokens = tokens.length;
    }
  };
  for (const p of map.provinces) provinces.set(p.id, p);
  // Ids win over names, names over aliases.
  for (const p of map.provinces) add(p.id, p);
  for (const p of map.provinces) add(p.name, p);
  for (const p of map.provinces) for (const a of p.aliases) add(a, p);
  // Derived spellings: "Saint" for "St", and names of several words run together.
  for (const p of map.provinces) {
    for (const s of [p.name, ...p.aliases]) {
      const words = nameKey(s).split(" ");
      if (words.length < 2) continue;
      const swapped = words.map((w) => (w === "st" ? "saint" : w === "saint" ? "st" : w));
      add(swapped.join(" "), p);
      if (words.every((w) => w !== "-" && w !== "/" && w !== "(" && w !== ")"))
        add(words.join(""), p);
    }
  }

  const index: NameIndex = { names, multiFirst, maxTokens, provinces, spellings };
  indexCache.set(map, index);
  return index;
}

export interface PowerIndex {
  readonly names: ReadonlyMap<string, PowerId>;
  readonly maxTokens: number;
}

const powerCache = new WeakMap<readonly Power[], PowerIndex>();

export function powerIndex(powers: readonly Power[]): PowerIndex {
  const cached = powerCache.get(powers);
  if (cached) return cached;
  const names = new Map<string, PowerId>();
  let maxTokens = 1;
  for (const p of powers) {
    for (const word of [p.adjective, p.name, p.id, ...(p.aliases ?? [])]) {
      for (const spelling of [word, `${word}'s`]) {
        const tokens = tokenize(spelling);
        if (tokens.length === 0) continue;
        const key = tokens.map((t) => t.text).join(" ");
        if (!names.has(key)) names.set(key, p.id);
        if (tokens.length > maxTokens) maxTokens = tokens.length;
      }
    }
  }
  const index: PowerIndex = { names, maxTokens };
  powerCache.set(powers, index);
  return index;
}
