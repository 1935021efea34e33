/**
 * Fog of war in Age of Discovery (appendix C; docs/discovery.md):
 *
 * - A player knows the areas it has ever been to (owned, or held a unit in, at the start or
 *   at the end of any turn) or spied upon. Those are the areas its map shows (draw.ts).
 * - This turn it sees, in its report's body, the areas it owns or occupies, the areas it
 *   spied on, and the areas adjacent to those it owns or occupies (section 8).
 * - Twelve spies a turn, each to an area id or a square XXYY; a spy may go no further than
 *   two areas (borders crossed, whatever the terrain) from an area the player knew at the
 *   start of the turn or will end the turn in (owns or holds a unit in after the turn).
 */
import type { AreaId, GameState, PowerId } from "../global/types.ts";
import { areaDistances, type DiscoveryMap } from "./areas.ts";

/** Areas known per player (numbers as keys, as the position JSON writes them), sorted. */
export type Knowledge = Readonly<Record<PowerId, readonly AreaId[]>>;

/** How far a spy may go from what a player knows or will end the turn in. */
export const SPY_RANGE = 2;

/** The areas a power owns or has a unit in. */
export function presentAreas(state: GameState, power: PowerId): AreaId[] {
  const out = new Set<AreaId>();
  for (const [a, p] of Object.entries(state.owners)) if (p === power) out.add(Number(a));
  for (const u of state.units) if (u.power === power) out.add(u.area);
  return [...out].sort((a, b) => a - b);
}

/** What each player knows at the start of a game: where it is. */
export function initialKnowledge(map: DiscoveryMap, state: GameState): Knowledge {
  const out: Record<PowerId, AreaId[]> = {};
  for (const s of map.starts) out[s.player] = presentAreas(state, s.player);
  return out;
}

/** The areas a player may send spies to: within SPY_RANGE of `known` or `present`. */
export function spyRange(
  map: DiscoveryMap,
  known: Iterable<AreaId>,
  present: Iterable<AreaId>,
): Set<AreaId> {
  const from = new Set<AreaId>([...known, ...present]);
  const out = new Set<AreaId>();
  for (const [a, d] of areaDistances(map, from)) if (d <= SPY_RANGE) out.add(a);
  return out;
}

/** Spies that went, and those refused with the reason. */
export interface SpyCheck {
  readonly sent: readonly AreaId[];
  readonly refused: readonly { readonly area: AreaId; readonly reason: string }[];
}

/**
 * Which of a player's spy targets are in range (`known` before the turn, `present` after).
 * `written` gives a target as the player wrote it, for the reason (an out-of-range square's
 * area id is not told).
 */
export function checkSpies(
  map: DiscoveryMap,
  known: Iterable<AreaId>,
  present: Iterable<AreaId>,
  targets: readonly AreaId[],
  written: (area: AreaId) => string = String,
): SpyCheck {
  const range = spyRange(map, known, present);
  const sent: AreaId[] = [];
  const refused: { area: AreaId; reason: string }[] = [];
  for (const t of targets) {
    if (range.has(t)) sent.push(t);
    else {
      refused.push({
        area: t,
        reason: `${written(t)} is more than ${SPY_RANGE} areas from every area you know or end the turn in`,
      });
    }
  }
  return { sent, refused };
}

/** What a player sees in this turn's report: present areas, their neighbours, spied areas. */
export function visibleAreas(
  map: DiscoveryMap,
  state: GameState,
  power: PowerId,
  spied: readonly AreaId[],
): Set<AreaId> {
  const out = new Set<AreaId>(spied);
  for (const a of presentAreas(state, power)) {
    out.add(a);
    for (const n of map.areas[a - 1]?.neighbours ?? []) out.add(n);
  }
  return out;
}

/** Knowledge after a turn: what was known, plus where each player now is and spied. */
export function nextKnowledge(
  map: DiscoveryMap,
  known: Knowledge,
  after: GameState,
  spied: Readonly<Record<PowerId, readonly AreaId[]>>,
): Knowledge {
  const out: Record<PowerId, AreaId[]> = {};
  for (const s of map.starts) {
    const p = s.player;
    const set = new Set<AreaId>([
      ...(known[p] ?? []),
      ...presentAreas(after, p),
      ...(spied[p] ?? []),
    ]);
    out[p] = [...set].sort((a, b) => a - b);
  }
  return out;
}
