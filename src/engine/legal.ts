/**
 * Legal orders: every order a unit may be given in the current phase, as the adjudicator
 * would understand it. "Legal" means what interpret.ts and the phases accept as not invalid,
 * narrowed to orders that can mean something: supports only of units standing on the board
 * and only into places those units could go, convoys only along chains of seas that hold
 * fleets now. Pure; per-variant tables are built once and cached (`legal-board.ts`).
 *
 * Here: a movement phase's legal orders (`legalMovementOrders`) and random ones drawn without
 * the lists (`randomLegalMovementOrders`, self-play's hot path); retreats are
 * `legal-retreats.ts`, adjustments `legal-adjustments.ts`.
 */

import { minimalRouteSeas } from "./convoy.ts";
import {
  addIncoming,
  fleetInfo,
  markConvoyReach,
  type Prepared,
  prepare,
  type Tables,
} from "./legal-board.ts";
import type { MovementOrder } from "./orders.ts";
import type { Rng } from "./random.ts";
import type { RuleOptions } from "./rules.ts";
import { KIND_COAST, KIND_SEA } from "./tables.ts";
import type { Position, ProvinceId, Unit, UnitType } from "./types.ts";
import type { Variant } from "./variant.ts";

/**
 * A support a list offers: of a unit holding in `target` (`to` null) or moving from it to
 * `to`. One maker, so that every support the lists make has one shape.
 */
const supportOf = (
  unit: Unit,
  target: ProvinceId,
  targetType: UnitType,
  to: ProvinceId | null,
): MovementOrder => ({ kind: "support", unit, target, targetType, to, toCoast: null });

/**
 * Movement phase: for every unit of the position, every legal order (hold, moves incl. by
 * convoy, supports to hold and to move, convoys). Keys are the units' provinces, in the order
 * of `position.units`.
 *
 * - Armies move to each army neighbour; to each coastal province a chain of fleet-held seas
 *   joins to theirs (`viaConvoy: false` when not a land neighbour); and, for a land neighbour
 *   such a chain also reaches, `viaConvoy: true` as well.
 * - Fleets move to each location they can reach, one order per coast of a split coast.
 * - Supports: to hold, of each unit in a province the supporter can reach; to move, of each
 *   unit that could move (as above) into a province the supporter can reach (`toCoast` null).
 * - Convoys (fleets in seas): each army on a coast and each coastal destination joined to it
 *   by a chain of fleet-held seas that passes this fleet's sea.
 * - Nothing moves, supports a move or is convoyed into a province the variant closes in this
 *   phase (`Variant.closed`), and nothing supports a unit holding there (the supporter could
 *   not move there).
 */
export function legalMovementOrders(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
): Map<ProvinceId, readonly MovementOrder[]> {
  // DATC 6.G.19 (`unneededConvoy: illegal`): only fleets some minimal route needs convoy.
  const unneeded = rules.unneededConvoy === "illegal";
  const prep = prepare(variant, position);
  const { t, units, up, compCoasts, anyConvoy } = prep;
  const { n, kind, armyAdj, armyAdjM, ids, at, comp, stamp, incoming, cap, incomingN, closed } = t;
  const nu = units.length;
  const out = new Map<ProvinceId, MovementOrder[]>();
  // Holds and moves; and who could move where, for supports.
  for (let u = 0; u < nu; u++) {
    const unit = units[u]!;
    const p = up[u]!;
    const list: MovementOrder[] = [{ kind: "hold", unit }];
    out.set(unit.province, list);
    if (unit.type === "A") {
      const convoy = anyConvoy && kind[p] === KIND_COAST && t.seasTouching[p]!.length > 0;
      const s = convoy ? markConvoyReach(prep, p) : -1;
      for (const d of armyAdj[p]!) {
        if (closed[d] === 1) continue;
        list.push({ kind: "move", unit, to: t.armyLoc[d]!, viaConvoy: false });
        if (stamp[d] === s) list.push({ kind: "move", unit, to: t.armyLoc[d]!, viaConvoy: true });
        addIncoming(t, d, u);
      }
      if (convoy) {
        const row = p * n;
        for (let d = 0; d < n; d++) {
          if (stamp[d] !== s || armyAdjM[row + d] === 1 || closed[d] === 1) continue;
          list.push({ kind: "move", unit, to: t.armyLoc[d]!, viaConvoy: false });
          addIncoming(t, d, u);
        }
      }
    } else {
      const info = fleetInfo(t, p, unit.coast);
      if (!info) continue;
      const { targets, targetProv } = info;
      for (let i = 0; i < targets.length; i++) {
        if (closed[targetProv[i]!] === 1) continue;
        list.push({ kind: "move", unit, to: targets[i]!, viaConvoy: false });
      }
      for (const d of info.reach) if (closed[d] !== 1) addIncoming(t, d, u);
    }
  }

  // Supports and convoys.
  for (let u = 0; u < nu; u++) {
    const unit = units[u]!;
    const p = up[u]!;
    const list = out.get(unit.province)!;
    const reach = unit.type === "A" ? armyAdj[p]! : (fleetInfo(t, p, unit.coast)?.reach ?? []);
    for (const d of reach) {
      const v = at[d]!;
      if (v === -1 || closed[d] === 1) continue;
      list.push(supportOf(unit, ids[d]!, units[v]!.type, null));
    }
    for (const d of reach) {
      const row = d * cap;
      for (let q = 0; q < incomingN[d]!; q++) {
        const v = incoming[row + q]!;
        if (v === u) continue;
        const x = units[v]!;
        list.push(supportOf(unit, x.province, x.type, ids[d]!));
      }
    }
    if (unit.type === "F" && kind[p] === KIND_SEA) {
      const coasts = compCoasts[comp[p]!]!;
      for (const a of coasts) {
        const v = at[a]!;
        if (v === -1 || units[v]!.type !== "A") continue;
        for (const d of coasts) {
          if (d === a || closed[d] === 1) continue;
          if (unneeded && !minimalRouteSeas(variant.map, ids[a]!, ids[d]!).has(ids[p]!)) continue;
          list.push({ kind: "convoy", unit, from: ids[a]!, to: ids[d]!, targetType: "A" });
        }
      }
    }
  }
  return out;
}

/**
 * One legal order per unit, each drawn uniformly from the unit's legal orders by `r` (as
 * `r.pick` draws from the unit's list of `legalMovementOrders`, in the order of
 * `position.units`), without building the lists: each unit's orders are counted, and only
 * the one drawn is made. Self-play's random agent; a test holds it to the lists.
 */
export function randomLegalMovementOrders(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
  r: Rng,
): MovementOrder[] {
  const unneeded = rules.unneededConvoy === "illegal";
  const prep = prepare(variant, position);
  const { t, units, up, compCoasts, anyConvoy } = prep;
  const { n, kind, armyAdj, armyAdjM, ids, at, comp, stamp, incoming, cap, incomingN, closed } = t;
  const nu = units.length;
  if (t.counts.length < nu) t.counts = new Int32Array(nu);
  const moves = t.counts;
  // Pass 1, as legalMovementOrders' first loop: the moves of each unit counted, and who could
  // move where.
  for (let u = 0; u < nu; u++) {
    const unit = units[u]!;
    const p = up[u]!;
    let c = 0;
    if (unit.type === "A") {
      const convoy = anyConvoy && kind[p] === KIND_COAST && t.seasTouching[p]!.length > 0;
      const s = convoy ? markConvoyReach(prep, p) : -1;
      const adj = armyAdj[p]!;
      for (let x = 0; x < adj.length; x++) {
        const d = adj[x]!;
        if (closed[d] === 1) continue;
        c += stamp[d] === s ? 2 : 1;
        addIncoming(t, d, u);
      }
      if (convoy) {
        // The marked provinces, in another order than legalMovementOrders' scan: only the
        // count matters here, and each unit is listed once per province.
        const row = p * n;
        const { marked } = t;
        const m = marked[n]!;
        for (let i = 0; i < m; i++) {
          const d = marked[i]!;
          if (stamp[d] !== s || armyAdjM[row + d] === 1 || closed[d] === 1) continue;
          c++;
          addIncoming(t, d, u);
        }
      }
    } else {
      const info = fleetInfo(t, p, unit.coast);
      if (info) {
        const { targetProv, reach } = info;
        for (let x = 0; x < targetProv.length; x++) if (closed[targetProv[x]!] !== 1) c++;
        for (let x = 0; x < reach.length; x++) {
          const d = reach[x]!;
          if (closed[d] !== 1) addIncoming(t, d, u);
        }
      }
    }
    moves[u] = c;
  }
  const out: MovementOrder[] = [];
  for (let u = 0; u < nu; u++) {
    const unit = units[u]!;
    const p = up[u]!;
    const reach = unit.type === "A" ? armyAdj[p]! : (fleetInfo(t, p, unit.coast)?.reach ?? []);
    let holdSupports = 0;
    let moveSupports = 0;
    for (let x = 0; x < reach.length; x++) {
      const d = reach[x]!;
      // Pass 1 listed this unit among those that could move to each open province of its
      // reach (that reach is where it moves), and only there: it supports none of its own.
      if (closed[d] === 1) moveSupports += incomingN[d]!;
      else {
        moveSupports += incomingN[d]! - 1;
        if (at[d] !== -1) holdSupports++;
      }
    }
    const convoyer = unit.type === "F" && kind[p] === KIND_SEA;
    const coasts = convoyer ? compCoasts[comp[p]!]! : [];
    let convoys = 0;
    if (convoyer) {
      let open = 0;
      for (let x = 0; x < coasts.length; x++) if (closed[coasts[x]!] !== 1) open++;
      for (let x = 0; x < coasts.length; x++) {
        const a = coasts[x]!;
        const v = at[a]!;
        if (v === -1 || units[v]!.type !== "A") continue;
        if (unneeded)
          for (let y = 0; y < coasts.length; y++)
            convoys += convoyListed(variant, t, unneeded, p, a, coasts[y]!) ? 1 : 0;
        else convoys += open - (closed[a] !== 1 ? 1 : 0);
      }
    }
    let k = r.int(1 + moves[u]! + holdSupports + moveSupports + convoys);
    if (k === 0) {
      out.push({ kind: "hold", unit });
      continue;
    }
    k -= 1;
    if (k < moves[u]!) {
      out.push(kthMove(prep, unit, p, k));
      continue;
    }
    k -= moves[u]!;
    if (k < holdSupports) {
      for (let x = 0; x < reach.length; x++) {
        const d = reach[x]!;
        const v = at[d]!;
        if (v === -1 || closed[d] === 1 || k-- > 0) continue;
        out.push(supportOf(unit, ids[d]!, units[v]!.type, null));
        break;
      }
      continue;
    }
    k -= holdSupports;
    if (k < moveSupports) {
      let found: MovementOrder | null = null;
      for (let x = 0; x < reach.length; x++) {
        const d = reach[x]!;
        const row = d * cap;
        for (let q = 0; q < incomingN[d]!; q++) {
          const v = incoming[row + q]!;
          if (v === u || k-- > 0) continue;
          const x = units[v]!;
          found = supportOf(unit, x.province, x.type, ids[d]!);
          break;
        }
        if (found) break;
      }
      out.push(found!);
      continue;
    }
    k -= moveSupports;
    let found: MovementOrder | null = null;
    for (let x = 0; x < coasts.length; x++) {
      const a = coasts[x]!;
      const v = at[a]!;
      if (v === -1 || units[v]!.type !== "A") continue;
      for (let y = 0; y < coasts.length; y++) {
        const d = coasts[y]!;
        if (!convoyListed(variant, t, unneeded, p, a, d) || k-- > 0) continue;
        found = { kind: "convoy", unit, from: ids[a]!, to: ids[d]!, targetType: "A" };
        break;
      }
      if (found) break;
    }
    out.push(found!);
  }
  return out;
}

/** Whether the convoy by the fleet in `p` of the army in `a` to `d` is listed. */
function convoyListed(
  variant: Variant,
  t: Tables,
  unneeded: boolean,
  p: number,
  a: number,
  d: number,
): boolean {
  const { ids } = t;
  return (
    d !== a &&
    t.closed[d] !== 1 &&
    !(unneeded && !minimalRouteSeas(variant.map, ids[a]!, ids[d]!).has(ids[p]!))
  );
}

/** The `k`-th move of a unit, in the order `legalMovementOrders` lists its moves. */
function kthMove(prep: Prepared, unit: Unit, p: number, k: number): MovementOrder {
  const { t, anyConvoy } = prep;
  const { n, kind, armyAdj, armyAdjM, stamp, closed } = t;
  if (unit.type === "A") {
    const convoy = anyConvoy && kind[p] === KIND_COAST && t.seasTouching[p]!.length > 0;
    const s = convoy ? markConvoyReach(prep, p) : -1;
    const adj = armyAdj[p]!;
    for (let x = 0; x < adj.length; x++) {
      const d = adj[x]!;
      if (closed[d] === 1) continue;
      if (k-- === 0) return { kind: "move", unit, to: t.armyLoc[d]!, viaConvoy: false };
      if (stamp[d] === s && k-- === 0)
        return { kind: "move", unit, to: t.armyLoc[d]!, viaConvoy: true };
    }
    const row = p * n;
    for (let d = 0; d < n; d++) {
      if (stamp[d] !== s || armyAdjM[row + d] === 1 || closed[d] === 1) continue;
      if (k-- === 0) return { kind: "move", unit, to: t.armyLoc[d]!, viaConvoy: false };
    }
  } else {
    const info = fleetInfo(t, p, unit.coast)!;
    for (let i = 0; i < info.targets.length; i++) {
      if (closed[info.targetProv[i]!] === 1) continue;
      if (k-- === 0) return { kind: "move", unit, to: info.targets[i]!, viaConvoy: false };
    }
  }
  throw new Error(`no move ${k} for ${unit.type} ${unit.province}`);
}
