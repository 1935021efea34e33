import type { BuiltMap } from "./geometry.ts";

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
