import { seaRoute } from "./convoy.ts";
import { type Interpretation, type InterpretContext, interpretOrder } from "./interpret.ts";
import { formatOrder, type Order, type ParsedOrder } from "./orders.ts";
import { type Diagnostic, type ParseOptions, parseOrder } from "./parse.ts";
import type { RuleOptions } from "./rules.ts";
import type { PowerId, ProvinceId } from "./types.ts";

/*
 * Reading a power's orders as the game master would: the text through the tolerant reader
 * (with the rule options' tolerances), then against the board. Where a misspelling leaves
 * several readings, seed 002 III(1) (`presumeValid`) takes the one that makes a valid order,
 * preferring one for a unit the power has not otherwise ordered; otherwise the order is
 * ambiguous. A name written exactly is never corrected (III(2)), so a typo that spells
 * another province is that province even when the order is then impossible.
 */

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

const subjectOf = (p: ParsedOrder): ProvinceId | null => ("unit" in p ? p.unit.province : null);

/** Reads every order text one power gave for the phase of `ctx`, in the order given. */
export function readOrders(
  ctx: InterpretContext,
  power: PowerId,
  texts: readonly string[],
): Reading[] {
  const options = parseOptionsFor(ctx.rules);
  const parsed = texts.map((text) => parseOrder(text, ctx.map, ctx.powers, options));
  // Units the power ordered without doubt: a reading that orders another is preferred (III(1)).
  const surely = new Set<ProvinceId>();
  for (const r of parsed) {
    if (r.ok && !r.readings) {
      const s = subjectOf(r.order);
      if (s !== null) surely.add(s);
    }
  }
  return texts.map((text, i): Reading => {
    const r = parsed[i]!;
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
    const its = readings.map((p) => interpretOrder(ctx, power, p));
    const pick = (k: number): Reading => ({
      power,
      text,
      parsed: readings[k]!,
      interpretation: its[k]!,
      error: null,
      ambiguous: [],
      notes: notes[k] ?? [],
      subject: subjectOf(readings[k]!),
    });
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
  });
}

/** The reason an ambiguous order is reported invalid. */
export function ambiguityReason(r: Reading): string {
  return `ambiguous: it could be ${r.ambiguous.join("; or ")}`;
}

/**
 * The seas with a fleet in them, for the position last asked about (positions never
 * change): made once for all the convoyed moves of a phase. One entry, not a map of
 * positions: a weak map's entries outlive their positions until a full collection, which
 * grew the self-play loop's old space by 2 MB.
 */
let fleetSeasMade: {
  readonly position: InterpretContext["position"];
  readonly map: InterpretContext["map"];
  readonly seas: ReadonlySet<ProvinceId>;
} | null = null;
function fleetSeasOf(ctx: InterpretContext): ReadonlySet<ProvinceId> {
  const { map, position } = ctx;
  const made = fleetSeasMade;
  if (made !== null && made.position === position && made.map === map) return made.seas;
  const seas = new Set<ProvinceId>(
    position.units
      .filter((u) => u.type === "F" && map.get(u.province).kind === "sea")
      .map((u) => u.province),
  );
  fleetSeasMade = { position, map, seas };
  return seas;
}

/**
 * Why an army's move to a province it cannot reach over land is impossible: no chain of
 * fleets on the board (of any power, whatever their orders) could carry it (DATC 4.E.1, seed
 * 002 III(6)). null when the order is no such move or a chain exists.
 */
export function impossibleConvoy(ctx: InterpretContext, o: Order): string | null {
  const { map } = ctx;
  if (o.kind !== "move" || o.unit.type !== "A" || map.armyAdjacent(o.unit.province, o.to.province))
    return null;
  const fleetSeas = fleetSeasOf(ctx);
  if (seaRoute(map, o.unit.province, o.to.province, (s) => fleetSeas.has(s))) return null;
  return `${o.unit.province} is not adjacent to ${o.to.province}, and no chain of fleets could convoy it there`;
}
