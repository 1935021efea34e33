/**
 * What "fair starts" means for an Age of Discovery map, measured (docs/discovery.md):
 *
 * 1. Same start: every player owns three areas worth three supply points (a coastal 2-point
 *    centre and a 1-point centre) and has a squadron and a corps.
 * 2. Own neutrals: a player's own neutral centres are those within two land steps of its
 *    home and strictly nearer (in area steps, by any route) to it than to any other home.
 *    Every player has exactly three, one land step from home: two 1-point centres and a
 *    2-point one. No neutral centre within two land steps of a home is as near to another.
 * 3. Spacing: two players' home centres are at least MIN_HOME_DISTANCE area steps apart.
 * 4. Contested neutrals: the nearest neutral centre beyond a player's own three is about as
 *    far for every player (the largest and smallest distances differ by at most
 *    MAX_CONTESTED_SPREAD area steps), and as many supply points lie within
 *    CONTESTED_RADIUS steps for each (at most MAX_CONTESTED_RATIO times as many for the
 *    richest as for the poorest).
 */
import { areaDistances, areaOf, type DiscoveryMap, landDistances, nearestHome } from "./areas.ts";

export const MIN_HOME_DISTANCE = 4;
export const MAX_CONTESTED_SPREAD = 2;
export const CONTESTED_RADIUS = 5;
export const MAX_CONTESTED_RATIO = 3;

/** The own-neutral profile every player must have: [points, land steps from home]. */
export const OWN_NEUTRALS: readonly (readonly [1 | 2, number])[] = [
  [1, 1],
  [1, 1],
  [2, 1],
];

export interface PlayerFairness {
  readonly player: number;
  readonly startAreas: number;
  readonly startSupply: number;
  readonly startUnitPoints: number;
  /** The start units' kinds, sorted and joined (`corps,squadron`). */
  readonly startUnits: string;
  /** Neutral centres within two land steps of home: [points, steps], sorted. */
  readonly ownNeutrals: readonly (readonly [number, number])[];
  /** Neutral centres within two land steps of home that are as near to another home. */
  readonly tiedNearNeutrals: number;
  /** Area steps from home to the nearest neutral centre that is not one of its own. */
  readonly nearestContested: number;
  /** Neutral supply points, beyond its own, within CONTESTED_RADIUS area steps of home. */
  readonly contestedPointsNear: number;
}

export interface FairnessReport {
  readonly players: readonly PlayerFairness[];
  /** The smallest area-step distance between two home centres. */
  readonly minHomeDistance: number;
}

const POINTS = { squadron: 1, corps: 1 } as const;

export function measureFairness(map: DiscoveryMap): FairnessReport {
  const starts = map.starts;
  const owned = new Set(starts.flatMap((s) => s.areas));
  const landFrom = starts.map((s) => landDistances(map, s.areas));
  const anyFrom = starts.map((s) => areaDistances(map, s.areas));
  const players = starts.map((s, p): PlayerFairness => {
    const land = landFrom[p]!;
    const any = anyFrom[p]!;
    const near = map.areas.filter(
      (a) => a.supply > 0 && !owned.has(a.id) && (land.get(a.id) ?? Infinity) <= 2,
    );
    const own = near.filter((a) => nearestHome(anyFrom, a.id) === p);
    const ownIds = new Set(own.map((a) => a.id));
    const contested = map.areas.filter(
      (a) => a.supply > 0 && !owned.has(a.id) && !ownIds.has(a.id),
    );
    return {
      player: s.player,
      startAreas: s.areas.length,
      startSupply: s.areas.reduce((n, id) => n + areaOf(map, id).supply, 0),
      startUnitPoints: s.units.reduce((n, u) => n + POINTS[u.kind], 0),
      startUnits: s.units
        .map((u) => u.kind)
        .sort()
        .join(","),
      ownNeutrals: own
        .map((a) => [a.supply, land.get(a.id)!] as const)
        .sort((a, b) => a[0] - b[0] || a[1] - b[1]),
      tiedNearNeutrals: near.filter((a) => nearestHome(anyFrom, a.id) === -1).length,
      nearestContested: Math.min(...contested.map((a) => any.get(a.id) ?? Infinity)),
      contestedPointsNear: contested
        .filter((a) => (any.get(a.id) ?? Infinity) <= CONTESTED_RADIUS)
        .reduce((n, a) => n + a.supply, 0),
    };
  });
  let minHomeDistance = Infinity;
  for (const s of starts) {
    const d = areaDistances(map, [s.areas[0]!]);
    for (const t of starts) {
      if (t !== s) minHomeDistance = Math.min(minHomeDistance, d.get(t.areas[0]!) ?? Infinity);
    }
  }
  return { players, minHomeDistance };
}

/** Every fairness condition the report breaks, in words; empty when the map is fair. */
export function fairnessViolations(report: FairnessReport): string[] {
  const out: string[] = [];
  const first = report.players[0];
  if (first === undefined) return ["the map has no players"];
  const profile = JSON.stringify(OWN_NEUTRALS);
  for (const p of report.players) {
    if (
      p.startAreas !== 3 ||
      p.startSupply !== 3 ||
      p.startUnitPoints !== 2 ||
      p.startUnits !== "corps,squadron"
    ) {
      out.push(`player ${p.player} does not have the standard start`);
    }
    if (JSON.stringify(p.ownNeutrals) !== profile) {
      out.push(`player ${p.player} has own neutrals ${JSON.stringify(p.ownNeutrals)}`);
    }
    if (p.tiedNearNeutrals > 0) {
      out.push(`player ${p.player} is as near as another to ${p.tiedNearNeutrals} near centres`);
    }
  }
  if (report.minHomeDistance < MIN_HOME_DISTANCE) {
    out.push(`two homes are only ${report.minHomeDistance} areas apart`);
  }
  const nearest = report.players.map((p) => p.nearestContested);
  if (Math.max(...nearest) - Math.min(...nearest) > MAX_CONTESTED_SPREAD) {
    out.push(
      `nearest contested centres range from ${Math.min(...nearest)} to ${Math.max(...nearest)} areas`,
    );
  }
  const near = report.players.map((p) => p.contestedPointsNear);
  if (Math.min(...near) * MAX_CONTESTED_RATIO < Math.max(...near) || Math.min(...near) === 0) {
    out.push(
      `contested points within ${CONTESTED_RADIUS} areas range from ${Math.min(...near)} to ${Math.max(...near)}`,
    );
  }
  return out;
}
