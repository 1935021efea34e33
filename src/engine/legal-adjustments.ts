/**
 * Legal adjustment orders: each power's builds (every unit type on every free, owned home
 * centre) and waives, or its removals; and random adjustment orders drawn from the lists, or
 * the same draws without making them (self-play).
 */

import { adjustmentCounts, buildSites } from "./adjustments.ts";
import type { Order } from "./orders.ts";
import type { Rng } from "./random.ts";
import type { RuleOptions } from "./rules.ts";
import { KIND_SEA, mapTables, nextMark, powerTables } from "./tables.ts";
import type { Position, PowerId } from "./types.ts";
import type { Variant } from "./variant.ts";

/**
 * Adjustment phase: per power with something to do, the legal orders and how many may be
 * given. A power with builds due gets a build of each possible type (and coast) at each free
 * owned home centre, and `waive`; `count` is the builds due (waives fill what builds cannot).
 * A power with too many units gets a remove of each of its units; `count` is the removals
 * required. Powers with nothing to do are absent.
 */
export function legalAdjustmentOrders(
  variant: Variant,
  position: Position,
  _rules: RuleOptions,
): Map<PowerId, { readonly count: number; readonly orders: readonly Order[] }> {
  const map = variant.map;
  const out = new Map<PowerId, { readonly count: number; readonly orders: readonly Order[] }>();
  for (const [power, n] of adjustmentCounts(variant, position)) {
    if (n === 0) continue;
    const orders: Order[] = [];
    if (n > 0) {
      for (const site of buildSites(variant, position, power)) {
        const prov = map.get(site);
        if (prov.kind !== "sea")
          orders.push({ kind: "build", unit: { power, type: "A", province: site, coast: null } });
        if (prov.kind === "coast") {
          if (prov.coasts.length === 0)
            orders.push({ kind: "build", unit: { power, type: "F", province: site, coast: null } });
          else
            for (const coast of prov.coasts)
              orders.push({ kind: "build", unit: { power, type: "F", province: site, coast } });
        }
      }
      orders.push({ kind: "waive", power });
      out.set(power, { count: n, orders });
    } else {
      for (const u of position.units)
        if (u.power === power) orders.push({ kind: "remove", unit: u });
      out.set(power, { count: -n, orders });
    }
  }
  return out;
}

/**
 * Random adjustments drawn from `legalAdjustmentOrders`' lists: per power, its build sites (or
 * units to remove) shuffled by `r`, the first `count` each given one of its orders by `r.pick`;
 * powers in `skip` are drawn for but get no orders. What `randomAdjustmentOrders` draws without
 * the lists, and where it cannot (it returned null).
 */
export function randomAdjustmentOrdersFromLists(
  variant: Variant,
  position: Position,
  rules: RuleOptions,
  skip: readonly PowerId[],
  r: Rng,
): Order[] {
  const out: Order[] = [];
  for (const [power, { count, orders }] of legalAdjustmentOrders(variant, position, rules)) {
    // Each build site (or unit to remove) at most once; waives fill the rest.
    const bySite = new Map<string, Order[]>();
    for (const o of orders) {
      if (o.kind === "waive") continue;
      const k = o.unit.province;
      const list = bySite.get(k);
      if (list) list.push(o);
      else bySite.set(k, [o]);
    }
    const sites = [...bySite.values()];
    for (let i = sites.length - 1; i > 0; i--) {
      const j = r.int(i + 1);
      [sites[i], sites[j]] = [sites[j]!, sites[i]!];
    }
    const chosen = sites.slice(0, count).map((site) => r.pick(site));
    if (!skip.includes(power)) out.push(...chosen);
  }
  return out;
}

/**
 * Random adjustments, drawn as self-play draws them from `legalAdjustmentOrders`' lists
 * (`randomEngineOrders`: per power with something to do, in the variant's order of powers,
 * the build sites, or the units to remove, shuffled by `r`, and the first `count` of them
 * each given one of its orders by `r.pick`), without making the lists: the same draws in the
 * same order, the same orders. Powers in `skip` are drawn for but get no orders. null when the
 * position names a power the variant does not list or puts two units in one province: the
 * caller then draws from the lists.
 */
export function randomAdjustmentOrders(
  variant: Variant,
  position: Position,
  skip: readonly PowerId[],
  r: Rng,
): Order[] | null {
  const pt = powerTables(variant);
  const mt = mapTables(variant.map);
  const np = pt.ids.length;
  const counts = new Int32Array(np);
  for (const owner of position.centers.values()) {
    const w = pt.index.get(owner);
    if (w === undefined) return null;
    counts[w]!++;
  }
  const s = nextMark(mt);
  for (const u of position.units) {
    const w = pt.index.get(u.power);
    const i = mt.index.get(u.province);
    if (w === undefined || i === undefined || mt.mark[i] === s) return null;
    counts[w]!--;
    mt.mark[i] = s;
  }
  const out: Order[] = [];
  const sites: number[] = [];
  for (let w = 0; w < np; w++) {
    const n = counts[w]!;
    if (n === 0) continue;
    const power = pt.ids[w]!;
    sites.length = 0;
    if (n > 0) {
      // buildSites: the power's home centres it owns, empty.
      for (const h of pt.homes[w]!)
        if (
          mt.mark[h] !== s &&
          mt.kind[h] !== KIND_SEA &&
          position.centers.get(mt.ids[h]!) === power
        )
          sites.push(h);
    } else {
      for (let u = 0; u < position.units.length; u++)
        if (position.units[u]!.power === power) sites.push(u);
    }
    for (let i = sites.length - 1; i > 0; i--) {
      const j = r.int(i + 1);
      const x = sites[i]!;
      sites[i] = sites[j]!;
      sites[j] = x;
    }
    const take = Math.min(sites.length, Math.abs(n));
    for (let k = 0; k < take; k++) {
      let o: Order;
      if (n > 0) {
        const h = sites[k]!;
        const prov = variant.map.get(mt.ids[h]!);
        // The site's builds as legalAdjustmentOrders lists them: an army, then the fleets.
        const armies = prov.kind !== "sea" ? 1 : 0;
        const fleets = prov.kind === "coast" ? Math.max(1, prov.coasts.length) : 0;
        const c = r.int(armies + fleets);
        const type = c < armies ? "A" : "F";
        const coast = type === "A" || prov.coasts.length === 0 ? null : prov.coasts[c - armies]!;
        o = { kind: "build", unit: { power, type, province: prov.id, coast } };
      } else {
        r.int(1); // r.pick from the unit's one order
        o = { kind: "remove", unit: position.units[sites[k]!]! };
      }
      if (!skip.includes(power)) out.push(o);
    }
  }
  return out;
}
