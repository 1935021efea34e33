import type { MapGeometry } from "../render/types.ts";

/*
 * The projector's board (chair.ts): framed on the part of the map where the game is played,
 * shaped like the screen it is shown on, and drawn large enough to read from the back of a
 * room. Nothing of the drawing (src/render) changes: the board as every page draws it is
 * enlarged here, on the page, from the size it is actually shown at.
 */

type Box = [number, number, number, number];

/** On the projector a unit is at least this many pixels across... */
export const UNIT_PX = 32;
/** ...a province's name at least this font size in pixels (its box about 1.2 times as high)... */
export const NAME_PX = 13.5;

/**
 * The part of the map where the game is played: the box around every place a unit can stand
 * (each province's and coast's unit point), with a margin of a tenth of its size. Large
 * provinces' far corners and the neutral land around (the 1935 map's Sahara, Arabia's south,
 * Siberia's east, the open Atlantic) fall outside.
 */
export function playFrame(g: Pick<MapGeometry, "width" | "height" | "provinces">): Box {
  const pts: [number, number][] = [];
  for (const p of Object.values(g.provinces)) {
    pts.push(p.unit);
    for (const c of Object.values(p.coasts ?? {})) pts.push(c);
  }
  if (pts.length === 0) return [0, 0, g.width, g.height];
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  let [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const m = Math.max(x1 - x0, y1 - y0) * 0.05;
  x0 = Math.max(0, x0 - m);
  y0 = Math.max(0, y0 - m);
  x1 = Math.min(g.width, x1 + m);
  y1 = Math.min(g.height, y1 + m);
  return [x0, y0, x1 - x0, y1 - y0];
}

/**
 * The box widened (or heightened) about its centre to the screen area's shape, kept within
 * the map where it can be: the board fills the area with no band beside it.
 */
export function shapeTo(box: Box, aspect: number, map: { width: number; height: number }): Box {
  let [x, y, w, h] = box;
  if (!(aspect > 0)) return box;
  if (w / h < aspect) {
    const nw = h * aspect;
    x -= (nw - w) / 2;
    w = nw;
  } else {
    const nh = w / aspect;
    y -= (nh - h) / 2;
    h = nh;
  }
  const clamp = (v: number, size: number, whole: number) =>
    size >= whole ? (whole - size) / 2 : Math.min(Math.max(0, v), whole - size);
  return [clamp(x, w, map.width), clamp(y, h, map.height), w, h];
}

/**
 * Enlarges the drawn board for the projector: every unit (and the highlight around it) to at
 * least UNIT_PX across, orders' lines and marks by as much, and every province name to at
 * least NAME_PX, at the scale the board is shown at now.
 */
export function enlarge(svg: SVGSVGElement): void {
  const vb = svg.viewBox.baseVal;
  const shown = svg.getBoundingClientRect();
  if (!vb || vb.width === 0 || shown.width === 0) return;
  // preserveAspectRatio "meet": the smaller of the two scales is the one drawn.
  const px = Math.min(shown.width / vb.width, shown.height / vb.height);
  const units = [...svg.querySelectorAll<SVGGElement>("g.units g.unit")];
  let smallest = Number.POSITIVE_INFINITY;
  for (const u of units) {
    const piece = u.querySelector<SVGGraphicsElement>(".piece") ?? u;
    const b = piece.getBBox();
    smallest = Math.min(smallest, Math.max(b.width, b.height));
  }
  const k = Number.isFinite(smallest) ? Math.max(1, UNIT_PX / (smallest * px)) : 1;
  if (k > 1) {
    for (const u of units) {
      const piece = u.querySelector<SVGGraphicsElement>(".piece") ?? u;
      const b = piece.getBBox();
      const cx = b.x + b.width / 2;
      const cy = b.y + b.height / 2;
      u.setAttribute(
        "transform",
        `translate(${cx} ${cy}) scale(${k.toFixed(3)}) translate(${-cx} ${-cy})`,
      );
    }
    for (const el of svg.querySelectorAll<SVGElement>("g.orders [stroke-width]")) {
      el.setAttribute("stroke-width", String(Number(el.getAttribute("stroke-width")) * k));
    }
    for (const el of svg.querySelectorAll<SVGElement>("g.orders circle, g.centres circle")) {
      el.setAttribute("r", String(Number(el.getAttribute("r")) * Math.min(k, 2)));
    }
  }
  for (const t of svg.querySelectorAll<SVGTextElement>("g.names text")) {
    const size = Number(t.getAttribute("font-size"));
    if (size > 0 && size * px < NAME_PX) t.setAttribute("font-size", String(NAME_PX / px));
  }
}
