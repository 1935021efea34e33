/*
 * The conflicts of a Global Diplomacy turn (seed 004, section 5; steps 7.13, 7.15, 7.16 and
 * the convoys of 7.6, resolved together): moves, supports of attack and of defence, cut
 * supports and disrupted convoys to a fixed point, head-to-head battles, the battles for each
 * area, then the moves made and the retreats of the beaten and dislodged (5.2, retreats.ts).
 */

import { moveAndRetreat } from "./retreats.ts";
import { type Entry, fail, type Move, reject, type Turn, type WUnit } from "./turn-state.ts";
import type { AreaId, GlobalRules } from "./types.ts";
import { UNIT_POINTS } from "./types.ts";

interface Support {
  readonly entry: Entry;
  readonly unit: WUnit;
  readonly to: AreaId;
}

/** Moves, supports and convoys; returns the areas where battles took place. */
export function resolveConflicts(t: Turn, rules: GlobalRules): AreaId[] {
  const {
    map,
    byOp,
    units,
    startUnits,
    unitIn,
    owners,
    relNow,
    pname,
    entryAllowed,
    convoyingFleets,
    convoys,
  } = t;
  const moves: Move[] = [];
  const busy = new Set<WUnit>();
  const unitOrder = (e: Entry, area: AreaId, what: string): WUnit | null => {
    const u = unitIn(area);
    const start = startUnits.get(area);
    if (!u || u.power !== e.power) {
      reject(e, `there is no unit of yours in ${map.areaName(area)}`);
      return null;
    }
    if (u.isNew || start !== u) {
      reject(e, `a unit built this turn cannot ${what}`);
      return null;
    }
    if (convoyingFleets.has(area)) {
      reject(
        e,
        `the ${u.kind} in ${area} is convoying (${convoyingFleets.get(area)!.text}) and can do nothing else`,
      );
      return null;
    }
    if (busy.has(u)) {
      reject(e, `the unit in ${area} already has a command`);
      return null;
    }
    return u;
  };
  for (const e of byOp("MO")) {
    if (e.command.op !== "MO") continue;
    const u = unitOrder(e, e.command.from, "move");
    if (!u) continue;
    const why = entryAllowed(e.power, e.command.to);
    if (why) {
      reject(e, why);
      continue;
    }
    busy.add(u);
    moves.push({ entry: e, unit: u, from: e.command.from, to: e.command.to, supports: [] });
  }
  for (const c of convoys) {
    if (!c.unit.alive || c.unit.area !== c.unit.id) {
      reject(c.entry, "the land unit is no longer there");
      continue;
    }
    const why = entryAllowed(c.entry.power, c.to);
    if (why) {
      reject(c.entry, why);
      continue;
    }
    busy.add(c.unit);
    moves.push({
      entry: c.entry,
      unit: c.unit,
      from: c.unit.area,
      to: c.to,
      seas: c.seas,
      supports: [],
    });
  }
  const attacks: Support[] = [];
  for (const e of byOp("SA")) {
    if (e.command.op !== "SA") continue;
    const u = unitOrder(e, e.command.from, "support");
    if (!u) continue;
    const q = e.command.power ?? e.power;
    if (q !== e.power && relNow(e.power, q) !== "alliance") {
      reject(e, `you must be allied with ${pname(q)} to support its attack`);
      continue;
    }
    const why = entryAllowed(e.power, e.command.to);
    if (why) {
      reject(e, `you could not move there yourself: ${why}`);
      continue;
    }
    const to = e.command.to;
    const targets = moves.filter((m) => m.unit.power === q && m.to === to);
    busy.add(u);
    if (targets.length === 0) {
      fail(e, `no unit of ${pname(q)} moves into ${map.areaName(e.command.to)}`);
      continue;
    }
    for (const m of targets) m.supports.push(e);
    attacks.push({ entry: e, unit: u, to: e.command.to });
  }
  const moving = new Set(moves.map((m) => m.unit));
  const defences = new Map<WUnit, Support[]>();
  const allSupports: Support[] = [...attacks];
  for (const e of byOp("SD")) {
    if (e.command.op !== "SD") continue;
    const u = unitOrder(e, e.command.from, "support");
    if (!u) continue;
    const to = e.command.to;
    const t = unitIn(to);
    if (!t) {
      reject(
        e,
        `there is no unit in ${map.areaName(to)} to support; an empty area cannot be defended`,
      );
      continue;
    }
    if (t.power !== e.power && relNow(e.power, t.power) !== "alliance") {
      reject(e, `you may not support a unit of ${pname(t.power)}: you are not allied`);
      continue;
    }
    const o = owners.get(to);
    if (map.area(to)!.kind !== "sea" && o !== undefined && o !== e.power && o !== t.power) {
      const why = entryAllowed(e.power, to);
      if (why) {
        reject(e, `the unit stands in an area of ${pname(o)}: ${why}`);
        continue;
      }
    }
    busy.add(u);
    if (moving.has(t)) {
      fail(
        e,
        `the unit in ${map.areaName(to)} is moving; only stationary units can be supported in defence`,
      );
      continue;
    }
    const s = { entry: e, unit: u, to };
    const list = defences.get(t) ?? [];
    list.push(s);
    defences.set(t, list);
    allSupports.push(s);
  }

  // Cut supports and disrupted convoys, to a fixed point (a support or convoy caught in
  // an oscillation counts as cut / disrupted).
  let cut = new Set<Entry>();
  const pts = (u: WUnit): number => UNIT_POINTS[u.kind];
  const attackOf = (m: Move, c: Set<Entry>): number =>
    pts(m.unit) +
    m.supports.reduce((s, e) => s + (c.has(e) ? 0 : pts(startUnits.get(commandFrom(e))!)), 0);
  const defenceOf = (u: WUnit, c: Set<Entry>): number =>
    pts(u) + (defences.get(u) ?? []).reduce((s, x) => s + (c.has(x.entry) ? 0 : pts(x.unit)), 0);
  let disrupted = new Map<Move, number>();
  const active = (d: Map<Move, number>): Move[] => moves.filter((m) => !d.has(m));
  const step = (c: Set<Entry>, d: Map<Move, number>): [Set<Entry>, Map<Move, number>] => {
    const act = active(d);
    const nc = new Set<Entry>();
    for (const s of allSupports) {
      if (
        act.some(
          (m) =>
            m.to === s.unit.area && m.unit.power !== s.unit.power && attackOf(m, c) >= pts(s.unit),
        )
      )
        nc.add(s.entry);
    }
    const nd = new Map<Move, number>();
    for (const m of moves) {
      if (!m.seas) continue;
      const i = m.seas.findIndex((sea) => {
        const fleet = unitIn(sea)!;
        return act.some(
          (x) =>
            x !== m &&
            x.to === sea &&
            x.unit.power !== m.unit.power &&
            (rules.convoyDisruption === "7.6" || attackOf(x, c) >= pts(fleet)),
        );
      });
      if (i >= 0) nd.set(m, i);
    }
    return [nc, nd];
  };
  const same = (
    a: Set<Entry>,
    b: Set<Entry>,
    x: Map<Move, number>,
    y: Map<Move, number>,
  ): boolean =>
    a.size === b.size &&
    [...a].every((e) => b.has(e)) &&
    x.size === y.size &&
    [...x].every(([m, i]) => y.get(m) === i);
  for (let round = 0; ; round++) {
    const [nc, nd] = step(cut, disrupted);
    if (same(nc, cut, nd, disrupted)) break;
    if (round > 30) {
      for (const e of nc) cut.add(e);
      for (const [m, i] of nd) if (!disrupted.has(m)) disrupted.set(m, i);
      break;
    }
    cut = nc;
    disrupted = nd;
  }
  for (const s of allSupports) {
    if (cut.has(s.entry))
      fail(
        s.entry,
        `support cut: the unit in ${s.unit.area} was attacked by an equal or stronger force`,
      );
  }
  for (const [m, i] of disrupted) {
    m.disruptedAt = i;
    m.failed = `the convoy was disrupted at ${map.areaName(m.seas![i]!)}`;
  }

  // Head-to-head: a moving force meets first the unit coming the other way.
  const live = (): Move[] => moves.filter((m) => !m.failed);
  for (const m of live()) {
    if (m.seas || m.failed) continue;
    const other = live().find((x) => !x.seas && x.from === m.to && x.to === m.from);
    if (!other) continue;
    const a = attackOf(m, cut);
    const b = attackOf(other, cut);
    if (m.unit.power === other.unit.power) {
      m.failed = other.failed = "your own units cannot exchange areas";
    } else if (a > b) other.failed = `beaten head-on by the unit from ${m.from} (${a} to ${b})`;
    else if (b > a) m.failed = `beaten head-on by the unit from ${other.from} (${b} to ${a})`;
    else m.failed = other.failed = `tie head-on (${a} to ${b})`;
  }
  // Then every other force contesting its target, and the unit standing there.
  const battles = new Set<AreaId>();
  const dislodged = new Set<WUnit>();
  const targets = [...new Set(live().map((m) => m.to))];
  for (const area of targets) {
    let ms = live().filter((m) => m.to === area);
    const occ = units.find((u) => u.alive && u.area === area && !moving.has(u));
    if (occ) {
      const land = map.area(area)!.kind !== "sea";
      for (const m of ms) {
        if (occ.power === m.unit.power)
          m.failed = "your own unit stays in the area; your units do not fight each other";
        else if (
          land &&
          relNow(m.unit.power, occ.power) !== "war" &&
          owners.get(area) !== m.unit.power
        )
          m.failed = `the area is held by a unit of ${pname(occ.power)}, with whom you are not at war`;
      }
      ms = ms.filter((m) => !m.failed);
    }
    // Only moves that are conflicts make a battle (a move refused without a fight does not).
    const powersInvolved = new Set(ms.map((m) => m.unit.power));
    if (occ && ms.length > 0) powersInvolved.add(occ.power);
    if (powersInvolved.size > 1 && map.area(area)!.kind !== "sea") battles.add(area);
    if (ms.length === 0) continue;
    const scored = ms.map((m) => ({ m, s: attackOf(m, cut) })).sort((x, y) => y.s - x.s);
    const best = scored[0]!;
    const unique = scored.length === 1 || scored[1]!.s < best.s;
    const def = occ ? defenceOf(occ, cut) : -1;
    if (unique && best.s > def) {
      for (const x of scored.slice(1))
        x.m.failed = `beaten at ${area} by the unit from ${best.m.from} (${best.s} to ${x.s})`;
      if (occ) dislodged.add(occ);
    } else {
      for (const x of scored)
        x.m.failed =
          occ && def >= best.s
            ? `the defence of ${area} held (${def} to ${x.s})`
            : `tie at ${area} (${best.s} to ${best.s})`;
    }
  }

  // Apply: winners move; the others retreat.
  moveAndRetreat(t, rules, moves, dislodged, battles);
  return [...battles].sort((a, b) => a - b);
}

function commandFrom(e: Entry): AreaId {
  const c = e.command;
  return "from" in c ? c.from : -1;
}
