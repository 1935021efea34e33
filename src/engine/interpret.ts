/*
 * Interpretation: a parsed order, read against the board, becomes an engine `Order` or is
 * declared invalid with a reason. This is where the rule options about coasts, unit types
 * and illegal orders apply. Nothing here decides whether an order succeeds.
 */

import { minimalRouteSeas, seaRoute } from "./convoy.ts";
import { minusOneList } from "./filled.ts";
import type { GameMap } from "./map.ts";
import type { LocationSpec, Order, ParsedOrder, UnitSpec } from "./orders.ts";
import type { RuleOptions } from "./rules.ts";
import {
  KIND_COAST,
  KIND_LAND,
  KIND_SEA,
  locationSlot,
  type MapTables,
  mapTables,
} from "./tables.ts";
import {
  type DislodgedUnit,
  dislodgedKey,
  type Location,
  type PhaseType,
  type Position,
  type Power,
  type PowerId,
  type ProvinceId,
  type Unit,
} from "./types.ts";
import type { Variant } from "./variant.ts";

export type Interpretation =
  | { readonly ok: true; readonly order: Order }
  | { readonly ok: false; readonly reason: string };

const bad = (reason: string): Interpretation => ({ ok: false, reason });
const good = (order: Order): Interpretation => ({ ok: true, order });

/** Units by province (`ReadonlyMap.get`'s shape). */
export interface UnitLookup {
  get(province: string): Unit | undefined;
}

export interface InterpretContext {
  readonly map: GameMap;
  /** The map's integer tables (the same map, read by index). */
  readonly tables: MapTables;
  readonly powers: readonly Power[];
  readonly position: Position;
  readonly rules: RuleOptions;
  /** Units by province, for the phase being interpreted (dislodged ones in a retreat phase). */
  readonly unitAt: UnitLookup;
  /**
   * Retreat phases: dislodged units by power and province (`dislodgedKey`), since two powers'
   * units may have been dislodged from one province (sequential movement).
   */
  readonly dislodgedAt: ReadonlyMap<string, DislodgedUnit>;
  /** Provinces no unit may enter in this phase (see `Variant.closed`). */
  readonly closed: ReadonlySet<ProvinceId>;
}

const NOTHING_CLOSED: ReadonlySet<ProvinceId> = new Set();
const NO_DISLODGED: ReadonlyMap<string, DislodgedUnit> = new Map();

/** The first unit in each province, looked up through the map's province indices. */
class UnitsByProvince implements UnitLookup {
  constructor(
    private readonly index: ReadonlyMap<string, number>,
    private readonly at: readonly number[],
    private readonly units: readonly Unit[],
  ) {}

  get(province: string): Unit | undefined {
    const i = this.index.get(province);
    if (i === undefined) return undefined;
    const u = this.at[i]!;
    return u === -1 ? undefined : this.units[u];
  }
}

/** Units by province, or null when one stands in a province the map does not have. */
function unitsByProvince(t: MapTables, units: readonly Unit[]): UnitLookup | null {
  const at = minusOneList(t.n);
  for (let u = 0; u < units.length; u++) {
    const i = t.index.get(units[u]!.province);
    if (i === undefined) return null;
    if (at[i] === -1) at[i] = u;
  }
  return new UnitsByProvince(t.index, at, units);
}

export function makeContext(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
): InterpretContext {
  const tables = mapTables(variant.map);
  let unitAt: UnitLookup | null = null;
  let dislodgedAt = NO_DISLODGED;
  // Dislodged units enter orders as plain units, as every other order names them.
  if (position.phase.type === "R") {
    const byProvince = new Map<string, Unit>();
    for (const u of position.dislodged) {
      if (!byProvince.has(u.province))
        byProvince.set(u.province, {
          power: u.power,
          type: u.type,
          province: u.province,
          coast: u.coast,
        });
    }
    unitAt = byProvince;
    const byKey = new Map<string, DislodgedUnit>();
    for (const d of position.dislodged) byKey.set(dislodgedKey(d), d);
    dislodgedAt = byKey;
  } else unitAt = unitsByProvince(tables, position.units);
  if (unitAt === null) {
    const byProvince = new Map<string, Unit>();
    for (const u of position.units) if (!byProvince.has(u.province)) byProvince.set(u.province, u);
    unitAt = byProvince;
  }
  const closed = variant.closed?.(position.phase) ?? NOTHING_CLOSED;
  return {
    map: variant.map,
    tables,
    powers: variant.powers,
    position,
    rules,
    unitAt,
    dislodgedAt,
    closed,
  };
}

/** A province's index, or an exception (as `GameMap.get`) for one the map does not have. */
function indexOf(ctx: InterpretContext, id: ProvinceId): number {
  const i = ctx.tables.index.get(id);
  if (i === undefined) throw new Error(`unknown province ${id}`);
  return i;
}

/** `GameMap.fleetTargets(from, to)`, read from the tables. */
function fleetTargets(ctx: InterpretContext, from: Location, to: ProvinceId): readonly Location[] {
  const t = ctx.tables;
  const f = t.index.get(from.province);
  const d = t.index.get(to);
  if (f === undefined || d === undefined) return ctx.map.fleetTargets(from, to);
  return t.fleetTo[locationSlot(f, from.coast)]![d]!;
}

/** `GameMap.canReach`, read from the tables. */
function canReach(ctx: InterpretContext, unit: Unit, to: ProvinceId): boolean {
  if (unit.type !== "A") return fleetTargets(ctx, unit, to).length > 0;
  const t = ctx.tables;
  const f = t.index.get(unit.province);
  const d = t.index.get(to);
  if (f === undefined || d === undefined) return ctx.map.canReach(unit.type, unit, to);
  return t.armyAdjM[f * t.n + d] === 1;
}

/**
 * Whether a fleet in sea `via` can be part of some convoy from `from` to `to` (a chain of
 * seas through it joins them): a property of the map, worked out once per triple.
 */
function convoyPasses(
  ctx: InterpretContext,
  from: ProvinceId,
  to: ProvinceId,
  via: ProvinceId,
): boolean {
  const t = ctx.tables;
  const a = indexOf(ctx, from);
  const b = indexOf(ctx, to);
  const s = t.seaIndex[indexOf(ctx, via)]!;
  if (s === -1) return seaRoute(ctx.map, from, to, anySea, via);
  t.convoyThrough ??= new Uint8Array(t.n * t.n * t.seas);
  const k = (a * t.n + b) * t.seas + s;
  if (t.convoyThrough[k] === 0)
    t.convoyThrough[k] = seaRoute(ctx.map, from, to, anySea, via) ? 2 : 1;
  return t.convoyThrough[k] === 2;
}

const anySea = (): boolean => true;

const closedReason = (ctx: InterpretContext, p: ProvinceId): string =>
  `${nameOf(ctx, p)} is neutral territory: no unit may enter it now`;

const adjectiveOf = (ctx: InterpretContext, power: PowerId): string =>
  ctx.powers.find((p) => p.id === power)?.adjective ?? power;

const nameOf = (ctx: InterpretContext, id: string): string => ctx.map.province(id)?.name ?? id;

/**
 * The first of the position's units in province `p` (not its dislodged ones): `unitAt`
 * holds exactly that outside retreat phases.
 */
const unitIn = (ctx: InterpretContext, p: ProvinceId): Unit | undefined =>
  ctx.position.phase.type === "R"
    ? ctx.position.units.find((u) => u.province === p)
    : ctx.unitAt.get(p);

const where = (l: Location): string => (l.coast ? `${l.province}/${l.coast}` : l.province);

/** Finds the power's own unit named by the order, or says why it cannot (a string). */
function ownUnit(ctx: InterpretContext, power: PowerId, spec: UnitSpec): Unit | string {
  const phase = ctx.position.phase.type;
  // In a retreat phase the power's own dislodged unit there, if it has one (another power's
  // may have been dislodged from the same province).
  const own =
    phase === "R"
      ? ctx.dislodgedAt.get(dislodgedKey({ power, province: spec.province }))
      : undefined;
  const unit = own
    ? { power: own.power, type: own.type, province: own.province, coast: own.coast }
    : ctx.unitAt.get(spec.province);
  if (!unit) {
    return phase === "R"
      ? `no dislodged unit in ${nameOf(ctx, spec.province)}`
      : `there is no unit in ${nameOf(ctx, spec.province)}`;
  }
  if (unit.power !== power) {
    return `the unit in ${nameOf(ctx, spec.province)} is ${adjectiveOf(ctx, unit.power)}, not yours`;
  }
  if (spec.type && spec.type !== unit.type && ctx.rules.unitType === "strict") {
    return `the unit in ${nameOf(ctx, spec.province)} is ${unit.type === "A" ? "an army" : "a fleet"}, not ${spec.type === "A" ? "an army" : "a fleet"}`;
  }
  return unit;
}

/**
 * Where a unit moving to `to` ends, with the coast rules applied; or why it cannot go.
 * Used for moves and retreats (no convoy: the caller handles armies going by sea).
 */
export function moveTarget(
  ctx: InterpretContext,
  unit: Unit,
  to: LocationSpec,
): { loc: Location } | { reason: string } {
  const { map } = ctx;
  if (unit.type === "A") return { loc: { province: to.province, coast: null } };
  const targets = fleetTargets(ctx, unit, to.province);
  if (targets.length === 0)
    return { reason: `a fleet in ${where(unit)} cannot reach ${nameOf(ctx, to.province)}` };
  if (to.coast) {
    const t = targets.find((l) => l.coast === to.coast);
    if (t) return { loc: t };
    if (map.get(to.province).coasts.length === 0)
      return { loc: { province: to.province, coast: null } };
    // Seed 002 IV(4): a wrong coast is repaired where only one coast can be reached.
    if (ctx.rules.wrongCoast === "repair" && targets.length === 1) return { loc: targets[0]! };
    return {
      reason: `a fleet in ${where(unit)} cannot reach the ${to.coast} coast of ${nameOf(ctx, to.province)}`,
    };
  }
  if (ctx.rules.moveWithoutCoast === "required" && map.get(to.province).coasts.length > 0) {
    return {
      reason: `name the coast of ${nameOf(ctx, to.province)} a fleet is to move to (${targets.map(where).join(" or ")})`,
    };
  }
  if (targets.length === 1) return { loc: targets[0]! };
  if (ctx.rules.moveWithoutCoast === "default") return { loc: targets[0]! };
  return {
    reason: `${nameOf(ctx, to.province)} has two coasts a fleet in ${where(unit)} could reach: name one (${targets.map(where).join(" or ")})`,
  };
}

/** Interprets one parsed order of `power` for the current phase. */
export function interpretOrder(
  ctx: InterpretContext,
  power: PowerId,
  parsed: ParsedOrder,
): Interpretation {
  switch (ctx.position.phase.type) {
    case "M":
      return interpretMovement(ctx, power, parsed);
    case "R":
      return interpretRetreat(ctx, power, parsed);
    case "A":
      return interpretAdjustment(ctx, power, parsed);
  }
}

const phaseWord: Record<PhaseType, string> = {
  M: "a movement phase",
  R: "a retreat phase",
  A: "an adjustment phase",
};

function interpretMovement(ctx: InterpretContext, power: PowerId, p: ParsedOrder): Interpretation {
  if (p.kind === "build" || p.kind === "waive" || p.kind === "disband" || p.kind === "remove") {
    return bad(`${p.kind} is not an order for ${phaseWord.M}; units hold, move, support or convoy`);
  }
  const unit = ownUnit(ctx, power, p.unit);
  if (typeof unit === "string") return bad(unit);
  const { map } = ctx;
  switch (p.kind) {
    case "hold":
      return good({ kind: "hold", unit });
    case "move": {
      if (p.to.province === unit.province)
        return bad("a unit cannot move to the province it is in");
      if (ctx.closed.has(p.to.province)) return bad(closedReason(ctx, p.to.province));
      const { tables } = ctx;
      const d = indexOf(ctx, p.to.province);
      if (tables.impassable[d] === 1)
        return bad(`${nameOf(ctx, p.to.province)} is impassable: no unit may enter it`);
      if (unit.type === "A") {
        if (tables.kind[d] === KIND_SEA) {
          return bad(`an army cannot move to ${nameOf(ctx, p.to.province)}, a sea`);
        }
        const f = indexOf(ctx, unit.province);
        if (tables.armyAdjM[f * tables.n + d] !== 1) {
          // Only possible by convoy; whether a convoy route is ordered is checked with all
          // orders in view (see `checkConvoyRoutes`).
          if (tables.kind[f] !== KIND_COAST || tables.kind[d] !== KIND_COAST) {
            return bad(
              `${nameOf(ctx, unit.province)} is not adjacent to ${nameOf(ctx, p.to.province)}`,
            );
          }
        }
        // The map's `{ province, coast: null }` for the province (readonly, shared).
        return good({ kind: "move", unit, to: tables.plainLoc[d]!, viaConvoy: p.viaConvoy });
      }
      if (tables.kind[d] === KIND_LAND) {
        return bad(`a fleet cannot move to ${nameOf(ctx, p.to.province)}, inland`);
      }
      const t = moveTarget(ctx, unit, p.to);
      if ("reason" in t) return bad(t.reason);
      return good({ kind: "move", unit, to: t.loc, viaConvoy: false });
    }
    case "support": {
      const target = p.supported.province;
      if (target === unit.province) return bad("a unit cannot support itself");
      if (p.arrived && ctx.rules.movement !== "sequential")
        return bad('retrospective support ("S A vie in gal") exists only with sequential movement');
      const reach = p.to ? p.to.province : target;
      // The supporter could not move into a closed province, so it cannot support into it:
      // neither a move there nor a unit holding there.
      if (ctx.closed.has(reach))
        return bad(
          `a unit in ${where(unit)} cannot support into ${nameOf(ctx, reach)}: ${closedReason(ctx, reach)}`,
        );
      if (p.to && p.to.province === target)
        return bad("a supported unit cannot move to where it already is");
      if (!canReach(ctx, unit, reach)) {
        return bad(
          `a unit in ${where(unit)} cannot support into ${nameOf(ctx, reach)}: it could not move there`,
        );
      }
      const there = unitIn(ctx, target);
      const targetType = there?.type ?? p.supported.type ?? "A";
      if (p.to === null)
        return good({ kind: "support", unit, target, targetType, to: null, toCoast: null });
      const to = p.to.province;
      // Written out, not spread: a spread literal is built by a slow generic copy.
      if (p.arrived)
        return good({
          kind: "support",
          unit,
          target,
          targetType,
          to,
          toCoast: null,
          arrived: true,
        });
      return good({ kind: "support", unit, target, targetType, to, toCoast: p.to.coast });
    }
    case "convoy": {
      if (unit.type !== "F") return bad("only fleets can convoy");
      if (map.get(unit.province).kind !== "sea")
        return bad("a fleet can convoy only from a sea province");
      const there = unitIn(ctx, p.convoyed.province);
      // Seed 002 IV(1): with `ignore`, a wrong type written for the convoyed unit is no matter.
      if (p.convoyed.type === "F" && ctx.rules.unitType !== "ignore")
        return bad("only armies can be convoyed");
      if (there && there.type === "F")
        return bad(
          `the unit in ${nameOf(ctx, p.convoyed.province)} is a fleet; only armies can be convoyed`,
        );
      if (p.convoyed.province === p.to.province)
        return bad("a convoyed army cannot move to where it already is");
      if (ctx.closed.has(p.to.province)) return bad(closedReason(ctx, p.to.province));
      if (
        map.get(p.convoyed.province).kind !== "coast" ||
        map.get(p.to.province).kind !== "coast"
      ) {
        return bad("an army can be convoyed only from one coastal province to another");
      }
      if (!convoyPasses(ctx, p.convoyed.province, p.to.province, unit.province)) {
        return bad(
          `a fleet in ${nameOf(ctx, unit.province)} cannot be part of any convoy from ${nameOf(ctx, p.convoyed.province)} to ${nameOf(ctx, p.to.province)}`,
        );
      }
      if (
        ctx.rules.unneededConvoy === "illegal" &&
        !minimalRouteSeas(map, p.convoyed.province, p.to.province).has(unit.province)
      ) {
        return bad(
          `no convoy from ${nameOf(ctx, p.convoyed.province)} to ${nameOf(ctx, p.to.province)} needs a fleet in ${nameOf(ctx, unit.province)}: a shorter chain of seas always does without it`,
        );
      }
      return good({
        kind: "convoy",
        unit,
        from: p.convoyed.province,
        to: p.to.province,
        targetType: "A",
      });
    }
  }
}

function interpretRetreat(ctx: InterpretContext, power: PowerId, p: ParsedOrder): Interpretation {
  if (p.kind === "build" || p.kind === "waive") {
    return bad(`${p.kind} is not an order for ${phaseWord.R}; dislodged units retreat or disband`);
  }
  const unit = ownUnit(ctx, power, p.unit);
  if (typeof unit === "string") return bad(unit);
  switch (p.kind) {
    case "disband":
    case "remove":
      return good({ kind: "disband", unit });
    case "move": {
      const r = retreatTarget(ctx, unit, p.to);
      if ("reason" in r) return bad(r.reason);
      return good({ kind: "retreat", unit, to: r.loc });
    }
    default:
      return bad(`a dislodged unit cannot ${p.kind}; it retreats or disbands`);
  }
}

/** Where a dislodged unit may go, or why not (occupied, contested, the attacker's origin). */
export function retreatTarget(
  ctx: InterpretContext,
  unit: Unit,
  to: LocationSpec,
): { loc: Location } | { reason: string } {
  const { map, position } = ctx;
  if (ctx.closed.has(to.province)) return { reason: closedReason(ctx, to.province) };
  if (!canReach(ctx, unit, to.province)) {
    return {
      reason: `${where(unit)} is not adjacent to ${nameOf(ctx, to.province)} for ${unit.type === "A" ? "an army" : "a fleet"}`,
    };
  }
  if (unit.type === "A" && map.get(to.province).kind === "sea")
    return { reason: "an army cannot retreat to sea" };
  const t = moveTarget(ctx, unit, to);
  if ("reason" in t) return t;
  const d = ctx.dislodgedAt.get(dislodgedKey(unit));
  if (
    d &&
    d.attackerFrom === to.province &&
    !(d.viaConvoy && ctx.rules.retreatToConvoyedAttackerOrigin)
  ) {
    return {
      reason: `cannot retreat to ${nameOf(ctx, to.province)}, where the attacker came from`,
    };
  }
  if (position.units.some((u) => u.province === to.province)) {
    return { reason: `${nameOf(ctx, to.province)} is occupied` };
  }
  if (position.contested.includes(to.province)) {
    return { reason: `${nameOf(ctx, to.province)} was left empty by a standoff` };
  }
  return t;
}

function interpretAdjustment(
  ctx: InterpretContext,
  power: PowerId,
  p: ParsedOrder,
): Interpretation {
  const { map, position } = ctx;
  switch (p.kind) {
    case "waive":
      return good({ kind: "waive", power });
    case "build": {
      const prov = map.province(p.location.province);
      if (!prov) return bad(`unknown province ${p.location.province}`);
      if (!prov.supplyCenter || prov.home !== power)
        return bad(`${prov.name} is not one of your home supply centres`);
      if (position.centers.get(prov.id) !== power) return bad(`you do not own ${prov.name} now`);
      if (position.units.some((u) => u.province === prov.id))
        return bad(`${prov.name} is occupied`);
      let unitType = p.unitType;
      if (!unitType && ctx.rules.buildWithoutType === "infer") {
        // Seed 002 V(1): an army where only armies can be; a fleet where a legal coast is
        // named; nothing where both could be.
        if (prov.kind === "land") unitType = "A";
        else if (p.location.coast && prov.coasts.includes(p.location.coast)) unitType = "F";
        else
          return bad(
            `no unit type given, and ${prov.name} can build an army or a fleet: nothing is built ("build A ${prov.id}" or "build F ${prov.id}")`,
          );
      }
      if (!unitType)
        return bad(
          `say which unit to build in ${prov.name}: "build A ${prov.id}" or "build F ${prov.id}"`,
        );
      // Seed 002 V(5): a fleet ordered inland is built as an army.
      if (unitType === "F" && prov.kind === "land" && ctx.rules.fleetBuildInland === "army")
        unitType = "A";
      if (unitType === "F" && prov.kind !== "coast")
        return bad(`a fleet cannot be built in ${prov.name}, inland`);
      if (unitType === "A" && prov.kind === "sea") return bad(`an army cannot be built at sea`);
      let coast = p.location.coast;
      if (unitType === "A") coast = null;
      else if (prov.coasts.length > 0) {
        if (!coast)
          return bad(
            `name the coast to build a fleet in ${prov.name}: ${prov.coasts.map((c) => `${prov.id}/${c}`).join(" or ")}`,
          );
        if (!prov.coasts.includes(coast)) return bad(`${prov.name} has no ${coast} coast`);
      } else coast = null;
      return good({ kind: "build", unit: { power, type: unitType, province: prov.id, coast } });
    }
    case "remove":
    case "disband": {
      const unit = ownUnit(ctx, power, p.unit);
      if (typeof unit === "string") return bad(unit);
      return good({ kind: "remove", unit });
    }
    default:
      return bad(`${p.kind} is not an order for ${phaseWord.A}; build, remove or waive`);
  }
}
