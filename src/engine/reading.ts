/*
 * Reading a power's orders as the game master would: the text through the tolerant reader
 * (with the rule options' tolerances), then against the board. Where a misspelling leaves
 * several readings, seed 002 III(1) (`presumeValid`) takes the one that makes a valid order,
 * preferring one for a unit the power has not otherwise ordered; otherwise the order is
 * ambiguous. A name written exactly is never corrected (III(2)), so a typo that spells
 * another province is that province even when the order is then impossible.
 */

import { seaRoute } from "./convoy.ts";
import { minusOneList } from "./filled.ts";
import { type Interpretation, type InterpretContext, interpretOrder } from "./interpret.ts";
import { formatOrder, type Order, type ParsedOrder } from "./orders.ts";
import { parseOrder } from "./parse.ts";
import type { Diagnostic, ParseOptions } from "./parse-types.ts";
import type { RuleOptions } from "./rules.ts";
import { KIND_SEA } from "./tables.ts";
import type { PowerId, ProvinceId } from "./types.ts";

/** One order text, read. */
export interface Reading {
  readonly power: PowerId;
  readonly text: string;
  /** The reading taken; null when the text could not be read or is ambiguous. */
  readonly parsed: ParsedOrder | null;
  /** The reading against the board; null when there is no reading. */
  readonly interpretation: Interpretation | null;
  /** Why the text could not be read at all. */
  readonly error: Diagnostic | null;
  /** When several readings remain: each, described; the order is then invalid. */
  readonly ambiguous: readonly string[];
  /** What was read other than as written (`read "Burgndy" as Burgundy`). */
  readonly notes: readonly string[];
  /** The province of the unit the order names, when it names one. */
  readonly subject: ProvinceId | null;
}

/** The reader's tolerances the rule options ask for. */
export function parseOptionsFor(rules: RuleOptions): ParseOptions {
  return {
    typos: rules.typoTolerance,
    convoyRoutes: rules.convoyRouteNames === "ignored",
  };
}

const formatted = (it: Interpretation): string => (it.ok ? formatOrder(it.order) : "");

/**
 * The province of the unit an order names (every kind but a build and a waive names one). By
 * kind, not `"unit" in p`: an `in` test meets every shape of order and is slow at that.
 */
const subjectOf = (p: ParsedOrder): ProvinceId | null =>
  p.kind === "build" || p.kind === "waive" ? null : p.unit.province;

/** Reads every order text one power gave for the phase of `ctx`, in the order given. */
export function readOrders(
  ctx: InterpretContext,
  power: PowerId,
  texts: readonly string[],
): Reading[] {
  const options = parseOptionsFor(ctx.rules);
  // Lists pushed, not mapped: `map` makes a packed array in the interpreter and a holey one
  // in optimized code, two hidden classes for the code reading them (docs/performance.md).
  const parsed: ReturnType<typeof parseOrder>[] = [];
  // Whether a text has several readings (then the units ordered without doubt are wanted).
  let several = false;
  for (const text of texts) {
    const r = parseOrder(text, ctx.map, ctx.powers, options);
    if (r.ok && r.readings) several = true;
    parsed.push(r);
  }
  // Units the power ordered without doubt: a reading that orders another is preferred (III(1)).
  // Only a text with several readings asks (most phases have none).
  const surely = new Set<ProvinceId>();
  for (let i = 0; several && i < parsed.length; i++) {
    const r = parsed[i]!;
    if (r.ok && !r.readings) {
      const s = subjectOf(r.order);
      if (s !== null) surely.add(s);
    }
  }
  const out: Reading[] = [];
  for (let i = 0; i < texts.length; i++) {
    const r = parsed[i]!;
    out.push(
      r.ok && !r.readings
        ? makeReading(power, texts[i]!, r.order, interpretOrder(ctx, power, r.order), r.notes)
        : readOne(ctx, power, texts[i]!, r, surely),
    );
  }
  return out;
}

const NO_NOTES: readonly string[] = [];

/** A text read one way (one maker: one hidden class for every reading taken). */
const makeReading = (
  power: PowerId,
  text: string,
  parsed: ParsedOrder,
  interpretation: Interpretation,
  notes: readonly string[] | undefined,
): Reading => ({
  power,
  text,
  parsed,
  interpretation,
  error: null,
  ambiguous: NO_NOTES,
  notes: notes ?? NO_NOTES,
  subject: subjectOf(parsed),
});

/** One text of `readOrders`, parsed as `r`. */
function readOne(
  ctx: InterpretContext,
  power: PowerId,
  text: string,
  r: ReturnType<typeof parseOrder>,
  surely: ReadonlySet<ProvinceId>,
): Reading {
  if (!r.ok) {
    return {
      power,
      text,
      parsed: null,
      interpretation: null,
      error: r.error,
      ambiguous: [],
      notes: [],
      subject: null,
    };
  }
  const readings = r.readings ?? [r.order];
  const notes = r.readingNotes ?? [r.notes ?? []];
  const its: Interpretation[] = [];
  for (const p of readings) its.push(interpretOrder(ctx, power, p));
  const pick = (k: number): Reading => makeReading(power, text, readings[k]!, its[k]!, notes[k]);
  if (readings.length === 1) return pick(0);
  if (ctx.rules.presumeValid) {
    let valid = its.flatMap((it, k) => (it.ok ? [k] : []));
    const same = new Set(valid.map((k) => formatted(its[k]!)));
    if (valid.length >= 1 && same.size === 1) return pick(valid[0]!);
    if (valid.length > 1) {
      const fresh = valid.filter((k) => {
        const s = subjectOf(readings[k]!);
        return s === null || !surely.has(s);
      });
      if (fresh.length >= 1) valid = fresh;
      const orders = new Set(valid.map((k) => formatted(its[k]!)));
      if (orders.size === 1) return pick(valid[0]!);
    }
  }
  const described = notes.map((n, k) => {
    const it = its[k]!;
    const what = n.length > 0 ? n.join(", ") : "as written";
    return it.ok ? `${what} (${formatOrder(it.order)})` : `${what} (${it.reason})`;
  });
  return {
    power,
    text,
    parsed: null,
    interpretation: null,
    error: null,
    ambiguous: described,
    notes: [],
    subject: null,
  };
}

/** The reason an ambiguous order is reported invalid. */
export function ambiguityReason(r: Reading): string {
  return `ambiguous: it could be ${r.ambiguous.join("; or ")}`;
}

/**
 * Why an army's move to a province it cannot reach over land is impossible: no chain of
 * fleets on the board (of any power, whatever their orders) could carry it (DATC 4.E.1, seed
 * 002 III(6)). null when the order is no such move or a chain exists.
 */
export function impossibleConvoy(ctx: InterpretContext, o: Order): string | null {
  if (o.kind !== "move" || o.unit.type !== "A") return null;
  const { map, position, tables: t } = ctx;
  const from = t.index.get(o.unit.province);
  const to = t.index.get(o.to.province);
  const adjacent =
    from === undefined || to === undefined
      ? map.armyAdjacent(o.unit.province, o.to.province)
      : t.armyAdjM[from * t.n + to] === 1;
  if (adjacent) return null;
  if (from === undefined || to === undefined) {
    if (seaRoute(map, o.unit.province, o.to.province, (sea) => holdsFleet(position, sea)))
      return null;
  } else {
    // A chain of fleet-held seas joins them when a fleet-held sea touching each end is in
    // one group of fleet-held seas next to each other (seaRoute's search, made once a phase).
    const group = fleetGroups(ctx);
    const { seasAt } = t;
    for (const a of seasAt[from]!) {
      if (group[a] === -1) continue;
      for (const b of seasAt[to]!) if (group[b] === group[a]) return null;
    }
  }
  return `${o.unit.province} is not adjacent to ${o.to.province}, and no chain of fleets could convoy it there`;
}

/** Whether a fleet stands in the sea (for a position on provinces the tables lack). */
const holdsFleet = (position: InterpretContext["position"], sea: ProvinceId): boolean =>
  position.units.some((u) => u.type === "F" && u.province === sea);

/**
 * For the context last asked about (one phase's), each fleet-held sea's group of fleet-held
 * seas; -1 elsewhere. (One entry, not a WeakMap: weak keys cost the collector.)
 */
let groups: { readonly ctx: InterpretContext; readonly group: number[] } | null = null;

function fleetGroups(ctx: InterpretContext): readonly number[] {
  if (groups !== null && groups.ctx === ctx) return groups.group;
  const t = ctx.tables;
  const group = minusOneList(t.n);
  const held: number[] = [];
  for (const u of ctx.position.units) {
    if (u.type !== "F") continue;
    const i = t.index.get(u.province);
    if (i === undefined) throw new Error(`unknown province ${u.province}`);
    if (t.kind[i] === KIND_SEA && group[i] === -1) {
      group[i] = -2;
      held.push(i);
    }
  }
  let next = 0;
  const queue: number[] = [];
  for (const start of held) {
    if (group[start] !== -2) continue;
    group[start] = next;
    queue.length = 0;
    queue.push(start);
    for (let q = 0; q < queue.length; q++)
      for (const s of t.seaNext[queue[q]!]!)
        if (group[s] === -2) {
          group[s] = next;
          queue.push(s);
        }
    next++;
  }
  groups = { ctx, group };
  return group;
}
