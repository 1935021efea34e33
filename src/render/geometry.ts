/*
 * A variant's map, drawn from its own data (docs/maps.md): real coastlines (Natural Earth
 * through world-atlas), a projection fitted to the variant's region, and each province the
 * Voronoi cells of its anchor points clipped to land or to water. Variants whose maps are not
 * geographic (generated grids) give their shapes directly in map units. Computed once per
 * variant and kept in memory.
 *
 * This file finds a variant's geometry file (or the one it registers), builds its map once
 * (`buildMap`, in four stages: cells.ts, places.ts, province-geometry.ts, base.ts) and keeps
 * it; geometry-spec.ts has the file's format and what is built; png.ts makes pictures.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Variant } from "../engine/variant.ts";
import { getVariant } from "../variants/registry.ts";
import { baseMarkup } from "./base.ts";
import { provinceCells } from "./cells.ts";
import {
  type BuiltMap,
  type GeometrySpec,
  type MapSource,
  sourceOfVariant,
} from "./geometry-spec.ts";
import { keptGeometry } from "./kept.ts";
import { drawBoard } from "./layers.ts";
import { placeNames } from "./places.ts";
import { provinceGeometry, zoomNames } from "./province-geometry.ts";
import { round } from "./svg.ts";
import type { BoardView, MapGeometry, RenderOptions } from "./types.ts";

const here = dirname(fileURLToPath(import.meta.url));
const variantsDir = join(here, "..", "variants");
const registered = new Map<string, () => GeometrySpec>();

/** Lets a variant supply its geometry in code (a generated map) instead of a file. */
export function registerGeometry(variantId: string, spec: () => GeometrySpec): void {
  registered.set(variantId, spec);
  cache.delete(variantId);
  drawn.delete(variantId);
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

const drawn = new Map<string, MapGeometry>();

/**
 * The variant's map as drawn: built in this process, else kept on disk by an earlier one
 * (kept.ts), else built now (and kept).
 */
export function mapGeometry(variant: Variant): MapGeometry {
  const built = cache.get(variant.id);
  if (built) return built.geometry;
  let g = drawn.get(variant.id);
  if (!g) {
    const spec = geometrySpec(variant.id);
    g = spec
      ? keptGeometry(sourceOfVariant(variant), spec, () => builtMap(variant).geometry)
      : builtMap(variant).geometry;
    drawn.set(variant.id, g);
  }
  return g;
}

export function renderSvg(variant: Variant, view: BoardView, options?: RenderOptions): string {
  return drawBoard(mapGeometry(variant), view, options);
}

/** A map built from its source and geometry spec, in the four stages (see the file's head). */
export function buildMap(from: Variant | MapSource, spec: GeometrySpec): BuiltMap {
  const variant = "map" in from ? sourceOfVariant(from) : from;
  const cells = provinceCells(variant, spec);
  const places = placeNames(cells);
  const provinces = provinceGeometry(cells, places);
  const zoomLabels = zoomNames(cells, places, provinces);
  const { width, height, fontSize, ids, shapes, raster, touching } = cells;
  const { labels } = places;
  const base = baseMarkup(cells, places, provinces, zoomLabels);

  const geometry: MapGeometry = {
    variant: variant.id,
    width,
    height,
    base,
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

/** Builds the map of a registered variant by id. */
export function mapGeometryById(id: string): MapGeometry | undefined {
  const v = getVariant(id);
  return v ? mapGeometry(v) : undefined;
}
