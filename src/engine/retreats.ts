/**
 * Retreat phases: where a dislodged unit may retreat (`retreatOptions`), the retreat phase
 * over entries, and the board after retreats (centres change hands after a fall, and the
 * adjustments phase is skipped when nobody has anything to adjust).
 */

import { adjustmentNeeded } from "./adjustments.ts";
import { dedupe, type Entry, finish, toResult, unitKey } from "./entries.ts";
import { type InterpretContext, makeContext, retreatTarget } from "./interpret.ts";
import { formatOrder } from "./orders.ts";
import type { OrderResult, PhaseResult } from "./results.ts";
import type { RuleOptions } from "./rules.ts";
import { makePhase, makePosition, makeUnit, withPhase } from "./shapes.ts";
import { mapTables } from "./tables.ts";
import type { DislodgedUnit, Location, Position, PowerId, ProvinceId, Unit } from "./types.ts";
import type { Variant } from "./variant.ts";

/** Every province a dislodged unit may retreat to (with the coast a fleet would take). */
export function retreatOptions(
  variant: Variant,
  pos: Position,
  d: DislodgedUnit,
  rules: RuleOptions,
): readonly Location[] {
  // The units dislodged in one phase are asked about one after another on one position.
  const last = lastRetreatContext;
  const ctx =
    last !== null &&
    last.variant === variant &&
    last.ctx.position === pos &&
    last.ctx.rules === rules
      ? last.ctx
      : makeContext(variant, pos, rules);
  lastRetreatContext = { variant, ctx };
  return retreatsIn(ctx, d);
}

/** `retreatOptions` in a reading of the position already made (`makeContext`). */
export function retreatsIn(ctx: InterpretContext, d: DislodgedUnit): readonly Location[] {
  const { map } = ctx;
  const out: Location[] = [];
  // Lists pushed, not mapped: `map` makes a packed array in the interpreter and a holey one
  // in optimized code, two kinds for the loop below (docs/performance.md, "Warm-up").
  let neighbours: readonly ProvinceId[];
  if (d.type === "A") neighbours = map.armyNeighbours(d.province);
  else {
    const list: ProvinceId[] = [];
    for (const l of map.fleetNeighbours(d)) list.push(l.province);
    neighbours = list;
  }
  const seen = new Set<string>();
  for (const p of neighbours) {
    if (seen.has(p)) continue;
    seen.add(p);
    const reach = map.fleetTargets(d, p);
    if (d.type === "A" || reach.length <= 1) {
      const t = retreatTarget(ctx, d, { province: p, coast: null });
      if ("loc" in t) out.push(t.loc);
      continue;
    }
    for (const l of reach) {
      const t = retreatTarget(ctx, d, { province: p, coast: l.coast });
      if ("loc" in t) out.push(t.loc);
    }
  }
  return out;
}

/** The context `retreatOptions` read last (positions and contexts are immutable). */
let lastRetreatContext: { readonly variant: Variant; readonly ctx: InterpretContext } | null = null;

export function retreatPhase(
  variant: Variant,
  ctx: InterpretContext,
  entries: Entry[],
): PhaseResult {
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
      if (rivals.length > 1 && chosen.get(unitKey(e.order.unit)) === e) {
        e.result = "fails";
        e.reason = `bounced with ${rivals
          .filter((r) => r !== e)
          .map((r) => (r.order ? formatOrder(r.order) : ""))
          .sort()
          .join(", ")}: the retreating units are disbanded`;
      } else if (chosen.get(unitKey(e.order.unit)) === e) {
        const { unit, to } = e.order;
        units.push(makeUnit(unit.power, unit.type, to.province, to.coast));
      }
    }
    results.push(toResult(e));
  }
  for (const d of position.dislodged) {
    const e = chosen.get(unitKey(d));
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
  const next = afterRetreats(
    variant,
    makePosition(position.phase, units, [], [], position.centers),
    rules,
  );
  return finish(variant, position, results, next);
}

const stripDislodged = (d: DislodgedUnit): Unit => makeUnit(d.power, d.type, d.province, d.coast);

/** The position after a season's retreats: spring goes to fall; fall updates centres. */
export function afterRetreats(variant: Variant, pos: Position, rules: RuleOptions): Position {
  const { season, year } = pos.phase;
  if (season === "S" || season === "U") {
    return withPhase(pos, makePhase("F", year, "M"));
  }
  // The centres change hands where a unit stands on another's (or nobody's) centre; when none
  // does, the position keeps its map of owners (`finish` knows centres were counted).
  const t = mapTables(variant.map);
  let centers = pos.centers;
  for (const u of pos.units) {
    const i = t.index.get(u.province);
    if (i === undefined || t.supplyCenter[i] !== 1 || centers.get(u.province) === u.power) continue;
    if (centers === pos.centers) centers = new Map(pos.centers);
    (centers as Map<ProvinceId, PowerId>).set(u.province, u.power);
  }
  const adj = makePosition(
    makePhase("W", year, "A"),
    pos.units,
    pos.dislodged,
    pos.contested,
    centers,
  );
  return adjustmentNeeded(variant, adj, rules)
    ? adj
    : withPhase(adj, makePhase("S", year + 1, "M"));
}
