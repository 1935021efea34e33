/*
 * What a variant's map is drawn from and what is built of it (docs/maps.md): the geometry
 * file's format (`GeometrySpec`: anchor points in lon/lat or shapes in map units, neutral
 * land, declared differences, waterways, the look), the provinces and adjacency drawn
 * (`MapSource`, from a Variant by `sourceOfVariant` or from a game family's areas), and the
 * built map (`BuiltMap`) that drawing and the checks read.
 */
import type { Variant } from "../engine/variant.ts";
import type { MultiPoly, Raster, Ring } from "./raster.ts";
import type { MapGeometry, MapStyle } from "./types.ts";

export type LonLat = [number, number];

export interface ProvinceSpec {
  /** Points on land (lon/lat) whose Voronoi cells, clipped to land, make the province. */
  land?: LonLat[];
  /** Points on water (lon/lat) whose cells, clipped to water, make it (seas, lagoons). */
  water?: LonLat[];
  /** The shape itself, in map units (maps that are not geographic). */
  shape?: Ring[];
  /** Where a fleet on each split coast stands (lon/lat, or map units for `shape`). */
  coasts?: Record<string, LonLat>;
  /** Where its unit stands, overriding the computed spot. */
  unit?: LonLat;
  /** Where its name is written, overriding the computed spot. */
  label?: LonLat;
}

export interface NeutralSpec extends ProvinceSpec {
  /** Its name, written in grey (omit for none). */
  name?: string;
}

/** A difference between the drawing and the adjacency that is there on purpose. */
export interface DeclaredDifference {
  between: [string, string];
  /**
   * true: adjacent in the rules though the drawn cells do not touch (a strait: drawn as a
   * line). false: the cells touch but the rules say they are not adjacent.
   */
  adjacent: boolean;
  note: string;
  /** false: not drawn as a line (a generated grid's neighbours across its wrapping edge). */
  draw?: boolean;
}

export interface GeometrySpec {
  /** d3-geo projection and its settings; absent for maps given in map units. */
  projection?: {
    type:
      | "conicConformal"
      | "conicEqualArea"
      | "mercator"
      | "equirectangular"
      | "naturalEarth1"
      | "azimuthalEqualArea";
    rotate?: [number, number] | [number, number, number];
    parallels?: [number, number];
    center?: [number, number];
  };
  /** The lon/lat box the map shows: [[west, south], [east, north]]. */
  extent?: [LonLat, LonLat];
  width: number;
  /** Height in map units (maps given in map units only; otherwise from the projection). */
  height?: number;
  /** Font size of names in map units (default: width / 100). */
  fontSize?: number;
  /** Width in pixels of the raster the check and the places use (default 1800). */
  raster?: number;
  provinces: Record<string, ProvinceSpec>;
  neutral?: Record<string, NeutralSpec>;
  declared?: DeclaredDifference[];
  /** The variant's own look: colours, pieces, sea and land (docs/maps.md). */
  style?: MapStyle;
  /**
   * Waterways through a province (a canal or river that makes it one coast for fleets: the
   * Kiel Canal, the Volga, the Nile), drawn as a line along the lon/lat points.
   */
  waterways?: { name: string; province: string; line: LonLat[] }[];
  /**
   * Names by one rule of size: every province from a size up shows its full name, every one
   * below it its abbreviation (even where the full name would fit). Off: each province its
   * full name where it fits.
   */
  uniformLabels?: boolean;
  /**
   * No province name smaller than `fontSize` at the whole-map view: where even the
   * abbreviation does not fit inside a province beside (or, its unit moved, away from) its
   * unit, it is written at the normal size outside, wholly within one neighbouring cell (a
   * sea first), clear of every unit, name and marker, with a leader line to the province's
   * pole of inaccessibility (docs/maps.md). Off: such a name is written smaller instead.
   */
  normalNames?: boolean;
}

/** A province as the map needs it. */
export interface MapProvince {
  id: string;
  name: string;
  kind: "land" | "coast" | "sea";
  supplyCenter: boolean;
  home?: string | null;
}

/**
 * What a map is drawn for: a variant's provinces, powers and adjacency. Built from a Variant
 * (`sourceOfVariant`), or by a game family that is not one (Global Diplomacy's areas,
 * generated maps): anything with provinces and neighbours can be drawn and checked.
 */
export interface MapSource {
  id: string;
  provinces: readonly MapProvince[];
  powers: readonly { id: string; name: string; letter: string }[];
  /** Pairs of provinces some unit can move between, as "a|b" with a < b. */
  adjacent: ReadonlySet<string>;
  /** Provinces nobody can enter (left out of the check). */
  impassable: ReadonlySet<string>;
}

export function sourceOfVariant(variant: Variant): MapSource {
  const map = variant.map;
  const adjacent = new Set<string>();
  const impassable = new Set<string>();
  const add = (a: string, b: string) => adjacent.add(a < b ? `${a}|${b}` : `${b}|${a}`);
  for (const p of map.provinces) {
    let any = false;
    for (const q of map.armyNeighbours(p.id)) {
      add(p.id, q);
      any = true;
    }
    for (const loc of map.locationsFor("F", p.id)) {
      for (const q of map.fleetNeighbours(loc)) {
        add(p.id, q.province);
        any = true;
      }
    }
    if (!any) impassable.add(p.id);
  }
  return {
    id: variant.id,
    provinces: map.provinces.map((p) => ({
      id: p.id,
      name: p.name,
      kind: p.kind,
      supplyCenter: p.supplyCenter,
      home: p.home,
    })),
    powers: variant.powers.map((p) => ({ id: p.id, name: p.name, letter: p.letter })),
    adjacent,
    impassable,
  };
}

/** Everything built for a variant's map, for drawing and for checking. */
export interface BuiltMap {
  geometry: MapGeometry;
  /** Cell ids in raster order: province ids, then `_` + neutral ids. */
  ids: string[];
  shapes: Map<string, MultiPoly>;
  raster: Raster;
  /** Pairs of ids whose cells share a border ("a|b", a < b), with its length in pixels. */
  touching: Map<string, number>;
  spec: GeometrySpec;
  /** What was drawn: the provinces and their adjacency. */
  source: MapSource;
  /** The names as written: text, centre, font size (provinces and named neutral land). */
  labels: {
    id: string;
    text: string;
    x: number;
    y: number;
    size: number;
    minZoom?: number;
    /** The zoom from which the province's zoomed-in name (zoomLabels) replaces this one. */
    maxZoom?: number;
    /**
     * A name written outside its province (`normalNames`): the line from the name's box to
     * the province's pole of inaccessibility, x1 y1 x2 y2 (the second end inside it).
     */
    leader?: [number, number, number, number];
  }[];
  /**
   * The full names of provinces that show only an abbreviation or a number: written smaller,
   * shown from `minZoom` on in place of the abbreviation (hidden in pictures).
   */
  zoomLabels: { id: string; text: string; x: number; y: number; size: number; minZoom: number }[];
}
