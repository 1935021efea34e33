/**
 * Adjustment phases: each power's builds or removals (`adjustmentCounts`), its build sites
 * (`buildSites`), whether an adjustment phase is needed, the phase over entries, and the
 * order of removal when a power removes too few (`rankForRemoval`, civil disorder).
 */

import { distanceToHome, distanceToOwned } from "./distance.ts";
import { type Entry, finish, successText, toResult } from "./entries.ts";
import type { InterpretContext } from "./interpret.ts";
import { makeResult, type OrderResult, type PhaseResult } from "./results.ts";
import type { RuleOptions } from "./rules.ts";
import { makePhase, makePosition } from "./shapes.ts";
import { mapTables, nextMark, powerTables } from "./tables.ts";
import type { Position, PowerId, ProvinceId, Unit } from "./types.ts";
import type { Variant } from "./variant.ts";

/** Units each power may build (positive) or must remove (negative). */
export function adjustmentCounts(variant: Variant, pos: Position): Map<PowerId, number> {
  const counts = new Map<PowerId, number>();
  for (const p of variant.powers) counts.set(p.id, 0);
  for (const owner of pos.centers.values()) counts.set(owner, (counts.get(owner) ?? 0) + 1);
  for (const u of pos.units) counts.set(u.power, (counts.get(u.power) ?? 0) - 1);
  return counts;
}

/** Home centres where `power` may build now: its own, owned, empty. */
export function buildSites(variant: Variant, pos: Position, power: PowerId): readonly ProvinceId[] {
  const occupied = new Set(pos.units.map((u) => u.province));
  return variant.map
    .homeCenters(power)
    .filter((p) => pos.centers.get(p.id) === power && !occupied.has(p.id))
    .map((p) => p.id);
}

export function adjustmentNeeded(variant: Variant, pos: Position, _rules: RuleOptions): boolean {
  // Over the power tables: centres less units per power; a power the variant does not list
  // (never in play) is counted by `adjustmentCounts`.
  const pt = powerTables(variant);
  const counts = pt.a;
  counts.fill(0);
  for (const owner of pos.centers.values()) {
    const w = pt.index.get(owner);
    if (w === undefined) return adjustmentNeededSlowly(variant, pos);
    counts[w]!++;
  }
  for (const u of pos.units) {
    const w = pt.index.get(u.power);
    if (w === undefined) return adjustmentNeededSlowly(variant, pos);
    counts[w]!--;
  }
  let building = false;
  for (let w = 0; w < counts.length; w++) {
    if (counts[w]! < 0) return true;
    if (counts[w]! > 0) building = true;
  }
  if (!building) return false;
  // A build is due: is there a free owned home centre for it?
  const t = mapTables(variant.map);
  const s = nextMark(t);
  for (const u of pos.units) {
    const i = t.index.get(u.province);
    if (i !== undefined) t.mark[i] = s;
  }
  for (let w = 0; w < counts.length; w++) {
    if (counts[w]! <= 0) continue;
    const power = pt.ids[w]!;
    for (const h of pt.homes[w]!)
      if (t.mark[h] !== s && pos.centers.get(t.ids[h]!) === power) return true;
  }
  return false;
}

function adjustmentNeededSlowly(variant: Variant, pos: Position): boolean {
  for (const [power, n] of adjustmentCounts(variant, pos)) {
    if (n < 0) return true;
    if (n > 0 && buildSites(variant, pos, power).length > 0) return true;
  }
  return false;
}

export function adjustmentPhase(
  variant: Variant,
  ctx: InterpretContext,
  entries: Entry[],
): PhaseResult {
  const { position, rules } = ctx;
  const counts = adjustmentCounts(variant, position);
  const used = new Map<PowerId, number>();
  const taken = new Set<string>();
  const units = [...position.units];
  // Seed 002 V(3): of several builds in one centre, the first or the last written counts.
  const losers = new Set<Entry>();
  const byCentre = new Map<string, Entry[]>();
  for (const e of entries) {
    if (e.order?.kind !== "build") continue;
    const list = byCentre.get(e.order.unit.province) ?? [];
    byCentre.set(e.order.unit.province, list);
    list.push(e);
  }
  for (const list of byCentre.values()) {
    const keep = rules.multipleBuildsOneCentre === "last" ? list[list.length - 1] : list[0];
    for (const e of list) if (e !== keep) losers.add(e);
  }
  // Seed 002 V(2): builds and removals beyond the number allowed: taken in the order written,
  // or from the bottom of the order set up.
  const outcome = new Map<Entry, OrderResult>();
  for (const e of rules.excessAdjustments === "last" ? [...entries].reverse() : entries) {
    const o = e.order;
    if (!o) {
      outcome.set(e, toResult(e));
      continue;
    }
    const n = counts.get(e.power) ?? 0;
    const u = used.get(e.power) ?? 0;
    let fail: string | null = null;
    if (o.kind === "build" || o.kind === "waive") {
      if (n <= 0) fail = n === 0 ? "no builds are due" : `you must remove ${-n} unit(s), not build`;
      else if (u >= n) fail = `only ${n} build(s) allowed, and they are used`;
      else if (o.kind === "build" && (taken.has(o.unit.province) || losers.has(e)))
        fail = `${o.unit.province} already has a build`;
    } else if (o.kind === "remove") {
      if (n >= 0)
        fail =
          n === 0 ? "no removals are due" : `you may build ${n} unit(s); nothing needs removing`;
      else if (taken.has(o.unit.province))
        fail = `the unit in ${o.unit.province} is already removed`;
      else if (u >= -n) fail = `only ${-n} removal(s) needed, and they are made`;
    }
    if (fail) {
      outcome.set(e, makeResult(e.power, e.text, e.order, "fails", fail, fail));
      continue;
    }
    used.set(e.power, u + 1);
    if (o.kind === "build") {
      taken.add(o.unit.province);
      units.push(o.unit);
    } else if (o.kind === "remove") {
      taken.add(o.unit.province);
      const idx = units.findIndex((x) => x.province === o.unit.province);
      units.splice(idx, 1);
    }
    const explanation = e.reason ?? successText(o);
    outcome.set(e, makeResult(e.power, e.text, o, "succeeds", null, explanation));
  }
  const ordered: OrderResult[] = [];
  for (const e of entries) ordered.push(outcome.get(e)!);
  // Civil disorder: removals a power did not order.
  for (const [power, n] of counts) {
    if (n >= 0) continue;
    let missing = -n - (used.get(power) ?? 0);
    if (missing <= 0) continue;
    const mine = units.filter((x) => x.power === power);
    const ranked = rankForRemoval(variant, power, mine, rules, position.centers);
    for (const r of ranked) {
      if (missing-- <= 0) break;
      const idx = units.indexOf(r.unit);
      units.splice(idx, 1);
      ordered.push({
        power,
        text: null,
        order: { kind: "remove", unit: r.unit },
        result: "succeeds",
        reason: null,
        explanation:
          rules.civilDisorderRemoval === "distance"
            ? `removal not ordered: removed as the unit farthest from home (${r.distance} moves)`
            : rules.civilDisorderRemoval === "owned"
              ? `removal not ordered: removed as the unit farthest from the power's supply centres (${r.distance} moves)`
              : "removal not ordered: removed in alphabetical order",
      });
    }
  }
  const next = makePosition(
    makePhase("S", position.phase.year + 1, "M"),
    units,
    [],
    [],
    position.centers,
  );
  return finish(variant, position, ordered, next);
}

/** Units in the order civil disorder removes them. */
export function rankForRemoval(
  variant: Variant,
  power: PowerId,
  units: readonly Unit[],
  rules: RuleOptions,
  centers: ReadonlyMap<ProvinceId, PowerId> = new Map(),
): { unit: Unit; distance: number }[] {
  const name = (u: Unit) => variant.map.province(u.province)?.name ?? u.province;
  const owned = new Set([...centers].filter(([, p]) => p === power).map(([c]) => c));
  const ranked = units.map((unit) => ({
    unit,
    distance:
      rules.civilDisorderRemoval === "distance"
        ? distanceToHome(variant.map, power, unit)
        : rules.civilDisorderRemoval === "owned"
          ? distanceToOwned(variant.map, owned, unit)
          : 0,
  }));
  ranked.sort(
    (a, b) =>
      b.distance - a.distance ||
      (a.unit.type === b.unit.type ? 0 : a.unit.type === "F" ? -1 : 1) ||
      name(a.unit).localeCompare(name(b.unit)),
  );
  return ranked;
}
