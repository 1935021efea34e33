/*
 * The end of a Global Diplomacy turn's conflicts (conflicts.ts): the winning moves made (land
 * taken from the unowned or an enemy; an ally passing with access takes nothing, 5.1), then
 * the retreats of the beaten and the dislodged (5.2): back to where a unit came from, else to
 * a friendly area next to it, never into a battle's area; two units of different powers
 * whose only retreat is the same area both die; a unit with nowhere to go dies.
 */
import { GlobalMap } from "./map.ts";
import { hasAccess } from "./state.ts";
import { fail, type Move, ok, type Turn, type WUnit } from "./turn-state.ts";
import type { AreaId, GlobalRules } from "./types.ts";
import { UNIT_POINTS } from "./types.ts";

/** Makes the winning moves and places (or kills) every beaten or dislodged unit. */
export function moveAndRetreat(
  t: Turn,
  rules: GlobalRules,
  moves: readonly Move[],
  dislodged: ReadonlySet<WUnit>,
  battles: ReadonlySet<AreaId>,
): void {
  const { map, units, owners, relNow } = t;
  const pts = (u: WUnit): number => UNIT_POINTS[u.kind];
  const retreating: { u: WUnit; tiers: AreaId[][]; origin?: AreaId }[] = [];
  for (const m of moves) {
    if (!m.failed) {
      m.unit.area = m.to;
      // Land is taken when unowned or the owner's enemy's; an ally passing with access
      // does not take it (5.1 tip).
      const o = owners.get(m.to);
      if (map.area(m.to)!.kind !== "sea" && (o === undefined || relNow(m.unit.power, o) === "war"))
        owners.set(m.to, m.unit.power);
      ok(m.entry);
    }
  }
  const pending = new Set<WUnit>();
  const occupied = (a: AreaId): boolean =>
    units.some((u) => u.alive && u.area === a && !pending.has(u));
  for (const m of moves) if (m.failed) pending.add(m.unit);
  for (const u of dislodged) pending.add(u);
  const friendly = (u: WUnit, a: AreaId): boolean => {
    const area = map.area(a)!;
    if (!GlobalMap.allowed(u.kind, area.kind)) return false;
    if (area.kind === "sea") return true;
    if (battles.has(a)) return false;
    const o = owners.get(a);
    if (o === u.power) return true;
    return (
      o !== undefined && relNow(u.power, o) === "alliance" && hasAccess(t.access, o, u.power, a)
    );
  };
  for (const m of moves) {
    if (!m.failed) continue;
    fail(m.entry, m.failed);
    const u = m.unit;
    const around = (sea: AreaId): AreaId[] =>
      map.neighbours(sea).filter((a) => a !== m.from && friendly(u, a));
    // 5.2: "A unit can not retreat to a land or coastal area where a battle has taken
    // place, even if the area is now empty" -- its own origin included (two other powers
    // fought over the area it left).
    const home: AreaId[] = battles.has(m.from) ? [] : [m.from];
    let tiers: AreaId[][];
    if (m.seas && m.disruptedAt !== undefined && rules.convoyDisruption === "5.5") {
      tiers = [];
      for (let j = m.disruptedAt - 1; j >= 0; j--) tiers.push(around(m.seas[j]!));
      tiers.push(home);
    } else if (m.seas) {
      const last = m.disruptedAt === undefined ? m.seas.length - 1 : m.disruptedAt - 1;
      tiers = [home, last >= 0 ? around(m.seas[last]!) : []];
    } else {
      tiers = [
        home,
        map
          .moves(u.kind, m.from)
          .filter((a) => a !== m.to && map.adjacent(a, m.to) && friendly(u, a)),
      ];
    }
    retreating.push({ u, tiers, origin: m.from });
  }
  for (const u of dislodged) {
    retreating.push({ u, tiers: [map.moves(u.kind, u.area).filter((a) => friendly(u, a))] });
  }
  // Origins first (the area a unit moved from is its own), then the rest; two units of
  // different powers whose only retreat is the same area both die (5.2).
  const taken = new Set<AreaId>();
  const place = (r: { u: WUnit; origin?: AreaId }, a: AreaId | null): void => {
    pending.delete(r.u);
    if (a === null) {
      r.u.alive = false;
      r.u.mark = "dead";
      return;
    }
    if (r.origin !== a) r.u.mark = "retreat";
    r.u.area = a;
    taken.add(a);
  };
  let rest = retreating.filter((r) => {
    if (r.origin !== undefined && r.tiers[0]![0] === r.origin && !occupied(r.origin)) {
      place(r, r.origin);
      return false;
    }
    return true;
  });
  const options = (r: (typeof retreating)[number]): AreaId[] => {
    for (const t of r.tiers) {
      const free = t.filter((a) => !taken.has(a) && !occupied(a));
      if (free.length > 0) return free.sort((x, y) => x - y);
    }
    return [];
  };
  while (rest.length > 0) {
    let progressed = false;
    for (const r of rest.filter((x) => options(x).length === 0)) {
      place(r, null);
      progressed = true;
    }
    rest = rest.filter((r) => pending.has(r.u));
    const sole = new Map<AreaId, typeof rest>();
    for (const r of rest) {
      const o = options(r);
      if (o.length === 1) sole.set(o[0]!, [...(sole.get(o[0]!) ?? []), r]);
    }
    for (const [a, rs] of sole) {
      if (rs.length === 1) {
        place(rs[0]!, a);
        progressed = true;
      } else if (new Set(rs.map((r) => r.u.power)).size > 1) {
        for (const r of rs) place(r, null);
        progressed = true;
      } else {
        const [first, ...others] = [...rs].sort(
          (x, y) => pts(y.u) - pts(x.u) || x.u.area - y.u.area,
        );
        place(first!, a);
        for (const r of others) r.tiers = r.tiers.map((t) => t.filter((x) => x !== a));
        progressed = true;
      }
      break;
    }
    rest = rest.filter((r) => pending.has(r.u));
    if (!progressed && rest.length > 0) {
      const r = [...rest].sort((x, y) => x.u.area - y.u.area)[0]!;
      place(r, options(r)[0]!);
    }
    rest = rest.filter((r) => pending.has(r.u));
  }
}
