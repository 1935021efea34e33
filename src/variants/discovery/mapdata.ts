/**
 * A generated map in Global Diplomacy's map format (src/variants/global/types.ts), so the
 * global rules engine adjudicates Age of Discovery games unchanged.
 */
import { GlobalMap, validateMap } from "../global/map.ts";
import type { Adjacency, Area, MapData, PowerDef } from "../global/types.ts";
import { armyNeighbours, type DiscoveryMap, navalNeighbours } from "./areas.ts";
import { type GenerateOptions, generateMap } from "./generate.ts";
import { coordinates } from "./grid.ts";

/**
 * The players' names: twenty invented realms with twenty different initials (A to T), since
 * the seed's map prints the owner as "the first initial of your name".
 */
export const PLAYER_NAMES: readonly string[] = [
  "Avalon",
  "Brigantia",
  "Calydon",
  "Dalmora",
  "Eldoria",
  "Falkmark",
  "Galdor",
  "Hespera",
  "Istria",
  "Jorvik",
  "Kaldera",
  "Lyonesse",
  "Mercia",
  "Norland",
  "Ostmark",
  "Pelagia",
  "Quivira",
  "Rhodan",
  "Solmark",
  "Thule",
];

/** The letter a player is drawn with on the text map. */
export function playerLetter(player: number): string {
  return PLAYER_NAMES[player - 1]?.[0] ?? "?";
}

export const DISCOVERY_SPIES = 12;
export const DISCOVERY_PERCENT: readonly [number, number] = [900, 1500];
export const DISCOVERY_TURNS: readonly [number, number] = [10, 40];

/**
 * The map as global MapData. Area names are the area ids (each player has their own square
 * names, names.ts; the shared data carries none that would give the layout away). `lon` and
 * `lat` are the anchor square's x and y, `squares` every square, in the map's own frame:
 * moderator data, never for a player's eyes.
 */
export function toMapData(map: DiscoveryMap): MapData {
  const areas = map.areas.map((a): Area => {
    const army = new Set(armyNeighbours(map, a.id));
    const naval = new Set(navalNeighbours(map, a.id));
    const adjacency: Adjacency[] = a.neighbours.map((to) => ({
      to,
      land: army.has(to),
      sea: naval.has(to),
    }));
    const anchor = coordinates(map, a.squares[0]!);
    return {
      id: a.id,
      name: String(a.id),
      kind: a.terrain === "water" ? "sea" : a.terrain,
      region: "discovery",
      supply: a.supply,
      lon: anchor.x,
      lat: anchor.y,
      adjacency,
      squares: a.squares.map((s) => {
        const c = coordinates(map, s);
        return [c.x, c.y] as const;
      }),
    };
  });
  const powers = map.starts.map(
    (s): PowerDef => ({
      id: s.player,
      name: PLAYER_NAMES[s.player - 1]!,
      areas: s.areas,
      units: s.units,
    }),
  );
  return {
    id: "discovery",
    name: "Age of Discovery",
    regions: ["discovery"],
    areas,
    powers,
    spies: DISCOVERY_SPIES,
    percentRange: DISCOVERY_PERCENT,
    turnRange: DISCOVERY_TURNS,
  };
}

/** A generated map ready for the global rules; throws if the data would not validate. */
export function discoveryGlobalMap(options: GenerateOptions): {
  readonly map: DiscoveryMap;
  readonly global: GlobalMap;
} {
  const map = generateMap(options);
  const data = toMapData(map);
  const errors = validateMap(data);
  if (errors.length > 0) {
    throw new Error(`generated map ${options.seed} is not valid:\n  ${errors.join("\n  ")}`);
  }
  return { map, global: new GlobalMap(data) };
}
