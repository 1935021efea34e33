import type { BoardPosition } from "../render/types.ts";
import type { GameRecord, GameView, PhaseRecord } from "./types.ts";

/*
 * What the game page shows, read from the game view alone (no DOM here: test/web-parts.test.ts
 * checks it without a browser). A Diplomacy variant's view has no `family`: the board is the
 * variant's map, orders are given on the order pad (clicking and typing, read as typed) and
 * every phase's results are public. A view with a `family` block (Global Diplomacy, Age of
 * Discovery; src/judge/family.ts) is a game of commands: a command box answered line by line
 * when sent, the player's own report beside it, a position that holds only what the viewer
 * may see (fog of war), and powers named by their seats' numbers. game.ts builds the page
 * from these parts; nothing else on the page asks which kind of game it is.
 */

/** The `family` block of a family game's view (src/judge/family.ts `view`). */
export interface FamilyInfo {
  id: string;
  name: string;
  turn: number;
  turnsAdjudicated: number;
  report: string;
  players: number;
  /** The whole generated map (Age of Discovery), for the GM only. */
  moderatorMap?: string;
  /** The viewer's own map of a generated world (Age of Discovery): geometry, view, frame. */
  map?: string;
}

export type FamilyView = GameView & { family: FamilyInfo };

export const isFamilyView = (v: GameView): v is FamilyView =>
  typeof v.family === "object" && v.family !== null;

/** The tabs a game page may carry. */
export type PanelId =
  | "orders" //  the viewer's orders: the pad or the command box (or why there is none)
  | "history" // every adjudicated phase, public: the board, results and explanations
  | "turns" //   the GM's list of every turn's command sets (the results are in reports)
  | "press"
  | "votes"
  | "points" //  the victory points (europe1935)
  | "gm" //      the game master's console
  | "seats"; //  who plays, for observers of a game whose phases are not public

export interface GameParts {
  /** What the head says the game is: "classical · 7", "Global Diplomacy · 11 players". */
  readonly kind: string;
  /** How the game names a phase and an order, in headings and messages. */
  readonly words: { readonly phase: "phase" | "turn"; readonly orders: "orders" | "commands" };
  /**
   * The map, when the variant or family has one (a click on it goes to the orders: a unit
   * to order, or an area's number for the command box); `frame` puts a player's map on its
   * own areas (a fogged position covers a corner of a large world). `source`: a map made for
   * this game and viewer (`GET /api/games/:id/map`: a player's Age of Discovery map, as it
   * knows it), drawn instead of the variant's.
   */
  readonly map: { readonly frame: boolean; readonly source?: string } | null;
  /** How orders are given: the order pad, or the command box with a verdict per line. */
  readonly orders: "pad" | "commands";
  /** The viewer's own report beside the map (and the turns to step back through). */
  readonly report: boolean;
  /** The tabs, in order, for this viewer. */
  readonly panels: readonly PanelId[];
  /** Powers are named by the variant's names, or by their seats (`3-England`). */
  readonly names: "variant" | "seats";
  /** What the game master's console offers beside start, pause, resume and extend. */
  readonly gm: {
    /** "Resolve now": adjudicate at once (the chair's resolve) or move the deadline to now. */
    readonly resolve: "now" | "deadline";
    /** Chaired play: the mode switch, the projector view, who has sent orders. */
    readonly chair: boolean;
    /** Correct the last adjudication and replace a player (every game family). */
    readonly corrections: boolean;
    /** End the game by the GM: a draw of all survivors or abandoned (every game family). */
    readonly end: boolean;
    /** Download the whole generated map (the view carries its address for the GM). */
    readonly moderatorMap: string | null;
  };
}

/**
 * The parts of the page for a game view; `hasMap` says whether the variant's or family's map
 * exists (`GET /api/variants/:id/geometry` answers it, or 404).
 */
export function gameParts(view: GameView, hasMap: boolean): GameParts {
  const role = view.you?.role ?? null;
  const gm = role === "gm";
  if (isFamilyView(view)) {
    const seated = role === "player" && (view.you?.powers.length ?? 0) > 0;
    // Press and votes as in every game (the judge's one path, votes.ts and press.ts).
    const panels: PanelId[] = [];
    if (seated) panels.push("orders");
    if (gm) panels.push("turns");
    // Who plays: for a visitor, and for a player where built-in players play some seats.
    if (!gm && (!seated || view.seatList.some((s) => s.bot))) panels.push("seats");
    panels.push("press");
    if (view.you) panels.push("votes");
    if (gm) panels.push("gm");
    return {
      kind: `${view.family.name} · ${view.family.players} players`,
      words: { phase: "turn", orders: "commands" },
      map: hasMap
        ? { frame: true }
        : view.family.map
          ? { frame: true, source: view.family.map }
          : null,
      orders: "commands",
      report: true,
      panels,
      names: "seats",
      gm: {
        resolve: "deadline",
        chair: false,
        corrections: true,
        end: true,
        moderatorMap: view.family.moderatorMap ?? null,
      },
    };
  }
  const panels: PanelId[] = ["orders", "history", "press"];
  if (view.you) panels.push("votes");
  // Who plays, where built-in players play some seats (the GM reads it on the console).
  if (!gm && view.seatList.some((s) => s.bot || s.daide)) panels.push("seats");
  if (view.scores) panels.push("points");
  if (gm) panels.push("gm");
  return {
    kind: `${view.variant} · ${view.scenario}`,
    words: { phase: "phase", orders: "orders" },
    map: hasMap ? { frame: false } : null,
    orders: "pad",
    report: false,
    panels,
    names: "variant",
    gm: { resolve: "now", chair: true, corrections: true, end: true, moderatorMap: null },
  };
}

/** A power as the reports name it: `3-England` (seats already named so, as `2-Brigantia`). */
export function seatLabel(v: GameView, p: string): string {
  const name = v.seatList.find((s) => s.powers.includes(p))?.name;
  if (name === undefined) return p;
  return name.startsWith(`${p}-`) ? name : `${p}-${name}`;
}

/** The section "POSSIBLE COMMANDS FOR NEXT TURN" of a report, if it has one. */
export function possibleCommands(report: string): string | null {
  const lines = report.split("\n");
  const start = lines.findIndex((l) => /^POSSIBLE COMMANDS/.test(l.trim()));
  if (start === -1) return null;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => /^[-=]{10,}\s*$/.test(l));
  const body = (end === -1 ? rest : rest.slice(0, end)).join("\n").replace(/\s+$/, "");
  return body.trim() === "" ? null : body;
}

/**
 * The part of the map around a position's units and owned areas (a viewBox: x, y, width,
 * height), with a margin, at least a fifth of the map wide and as wide as the map's own
 * proportions; null when the position has nothing on the map.
 */
export function focusBox(
  g: { width: number; height: number; provinces: Record<string, { unit: [number, number] }> },
  position: { units: Record<string, string[]>; centers?: Record<string, string[]> },
): [number, number, number, number] | null {
  const areas = [
    ...Object.values(position.units).flatMap((l) => l.map((u) => u.split(" ")[1] ?? "")),
    ...Object.values(position.centers ?? {}).flat(),
  ];
  const pts = areas.flatMap((a) => {
    const p = g.provinces[a.split("/")[0]!];
    return p ? [p.unit] : [];
  });
  if (pts.length === 0) return null;
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const ratio = g.width / g.height;
  let w = Math.max(...xs) - Math.min(...xs);
  let hgt = Math.max(...ys) - Math.min(...ys);
  const margin = Math.max(w, hgt, g.width / 20) * 0.35;
  w = Math.max(w + 2 * margin, g.width / 5);
  hgt = Math.max(hgt + 2 * margin, w / ratio);
  w = Math.max(w, hgt * ratio);
  if (w >= g.width || hgt >= g.height) return null;
  const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
  const cy = (Math.max(...ys) + Math.min(...ys)) / 2;
  const x = Math.min(Math.max(0, cx - w / 2), g.width - w);
  const y = Math.min(Math.max(0, cy - hgt / 2), g.height - hgt);
  const r = (n: number) => Math.round(n);
  return [r(x), r(y), r(w), r(hgt)];
}

/** A power's row of the supply-centre table beside the board (centres.ts). */
export interface CentreRow {
  power: string;
  centres: number;
  units: number;
  /** Centres minus units: builds when positive, removals when negative. */
  due: number;
  /** A game counted in points (the position's `tally`): the points behind the counts. */
  points?: { supply: number; units: number };
  /** A power the viewer may not know of (fog of war): its counts are unknown, not 0. */
  unknown?: boolean;
}

export function centreRows(position: BoardPosition): CentreRow[] {
  if (position.tally) {
    // A game counted in points: its own supply table, the powers the viewer knows first.
    return Object.entries(position.tally)
      .map(
        ([power, t]): CentreRow =>
          t
            ? {
                power,
                centres: t.centres,
                units: t.units,
                due: t.due,
                points: { supply: t.supplyPoints, units: t.unitPoints },
              }
            : { power, centres: 0, units: 0, due: 0, unknown: true },
      )
      .filter((r) => r.unknown || r.centres > 0 || r.units > 0)
      .sort(
        (a, b) =>
          Number(!!a.unknown) - Number(!!b.unknown) ||
          b.centres - a.centres ||
          a.power.localeCompare(b.power, undefined, { numeric: true }),
      );
  }
  if (!position.centers) return [];
  const powers = new Set([...Object.keys(position.centers), ...Object.keys(position.units)]);
  return [...powers]
    .map((power) => {
      const centres = position.centers?.[power]?.length ?? 0;
      const units = position.units[power]?.length ?? 0;
      return { power, centres, units, due: centres - units };
    })
    .filter((r) => r.centres > 0 || r.units > 0)
    .sort((a, b) => b.centres - a.centres || a.power.localeCompare(b.power));
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A surplus or deficit of supply points (a game counted in points). */
export function duePointsText(due: number): string {
  if (due > 0) return `+${plural(due, "point", "points")} to spend`;
  if (due < 0) return `−${plural(-due, "point", "points")} to give up`;
  return "balanced";
}

export function dueText(due: number): string {
  if (due > 0) return `+${plural(due, "build", "builds")}`;
  if (due < 0) return `−${plural(-due, "removal", "removals")}`;
  return "—";
}

/**
 * The powers whose orders never came in a phase (NMR), from the record alone: those it names
 * in civil disorder (a movement phase's silent powers), and those that sent nothing while
 * the rules had to act for them: every result of theirs the default (an outcome without
 * text), in a retreat phase only if one of their dislodged units had somewhere to go.
 */
export function missedPowers(
  ph: Pick<PhaseRecord, "phase" | "orders" | "results" | "civilDisorder" | "dislodged">,
  before?: PhaseRecord["dislodged"],
): Set<string> {
  const out = new Set(ph.civilDisorder ?? []);
  const retreat = ph.phase.endsWith("R");
  for (const [power, list] of Object.entries(ph.results)) {
    if (list.length === 0 || ph.orders[power]?.length || list.some((r) => r.text !== null))
      continue;
    if (retreat && !(before?.[power] ?? []).some((d) => d.retreats.length > 0)) continue;
    out.add(power);
  }
  return out;
}

/**
 * The builds a power left unordered in an adjustment phase (waived by the rules, seed 001 §3:
 * no NMR, so the record names nobody), from the position before it: as many as its centres
 * exceed its units, at most as many as its own home centres it holds with no unit in them
 * (`homes`: each province's home power, from the map), less the builds and waives it ordered.
 * Removals left unordered are in the results already (the rules' choices, without text).
 */
export function unorderedBuilds(
  ph: Pick<PhaseRecord, "phase" | "results">,
  before: BoardPosition,
  homes: Readonly<Record<string, string | null | undefined>>,
): { power: string; due: number; missing: number }[] {
  if (!/A$/.test(ph.phase)) return [];
  const occupied = new Set(
    Object.values(before.units)
      .flat()
      .map((u) => (u.split(/\s+/)[1] ?? "").split("/")[0]!),
  );
  const out: { power: string; due: number; missing: number }[] = [];
  for (const [power, centres] of Object.entries(before.centers ?? {})) {
    const surplus = centres.length - (before.units[power]?.length ?? 0);
    if (surplus <= 0) continue;
    const sites = centres.filter((c) => homes[c] === power && !occupied.has(c)).length;
    const due = Math.min(surplus, sites);
    const ordered = (ph.results[power] ?? []).filter((r) =>
      /^(?:build|waive)\b/i.test(r.order ?? ""),
    ).length;
    if (due > ordered) out.push({ power, due, missing: due - ordered });
  }
  return out;
}

/** What the rules did for a power that sent nothing, by the kind of phase. */
export function missedWords(phase: string): string {
  const type = phase.slice(-1);
  if (type === "R") return "no orders received: dislodged units disbanded";
  if (type === "A") return "no orders received: the rules chose for it";
  return "no orders received: units held";
}

/** The supply centres per power over the game's years (the chart beside the board). */
export interface CentreHistory {
  /** "start", then each year played ("1901", ...): the centres at the end of it so far. */
  labels: string[];
  /** Every power that held a centre, most centres now first; a count per label. */
  series: { power: string; counts: number[] }[];
}

/**
 * Reads the centres from a record: the start, then the position after the last phase played
 * of each year (a phase `S1901M` is of year 1901; a phase named otherwise is a point of its
 * own). A record whose positions carry no centres (a fogged one) gives no series.
 */
export function centreHistory(record: Pick<GameRecord, "start" | "phases">): CentreHistory {
  const points: { label: string; position: BoardPosition }[] = [
    { label: "start", position: record.start },
  ];
  for (const ph of record.phases) {
    const year = /^[A-Z](\d+)[A-Z]$/.exec(ph.phase)?.[1] ?? ph.phase;
    const last = points[points.length - 1]!;
    if (points.length > 1 && last.label === year) last.position = ph.position;
    else points.push({ label: year, position: ph.position });
  }
  const powers = new Set(points.flatMap((p) => Object.keys(p.position.centers ?? {})));
  const series = [...powers]
    .map((power) => ({
      power,
      counts: points.map((p) => p.position.centers?.[power]?.length ?? 0),
    }))
    .filter((s) => s.counts.some((c) => c > 0))
    .sort(
      (a, b) =>
        b.counts[b.counts.length - 1]! - a.counts[a.counts.length - 1]! ||
        a.power.localeCompare(b.power),
    );
  return { labels: points.map((p) => p.label), series };
}

/** A message's phase, kind, author, recipients, text and time, sent or held for review. */
export interface PressText {
  phase: string;
  kind: string;
  /** The author's power, "gm", or null when the viewer may not know (grey press). */
  from: string | null;
  fromName: string;
  to: "all" | string[];
  body: string;
  at: string;
}

/** A message as `GET /api/games/:id/press` gives it (grey press to others without `from`). */
export interface PressItem extends PressText {
  id: number;
  yours?: boolean;
}

/** A conversation: the public one, one with a correspondent or a group, or the anonymous. */
export interface PressThread {
  /** "all", "anonymous", or the correspondents' powers sorted and joined by commas. */
  key: string;
  /** Whom a reply goes to: "all", the powers, or nobody (anonymous press has no address). */
  to: "all" | string[];
  items: PressItem[];
  /** Messages not yet read by this viewer (their own never count). */
  unread: number;
}

/**
 * The viewer's press as conversations: everything to everybody is the public thread; a
 * message to some powers belongs with the people in it other than the viewer (author and
 * recipients; the GM, who has no power, sees each group whole); grey press whose author the
 * viewer may not know is the anonymous thread. `read` holds, per thread, the last message
 * id the viewer has read. The public thread comes first, then the latest conversation.
 */
export function pressThreads(
  items: readonly PressItem[],
  mine: readonly string[],
  read: Readonly<Record<string, number>> = {},
): PressThread[] {
  const threads = new Map<string, PressThread>();
  threads.set("all", { key: "all", to: "all", items: [], unread: 0 });
  for (const m of items) {
    let key: string;
    let to: PressThread["to"];
    if (m.to === "all") [key, to] = ["all", "all"];
    else if (m.from === null) [key, to] = ["anonymous", []];
    else {
      const people = [...new Set([m.from, ...m.to])].filter((p) => !mine.includes(p)).sort();
      key = people.join(",");
      to = people.filter((p) => p !== "gm");
    }
    let t = threads.get(key);
    if (!t) {
      t = { key, to, items: [], unread: 0 };
      threads.set(key, t);
    }
    t.items.push(m);
    if (!m.yours && m.id > (read[key] ?? 0)) t.unread++;
  }
  const last = (t: PressThread) => t.items[t.items.length - 1]?.id ?? 0;
  return [...threads.values()].sort(
    (a, b) => Number(b.key === "all") - Number(a.key === "all") || last(b) - last(a),
  );
}
