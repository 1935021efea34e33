import polygonClipping from "polygon-clipping";
import type { GeometrySpec, MapSource, ProvinceSpec } from "./geometry-spec.ts";

/*
 * Maps that are not a Variant: Global Diplomacy's world (areas with a lon/lat anchor and
 * land/sea edges) and Age of Discovery's generated grids (areas made of squares). Both are
 * turned into a MapSource and a GeometrySpec, then drawn and checked like any variant.
 * The types are structural so that this module imports nothing of those families.
 */

export interface AreaLike {
  readonly id: number | string;
  readonly name: string;
  readonly kind: "land" | "coast" | "sea";
  /** Supply value; above 0 is a supply centre. */
  readonly supply: number;
  readonly capital?: number | string;
  readonly lon: number;
  readonly lat: number;
  readonly adjacency: readonly {
    readonly to: number | string;
    readonly land: boolean;
    readonly sea: boolean;
  }[];
  /** Generated maps: the grid squares (x, y) the area covers. */
  readonly squares?: readonly (readonly [number, number])[];
}

export function sourceOfAreas(
  id: string,
  areas: readonly AreaLike[],
  powers: readonly { id: string | number; name: string; letter?: string }[],
): MapSource {
  const adjacent = new Set<string>();
  const impassable = new Set<string>();
  for (const a of areas) {
    if (a.adjacency.length === 0) impassable.add(String(a.id));
    for (const e of a.adjacency) {
      const [x, y] = [String(a.id), String(e.to)];
      adjacent.add(x < y ? `${x}|${y}` : `${y}|${x}`);
    }
  }
  return {
    id,
    provinces: areas.map((a) => ({
      id: String(a.id),
      name: a.name,
      kind: a.kind,
      supplyCenter: a.supply > 0,
      home: a.capital === undefined ? null : String(a.capital),
    })),
    powers: powers.map((p) => ({
      id: String(p.id),
      name: p.name,
      letter: p.letter ?? p.name.charAt(0).toUpperCase(),
    })),
    adjacent,
    impassable,
  };
}

/**
 * The geometry of a list of areas: each area's squares merged into its shape (a grid of
 * `square` map units per square), or, for areas without squares, its lon/lat anchor on land
 * or water with the given projection (a world map).
 */
export function specOfAreas(
  areas: readonly AreaLike[],
  options: Omit<GeometrySpec, "provinces"> & { square?: number },
): GeometrySpec {
  const size = options.square ?? 20;
  const provinces: Record<string, ProvinceSpec> = {};
  for (const a of areas) {
    if (a.squares && a.squares.length > 0) {
      const cells = a.squares.map(([x, y]) => [
        [
          [x * size, y * size],
          [(x + 1) * size, y * size],
          [(x + 1) * size, (y + 1) * size],
          [x * size, (y + 1) * size],
          [x * size, y * size],
        ],
      ]) as polygonClipping.Polygon[];
      const merged = polygonClipping.union(...(cells as [polygonClipping.Geom]));
      provinces[String(a.id)] = { shape: merged.flat() as [number, number][][] };
    } else {
      provinces[String(a.id)] =
        a.kind === "sea" ? { water: [[a.lon, a.lat]] } : { land: [[a.lon, a.lat]] };
    }
  }
  const { square: _, ...rest } = options;
  return { ...rest, provinces };
}
