import type { BuiltMap } from "./geometry-spec.ts";
import { textWidth } from "./places.ts";

/*
 * Does the drawing agree with the rules? Two provinces whose cells share a border must be
 * adjacent (for armies or fleets), and adjacent provinces must share a border, except where
 * the geometry file declares the difference on purpose (a strait drawn as a line).
 */

/** Shared border (in raster pixels) below which two cells count as meeting at a point. */
export const MIN_CONTACT = 5;

/** Every difference between the drawing and the adjacency not declared in the geometry. */
export function adjacencyDifferences(built: BuiltMap): string[] {
  const { adjacent, impassable: closed } = built.source;
  const touching = new Set<string>();
  for (const [key, n] of built.touching) {
    if (n < MIN_CONTACT) continue;
    const [a, b] = key.split("|") as [string, string];
    if (a.startsWith("_") || b.startsWith("_") || closed.has(a) || closed.has(b)) continue;
    touching.add(key);
  }
  const declared = new Map<string, boolean>();
  for (const d of built.spec.declared ?? []) {
    const [a, b] = d.between;
    declared.set(a < b ? `${a}|${b}` : `${b}|${a}`, d.adjacent);
  }
  const out: string[] = [];
  for (const key of adjacent) {
    if (touching.has(key)) continue;
    if (declared.get(key) === true) {
      declared.delete(key);
      continue;
    }
    const n = built.touching.get(key) ?? 0;
    out.push(
      `${key.replace("|", "-")}: adjacent, but the cells do not touch${n ? ` (only ${n} px)` : ""}`,
    );
  }
  for (const key of touching) {
    if (adjacent.has(key)) continue;
    if (declared.get(key) === false) {
      declared.delete(key);
      continue;
    }
    out.push(
      `${key.replace("|", "-")}: the cells touch (${built.touching.get(key)} px) but are not adjacent`,
    );
  }
  for (const [key, adj] of declared) {
    out.push(
      `${key.replace("|", "-")}: declared ${adj ? "adjacent without touching" : "touching without adjacency"}, which is not so`,
    );
  }
  for (const id of built.ids) {
    const shape = built.shapes.get(id);
    if (!id.startsWith("_") && (!shape || shape.length === 0)) out.push(`${id}: has no shape`);
  }
  return out;
}

/**
 * Every name a unit would be drawn over: each name's box (its text's width, 1.1 × its size
 * high) against the footprint of a piece at every spot a unit can stand (each province's
 * unit spot and each split coast's), a square of 0.95 × the token's radius each side of it
 * (round armies, hulls and the blocks of a variant's own pieces all fit in it). The unit's
 * radius is 0.9 × the map's font, as layers.ts draws it. The names for a zoomed-in view
 * (`zoomLabels`) are measured too. Answers "LABEL under UNIT" lines.
 */
export function namesUnderUnits(built: BuiltMap): string[] {
  const g = built.geometry;
  const foot = (g.fontSize ?? g.width / 100) * 0.9 * 0.95;
  const spots: [string, number, number][] = [];
  for (const [id, p] of Object.entries(g.provinces)) {
    spots.push([id, p.unit[0], p.unit[1]]);
    for (const [c, at] of Object.entries(p.coasts ?? {})) spots.push([`${id}/${c}`, at[0], at[1]]);
  }
  const out: string[] = [];
  for (const l of [...built.labels, ...built.zoomLabels]) {
    const hw = textWidth(l.text, l.size) / 2;
    const hh = l.size * 0.55;
    for (const [at, x, y] of spots) {
      if (Math.abs(l.x - x) < hw + foot && Math.abs(l.y - y) < hh + foot) {
        out.push(`${l.id} "${l.text}" under the unit in ${at}`);
      }
    }
  }
  return out;
}

/**
 * What is wrong with the names for a zoomed-in view (`zoomLabels`): each must lie inside its
 * province, clear of every other name (its own abbreviation excepted: the two never show at
 * once), of every other zoomed-in name and of every supply-centre marker, and must take over
 * from its abbreviation (`maxZoom` there) no earlier than that appears. Answers lines naming
 * the province.
 */
export function zoomLabelProblems(built: BuiltMap): string[] {
  const g = built.geometry;
  const fs = g.fontSize ?? g.width / 100;
  const half = (l: { text: string; size: number }) =>
    [textWidth(l.text, l.size) / 2, l.size * 0.55] as const;
  const meet = (
    a: { x: number; y: number; text: string; size: number },
    b: { x: number; y: number; text: string; size: number },
  ) => {
    const [aw, ah] = half(a);
    const [bw, bh] = half(b);
    return Math.abs(a.x - b.x) < aw + bw - 0.01 && Math.abs(a.y - b.y) < ah + bh - 0.01;
  };
  const marks = Object.entries(g.provinces).flatMap(([id, p]) =>
    p.centerMark ? [{ id, x: p.centerMark[0], y: p.centerMark[1] }] : [],
  );
  const out: string[] = [];
  for (const [i, z] of built.zoomLabels.entries()) {
    const own = built.labels.find((l) => l.id === z.id);
    if (built.raster.at(z.x, z.y) !== built.ids.indexOf(z.id))
      out.push(`${z.id} "${z.text}" lies outside it`);
    if (!own) out.push(`${z.id} has a zoomed-in name but no name`);
    else if (own.maxZoom !== z.minZoom || (own.minZoom ?? 1) > z.minZoom)
      out.push(`${z.id} "${z.text}" from ${z.minZoom} does not take over from "${own.text}"`);
    for (const l of built.labels) {
      if (l.id !== z.id && meet(z, l))
        out.push(`${z.id} "${z.text}" over the name ${l.id} "${l.text}"`);
    }
    for (const o of built.zoomLabels.slice(i + 1)) {
      if (meet(z, o)) out.push(`${z.id} "${z.text}" over ${o.id} "${o.text}"`);
    }
    const [hw, hh] = half(z);
    const r = fs * 0.35;
    for (const m of marks) {
      if (Math.abs(m.x - z.x) < hw + r - 0.01 && Math.abs(m.y - z.y) < hh + r - 0.01)
        out.push(`${z.id} "${z.text}" over ${m.id}'s centre marker`);
    }
  }
  return out;
}
