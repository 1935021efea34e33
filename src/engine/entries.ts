/**
 * An order as a phase adjudicates it (`Entry`: text, order, result, reason), and what every
 * kind of phase does with entries: the duplicate-order rule (`dedupe`, one order per unit),
 * an entry as a result (`toResult`), and the end of a phase (`finish`: centres counted, the
 * solo winner).
 */

import { formatOrder, type Order } from "./orders.ts";
import { makeResult, type OrderResult, type PhaseResult, type ResultKind } from "./results.ts";
import type { RuleOptions } from "./rules.ts";
import { powerTables } from "./tables.ts";
import { dislodgedKey, type Position, type PowerId, type ProvinceId, type Unit } from "./types.ts";
import type { Variant } from "./variant.ts";

export interface Entry {
  readonly power: PowerId;
  readonly text: string | null;
  order: Order | null;
  result: ResultKind;
  reason: string | null;
  /** The province of the unit the text named, if it could be read. */
  readonly subject: ProvinceId | null;
  /** The text was read as a move (legal or not): seed 002 III(5) needs to know. */
  readonly moveOrdered: boolean;
  /** An identical order given before for the same unit, which this one merges into. */
  sameAs: Entry | null;
  /** Set aside by the duplicate-order rule. */
  duplicate: boolean;
}

/** An entry as every reading makes it (one maker: one hidden class, see shapes.ts). */
export const makeEntry = (
  power: PowerId,
  text: string | null,
  subject: ProvinceId | null,
  moveOrdered: boolean,
  order: Order | null,
  result: ResultKind,
  reason: string | null,
): Entry => ({
  power,
  text,
  order,
  result,
  reason,
  subject,
  moveOrdered,
  sameAs: null,
  duplicate: false,
});

/**
 * One order per unit: a unit is its power's and its province's (see `dislodgedKey`). The keys
 * are made once per power and province and then reused, so that a phase builds no strings
 * to look its units up (bounded by the variants' powers times their provinces).
 */
const unitKeys = new Map<PowerId, Map<ProvinceId, string>>();
export function unitKey(u: Unit): string {
  let byProvince = unitKeys.get(u.power);
  if (!byProvince) {
    byProvince = new Map();
    unitKeys.set(u.power, byProvince);
  }
  let k = byProvince.get(u.province);
  if (k === undefined) {
    k = dislodgedKey(u);
    byProvince.set(u.province, k);
  }
  return k;
}

/** What a successful order of a retreat or adjustment phase did. */
export function successText(o: Order | null): string {
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

export const toResult = (e: Entry): OrderResult =>
  makeResult(e.power, e.text, e.order, e.result, e.reason, e.reason ?? successText(e.order));

/** Applies the duplicate-order rule: one order per unit survives; the others are set aside. */
export function dedupe(entries: Entry[], rules: RuleOptions): Map<string, Entry> {
  // Each unit's first order, in the order of the units' first orders; the units ordered more
  // than once are listed apart (they are few: most phases have none).
  const chosen = new Map<string, Entry>();
  let several: Map<string, Entry[]> | null = null;
  for (const e of entries) {
    if (!e.order || e.order.kind === "waive" || e.order.kind === "build") continue;
    const k = unitKey(e.order.unit);
    const first = chosen.get(k);
    if (first === undefined) {
      chosen.set(k, e);
      continue;
    }
    several ??= new Map();
    const list = several.get(k);
    if (list) list.push(e);
    else several.set(k, [first, e]);
  }
  if (several === null) return chosen;
  for (const [k, list] of several) {
    if (rules.duplicateOrders === "hold") {
      // Seed 002 III(6): identical orders are one order.
      const first = list[0]!;
      const text = formatOrder(first.order!);
      if (list.every((e) => e.order && formatOrder(e.order) === text)) {
        for (const e of list.slice(1)) {
          e.sameAs = first;
          e.order = null;
        }
        chosen.set(k, first);
        continue;
      }
    }
    const keep =
      rules.duplicateOrders === "first"
        ? list[0]!
        : rules.duplicateOrders === "last"
          ? list[list.length - 1]!
          : null;
    const kind = list[0]!.order?.kind;
    const fate =
      kind === "retreat" || kind === "disband" ? "has no retreat and is disbanded" : "holds";
    for (const e of list) {
      if (e === keep) continue;
      e.duplicate = true;
      e.result = "invalid";
      e.reason =
        keep === null
          ? `the unit was ordered more than once, so it ${fate}`
          : `the unit was ordered more than once; "${keep.text}" counts`;
      e.order = null;
    }
    if (keep) chosen.set(k, keep);
    else chosen.delete(k);
  }
  return chosen;
}

export function finish(
  variant: Variant,
  position: Position,
  results: OrderResult[],
  next: Position,
  dislodged: PhaseResult["dislodged"] = [],
): PhaseResult {
  const winner =
    variant.victoryCenters !== null && centresCounted(position, next)
      ? soloWinner(variant, next.centers, variant.victoryCenters)
      : null;
  return { phase: position.phase, results, next, winner, dislodged };
}

/**
 * Whether the centres were counted in going from the phase played to `next`
 * (`afterRetreats` after a fall or winter season: a fall movement phase with no retreat
 * phase after it, or a fall or winter retreat phase), whether or not any changed hands.
 */
function centresCounted(position: Position, next: Position): boolean {
  const { season, type } = position.phase;
  if (type === "A" || season === "S" || season === "U") return next.centers !== position.centers;
  return type === "R" || next.phase.type !== "R" || next.centers !== position.centers;
}

/** The power owning `solo` centres or more (of several, the last in the owners' order). */
function soloWinner(
  variant: Variant,
  centers: ReadonlyMap<ProvinceId, PowerId>,
  solo: number,
): PowerId | null {
  if (solo < 1) return soloWinnerSlowly(centers, solo);
  const pt = powerTables(variant);
  const counts = pt.b;
  counts.fill(0);
  let winners = 0;
  let winner: PowerId | null = null;
  for (const owner of centers.values()) {
    const w = pt.index.get(owner);
    if (w === undefined) return soloWinnerSlowly(centers, solo);
    if (++counts[w]! === solo) {
      winners++;
      winner = owner;
    }
  }
  return winners > 1 ? soloWinnerSlowly(centers, solo) : winner;
}

function soloWinnerSlowly(centers: ReadonlyMap<ProvinceId, PowerId>, solo: number): PowerId | null {
  let winner: PowerId | null = null;
  const counts = new Map<PowerId, number>();
  for (const owner of centers.values()) counts.set(owner, (counts.get(owner) ?? 0) + 1);
  for (const [p, n] of counts) if (n >= solo) winner = p;
  return winner;
}
