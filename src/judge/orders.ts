import { adjudicate, adjustmentCounts, buildSites } from "../engine/adjudicate.ts";
import { formatOrder } from "../engine/orders.ts";
import { parseOrder } from "../engine/parse.ts";
import type { RuleOptions } from "../engine/rules.ts";
import type { Position, PowerId } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import { invalid } from "./errors.ts";

/*
 * Reading an order set as a player sends it: a list of lines or a mail-like body, optionally
 * with a power's name on a line of its own before its orders (for a seat with several
 * powers) and a line "Final" (seed 002 II(1), Alternative B: every set is preliminary unless
 * marked final). Every line gets a diagnostic: the order as understood, or what is wrong
 * with it, read against the position the orders are for. Nothing is dropped: invalid orders
 * are kept as written and the engine reports them again at adjudication.
 */

export interface LineDiagnostic {
  /** 1-based line of the submission. */
  readonly line: number;
  readonly text: string;
  readonly kind: "order" | "power" | "final" | "comment";
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

const FINAL_LINE = /^final\.?$/i;

export function findPower(variant: Variant, word: string): PowerId | null {
  const w = word.replace(/:$/, "").trim().toLowerCase();
  const p = variant.powers.find((x) =>
    [x.id, x.name.toLowerCase(), x.adjective.toLowerCase()].includes(w),
  );
  return p?.id ?? null;
}

export function readSubmission(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
  seatPowers: readonly PowerId[],
  input: SubmissionInput,
): ReadSubmission {
  const rawLines =
    typeof input.orders === "string" ? input.orders.split(/\r?\n/) : [...input.orders];
  if (rawLines.length > 500) throw invalid("an order set has at most 500 lines");
  let current: PowerId | null = null;
  if (input.power !== undefined) {
    current = findPower(variant, input.power);
    if (!current || !seatPowers.includes(current)) {
      throw invalid(
        `you do not play "${input.power}"; your powers: ${seatPowers.join(", ") || "none"}`,
      );
    }
  } else if (seatPowers.length === 1) {
    current = seatPowers[0]!;
  }
  const sets = new Map<PowerId, string[]>();
  if (current) sets.set(current, []);
  let final = input.final === true;
  const pending: { line: number; text: string; power: PowerId }[] = [];
  const lines: (LineDiagnostic | null)[] = [];
  rawLines.forEach((raw, i) => {
    const text = raw.trim();
    if (text === "" || text.startsWith("#")) {
      lines.push(
        text === "" ? null : { line: i + 1, text, kind: "comment", power: null, ok: true },
      );
      return;
    }
    if (FINAL_LINE.test(text)) {
      final = true;
      lines.push({ line: i + 1, text, kind: "final", power: null, ok: true });
      return;
    }
    const header = findPower(variant, text);
    if (header) {
      if (!seatPowers.includes(header)) {
        throw invalid(
          `line ${i + 1}: you do not play ${text.replace(/:$/, "")}; your powers: ${seatPowers.join(", ")}`,
        );
      }
      current = header;
      if (!sets.has(header)) sets.set(header, []);
      lines.push({ line: i + 1, text, kind: "power", power: header, ok: true });
      return;
    }
    if (!current) {
      throw invalid(
        `line ${i + 1}: "${text.slice(0, 40)}" comes before any power's name; you play ${seatPowers.join(
          " and ",
        )}: put e.g. "${seatPowers[0]}:" on the line above, or give "power"`,
      );
    }
    if (text.length > 200) throw invalid(`line ${i + 1} is longer than 200 characters`);
    sets.get(current)!.push(text);
    pending.push({ line: i + 1, text, power: current });
    lines.push(null);
  });
  // Each power's orders read against the position: the engine says what each line means.
  const understood = new Map<string, { ok: boolean; order?: string; message?: string }[]>();
  for (const [power, list] of sets) {
    const res = adjudicate(variant, position, new Map([[power, list]]), rules).results.filter(
      (r) => r.power === power && r.text !== null,
    );
    understood.set(
      power,
      res.map((r) =>
        r.result === "invalid"
          ? { ok: false, message: r.reason ?? "invalid" }
          : { ok: true, ...(r.order ? { order: formatOrder(r.order) } : {}) },
      ),
    );
  }
  const counters = new Map<string, number>();
  for (const p of pending) {
    const n = counters.get(p.power) ?? 0;
    counters.set(p.power, n + 1);
    const u = understood.get(p.power)?.[n] ?? { ok: false, message: "not understood" };
    let diag: LineDiagnostic = { line: p.line, text: p.text, kind: "order", power: p.power, ...u };
    if (!u.ok) {
      const parsed = parseOrder(p.text, variant.map, variant.powers);
      if (!parsed.ok) {
        diag = {
          ...diag,
          start: parsed.error.start,
          end: parsed.error.end,
          suggestions: parsed.error.suggestions,
        };
      }
    }
    lines[p.line - 1] = diag;
  }
  if (sets.size === 0) {
    throw invalid(`name the power these orders are for (one of ${seatPowers.join(", ")})`);
  }
  return { sets, final, lines: lines.filter((l): l is LineDiagnostic => l !== null) };
}

/**
 * The powers that have something to order in this position: units to move, dislodged units
 * to retreat, builds they can make or removals they owe.
 */
export function powersToOrder(variant: Variant, position: Position): PowerId[] {
  const out = new Set<PowerId>();
  if (position.phase.type === "M") for (const u of position.units) out.add(u.power);
  else if (position.phase.type === "R") for (const u of position.dislodged) out.add(u.power);
  else {
    for (const [power, n] of adjustmentCounts(variant, position)) {
      if (n < 0 || (n > 0 && buildSites(variant, position, power).length > 0)) out.add(power);
    }
  }
  return variant.powers.map((p) => p.id).filter((p) => out.has(p));
}
