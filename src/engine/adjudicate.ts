import { seaRoute } from "./convoy.ts";
import { distanceToHome } from "./distance.ts";
import { type InterpretContext, interpretOrder, makeContext, retreatTarget } from "./interpret.ts";
import { resolveMovement } from "./movement.ts";
import { formatOrder, isMovementOrder, type MovementOrder, type Order } from "./orders.ts";
import { parseOrder } from "./parse.ts";
import type { RuleOptions } from "./rules.ts";
import type {
  DislodgedUnit,
  Location,
  Phase,
  Position,
  PowerId,
  ProvinceId,
  Unit,
} from "./types.ts";
import type { Variant } from "./variant.ts";

/*
 * One phase, adjudicated: orders as text in, results and the next position out. This is the
 * engine's whole public surface for a phase; everything it needs comes in as arguments.
 */

export type ResultKind = "succeeds" | "fails" | "invalid";

export interface OrderResult {
  readonly power: PowerId;
  /** The text as given; null for a unit that got no order (its deemed order follows). */
  readonly text: string | null;
  /** The order as understood; null where the text could not be read. */
  readonly order: Order | null;
  readonly result: ResultKind;
  /** Why it did not succeed; null when it did. */
  readonly reason: string | null;
  /** How it came out, in words a chair can read aloud (strengths, supports, cuts, rules). */
  readonly explanation: string;
}

export interface PhaseResult {
  readonly phase: Phase;
  readonly results: readonly OrderResult[];
  /** The next position, with phases that have nothing to do skipped. */
  readonly next: Position;
  /** A power that reached the victory centres at the end of this phase, if any. */
  readonly winner: PowerId | null;
  /**
   * Units dislodged by this phase's moves (movement phases), with where each may retreat:
   * also those with nowhere to go, which `next` no longer holds.
   */
  readonly dislodged: readonly {
    readonly unit: DislodgedUnit;
    readonly retreats: readonly Location[];
  }[];
}

/** Orders per power, each power's list as it was written. */
export type OrderTexts = ReadonlyMap<PowerId, readonly string[]>;

interface Entry {
  readonly power: PowerId;
  readonly text: string | null;
  order: Order | null;
  result: ResultKind;
  reason: string | null;
  /** The province of the unit the text named, if it could be read. */
  readonly subject: ProvinceId | null;
}

export function adjudicate(
  variant: Variant,
  position: Position,
  orders: OrderTexts,
  rules: RuleOptions,
): PhaseResult {
  const ctx = makeContext(variant, position, rules);
  const entries: Entry[] = [];
  for (const [power, texts] of orders) {
    for (const text of texts) {
      const parsed = parseOrder(text, variant.map, variant.powers);
      if (!parsed.ok) {
        const reason = parsed.error.message;
        entries.push({ power, text, order: null, result: "invalid", reason, subject: null });
        continue;
      }
      const p = parsed.order;
      const subject = "unit" in p ? p.unit.province : null;
      const it = interpretOrder(ctx, power, p);
      entries.push(
        it.ok
          ? { power, text, order: it.order, result: "succeeds", reason: null, subject }
          : { power, text, order: null, result: "invalid", reason: it.reason, subject },
      );
    }
  }
  switch (position.phase.type) {
    case "M":
      return movementPhase(variant, ctx, entries);
    case "R":
      return retreatPhase(variant, ctx, entries);
    case "A":
      return adjustmentPhase(variant, ctx, entries);
  }
}

const unitKey = (u: Unit): string => u.province;

/** What a successful order of a retreat or adjustment phase did. */
function successText(o: Order | null): string {
  switch (o?.kind) {
    case "retreat":
      return `retreated to ${o.to.coast ? `${o.to.province}/${o.to.coast}` : o.to.province}`;
    case "disband":
      return "disbanded";
    case "build":
      return `built ${o.unit.type === "A" ? "an army" : "a fleet"} in ${o.unit.province}`;
    case "remove":
      return `removed the unit in ${o.unit.province}`;
    case "waive":
      return "waived a build";
    default:
      return "succeeded";
  }
}

const toResult = (e: Entry): OrderResult => ({
  power: e.power,
  text: e.text,
  order: e.order,
  result: e.result,
  reason: e.reason,
  explanation: e.reason ?? successText(e.order),
});

/** Applies the duplicate-order rule: one order per unit survives; the others are set aside. */
function dedupe(entries: Entry[], rules: RuleOptions): Map<string, Entry> {
  const byUnit = new Map<string, Entry[]>();
  for (const e of entries) {
    if (!e.order || e.order.kind === "waive" || e.order.kind === "build") continue;
    const k = unitKey(e.order.unit);
    const list = byUnit.get(k);
    if (list) list.push(e);
    else byUnit.set(k, [e]);
  }
  const chosen = new Map<string, Entry>();
  for (const [k, list] of byUnit) {
    if (list.length === 1) {
      chosen.set(k, list[0]!);
      continue;
    }
    const keep =
      rules.duplicateOrders === "first"
        ? list[0]!
        : rules.duplicateOrders === "last"
          ? list[list.length - 1]!
          : null;
    for (const e of list) {
      if (e === keep) continue;
      e.result = "invalid";
      e.reason =
        keep === null
          ? "the unit was ordered more than once, so it holds"
          : `the unit was ordered more than once; "${keep.text}" counts`;
      e.order = null;
    }
    if (keep) chosen.set(k, keep);
  }
  return chosen;
}

function movementPhase(variant: Variant, ctx: InterpretContext, entries: Entry[]): PhaseResult {
  const { position, rules, map } = ctx;
  const chosen = dedupe(entries, rules);

  // An army ordered to a province it cannot reach over land needs fleets that could carry it
  // (DATC 4.E.1: without any, the move is impossible and the army holds).
  const fleetSeas = new Set<ProvinceId>(
    position.units
      .filter((u) => u.type === "F" && map.get(u.province).kind === "sea")
      .map((u) => u.province),
  );
  for (const e of chosen.values()) {
    const o = e.order;
    if (
      o?.kind !== "move" ||
      o.unit.type !== "A" ||
      map.armyAdjacent(o.unit.province, o.to.province)
    ) {
      continue;
    }
    if (!seaRoute(map, o.unit.province, o.to.province, (s) => fleetSeas.has(s))) {
      e.result = "invalid";
      e.reason = `${o.unit.province} is not adjacent to ${o.to.province}, and no chain of fleets could convoy it there`;
      e.order = null;
      chosen.delete(o.unit.province);
    }
  }

  const orders: MovementOrder[] = [];
  const owner: (Entry | null)[] = [];
  for (const unit of position.units) {
    const e = chosen.get(unitKey(unit));
    orders.push(e?.order && isMovementOrder(e.order) ? e.order : { kind: "hold", unit });
    owner.push(e ?? null);
  }
  const res = resolveMovement(map, orders, rules);

  const results: OrderResult[] = [];
  const byEntry = new Map<Entry, number>();
  owner.forEach((e, i) => {
    if (e) byEntry.set(e, i);
  });
  const unitIndex = new Map(position.units.map((u, i) => [u.province as string, i]));
  for (const e of entries) {
    const i = e.order ? byEntry.get(e) : undefined;
    if (i === undefined) {
      // Invalid or set aside: the unit holds; say so when that hold was dislodged.
      const ui = e.subject === null ? undefined : unitIndex.get(e.subject);
      const unit = ui === undefined ? undefined : position.units[ui];
      const by = ui === undefined ? -1 : res.dislodgedBy[ui]!;
      const extra =
        unit?.power === e.power && by !== -1 ? `; the unit held and was ${res.reasons[ui!]}` : "";
      const reason = `${e.reason}${extra}`;
      results.push({
        power: e.power,
        text: e.text,
        order: e.order,
        result: e.result,
        reason,
        explanation: reason,
      });
      continue;
    }
    results.push({
      power: e.power,
      text: e.text,
      order: e.order,
      result: res.success[i] ? "succeeds" : "fails",
      reason: res.success[i] ? null : res.reasons[i]!,
      explanation: res.explanations[i]!,
    });
  }
  position.units.forEach((unit, i) => {
    if (owner[i]) return;
    results.push({
      power: unit.power,
      text: null,
      order: orders[i]!,
      result: res.success[i] ? "succeeds" : "fails",
      reason: res.success[i] ? null : res.reasons[i]!,
      explanation: res.explanations[i]!,
    });
  });

  // The board after the moves.
  const units: Unit[] = [];
  const dislodged: DislodgedUnit[] = [];
  orders.forEach((o, i) => {
    if (o.kind === "move" && res.success[i]) {
      units.push({ ...o.unit, province: o.to.province, coast: o.to.coast });
      return;
    }
    const by = res.dislodgedBy[i]!;
    if (by === -1) units.push(o.unit);
    else {
      const attacker = orders[by]!;
      dislodged.push({
        ...o.unit,
        attackerFrom: attacker.unit.province,
        viaConvoy: res.usesConvoy[by]!,
      });
    }
  });
  const after: Position = {
    phase: { ...position.phase, type: "R" },
    units,
    dislodged,
    contested: res.contested,
    centers: position.centers,
  };
  const options = dislodged.map((unit) => ({
    unit,
    retreats: retreatOptions(variant, after, unit, rules),
  }));
  const anyRetreat = options.some((d) => d.retreats.length > 0);
  const next = anyRetreat
    ? after
    : afterRetreats(variant, { ...after, dislodged: [], contested: [] }, rules);
  return finish(variant, position, results, next, options);
}

/** Every province a dislodged unit may retreat to (with the coast a fleet would take). */
export function retreatOptions(
  variant: Variant,
  pos: Position,
  d: DislodgedUnit,
  rules: RuleOptions,
): readonly Location[] {
  const ctx = makeContext(variant, pos, rules);
  const out: Location[] = [];
  const neighbours =
    d.type === "A"
      ? variant.map.armyNeighbours(d.province)
      : variant.map.fleetNeighbours(d).map((l) => l.province);
  const seen = new Set<string>();
  for (const p of neighbours) {
    if (seen.has(p)) continue;
    seen.add(p);
    const reach = variant.map.fleetTargets(d, p);
    const coasts = d.type === "A" || reach.length <= 1 ? [null] : reach.map((l) => l.coast);
    for (const coast of coasts) {
      const t = retreatTarget(ctx, d, { province: p, coast });
      if ("loc" in t) out.push(t.loc);
    }
  }
  return out;
}

function retreatPhase(variant: Variant, ctx: InterpretContext, entries: Entry[]): PhaseResult {
  const { position, rules } = ctx;
  const chosen = dedupe(entries, rules);
  const targets = new Map<ProvinceId, Entry[]>();
  for (const e of chosen.values()) {
    if (e.order?.kind !== "retreat") continue;
    const list = targets.get(e.order.to.province);
    if (list) list.push(e);
    else targets.set(e.order.to.province, [e]);
  }
  const units: Unit[] = [...position.units];
  const results: OrderResult[] = [];
  for (const e of entries) {
    if (e.order?.kind === "retreat") {
      const rivals = targets.get(e.order.to.province)!;
      if (rivals.length > 1 && chosen.get(e.order.unit.province) === e) {
        e.result = "fails";
        e.reason = `bounced with ${rivals
          .filter((r) => r !== e)
          .map((r) => (r.order ? formatOrder(r.order) : ""))
          .join(", ")}: the retreating units are disbanded`;
      } else if (chosen.get(e.order.unit.province) === e) {
        units.push({ ...e.order.unit, province: e.order.to.province, coast: e.order.to.coast });
      }
    }
    results.push(toResult(e));
  }
  for (const d of position.dislodged) {
    const e = chosen.get(d.province);
    if (e) continue;
    const options = retreatOptions(variant, position, d, rules);
    results.push({
      power: d.power,
      text: null,
      order: { kind: "disband", unit: stripDislodged(d) },
      result: "succeeds",
      reason: null,
      explanation:
        options.length === 0
          ? "disbanded: it had nowhere to retreat"
          : "disbanded: no retreat was ordered",
    });
  }
  const next = afterRetreats(variant, { ...position, units, dislodged: [], contested: [] }, rules);
  return finish(variant, position, results, next);
}

const stripDislodged = (d: DislodgedUnit): Unit => ({
  power: d.power,
  type: d.type,
  province: d.province,
  coast: d.coast,
});

/** The position after a season's retreats: spring goes to fall; fall updates centres. */
function afterRetreats(variant: Variant, pos: Position, rules: RuleOptions): Position {
  const { season, year } = pos.phase;
  if (season === "S" || season === "U") {
    return { ...pos, phase: { season: "F", year, type: "M" } };
  }
  const centers = new Map(pos.centers);
  for (const u of pos.units) {
    if (variant.map.province(u.province)?.supplyCenter) centers.set(u.province, u.power);
  }
  const adj: Position = { ...pos, phase: { season: "W", year, type: "A" }, centers };
  return adjustmentNeeded(variant, adj, rules)
    ? adj
    : { ...adj, phase: { season: "S", year: year + 1, type: "M" } };
}

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

function adjustmentNeeded(variant: Variant, pos: Position, _rules: RuleOptions): boolean {
  for (const [power, n] of adjustmentCounts(variant, pos)) {
    if (n < 0) return true;
    if (n > 0 && buildSites(variant, pos, power).length > 0) return true;
  }
  return false;
}

function adjustmentPhase(variant: Variant, ctx: InterpretContext, entries: Entry[]): PhaseResult {
  const { position, rules } = ctx;
  const counts = adjustmentCounts(variant, position);
  const used = new Map<PowerId, number>();
  const taken = new Set<string>();
  const units = [...position.units];
  const results: OrderResult[] = [];
  for (const e of entries) {
    const o = e.order;
    if (!o) {
      results.push(toResult(e));
      continue;
    }
    const n = counts.get(e.power) ?? 0;
    const u = used.get(e.power) ?? 0;
    let fail: string | null = null;
    if (o.kind === "build" || o.kind === "waive") {
      if (n <= 0) fail = n === 0 ? "no builds are due" : `you must remove ${-n} unit(s), not build`;
      else if (u >= n) fail = `only ${n} build(s) allowed, and they are used`;
      else if (o.kind === "build" && taken.has(o.unit.province))
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
      results.push({ ...toResult(e), result: "fails", reason: fail, explanation: fail });
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
    results.push({ ...toResult(e), result: "succeeds", reason: null });
  }
  // Civil disorder: removals a power did not order.
  for (const [power, n] of counts) {
    if (n >= 0) continue;
    let missing = -n - (used.get(power) ?? 0);
    if (missing <= 0) continue;
    const mine = units.filter((x) => x.power === power);
    const ranked = rankForRemoval(variant, power, mine, rules);
    for (const r of ranked) {
      if (missing-- <= 0) break;
      const idx = units.indexOf(r.unit);
      units.splice(idx, 1);
      results.push({
        power,
        text: null,
        order: { kind: "remove", unit: r.unit },
        result: "succeeds",
        reason: null,
        explanation:
          rules.civilDisorderRemoval === "distance"
            ? `removal not ordered: removed as the unit farthest from home (${r.distance} moves)`
            : "removal not ordered: removed in alphabetical order",
      });
    }
  }
  const next: Position = {
    phase: { season: "S", year: position.phase.year + 1, type: "M" },
    units,
    dislodged: [],
    contested: [],
    centers: position.centers,
  };
  return finish(variant, position, results, next);
}

/** Units in the order civil disorder removes them. */
export function rankForRemoval(
  variant: Variant,
  power: PowerId,
  units: readonly Unit[],
  rules: RuleOptions,
): { unit: Unit; distance: number }[] {
  const name = (u: Unit) => variant.map.province(u.province)?.name ?? u.province;
  const ranked = units.map((unit) => ({
    unit,
    distance:
      rules.civilDisorderRemoval === "distance" ? distanceToHome(variant.map, power, unit) : 0,
  }));
  ranked.sort(
    (a, b) =>
      b.distance - a.distance ||
      (a.unit.type === b.unit.type ? 0 : a.unit.type === "F" ? -1 : 1) ||
      name(a.unit).localeCompare(name(b.unit)),
  );
  return ranked;
}

function finish(
  variant: Variant,
  position: Position,
  results: OrderResult[],
  next: Position,
  dislodged: PhaseResult["dislodged"] = [],
): PhaseResult {
  let winner: PowerId | null = null;
  if (next.centers !== position.centers) {
    const counts = new Map<PowerId, number>();
    for (const owner of next.centers.values()) counts.set(owner, (counts.get(owner) ?? 0) + 1);
    for (const [p, n] of counts) if (n >= variant.victoryCenters) winner = p;
  }
  return { phase: position.phase, results, next, winner, dislodged };
}
