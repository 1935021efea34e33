import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { visibleAreas } from "../variants/discovery/fog.ts";
import { GenerateError } from "../variants/discovery/generate.ts";
import { mapGeometry as gridGeometry, playerGeometry } from "../variants/discovery/geometry.ts";
import { discoveryStart, mapOfPosition, readKnowledge } from "../variants/discovery/index.ts";
import { areaName as discoveryAreaName } from "../variants/discovery/names.ts";
import type { GlobalMap } from "../variants/global/map.ts";
import { GlobalPositionError, readGlobalPosition } from "../variants/global/position.ts";
import { tallyOf } from "../variants/global/state.ts";
import type { GameState } from "../variants/global/types.ts";
import { UNIT_LETTERS } from "../variants/global/types.ts";
import { worldMap } from "../variants/global/world.ts";
import { type AreaLike, sourceOfAreas, specOfAreas } from "./areas.ts";
import { buildMap } from "./geometry.ts";
import type { BuiltMap, DeclaredDifference, GeometrySpec, NeutralSpec } from "./geometry-spec.ts";
import { keptGeometry } from "./kept.ts";
import { drawBoard } from "./layers.ts";
import type { BoardView, MapGeometry, PowerTally, RenderOptions } from "./types.ts";

/*
 * The two game families that are not Variants, drawn with the same machinery as the others
 * (docs/maps.md): Global Diplomacy's world (its areas' lon/lat anchors plus the extra anchors,
 * neutral land and declared differences of src/variants/global/geometry.json, on a world
 * projection) and Age of Discovery's generated maps (each area its merged squares, for the
 * moderator in the map's own frame or for one player in that player's frame, showing only
 * what that player knows).
 */

type LonLat = [number, number];

/** src/variants/global/geometry.json: what the world map adds to the areas' own anchors. */
export interface WorldGeometryFile {
  projection: NonNullable<GeometrySpec["projection"]>;
  extent: [LonLat, LonLat];
  width: number;
  fontSize?: number;
  /** The check raster's width in pixels (geometry.ts; the world needs more than 1800). */
  raster?: number;
  /** Extra anchors per area (after the area's own, which stays first: its main city). */
  anchors: Record<string, LonLat[]>;
  neutral?: Record<string, NeutralSpec>;
  declared?: DeclaredDifference[];
}

const here = dirname(fileURLToPath(import.meta.url));
const WORLD_FILE = join(here, "..", "variants", "global", "geometry.json");

/** How an area is written on the world map: its number, then its name (`20 Belgium`). */
export const worldLabel = (id: number, name: string): string => `${id} ${name}`;

function readWorldFile(): WorldGeometryFile {
  if (!existsSync(WORLD_FILE)) throw new Error(`missing ${WORLD_FILE}`);
  return JSON.parse(readFileSync(WORLD_FILE, "utf8")) as WorldGeometryFile;
}

/** The world map's GeometrySpec: every area's anchor first, then the file's extra anchors. */
export function worldSpec(map: GlobalMap = worldMap): GeometrySpec {
  const file = readWorldFile();
  const spec = specOfAreas(map.areas as readonly AreaLike[], {
    projection: file.projection,
    extent: file.extent,
    width: file.width,
    ...(file.fontSize ? { fontSize: file.fontSize } : {}),
    ...(file.raster ? { raster: file.raster } : {}),
    ...(file.neutral ? { neutral: file.neutral } : {}),
    ...(file.declared ? { declared: file.declared } : {}),
  });
  for (const [id, extra] of Object.entries(file.anchors)) {
    const p = spec.provinces[id];
    if (!p) throw new Error(`global geometry.json: anchors for ${id}, which is not an area`);
    if (p.land) p.land = [...p.land, ...extra];
    else if (p.water) p.water = [...p.water, ...extra];
  }
  return spec;
}

let worldBuilt: BuiltMap | null = null;
let worldDrawn: MapGeometry | null = null;

/** What the world map is drawn for: its areas with their labels, and its powers. */
function worldSource(map: GlobalMap = worldMap) {
  const areas = map.areas.map((a) => ({ ...a, name: worldLabel(a.id, a.name) }));
  return sourceOfAreas("global", areas, powersOf(map));
}

/** The world map, built once (about a second) and kept in this process. */
export function worldMapBuilt(): BuiltMap {
  if (worldBuilt) return worldBuilt;
  worldBuilt = decorate(buildMap(worldSource(), worldSpec()), worldMap);
  return worldBuilt;
}

/**
 * The world map as drawn: built in this process, else kept on disk by an earlier one
 * (kept.ts; the areas and powers are part of its key, for the centres' values and the
 * capitals drawn on it), else built now.
 */
export function worldGeometry(): MapGeometry {
  if (worldBuilt) return worldBuilt.geometry;
  worldDrawn ??= keptGeometry(
    worldSource(),
    worldSpec(),
    () => worldMapBuilt().geometry,
    JSON.stringify({ areas: worldMap.areas, powers: worldMap.powers }),
  );
  return worldDrawn;
}

/**
 * The powers in the order the standard palette (layers.ts) colours them, chosen so that the
 * seven classical powers keep their usual colours (Austria red, Italy green, Russia purple,
 * the Ottomans gold, France sky blue, England navy, Germany slate) and the others take the
 * rest (China orange, Japan brown, Spain-Portugal pink, the United States teal).
 */
const WORLD_COLOUR_ORDER = [1, 2, 6, 9, 8, 4, 7, 10, 11, 3, 5];

function powersOf(map: GlobalMap): { id: string; name: string; letter: string }[] {
  const rank = (id: number) => {
    const i = WORLD_COLOUR_ORDER.indexOf(id);
    return i < 0 ? WORLD_COLOUR_ORDER.length + id : i;
  };
  return [...map.powers]
    .sort((a, b) => rank(a.id) - rank(b.id))
    .map((p) => ({ id: String(p.id), name: p.name, letter: String(p.id) }));
}

/**
 * Supply-centre values and capitals on the base map: a 2-point centre gets a second ring
 * round its marker, a capital a star round it (the owner's colour fills the marker itself).
 */
function decorate(built: BuiltMap, map: GlobalMap): BuiltMap {
  const fs = built.geometry.fontSize ?? built.geometry.width / 100;
  const r = (v: number) => Math.round(v * 10) / 10;
  const marks: string[] = [];
  for (const a of map.areas) {
    const g = built.geometry.provinces[String(a.id)];
    if (!g?.centerMark) continue;
    const [x, y] = g.centerMark;
    if (a.capital !== undefined) {
      const pts: string[] = [];
      for (let i = 0; i < 10; i++) {
        const rad = (i % 2 === 0 ? 0.85 : 0.5) * fs;
        const ang = -Math.PI / 2 + (i * Math.PI) / 5;
        pts.push(`${r(x + rad * Math.cos(ang))},${r(y + rad * Math.sin(ang))}`);
      }
      marks.push(
        `<polygon class="capital" points="${pts.join(" ")}" fill="#fff" stroke="#7a1010" stroke-width="${r(fs * 0.09)}"><title>capital of ${map.powerName(a.capital)}</title></polygon>`,
      );
    }
    if (a.supply === 2) {
      marks.push(
        `<circle class="sc2" cx="${x}" cy="${y}" r="${r(fs * 0.45)}" fill="none" stroke="#333" stroke-width="${r(fs * 0.08)}"><title>2-point supply centre</title></circle>`,
      );
    }
  }
  const base = built.geometry.base;
  const cut = base.indexOf('<g class="labels"');
  const geometry: MapGeometry = {
    ...built.geometry,
    base: cut >= 0 ? base.slice(0, cut) + marks.join("") + base.slice(cut) : base + marks.join(""),
  };
  return { ...built, geometry };
}

/**
 * A Global Diplomacy (or Age of Discovery) game state as the board's view. With its map, the
 * legend's counts (`tally`): each power's supply centres (owned areas with supply value, not
 * every area owned), units and their points, from `counted` (the whole state, where `state`
 * is what a player sees); a power `known` says no to is unknown, not 0.
 */
export function boardOfState(
  state: GameState,
  phase: string,
  map?: GlobalMap,
  known: (p: number) => boolean = () => true,
  counted: GameState = state,
): BoardView {
  const units: Record<string, string[]> = {};
  for (const u of state.units) {
    const k = String(u.power);
    units[k] = [...(units[k] ?? []), `${UNIT_LETTERS[u.kind]} ${u.area}`];
  }
  const centers: Record<string, string[]> = {};
  for (const [a, p] of Object.entries(state.owners)) {
    const k = String(p);
    centers[k] = [...(centers[k] ?? []), a];
  }
  if (!map) return { position: { variant: state.variant, phase, units, centers } };
  const tally: Record<string, PowerTally | null> = {};
  for (const p of map.powers)
    tally[String(p.id)] = known(p.id) ? tallyOf(map, counted, p.id) : null;
  return { position: { variant: state.variant, phase, units, centers, tally } };
}

/** The world drawn with a position JSON (docs/global.md; absent: the start). */
export function drawWorld(position: Record<string, unknown> = {}, options?: RenderOptions): string {
  const state = readGlobalPosition(worldMap, position);
  return drawBoard(worldGeometry(), boardOfState(state, `turn ${state.turn}`, worldMap), options);
}

// ---------------------------------------------------------------------------------------
// Age of Discovery

/** Map units per grid square: the moderator's whole map, and a player's (mostly empty) one. */
export const SQUARE = 24;
export const PLAYER_SQUARE = 40;

/** Colour of the grid where no known area lies (a player's unexplored world). */
const UNKNOWN = "#e6e3dc";

/**
 * A generated map drawn whole (moderator) or as one player knows it (`player`): in the
 * player's frame, only the areas it knows, named with its own square names. A margin row and
 * column carry the frame's X (top) and Y (left) numbers, so every square's XXYY name can be
 * read off. Adjacency across the grid's wrapping edge is declared (the grid is drawn as is,
 * not wrapped).
 */
export function discoveryBuilt(position: Record<string, unknown>, player?: number): BuiltMap {
  const { map: dmap, global: gmap } = mapOfPosition(position);
  const state = readGlobalPosition(gmap, position);
  const size = player === undefined ? SQUARE : PLAYER_SQUARE;
  // Squares shifted by one for the margin that holds the coordinates.
  // A player's map starts where the smallest wrapping window of its known squares starts, as
  // its report's map does, so what it knows is drawn in one piece (the X and Y numbers follow).
  let [sx, sy] = [0, 0];
  const shift = (sq: readonly (readonly [number, number])[]) =>
    sq.map(
      ([x, y]) =>
        [
          ((x - sx + dmap.width) % dmap.width) + 1,
          ((y - sy + dmap.height) % dmap.height) + 1,
        ] as const,
    );
  let areas: AreaLike[];
  if (player === undefined) {
    const grid = gridGeometry(dmap);
    areas = gmap.areas.map((a) => ({
      ...a,
      name: String(a.id),
      squares: shift(grid.areas[a.id - 1]?.squares ?? []),
    }));
  } else {
    if (!gmap.power(player)) {
      throw new FamilyRenderError(`no player ${player}: this map has players 1 to ${dmap.players}`);
    }
    const known = new Set(readKnowledge(dmap, gmap, state, position.known)[player] ?? []);
    for (const a of visibleAreas(dmap, state, player, [])) known.add(a);
    const grid = playerGeometry(dmap, player, known);
    const squares = grid.areas.flatMap((g) => g.squares);
    sx = windowStart(
      squares.map(([x]) => x),
      dmap.width,
    );
    sy = windowStart(
      squares.map(([, y]) => y),
      dmap.height,
    );
    areas = grid.areas.map((g) => {
      const a = gmap.area(g.id)!;
      return {
        ...a,
        name: `${a.id} ${discoveryAreaName(dmap, player, a.id)}`,
        squares: shift(g.squares),
        adjacency: a.adjacency.filter((e) => known.has(e.to)),
      };
    });
  }
  const declared = wrapDeclarations(areas);
  const width = (dmap.width + 1) * size;
  const spec = specOfAreas(areas, {
    width,
    height: (dmap.height + 1) * size,
    fontSize: 10,
    // One raster pixel a map unit: squares are exact, and labels place fast.
    raster: width,
    square: size,
    declared,
  });
  const powers = gmap.powers.map((p) => ({
    id: String(p.id),
    name: p.name,
    letter: p.name.charAt(0),
  }));
  const built = buildMap(sourceOfAreas("discovery", areas, powers), spec);
  const two = (n: number) => String(n).padStart(2, "0");
  const axes: string[] = [];
  const text = (x: number, y: number, t: string) =>
    `<text x="${x}" y="${y}" font-size="9" text-anchor="middle" dominant-baseline="central" fill="#555">${t}</text>`;
  for (let x = 0; x < dmap.width; x++)
    axes.push(text((x + 1.5) * size, size / 2, two(((x + sx) % dmap.width) + 1)));
  for (let y = 0; y < dmap.height; y++)
    axes.push(text(size / 2, (y + 1.5) * size, two(((y + sy) % dmap.height) + 1)));
  const frame = `<g class="axes" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif"><title>${player === undefined ? "the map's own frame (moderator)" : `player ${player}'s X (top) and Y (left): a square is named XXYY`}</title>${axes.join("")}</g>`;
  const base = built.geometry.base.replace(
    /<rect class="sea-bg" width="([\d.]+)" height="([\d.]+)" fill="[^"]*"\/>/,
    `<rect class="sea-bg unknown" width="$1" height="$2" fill="${UNKNOWN}"/>${frame}`,
  );
  return decorate({ ...built, geometry: { ...built.geometry, base } }, gmap);
}

/**
 * Where the smallest window holding these coordinates starts on a wrapping axis of `n`: just
 * after the longest run of coordinates not held (0 when all are).
 */
export function windowStart(held: readonly number[], n: number): number {
  const has = new Set(held);
  if (has.size === 0 || has.size === n) return 0;
  let best = -1;
  let bestLen = -1;
  for (let i = 0; i < n; i++) {
    if (has.has(i) || !has.has((i - 1 + n) % n)) continue;
    // i starts a gap: how long is it?
    let len = 0;
    while (!has.has((i + len) % n)) len++;
    if (len > bestLen) {
      bestLen = len;
      best = (i + len) % n;
    }
  }
  return Math.max(0, best);
}

/** Adjacent areas whose squares only meet across the grid's edge (drawn apart). */
function wrapDeclarations(areas: readonly AreaLike[]): DeclaredDifference[] {
  const at = new Map<string, string>();
  for (const a of areas) for (const [x, y] of a.squares ?? []) at.set(`${x},${y}`, String(a.id));
  const touch = new Set<string>();
  for (const [k, id] of at) {
    const [x, y] = k.split(",").map(Number) as [number, number];
    for (const n of [`${x + 1},${y}`, `${x},${y + 1}`]) {
      const o = at.get(n);
      if (o && o !== id) touch.add(id < o ? `${id}|${o}` : `${o}|${id}`);
    }
  }
  const out: DeclaredDifference[] = [];
  const seen = new Set<string>();
  for (const a of areas) {
    for (const e of a.adjacency) {
      const [x, y] = [String(a.id), String(e.to)];
      const key = x < y ? `${x}|${y}` : `${y}|${x}`;
      if (seen.has(key) || touch.has(key) || !at.size) continue;
      seen.add(key);
      out.push({
        between: [x, y],
        adjacent: true,
        note: "neighbours across the grid's wrapping edge (the map is drawn unwrapped)",
        draw: false,
      });
    }
  }
  return out;
}

/** What a player sees on its own map: units and owners in the areas it sees this turn. */
export function discoveryView(position: Record<string, unknown>, player?: number): BoardView {
  const { map: dmap, global: gmap } = mapOfPosition(position);
  const state = readGlobalPosition(gmap, position);
  if (player === undefined) return boardOfState(state, `turn ${state.turn}`, gmap);
  const seen = visibleAreas(dmap, state, player, []);
  const shown: GameState = {
    ...state,
    units: state.units.filter((u) => seen.has(u.area)),
    owners: Object.fromEntries(Object.entries(state.owners).filter(([a]) => seen.has(Number(a)))),
  };
  // The player knows its own supply (its report says it); of the other realms, nothing.
  return boardOfState(shown, `turn ${state.turn}`, gmap, (p) => p === player, state);
}

/** A generated map drawn (the position's, or a new game's of seed and players). */
export function drawDiscovery(
  position: Record<string, unknown>,
  player?: number,
  options?: RenderOptions,
): string {
  const built = discoveryBuilt(position, player);
  return drawBoard(built.geometry, discoveryView(position, player), options);
}

/**
 * A viewer's own generated map as the web page draws it: the geometry (a player's: only the
 * areas it knows, named as its report names them, `153 0503`), the view (units and owners
 * only where it sees), and the frame around the areas it knows (a square's margin; null: the
 * whole map, as the GM's is).
 */
export function discoveryMapFor(
  position: Record<string, unknown>,
  player: number | null,
): { geometry: MapGeometry; view: BoardView; frame: [number, number, number, number] | null } {
  const built = discoveryBuilt(position, player ?? undefined);
  const g = built.geometry;
  const view = discoveryView(position, player ?? undefined);
  if (player === null) return { geometry: g, view, frame: null };
  let [x0, y0, x1, y1] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, 0, 0];
  for (const p of Object.values(g.provinces)) {
    const nums = (p.path ?? "").match(/-?\d+(?:\.\d+)?/g)?.map(Number) ?? [];
    for (let i = 0; i + 1 < nums.length; i += 2) {
      x0 = Math.min(x0, nums[i] as number);
      x1 = Math.max(x1, nums[i] as number);
      y0 = Math.min(y0, nums[i + 1] as number);
      y1 = Math.max(y1, nums[i + 1] as number);
    }
  }
  if (x1 <= x0) return { geometry: g, view, frame: null };
  const m = PLAYER_SQUARE;
  const box: [number, number, number, number] = [
    Math.max(0, x0 - m),
    Math.max(0, y0 - m),
    Math.min(g.width, x1 + m) - Math.max(0, x0 - m),
    Math.min(g.height, y1 + m) - Math.max(0, y0 - m),
  ];
  const whole = box[2] >= g.width && box[3] >= g.height;
  return { geometry: g, view, frame: whole ? null : box };
}

export { discoveryStart };

// ---------------------------------------------------------------------------------------
// `entente render --variant global|discovery`

/** The families drawn here rather than as a Variant. */
export const FAMILY_IDS = ["global", "discovery"] as const;

export interface FamilyRenderArgs {
  variant: string;
  /** A position JSON (docs/global.md, docs/discovery.md), already read. */
  position?: Record<string, unknown>;
  seed?: string;
  players?: string;
  player?: string;
  options?: RenderOptions;
}

/** Bad arguments or a bad position: the message says what was wrong and what is right. */
export class FamilyRenderError extends Error {}

const whole = (v: string | undefined, name: string, lo: number, hi: number): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < lo || n > hi) {
    throw new FamilyRenderError(`--${name} is a whole number from ${lo} to ${hi}, not ${v}`);
  }
  return n;
};

/** Draws a Global Diplomacy or Age of Discovery board; returns the SVG and what it shows. */
export function renderFamily(args: FamilyRenderArgs): { svg: string; summary: string } {
  try {
    if (args.variant === "global") {
      for (const [k, v] of [
        ["seed", args.seed],
        ["players", args.players],
        ["player", args.player],
      ] as const) {
        if (v !== undefined) throw new FamilyRenderError(`--${k} is for discovery, not global`);
      }
      const state = readGlobalPosition(worldMap, args.position ?? {});
      const svg = drawBoard(
        worldGeometry(),
        boardOfState(state, `turn ${state.turn}`, worldMap),
        args.options,
      );
      return { svg, summary: `global turn ${state.turn}, ${state.units.length} units` };
    }
    if (args.variant === "discovery") {
      let position = args.position;
      if (position) {
        if (args.seed !== undefined || args.players !== undefined) {
          throw new FamilyRenderError(
            "give --position or --seed/--players, not both (the position names its map)",
          );
        }
      } else {
        const seed = whole(args.seed, "seed", 0, 2 ** 31 - 1);
        if (seed === undefined) {
          throw new FamilyRenderError("discovery needs --seed S [--players N] or --position FILE");
        }
        position = discoveryStart(seed, whole(args.players, "players", 9, 20) ?? 9);
      }
      const player = whole(args.player, "player", 1, 20);
      const svg = drawDiscovery(position, player, args.options);
      const turn = typeof position.turn === "number" ? position.turn : 1;
      return {
        svg,
        summary: `discovery turn ${turn}, ${player === undefined ? "the whole map (moderator)" : `as player ${player} knows it`}`,
      };
    }
    throw new FamilyRenderError(`${args.variant} is not ${FAMILY_IDS.join(" or ")}`);
  } catch (e) {
    if (e instanceof GlobalPositionError || e instanceof GenerateError) {
      throw new FamilyRenderError(e.message);
    }
    throw e;
  }
}

/**
 * The routes' map for a family that is not a Variant: the world (static, public). Age of
 * Discovery has none: each game has its own map, and players must not see the whole of it.
 */
export function familyMap(id: string): { geometry: () => MapGeometry; start: () => string } | null {
  if (id !== "global") return null;
  return { geometry: worldGeometry, start: () => drawWorld() };
}
