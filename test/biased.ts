import assert from "node:assert/strict";
import fc from "fast-check";
import { legalMovementOrders } from "../src/engine/legal.ts";
import { formatOrder, type MovementOrder } from "../src/engine/orders.ts";
import { type Rng, rng } from "../src/engine/random.ts";
import type { GameState } from "../src/engine/record.ts";
import type { OrderTexts, PhaseResult } from "../src/engine/results.ts";
import { DATC_RULES, type RuleOptions } from "../src/engine/rules.ts";
import type { Scenario } from "../src/engine/scenario.ts";
import { selfPlayGame } from "../src/engine/selfplay.ts";
import type { Position, PowerId, ProvinceId } from "../src/engine/types.ts";
import { getScenario } from "../src/variants/scenarios.ts";

/*
 * Positions and order sets for the resolver's property tests (permutation.test.ts,
 * consistency.test.ts): movement positions reached by random self-play, and orders that are
 * legal but far from uniform: armies crossing water and the fleets of their chain convoying
 * them, supports that match the supported unit's order, head-to-head battles.
 */

export function scenario(id: string): Scenario {
  const s = getScenario(id);
  assert.ok(s, `scenario ${id}`);
  return s;
}

/** The movement position reached after about `phases` phases of random play from the start. */
export function movementPosition(sc: Scenario, seed: number, phases: number): GameState {
  let reached: GameState | null = null;
  let n = 0;
  selfPlayGame({
    scenario: sc,
    rules: DATC_RULES,
    seed,
    untilYear: sc.variant.start.phase.year + Math.ceil(phases / 2),
    keepRecord: false,
    onPhase: (_before, played) => {
      if (n++ < phases && played.state.position.phase.type === "M") reached = played.state;
    },
  });
  return reached ?? { position: sc.variant.start, seats: sc.seats, events: [], index: 0 };
}

function shuffle<T>(xs: readonly T[], r: Rng): T[] {
  const out = xs.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * One legal order per unit, chosen in two passes. First each unit moves (often into a
 * neighbour's province or by convoy where a chain allows it) or holds; then about half the
 * units switch to a support or a convoy that matches what another unit was given, so that
 * supports count, convoys carry, and cycles through convoys (paradoxes) come up.
 */
export function biasedOrders(
  sc: Scenario,
  pos: Position,
  rules: RuleOptions,
  seed: number,
): OrderTexts {
  const r = rng(seed);
  const legal = legalMovementOrders(sc.variant, pos, rules);
  const chosen = new Map<ProvinceId, MovementOrder>();
  const units = shuffle(pos.units, r);
  const occupied = new Set(pos.units.map((u) => u.province as string));
  for (const u of units) {
    const options = legal.get(u.province) ?? [];
    const moves = options.filter((o) => o.kind === "move");
    const convoyed = moves.filter((o) => !sc.variant.map.armyAdjacent(u.province, o.to.province));
    const intoUnits = moves.filter((o) => occupied.has(o.to.province));
    const hold = options.find((o) => o.kind === "hold");
    const x = r.next();
    let o: MovementOrder | undefined;
    if (convoyed.length > 0 && x < 0.5) o = r.pick(convoyed);
    else if (intoUnits.length > 0 && x < 0.75) o = r.pick(intoUnits);
    else if (moves.length > 0 && x < 0.9) o = r.pick(moves);
    else o = hold;
    if (o) chosen.set(u.province, o);
  }
  for (const u of shuffle(pos.units, r)) {
    if (r.next() < 0.45) continue;
    const options = legal.get(u.province) ?? [];
    const matching = options.filter((o) => {
      if (o.kind === "support") {
        const t = chosen.get(o.target);
        if (!t || t.unit.province === u.province) return false;
        return o.to === null ? t.kind !== "move" : t.kind === "move" && t.to.province === o.to;
      }
      if (o.kind === "convoy") {
        const a = chosen.get(o.from);
        return a?.kind === "move" && a.to.province === o.to;
      }
      return false;
    });
    // Convoys first: an army whose move needs this fleet fails without it.
    const convoys = matching.filter((o) => o.kind === "convoy");
    if (convoys.length > 0 && r.next() < 0.85) chosen.set(u.province, r.pick(convoys));
    else if (matching.length > 0) chosen.set(u.province, r.pick(matching));
  }
  // Paradoxes: the unit where a convoyed army lands supports an attack on a convoying fleet.
  for (const u of shuffle(pos.units, r)) {
    const a = chosen.get(u.province);
    if (a?.kind !== "move" || r.next() < 0.4) continue;
    const fleets = pos.units.filter((f) => {
      const c = chosen.get(f.province);
      return c?.kind === "convoy" && c.from === u.province && c.to === a.to.province;
    });
    if (fleets.length === 0) continue;
    const target = r.pick(fleets).province;
    const supporter = (legal.get(a.to.province) ?? []).filter(
      (o) => o.kind === "support" && o.to === target,
    );
    if (supporter.length === 0) continue;
    const s = r.pick(supporter);
    if (s.kind !== "support") continue;
    const attack = (legal.get(s.target) ?? []).find(
      (o) => o.kind === "move" && o.to.province === target,
    );
    if (!attack) continue;
    chosen.set(a.to.province, s);
    chosen.set(s.target, attack);
  }
  const out = new Map<PowerId, string[]>();
  for (const u of pos.units) {
    const o = chosen.get(u.province);
    if (!o) continue;
    out.set(u.power, [...(out.get(u.power) ?? []), formatOrder(o)]);
  }
  return out;
}

/** The same orders and position, listed in another order: units, powers and each power's orders. */
export function permuted(
  pos: Position,
  orders: OrderTexts,
  seed: number,
): { pos: Position; orders: OrderTexts } {
  const r = rng(seed);
  const powers = shuffle([...orders.keys()], r);
  const out = new Map<PowerId, string[]>();
  for (const p of powers) out.set(p, shuffle(orders.get(p)!, r));
  return { pos: { ...pos, units: shuffle(pos.units, r) }, orders: out };
}

/** A phase result with every list in a canonical order: what must not depend on input order. */
export function canonical(res: PhaseResult): unknown {
  const key = (o: { power: string; text: string | null; order: unknown }) =>
    `${o.power}|${o.text ?? JSON.stringify(o.order)}`;
  const results = res.results
    .map((o) => [key(o), o.result, o.reason, o.explanation] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const unitKey = (u: { power: string; province: string; type: string; coast: unknown }) =>
    JSON.stringify([u.power, u.province, u.type, u.coast]);
  const n = res.next;
  return {
    results,
    winner: res.winner,
    dislodged: res.dislodged
      .map((d) =>
        JSON.stringify([d.unit, d.retreats.map((l) => `${l.province}/${l.coast}`).sort()]),
      )
      .sort(),
    next: {
      phase: n.phase,
      units: n.units.map(unitKey).sort(),
      dislodged: n.dislodged.map((d) => JSON.stringify(d)).sort(),
      contested: [...n.contested].sort(),
      centers: [...n.centers.entries()].sort(),
    },
  };
}

/**
 * Generated movement cases for a property: a self-play position (seed, up to 24 phases in)
 * and biased legal orders for it (another seed), on one scenario under one set of rules.
 * `orderSeed` is passed on for tests that derive more from it (permutations).
 */
export function biasedCases(sc: Scenario, rules: RuleOptions) {
  return fc
    .tuple(
      fc.integer({ min: 0, max: 1_000_000 }),
      fc.integer({ min: 0, max: 24 }),
      fc.integer({ min: 0, max: 1_000_000 }),
    )
    .map(([seed, phases, orderSeed]) => {
      const { position } = movementPosition(sc, seed, phases);
      return { position, orders: biasedOrders(sc, position, rules, orderSeed), orderSeed };
    });
}
