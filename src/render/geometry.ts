import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Delaunay } from "d3-delaunay";
import {
  type GeoProjection,
  geoAzimuthalEqualArea,
  geoConicConformal,
  geoConicEqualArea,
  geoEquirectangular,
  geoMercator,
  geoNaturalEarth1,
  geoPath,
} from "d3-geo";
import polygonClipping from "polygon-clipping";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import type { Variant } from "../engine/variant.ts";
import { getVariant } from "../variants/registry.ts";
import { LAND, SEA } from "./colour.ts";
import { drawBoard } from "./layers.ts";
import { type MultiPoly, type Poly, Raster, type Ring } from "./raster.ts";
import type {
  BoardView,
  MapGeometry,
  MapStyle,
  Point,
  ProvinceGeometry,
  RenderOptions,
} from "./types.ts";

/*
 * A variant's map, drawn from its own data (docs/maps.md): real coastlines (Natural Earth
 * through world-atlas), a projection fitted to the variant's region, and each province the
 * Voronoi cells of its anchor points clipped to land or to water. Variants whose maps are not
 * geographic (generated grids) give their shapes directly in map units. Computed once per
 * variant and kept in memory.
 */

type LonLat = [number, number];

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

const here = dirname(fileURLToPath(import.meta.url));
const variantsDir = join(here, "..", "variants");
const registered = new Map<string, () => GeometrySpec>();

/** Lets a variant supply its geometry in code (a generated map) instead of a file. */
export function registerGeometry(variantId: string, spec: () => GeometrySpec): void {
  registered.set(variantId, spec);
  cache.delete(variantId);
}

/** The variant's geometry spec: registered, or src/variants/ID/geometry.json. */
export function geometrySpec(variantId: string): GeometrySpec | undefined {
  const fn = registered.get(variantId);
  if (fn) return fn();
  const file = join(variantsDir, variantId, "geometry.json");
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, "utf8")) as GeometrySpec;
}

export class NoGeometryError extends Error {}

const cache = new Map<string, BuiltMap>();

/** The variant's map, built on first use and cached. */
export function builtMap(variant: Variant): BuiltMap {
  const hit = cache.get(variant.id);
  if (hit) return hit;
  const spec = geometrySpec(variant.id);
  if (!spec) {
    throw new NoGeometryError(
      `variant ${variant.id} has no map geometry (src/variants/${variant.id}/geometry.json; see docs/maps.md)`,
    );
  }
  const built = buildMap(variant, spec);
  cache.set(variant.id, built);
  return built;
}

export function mapGeometry(variant: Variant): MapGeometry {
  return builtMap(variant).geometry;
}

export function renderSvg(variant: Variant, view: BoardView, options?: RenderOptions): string {
  return drawBoard(mapGeometry(variant), view, options);
}

/** Fonts resvg loads for names (docs/maps.md): DejaVu Sans or Liberation Sans. */
const FONT_DIRS = ["/usr/share/fonts", "/usr/local/share/fonts"];

/** The board as PNG (resvg, with the system's fonts: docs/maps.md). */
export function renderPng(
  variant: Variant,
  view: BoardView,
  options?: RenderOptions & { width?: number },
): Buffer {
  return svgToPng(renderSvg(variant, view, options), options?.width);
}

type ResvgModule = typeof import("@resvg/resvg-js");
let resvg: ResvgModule | null = null;

/** An SVG as PNG, `width` pixels wide (default: 1.5 times the SVG's own size). */
export function svgToPng(svg: string, width?: number): Buffer {
  return rasterise(svg, width).asPng();
}

/** An SVG as RGBA pixels, `width` pixels wide (default: 1.5 times the SVG's own size). */
export function svgToRgba(
  svg: string,
  width?: number,
): { pixels: Buffer; width: number; height: number } {
  const image = rasterise(svg, width);
  return { pixels: image.pixels, width: image.width, height: image.height };
}

function rasterise(svg: string, width?: number) {
  resvg ??= createRequire(import.meta.url)("@resvg/resvg-js") as ResvgModule;
  const r = new resvg.Resvg(svg, {
    fitTo: width ? { mode: "width", value: width } : { mode: "zoom", value: 1.5 },
    font: {
      loadSystemFonts: true,
      fontDirs: FONT_DIRS.filter((d) => existsSync(d)),
      defaultFontFamily: "DejaVu Sans",
      sansSerifFamily: "DejaVu Sans",
    },
  });
  return r.render();
}

// ---------------------------------------------------------------------------------------
// Building

function makeProjection(p: NonNullable<GeometrySpec["projection"]>): GeoProjection {
  const make = {
    conicConformal: geoConicConformal,
    conicEqualArea: geoConicEqualArea,
    mercator: geoMercator,
    equirectangular: geoEquirectangular,
    naturalEarth1: geoNaturalEarth1,
    azimuthalEqualArea: geoAzimuthalEqualArea,
  }[p.type];
  if (!make) throw new Error(`unknown projection ${p.type}`);
  const proj = make() as GeoProjection & { parallels?: (p: [number, number]) => unknown };
  if (p.rotate) proj.rotate(p.rotate);
  if (p.center) proj.center(p.center);
  if (p.parallels && proj.parallels) proj.parallels(p.parallels);
  return proj;
}

function boxOutline([[w, s], [e, n]]: [LonLat, LonLat]): LonLat[] {
  const pts: LonLat[] = [];
  const steps = 40;
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    pts.push(
      [w + (e - w) * t, s],
      [w + (e - w) * t, n],
      [w, s + (n - s) * t],
      [e, s + (n - s) * t],
    );
  }
  return pts;
}

let landCache: MultiPoly | null = null;
function worldLand(): MultiPoly {
  if (landCache) return landCache;
  const require = createRequire(import.meta.url);
  const topo = require("world-atlas/land-50m.json") as Topology<{ land: GeometryCollection }>;
  const f = feature(topo, topo.objects.land);
  const out: MultiPoly = [];
  for (const g of f.features) {
    const geom = g.geometry;
    if (geom.type === "Polygon") out.push(geom.coordinates as Poly);
    else if (geom.type === "MultiPolygon") out.push(...(geom.coordinates as MultiPoly));
  }
  landCache = out;
  return out;
}

function ringArea(r: Ring): number {
  let a = 0;
  for (let i = 0; i < r.length; i++) {
    const p = r[i] as [number, number];
    const q = r[(i + 1) % r.length] as [number, number];
    a += p[0] * q[1] - q[0] * p[1];
  }
  return a / 2;
}

/** Douglas–Peucker on a closed ring. */
function simplify(ring: Ring, tol: number): Ring {
  if (ring.length < 8) return ring;
  const keep = new Uint8Array(ring.length);
  keep[0] = 1;
  keep[ring.length - 1] = 1;
  const stack: [number, number][] = [[0, ring.length - 1]];
  const far = ring.reduce(
    (best, p, i) => {
      const d = (p[0] - (ring[0] as Ring[0])[0]) ** 2 + (p[1] - (ring[0] as Ring[0])[1]) ** 2;
      return d > best[0] ? [d, i] : best;
    },
    [0, 0] as [number, number],
  )[1];
  keep[far] = 1;
  stack.length = 0;
  stack.push([0, far], [far, ring.length - 1]);
  while (stack.length > 0) {
    const [a, b] = stack.pop() as [number, number];
    const A = ring[a] as [number, number];
    const B = ring[b] as [number, number];
    const dx = B[0] - A[0];
    const dy = B[1] - A[1];
    const len = Math.hypot(dx, dy) || 1;
    let maxD = -1;
    let idx = -1;
    for (let i = a + 1; i < b; i++) {
      const P = ring[i] as [number, number];
      const d = Math.abs(dx * (A[1] - P[1]) - dy * (A[0] - P[0])) / len;
      if (d > maxD) {
        maxD = d;
        idx = i;
      }
    }
    if (idx >= 0 && maxD > tol) {
      keep[idx] = 1;
      stack.push([a, idx], [idx, b]);
    }
  }
  return ring.filter((_, i) => keep[i]);
}

type BBox = [number, number, number, number];
function bboxOf(poly: Poly): BBox {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const [x, y] of poly[0] ?? []) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return [x0, y0, x1, y1];
}
const overlaps = (a: BBox, b: BBox) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** Sutherland–Hodgman: a ring clipped to an axis-aligned box (the box is convex). */
function clipRing(ring: Ring, [x0, y0, x1, y1]: BBox): Ring {
  let out = ring;
  const edges: [(p: Ring[0]) => boolean, (a: Ring[0], b: Ring[0]) => Ring[0]][] = [
    [(p) => p[0] >= x0, (a, b) => [x0, a[1] + ((b[1] - a[1]) * (x0 - a[0])) / (b[0] - a[0])]],
    [(p) => p[0] <= x1, (a, b) => [x1, a[1] + ((b[1] - a[1]) * (x1 - a[0])) / (b[0] - a[0])]],
    [(p) => p[1] >= y0, (a, b) => [a[0] + ((b[0] - a[0]) * (y0 - a[1])) / (b[1] - a[1]), y0]],
    [(p) => p[1] <= y1, (a, b) => [a[0] + ((b[0] - a[0]) * (y1 - a[1])) / (b[1] - a[1]), y1]],
  ];
  for (const [inside, cut] of edges) {
    const input = out;
    out = [];
    for (let i = 0; i < input.length; i++) {
      const cur = input[i] as Ring[0];
      const prev = input[(i + input.length - 1) % input.length] as Ring[0];
      if (inside(cur)) {
        if (!inside(prev)) out.push(cut(prev, cur));
        out.push(cur);
      } else if (inside(prev)) out.push(cut(prev, cur));
    }
    if (out.length === 0) break;
  }
  return out;
}

/** Land in map units: rings clipped to the region in lon/lat, projected, clipped, simplified. */
function projectedLand(
  proj: GeoProjection,
  extent: [LonLat, LonLat],
  width: number,
  height: number,
): Ring[] {
  // The lon/lat box that covers the frame: the frame's edge mapped back, with a margin.
  const m = 4;
  let [[w, s], [e, n]] = extent;
  if (proj.invert) {
    for (let t = 0; t <= 1; t += 1 / 64) {
      for (const xy of [
        [t * width, 0],
        [t * width, height],
        [0, t * height],
        [width, t * height],
      ] as [number, number][]) {
        const ll = proj.invert(xy);
        if (!ll || !Number.isFinite(ll[0]) || !Number.isFinite(ll[1])) continue;
        w = Math.min(w, ll[0]);
        e = Math.max(e, ll[0]);
        s = Math.min(s, ll[1]);
        n = Math.max(n, ll[1]);
      }
    }
  }
  const [[w0], [e0]] = extent;
  const box: BBox = [
    Math.max(-180, w0 - 40, w - m),
    Math.max(-89.9, s - m),
    Math.min(180, e0 + 40, e + m),
    Math.min(89.9, n + m),
  ];
  const frame: BBox = [-2, -2, width + 2, height + 2];
  const tol = width / 2500;
  const minArea = (width / 700) ** 2;
  const rings: Ring[] = [];
  for (const poly of worldLand()) {
    if (!overlaps(bboxOf(poly), box)) continue;
    for (const ring of poly.flatMap(acrossAntimeridian)) {
      const ll = clipRing(ring, box);
      if (ll.length < 3) continue;
      const pr: Ring = [];
      for (const [j, pt] of ll.entries()) {
        // Long edges (the box's own, after clipping) follow the projection's curves.
        const next = ll[(j + 1) % ll.length] as Ring[0];
        const long = Math.abs(next[0] - pt[0]) > 90; // an edge along the antimeridian cut
        const steps = long
          ? 1
          : Math.ceil(Math.max(Math.abs(next[0] - pt[0]), Math.abs(next[1] - pt[1])) / 0.5);
        for (let t = 0; t < steps; t++) {
          const xy = proj([
            pt[0] + ((next[0] - pt[0]) * t) / steps,
            pt[1] + ((next[1] - pt[1]) * t) / steps,
          ]);
          if (xy) pr.push([xy[0], xy[1]]);
        }
      }
      const clipped = clipRing(pr, frame);
      if (clipped.length < 3) continue;
      const simple = simplify([...clipped, clipped[0] as Ring[0]], tol);
      if (simple.length >= 4 && Math.abs(ringArea(simple)) >= minArea) rings.push(simple);
    }
  }
  return rings;
}

/**
 * A ring that crosses the antimeridian (an edge jumping from 180 to -180: Chukotka, Fiji)
 * unwrapped into continuous longitudes, once as is and once shifted a whole turn, so that
 * clipping to the map's box keeps each side; other rings as they are.
 */
function acrossAntimeridian(ring: Ring): Ring[] {
  let off = 0;
  let jumped = false;
  const out: Ring = [];
  for (const [i, [lon, lat]] of ring.entries()) {
    const prev = out[i - 1];
    if (prev) {
      const d = lon + off - prev[0];
      if (d > 180) off -= 360;
      else if (d < -180) off += 360;
      if (d > 180 || d < -180) jumped = true;
    }
    out.push([lon + off, lat]);
  }
  const first = out[0];
  const last = out.at(-1);
  // A ring round a pole (Antarctica) does not close when unwrapped: kept as it is.
  if (!jumped || !first || !last || Math.abs(first[0] - last[0]) > 180) return [ring];
  const min = Math.min(...out.map((p) => p[0]));
  const shift = min < -180 ? 360 : -360;
  return [out, out.map(([x, y]): Ring[0] => [x + shift, y])];
}

/** The segments two Voronoi cells share (their common vertices). */
function sharedEdge(a: Ring, b: Ring): [Point, Point] | null {
  const eq = (p: Ring[0], q: Ring[0]) =>
    Math.abs(p[0] - q[0]) < 1e-6 && Math.abs(p[1] - q[1]) < 1e-6;
  const common: Point[] = [];
  for (const p of a.slice(0, -1)) if (b.some((q) => eq(p, q))) common.push([p[0], p[1]]);
  return common.length >= 2 ? [common[0] as Point, common[1] as Point] : null;
}

function pathData(shape: MultiPoly): string {
  const r = (v: number) => Math.round(v * 10) / 10;
  let d = "";
  for (const poly of shape) {
    for (const ring of poly) {
      const pts =
        ring.length > 1 && ring[0]?.[0] === ring.at(-1)?.[0] && ring[0]?.[1] === ring.at(-1)?.[1]
          ? ring.slice(0, -1)
          : ring;
      d += `M${pts.map(([x, y]) => `${r(x)} ${r(y)}`).join("L")}Z`;
    }
  }
  return d;
}

const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * DejaVu Sans' advance widths (em) of the letters and digits; accented letters take their
 * base letter's, anything else 0.6.
 */
const ADVANCE: Record<string, number> = {
  ...Object.fromEntries(
    [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((c, i) => [
      c,
      [
        0.684, 0.686, 0.698, 0.77, 0.632, 0.575, 0.775, 0.752, 0.295, 0.295, 0.656, 0.557, 0.863,
        0.748, 0.787, 0.603, 0.787, 0.695, 0.635, 0.611, 0.732, 0.684, 0.989, 0.685, 0.611, 0.685,
      ][i] as number,
    ]),
  ),
  ...Object.fromEntries(
    [..."abcdefghijklmnopqrstuvwxyz"].map((c, i) => [
      c,
      [
        0.613, 0.635, 0.55, 0.635, 0.615, 0.352, 0.635, 0.634, 0.278, 0.278, 0.579, 0.278, 0.974,
        0.634, 0.612, 0.635, 0.635, 0.411, 0.521, 0.392, 0.634, 0.592, 0.818, 0.592, 0.592, 0.525,
      ][i] as number,
    ]),
  ),
  ...Object.fromEntries([..."0123456789"].map((c) => [c, 0.636])),
  " ": 0.318,
  ".": 0.318,
  ",": 0.318,
  "-": 0.361,
  "'": 0.275,
  "’": 0.318,
  "(": 0.39,
  ")": 0.39,
};

/**
 * The width of a name in map units, for DejaVu Sans (the face the SVG asks for first), with
 * 6% to spare for a browser's own layout of it (Chromium measures "HOL" at 13 as 29 units).
 */
export function textWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const c of text) em += ADVANCE[c] ?? ADVANCE[c.normalize("NFD").charAt(0)] ?? 0.6;
  return em * fontSize * 1.06;
}

export const COLOURS = {
  sea: SEA,
  land: LAND,
  neutralLand: "#d9d4c7",
  impassable: "#b8b3a8",
  border: "#7a6f5a",
  seaBorder: "#7fa6c8",
  label: "#222",
};

/** A colour darkened by a quarter (borders drawn in the sea's own tone). */
function darker(hex: string): string {
  const v = Number.parseInt(hex.replace("#", ""), 16);
  const c = [16, 8, 0].map((k) => Math.round(((v >> k) & 255) * 0.75));
  return `#${c.map((x) => x.toString(16).padStart(2, "0")).join("")}`;
}

export function buildMap(from: Variant | MapSource, spec: GeometrySpec): BuiltMap {
  const variant = "map" in from ? sourceOfVariant(from) : from;
  const byId = new Map(variant.provinces.map((p) => [p.id, p]));
  const provinceIds = variant.provinces.map((p) => p.id);
  const problems: string[] = [];
  for (const id of Object.keys(spec.provinces)) {
    if (!byId.has(id)) problems.push(`geometry names ${id}, which is not a province`);
  }
  for (const id of provinceIds)
    if (!spec.provinces[id]) problems.push(`province ${id} has no geometry`);
  if (problems.length > 0) throw new Error(`${variant.id} geometry: ${problems.join("; ")}`);

  const ids = [...provinceIds, ...Object.keys(spec.neutral ?? {}).map((k) => `_${k}`)];
  const specOf = (id: string): NeutralSpec =>
    (id.startsWith("_") ? spec.neutral?.[id.slice(1)] : spec.provinces[id]) as NeutralSpec;

  let width = spec.width;
  let height = spec.height ?? 0;
  let project: (p: LonLat) => Point = (p) => [p[0], p[1]];
  const shapes = new Map<string, MultiPoly>();

  let land: Ring[] | null = null;
  const landBorders: string[] = [];
  const seaBorders: string[] = [];
  const anchorCells: { owner: number; medium: "land" | "water"; ring: Ring }[] = [];
  if (spec.projection) {
    if (!spec.extent) throw new Error(`${variant.id} geometry: a projection needs an extent`);
    const proj = makeProjection(spec.projection);
    const outline = { type: "MultiPoint" as const, coordinates: boxOutline(spec.extent) };
    proj.fitWidth(width, outline);
    const b = geoPath(proj).bounds(outline);
    height = Math.ceil(b[1][1]);
    width = Math.ceil(b[1][0]);
    project = (p) => {
      const xy = proj(p);
      if (!xy) throw new Error(`cannot project ${p}`);
      return [xy[0], xy[1]];
    };
    land = projectedLand(proj, spec.extent, width, height);
    for (const medium of ["land", "water"] as const) {
      const owners: number[] = [];
      const pts: Point[] = [];
      ids.forEach((id, i) => {
        for (const a of specOf(id)[medium] ?? []) {
          owners.push(i);
          pts.push(project(a));
        }
      });
      if (pts.length === 0) continue;
      const delaunay = Delaunay.from(pts);
      const vor = delaunay.voronoi([0, 0, width, height]);
      const cells: (Ring | null)[] = pts.map(
        (_, i) => (vor.cellPolygon(i) as unknown as Ring | null) ?? null,
      );
      const byOwner = new Map<number, Poly[]>();
      cells.forEach((ring, i) => {
        if (!ring) return;
        const owner = owners[i] as number;
        anchorCells.push({ owner, medium, ring });
        byOwner.set(owner, [...(byOwner.get(owner) ?? []), [ring]]);
        for (const j of vor.neighbors(i)) {
          if (j < i || owners[j] === owner) continue;
          const other = cells[j];
          const edge = other ? sharedEdge(ring, other) : null;
          if (!edge) continue;
          const [[x1, y1], [x2, y2]] = edge;
          (medium === "land" ? landBorders : seaBorders).push(
            `M${round(x1)} ${round(y1)}L${round(x2)} ${round(y2)}`,
          );
        }
      });
      for (const [owner, polys] of byOwner) {
        let shape: MultiPoly;
        try {
          shape = polygonClipping.union(...(polys as [polygonClipping.Geom])) as MultiPoly;
        } catch {
          shape = polys;
        }
        const id = ids[owner] as string;
        shapes.set(id, [...(shapes.get(id) ?? []), ...shape]);
      }
    }
  }
  for (const id of ids) {
    const s = specOf(id).shape;
    if (s) shapes.set(id, [s]);
  }
  if (!height) throw new Error(`${variant.id} geometry: a map without a projection needs a height`);

  const fontSize = spec.fontSize ?? width / 100;
  const scale = Math.min(3, (spec.raster ?? 1800) / width);
  const raster = new Raster(width, height, scale);
  if (land) {
    // A pixel belongs to the land cell or the water cell it lies in, as the land mask says.
    const mask = new Raster(width, height, scale);
    mask.fill([land], 0);
    const byMedium = {
      land: new Raster(width, height, scale),
      water: new Raster(width, height, scale),
    };
    for (const c of anchorCells) byMedium[c.medium].fill([[c.ring]], c.owner);
    for (let k = 0; k < raster.cell.length; k++) {
      raster.cell[k] = (mask.cell[k] ? byMedium.land.cell[k] : byMedium.water.cell[k]) as number;
    }
  }
  ids.forEach((id, i) => {
    const s = specOf(id).shape;
    if (s) raster.fill([s], i);
  });
  const touching = new Map<string, number>();
  for (const [key, n] of raster.contacts()) {
    const [a, b] = key.split("|").map(Number) as [number, number];
    const ia = ids[a] as string;
    const ib = ids[b] as string;
    touching.set(ia < ib ? `${ia}|${ib}` : `${ib}|${ia}`, n);
  }

  // Places: each unit at its province's pole of inaccessibility; then names, smallest
  // provinces first, where the name's box fits inside the province clear of units and of
  // other names; then supply-centre markers at the main city where there is room.
  const dist = raster.distances();
  const pixels = raster.pixelsByCell(ids.length);
  const unitR = fontSize * 0.9;
  const toMap = (k: number): Point => [
    ((k % raster.w) + 0.5) / scale,
    (Math.floor(k / raster.w) + 0.5) / scale,
  ];
  const units = ids.map((id, i): Point => {
    const s = specOf(id);
    if (s.unit) return project(s.unit);
    // Well inside (room for the token and a margin), as near the main anchor as that allows.
    const px = pixels[i] ?? [];
    const first = s.land?.[0] ?? s.water?.[0];
    const target = first ? project(first) : null;
    let maxD = 0;
    for (const k of px) maxD = Math.max(maxD, dist[k] as number);
    const enough = Math.min(unitR * 2.2 * scale, maxD * 0.7);
    let best = -1;
    let bestScore = Number.POSITIVE_INFINITY;
    for (const k of px) {
      if ((dist[k] as number) < enough) continue;
      const [x, y] = toMap(k);
      const score = target ? Math.hypot(x - target[0], y - target[1]) : -(dist[k] as number);
      if (score < bestScore) {
        bestScore = score;
        best = k;
      }
    }
    return best >= 0 ? toMap(best) : [0, 0];
  });
  const placedBoxes: [number, number, number, number][] = [];
  const isProvince = ids.map((id) => !id.startsWith("_"));
  // Where a fleet on a split coast stands: a unit's footprint too, which names keep clear of.
  const coastSpots: Point[] = ids.flatMap((id) =>
    isProvince[ids.indexOf(id)] ? Object.values(specOf(id).coasts ?? {}).map(project) : [],
  );
  const clearOf = ([ux, uy]: Point, x: number, y: number, hw: number, hh: number) =>
    Math.abs(ux - x) >= unitR * 1.05 + hw || Math.abs(uy - y) >= unitR * 1.05 + hh;
  const unitFree = (x: number, y: number, hw: number, hh: number, except = -1) =>
    units.every((u, j) => j === except || !isProvince[j] || clearOf(u, x, y, hw, hh)) &&
    coastSpots.every((c) => clearOf(c, x, y, hw, hh));
  const boxFree = (x: number, y: number, hw: number, hh: number, except = -1) =>
    unitFree(x, y, hw, hh, except) &&
    placedBoxes.every(
      ([bx, by, bw, bh]) => Math.abs(bx - x) >= bw + hw || Math.abs(by - y) >= bh + hh,
    );
  const labelFree = (x: number, y: number, hw: number, hh: number) =>
    placedBoxes.every(
      ([bx, by, bw, bh]) => Math.abs(bx - x) >= bw + hw || Math.abs(by - y) >= bh + hh,
    );
  /** Spots for a name of half-size hw × hh around a unit: below, above, then the sides. */
  const besideUnit = (at: Point, hw: number, hh: number): Point[] => {
    const out: Point[] = [];
    const gap = unitR * 1.1;
    for (const dy of [1, -1, 0]) {
      for (const dx of dy === 0 ? [1, -1] : [0, 1, -1]) {
        out.push([at[0] + dx * (gap + hw), at[1] + dy * (gap + hh)]);
      }
    }
    return out;
  };
  const labelAt = new Map<
    string,
    {
      text: string;
      x: number;
      y: number;
      size: number;
      neutral: boolean;
      minZoom?: number;
      maxZoom?: number;
      leader?: [number, number, number, number];
    }
  >();
  const boxOfLabel = new Map<string, [number, number, number, number]>();
  const order = ids
    .map((_, i) => i)
    .sort((x, y) => (pixels[x]?.length ?? 0) - (pixels[y]?.length ?? 0));
  // Provinces named by their abbreviation whether or not the full name would fit (the
  // file's `uniformLabels`: below a size, every province; `placeLabels` below finds it).
  const abbreviated = new Set<string>();
  const unitsAsBuilt = units.map((u) => [...u] as Point);
  const placeLabels = () => {
    for (const i of order) {
      const id = ids[i] as string;
      const s = specOf(id);
      const prov = id.startsWith("_") ? undefined : byId.get(id);
      const name = prov?.name ?? s.name;
      if (!name) continue;
      const px = pixels[i] ?? [];
      let size = prov ? fontSize : fontSize * 0.85;
      let hh = size * 0.55;
      const unit = units[i] as Point;
      let placed: { text: string; x: number; y: number } | null = null;
      let underUnit = false;
      // The file's spot for the name, if no unit stands over it; else the spots nearest it.
      const wanted = s.label ? project(s.label) : null;
      if (
        wanted &&
        !abbreviated.has(id) &&
        unitFree(wanted[0], wanted[1], textWidth(name, size) / 2, hh)
      )
        placed = { text: name, x: wanted[0], y: wanted[1] };
      const away = (k: number) => {
        const [x, y] = toMap(k);
        return wanted ? Math.hypot(x - wanted[0], y - wanted[1]) : -(dist[k] as number);
      };
      const sorted = placed
        ? []
        : px.filter((_, j) => j % 2 === 0 || px.length < 400).sort((a, b) => away(a) - away(b));
      const texts = prov
        ? abbreviated.has(id)
          ? [id.toUpperCase()]
          : [name, id.toUpperCase()]
        : [name];
      for (const text of texts) {
        if (placed) break;
        const hw = textWidth(text, size) / 2;
        for (const k of sorted) {
          if ((dist[k] as number) / scale < hh) {
            if (wanted) continue;
            break;
          }
          const [x, y] = toMap(k);
          if (!raster.boxIn(i, x, y, hw, hh) || !boxFree(x, y, hw, hh)) continue;
          placed = { text, x, y };
          break;
        }
      }
      if (!placed && prov && !s.unit) {
        // No room beside the unit: the name (smaller if need be) where it fits, and the unit
        // moved to the best spot left.
        const text = id.toUpperCase();
        for (const k of spec.normalNames ? [1] : SMALLER) {
          if (placed) break;
          const sz = fontSize * k;
          const hw = textWidth(text, sz) / 2;
          const h2 = sz * 0.55;
          for (const at of sorted) {
            if ((dist[at] as number) / scale < h2) {
              if (wanted) continue;
              break;
            }
            const [x, y] = toMap(at);
            if (!raster.boxIn(i, x, y, hw, h2) || !boxFree(x, y, hw, h2, i)) continue;
            const spot = sorted.find((u) => {
              const [ux, uy] = toMap(u);
              return (
                (Math.abs(ux - x) >= hw + unitR || Math.abs(uy - y) >= h2 + unitR) &&
                raster.at(ux, uy) === i &&
                boxFree(ux, uy, unitR, unitR, i)
              );
            });
            if (spot === undefined) continue;
            units[i] = toMap(spot);
            placed = { text, x, y };
            size = sz;
            hh = h2;
            break;
          }
        }
      }
      // A province too small for a name and a unit side by side: the abbreviation, small, where
      // it fits in the province clear of every unit; else beside its unit wherever that is clear
      // (Gibraltar); only if neither, where it fits best under the unit (the path's title names it).
      const inside = (clear: boolean) => {
        const text = id.toUpperCase();
        for (const k of SMALLER) {
          const sz = fontSize * k;
          const hw = textWidth(text, sz) / 2;
          const h2 = sz * 0.55;
          for (const at of sorted) {
            const [x, y] = toMap(at);
            if (!raster.boxIn(i, x, y, hw, h2 * 0.8)) continue;
            if (clear ? !boxFree(x, y, hw, h2) : !labelFree(x, y, hw, h2)) continue;
            placed = { text, x, y };
            size = sz;
            hh = h2;
            underUnit = !unitFree(x, y, hw, h2);
            return;
          }
        }
      };
      let leader: [number, number, number, number] | undefined;
      if (!placed && prov && spec.normalNames) {
        // Last resort, no name smaller than normal: the abbreviation at the normal size
        // outside, wholly in one other cell (a sea first), clear of every unit, name and
        // marker spot, nearest the province, with a leader line to its pole.
        const text = id.toUpperCase();
        const hw = textWidth(text, fontSize) / 2;
        // The leader ends at the province's point nearest the name among those well inside
        // it (at least a third of the font from its edge; else its pole of inaccessibility).
        let pole = px[0] ?? 0;
        for (const k of px) if ((dist[k] as number) > (dist[pole] as number)) pole = k;
        const deepAll = px.filter((k) => (dist[k] as number) / scale >= fontSize / 3);
        const deep = (deepAll.length ? deepAll : [pole])
          .filter((_, j, a) => j % Math.max(1, Math.floor(a.length / 150)) === 0)
          .map(toMap);
        const [qx, qy] = toMap(pole);
        const isSea = (j: number) => {
          const jd = ids[j] as string;
          const jp = byId.get(jd);
          return jp ? jp.kind === "sea" : !!specOf(jd).water && !specOf(jd).land;
        };
        const step = fontSize * 0.25;
        const reach = fontSize * 8;
        // The leader for a name at (x, y): from its box's edge to the nearest deep point.
        const lineTo = (x: number, y: number): [number, number, number, number] => {
          let best: [number, number, number, number] = [x, y, qx, qy];
          let len = Number.POSITIVE_INFINITY;
          for (const [dx, dy] of deep) {
            const ex = Math.max(x - hw, Math.min(x + hw, dx));
            const ey = Math.max(y - hh, Math.min(y + hh, dy));
            const d = Math.hypot(dx - ex, dy - ey);
            if (d < len) {
              len = d;
              best = [ex, ey, dx, dy];
            }
          }
          return best;
        };
        const spots: { at: Point; len: number }[] = [];
        for (let dy = -reach; dy <= reach; dy += step) {
          for (let dx = -reach; dx <= reach; dx += step) {
            const at: Point = [qx + dx, qy + dy];
            const j = raster.at(at[0], at[1]);
            if (j < 0 || j === i) continue;
            const [a, b, c, d] = lineTo(at[0], at[1]);
            // A sea is preferred to land by a font and a half of line.
            spots.push({ at, len: Math.hypot(c - a, d - b) + (isSea(j) ? 0 : fontSize * 1.5) });
          }
        }
        spots.sort((a, b) => a.len - b.len);
        const markerR = fontSize * 0.35;
        const clearOfMarker = (x: number, y: number) =>
          Math.abs(x - qx) >= hw + markerR * 2 || Math.abs(y - qy) >= hh + markerR * 2;
        for (const {
          at: [x, y],
        } of spots) {
          const j = raster.at(x, y);
          if (!raster.boxIn(j, x, y, hw, hh) || !boxFree(x, y, hw, hh)) continue;
          if (!clearOfMarker(x, y)) continue;
          const line = lineTo(x, y);
          // The line crosses no name already placed; names placed later keep off it.
          const along = pointsAlong(line, fontSize * 0.5);
          if (!along.every(([ax, ay]) => labelFree(ax, ay, 0.5, 0.5))) continue;
          placed = { text, x, y };
          leader = line;
          for (const [ax, ay] of along) placedBoxes.push([ax, ay, 0.5, 0.5]);
          break;
        }
      }
      if (!placed && prov) inside(true);
      if (!placed && prov) {
        // No room inside for both even small: the abbreviation, small, beside the unit where
        // it is clear of every unit and name (a tiny province: Gibraltar, an island).
        const text = id.toUpperCase();
        for (const k of SMALLER) {
          if (placed) break;
          const sz = fontSize * k;
          const hw = textWidth(text, sz) / 2;
          const h2 = sz * 0.55;
          const spot = besideUnit(units[i] as Point, hw, h2).find(([x, y]) =>
            boxFree(x, y, hw, h2),
          );
          if (!spot) continue;
          placed = { text, x: spot[0], y: spot[1] };
          size = sz;
          hh = h2;
        }
      }
      if (!placed && prov) inside(false);
      if (!placed && prov) {
        // Still no room: the abbreviation beside the unit, wherever it is clear.
        const text = id.toUpperCase();
        const hw = textWidth(text, size) / 2;
        const spots: Point[] = [];
        for (const dy of [1, -1, 0]) {
          for (const dx of dy === 0 ? [1, -1] : [0, 1, -1]) {
            spots.push([unit[0] + dx * (unitR + hw + 1), unit[1] + dy * (unitR + hh + 1)]);
          }
        }
        const spot =
          spots.find(([x, y]) => raster.at(x, y) === i && boxFree(x, y, hw, hh)) ??
          spots.find(([x, y]) => boxFree(x, y, hw, hh)) ??
          (spots[0] as Point);
        placed = { text, x: spot[0], y: spot[1] };
      }
      if (placed) {
        const box: [number, number, number, number] = [
          placed.x,
          placed.y,
          textWidth(placed.text, size) / 2,
          hh,
        ];
        placedBoxes.push(box);
        boxOfLabel.set(id, box);
        // A name written small, or under its unit, is for a zoomed-in view (docs/maps.md).
        const small = prov && size < fontSize * 0.99 ? round((1.5 * fontSize) / size) : 0;
        const minZoom = Math.max(small, underUnit ? 2 : 0);
        labelAt.set(id, {
          ...placed,
          size,
          neutral: !prov,
          ...(minZoom ? { minZoom } : {}),
          ...(leader ? { leader: leader.map(round) as [number, number, number, number] } : {}),
        });
      }
    }
  };
  placeLabels();
  if (spec.uniformLabels) {
    // One rule for the whole board: the full name for every province at least as large as
    // the smallest of the largest provinces whose full names all fit, the abbreviation for
    // every smaller one, even where its full name would fit (docs/maps.md).
    const largest = order.filter((i) => byId.has(ids[i] as string)).reverse();
    let cut = largest.length;
    for (const [k, i] of largest.entries()) {
      const id = ids[i] as string;
      if (labelAt.get(id)?.text !== byId.get(id)?.name) {
        cut = k;
        break;
      }
    }
    for (const i of largest.slice(cut)) abbreviated.add(ids[i] as string);
    // Placed again with those choices, from the units' first spots.
    for (const [i, u] of unitsAsBuilt.entries()) units[i] = u;
    placedBoxes.length = 0;
    labelAt.clear();
    boxOfLabel.clear();
    placeLabels();
  }
  const labels = ids.flatMap((id) => {
    const l = labelAt.get(id);
    return l ? [{ id, ...l }] : [];
  });
  const provinces: Record<string, ProvinceGeometry> = {};
  for (const [i, id] of ids.entries()) {
    const prov = id.startsWith("_") ? undefined : byId.get(id);
    if (!prov) continue;
    const s = specOf(id);
    const unit = units[i] as Point;
    const label = labelAt.get(id) ?? { x: unit[0], y: unit[1] };
    const g: ProvinceGeometry = {
      name: prov.name,
      kind: prov.kind,
      center: prov.supplyCenter,
      label: [round(label.x), round(label.y)],
      ...("minZoom" in label && label.minZoom ? { labelMinZoom: label.minZoom } : {}),
      unit: [round(unit[0]), round(unit[1])],
      dislodged: [round(unit[0] + unitR * 1.1), round(unit[1] - unitR * 1.1)],
      home: prov.home,
      path: pathData(shapes.get(id) ?? []),
    };
    if (s.coasts) {
      g.coasts = {};
      for (const [c, p] of Object.entries(s.coasts)) {
        const xy = project(p);
        g.coasts[c] = [round(xy[0]), round(xy[1])];
      }
    }
    if (prov.supplyCenter) {
      const r = fontSize * 0.35;
      const city = s.land?.[0] ? project(s.land[0]) : null;
      const ok = (p: Point) => raster.at(p[0], p[1]) === i && boxFree(p[0], p[1], r, r);
      const candidates: Point[] = [];
      if (city) candidates.push(city);
      for (const reach of [1.7, 2.4]) {
        for (const a of [2, 6, 0, 4, 1, 3, 5, 7]) {
          const ang = (a * Math.PI) / 4;
          candidates.push([
            unit[0] + Math.cos(ang) * unitR * reach,
            unit[1] + Math.sin(ang) * unitR * reach,
          ]);
        }
      }
      let mark = candidates.find(ok);
      if (!mark) {
        // Anywhere in the province that is clear, nearest the unit.
        const near = (pixels[i] ?? [])
          .filter((_, j) => j % 3 === 0)
          .map(toMap)
          .sort(
            (a, b) =>
              Math.hypot(a[0] - unit[0], a[1] - unit[1]) -
              Math.hypot(b[0] - unit[0], b[1] - unit[1]),
          );
        mark = near.find(
          (p) =>
            (dist[Math.floor(p[1] * scale) * raster.w + Math.floor(p[0] * scale)] ?? 0) / scale >=
              r && ok(p),
        );
      }
      mark ??= candidates.find((p) => raster.at(p[0], p[1]) === i) ?? (candidates[1] as Point);
      placedBoxes.push([mark[0], mark[1], r, r]);
      g.centerMark = [round(mark[0]), round(mark[1])];
    }
    provinces[id] = g;
  }

  // Names for a zoomed-in view: where a province shows only its abbreviation (or a world
  // area its number), its full name, smaller, inside it, clear of every unit spot, every
  // other name (zoomed or not) and every centre marker; shown from its zoom on, when the
  // abbreviation gives way to it (docs/maps.md).
  const zoomLabels: BuiltMap["zoomLabels"] = [];
  const readAt = Math.max(1, width / (100 * fontSize));
  const zoomBoxes: [number, number, number, number][] = [];
  const clearOfBoxes = (
    list: [number, number, number, number][],
    skip: unknown,
    x: number,
    y: number,
    hw: number,
    hh: number,
  ) =>
    list.every(
      (b) => b === skip || Math.abs(b[0] - x) >= b[2] + hw || Math.abs(b[1] - y) >= b[3] + hh,
    );
  for (const i of order) {
    const id = ids[i] as string;
    const prov = id.startsWith("_") ? undefined : byId.get(id);
    const own = labelAt.get(id);
    if (!prov || !own || own.text === prov.name) continue;
    const inner = (pixels[i] ?? [])
      .filter((_, j) => j % 2 === 0 || (pixels[i]?.length ?? 0) < 400)
      .sort((a, b) => (dist[b] as number) - (dist[a] as number));
    let found: { x: number; y: number; size: number } | null = null;
    for (const k of ZOOM_SIZES) {
      const sz = fontSize * k;
      const hw = textWidth(prov.name, sz) / 2;
      const hh = sz * 0.55;
      for (const at of inner) {
        if ((dist[at] as number) / scale < hh) break;
        const [x, y] = toMap(at);
        if (!raster.boxIn(i, x, y, hw, hh) || !unitFree(x, y, hw, hh)) continue;
        if (!clearOfBoxes(placedBoxes, boxOfLabel.get(id), x, y, hw, hh)) continue;
        if (!clearOfBoxes(zoomBoxes, null, x, y, hw, hh)) continue;
        found = { x, y, size: sz };
        zoomBoxes.push([x, y, hw, hh]);
        break;
      }
      if (found) break;
    }
    if (!found) continue;
    const minZoom = Math.max(round(((1.5 * fontSize) / found.size) * readAt), own.minZoom ?? 1);
    own.maxZoom = minZoom;
    const z = { text: prov.name, x: found.x, y: found.y, size: found.size, minZoom };
    zoomLabels.push({ id, ...z });
    const g = provinces[id] as ProvinceGeometry;
    g.labelMaxZoom = minZoom;
    g.zoomName = { text: z.text, at: [round(z.x), round(z.y)], size: round(z.size), minZoom };
  }
  for (const l of labels) {
    const m = labelAt.get(l.id)?.maxZoom;
    if (m) l.maxZoom = m;
  }

  // Declared straits are drawn as lines between the nearest points of the two cells.
  const straits: string[] = [];
  for (const d of spec.declared ?? []) {
    if (!d.adjacent || d.draw === false) continue;
    const [a, b] = d.between;
    const line = nearestPoints(raster, ids.indexOf(a), ids.indexOf(b), pixels);
    if (line) {
      const [[x1, y1], [x2, y2]] = line;
      straits.push(
        `<line class="strait" x1="${round(x1)}" y1="${round(y1)}" x2="${round(x2)}" y2="${round(y2)}" stroke="#5a4a32" stroke-width="${round(fontSize * 0.25)}" stroke-dasharray="${round(fontSize * 0.4)} ${round(fontSize * 0.25)}"><title>${esc(d.note)}</title></line>`,
      );
    }
  }

  // Seas are drawn whole beneath the land; land cells are clipped to the coastline.
  const clipId = `land-${variant.id}`;
  const onLand = (id: string) => Boolean(land && specOf(id).land?.length);
  const landPath = land ? pathData([land]) : "";
  const parts: string[] = [];
  const colours = {
    ...COLOURS,
    ...(spec.style?.sea ? { sea: spec.style.sea, seaBorder: darker(spec.style.sea) } : {}),
    ...(spec.style?.land ? { land: spec.style.land } : {}),
  };
  parts.push(`<rect class="sea-bg" width="${width}" height="${height}" fill="${colours.sea}"/>`);
  const hatch = `impassable-${variant.id}`;
  const hs = round(fontSize * 0.45);
  parts.push(
    `<defs>${land ? `<clipPath id="${clipId}"><path d="${landPath}" clip-rule="evenodd"/></clipPath>` : ""}<pattern id="${hatch}" patternUnits="userSpaceOnUse" width="${hs}" height="${hs}" patternTransform="rotate(45)"><rect width="${hs}" height="${hs}" fill="${COLOURS.impassable}"/><line x1="0" y1="0" x2="0" y2="${hs}" stroke="#6b6558" stroke-width="${round(hs * 0.35)}"/></pattern></defs>`,
  );
  const drawCell = (id: string) => {
    const shape = shapes.get(id);
    if (!shape || shape.length === 0) return;
    const d = pathData(shape);
    const clip = onLand(id) ? ` clip-path="url(#${clipId})"` : "";
    if (id.startsWith("_")) {
      const water = !onLand(id) && !specOf(id).shape;
      parts.push(
        `<path class="neutral" d="${d}" fill="${water ? colours.sea : colours.neutralLand}"${clip}${water ? ` stroke="${colours.seaBorder}" stroke-width="${round(fontSize * 0.08)}"` : ""}/>`,
      );
      return;
    }
    const g = provinces[id] as ProvinceGeometry;
    const sea = g.kind === "sea";
    if (clip) g.clip = clipId;
    const stroke = land
      ? ""
      : ` stroke="${sea ? colours.seaBorder : colours.border}" stroke-width="${round(fontSize * 0.1)}"`;
    // A province nobody may enter (Switzerland in 1935) is hatched grey, not drawn as land.
    const closed = variant.impassable.has(id);
    const fill = closed ? `url(#${hatch})` : sea ? colours.sea : colours.land;
    parts.push(
      `<path id="prov-${id}" data-province="${id}" class="prov ${g.kind}${closed ? " impassable" : ""}" d="${d}" fill="${fill}"${clip}${stroke}><title>${esc(g.name)}${closed ? " (impassable)" : ""}</title></path>`,
    );
  };
  const seaFirst = [...ids].sort((x, y) => Number(onLand(x)) - Number(onLand(y)));
  let landStarted = false;
  for (const id of seaFirst) {
    if (onLand(id) && !landStarted) {
      landStarted = true;
      if (seaBorders.length > 0) {
        parts.push(
          `<path class="sea-borders" d="${seaBorders.join("")}" fill="none" stroke="${colours.seaBorder}" stroke-width="${round(fontSize * 0.1)}" pointer-events="none"/>`,
        );
      }
    }
    drawCell(id);
  }
  if (land) {
    parts.push(
      `<path class="borders" d="${landBorders.join("")}" fill="none" stroke="${colours.border}" stroke-width="${round(fontSize * 0.1)}" clip-path="url(#${clipId})" pointer-events="none"/>`,
      `<path class="coastline" d="${landPath}" fill="none" stroke="#5d7f9e" stroke-width="${round(fontSize * 0.1)}" stroke-linejoin="round" pointer-events="none"/>`,
    );
  }
  parts.push(...straits);
  // Waterways are drawn above the owners' tint (layers.ts cuts the base where they begin).
  const waterways: string[] = [];
  for (const w of spec.waterways ?? []) {
    if (!byId.has(w.province)) {
      throw new Error(
        `${variant.id} geometry: waterway ${w.name} names ${w.province}, which is not a province`,
      );
    }
    const pts = w.line.map(project);
    const d = `M${pts.map(([x, y]) => `${round(x)} ${round(y)}`).join("L")}`;
    // Water between two banks: the coastline's colour as a casing, the sea's inside it.
    waterways.push(
      `<path class="waterway-banks" d="${d}" fill="none" stroke="#5d7f9e" stroke-width="${round(fontSize * 0.5)}" stroke-linecap="round" stroke-linejoin="round" pointer-events="none"/>`,
      `<path class="waterway" data-province="${w.province}" d="${d}" fill="none" stroke="${colours.sea}" stroke-width="${round(fontSize * 0.3)}" stroke-linecap="round" stroke-linejoin="round" pointer-events="none"><title>${esc(w.name)}</title></path>`,
    );
  }
  for (const g of Object.values(provinces)) {
    if (!g.centerMark) continue;
    parts.push(
      `<circle class="sc" cx="${g.centerMark[0]}" cy="${g.centerMark[1]}" r="${round(fontSize * 0.3)}" fill="#fff" stroke="#333" stroke-width="${round(fontSize * 0.08)}"/>`,
    );
  }
  // Split coasts named where a fleet on each stands: beside the spot, away from the unit.
  const coastLabels: string[] = [];
  for (const [id, g] of Object.entries(provinces)) {
    for (const [coast, at] of Object.entries(g.coasts ?? {})) {
      const dx = at[0] - g.unit[0];
      const dy = at[1] - g.unit[1];
      const len = Math.hypot(dx, dy) || 1;
      const off = unitR * 1.9;
      const x = at[0] + (dx / len) * off;
      const y = at[1] + (dy / len) * off;
      coastLabels.push(
        `<text class="coast-label" data-province="${id}" data-coast="${coast}" x="${round(x)}" y="${round(y)}" font-size="${round(fontSize * 0.75)}" text-anchor="middle" dominant-baseline="central" fill="${colours.label}" font-style="italic">${esc(coast.toUpperCase())}</text>`,
      );
    }
  }
  const labelParts = labels.map(
    (l) =>
      `<text class="label${l.neutral ? " neutral-label" : ""}" x="${round(l.x)}" y="${round(l.y)}" font-size="${round(l.size)}" text-anchor="middle" dominant-baseline="central" fill="${l.neutral ? "#6b6558" : COLOURS.label}"${l.neutral ? ' font-style="italic"' : ""}${l.maxZoom ? ` data-max-zoom="${l.maxZoom}"` : ""}${l.minZoom ? ` data-min-zoom="${l.minZoom}"` : ""}>${esc(l.text)}</text>`,
  );
  // Hidden unless a zooming client shows them (zoom.ts): pictures keep the abbreviations.
  // Leader lines (normalNames) under the names, from a name written outside to its province.
  labelParts.unshift(
    ...labels.flatMap((l) =>
      l.leader
        ? [
            `<line class="leader" data-province="${esc(l.id)}" x1="${l.leader[0]}" y1="${l.leader[1]}" x2="${l.leader[2]}" y2="${l.leader[3]}" stroke="${COLOURS.label}" stroke-width="${round(fontSize * 0.1)}" stroke-linecap="round" pointer-events="none"/>`,
          ]
        : [],
    ),
  );
  for (const l of zoomLabels) {
    labelParts.push(
      `<text class="label zoom-name" data-province="${esc(l.id)}" x="${round(l.x)}" y="${round(l.y)}" font-size="${round(l.size)}" text-anchor="middle" dominant-baseline="central" fill="${COLOURS.label}" stroke-width="${round(l.size * 0.22)}" data-min-zoom="${l.minZoom}" display="none">${esc(l.text)}</text>`,
    );
  }
  if (waterways.length) parts.push(`<g class="waterways">${waterways.join("")}</g>`);
  parts.push(
    `<g class="labels" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" stroke="#fff" stroke-width="${round(fontSize * 0.22)}" stroke-linejoin="round" paint-order="stroke">${labelParts.join("")}${coastLabels.join("")}</g>`,
  );

  const geometry: MapGeometry = {
    variant: variant.id,
    width,
    height,
    base: parts.join(""),
    provinces,
    powers: variant.powers.map((p) => ({ id: p.id, name: p.name, letter: p.letter })),
    fontSize: round(fontSize),
    ...(spec.style ? { style: spec.style } : {}),
  };
  return {
    geometry,
    ids,
    shapes,
    raster,
    touching,
    spec,
    labels,
    zoomLabels,
    source: variant,
  };
}

const round = (v: number) => Math.round(v * 10) / 10;

/** The sizes (of the map's font) a name is tried at before it gives way to a unit. */
const SMALLER = [1, 0.85, 0.7, 0.6, 0.5];

/** Points along a line x1 y1 x2 y2 about `step` apart, its ends excluded. */
function pointsAlong([x1, y1, x2, y2]: [number, number, number, number], step: number): Point[] {
  const n = Math.max(1, Math.ceil(Math.hypot(x2 - x1, y2 - y1) / step));
  const out: Point[] = [];
  for (let k = 1; k < n; k++) out.push([x1 + ((x2 - x1) * k) / n, y1 + ((y2 - y1) * k) / n]);
  return out;
}

/** The sizes (of the map's font) a zoomed-in name is tried at. */
const ZOOM_SIZES = [0.85, 0.7, 0.6, 0.5, 0.4, 0.33];

function nearestPoints(
  raster: Raster,
  a: number,
  b: number,
  pixels: number[][],
): [Point, Point] | null {
  const pa = pixels[a];
  const pb = pixels[b];
  if (!pa?.length || !pb?.length) return null;
  const edge = (list: number[], idx: number) =>
    list.filter((k) => {
      const c = idx + 1;
      return (
        raster.cell[k - 1] !== c ||
        raster.cell[k + 1] !== c ||
        raster.cell[k - raster.w] !== c ||
        raster.cell[k + raster.w] !== c
      );
    });
  const ea = edge(pa, a);
  const eb = edge(pb, b);
  let best = Number.POSITIVE_INFINITY;
  let pair: [number, number] = [0, 0];
  const step = Math.max(1, Math.floor((ea.length * eb.length) / 4e6));
  for (let i = 0; i < ea.length; i += step) {
    const ka = ea[i] as number;
    const ax = ka % raster.w;
    const ay = Math.floor(ka / raster.w);
    for (const kb of eb) {
      const d = (ax - (kb % raster.w)) ** 2 + (ay - Math.floor(kb / raster.w)) ** 2;
      if (d < best) {
        best = d;
        pair = [ka, kb];
      }
    }
  }
  const toMap = (k: number): Point => [
    ((k % raster.w) + 0.5) / raster.scale,
    (Math.floor(k / raster.w) + 0.5) / raster.scale,
  ];
  return [toMap(pair[0]), toMap(pair[1])];
}

/** Builds the map of a registered variant by id. */
export function mapGeometryById(id: string): MapGeometry | undefined {
  const v = getVariant(id);
  return v ? mapGeometry(v) : undefined;
}
