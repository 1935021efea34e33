import { buildMapData, GlobalMap } from "./map.ts";
import type { MapData } from "./types.ts";
import { AREAS, EDGES, POWERS, REGIONS } from "./world-source.ts";

/** The Global Diplomacy world map (authored; see world-source.ts). */
export const worldData: MapData = buildMapData(
  "global",
  "Global Diplomacy",
  REGIONS,
  AREAS,
  EDGES,
  POWERS,
);

export const worldMap: GlobalMap = new GlobalMap(worldData);

/** Global Diplomacy's id, name and seats (one a power of the world map, none left empty). */
export const worldGame = {
  id: "global",
  name: "Global Diplomacy",
  players: {
    min: worldMap.powers.length,
    max: worldMap.powers.length,
    default: worldMap.powers.length,
  },
} as const;
