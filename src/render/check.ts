import { type BuiltMap, textWidth } from "./geometry.ts";

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
 * radius is 0.9 × the map's font, as layers.ts draws it. Answers "LABEL under UNIT" lines.
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
  for (const l of built.labels) {
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
