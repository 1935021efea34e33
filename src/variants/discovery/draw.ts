/**
 * The text map of an Age of Discovery report (appendix C): every area the player knows,
 * drawn square by square in the player's own coordinates, each area's data in its anchor
 * square as the seed draws it:
 *
 *      +-----+    XXX  area id
 *      | XXX |    T    area type (L land, C coast, W water)
 *      | TAA |    AA   supply points (* one, ** two)
 *      | BCD |    B    area owner, C unit owner (players' initials), D unit type
 *      +-----+         (A army, C corps, F fleet, S squadron)
 *
 * The other squares of a larger area show its id only, and no border is drawn between
 * squares of one area. Areas known but not seen this turn show "???" for B, C and D. Only the
 * part of the torus holding known squares is drawn (the smallest window, wrapping, that
 * holds them all), with the player's XX above each column and YY left of each row.
 */
import type { AreaId, PowerId, UnitKind } from "../global/types.ts";
import { UNIT_LETTERS } from "../global/types.ts";
import type { DiscoveryMap } from "./areas.ts";
import { playerLetter } from "./mapdata.ts";
import { playerCoordinates, squareOfPlayerCoordinates } from "./names.ts";

/** What the player sees of an area this turn; null when it is known but not seen now. */
export interface Sight {
  readonly owner?: PowerId;
  readonly unit?: { readonly power: PowerId; readonly kind: UnitKind };
}

const TERRAIN_LETTER = { land: "L", coast: "C", water: "W" } as const;

/**
 * The positions (0-based, in one axis of the player's frame) to draw: all of `used`, as one
 * run that may wrap, leaving out the longest run of unused positions.
 */
export function window(size: number, used: ReadonlySet<number>): number[] {
  if (used.size === 0) return [];
  let bestStart = 0;
  let bestLen = 0;
  for (let s = 0; s < size; s++) {
    if (used.has(s) || !used.has((s - 1 + size) % size)) continue;
    let len = 0;
    while (len < size && !used.has((s + len) % size)) len++;
    if (len > bestLen) {
      bestLen = len;
      bestStart = s;
    }
  }
  const first = (bestStart + bestLen) % size;
  return Array.from({ length: size - bestLen }, (_, i) => (first + i) % size);
}

const two = (n: number): string => String(n).padStart(2, "0");

/**
 * The map of `known` areas for `player`; `sight(area)` says what it sees there now (null:
 * known but not seen this turn).
 */
export function drawMap(
  map: DiscoveryMap,
  player: number,
  known: Iterable<AreaId>,
  sight: (area: AreaId) => Sight | null,
): string {
  const knownSet = new Set(known);
  const xs = new Set<number>();
  const ys = new Set<number>();
  for (const a of knownSet) {
    for (const s of map.areas[a - 1]?.squares ?? []) {
      const c = playerCoordinates(map, player, s);
      xs.add(c.x);
      ys.add(c.y);
    }
  }
  const cols = window(map.width, xs);
  const rows = window(map.height, ys);
  if (cols.length === 0) return "(no known areas)\n";
  /** The known area at a window cell, or 0. */
  const at = (i: number, j: number): number => {
    if (i < 0 || j < 0 || i >= cols.length || j >= rows.length) return 0;
    const a = map.squareArea[squareOfPlayerCoordinates(map, player, cols[i]!, rows[j]!)]!;
    return knownSet.has(a) ? a : 0;
  };
  const border = (a: number, b: number): boolean => (a !== 0 || b !== 0) && a !== b;
  const width = 3 + cols.length * 6 + 1;
  const canvas: string[][] = Array.from({ length: 1 + rows.length * 4 + 1 }, () =>
    new Array<string>(width).fill(" "),
  );
  const put = (r: number, c: number, text: string): void => {
    for (const [k, ch] of [...text].entries()) canvas[r]![c + k] = ch;
  };
  for (const [i, x] of cols.entries()) put(0, 3 + 6 * i + 2, two(x + 1));
  for (const [j, y] of rows.entries()) put(1 + 4 * j + 1, 0, two(y + 1));
  for (let j = 0; j <= rows.length; j++) {
    for (let i = 0; i <= cols.length; i++) {
      const r = 1 + 4 * j;
      const c = 3 + 6 * i;
      const h = border(at(i, j - 1), at(i, j)); // the edge above cell (i, j)
      const v = border(at(i - 1, j), at(i, j)); // the edge left of cell (i, j)
      if (i < cols.length && h) put(r, c + 1, "-----");
      if (j < rows.length && v) for (let k = 1; k <= 3; k++) put(r + k, c, "|");
      const hLeft = border(at(i - 1, j - 1), at(i - 1, j));
      const vUp = border(at(i - 1, j - 1), at(i, j - 1));
      if (h || v || hLeft || vUp) put(r, c, "+");
      const a = at(i, j);
      if (a === 0 || i >= cols.length || j >= rows.length) continue;
      const area = map.areas[a - 1]!;
      put(r + 1, c + 1, ` ${String(a).padStart(3)} `);
      const square = squareOfPlayerCoordinates(map, player, cols[i]!, rows[j]!);
      if (area.squares[0] !== square) continue;
      const sc = area.supply === 2 ? "**" : area.supply === 1 ? "* " : "  ";
      put(r + 2, c + 1, ` ${TERRAIN_LETTER[area.terrain]}${sc} `);
      const seen = sight(a);
      const bcd =
        seen === null
          ? "???"
          : `${seen.owner !== undefined ? playerLetter(seen.owner) : " "}${
              seen.unit ? `${playerLetter(seen.unit.power)}${UNIT_LETTERS[seen.unit.kind]}` : "  "
            }`;
      put(r + 3, c + 1, ` ${bcd} `);
    }
  }
  return `${canvas.map((l) => l.join("").trimEnd()).join("\n")}\n`;
}
