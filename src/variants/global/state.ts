import type { GlobalMap } from "./map.ts";
import type { AccessGrant, AreaId, GameState, PowerId, Relation, Unit, UnitKind } from "./types.ts";
import { UNIT_POINTS } from "./types.ts";

/** The key of a pair in `GameState.relations`: "a-b" with a < b. */
export function pairKey(a: PowerId, b: PowerId): string {
  return a < b ? `${a}-${b}` : `${b}-${a}`;
}

export function relationOf(
  relations: Readonly<Record<string, Relation>>,
  a: PowerId,
  b: PowerId,
): Relation {
  if (a === b) return "alliance";
  return relations[pairKey(a, b)] ?? "neutral";
}

export function unitPoints(kind: UnitKind): number {
  return UNIT_POINTS[kind];
}

/** The opening state of a map: every power's areas and units, all neutral, turn 1. */
export function initialState(map: GlobalMap, seed = 1): GameState {
  const owners: Record<AreaId, PowerId> = {};
  const units: Unit[] = [];
  for (const p of map.powers) {
    for (const a of p.areas) owners[a] = p.id;
    for (const u of p.units) units.push({ area: u.area, power: p.id, kind: u.kind });
  }
  const base: GameState = {
    variant: map.data.id,
    turn: 1,
    owners,
    units: units.sort((x, y) => x.area - y.area),
    relations: {},
    access: [],
    calls: [],
    penalties: [],
    votes: {},
    initialVP: {},
    seed,
  };
  const initialVP: Record<PowerId, number> = {};
  for (const p of map.powers) initialVP[p.id] = victoryPoints(map, base, p.id);
  return { ...base, initialVP };
}

export function supplyPoints(map: GlobalMap, state: GameState, power: PowerId): number {
  let s = 0;
  for (const [a, o] of Object.entries(state.owners)) {
    if (o === power) s += map.area(Number(a))?.supply ?? 0;
  }
  return s;
}

export function unitPointsOf(units: readonly Unit[], power: PowerId): number {
  let s = 0;
  for (const u of units) if (u.power === power) s += UNIT_POINTS[u.kind];
  return s;
}

/**
 * A power's supply as a table or a legend counts it: its supply centres (owned areas with a
 * supply value; other land it owns is no centre) and units, each with its points, and the
 * surplus (+) or deficit (−) of supply points over unit points (what 7.1-7.5 and 7.10-7.14
 * let it spend or make it give up).
 */
export function tallyOf(
  map: GlobalMap,
  state: GameState,
  power: PowerId,
): { centres: number; units: number; supplyPoints: number; unitPoints: number; due: number } {
  let centres = 0;
  for (const [a, o] of Object.entries(state.owners))
    if (o === power && (map.area(Number(a))?.supply ?? 0) > 0) centres++;
  const supply = supplyPoints(map, state, power);
  const unitPoints = unitPointsOf(state.units, power);
  return {
    centres,
    units: state.units.filter((u) => u.power === power).length,
    supplyPoints: supply,
    unitPoints,
    due: supply - unitPoints,
  };
}

/**
 * Victory points (section 6): 1 per land area owned and per sea area occupied, plus the
 * supply-centre value of each owned area, plus 5 per capital owned.
 */
export function victoryPoints(map: GlobalMap, state: GameState, power: PowerId): number {
  let vp = 0;
  for (const [a, o] of Object.entries(state.owners)) {
    if (o !== power) continue;
    const area = map.area(Number(a));
    if (!area) continue;
    vp += 1 + area.supply + (area.capital !== undefined ? 5 : 0);
  }
  for (const u of state.units) {
    if (u.power === power && map.area(u.area)?.kind === "sea") vp += 1;
  }
  return vp;
}

export function penaltyOf(state: GameState, power: PowerId): number {
  let p = 0;
  for (const x of state.penalties) if (x.power === power) p += x.percent;
  return Math.min(p, 100);
}

/**
 * The percentage increase over the start, with the call-to-arms penalty taken off the
 * victory points first (section 6: "a VP of 400 and a 20% penalty: real VP 320").
 */
export function percentIncrease(map: GlobalMap, state: GameState, power: PowerId): number {
  const init = state.initialVP[power] ?? 0;
  if (init <= 0) return 0;
  const vp = victoryPoints(map, state, power) * (1 - penaltyOf(state, power) / 100);
  return Math.round(((vp - init) / init) * 1000) / 10;
}

/** Powers ranked by percentage increase (ties share a rank). */
export function ranking(
  map: GlobalMap,
  state: GameState,
): { power: PowerId; percent: number; rank: number }[] {
  const rows = map.powers.map((p) => ({ power: p.id, percent: percentIncrease(map, state, p.id) }));
  rows.sort((a, b) => b.percent - a.percent || a.power - b.power);
  let rank = 0;
  let last = Number.NaN;
  return rows.map((r, i) => {
    if (r.percent !== last) rank = i + 1;
    last = r.percent;
    return { ...r, rank };
  });
}

/** The victory conditions from the votes: average turns (rounded) and percentage. */
export function victoryConditions(
  map: GlobalMap,
  state: GameState,
): { turns: number; percent: number } {
  const votes = Object.values(state.votes);
  const [tLo, tHi] = map.data.turnRange;
  const [pLo, pHi] = map.data.percentRange;
  if (votes.length === 0) return { turns: Math.round((tLo + tHi) / 2), percent: (pLo + pHi) / 2 };
  const avg = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    turns: Math.round(avg(votes.map((v) => v.turns))),
    percent: Math.round(avg(votes.map((v) => v.percent))),
  };
}

/** Whether `grantee` has access to `area` from its owner this turn. */
export function hasAccess(
  access: readonly AccessGrant[],
  grantor: PowerId,
  grantee: PowerId,
  area: AreaId,
): boolean {
  return access.some(
    (g) =>
      g.grantor === grantor &&
      g.grantee === grantee &&
      (g.areas === "all" || g.areas.includes(area)),
  );
}
