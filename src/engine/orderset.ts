/*
 * A whole order set as a player writes it in the body of a mail: one order per line, blank
 * lines and chatter ignored, power headers (`England:`), the "Final" marker (seed 002 II(1),
 * Alternative B: every set is preliminary unless marked final), a quoted earlier mail and a
 * signature left out. Every line gets a verdict: understood as, ambiguous, illegal and why,
 * or not understood with "did you mean". Pure; the mail gateway and the web page call it.
 */

import { makeContext } from "./interpret.ts";
import { formatOrder, type LocationSpec, type ParsedOrder, type UnitSpec } from "./orders.ts";
import { findPlace, parseOrder, suggestPlaces } from "./parse.ts";
import { describePhase, phaseName } from "./phase.ts";
import { findPowerByName } from "./powers.ts";
import { ambiguityReason, impossibleConvoy, parseOptionsFor, readOrders } from "./reading.ts";
import { DATC_RULES, type RuleOptions } from "./rules.ts";
import type { Phase, PhaseType, Position, PowerId, Season } from "./types.ts";
import type { OwnOrderVerdict, Variant } from "./variant.ts";

export type LineKind =
  /** An order (understood or not). */
  | "order"
  /** A power's name on its own line: the orders below are that power's. */
  | "power"
  /** The "Final" marker. */
  | "final"
  /** A `Subject:` line in the seed's II(2) form (`SED 01SA`). */
  | "subject"
  /**
   * The sheet's date (seed 000: "All orders must be dated"): `Spring 1936`, `S1936M`,
   * `Germany, Spring 1935`, `Orders for Fall 1935`. Never an order; see `OrderSet.date`.
   */
  | "date"
  /** Empty, or ignored: chatter, a quoted line (`> ...`), the signature and what follows. */
  | "blank"
  | "chatter"
  | "quoted"
  | "signature";

export type OrderStatus =
  /** Read, and (with a position) a legal order. */
  | "understood"
  /** Several readings remain (`order` is absent; `readings` lists them). */
  | "ambiguous"
  /** Read, but not possible on the board (`reason` says why). */
  | "illegal"
  /** Not understood (`reason` says where; `suggestions` are the "did you mean"). */
  | "unreadable";

export interface OrderLine {
  /** 1-based line number in the text. */
  readonly line: number;
  /** The line as written, without surrounding blanks. */
  readonly text: string;
  readonly kind: LineKind;
  /** The power the line's order is for (or the header's power); null if unknown. */
  readonly power: PowerId | null;
  /** Order lines only. */
  readonly status?: OrderStatus;
  /** The order as understood, in canonical form (`A par - bur`). */
  readonly order?: string;
  /** Why it is ambiguous, illegal or unreadable. */
  readonly reason?: string;
  /** Names it may have meant ("did you mean"). */
  readonly suggestions?: readonly string[];
  /** The readings an ambiguous order allows. */
  readonly readings?: readonly string[];
  /** What was read other than as written (`read "Burgndy" as Burgundy`). */
  readonly notes?: readonly string[];
}

/** A mail subject in the seed's II(2) form: `SED 02UE` is 1902 summer retreat, England. */
export interface Subject {
  readonly game: string;
  readonly phase: Phase;
  readonly power: PowerId;
}

export interface OrderSet {
  readonly lines: readonly OrderLine[];
  /** The order lines per power, as written (what `adjudicate` takes). */
  readonly orders: ReadonlyMap<PowerId, readonly string[]>;
  /** Order lines for which no power is known (no header, no `power` given). */
  readonly unassigned: readonly string[];
  /** Marked "Final". */
  readonly final: boolean;
  /** The powers named by headers, in order of appearance. */
  readonly powers: readonly PowerId[];
  /** The subject line, if there is one in the seed's form. */
  readonly subject: Subject | null;
  /** The sheet's date, if a line gives one (the first such line). */
  readonly date: SheetDate | null;
  /**
   * Why the sheet cannot be used: a date naming another phase than the one it is read for
   * (`OrderSetOptions.phase`, or the position's). A reader refuses the whole sheet with it:
   * none of its orders are used. null when every date fits, or there is no date or no phase.
   */
  readonly dateError: string | null;
}

/** A date written on a sheet: a season and year, and the phase's type when it is written. */
export interface SheetDate {
  readonly line: number;
  readonly text: string;
  readonly season: Season;
  readonly year: number;
  /** `S1936M`, `Spring 1936 movement`: the type; `Spring 1936`: null (any of the season's). */
  readonly type: PhaseType | null;
}

export interface OrderSetOptions {
  /** The rule options (the reader's tolerances come from them); default `datc`. */
  readonly rules?: RuleOptions;
  /**
   * The position the orders are for. With it, each order is also read against the board
   * (illegal, and ambiguity settled by seed 002 III(1)); without it, only the text is read.
   */
  readonly position?: Position;
  /**
   * The phase the sheet is for, its date checked against it; default the position's phase.
   * Without either a date is read but not checked.
   */
  readonly phase?: Phase;
}

/** Most lines read from one body; the rest is ignored. */
const MAX_LINES = 1000;

const FINAL = /^(?:(?:these|my)\s+(?:orders\s+)?are\s+)?final(?:\s+orders)?[\s.!]*$/i;
const SIGNATURE = /^--\s*$/;
const QUOTED = /^>/;
/** A list mark before an order: `*`, `•`, `1.`, `1)`, `(1)`, `1:` (a space after it or not). */
const LIST_MARK = /^(?:[*•]+\s+|\(?\d{1,2}[.):](?!\d)\s*)/;

/** An order line without the list mark before it (`1. A par - bur` is `A par - bur`). */
export function stripListMark(line: string): string {
  return line.replace(LIST_MARK, "");
}
const SUBJECT = /^subject\s*:\s*(.*)$/i;

/** A cheap first look: a line that may be a date names a season or has a `S1936`-like word. */
const DATE_HINT = /spring|summer|fall|autumn|winter|\b[sufw]\s?\d{3,4}/i;
/**
 * A date at the end of a line (what is before it is looked at apart): `Spring 1936`,
 * `Fall, 1935`, `Spring of 1936 movement`, `S1936M`, `F1935R`, `W1935A`, `S1936`, then
 * perhaps `orders` and a stop or colon.
 */
const DATE_AT_END =
  /(?:^|[\s,:;(–—-])(?:(spring|summer|fall|autumn|winter)(?:\s*,\s*|\s+of\s+|\s+)(\d{3,4})(?:\s*,?\s*(movements?|moves|retreats?|adjustments?|builds?|orders))?|([sufw])\s?(\d{3,4})\s?([mrab])?)\s*(?:orders)?\s*\)?[\s.:!]*$/i;
/** What may come before a date on its line, around a power's name: `Orders for`, `Date:`. */
const DATE_WORDS =
  /^(?:orders?\s+(?:for|of)|orders?|dated?|turn|phase)\b\s*[:,-]?\s*|\s*[:,-]?\s*\b(?:orders?\s+(?:for|of)|orders?|dated?)$/i;

const SEASON_LETTER: Record<string, Season> = {
  spring: "S",
  summer: "U",
  fall: "F",
  autumn: "F",
  winter: "W",
};

/**
 * A line giving the sheet's date, and the power it names if any (`Germany, Spring 1935`), or
 * null if the line is not a date. Nothing but a date, the words of `DATE_WORDS` and one
 * power's name may be on it.
 */
export function readDateLine(
  line: string,
  variant: Variant,
): { season: Season; year: number; type: PhaseType | null; power: PowerId | null } | null {
  if (!DATE_HINT.test(line)) return null;
  const m = DATE_AT_END.exec(line);
  if (!m) return null;
  let before = line.slice(0, m.index).trim();
  for (let k = 0; k < 4 && before !== ""; k++) {
    const next = before.replace(DATE_WORDS, "").replace(/^[\s,:;–—-]+|[\s,:;(–—-]+$/g, "");
    if (next === before) break;
    before = next;
  }
  let power: PowerId | null = null;
  if (before !== "") {
    power = findPowerByName(variant.powers, before);
    if (power === null) return null;
  }
  let season: Season;
  let year: number;
  let type: PhaseType | null = null;
  if (m[1] !== undefined) {
    season = SEASON_LETTER[m[1].toLowerCase()]!;
    year = Number(m[2]);
    const w = m[3]?.toLowerCase();
    if (w?.startsWith("move")) type = "M";
    else if (w?.startsWith("retreat")) type = "R";
    else if (w?.startsWith("adjust") || w?.startsWith("build")) type = "A";
  } else {
    season = m[4]!.toUpperCase() as Season;
    year = Number(m[5]);
    const t = m[6]?.toUpperCase();
    type = t === undefined ? null : t === "B" ? "A" : (t as PhaseType);
  }
  return { season, year, type, power };
}

/**
 * Whether a sheet's date names `phase`. The seed's year has two turns: a date of the fall
 * also names the winter's adjustments (`Fall 1935` for W1935A), and one of the spring the
 * summer's retreats (U1936R, with summer and winter retreats); a date without a type names
 * each phase of its season.
 */
export function dateNames(d: Pick<SheetDate, "season" | "year" | "type">, phase: Phase): boolean {
  if (d.year !== phase.year) return false;
  if (d.type !== null && d.type !== phase.type) return false;
  return (
    d.season === phase.season ||
    (d.season === "F" && phase.season === "W") ||
    (d.season === "S" && phase.season === "U")
  );
}

function dateError(d: SheetDate, phase: Phase): string {
  const season = { S: "Spring", U: "Summer", F: "Fall", W: "Winter" }[phase.season];
  const fits = phase.season === "W" ? "Fall" : phase.season === "U" ? "Spring" : season;
  return `line ${d.line}: this sheet is dated "${d.text}", but the phase open for orders is ${describePhase(phase)} (${phaseName(phase)}): date it "${fits} ${phase.year}" if these orders are for it; none of the sheet's orders were used`;
}

/** Reads a subject `GAME YYSP` (year, season letter, power letter) against the variant. */
export function readSubject(text: string, variant: Variant): Subject | null {
  const m = /^\s*(?:(?:re|fwd?)\s*:\s*)*(\S+)\s+(\d{2})([SUFW])([A-Z])\s*$/i.exec(text);
  if (!m) return null;
  const power = variant.powers.find((p) => p.letter.toUpperCase() === m[4]!.toUpperCase());
  if (!power) return null;
  const start = variant.start.phase.year;
  let year = Math.floor(start / 100) * 100 + Number(m[2]);
  if (year < start) year += 100;
  const season = m[3]!.toUpperCase() as Season;
  // S and F are movement; U is the summer retreats; W the winter retreats and adjustments.
  const type = season === "S" || season === "F" ? "M" : "R";
  return { game: m[1]!, phase: { season, year, type }, power: power.id };
}

/**
 * The subject `readSubject` reads as this game, phase and power: `SED 01SA`. Null where the
 * phase has no season letter or the power no letter. S and F name the movement phases, U the
 * retreats after spring, W the retreats after fall and the adjustments.
 */
export function writeSubject(
  game: string,
  phase: { readonly season: string; readonly year: number; readonly type: string },
  power: string,
  variant: Variant,
): string | null {
  const letter = variant.powers.find((p) => p.id === power)?.letter;
  if (!letter) return null;
  const season =
    phase.type === "M"
      ? phase.season === "S" || phase.season === "F"
        ? phase.season
        : null
      : phase.season === "S" || phase.season === "U"
        ? "U"
        : phase.season === "F" || phase.season === "W"
          ? "W"
          : null;
  if (season === null) return null;
  return `${game} ${String(phase.year % 100).padStart(2, "0")}${season}${letter.toUpperCase()}`;
}

/**
 * A power's name alone on a line: `England`, `ENGLAND:`, `English orders`, `Orders for France`,
 * or any other name of the power (`UK:`, `Soviet Union`: the variant's aliases).
 */
function headerPower(line: string, variant: Variant): PowerId | null {
  const m = /^(?:orders\s+(?:for|of)\s+)?([\p{L}'. ]+?)(?:\s+orders)?\s*:?\s*$/iu.exec(line);
  if (!m) return null;
  return findPowerByName(variant.powers, m[1]!);
}

/** `France: A par - bur`: a power's name before a colon, and the order after it. */
function inlinePower(line: string, variant: Variant): { power: PowerId; rest: string } | null {
  const i = line.indexOf(":");
  if (i <= 0) return null;
  const power = headerPower(line.slice(0, i + 1), variant);
  const rest = line.slice(i + 1).trim();
  return power && rest !== "" ? { power, rest } : null;
}

const ORDER_WORDS = new Set([
  "build",
  "remove",
  "disband",
  "waive",
  "retreat",
  "army",
  "fleet",
  "a",
  "f",
]);

/**
 * Whether a line that could not be read is an attempt at an order (reported) rather than
 * chatter (ignored): it starts with an order word and a place, or a place, or is short and
 * has a move dash in it.
 */
function looksLikeOrder(line: string, variant: Variant): boolean {
  // Articles say nothing about whether a line is an order (`The army in Paris marches on`).
  const lower = line.toLowerCase().replace(/^(?:(?:the|my|our|an)\s+)+/, "");
  const words = lower.split(/[\s,:;!?()]+/).filter((w) => w !== "");
  if (words.length === 0 || words.length > 12) return false;
  const isPlace = (w: string | undefined): boolean =>
    w !== undefined &&
    (findPlace(w.replace(/\.$/, ""), variant.map) !== null ||
      suggestPlaces(w, variant.map).length > 0);
  // The first two words with dashes and arrows parting them too: `A bud-srb` starts with a
  // unit and a place, so it is an order (with a misspelt target), not chatter.
  const [w0, w1] = lower.split(/[\s,:;!?()]+|-+>?|→|=>/u).filter((w) => w !== "");
  if (w0 !== undefined && findPlace(w0, variant.map) !== null) return true;
  if (w0 !== undefined && ORDER_WORDS.has(w0.replace(/\.$/, "")) && isPlace(w1)) return true;
  if (w0 === "waive") return true;
  return (
    words.length <= 8 && /\w\s*(?:-+>?|→|=>)\s*\w/u.test(line) && words.some((w) => isPlace(w))
  );
}

function unitText(u: UnitSpec): string {
  return `${u.type ? `${u.type} ` : ""}${u.coast ? `${u.province}/${u.coast}` : u.province}`;
}

function placeText(l: LocationSpec): string {
  return l.coast ? `${l.province}/${l.coast}` : l.province;
}

/** A parsed order in the canonical short form, as far as the text says (no board). */
export function formatParsed(p: ParsedOrder): string {
  switch (p.kind) {
    case "hold":
      return `${unitText(p.unit)} H`;
    case "move":
      return `${unitText(p.unit)} - ${placeText(p.to)}${p.viaConvoy ? " via convoy" : ""}`;
    case "support":
      return `${unitText(p.unit)} S ${unitText(p.supported)}${p.to ? ` ${p.arrived ? "in" : "-"} ${placeText(p.to)}` : ""}`;
    case "convoy":
      return `${unitText(p.unit)} C ${unitText(p.convoyed)} - ${placeText(p.to)}`;
    case "disband":
      return `${unitText(p.unit)} D`;
    case "remove":
      return `remove ${unitText(p.unit)}`;
    case "build":
      return `build ${p.unitType ? `${p.unitType} ` : ""}${placeText(p.location)}`;
    case "waive":
      return "waive";
  }
}

/**
 * Reads an order set. `power`: whose orders the lines are until a header says otherwise
 * (a mail's sender with one power); otherwise the subject line's power, if any.
 */
export function readOrderSet(
  text: string,
  variant: Variant,
  power?: PowerId | null,
  options: OrderSetOptions = {},
): OrderSet {
  const rules = options.rules ?? DATC_RULES;
  const parseOptions = parseOptionsFor(rules);
  const raw = text.split(/\r\n|\r|\n/).slice(0, MAX_LINES);
  const lines: (OrderLine | null)[] = [];
  const pending: {
    index: number;
    power: PowerId | null;
    text: string;
    /** A line in the variant's own order syntax, with the variant's verdict. */
    own?: OwnOrderVerdict;
  }[] = [];
  const powers: PowerId[] = [];
  let current: PowerId | null = power ?? null;
  let final = false;
  let subject: Subject | null = null;
  let signed = false;
  const dates: SheetDate[] = [];
  raw.forEach((rawLine, k) => {
    const line = rawLine.trim();
    const at = { line: k + 1, text: line };
    if (signed) {
      lines.push({ ...at, kind: "signature", power: null });
      return;
    }
    if (line === "") {
      lines.push({ ...at, kind: "blank", power: null });
      return;
    }
    if (SIGNATURE.test(line)) {
      signed = true;
      lines.push({ ...at, kind: "signature", power: null });
      return;
    }
    if (QUOTED.test(line)) {
      lines.push({ ...at, kind: "quoted", power: null });
      return;
    }
    const subj = SUBJECT.exec(line);
    if (subj) {
      const s = readSubject(subj[1]!, variant);
      if (s && subject === null) {
        subject = s;
        current ??= s.power;
      }
      lines.push({ ...at, kind: s ? "subject" : "chatter", power: s?.power ?? null });
      return;
    }
    if (FINAL.test(line)) {
      final = true;
      lines.push({ ...at, kind: "final", power: null });
      return;
    }
    const dated = readDateLine(stripListMark(line), variant);
    if (dated) {
      if (dated.power) {
        current = dated.power;
        if (!powers.includes(dated.power)) powers.push(dated.power);
      }
      const d: SheetDate = {
        line: at.line,
        text: line,
        season: dated.season,
        year: dated.year,
        type: dated.type,
      };
      dates.push(d);
      lines.push({ ...at, kind: "date", power: dated.power });
      return;
    }
    const header = headerPower(line, variant);
    if (header) {
      current = header;
      if (!powers.includes(header)) powers.push(header);
      lines.push({ ...at, kind: "power", power: header });
      return;
    }
    let body = stripListMark(line);
    let owner = current;
    const inline = inlinePower(body, variant);
    if (inline) {
      owner = inline.power;
      current = inline.power;
      if (!powers.includes(inline.power)) powers.push(inline.power);
      body = inline.rest;
    }
    // A variant's own kind of order (europe1935's insurrections) is read by the variant.
    const own = variant.ownOrder?.(body) ?? null;
    if (own !== null) {
      pending.push({ index: lines.length, power: owner, text: body, own });
      lines.push(null);
      return;
    }
    const parsed = parseOrder(body, variant.map, variant.powers, parseOptions);
    if (!parsed.ok && !looksLikeOrder(body, variant)) {
      lines.push({ ...at, kind: "chatter", power: null });
      return;
    }
    pending.push({ index: lines.length, power: owner, text: body });
    lines.push(null);
  });

  const orders = new Map<PowerId, string[]>();
  const unassigned: string[] = [];
  for (const p of pending) {
    if (p.power === null) unassigned.push(p.text);
    else {
      const list = orders.get(p.power) ?? [];
      orders.set(p.power, list);
      list.push(p.text);
    }
  }

  // Each power's orders read together (III(1) looks at the whole set), with the board if given.
  const verdicts = new Map<(typeof pending)[number], Omit<OrderLine, "line" | "text" | "kind">>();
  const groups = new Map<PowerId | null, (typeof pending)[number][]>();
  for (const p of pending) {
    if (p.own) {
      verdicts.set(
        p,
        p.own.ok
          ? { power: p.power, status: "understood", order: p.own.order }
          : { power: p.power, status: "unreadable", reason: p.own.reason },
      );
      continue;
    }
    const list = groups.get(p.power) ?? [];
    groups.set(p.power, list);
    list.push(p);
  }
  const ctx = options.position ? makeContext(variant, options.position, rules) : null;
  for (const [who, list] of groups) {
    if (ctx && who !== null) {
      const readings = readOrders(
        ctx,
        who,
        list.map((p) => p.text),
      );
      readings.forEach((r, k) => {
        const p = list[k]!;
        const notes = r.notes.length > 0 ? { notes: r.notes } : {};
        if (r.error) {
          verdicts.set(p, {
            power: who,
            status: "unreadable",
            reason: r.error.message,
            suggestions: r.error.suggestions,
          });
        } else if (r.interpretation === null) {
          verdicts.set(p, {
            power: who,
            status: "ambiguous",
            reason: ambiguityReason(r),
            readings: r.ambiguous,
          });
        } else if (r.interpretation.ok && impossibleConvoy(ctx, r.interpretation.order)) {
          verdicts.set(p, {
            power: who,
            status: "illegal",
            reason: impossibleConvoy(ctx, r.interpretation.order) ?? "",
            order: formatOrder(r.interpretation.order),
            ...notes,
          });
        } else if (r.interpretation.ok) {
          verdicts.set(p, {
            power: who,
            status: "understood",
            order: formatOrder(r.interpretation.order),
            ...notes,
          });
        } else {
          verdicts.set(p, {
            power: who,
            status: "illegal",
            reason: r.interpretation.reason,
            ...(r.parsed ? { order: formatParsed(r.parsed) } : {}),
            ...notes,
          });
        }
      });
      continue;
    }
    for (const p of list) {
      const r = parseOrder(p.text, variant.map, variant.powers, parseOptions);
      if (!r.ok) {
        verdicts.set(p, {
          power: who,
          status: "unreadable",
          reason: r.error.message,
          suggestions: r.error.suggestions,
        });
      } else if (r.readings) {
        const described = r.readings.map(formatParsed);
        verdicts.set(p, {
          power: who,
          status: "ambiguous",
          reason: `ambiguous: it could be ${described.join(" or ")}`,
          readings: described,
        });
      } else {
        verdicts.set(p, {
          power: who,
          status: "understood",
          order: formatParsed(r.order),
          ...(r.notes ? { notes: r.notes } : {}),
        });
      }
    }
  }
  for (const p of pending) {
    lines[p.index] = {
      line: p.index + 1,
      text: raw[p.index]!.trim(),
      kind: "order",
      ...verdicts.get(p)!,
    };
  }
  const phase = options.phase ?? options.position?.phase;
  const wrong = phase ? dates.find((d) => !dateNames(d, phase)) : undefined;
  return {
    lines: lines.map((l) => l!),
    orders,
    unassigned,
    final,
    powers,
    subject,
    date: dates[0] ?? null,
    dateError: wrong && phase ? dateError(wrong, phase) : null,
  };
}
