/*
 * The first stage of building a map (geometry.ts `buildMap`): each province's cells. With a
 * projection, the Voronoi cells of its anchor points on land and on water (d3-delaunay),
 * clipped by a raster to the coastline (coastline.ts), with the borders between provinces;
 * else the shapes the file gives in map units. Then the raster of cells and which cells
 * touch, with the length of their border.
 */
import { Delaunay } from "d3-delaunay";
import { geoPath } from "d3-geo";
import polygonClipping from "polygon-clipping";
import { boxOutline, makeProjection, projectedLand } from "./coastline.ts";
import type { GeometrySpec, LonLat, MapProvince, MapSource, NeutralSpec } from "./geometry-spec.ts";
import { type MultiPoly, type Poly, Raster, type Ring } from "./raster.ts";
import { round } from "./svg.ts";
import type { Point } from "./types.ts";

/** A map's cells, as the later stages (places.ts, province-geometry.ts, base.ts) read them. */
export interface Cells {
  /** What is drawn: the provinces and their adjacency. */
  readonly source: MapSource;
  readonly spec: GeometrySpec;
  readonly byId: ReadonlyMap<string, MapProvince>;
  /** Cell ids in raster order: province ids, then `_` + neutral ids. */
  readonly ids: string[];
  readonly specOf: (id: string) => NeutralSpec;
  readonly width: number;
  readonly height: number;
  /** A lon/lat point (or a point in map units, for maps without a projection) in map units. */
  readonly project: (p: LonLat) => Point;
  readonly shapes: Map<string, MultiPoly>;
  /** The coastline's rings in map units (maps with a projection), else null. */
  readonly land: Ring[] | null;
  /** Borders between provinces' cells, as path data: on land, at sea. */
  readonly landBorders: string[];
  readonly seaBorders: string[];
  readonly fontSize: number;
  /** Raster pixels per map unit. */
  readonly scale: number;
  readonly raster: Raster;
  readonly touching: Map<string, number>;
}

/** Each province's cells, the raster of them and which touch (see the file's head). */
export function provinceCells(variant: MapSource, spec: GeometrySpec): Cells {
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
  return {
    source: variant,
    spec,
    byId,
    ids,
    specOf,
    width,
    height,
    project,
    shapes,
    land,
    landBorders,
    seaBorders,
    fontSize,
    scale,
    raster,
    touching,
  };
}

/** The segments two Voronoi cells share (their common vertices). */
function sharedEdge(a: Ring, b: Ring): [Point, Point] | null {
  const eq = (p: Ring[0], q: Ring[0]) =>
    Math.abs(p[0] - q[0]) < 1e-6 && Math.abs(p[1] - q[1]) < 1e-6;
  const common: Point[] = [];
  for (const p of a.slice(0, -1)) if (b.some((q) => eq(p, q))) common.push([p[0], p[1]]);
  return common.length >= 2 ? [common[0] as Point, common[1] as Point] : null;
}
