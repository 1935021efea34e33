/*
 * Pictures of a board (docs/maps.md): an SVG rasterised by resvg with the system's fonts
 * (DejaVu Sans or Liberation Sans), as PNG or as RGBA pixels; a variant's board as PNG.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { Variant } from "../engine/variant.ts";
import { renderSvg } from "./geometry.ts";
import type { BoardView, RenderOptions } from "./types.ts";

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
