/*
 * The coastline in map units (docs/maps.md): a geometry file's d3-geo projection, the land
 * of Natural Earth (world-atlas, 1:50m) in the map's lon/lat box, unwrapped across the
 * antimeridian, projected, clipped to the frame and simplified (Douglas–Peucker).
 */
import { createRequire } from "node:module";
import {
  type GeoProjection,
  geoAzimuthalEqualArea,
  geoConicConformal,
  geoConicEqualArea,
  geoEquirectangular,
  geoMercator,
  geoNaturalEarth1,
} from "d3-geo";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import type { GeometrySpec, LonLat } from "./geometry-spec.ts";
import type { MultiPoly, Poly, Ring } from "./raster.ts";

export function makeProjection(p: NonNullable<GeometrySpec["projection"]>): GeoProjection {
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

export function boxOutline([[w, s], [e, n]]: [LonLat, LonLat]): LonLat[] {
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
export function projectedLand(
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
