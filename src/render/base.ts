/*
 * The last stage of building a map (geometry.ts `buildMap`): the board's base as SVG markup
 * (types.ts `MapGeometry.base`): the sea, each province's cell (land clipped to the
 * coastline, impassable land hatched), borders and coastline, declared straits, waterways,
 * supply-centre markers, split coasts' names, province names with their leader lines, and
 * the zoomed-in names (hidden unless a zooming client shows them); the standard colours.
 */
import type { Cells } from "./cells.ts";
import { LAND, SEA } from "./colour.ts";
import type { BuiltMap } from "./geometry-spec.ts";
import type { Places } from "./places.ts";
import type { Raster } from "./raster.ts";
import { esc, pathData, round } from "./svg.ts";
import type { Point, ProvinceGeometry } from "./types.ts";

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

/** The base markup of a map (see the file's head). */
export function baseMarkup(
  cells: Cells,
  places: Places,
  provinces: Record<string, ProvinceGeometry>,
  zoomLabels: BuiltMap["zoomLabels"],
): string {
  const {
    source: variant,
    spec,
    ids,
    specOf,
    byId,
    project,
    raster,
    width,
    height,
    fontSize,
    land,
    shapes,
    landBorders,
    seaBorders,
  } = cells;
  const { pixels, unitR, labels } = places;
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
  return parts.join("");
}

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
