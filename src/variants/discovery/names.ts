/**
 * Square and area names per player (appendix C): "Area Ids are the same for each player, but
 * the corresponding area name (represented by their X Y coordinates) are different for each
 * player."
 *
 * Each player sees the torus shifted by their own offset (dx, dy), drawn at generation
 * (generate.ts) and distinct for every player: the square at (x, y) of the map's own frame is
 * named XXYY with XX = ((x + dx) mod width) + 1 and YY = ((y + dy) mod height) + 1, two digits
 * each with leading zeros (the seed's "0201"). X grows to the east (left to right), Y to the
 * south (top to bottom). A shift keeps the map's shape, so two players who find an area id in
 * common can compare its names and line their maps up, as the seed says; before that, names
 * tell them nothing about each other's maps. An area's name is the name of its anchor square
 * (the first of its squares); a spy may name any square of an area.
 */
import { areaOf, type DiscoveryMap } from "./areas.ts";
import { coordinates, squareAt } from "./grid.ts";

function offset(map: DiscoveryMap, player: number): { readonly dx: number; readonly dy: number } {
  const o = map.offsets[player - 1];
  if (o === undefined) {
    throw new Error(`no player ${player}: this map has players 1 to ${map.players}`);
  }
  return o;
}

/** A square's (x, y) in the player's frame, 0-based. */
export function playerCoordinates(
  map: DiscoveryMap,
  player: number,
  square: number,
): { readonly x: number; readonly y: number } {
  const { dx, dy } = offset(map, player);
  const { x, y } = coordinates(map, square);
  return { x: (x + dx) % map.width, y: (y + dy) % map.height };
}

/** The square at the player's 0-based (x, y). */
export function squareOfPlayerCoordinates(
  map: DiscoveryMap,
  player: number,
  x: number,
  y: number,
): number {
  const { dx, dy } = offset(map, player);
  return squareAt(map, x - dx, y - dy);
}

const two = (n: number): string => String(n).padStart(2, "0");

/** The player's name for a square: XXYY, 1-based, with leading zeros. */
export function squareName(map: DiscoveryMap, player: number, square: number): string {
  const { x, y } = playerCoordinates(map, player, square);
  return `${two(x + 1)}${two(y + 1)}`;
}

/** The player's name for an area: the name of its anchor square. */
export function areaName(map: DiscoveryMap, player: number, area: number): string {
  return squareName(map, player, areaOf(map, area).squares[0]!);
}

export type Resolved =
  | { readonly ok: true; readonly area: number }
  | { readonly ok: false; readonly reason: string };

/**
 * The square a player means by XXYY, or why it is not one: exactly four digits, XX from 01 to
 * the map's width, YY from 01 to its height.
 */
export function squareOfName(
  map: DiscoveryMap,
  player: number,
  name: string,
):
  | { readonly ok: true; readonly square: number }
  | { readonly ok: false; readonly reason: string } {
  const m = /^(\d\d)(\d\d)$/.exec(name.trim());
  if (!m) return { ok: false, reason: `"${name}" is not a square: write XXYY, as 0201` };
  const x = Number(m[1]);
  const y = Number(m[2]);
  if (x < 1 || x > map.width) {
    return {
      ok: false,
      reason: `no column ${m[1]} in ${name}: X runs from 01 to ${two(map.width)}`,
    };
  }
  if (y < 1 || y > map.height) {
    return { ok: false, reason: `no row ${m[2]} in ${name}: Y runs from 01 to ${two(map.height)}` };
  }
  return { ok: true, square: squareOfPlayerCoordinates(map, player, x - 1, y - 1) };
}

/**
 * What a player's spy target means: four digits are a square (XXYY, the player's own names),
 * one to three digits an area id. Area ids never exceed 999 (generate.ts), so the two cannot
 * be confused.
 */
export function resolveTarget(map: DiscoveryMap, player: number, token: string): Resolved {
  const t = token.trim();
  if (/^\d{4}$/.test(t)) {
    const s = squareOfName(map, player, t);
    return s.ok ? { ok: true, area: map.squareArea[s.square]! } : s;
  }
  if (/^\d{1,3}$/.test(t)) {
    const id = Number(t);
    if (id >= 1 && id <= map.areas.length) return { ok: true, area: id };
    return { ok: false, reason: `no area ${t}: areas are numbered 1 to ${map.areas.length}` };
  }
  return {
    ok: false,
    reason: `"${token}" is neither an area id (1 to ${map.areas.length}) nor a square (XXYY, as 0201)`,
  };
}
