/*
 * The unit commands of a Global Diplomacy turn (seed 004, section 7), each a step over the
 * turn's working state (turn-state.ts), in the order adjudicate.ts runs them: builds (7.1-7.4),
 * convoys validated (7.6), downgrades (7.10), removals (7.14), upgrades (7.18), and the
 * moderator's forced removals and downgrades of deficits not met.
 */
import { rngFor } from "../../engine/random.ts";
import { fail, ok, reject, type Turn, type WUnit } from "./turn-state.ts";
import type { Op, UnitKind } from "./types.ts";
import { isNaval, UNIT_POINTS } from "./types.ts";

/** 7.1-7.4 builds. */
export function builds(t: Turn): void {
  const { map, byOp, startOwners, unitIn, surplus, units } = t;
  const builds: [Op, UnitKind, 1 | 2][] = [
    ["AA", "army", 2],
    ["AC", "corps", 1],
    ["AF", "fleet", 2],
    ["AS", "squadron", 1],
  ];
  for (const [op, kind, cost] of builds) {
    for (const e of byOp(op)) {
      if (!("area" in e.command)) continue;
      const area = map.area(e.command.area)!;
      const name = map.areaName(area.id);
      if (startOwners.get(area.id) !== e.power) reject(e, `${name} is not yours`);
      else if (area.supply === 0) reject(e, `${name} is not a supply centre`);
      else if (cost === 2 && area.supply !== 2)
        reject(
          e,
          `${kind === "army" ? "armies" : "fleets"} are only added at 2-point supply centres; ${name} is a 1-point centre`,
        );
      else if (isNaval(kind) && area.kind !== "coast")
        reject(e, `naval units are only added at coastal supply centres; ${name} is inland`);
      else if (unitIn(area.id)) reject(e, `${name} is not empty`);
      else if ((surplus.get(e.power) ?? 0) < cost)
        reject(
          e,
          `a ${kind} needs ${cost} surplus supply point${cost === 2 ? "s" : ""}; you have ${Math.max(0, surplus.get(e.power) ?? 0)}`,
        );
      else {
        surplus.set(e.power, surplus.get(e.power)! - cost);
        const u: WUnit = {
          id: -area.id,
          power: e.power,
          kind,
          area: area.id,
          isNew: true,
          alive: true,
          mark: "built",
        };
        units.push(u);
        ok(e);
      }
    }
  }
}

/** 7.6 convoys: validated now, moved with the other moves at MO (conflicts.ts). */
export function convoyOrders(t: Turn): void {
  const { map, byOp, unitIn, convoyingFleets, convoys } = t;
  for (const e of byOp("CO")) {
    if (e.command.op !== "CO") continue;
    const { from, seas, to } = e.command;
    const u = unitIn(from);
    const why = ((): string | null => {
      if (!u || u.power !== e.power) return `there is no unit of yours in ${map.areaName(from)}`;
      if (u.isNew) return "a unit built this turn cannot move";
      if (isNaval(u.kind)) return "only land units are convoyed";
      if (map.area(from)!.kind !== "coast") return `${map.areaName(from)} is not coastal`;
      if (map.area(to)!.kind !== "coast") return `${map.areaName(to)} is not coastal`;
      if (to === from) return "a convoy must end somewhere else than it starts";
      if (new Set(seas).size !== seas.length) return "a convoy crosses each sea area once";
      const path = [from, ...seas, to];
      for (let i = 0; i < seas.length; i++) {
        const s = seas[i]!;
        if (map.area(s)!.kind !== "sea")
          return `${map.areaName(s)} is not a sea area (you cannot convoy along a coast)`;
        const f = unitIn(s);
        if (!f || f.power !== e.power || !isNaval(f.kind))
          return `you have no naval unit in ${map.areaName(s)}`;
        if (f.isNew) return `the ${f.kind} in ${s} was built this turn`;
        if (UNIT_POINTS[f.kind] < UNIT_POINTS[u.kind])
          return `the squadron in ${s} cannot carry an army (a convoying unit must be at least as big)`;
        const other = convoyingFleets.get(s);
        if (other) return `the ${f.kind} in ${s} is already convoying (${other.text})`;
      }
      for (let i = 0; i + 1 < path.length; i++) {
        if (!map.adjacent(path[i]!, path[i + 1]!))
          return `${path[i]} and ${path[i + 1]} are not adjacent`;
      }
      return null;
    })();
    if (why) {
      reject(e, why);
      continue;
    }
    for (const s of seas) convoyingFleets.set(s, e);
    convoys.push({ entry: e, unit: u!, seas: [...seas], to });
  }
}

/** 7.10 downgrades. */
export function downgrades(t: Turn): void {
  const { byOp, startUnits, deficit } = t;
  for (const e of byOp("DU")) {
    if (e.command.op !== "DU") continue;
    const u = startUnits.get(e.command.area);
    if (!u?.alive || u.power !== e.power)
      reject(e, `there is no unit of yours in ${e.command.area}`);
    else if (u.kind === "corps" || u.kind === "squadron")
      reject(e, `the ${u.kind} in ${e.command.area} is already a 1-point unit`);
    else if (deficit(e.power) <= 0)
      reject(e, "you may not downgrade a unit unless your supply points require it");
    else {
      u.kind = u.kind === "army" ? "corps" : "squadron";
      u.mark = "downgraded";
      ok(e);
    }
  }
}

/** 7.14 removals (only while still required, after the turn's losses). */
export function removals(t: Turn): void {
  const { byOp, startUnits, deficit } = t;
  for (const e of byOp("RU")) {
    if (e.command.op !== "RU") continue;
    const u = startUnits.get(e.command.area);
    if (!u || u.power !== e.power) reject(e, `there is no unit of yours in ${e.command.area}`);
    else if (!u.alive) fail(e, `the unit from ${e.command.area} was already lost this turn`);
    else if (deficit(e.power) <= 0)
      reject(e, "you may not remove a unit unless your supply points require it");
    else {
      u.alive = false;
      u.mark = "dead";
      ok(e);
    }
  }
}

/** 7.18 upgrades. */
export function upgrades(t: Turn): void {
  const { map, byOp, startUnits, startOwners, surplus } = t;
  for (const e of byOp("UU")) {
    if (e.command.op !== "UU") continue;
    const u = startUnits.get(e.command.area);
    const area = map.area(e.command.area)!;
    if (!u || u.power !== e.power) reject(e, `there is no unit of yours in ${e.command.area}`);
    else if (!u.alive) fail(e, `the unit from ${e.command.area} was lost this turn`);
    else if (area.supply === 0) reject(e, `${map.areaName(area.id)} is not a supply centre`);
    else if (startOwners.get(area.id) !== e.power)
      reject(e, `${map.areaName(area.id)} is not yours`);
    else if ((surplus.get(e.power) ?? 0) < 1)
      reject(e, "an upgrade needs a surplus supply point; you have none left");
    else {
      surplus.set(e.power, surplus.get(e.power)! - 1);
      u.kind = isNaval(u.kind) ? "fleet" : "army";
      u.mark = "upgraded";
      ok(e);
    }
  }
}

/** The moderator: deficits not met are met by random removals (FRU) or downgrades (FDU). */
export function moderatorDeficits(t: Turn): void {
  const { state, turn, powers, units, deficit } = t;
  const rng = rngFor(state.seed, turn);
  for (const p of powers) {
    while (deficit(p) > 0) {
      const mine = units.filter((u) => u.alive && u.power === p).sort((a, b) => a.area - b.area);
      const u = rng.pick(mine);
      if (deficit(p) === 1 && (u.kind === "army" || u.kind === "fleet")) {
        u.kind = u.kind === "army" ? "corps" : "squadron";
        u.mark = "FDU";
      } else {
        u.alive = false;
        u.mark = "FRU";
      }
    }
  }
}
