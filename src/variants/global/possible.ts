import type { Rng } from "../../engine/random.ts";
import type { GlobalMap } from "./map.ts";
import { relationOf, supplyPoints, unitPointsOf } from "./state.ts";
import type { AreaId, GameState, PowerId, Unit } from "./types.ts";
import { UNIT_POINTS } from "./types.ts";

/** Where a power's unit may move under the relations at the start of the turn. */
export function moveTargets(map: GlobalMap, state: GameState, u: Unit): AreaId[] {
  return map.moves(u.kind, u.area).filter((a) => {
    const area = map.area(a)!;
    if (area.kind === "sea") return true;
    const o = state.owners[a];
    if (o === undefined || o === u.power) return true;
    return relationOf(state.relations, u.power, o) === "war";
  });
}

export interface Possible {
  readonly surplus: number;
  /** Builds and upgrades (with a surplus) or removals and downgrades (with a deficit). */
  readonly adjustments: readonly string[];
  /** Per unit: its moves and supports. */
  readonly units: readonly { unit: Unit; moves: AreaId[]; supports: string[] }[];
  readonly relations: readonly string[];
}

/** The commands open to a power for the turn about to be played (report section 8). */
export function possibleCommands(map: GlobalMap, state: GameState, power: PowerId): Possible {
  const surplus = supplyPoints(map, state, power) - unitPointsOf(state.units, power);
  const mine = state.units.filter((u) => u.power === power);
  const occupied = new Set(state.units.map((u) => u.area));
  const adjustments: string[] = [];
  if (surplus > 0) {
    for (const [a, o] of Object.entries(state.owners)) {
      const area = map.area(Number(a))!;
      if (o !== power || area.supply === 0 || occupied.has(area.id)) continue;
      if (surplus >= 2 && area.supply === 2) adjustments.push(`AA ${area.id}`);
      adjustments.push(`AC ${area.id}`);
      if (area.kind === "coast") {
        if (surplus >= 2 && area.supply === 2) adjustments.push(`AF ${area.id}`);
        adjustments.push(`AS ${area.id}`);
      }
    }
    for (const u of mine) {
      if (
        UNIT_POINTS[u.kind] === 1 &&
        state.owners[u.area] === power &&
        map.area(u.area)!.supply > 0
      )
        adjustments.push(`UU ${u.area}`);
    }
  } else if (surplus < 0) {
    for (const u of mine) {
      adjustments.push(`RU ${u.area}`);
      if (UNIT_POINTS[u.kind] === 2) adjustments.push(`DU ${u.area}`);
    }
  }
  const units = mine.map((u) => {
    const moves = moveTargets(map, state, u);
    const supports: string[] = [];
    for (const a of moves) {
      const t = state.units.find((x) => x.area === a);
      if (t && (t.power === power || relationOf(state.relations, power, t.power) === "alliance"))
        supports.push(`SD ${u.area} ${a}`);
      else supports.push(`SA ${u.area} ${a}`);
    }
    return { unit: u, moves, supports };
  });
  const relations: string[] = [];
  for (const p of map.powers) {
    if (p.id === power) continue;
    const r = relationOf(state.relations, power, p.id);
    if (r === "neutral") {
      relations.push(`DA ${p.id}`);
      if (state.turn > 1) relations.push(`DW ${p.id}`);
    } else relations.push(`DN ${p.id}`);
    if (r === "alliance") relations.push(`GA ${p.id} all`);
  }
  return { surplus, adjustments, units, relations };
}

/**
 * Random legal commands for one power (self-play): every unit moves, supports or stands;
 * surplus is spent; relations change now and then. Commands go through the same reader as
 * people's, and none is refused, whatever the other powers send:
 * - A deficit is met by downgrades (DU, judged before the turn's battles, so each one written
 *   while the deficit lasts stands), and what they cannot meet, or a deficit left alone (three
 *   times in ten), by the moderator (FRU/FDU). No RU: removals are judged after the turn's
 *   battles (7.14 "only while still required"), and a unit of the power lost in one can make a
 *   removal written at the start no longer required, which the adjudicator refuses.
 * - A power that offers to end a war (DN to an enemy) neither moves into nor supports an
 *   attack on that enemy's land that turn: the war ends if the enemy declares it too, and a
 *   move into a neutral's land is refused.
 */
export function randomCommands(
  map: GlobalMap,
  state: GameState,
  power: PowerId,
  rng: Rng,
): string[] {
  const pos = possibleCommands(map, state, power);
  const out: string[] = [];
  const used = new Set<AreaId>();
  if (state.turn === 1) {
    const [t0, t1] = map.data.turnRange;
    const [p0, p1] = map.data.percentRange;
    out.push(`VC ${t0 + rng.int(t1 - t0 + 1)} ${p0 + rng.int(p1 - p0 + 1)}`);
  }
  if (pos.surplus > 0) {
    let left = pos.surplus;
    for (const c of [...pos.adjustments].sort(() => rng.next() - 0.5)) {
      const [op, a] = c.split(" ");
      const cost = op === "AA" || op === "AF" ? 2 : 1;
      if (cost > left || used.has(Number(a))) continue;
      out.push(c);
      used.add(Number(a));
      left -= cost;
    }
  } else if (pos.surplus < 0 && rng.next() < 0.7) {
    let need = -pos.surplus;
    for (const c of [...pos.adjustments].sort(() => rng.next() - 0.5)) {
      if (need <= 0) break;
      const [op, a] = c.split(" ");
      if (op !== "DU" || used.has(Number(a))) continue;
      out.push(c);
      used.add(Number(a));
      need -= 1;
    }
  }
  // The relation command first: a war this power offers to end may end this turn.
  const relation = rng.next() < 0.15 && pos.relations.length > 0 ? rng.pick(pos.relations) : null;
  const peace = /^DN (\d+)$/.exec(relation ?? "");
  const enemy = peace && relationOf(state.relations, power, Number(peace[1])) === "war";
  const safe = (a: AreaId) => !enemy || state.owners[a] !== Number(peace![1]);
  for (const { unit, moves: all, supports: allSupports } of pos.units) {
    if (used.has(unit.area)) continue;
    const moves = all.filter(safe);
    const supports = allSupports.filter((c) => safe(Number(c.split(" ")[2])));
    const x = rng.next();
    if (x < 0.65 && moves.length > 0) out.push(`MO ${unit.area} ${rng.pick(moves)}`);
    else if (x < 0.85 && supports.length > 0) out.push(rng.pick(supports));
    used.add(unit.area);
  }
  if (relation) out.push(relation);
  if (rng.next() < 0.2) {
    const spies = new Set<AreaId>();
    while (spies.size < map.data.spies) spies.add(rng.pick(map.areas).id);
    out.push(`SP ${[...spies].join(" ")}`);
  }
  if (rng.next() < 0.05) out.push("ME 0 anyone for an alliance?");
  return out;
}
