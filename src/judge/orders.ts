import type { Kysely } from "kysely";
import { adjudicate } from "../engine/adjudicate.ts";
import { earlyOrdersFor } from "../engine/early.ts";
import { powersToOrder } from "../engine/must-order.ts";
import { formatOrder } from "../engine/orders.ts";
import { type OrderLine, readOrderSet, stripListMark } from "../engine/orderset.ts";
import { parseOrder } from "../engine/parse.ts";
import { parsePhase, phaseAfterMovement, phaseName } from "../engine/phase.ts";
import { findPowerByName } from "../engine/powers.ts";
import { parseOptionsFor } from "../engine/reading.ts";
import type { RuleOptions } from "../engine/rules.ts";
import type { Phase, Position, PowerId } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import type { DB } from "../store/schema.ts";
import { conflict, invalid } from "./errors.ts";
import { type GameData, parseJson } from "./game-data.ts";

/** Moved to the engine (src/engine/must-order.ts): the game rules ask it too. */
export { powersToOrder };

/*
 * Reading an order set as a player sends it, by the API, by mail or from a file: one reader,
 * `readOrderSet` (src/engine/orderset.ts), with the game's rule options (its tolerances:
 * `typoTolerance`, `presumeValid`). A power's name on a line of its own (or before a colon)
 * switches power, for a seat with several; a line "Final" marks the set final (seed 002 II(1),
 * Alternative B: every set is preliminary unless marked final); lines starting with "#" are
 * comments. Every line gets a diagnostic: the order as understood, or what is wrong with it,
 * read against the position the orders are for; the engine's own verdict (the same reading
 * adjudication will make, duplicates included) decides ok or not. Nothing is dropped: invalid
 * orders are kept as written and the engine reports them again at adjudication.
 *
 * Two modes. `strict` (the API): every line that is not blank, a comment, a power or "Final"
 * is an order, even one that reads as chatter. `mail`: chatter, quoted lines (`> ...`) and a
 * signature (after `-- `) are ignored, as a mail body has them; they are listed as ignored.
 */

export interface LineDiagnostic {
  /** 1-based line of the submission. */
  readonly line: number;
  readonly text: string;
  /**
   * `comment`: ignored (a comment, chatter, a quoted line, a signature, a subject line).
   * `date`: the sheet's date (`Spring 1936`, `S1936M`), checked against the phase ordered.
   */
  readonly kind: "order" | "power" | "final" | "comment" | "date";
  /** The power the line's order is for. */
  readonly power: string | null;
  readonly ok: boolean;
  /** The order as understood (`F nth - pic`). */
  readonly order?: string;
  /** What is wrong, when not ok. */
  readonly message?: string;
  /** The span of the text that could not be read, and names it may have meant. */
  readonly start?: number;
  readonly end?: number;
  readonly suggestions?: readonly string[];
  /** What was read other than as written (`read "Burgndy" as Burgundy`), by the tolerances. */
  readonly notes?: readonly string[];
}

export interface SubmissionInput {
  /** The power the orders are for; needed only when a seat has several and no line names one. */
  readonly power?: string | undefined;
  /** The order lines, or a whole body of text. */
  readonly orders: string | readonly string[];
  readonly final?: boolean | undefined;
}

export interface ReadSubmission {
  /** Each power's new order set (possibly empty): it replaces the previous set whole. */
  readonly sets: ReadonlyMap<PowerId, readonly string[]>;
  readonly final: boolean;
  readonly lines: readonly LineDiagnostic[];
}

export interface ReadOptions {
  /** `strict` (default, the API) or `mail` (chatter, quotes and signatures ignored). */
  readonly mode?: "strict" | "mail";
  /**
   * The phase the orders are for, when there is no position to read them on (orders sent
   * early for a later phase): a dated sheet's date is checked against it.
   */
  readonly phase?: Phase;
}

const MAX_LINES = 500;
const MAX_LINE = 200;

/** A power by any of its names (id, name, adjective, the variant's aliases). */
export function findPower(variant: Variant, word: string): PowerId | null {
  return findPowerByName(variant.powers, word);
}

const powerName = (variant: Variant, p: PowerId) =>
  variant.powers.find((x) => x.id === p)?.name ?? p;

/**
 * Reads a submission against `position` (the open phase), or, for orders sent early for a
 * phase still to come, with `position` null: then only the text is read.
 */
export function readSubmission(
  variant: Variant,
  position: Position | null,
  rules: RuleOptions,
  seatPowers: readonly PowerId[],
  input: SubmissionInput,
  options: ReadOptions = {},
): ReadSubmission {
  const mode = options.mode ?? "strict";
  const text =
    typeof input.orders === "string"
      ? input.orders
      : input.orders.map((l) => l.replace(/[\r\n]+/g, " ")).join("\n");
  const rawLines = text.split(/\r\n|\r|\n/);
  if (rawLines.length > MAX_LINES) throw invalid(`an order set has at most ${MAX_LINES} lines`);
  let first: PowerId | null = null;
  if (input.power !== undefined) {
    first = findPower(variant, input.power);
    if (!first || !seatPowers.includes(first)) {
      throw invalid(
        `you do not play "${input.power}"; your powers: ${seatPowers.join(", ") || "none"}`,
      );
    }
  } else if (seatPowers.length === 1) {
    first = seatPowers[0]!;
  }
  // "#" comments are blanked for the reader (its line numbers stay those of the text).
  const comment = rawLines.map((l) => l.trim().startsWith("#"));
  const set = readOrderSet(
    rawLines.map((l, i) => (comment[i] ? "" : l)).join("\n"),
    variant,
    first,
    position ? { rules, position } : options.phase ? { rules, phase: options.phase } : { rules },
  );
  // A sheet dated for another phase is refused whole (seed 000: "All orders must be dated").
  if (set.dateError) throw invalid(set.dateError);
  const sets = new Map<PowerId, string[]>();
  if (first) sets.set(first, []);
  const pending: { line: OrderLine; power: PowerId }[] = [];
  const lines: LineDiagnostic[] = [];
  let current: PowerId | null = first;
  const mine = (p: PowerId, at: number) => {
    if (!seatPowers.includes(p)) {
      throw invalid(
        `line ${at}: you do not play ${powerName(variant, p)}; your powers: ${seatPowers.join(", ") || "none"}`,
      );
    }
    if (!sets.has(p)) sets.set(p, []);
    current = p;
  };
  for (const l of set.lines) {
    const at = l.line;
    if (comment[at - 1]) {
      lines.push({
        line: at,
        text: rawLines[at - 1]!.trim(),
        kind: "comment",
        power: null,
        ok: true,
      });
      continue;
    }
    switch (l.kind) {
      case "blank":
        continue;
      case "final":
        lines.push({ line: at, text: l.text, kind: "final", power: null, ok: true });
        continue;
      case "date":
        if (l.power) mine(l.power, at);
        lines.push({ line: at, text: l.text, kind: "date", power: l.power, ok: true });
        continue;
      case "power":
        mine(l.power!, at);
        lines.push({ line: at, text: l.text, kind: "power", power: l.power, ok: true });
        continue;
      case "subject":
      case "quoted":
      case "signature":
        if (l.text === "") continue;
        lines.push({ line: at, text: l.text, kind: "comment", power: null, ok: true });
        continue;
      case "chatter":
        if (mode === "mail") {
          lines.push({ line: at, text: l.text, kind: "comment", power: null, ok: true });
          continue;
        }
        break;
      case "order":
        break;
    }
    // An order line (or, in strict mode, a line that does not read as one: kept as written).
    const power = l.kind === "order" ? l.power : current;
    if (!power) {
      throw invalid(
        `line ${at}: "${l.text.slice(0, 40)}" comes before any power's name; you play ${seatPowers.join(
          " and ",
        )}: put e.g. "${seatPowers[0]}:" on the line above, or give "power"`,
      );
    }
    mine(power, at);
    if (l.text.length > MAX_LINE) throw invalid(`line ${at} is longer than ${MAX_LINE} characters`);
    pending.push({ line: l, power });
  }
  if (sets.size === 0) {
    throw invalid(`name the power these orders are for (one of ${seatPowers.join(", ")})`);
  }
  // The text of each order as stored: without a list mark or an inline `France:` prefix.
  const stored = pending.map((p) => orderText(p.line.text, variant));
  pending.forEach((p, i) => {
    sets.get(p.power)!.push(stored[i]!);
  });
  // The engine's verdict on each power's set: what adjudication will make of every line,
  // matched to its line by text (a variant's own orders, such as europe1935's insurrections,
  // come back after the standard ones, not in the order written).
  type Verdict = { ok: boolean; order?: string; message?: string };
  const verdicts = new Map<PowerId, Map<string, Verdict[]>>();
  for (const [power, list] of sets) {
    if (!position) break;
    const byText = new Map<string, Verdict[]>();
    for (const r of adjudicate(variant, position, new Map([[power, list]]), rules).results) {
      if (r.power !== power || r.text === null) continue;
      const v: Verdict =
        r.result === "invalid"
          ? { ok: false, message: r.reason ?? "invalid" }
          : { ok: true, ...(r.order ? { order: formatOrder(r.order) } : {}) };
      byText.set(r.text, [...(byText.get(r.text) ?? []), v]);
    }
    verdicts.set(power, byText);
  }
  const parseOptions = parseOptionsFor(rules);
  pending.forEach((p, i) => {
    const v = position
      ? (verdicts.get(p.power)?.get(stored[i]!)?.shift() ?? {
          ok: false,
          message: "not understood",
        })
      : textVerdict(p.line);
    let d: LineDiagnostic = {
      line: p.line.line,
      text: stored[i]!,
      kind: "order",
      power: p.power,
      ...v,
      ...(p.line.notes && p.line.notes.length > 0 ? { notes: p.line.notes } : {}),
    };
    if (!v.ok) {
      const parsed = parseOrder(stored[i]!, variant.map, variant.powers, parseOptions);
      if (!parsed.ok) {
        d = {
          ...d,
          start: parsed.error.start,
          end: parsed.error.end,
          suggestions: parsed.error.suggestions,
        };
      } else if (p.line.status === "ambiguous" && p.line.readings) {
        d = { ...d, suggestions: p.line.readings };
      }
    }
    lines.push(d);
  });
  lines.sort((a, b) => a.line - b.line);
  return { sets, final: input.final === true || set.final, lines };
}

/** Without a board: the reader's verdict on the text alone. */
function textVerdict(l: OrderLine): { ok: boolean; order?: string; message?: string } {
  if (l.status === "understood") return { ok: true, ...(l.order ? { order: l.order } : {}) };
  return { ok: false, message: l.reason ?? "not understood" };
}

/** An order line as stored: without a list mark (`1.`, `*`) or a `France:` before it. */
function orderText(line: string, variant: Variant): string {
  const body = stripListMark(line);
  const i = body.indexOf(":");
  if (i > 0 && findPower(variant, body.slice(0, i)) !== null) {
    const rest = body.slice(i + 1).trim();
    if (rest !== "") return rest;
  }
  return body;
}

// ---------------------------------------------------------------------------------------------
// Orders sent early for a later retreat or adjustment phase (seed 002 II(5), Alternative C)

/** Half-years: a year's spring (movement and retreats), then its fall (and winter). */
const half = (p: Phase): number => p.year * 2 + (p.season === "F" || p.season === "W" ? 1 : 0);

/** 0 movement, 1 retreats, 2 adjustments: the order of phases within a half-year. */
const step = (p: Phase): number => (p.type === "M" ? 0 : p.type === "R" ? 1 : 2);

/**
 * How a phase someone wrote orders for stands to the open phase: the same phase (either
 * season naming: `U1901R` is `S1901R`, `W1901R` is `F1901R`, and a winter `W1901R` order set
 * also covers the `W1901A` adjustments), a later one, or a past one.
 */
export function comparePhase(
  wanted: Phase,
  open: Phase,
  seasons: RuleOptions["seasons"] = "standard",
): "same" | "later" | "past" {
  const h = half(wanted) - half(open);
  if (h !== 0) return h > 0 ? "later" : "past";
  // With summer and winter retreats (seed 002 II(5) C) the winter's retreats and adjustments
  // are one phase of orders; with standard seasons F1901R and W1901A are two phases.
  const winter = (p: Phase) => p.season === "W" || (p.season === "F" && p.type !== "M");
  if (
    seasons === "summer-winter" &&
    winter(wanted) &&
    winter(open) &&
    wanted.type !== "M" &&
    open.type !== "M"
  ) {
    return "same";
  }
  const s = step(wanted) - step(open);
  return s === 0 ? "same" : s > 0 ? "later" : "past";
}

/**
 * The phases that can still come after the open one before the next movement phase, in this
 * game's phase sequence (the rule profile's seasons, src/engine/phase.ts): with `standard`
 * seasons, S1901M is followed by S1901R, F1901M by F1901R and W1901A, F1901R by W1901A; with
 * `summer-winter` (seed 002 II(5) C), S1901M by U1901R and F1901M by W1901R (retreats and
 * adjustments in one phase). A retreat phase with nobody dislodged, or an adjustment phase
 * with nothing to adjust, is skipped when it comes: orders sent early for it are then unused.
 */
export function phasesToCome(open: Phase, seasons: RuleOptions["seasons"]): Phase[] {
  const fall = open.season === "F" || open.season === "W";
  const { year } = open;
  if (seasons === "summer-winter") {
    if (open.type !== "M") return [];
    return [phaseAfterMovement(open, { seasons })];
  }
  const adjustments: Phase = { season: "W", year, type: "A" };
  if (open.type === "M")
    return fall ? [{ ...open, type: "R" }, adjustments] : [{ ...open, type: "R" }];
  if (open.type === "R" && fall) return [adjustments];
  return [];
}

/**
 * The phase a submission is for: the open one (no phase given, or the open phase under either
 * season naming), or a later retreat or adjustment phase that can still come before the next
 * movement phase in this game's sequence (an early set, kept for it: `phasesToCome`). Orders
 * for a past phase, or for a movement phase not yet open, are refused (409); orders for a
 * phase that cannot follow the open one are refused (400), naming the phases that may be sent
 * for now: with standard seasons, anything but `phasesToCome` (U1901R, a phase of a later
 * year); with summer and winter retreats (seed 002 II(5) C, which invites retreat orders
 * years ahead), anything but a later U or W retreat phase (S1901R, F1901R, W1901A are not in
 * that sequence).
 */
/**
 * How far ahead early orders may go, in game years (summer and winter retreats, where any later
 * U or W phase may be ordered early): seed 002 II(5) C's "fall 1914 retreat orders in 1901" is
 * 13 years; the bound keeps what one player may store for phases to come finite.
 */
export const EARLY_YEARS_AHEAD = 20;

export function submissionPhase(
  wanted: string | undefined,
  open: string,
  seasons: RuleOptions["seasons"] = "standard",
): { kind: "open" } | { kind: "early"; phase: string } {
  if (wanted === undefined) return { kind: "open" };
  const w = parsePhase(wanted);
  const o = parsePhase(open);
  if (!w) {
    throw invalid(`"${wanted}" is not a phase; write it like S1901M, U1901R, F1901M, W1901R`);
  }
  if (!o) return { kind: "open" };
  const rel = comparePhase(w, o, seasons);
  if (rel === "same") return { kind: "open" };
  const toCome = phasesToCome(o, seasons).map(phaseName);
  // Seed 002 II(5) C: "submit your fall 1914 retreat orders in 1901": with summer and winter
  // retreats, any later U or W phase of the game may be ordered early, years ahead.
  const anyYear = seasons === "summer-winter";
  const lastYear = o.year + EARLY_YEARS_AHEAD;
  const mayNow =
    toCome.length === 0 && !anyYear
      ? `orders may be sent now only for ${open}`
      : `orders may be sent now for ${open}, or early for ${[...toCome, ...(anyYear ? [`a later summer (U) or winter (W) retreat phase to ${lastYear}`] : [])].join(" or ")}`;
  if (rel === "later" && w.type !== "M") {
    const follows = anyYear
      ? w.type === "R" && (w.season === "U" || w.season === "W")
      : toCome.includes(phaseName(w));
    if (follows && w.year > lastYear) {
      throw invalid(
        `these orders are for ${phaseName(w)}, more than ${EARLY_YEARS_AHEAD} years after ${open}: early orders are kept for the phases of the next ${EARLY_YEARS_AHEAD} years (to ${lastYear}); send them later`,
      );
    }
    if (follows) return { kind: "early", phase: phaseName(w) };
    throw invalid(
      `these orders are for ${phaseName(w)}, a phase that cannot follow ${open} in this game (${seasons === "summer-winter" ? "summer and winter retreats" : "standard seasons"}); ${mayNow}`,
    );
  }
  throw conflict(
    rel === "past"
      ? `these orders are for ${wanted}, but the phase open for orders is ${open}`
      : `these orders are for ${wanted}, a movement phase not open yet (the phase open for orders is ${open}); only retreat and adjustment orders may be sent early: ${mayNow}`,
  );
}

/** Stores an early order set per power (each replaces that power's earlier one for the phase). */
export async function storeEarlySets(
  trx: Kysely<DB>,
  gameId: string,
  phase: string,
  userId: string,
  sets: ReadonlyMap<PowerId, readonly string[]>,
  now: number,
): Promise<void> {
  for (const [power, orders] of sets) {
    await trx
      .insertInto("early_orders")
      .values({
        game_id: gameId,
        power,
        phase,
        orders: JSON.stringify(orders),
        user_id: userId,
        received_at: now,
      })
      .execute();
  }
}

/** The early sets a power has on file for phases still to come. */
export async function earlySetsOf(
  db: Kysely<DB>,
  g: GameData,
  powers: readonly PowerId[],
): Promise<{ power: string; phase: string; orders: string[]; receivedAt: number }[]> {
  if (powers.length === 0) return [];
  const rows = await db
    .selectFrom("early_orders")
    .selectAll()
    .where("game_id", "=", g.game.id)
    .where("power", "in", [...powers])
    .orderBy("id")
    .execute();
  const sets = rows.map((r) => ({
    power: r.power as PowerId,
    phase: r.phase,
    orders: parseJson<string[]>(r.orders),
    received: Number(r.id),
  }));
  const used = earlyOrdersFor(g.scenario.variant, g.position, g.record.rules, sets);
  // The last set per power and phase, for the phases to come and the open one.
  const keep = new Map<string, (typeof rows)[number]>();
  const live = new Set([
    ...used.later.map((s) => s.received),
    ...[...used.received.values()].map(Number),
  ]);
  for (const r of rows) if (live.has(Number(r.id))) keep.set(`${r.power}/${r.phase}`, r);
  return [...keep.values()].map((r) => ({
    power: r.power,
    phase: r.phase,
    orders: parseJson<string[]>(r.orders),
    receivedAt: r.received_at,
  }));
}

/**
 * At adjudication of a retreat or adjustment phase: each power's last early set for it, where
 * it came after the power's last set sent for the phase itself (the last set before the
 * deadline wins). Fills `orders`; returns the powers whose orders came from an early set.
 */
export async function applyEarlySets(
  trx: Kysely<DB>,
  g: GameData,
  latestReceived: ReadonlyMap<string, number>,
  orders: Map<PowerId, string[]>,
): Promise<Set<PowerId>> {
  const used = new Set<PowerId>();
  if (g.position.phase.type === "M") return used;
  const rows = await trx
    .selectFrom("early_orders")
    .selectAll()
    .where("game_id", "=", g.game.id)
    .orderBy("id")
    .execute();
  if (rows.length === 0) return used;
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const early = earlyOrdersFor(
    g.scenario.variant,
    g.position,
    g.record.rules,
    rows.map((r) => ({
      power: r.power as PowerId,
      phase: r.phase,
      orders: parseJson<string[]>(r.orders),
      received: Number(r.id),
    })),
  );
  for (const [power, list] of early.orders) {
    const row = byId.get(early.received.get(power)!)!;
    const sent = latestReceived.get(power);
    if (sent !== undefined && sent >= row.received_at) continue;
    orders.set(power, [...list]);
    used.add(power);
  }
  return used;
}
