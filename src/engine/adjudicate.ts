import { distanceToHome, distanceToOwned } from "./distance.ts";
import { type InterpretContext, interpretOrder, makeContext, retreatTarget } from "./interpret.ts";
import type { GameMap } from "./map.ts";
import {
  boardAfter,
  type MovementWords,
  movementWords,
  provinceIndex,
  resolveMovement,
} from "./movement.ts";
import {
  formatOrder,
  isMovementOrder,
  type MovementOrder,
  type Order,
  type ParsedOrder,
} from "./orders.ts";
import { parseOrder } from "./parse.ts";
import { phaseAfterMovement } from "./phase.ts";
import { ambiguityReason, impossibleConvoy, parseOptionsFor, readOrders } from "./reading.ts";
import type { RuleOptions } from "./rules.ts";
import { resolveSequential } from "./sequential.ts";
import { makePhase, makePosition, makeUnit, withPhase } from "./shapes.ts";
import { mapTables, nextMark, powerTables } from "./tables.ts";
import {
  type DislodgedUnit,
  dislodgedKey,
  type Location,
  type Phase,
  type Position,
  type PowerId,
  type ProvinceId,
  type Unit,
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
  /**
   * A power that reached the victory centres at the end of this phase, if any; never for a
   * variant without a centre victory (`Variant.victoryCenters` null).
   */
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

/**
 * The result of an order of a movement phase, whose words (`reason`, `explanation`) are made
 * when first read: most callers (self-play, agents) read few or none, and wording every order
 * was a quarter of the resolver's time. The words are the same as if made at once. Plain
 * data for everything else: `JSON.stringify` gives the same JSON as a plain `OrderResult`
 * (`toJSON`), and `plainResult` makes a plain copy (a spread would copy only `power`, `text`,
 * `order` and `result`: the words live on the prototype, not on each object).
 */
class MovementOrderResult implements OrderResult {
  readonly power: PowerId;
  readonly text: string | null;
  readonly order: Order | null;
  readonly result: ResultKind;
  readonly #words: MovementWords;
  readonly #i: number;

  constructor(
    power: PowerId,
    text: string | null,
    order: Order | null,
    result: ResultKind,
    words: MovementWords,
    i: number,
  ) {
    this.power = power;
    this.text = text;
    this.order = order;
    this.result = result;
    this.#words = words;
    this.#i = i;
  }

  get reason(): string | null {
    return this.result === "succeeds" ? null : this.#words.reason(this.#i);
  }

  get explanation(): string {
    return this.#words.explanation(this.#i);
  }

  toJSON(): OrderResult {
    return plainResult(this);
  }
}

/** An order's result as plain data (every field its own), whatever object it came as. */
export function plainResult(r: OrderResult): OrderResult {
  return makeResult(r.power, r.text, r.order, r.result, r.reason, r.explanation);
}

/** A plain result (one maker: one hidden class, see shapes.ts). */
const makeResult = (
  power: PowerId,
  text: string | null,
  order: Order | null,
  result: ResultKind,
  reason: string | null,
  explanation: string,
): OrderResult => ({ power, text, order, result, reason, explanation });

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
  /** The text was read as a move (legal or not): seed 002 III(5) needs to know. */
  readonly moveOrdered: boolean;
  /** An identical order given before for the same unit, which this one merges into. */
  sameAs: Entry | null;
  /** Set aside by the duplicate-order rule. */
  duplicate: boolean;
}

/** An entry as every reading makes it (one maker: one hidden class, see shapes.ts). */
const makeEntry = (
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

/** What the game around the phase adds (a scenario's table), beyond variant and rules. */
export interface AdjudicateOptions {
  /**
   * Powers whose units dislodged in a movement phase are disbanded at once, with no retreat
   * phase waiting for them: powers nobody plays (seed 001's neutral Italy in the six- and
   * five-player games: "if they are forced to retreat, they are disbanded").
   */
  readonly disbandDislodged?: ReadonlySet<PowerId>;
}

export function adjudicate(
  variant: Variant,
  position: Position,
  orders: OrderTexts,
  rules: RuleOptions,
  options: AdjudicateOptions = {},
): PhaseResult {
  if (position.phase.season === "W" && position.phase.type === "R") {
    const reading = parseOptionsFor(rules);
    return winterPhase(
      position,
      orders,
      (text) => {
        const p = parseOrder(text, variant.map, variant.powers, reading);
        return p.ok ? p.order : null;
      },
      (pos, o) => adjudicateOne(variant, pos, o, rules),
    );
  }
  if (variant.movement && position.phase.type === "M")
    return variant.movement(position, orders, (p, o) =>
      adjudicateOne(variant, p, o, rules, options),
    );
  return adjudicateOne(variant, position, orders, rules, options);
}

/** Orders per power as structured values, already read: the typed path, with no text. */
export type ParsedOrderSets = ReadonlyMap<PowerId, readonly ParsedOrder[]>;

/**
 * `adjudicate` for orders given as structured values (the research API's typed path):
 * nothing is formatted or parsed; each order is interpreted against the board as a read text
 * would be, so the results are those of the same orders written out, with `text` null. A
 * variant with its own movement orders (`Variant.movement`) reads texts: give it texts.
 */
export function adjudicateParsed(
  variant: Variant,
  position: Position,
  orders: ParsedOrderSets,
  rules: RuleOptions,
  options: AdjudicateOptions = {},
): PhaseResult {
  if (position.phase.season === "W" && position.phase.type === "R")
    return winterPhase(
      position,
      orders,
      (p) => p,
      (pos, o) => adjudicateParsedOne(variant, pos, o, rules),
    );
  if (variant.movement && position.phase.type === "M")
    throw new Error(`${variant.id} has its own movement orders: adjudicate them as text`);
  return adjudicateParsedOne(variant, position, orders, rules, options);
}

/**
 * Seed 002 II(5) Alternative C: the winter phase (`W1901R`) takes the fall retreats and the
 * adjustments in one set of orders. Retreats are processed first, then centres change hands,
 * then the adjustments, counted on the board the retreats left. An order naming a dislodged
 * unit is a retreat order; builds, waives and removals of other units are adjustments.
 */
function winterPhase<T>(
  position: Position,
  orders: ReadonlyMap<PowerId, readonly T[]>,
  read: (order: T) => ParsedOrder | null,
  one: (position: Position, orders: ReadonlyMap<PowerId, readonly T[]>) => PhaseResult,
): PhaseResult {
  const retreats = new Map<PowerId, T[]>();
  const adjustments = new Map<PowerId, T[]>();
  const groups: { power: PowerId; adjustment: boolean }[] = [];
  for (const [power, texts] of orders) {
    retreats.set(power, []);
    adjustments.set(power, []);
    for (const text of texts) {
      const p = read(text);
      const kind = p ? p.kind : null;
      const subject = p && "unit" in p ? p.unit.province : null;
      const dislodged = position.dislodged.some((d) => d.power === power && d.province === subject);
      const adjustment =
        kind === "build" ||
        kind === "waive" ||
        ((kind === "remove" || kind === "disband") && !dislodged);
      (adjustment ? adjustments : retreats).get(power)!.push(text);
      groups.push({ power, adjustment });
    }
  }
  const first = one(position, retreats);
  const after = first.next;
  const year = position.phase.year;
  const needsAdjusting = after.phase.season === "W" && after.phase.type === "A";
  const anyAdjustment = groups.some((g) => g.adjustment);
  const second =
    needsAdjusting || anyAdjustment
      ? one(withPhase(after, makePhase("W", year, "A")), adjustments)
      : null;
  // One entry per order given, in the order given; then the units that got none.
  const nRetreat = groups.filter((g) => !g.adjustment).length;
  const nAdjust = groups.length - nRetreat;
  const given = [first.results.slice(0, nRetreat), second?.results.slice(0, nAdjust) ?? []];
  const cursor = [0, 0];
  const results: OrderResult[] = groups.map((g) => {
    const k = g.adjustment ? 1 : 0;
    return given[k]![cursor[k]!++]!;
  });
  results.push(...first.results.slice(nRetreat), ...(second?.results.slice(nAdjust) ?? []));
  return {
    phase: position.phase,
    results,
    next: second ? second.next : after,
    winner: first.winner,
    dislodged: [],
  };
}

/** One phase that is a movement, a retreat or an adjustment phase. */
function adjudicateOne(
  variant: Variant,
  position: Position,
  orders: OrderTexts,
  rules: RuleOptions,
  options: AdjudicateOptions = {},
): PhaseResult {
  const ctx = makeContext(variant, position, rules);
  const entries: Entry[] = [];
  const notes = new Map<Entry, string>();
  for (const [power, texts] of orders) {
    for (const r of readOrders(ctx, power, texts)) {
      const { text, subject } = r;
      const moveOrdered = r.parsed?.kind === "move";
      const it = r.interpretation;
      let e: Entry;
      if (it === null) {
        const reason = r.error ? r.error.message : ambiguityReason(r);
        e = makeEntry(power, text, null, moveOrdered, null, "invalid", reason);
      } else if (it.ok)
        e = makeEntry(power, text, subject, moveOrdered, it.order, "succeeds", null);
      else e = makeEntry(power, text, subject, moveOrdered, null, "invalid", it.reason);
      entries.push(e);
      if (r.notes.length > 0) notes.set(e, r.notes.join("; "));
    }
  }
  return withMerged(entries, notes, phaseOf(variant, ctx, entries, options));
}

/** `adjudicateOne` for structured orders: interpreted against the board, never parsed. */
function adjudicateParsedOne(
  variant: Variant,
  position: Position,
  orders: ParsedOrderSets,
  rules: RuleOptions,
  options: AdjudicateOptions = {},
): PhaseResult {
  const ctx = makeContext(variant, position, rules);
  const entries: Entry[] = [];
  for (const [power, list] of orders) {
    for (const p of list) {
      const it = interpretOrder(ctx, power, p);
      const subject = p.kind === "build" || p.kind === "waive" ? null : p.unit.province;
      entries.push(
        it.ok
          ? makeEntry(power, null, subject, p.kind === "move", it.order, "succeeds", null)
          : makeEntry(power, null, subject, p.kind === "move", null, "invalid", it.reason),
      );
    }
  }
  return withMerged(entries, null, phaseOf(variant, ctx, entries, options));
}

/**
 * Identical orders merged into one (seed 002 III(6)) come out as the order they repeat;
 * what the reader corrected is said in the explanation.
 */
function withMerged(
  entries: readonly Entry[],
  notes: ReadonlyMap<Entry, string> | null,
  result: PhaseResult,
): PhaseResult {
  if ((notes === null || notes.size === 0) && !entries.some((e) => e.sameAs)) return result;
  const results = result.results.map((o, k): OrderResult => {
    const e = entries[k];
    if (!e || k >= entries.length) return o;
    const kept = e.sameAs ? result.results[entries.indexOf(e.sameAs)] : undefined;
    const out = kept
      ? makeResult(kept.power, e.text, kept.order, kept.result, kept.reason, kept.explanation)
      : o;
    const note = notes?.get(e);
    if (!note) return out;
    const explanation = `${out.explanation} (${note})`;
    return makeResult(out.power, out.text, out.order, out.result, out.reason, explanation);
  });
  return {
    phase: result.phase,
    results,
    next: result.next,
    winner: result.winner,
    dislodged: result.dislodged,
  };
}

function phaseOf(
  variant: Variant,
  ctx: InterpretContext,
  entries: Entry[],
  options: AdjudicateOptions,
): PhaseResult {
  switch (ctx.position.phase.type) {
    case "M":
      return movementPhase(variant, ctx, entries, options);
    case "R":
      return retreatPhase(variant, ctx, entries);
    case "A":
      return adjustmentPhase(variant, ctx, entries);
  }
}

/**
 * One order per unit: a unit is its power's and its province's (see `dislodgedKey`). The keys
 * are made once per power and province and then reused, so that a phase builds no strings
 * to look its units up (bounded by the variants' powers times their provinces).
 */
const unitKeys = new Map<PowerId, Map<ProvinceId, string>>();
function unitKey(u: Unit): string {
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

/** Per map: scratch per province, the index of the position's unit there (-1: none). */
const unitSlots = new WeakMap<GameMap, Int32Array>();

/**
 * The duplicate-order rule for a movement phase where no unit was ordered twice (the usual
 * case): each unit of the position (by index) with the index of the entry ordering it, or
 * -1. Null when a unit was ordered more than once, or an order names no unit of the position
 * (by power and province), or two units share a province: `dedupe` decides those.
 */
function chosenByUnit(ctx: InterpretContext, entries: readonly Entry[]): number[] | null {
  const { units } = ctx.position;
  const index = provinceIndex(ctx.map);
  let slot = unitSlots.get(ctx.map);
  if (slot === undefined) {
    slot = new Int32Array(ctx.map.provinces.length).fill(-1);
    unitSlots.set(ctx.map, slot);
  }
  const place = new Array<number>(units.length);
  let ok = true;
  for (let k = 0; k < units.length; k++) {
    const p = index.get(units[k]!.province) ?? -1;
    place[k] = p;
    if (p === -1 || slot[p] !== -1) ok = false;
    else slot[p] = k;
  }
  const chosen = new Array<number>(units.length).fill(-1);
  for (let j = 0; ok && j < entries.length; j++) {
    const o = entries[j]!.order;
    if (!o || o.kind === "waive" || o.kind === "build") continue;
    const p = index.get(o.unit.province);
    const k = p === undefined ? -1 : slot[p]!;
    if (k === -1 || units[k]!.power !== o.unit.power || chosen[k] !== -1) ok = false;
    else chosen[k] = j;
  }
  // The scratch is left as it was found: all -1.
  for (let k = 0; k < units.length; k++) {
    const p = place[k]!;
    if (p !== -1 && slot[p] === k) slot[p] = -1;
  }
  return ok ? chosen : null;
}

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

const toResult = (e: Entry): OrderResult =>
  makeResult(e.power, e.text, e.order, e.result, e.reason, e.reason ?? successText(e.order));

/** Applies the duplicate-order rule: one order per unit survives; the others are set aside. */
function dedupe(entries: Entry[], rules: RuleOptions): Map<string, Entry> {
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

/**
 * An army ordered to a province it cannot reach over land needs fleets that could carry it
 * (DATC 4.E.1: without any, the move is impossible and the army holds): such an order is
 * set aside. (Module functions, not ones made per phase: tsx makes every named inner
 * function cost a property definition each time it is made.)
 */
function setAsideImpossible(ctx: InterpretContext, e: Entry): boolean {
  const why = e.order ? impossibleConvoy(ctx, e.order) : null;
  if (why === null) return false;
  e.result = "invalid";
  e.reason = why;
  e.order = null;
  return true;
}

/** A power nobody plays does not retreat: its dislodged units are disbanded at once. */
const disbandedAtOnce = (table: AdjudicateOptions, d: DislodgedUnit): boolean =>
  table.disbandDislodged?.has(d.power) === true;

function movementPhase(
  variant: Variant,
  ctx: InterpretContext,
  entries: Entry[],
  table: AdjudicateOptions,
): PhaseResult {
  const { position, rules, map } = ctx;

  // Seed 002 III(6): illegal orders are set aside before deciding whether a unit was ordered
  // more than once. (Other duplicate rules take the order they name, legal or not.)
  // (Then every order left was checked: the duplicate rule sets orders aside, never adds.)
  const checked = rules.duplicateOrders === "hold";
  if (checked) for (const e of entries) setAsideImpossible(ctx, e);
  // Per unit of the position (by index), the entry whose order it follows, or -1.
  let chosen = chosenByUnit(ctx, entries);
  if (chosen !== null) {
    for (let k = 0; !checked && k < chosen.length; k++) {
      const e = chosen[k] === -1 ? null : entries[chosen[k]!]!;
      if (e?.order && e.order.kind !== "waive" && setAsideImpossible(ctx, e)) chosen[k] = -1;
    }
  } else {
    // A unit ordered more than once: the duplicate-order rule, keyed by power and province.
    const byKey = dedupe(entries, rules);
    for (const e of byKey.values()) {
      const o = e.order;
      if (o && o.kind !== "waive" && setAsideImpossible(ctx, e)) byKey.delete(unitKey(o.unit));
    }
    chosen = position.units.map((u) => {
      const e = byKey.get(unitKey(u));
      return e === undefined ? -1 : entries.indexOf(e);
    });
  }

  const orders: MovementOrder[] = [];
  const owner: (Entry | null)[] = [];
  // Per entry, the unit whose order it is (-1: none; invalid or set aside).
  const unitOf = new Array<number>(entries.length).fill(-1);
  // Seed 002 III(5) (`supportHoldAfterIllegalMove: false`): a unit its power ordered to move,
  // even impossibly, receives no support to hold.
  const movers = new Set<ProvinceId>();
  if (!rules.supportHoldAfterIllegalMove) {
    for (const e of entries) {
      const own = e.subject === null ? undefined : ctx.unitAt.get(e.subject);
      if (e.moveOrdered && e.result === "invalid" && !e.duplicate && own?.power === e.power)
        movers.add(own.province);
    }
  }
  for (let k = 0; k < position.units.length; k++) {
    const unit = position.units[k]!;
    const j = chosen[k]!;
    const e = j === -1 ? null : entries[j]!;
    if (e?.order && isMovementOrder(e.order)) orders.push(e.order);
    else if (movers.size > 0 && movers.has(unit.province))
      orders.push({ kind: "hold", unit, moveOrdered: true });
    else orders.push({ kind: "hold", unit });
    owner.push(e);
    if (e?.order) unitOf[j] = k;
  }
  // Seed 003: sequential movement resolves the powers one by one (docs/sequential.md).
  const seq =
    rules.movement === "sequential" ? resolveSequential(variant, position, orders, rules) : null;
  const res = seq ?? resolveMovement(map, orders, rules);
  const words = movementWords(res);

  const results: OrderResult[] = [];
  // Made only when an order was invalid or set aside (random legal play has none).
  let unitIndex: Map<string, number> | null = null;
  for (let j = 0; j < entries.length; j++) {
    const e = entries[j]!;
    const i = unitOf[j]!;
    if (i === -1) {
      // Invalid or set aside: the unit holds; say so when that hold was dislodged.
      unitIndex ??= new Map(position.units.map((u, k) => [u.province as string, k]));
      const ui = e.subject === null ? undefined : unitIndex.get(e.subject);
      const unit = ui === undefined ? undefined : position.units[ui];
      const by = ui === undefined ? -1 : res.dislodgedBy[ui]!;
      const extra =
        unit?.power === e.power && by !== -1 ? `; the unit held and was ${words.reason(ui!)}` : "";
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
    const result = res.success[i] ? "succeeds" : "fails";
    results.push(new MovementOrderResult(e.power, e.text, e.order, result, words, i));
  }
  position.units.forEach((unit, i) => {
    if (owner[i]) return;
    const result = res.success[i] ? "succeeds" : "fails";
    results.push(new MovementOrderResult(unit.power, null, orders[i]!, result, words, i));
  });

  const { units, dislodged } = boardAfter(orders, res);
  // Sequential movement keeps its own board: a unit may move, then be dislodged where it went.
  const board = seq ?? { units, dislodged };
  const after = makePosition(
    phaseAfterMovement(position.phase, rules),
    board.units,
    board.dislodged.filter((d) => !disbandedAtOnce(table, d)),
    res.contested,
    position.centers,
  );
  // One reading of the position after, for every dislodged unit's retreats.
  let afterCtx: InterpretContext | null = null;
  const options: { unit: DislodgedUnit; retreats: readonly Location[] }[] = [];
  for (const unit of board.dislodged) {
    if (disbandedAtOnce(table, unit)) options.push({ unit, retreats: [] });
    else {
      afterCtx ??= makeContext(variant, after, rules);
      options.push({ unit, retreats: retreatsIn(afterCtx, unit) });
    }
  }
  for (const d of board.dislodged.filter((x) => disbandedAtOnce(table, x))) {
    const name = variant.powers.find((p) => p.id === d.power)?.name ?? d.power;
    const i = results.findIndex(
      (r) =>
        r.power === d.power &&
        r.order !== null &&
        "unit" in r.order &&
        r.order.unit.province === d.province,
    );
    const r = results[i];
    if (r)
      results[i] = makeResult(
        r.power,
        r.text,
        r.order,
        r.result,
        r.reason,
        `${r.explanation}; disbanded at once: nobody plays ${name}, so it does not retreat`,
      );
  }
  const anyRetreat = options.some((d) => d.retreats.length > 0);
  const next = anyRetreat
    ? after
    : afterRetreats(variant, makePosition(after.phase, after.units, [], [], after.centers), rules);
  return finish(variant, position, results, next, options);
}

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
function retreatsIn(ctx: InterpretContext, d: DislodgedUnit): readonly Location[] {
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
function afterRetreats(variant: Variant, pos: Position, rules: RuleOptions): Position {
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

function adjustmentPhase(variant: Variant, ctx: InterpretContext, entries: Entry[]): PhaseResult {
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

function finish(
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
