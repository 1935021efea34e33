/*
 * Writing SVG: numbers to one decimal, a shape as path data, text escaped for markup.
 */
import type { MultiPoly } from "./raster.ts";

export const round = (v: number) => Math.round(v * 10) / 10;

export function pathData(shape: MultiPoly): string {
  let d = "";
  for (const poly of shape) {
    for (const ring of poly) {
      const pts =
        ring.length > 1 && ring[0]?.[0] === ring.at(-1)?.[0] && ring[0]?.[1] === ring.at(-1)?.[1]
          ? ring.slice(0, -1)
          : ring;
      d += `M${pts.map(([x, y]) => `${round(x)} ${round(y)}`).join("L")}Z`;
    }
  }
  return d;
}

export const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
