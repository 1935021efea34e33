/*
 * Orders between DAIDE and the engine. A client's order (tokens) is read against the position
 * and the engine's own legal orders (engine/legal.ts): a legal one is noted MBV and kept as the
 * engine's order text; any other gets the order note that says why (NSU, NYU, FAR, NRS, ...),
 * in the protocol's terms. The engine then adjudicates the texts, and its results are told
 * back as ORD with the result tokens.
 */
import { adjustmentCounts } from "../engine/adjustments.ts";
import { legalMovementOrders } from "../engine/legal.ts";
import { legalAdjustmentOrders } from "../engine/legal-adjustments.ts";
import { legalRetreatOrders } from "../engine/legal-retreats.ts";
import { formatOrder, type Order } from "../engine/orders.ts";
import type { RuleOptions } from "../engine/rules.ts";
import type { Seat } from "../engine/scenario.ts";
import {
  type Coast,
  type DislodgedUnit,
  dislodgedKey,
  type Phase,
  type Position,
  type PowerId,
  type ProvinceId,
  type Unit,
  type UnitType,
} from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import type { Item } from "./language.ts";
import { coastOf, coastToken, type DaideMap, type Side } from "./mapdef.ts";
import { intToken, isPower, isProvince, type Token, tok } from "./tokens.ts";

/** The DAIDE turn of a phase: (SPR 1901), (SUM 1901), (FAL ..), (AUT ..), (WIN ..). */
export function turnItem(phase: Phase): Item[] {
  const season =
    phase.type === "A"
      ? "WIN"
      : phase.season === "S" || phase.season === "U"
        ? phase.type === "M"
          ? "SPR"
          : "SUM"
        : phase.type === "M"
          ? "FAL"
          : "AUT";
  return [tok(season), intToken(phase.year)];
}

/** A unit as DAIDE names it: (power type location). */
export function unitItem(m: DaideMap, seats: readonly Seat[], u: Unit): Item[] {
  return [
    m.sideOf(u.power, seats).token,
    tok(u.type === "A" ? "AMY" : "FLT"),
    u.coast === null
      ? m.provinceToken(u.province)
      : [m.provinceToken(u.province), coastToken(u.coast)],
  ];
}

/** A place an order names: a province and perhaps a coast. */
interface Place {
  readonly province: ProvinceId;
  readonly coast: Coast | null;
}

/** A unit an order names. */
interface NamedUnit extends Place {
  readonly side: Token;
  readonly type: UnitType;
}

/** Why a DAIDE order is not read: a syntax fault (HUH) or a province not on the map (NSP). */
type Read<T> = { ok: true; value: T } | { ok: false; syntax: boolean };

const SYNTAX = { ok: false, syntax: true } as const;
const NSP = { ok: false, syntax: false } as const;

function place(m: DaideMap, x: Item | undefined): Read<Place> {
  if (x === undefined) return SYNTAX;
  let prov: Item | undefined = x;
  let coast: Coast | null = null;
  if (typeof x !== "number") {
    if (x.length !== 2 || typeof x[0] !== "number" || typeof x[1] !== "number") return SYNTAX;
    const c = coastOf(x[1]);
    if (c === undefined || c === null) return SYNTAX;
    prov = x[0];
    coast = c;
  }
  if (typeof prov !== "number" || !isProvince(prov)) return SYNTAX;
  const p = m.provinceOf(prov);
  if (!p) return NSP;
  return { ok: true, value: { province: p.id, coast } };
}

function namedUnit(m: DaideMap, x: Item | undefined): Read<NamedUnit> {
  if (x === undefined || typeof x === "number" || x.length !== 3) return SYNTAX;
  const [power, type, where] = x;
  if (typeof power !== "number" || !isPower(power)) return SYNTAX;
  if (type !== tok("AMY") && type !== tok("FLT")) return SYNTAX;
  const p = place(m, where);
  if (!p.ok) return p;
  return { ok: true, value: { ...p.value, side: power, type: type === tok("AMY") ? "A" : "F" } };
}

/** What a client's order comes to. */
export type Checked =
  /** Not an order in DAIDE's syntax: the SUB is answered HUH. */
  | { readonly kind: "syntax" }
  | {
      readonly kind: "noted";
      readonly note: Token;
      /** For an MBV order: the engine's text, the power whose order it is, and its slot. */
      readonly accepted?: {
        readonly power: PowerId;
        readonly text: string;
        /** The unit's key (movement, retreats) or the order's place (adjustments). */
        readonly key: string;
        readonly adjustment: "build" | "remove" | "waive" | null;
      };
    };

const noted = (note: string): Checked => ({ kind: "noted", note: tok(note) });

/** The legal orders of a phase, made once per phase. */
export interface PhaseTables {
  readonly movement: ReadonlyMap<ProvinceId, readonly Order[]> | null;
  readonly retreats: ReadonlyMap<string, readonly Order[]> | null;
  readonly adjustments: ReadonlyMap<PowerId, { count: number; orders: readonly Order[] }> | null;
}

export function phaseTables(variant: Variant, position: Position, rules: RuleOptions): PhaseTables {
  const t = position.phase.type;
  return {
    movement: t === "M" ? legalMovementOrders(variant, position, rules) : null,
    retreats: t === "R" ? legalRetreatOrders(variant, position, rules) : null,
    adjustments: t === "A" ? legalAdjustmentOrders(variant, position, rules) : null,
  };
}

/** What a side has already ordered in an adjustment phase (for NMB, NMR, BPR). */
export interface AdjustmentSoFar {
  readonly builds: ReadonlyMap<PowerId, number>;
  readonly removes: ReadonlyMap<PowerId, number>;
  /** Provinces with a build already ordered. */
  readonly sites: ReadonlySet<ProvinceId>;
  /** Units with a removal already ordered. */
  readonly removed: ReadonlySet<ProvinceId>;
}

export interface CheckContext {
  readonly map: DaideMap;
  readonly variant: Variant;
  readonly position: Position;
  readonly seats: readonly Seat[];
  readonly tables: PhaseTables;
  /** The client's side. */
  readonly side: Side;
  readonly soFar: AdjustmentSoFar;
}

const same = (a: Order, b: Order) => formatOrder(a) === formatOrder(b);

/** Reads one order of a SUB for the client's side. */
export function checkOrder(ctx: CheckContext, order: Item): Checked {
  if (typeof order === "number" || order.length < 2) return { kind: "syntax" };
  const { map, position, side } = ctx;
  const verb = order[1];
  if (typeof verb !== "number") return { kind: "syntax" };

  // (power WVE): a waived build.
  if (verb === tok("WVE")) {
    const power = order[0];
    if (order.length !== 2 || typeof power !== "number" || !isPower(power))
      return { kind: "syntax" };
    if (position.phase.type !== "A") return noted("NRS");
    if (power !== side.token) return noted("NYU");
    const owner = powersOf(ctx).find((p) => buildsLeft(ctx, p) > 0);
    if (!owner) return noted("NMB");
    return accept(owner, "waive", `waive ${owner}`, "waive");
  }

  const u = namedUnit(map, order[0]);
  if (!u.ok) return u.syntax ? { kind: "syntax" } : noted("NSP");
  const unit = u.value;
  const rest = order.slice(2);
  const movementVerbs = ["HLD", "MTO", "SUP", "CVY", "CTO"].map(tok);
  const retreatVerbs = ["RTO", "DSB"].map(tok);
  const adjustVerbs = ["BLD", "REM"].map(tok);
  const kind = position.phase.type;
  const fits =
    (kind === "M" && movementVerbs.includes(verb)) ||
    (kind === "R" && retreatVerbs.includes(verb)) ||
    (kind === "A" && adjustVerbs.includes(verb));
  if (!fits) {
    if (![...movementVerbs, ...retreatVerbs, ...adjustVerbs].includes(verb))
      return { kind: "syntax" };
    return noted("NRS");
  }
  if (unit.side !== side.token) return noted("NYU");

  if (verb === tok("BLD")) return build(ctx, unit, rest);
  if (verb === tok("REM")) return remove(ctx, unit, rest);
  if (kind === "R") return retreat(ctx, unit, verb, rest);
  return movement(ctx, unit, verb, rest);
}

function accept(
  power: PowerId,
  key: string,
  text: string,
  adjustment: "build" | "remove" | "waive" | null,
): Checked {
  return { kind: "noted", note: tok("MBV"), accepted: { power, text, key, adjustment } };
}

/** The unit of the position an order names, or the note why not. */
function standing(ctx: CheckContext, u: NamedUnit): Unit | Checked {
  const there = ctx.position.units.find((x) => x.province === u.province);
  if (!there) return noted("NSU");
  if (ctx.map.sideOf(there.power, ctx.seats).token !== ctx.side.token) return noted("NYU");
  if (there.type !== u.type || (u.coast !== null && u.coast !== there.coast)) return noted("NSU");
  return there;
}

const isUnit = (x: Unit | Checked): x is Unit => "power" in x;

function movement(
  ctx: CheckContext,
  named: NamedUnit,
  verb: Token,
  rest: readonly Item[],
): Checked {
  const s = standing(ctx, named);
  if (!isUnit(s)) return s;
  const unit = s;
  const legal = ctx.tables.movement?.get(unit.province) ?? [];
  const key = `${unit.power} ${unit.province}`;
  const take = (o: Order | undefined, note = "FAR"): Checked =>
    o ? accept(unit.power, key, formatOrder(o), null) : noted(note);

  if (verb === tok("HLD")) {
    if (rest.length !== 0) return { kind: "syntax" };
    return take(legal.find((o) => o.kind === "hold"));
  }
  if (verb === tok("MTO")) {
    if (rest.length !== 1) return { kind: "syntax" };
    const to = place(ctx.map, rest[0]);
    if (!to.ok) return to.syntax ? { kind: "syntax" } : noted("NSP");
    const moves = legal.filter(
      (o) => o.kind === "move" && !o.viaConvoy && o.to.province === to.value.province,
    );
    // An army's move over land only: MTO to a place no land route reaches is CTO's business.
    const overLand =
      unit.type === "F" || ctx.variant.map.armyAdjacent(unit.province, to.value.province)
        ? moves
        : [];
    if (unit.type === "F" && to.value.coast === null && overLand.length > 1) return noted("CST");
    const hit = overLand.find(
      (o) => o.kind === "move" && (to.value.coast === null || o.to.coast === to.value.coast),
    );
    return take(hit);
  }
  if (verb === tok("SUP")) {
    const sup = namedUnit(ctx.map, rest[0]);
    if (!sup.ok) return sup.syntax ? { kind: "syntax" } : noted("NSP");
    const target = ctx.position.units.find((x) => x.province === sup.value.province);
    if (!target || target.type !== sup.value.type) return noted("NSU");
    if (ctx.map.sideOf(target.power, ctx.seats).token !== sup.value.side) return noted("NSU");
    if (rest.length === 1) {
      return take(
        legal.find((o) => o.kind === "support" && o.target === target.province && o.to === null),
      );
    }
    if (rest.length !== 3 || rest[1] !== tok("MTO")) return { kind: "syntax" };
    const to = place(ctx.map, rest[2]);
    if (!to.ok) return to.syntax ? { kind: "syntax" } : noted("NSP");
    return take(
      legal.find(
        (o) => o.kind === "support" && o.target === target.province && o.to === to.value.province,
      ),
    );
  }
  if (verb === tok("CVY")) {
    if (rest.length !== 3 || rest[1] !== tok("CTO")) return { kind: "syntax" };
    const army = namedUnit(ctx.map, rest[0]);
    const to = place(ctx.map, rest[2]);
    if (!army.ok) return army.syntax ? { kind: "syntax" } : noted("NSP");
    if (!to.ok) return to.syntax ? { kind: "syntax" } : noted("NSP");
    if (unit.type !== "F") return noted("NSF");
    if (ctx.variant.map.get(unit.province).kind !== "sea") return noted("NAS");
    const convoyed = ctx.position.units.find((x) => x.province === army.value.province);
    if (!convoyed) return noted("NSU");
    if (convoyed.type !== "A" || army.value.type !== "A") return noted("NSA");
    return take(
      legal.find(
        (o) => o.kind === "convoy" && o.from === convoyed.province && o.to === to.value.province,
      ),
    );
  }
  // CTO province VIA (seas...)
  if (rest.length !== 3 || rest[1] !== tok("VIA") || typeof rest[2] === "number")
    return { kind: "syntax" };
  const to = place(ctx.map, rest[0]);
  if (!to.ok) return to.syntax ? { kind: "syntax" } : noted("NSP");
  if (unit.type !== "A") return noted("NSA");
  for (const sea of rest[2]!) {
    const p = place(ctx.map, sea);
    if (!p.ok) return p.syntax ? { kind: "syntax" } : noted("NSP");
    const fleet = ctx.position.units.find((x) => x.province === p.value.province);
    if (fleet?.type !== "F") return noted("NSF");
    if (ctx.variant.map.get(p.value.province).kind !== "sea") return noted("NAS");
  }
  const moves = legal.filter((o) => o.kind === "move" && o.to.province === to.value.province);
  const hit =
    moves.find((o) => o.kind === "move" && o.viaConvoy) ??
    moves.find(
      (o) => o.kind === "move" && !ctx.variant.map.armyAdjacent(unit.province, o.to.province),
    );
  return take(hit);
}

function retreat(ctx: CheckContext, named: NamedUnit, verb: Token, rest: readonly Item[]): Checked {
  const d: DislodgedUnit | undefined = ctx.position.dislodged.find(
    (x) =>
      x.province === named.province && ctx.map.sideOf(x.power, ctx.seats).token === ctx.side.token,
  );
  if (!d) {
    const anyone = ctx.position.dislodged.find((x) => x.province === named.province);
    if (anyone) return noted("NYU");
    return ctx.position.units.some((x) => x.province === named.province)
      ? noted("NRN")
      : noted("NSU");
  }
  if (d.type !== named.type) return noted("NSU");
  const legal = ctx.tables.retreats?.get(dislodgedKey(d)) ?? [];
  const key = `${d.power} ${d.province}`;
  if (verb === tok("DSB")) {
    if (rest.length !== 0) return { kind: "syntax" };
    const o = legal.find((x) => x.kind === "disband");
    return o ? accept(d.power, key, formatOrder(o), null) : noted("NVR");
  }
  if (rest.length !== 1) return { kind: "syntax" };
  const to = place(ctx.map, rest[0]);
  if (!to.ok) return to.syntax ? { kind: "syntax" } : noted("NSP");
  const options = legal.filter((x) => x.kind === "retreat" && x.to.province === to.value.province);
  if (d.type === "F" && to.value.coast === null && options.length > 1) return noted("CST");
  const o = options.find(
    (x) => x.kind === "retreat" && (to.value.coast === null || x.to.coast === to.value.coast),
  );
  return o ? accept(d.power, key, formatOrder(o), null) : noted("NVR");
}

/** The variant's powers the side plays now. */
function powersOf(ctx: CheckContext): PowerId[] {
  return ctx.variant.powers
    .map((p) => p.id)
    .filter((p) => ctx.map.sideOf(p, ctx.seats).token === ctx.side.token);
}

function buildsLeft(ctx: CheckContext, power: PowerId): number {
  const due = ctx.tables.adjustments?.get(power)?.count ?? 0;
  const n = adjustmentCounts(ctx.variant, ctx.position).get(power) ?? 0;
  if (n <= 0) return 0;
  return due - (ctx.soFar.builds.get(power) ?? 0);
}

function removalsLeft(ctx: CheckContext, power: PowerId): number {
  const n = adjustmentCounts(ctx.variant, ctx.position).get(power) ?? 0;
  if (n >= 0) return 0;
  return -n - (ctx.soFar.removes.get(power) ?? 0);
}

function build(ctx: CheckContext, u: NamedUnit, rest: readonly Item[]): Checked {
  if (rest.length !== 0) return { kind: "syntax" };
  const prov = ctx.variant.map.get(u.province);
  if (!prov.supplyCenter) return noted("NSC");
  const home = prov.home;
  if (home === null || !powersOf(ctx).includes(home)) return noted("HSC");
  if (ctx.position.centers.get(prov.id) !== home) return noted("YSC");
  if (ctx.position.units.some((x) => x.province === prov.id)) return noted("ESC");
  if (ctx.soFar.sites.has(prov.id)) return noted("BPR");
  if (
    (u.type === "A" && prov.kind === "sea") ||
    (u.type === "F" && prov.kind === "land") ||
    (u.type === "F" && prov.coasts.length > 0 && u.coast === null)
  )
    return noted("CST");
  if (buildsLeft(ctx, home) <= 0) return noted("NMB");
  const legal = ctx.tables.adjustments?.get(home)?.orders ?? [];
  const want: Order = {
    kind: "build",
    unit: { power: home, type: u.type, province: prov.id, coast: u.coast },
  };
  const o = legal.find((x) => same(x, want));
  if (!o) return noted(u.coast !== null && u.type === "F" ? "CST" : "NMB");
  return accept(home, prov.id, formatOrder(o), "build");
}

function remove(ctx: CheckContext, u: NamedUnit, rest: readonly Item[]): Checked {
  if (rest.length !== 0) return { kind: "syntax" };
  const s = standing(ctx, u);
  if (!isUnit(s)) return s;
  if (ctx.soFar.removed.has(s.province)) return noted("NMR");
  if (removalsLeft(ctx, s.power) <= 0) return noted("NMR");
  return accept(s.power, s.province, formatOrder({ kind: "remove", unit: s }), "remove");
}

/** An engine order as DAIDE writes it (for ORD of orders the client did not write itself). */
export function orderItem(
  m: DaideMap,
  seats: readonly Seat[],
  position: Position,
  o: Order,
): Item[] | null {
  const unitAt = (p: ProvinceId) => position.units.find((x) => x.province === p);
  switch (o.kind) {
    case "hold":
      return [unitItem(m, seats, o.unit), tok("HLD")];
    case "move": {
      const dest =
        o.to.coast === null
          ? m.provinceToken(o.to.province)
          : [m.provinceToken(o.to.province), coastToken(o.to.coast)];
      return [unitItem(m, seats, o.unit), tok(o.viaConvoy ? "CTO" : "MTO"), dest].concat(
        o.viaConvoy ? [tok("VIA"), []] : [],
      );
    }
    case "support": {
      const t = unitAt(o.target);
      if (!t) return null;
      return o.to === null
        ? [unitItem(m, seats, o.unit), tok("SUP"), unitItem(m, seats, t)]
        : [
            unitItem(m, seats, o.unit),
            tok("SUP"),
            unitItem(m, seats, t),
            tok("MTO"),
            m.provinceToken(o.to),
          ];
    }
    case "convoy": {
      const t = unitAt(o.from);
      if (!t) return null;
      return [
        unitItem(m, seats, o.unit),
        tok("CVY"),
        unitItem(m, seats, t),
        tok("CTO"),
        m.provinceToken(o.to),
      ];
    }
    case "retreat":
      return [
        unitItem(m, seats, o.unit),
        tok("RTO"),
        o.to.coast === null
          ? m.provinceToken(o.to.province)
          : [m.provinceToken(o.to.province), coastToken(o.to.coast)],
      ];
    case "disband":
      return [unitItem(m, seats, o.unit), tok("DSB")];
    case "build":
      return [unitItem(m, seats, o.unit), tok("BLD")];
    case "remove":
      return [unitItem(m, seats, o.unit), tok("REM")];
    case "waive":
      return [m.sideOf(o.power, seats).token, tok("WVE")];
  }
}

/** The ORD result tokens of an engine result (RET is added by the caller for a dislodged unit). */
export function resultTokens(o: Order, succeeded: boolean, reason: string | null): Token[] {
  if (succeeded) return [tok("SUC")];
  const why = reason ?? "";
  switch (o.kind) {
    case "move":
    case "retreat":
      return /convoy|not carried/.test(why) && !/^bounced|lost the head/.test(why)
        ? [tok("DSR")]
        : [tok("BNC")];
    case "support":
      return /^no unit in|did not hold|did not move|was not ordered/.test(why)
        ? [tok("NSO")]
        : [tok("CUT")];
    case "convoy":
      return /^no army|moves over land/.test(why) ? [tok("NSO")] : [tok("DSR")];
    case "hold":
      return [];
    default:
      return [tok("NSO")];
  }
}
