/*
 * The third stage of building a map (geometry.ts `buildMap`): each province's geometry as the
 * web client and the drawing read it (types.ts `ProvinceGeometry`: name, unit and dislodged
 * spots, split coasts, outline), with its supply-centre marker at the main city where there
 * is room; then the names for a zoomed-in view, where a province shows only its abbreviation.
 */
import type { Cells } from "./cells.ts";
import type { BuiltMap } from "./geometry-spec.ts";
import { type Places, textWidth } from "./places.ts";
import { pathData, round } from "./svg.ts";
import type { Point, ProvinceGeometry } from "./types.ts";

/** Every province's geometry, centre markers placed (their boxes taken in `places`). */
export function provinceGeometry(cells: Cells, places: Places): Record<string, ProvinceGeometry> {
  const { ids, byId, specOf, project, fontSize, raster, scale, shapes } = cells;
  const { units, labelAt, unitR, boxFree, placedBoxes, pixels, toMap, dist } = places;
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
  return provinces;
}

/**
 * The zoomed-in names; each province given one gets its `zoomName` and `labelMaxZoom`, and
 * its name in `places.labels` the zoom it gives way at.
 */
export function zoomNames(
  cells: Cells,
  places: Places,
  provinces: Record<string, ProvinceGeometry>,
): BuiltMap["zoomLabels"] {
  const { ids, byId, width, fontSize, raster, scale } = cells;
  const { order, labelAt, pixels, dist, toMap, unitFree, placedBoxes, boxOfLabel, labels } = places;
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
  return zoomLabels;
}

/** The sizes (of the map's font) a zoomed-in name is tried at. */
const ZOOM_SIZES = [0.85, 0.7, 0.6, 0.5, 0.4, 0.33];
