import { tintOpacity } from "./colour.ts";
import type {
  BoardView,
  DrawnOrder,
  MapGeometry,
  MapStyle,
  Point,
  RenderOptions,
} from "./types.ts";

/*
 * A board drawn over a variant's base map: owners, units, orders and their results. Pure
 * string building with no imports beyond the types, so the web client bundles it as is.
 */

/** Colours by palette. `colorblind` is Okabe–Ito; patterns and letters back up the colour. */
const PALETTES: Record<"standard" | "colorblind", string[]> = {
  standard: [
    "#c0392b", // red
    "#e67e22", // orange
    "#2ea04a", // green
    "#8e44ad", // purple
    "#e0a800", // gold
    "#3fa7e0", // sky
    "#6e4b2a", // brown
    "#e83e8c", // pink
    "#17a2b8", // teal
    "#2e3f9e", // navy
    "#5d6d7e", // slate
  ],
  colorblind: [
    "#E69F00", // orange
    "#56B4E9", // sky blue
    "#009E73", // bluish green
    "#F0E442", // yellow
    "#0072B2", // blue
    "#D55E00", // vermillion
    "#CC79A7", // reddish purple
    "#000000", // black
    "#999999", // grey
    "#882255", // wine
  ],
};

/**
 * Familiar colours in the standard palette: the classical powers as on the usual board, and
 * their successors in other variants (the UK as England, the USSR as Russia).
 */
const CLASSIC: Record<string, string> = {
  austria: "#c0392b",
  england: "#2e3f9e",
  uk: "#2e3f9e",
  france: "#3fa7e0",
  germany: "#5d6d7e",
  italy: "#2ea04a",
  russia: "#8e44ad",
  ussr: "#8e44ad",
  turkey: "#e0a800",
};

/**
 * A colour per power, in the given order. In the standard palette a variant's own colours
 * (its style) come first, then the familiar ones, then the list; the colour-blind palette
 * ignores the variant's colours.
 */
export function powerColours(
  powers: readonly string[],
  palette: "standard" | "colorblind" = "standard",
  style?: MapStyle,
): Record<string, string> {
  const list = PALETTES[palette];
  const out: Record<string, string> = {};
  const used = new Set<string>();
  if (palette === "standard") {
    for (const p of powers) {
      const c = style?.colours?.[p] ?? CLASSIC[p];
      if (c) {
        out[p] = c;
        used.add(c);
      }
    }
  }
  for (const p of powers) {
    if (out[p]) continue;
    const c = list.find((x) => !used.has(x)) ?? (list[used.size % list.length] as string);
    out[p] = c;
    used.add(c);
  }
  return out;
}

/** Reads the engine's canonical order text (formatOrder) into a drawn order, or null. */
export function drawnOrderFromText(
  power: string,
  text: string,
  result?: DrawnOrder["result"],
): DrawnOrder | null {
  const t = text.trim().replace(/\s+/g, " ");
  const base = { power, ...(result ? { result } : {}) };
  if (/^waive$/i.test(t)) return { ...base, kind: "waive", unit: "" };
  let m = /^build ([A-Z]) (\S+)$/i.exec(t);
  if (m)
    return {
      ...base,
      kind: "build",
      unitType: (m[1] as string).toUpperCase(),
      unit: m[2] as string,
    };
  m = /^remove (?:([A-Z]) )?(\S+)$/i.exec(t);
  if (m) {
    const o: DrawnOrder = { ...base, kind: "remove", unit: m[2] as string };
    if (m[1]) o.unitType = m[1].toUpperCase();
    return o;
  }
  m = /^([A-Z]) (\S+) (.*)$/.exec(t);
  if (!m) return null;
  const unitType = m[1] as string;
  const unit = m[2] as string;
  const rest = m[3] as string;
  const u = { ...base, unitType, unit };
  if (rest === "H") return { ...u, kind: "hold" };
  if (rest === "D") return { ...u, kind: "disband" };
  let r = /^- (\S+)( via convoy)?$/.exec(rest);
  if (r) return { ...u, kind: "move", target: r[1] as string };
  r = /^S [A-Z] (\S+)(?: (?:-|in) (\S+))?$/.exec(rest);
  if (r) {
    const o: DrawnOrder = { ...u, kind: "support", from: r[1] as string };
    if (r[2]) o.target = r[2];
    return o;
  }
  r = /^C [A-Z] (\S+) - (\S+)$/.exec(rest);
  if (r) return { ...u, kind: "convoy", from: r[1] as string, target: r[2] as string };
  return null;
}

/** What an adjudicated order's entry holds (the contract's `orders` output, a record's phase). */
export interface OrderOutcomeJson {
  readonly order: string | null;
  readonly result: string;
  readonly reason?: string;
  readonly explanation?: string;
}

/**
 * An adjudicated phase's orders as the board draws them, each with its result and, as its
 * note, the explanation: how it came out in words, successes too (where there is no reason),
 * with what the reader corrected (the reason alone leaves that out); the reason where there is
 * no explanation (a record written to the plain contract, docs/adjudicate-json.md).
 */
export function drawnResults(
  results: Readonly<Record<string, readonly OrderOutcomeJson[]>>,
): DrawnOrder[] {
  const out: DrawnOrder[] = [];
  for (const [power, list] of Object.entries(results)) {
    for (const r of list) {
      if (!r.order) continue;
      const result =
        r.result === "succeeds" || r.result === "fails" || r.result === "invalid"
          ? r.result
          : undefined;
      const d = drawnOrderFromText(power, r.order, result);
      if (!d) continue;
      const note = r.explanation ?? r.reason;
      out.push(note ? { ...d, note } : d);
    }
  }
  return out;
}

const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const n = (v: number) => Math.round(v * 10) / 10;

/** Text colour readable on a fill. */
function ink(fill: string): string {
  const h = fill.replace("#", "");
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
  return 0.299 * r + 0.587 * g + 0.114 * b > 0.55 ? "#000" : "#fff";
}

/** Hatching per power (colour-blind palette): angle and spacing differ by power. */
function pattern(id: string, colour: string, index: number, size: number): string {
  const angles = [45, -45, 0, 90, 30, -30, 60, -60, 15, -15];
  const a = angles[index % angles.length] as number;
  const s = n(size * (0.5 + (index % 3) * 0.15));
  return `<pattern id="${id}" patternUnits="userSpaceOnUse" width="${s}" height="${s}" patternTransform="rotate(${a})"><rect width="${s}" height="${s}" fill="${colour}" fill-opacity="0.35"/><line x1="0" y1="0" x2="0" y2="${s}" stroke="${colour}" stroke-width="${n(s * 0.3)}"/></pattern>`;
}

/** The powers a board shows: the map's, in order, then any other in the position. */
function powersShown(geometry: MapGeometry, pos: BoardView["position"]): string[] {
  const ids = geometry.powers?.map((p) => p.id) ?? [];
  for (const p of [
    ...Object.keys(pos.units),
    ...Object.keys(pos.centers ?? {}),
    ...Object.keys(pos.dislodged ?? {}),
  ]) {
    if (!ids.includes(p)) ids.push(p);
  }
  return ids;
}

const letterOf = (geometry: MapGeometry, p: string) =>
  geometry.powers?.find((q) => q.id === p)?.letter ?? p.charAt(0).toUpperCase();

/**
 * A unit's piece (font size fs): round armies and hulls, or square armies and narrow fleets
 * (blocks).
 */
function pieceSvg(
  fs: number,
  blocks: boolean,
  type: string,
  x: number,
  y: number,
  c: string,
  dislodged = false,
): string {
  const r = fs * 0.9;
  const paint = `fill="${c}" stroke="${dislodged ? "#d00" : "#000"}" stroke-width="${n(fs * (dislodged ? 0.22 : 0.1))}"`;
  if (blocks) {
    const [w, h] = type === "F" ? [r * 2, r * 0.95] : [r * 1.7, r * 1.7];
    return `<rect class="piece" x="${n(x - w / 2)}" y="${n(y - h / 2)}" width="${n(w)}" height="${n(h)}" rx="${n(fs * 0.12)}" ${paint}/>`;
  }
  return type === "F"
    ? `<path d="M${n(x - r)} ${n(y - r * 0.55)}h${n(2 * r)}l${n(-r * 0.3)} ${n(r * 1.25)}h${n(-1.4 * r)}z" ${paint}/>`
    : `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r * 0.85)}" ${paint}/>`;
}

/** A power as the legend shows it. */
export interface LegendEntry {
  power: string;
  name: string;
  colour: string;
  /** A small `<svg>`: the power's army and fleet as the board draws them, in its colour. */
  swatch: string;
  /** Its supply centres (absent when the position says none: a fogged view) and units. */
  centres?: number;
  units: number;
}

/**
 * The legend of a board, entry by entry, for a page that lays it out itself (the web page
 * beside its map); `drawBoard(..., { legend: true })` draws the same in the picture.
 */
export function legendEntries(
  geometry: MapGeometry,
  position: BoardView["position"],
  palette: "standard" | "colorblind" = "standard",
): LegendEntry[] {
  const fs = 10;
  const powerIds = powersShown(geometry, position);
  const colours = powerColours(powerIds, palette, geometry.style);
  const blocks = geometry.style?.pieces === "blocks";
  return powerIds.map((p) => {
    const c = colours[p] ?? "#777";
    const mark = (type: string, x: number) => {
      const label = palette === "colorblind" ? `${type}${letterOf(geometry, p)}` : type;
      return `${pieceSvg(fs, blocks, type, x, 10, c)}<text x="${x}" y="10" font-size="${palette === "colorblind" || (blocks && type === "F") ? 7 : 9}" text-anchor="middle" dominant-baseline="central" font-weight="bold" fill="${ink(c)}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">${esc(label)}</text>`;
    };
    return {
      power: p,
      name: geometry.powers?.find((q) => q.id === p)?.name ?? p,
      colour: c,
      swatch: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 44 20" width="44" height="20" aria-hidden="true">${mark("A", 11)}${mark("F", 32)}</svg>`,
      ...(position.tally
        ? position.tally[p]
          ? { centres: position.tally[p].centres }
          : {}
        : position.centers
          ? { centres: position.centers[p]?.length ?? 0 }
          : {}),
      units: position.tally ? (position.tally[p]?.units ?? 0) : (position.units[p]?.length ?? 0),
    };
  });
}

/** Draws the board: a complete `<svg>` element. */
export function drawBoard(
  geometry: MapGeometry,
  view: BoardView,
  options: RenderOptions = {},
): string {
  const palette = options.palette ?? "standard";
  const fs = geometry.fontSize ?? geometry.width / 100;
  const r = fs * 0.9;
  const pos = view.position;
  const powerIds = powersShown(geometry, pos);
  const style = geometry.style ?? {};
  const colours = powerColours(powerIds, palette, style);
  const blocks = style.pieces === "blocks";
  const letter = (p: string) => letterOf(geometry, p);
  const provinceOf = (loc: string) => loc.split("/")[0] as string;
  const where = (loc: string): Point | null => {
    const [p, c] = loc.split("/");
    const g = geometry.provinces[p as string];
    if (!g) return null;
    return (c && g.coasts?.[c]) || g.unit;
  };

  const defs: string[] = [];
  const cb = palette === "colorblind";
  if (cb) {
    for (const [i, p] of powerIds.entries())
      defs.push(pattern(`pat-${p}`, colours[p] as string, i, fs));
  }
  for (const [p, c] of Object.entries(colours)) {
    defs.push(
      `<marker id="arrow-${p}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="${c}" stroke="#000" stroke-width="0.8"/></marker>`,
    );
  }
  defs.push(
    `<marker id="arrow-grey" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#999"/></marker>`,
  );

  // Owners: supply centres tint their province; a unit tints an unowned province lightly.
  const owner = new Map<string, string>();
  for (const [p, list] of Object.entries(pos.centers ?? {})) for (const c of list) owner.set(c, p);
  const occupied = new Map<string, string>();
  for (const [p, list] of Object.entries(pos.units)) {
    for (const u of list) occupied.set(provinceOf(u.split(" ")[1] ?? ""), p);
  }
  const tint: string[] = [];
  for (const [id, g] of Object.entries(geometry.provinces)) {
    if (g.kind === "sea" || !g.path) continue;
    const p = owner.get(id) ?? (g.center ? undefined : occupied.get(id));
    if (!p) continue;
    const fill = cb ? `url(#pat-${p})` : (colours[p] as string);
    const strong = tintOpacity(colours[p] as string, style.tint ?? 0.45, style.land, style.sea);
    const opacity = cb ? 1 : owner.has(id) ? strong : strong / 2;
    tint.push(
      `<path class="owner" data-power="${esc(p)}" d="${g.path}" fill="${fill}" fill-opacity="${opacity}" stroke="none" pointer-events="none"${g.clip ? ` clip-path="url(#${g.clip})"` : ""}/>`,
    );
  }
  const centreMarks: string[] = [];
  for (const [id, g] of Object.entries(geometry.provinces)) {
    const p = owner.get(id);
    if (!g.centerMark || !p) continue;
    const c = colours[p] as string;
    // Larger than the free centre's marker, in the owner's colour inside a white ring and a
    // dark rim, so it stands out on its owner's own tint and on the sea alike.
    centreMarks.push(
      `<g class="sc-owner" data-power="${esc(p)}"><circle cx="${g.centerMark[0]}" cy="${g.centerMark[1]}" r="${n(fs * 0.44)}" fill="${c}" stroke="#fff" stroke-width="${n(fs * 0.14)}"/><circle cx="${g.centerMark[0]}" cy="${g.centerMark[1]}" r="${n(fs * 0.52)}" fill="none" stroke="#222" stroke-width="${n(fs * 0.06)}"/></g>`,
    );
    if (cb) {
      centreMarks.push(
        `<text x="${g.centerMark[0]}" y="${g.centerMark[1]}" font-size="${n(fs * 0.45)}" text-anchor="middle" dominant-baseline="central" fill="${ink(c)}" font-weight="bold">${esc(letter(p))}</text>`,
      );
    }
  }

  const selected = new Set(view.selected ?? []);
  const piece = (type: string, x: number, y: number, c: string, dislodged = false) =>
    pieceSvg(fs, blocks, type, x, y, c, dislodged);
  const token = (p: string, type: string, at: Point, dislodged: boolean, loc: string) => {
    const c = colours[p] ?? "#777";
    const [x, y] = at;
    const sel = selected.has(loc) || selected.has(provinceOf(loc));
    const shape = piece(type, x, y, c, dislodged);
    const label = cb ? `${type}${letter(p)}` : type;
    const small = cb || (blocks && type === "F");
    const text = `<text x="${n(x)}" y="${n(y + (type === "F" && !blocks ? r * 0.08 : 0))}" font-size="${n(fs * (small ? 0.8 : 1))}" text-anchor="middle" dominant-baseline="central" font-weight="bold" fill="${ink(c)}">${esc(label)}</text>`;
    const ring = sel
      ? `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r * 1.35)}" fill="none" stroke="#ff0" stroke-width="${n(fs * 0.25)}"/>`
      : "";
    return `<g class="unit${dislodged ? " dislodged" : ""}" data-power="${esc(p)}" data-location="${esc(loc)}">${ring}${shape}${text}</g>`;
  };
  const units: string[] = [];
  for (const [p, list] of Object.entries(pos.units)) {
    for (const u of list) {
      const [type, loc] = u.split(" ") as [string, string];
      const at = where(loc);
      if (at) units.push(token(p, type, at, false, loc));
    }
  }
  for (const [p, list] of Object.entries(pos.dislodged ?? {})) {
    for (const d of list) {
      const [type, loc] = d.unit.split(" ") as [string, string];
      const g = geometry.provinces[provinceOf(loc)];
      if (g) units.push(token(p, type, g.dislodged, true, loc));
    }
  }

  // Units these orders dislodged: a red ring with a slash.
  for (const loc of view.dislodgedHere ?? []) {
    const at = where(loc);
    if (!at) continue;
    const [x, y] = at;
    const k = r * 1.3;
    units.push(
      `<g class="dislodged-mark" data-location="${esc(loc)}"><circle cx="${n(x)}" cy="${n(y)}" r="${n(k)}" fill="none" stroke="#d00" stroke-width="${n(fs * 0.22)}"/><path d="M${n(x - k * 0.7)} ${n(y + k * 0.7)}L${n(x + k * 0.7)} ${n(y - k * 0.7)}" stroke="#d00" stroke-width="${n(fs * 0.22)}"/></g>`,
    );
  }

  // Orders.
  const orders: string[] = [];
  const dislodgedAt = new Set<string>();
  for (const list of Object.values(pos.dislodged ?? {})) {
    for (const d of list) dislodgedAt.add(provinceOf(d.unit.split(" ")[1] ?? ""));
  }
  const shorten = (a: Point, b: Point, by: number): Point => {
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len = Math.hypot(dx, dy) || 1;
    const k = Math.max(0, len - by) / len;
    return [a[0] + dx * k, a[1] + dy * k];
  };
  const moveTargets = new Map<string, [Point, Point]>();
  for (const o of view.orders ?? []) {
    if ((o.kind === "move" || o.kind === "retreat") && o.target) {
      const a =
        o.kind === "retreat" ? geometry.provinces[provinceOf(o.unit)]?.dislodged : where(o.unit);
      const b = where(o.target);
      if (a && b) moveTargets.set(provinceOf(o.unit), [a, b]);
    }
  }
  for (const o of view.orders ?? []) {
    const invalid = o.result === "invalid";
    const failed = o.result === "fails";
    const c = invalid ? "#999" : (colours[o.power] ?? "#777");
    const marker = invalid ? "arrow-grey" : `arrow-${o.power}`;
    const w = n(fs * 0.32);
    const dash = failed || invalid ? ` stroke-dasharray="${n(fs * 0.6)} ${n(fs * 0.35)}"` : "";
    const title = `<title>${esc(`${o.power}: ${o.kind} ${o.unit}${o.from ? ` ${o.from}` : ""}${o.target ? ` → ${o.target}` : ""}${o.result ? ` (${o.result})` : ""}${o.note ? `: ${o.note}` : ""}`)}</title>`;
    const cls = `order ${o.kind}${o.result ? ` ${o.result}` : ""}`;
    const line = (a: Point, b: Point, arrow: boolean, extra = "") =>
      `<path d="M${n(a[0])} ${n(a[1])}L${n(b[0])} ${n(b[1])}" stroke="#000" stroke-opacity="0.55" stroke-width="${n(fs * 0.55)}" fill="none"${dash}/><path d="M${n(a[0])} ${n(a[1])}L${n(b[0])} ${n(b[1])}" stroke="${c}" stroke-width="${w}" fill="none"${dash}${arrow ? ` marker-end="url(#${marker})"` : ""}${extra}/>`;
    const cross = (at: Point) => {
      const s = fs * 0.55;
      return `<path d="M${n(at[0] - s)} ${n(at[1] - s)}L${n(at[0] + s)} ${n(at[1] + s)}M${n(at[0] - s)} ${n(at[1] + s)}L${n(at[0] + s)} ${n(at[1] - s)}" stroke="#d00" stroke-width="${n(fs * 0.3)}"/>`;
    };
    const mid = (a: Point, b: Point): Point => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    let body = "";
    if ((o.kind === "move" || o.kind === "retreat") && o.target) {
      const pair = moveTargets.get(provinceOf(o.unit));
      if (pair) {
        const [a, b] = pair;
        const end = shorten(a, b, r * 1.05);
        body = line(shorten(b, a, r * 0.9), end, true) + (failed ? cross(mid(a, end)) : "");
      }
    } else if (o.kind === "support" && o.from) {
      const a = where(o.unit);
      const from = where(o.from);
      if (a && from) {
        const goal = o.target ? where(o.target) : null;
        const b = goal ? mid(from, goal) : from;
        const dotted = ` stroke-dasharray="${n(fs * 0.2)} ${n(fs * 0.25)}"`;
        body = `<path d="M${n(a[0])} ${n(a[1])}L${n(b[0])} ${n(b[1])}" stroke="${c}" stroke-width="${w}" fill="none"${failed || invalid ? dash : dotted}/>`;
        body += goal
          ? `<circle cx="${n(b[0])}" cy="${n(b[1])}" r="${n(fs * 0.3)}" fill="${c}" stroke="#000" stroke-width="${n(fs * 0.06)}"/>`
          : `<circle cx="${n(from[0])}" cy="${n(from[1])}" r="${n(r * 1.25)}" fill="none" stroke="${c}" stroke-width="${w}"${dotted}/>`;
        if (failed) body += cross(mid(a, b));
      }
    } else if (o.kind === "convoy" && o.from && o.target) {
      const a = where(o.unit);
      const from = where(o.from);
      const to = where(o.target);
      if (a && from && to) {
        const m = mid(from, to);
        body = `<path d="M${n(a[0])} ${n(a[1])}L${n(m[0])} ${n(m[1])}" stroke="${c}" stroke-width="${w}" fill="none" stroke-dasharray="${n(fs * 0.15)} ${n(fs * 0.3)}" stroke-linecap="round"/>`;
        body += `<path d="M${n(m[0] - fs * 0.45)} ${n(m[1])}a${n(fs * 0.45)} ${n(fs * 0.3)} 0 0 0 ${n(fs * 0.9)} 0" fill="none" stroke="${c}" stroke-width="${w}"/>`;
        if (failed) body += cross(mid(a, m));
      }
    } else if (o.kind === "hold") {
      const a = where(o.unit);
      if (a)
        body = `<rect x="${n(a[0] - r * 1.2)}" y="${n(a[1] - r * 1.2)}" width="${n(r * 2.4)}" height="${n(r * 2.4)}" fill="none" stroke="${c}" stroke-width="${n(w * 0.7)}"${dash}/>`;
    } else if (o.kind === "build") {
      const a = where(o.unit);
      if (a) {
        body = token(o.power, o.unitType ?? "A", a, false, o.unit);
        body += `<circle cx="${n(a[0])}" cy="${n(a[1])}" r="${n(r * 1.4)}" fill="none" stroke="${invalid ? "#999" : "#0a0"}" stroke-width="${n(fs * 0.22)}"${dash}/>`;
      }
    } else if (o.kind === "remove" || o.kind === "disband") {
      const a =
        o.kind === "disband" && dislodgedAt.has(provinceOf(o.unit))
          ? geometry.provinces[provinceOf(o.unit)]?.dislodged
          : where(o.unit);
      if (a) {
        body = `<circle cx="${n(a[0])}" cy="${n(a[1])}" r="${n(r * 1.4)}" fill="none" stroke="${invalid ? "#999" : "#d00"}" stroke-width="${n(fs * 0.22)}"${dash}/>${invalid ? "" : cross(a)}`;
      }
    }
    if (body)
      orders.push(
        `<g class="${cls}" data-power="${esc(o.power)}"${invalid ? ' opacity="0.6"' : ""}>${title}${body}</g>`,
      );
  }

  // The choices open to the order being given: the rest of the map dimmed, each target
  // outlined. Land is cut to the coastline, a sea to the water, as the base draws them.
  let choices = "";
  const targetIds = [...new Set((view.targets ?? []).map(provinceOf))].filter(
    (p) => geometry.provinces[p]?.path,
  );
  if (targetIds.length > 0) {
    const landClip = /<clipPath id="([^"]+)"><path d="([^"]*)"/.exec(geometry.base);
    if (landClip) {
      defs.push(
        `<clipPath id="water-choice"><path d="M0 0H${geometry.width}V${geometry.height}H0Z${landClip[2]}" clip-rule="evenodd"/></clipPath>`,
      );
    }
    const cut = (g: (typeof geometry.provinces)[string]) =>
      g.clip
        ? ` clip-path="url(#${g.clip})"`
        : g.kind === "sea" && landClip
          ? ' clip-path="url(#water-choice)"'
          : "";
    const holes: string[] = [];
    const rings: string[] = [];
    for (const p of targetIds) {
      const g = geometry.provinces[p] as (typeof geometry.provinces)[string];
      holes.push(`<path d="${g.path}" fill="#000"${cut(g)}/>`);
      rings.push(
        `<path class="target" data-province="${esc(p)}" d="${g.path}" fill="#fff" fill-opacity="0.2" stroke="#1a1a1a" stroke-width="${n(fs * 0.5)}"${cut(g)}/><path d="${g.path}" fill="none" stroke="#ffd23f" stroke-width="${n(fs * 0.28)}"${cut(g)}/>`,
      );
    }
    defs.push(
      `<mask id="choice-dim"><rect width="${geometry.width}" height="${geometry.height}" fill="#fff"/>${holes.join("")}</mask>`,
    );
    choices = `<g class="targets" pointer-events="none"><rect class="dim" width="${geometry.width}" height="${geometry.height}" fill="#1d1d1d" fill-opacity="0.22" mask="url(#choice-dim)"/>${rings.join("")}</g>`;
  }

  const legend = options.legend ? drawLegend() : null;
  function drawLegend(): { svg: string; width: number; height: number } {
    // Sized from the map's width as well as its font: a world map's small font would make a
    // legend nobody reads on the whole picture.
    const L = Math.max(fs, geometry.width / 110);
    const k = L / fs;
    const row = L * 2.3;
    const width = L * 15;
    const x0 = geometry.width;
    const counted = pos.centers !== undefined || pos.tally !== undefined;
    const rows = powerIds.map((p, i) => {
      const y = L * 3.2 + i * row;
      const name = geometry.powers?.find((q) => q.id === p)?.name ?? p;
      const c = colours[p] ?? "#777";
      const t = pos.tally?.[p];
      const centres = pos.tally ? (t?.centres ?? 0) : (pos.centers?.[p]?.length ?? 0);
      const units = pos.tally ? (t?.units ?? 0) : (pos.units[p]?.length ?? 0);
      const plural = (k: number, one: string) => `${k} ${one}${k === 1 ? "" : "s"}`;
      const counts = !counted
        ? ""
        : pos.tally && !t
          ? "unknown"
          : t
            ? `${plural(centres, "centre")} (${plural(t.supplyPoints, "point")}), ${plural(units, "unit")} (${plural(t.unitPoints, "point")})`
            : `${plural(centres, "centre")}, ${plural(units, "unit")}`;
      const mark = cb
        ? `<text x="0" y="0" font-size="${n(fs * 0.8)}" text-anchor="middle" dominant-baseline="central" font-weight="bold" fill="${ink(c)}">${esc(letter(p))}</text>`
        : "";
      const swatch = `<g transform="translate(${n(x0 + L * 1.6)} ${n(y)}) scale(${n(k * 100) / 100})">${piece("A", 0, 0, c)}${mark}</g>`;
      return `<g class="legend-power" data-power="${esc(p)}"${counted && !(pos.tally && !t) ? ` data-centres="${centres}"` : ""}>${swatch}<text x="${n(x0 + L * 3)}" y="${n(y - (counted ? L * 0.45 : 0))}" font-size="${n(L)}" dominant-baseline="central" fill="#222">${esc(name)}</text>${counted ? `<text class="legend-count" x="${n(x0 + L * 3)}" y="${n(y + L * 0.6)}" font-size="${n(L * 0.75)}" dominant-baseline="central" fill="#555">${counts}</text>` : ""}</g>`;
    });
    const height = L * 3.2 + powerIds.length * row;
    const svg = `<g class="legend" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif"><rect x="${x0}" y="0" width="${n(width)}" height="${n(Math.max(height, geometry.height))}" fill="#faf7ef" stroke="#7a6f5a" stroke-width="${n(L * 0.1)}"/><text x="${n(x0 + L)}" y="${n(L * 1.4)}" font-size="${n(L * 1.1)}" font-weight="bold" fill="#222">${esc(pos.phase)}</text>${rows.join("")}</g>`;
    return { svg, width, height };
  }
  const svgWidth = n(geometry.width + (legend?.width ?? 0));
  const svgHeight = n(Math.max(geometry.height, legend?.height ?? 0));

  // The names sit above the owners' tint: the base is split where its labels begin.
  // Waterways (a canal, a river a fleet may sail) come just before the names, above the tint too.
  const water = geometry.base.indexOf('<g class="waterways"');
  const cut = water >= 0 ? water : geometry.base.indexOf('<g class="labels"');
  const base = cut >= 0 ? geometry.base.slice(0, cut) : geometry.base;
  const names = cut >= 0 ? geometry.base.slice(cut) : "";
  const labels = options.labels === false ? " <style>.labels{display:none}</style>" : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${svgWidth} ${svgHeight}" width="${svgWidth}" height="${svgHeight}" class="board" data-variant="${esc(geometry.variant)}" data-phase="${esc(pos.phase)}">${labels}<defs>${defs.join("")}</defs><g class="base">${base}</g><g class="owners">${tint.join("")}</g>${choices}<g class="names">${names}</g><g class="centres">${centreMarks.join("")}</g><g class="units" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">${units.join("")}</g><g class="orders" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">${orders.join("")}</g>${legend?.svg ?? ""}</svg>`;
}
