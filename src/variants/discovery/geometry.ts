/**
 * Geometry of a generated map for drawing (spec/maps.md: "squares and their merged areas are
 * already the geometry"). Coordinates are grid units: square (x, y) covers [x, x+1] x
 * [y, y+1], x to the east, y to the south. `mapGeometry` is the whole map in the map's own
 * frame (the moderator's view); `playerGeometry` is what one player may be shown: only the
 * areas it knows, in its own shifted frame (names.ts), so a picture gives nothing away.
 */
import type { AreaId } from "../global/types.ts";
import type { DiscoveryMap, Terrain } from "./areas.ts";
import { coordinates } from "./grid.ts";
import { playerCoordinates } from "./names.ts";

export interface AreaGeometry {
  readonly id: AreaId;
  readonly terrain: Terrain;
  readonly supply: 0 | 1 | 2;
  /** The area's squares, [x, y] each; the first is the anchor (its label goes there). */
  readonly squares: readonly (readonly [number, number])[];
  /**
   * The area's outline as unit segments [[x1, y1], [x2, y2]]: every square side not shared
   * with another square of the area in this frame (a side on the frame's edge is drawn).
   */
  readonly outline: readonly (readonly [readonly [number, number], readonly [number, number]])[];
}

export interface GridGeometry {
  readonly width: number;
  readonly height: number;
  readonly areas: readonly AreaGeometry[];
}

function areaGeometry(
  id: AreaId,
  terrain: Terrain,
  supply: 0 | 1 | 2,
  squares: readonly (readonly [number, number])[],
): AreaGeometry {
  const has = new Set(squares.map(([x, y]) => `${x},${y}`));
  const outline: [readonly [number, number], readonly [number, number]][] = [];
  for (const [x, y] of squares) {
    if (!has.has(`${x},${y - 1}`))
      outline.push([
        [x, y],
        [x + 1, y],
      ]);
    if (!has.has(`${x + 1},${y}`))
      outline.push([
        [x + 1, y],
        [x + 1, y + 1],
      ]);
    if (!has.has(`${x},${y + 1}`))
      outline.push([
        [x, y + 1],
        [x + 1, y + 1],
      ]);
    if (!has.has(`${x - 1},${y}`))
      outline.push([
        [x, y],
        [x, y + 1],
      ]);
  }
  return { id, terrain, supply, squares, outline };
}

/** Every area in the map's own frame: moderator data, never for a player's eyes. */
export function mapGeometry(map: DiscoveryMap): GridGeometry {
  return {
    width: map.width,
    height: map.height,
    areas: map.areas.map((a) =>
      areaGeometry(
        a.id,
        a.terrain,
        a.supply,
        a.squares.map((s) => {
          const c = coordinates(map, s);
          return [c.x, c.y] as const;
        }),
      ),
    ),
  };
}

/** The areas `player` knows, in its own frame. */
export function playerGeometry(
  map: DiscoveryMap,
  player: number,
  known: Iterable<AreaId>,
): GridGeometry {
  const ids = [...new Set(known)].sort((a, b) => a - b);
  return {
    width: map.width,
    height: map.height,
    areas: ids.flatMap((id) => {
      const a = map.areas[id - 1];
      if (a === undefined) return [];
      const squares = a.squares.map((s) => {
        const c = playerCoordinates(map, player, s);
        return [c.x, c.y] as const;
      });
      return [areaGeometry(a.id, a.terrain, a.supply, squares)];
    }),
  };
}
