/**
 * Legal retreat orders: for every dislodged unit, each place it may retreat to (one order per
 * reachable coast) and the disband.
 */

import { fleetInfo, markClosed, type Tables, tablesFor } from "./legal-board.ts";
import type { Order } from "./orders.ts";
import type { RuleOptions } from "./rules.ts";
import { makeUnit } from "./shapes.ts";
import { type DislodgedUnit, dislodgedKey, type Position } from "./types.ts";
import type { Variant } from "./variant.ts";

/**
 * Whether dislodged unit `d` may not retreat to province `q` (`t.at` marks occupied ones).
 * `toConvoyOrigin` is the rule `retreatToConvoyedAttackerOrigin`, read once by the caller (a
 * read here, on a path few retreats take, was a deoptimization of its optimized caller).
 */
function retreatBlocked(t: Tables, d: DislodgedUnit, q: number, toConvoyOrigin: boolean): boolean {
  return (
    t.at[q] === 1 ||
    t.closed[q] === 1 ||
    (d.attackerFrom === t.ids[q] && !(d.viaConvoy && toConvoyOrigin))
  );
}

/**
 * Retreat phase: for every dislodged unit (keyed by its province), its legal retreats (one
 * per reachable coast) and the disband. The orders name the position's `DislodgedUnit`
 * objects, as the adjudicator does when it reads a retreat order.
 */
export function legalRetreatOrders(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
): Map<string, readonly Order[]> {
  const t = tablesFor(variant);
  const { at } = t;
  const toConvoyOrigin = rules.retreatToConvoyedAttackerOrigin;
  markClosed(t, variant, position);
  at.fill(-1);
  for (const u of position.units) at[t.index.get(u.province)!] = 1;
  for (const c of position.contested) at[t.index.get(c)!] = 1;
  const out = new Map<string, Order[]>();
  for (const dislodged of position.dislodged) {
    const d = dislodged;
    const unit = makeUnit(d.power, d.type, d.province, d.coast);
    const list: Order[] = [];
    const p = t.index.get(d.province)!;
    if (d.type === "A") {
      for (const q of t.armyAdj[p]!) {
        if (!retreatBlocked(t, d, q, toConvoyOrigin))
          list.push({ kind: "retreat", unit, to: t.armyLoc[q]! });
      }
    } else {
      const info = fleetInfo(t, p, d.coast);
      if (info) {
        info.targets.forEach((to, i) => {
          if (!retreatBlocked(t, d, info.targetProv[i]!, toConvoyOrigin))
            list.push({ kind: "retreat", unit, to });
        });
      }
    }
    list.push({ kind: "disband", unit });
    out.set(dislodgedKey(d), list);
  }
  return out;
}
