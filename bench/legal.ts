// Legal-order generation benchmark: node --import tsx bench/legal.ts [positions] [seed]
// Plays random legal orders from the classical start (untimed) to collect positions of every
// phase type, then times legalMovementOrders / legalRetreatOrders / legalAdjustmentOrders over
// them. Prints a human line and a JSON line.
import { adjudicate } from "../src/engine/adjudicate.ts";
import { legalMovementOrders } from "../src/engine/legal.ts";
import { legalAdjustmentOrders } from "../src/engine/legal-adjustments.ts";
import { legalRetreatOrders } from "../src/engine/legal-retreats.ts";
import { formatOrder } from "../src/engine/orders.ts";
import { rng } from "../src/engine/random.ts";
import { DATC_RULES } from "../src/engine/rules.ts";
import type { PhaseType, Position, PowerId } from "../src/engine/types.ts";
import { classical } from "../src/variants/classical/index.ts";

const [countArg = "10000", seedArg = "1"] = process.argv.slice(2);
const count = Number(countArg);
const variant = classical;
const rules = DATC_RULES;
const r = rng(Number(seedArg));

function randomOrders(pos: Position): Map<PowerId, string[]> {
  const out = new Map<PowerId, string[]>();
  const add = (power: PowerId, text: string) => {
    const list = out.get(power);
    if (list) list.push(text);
    else out.set(power, [text]);
  };
  if (pos.phase.type === "M") {
    for (const list of legalMovementOrders(variant, pos, rules).values()) {
      const moves = list.filter((o) => o.kind === "move");
      const o = r.next() < 0.6 && moves.length > 0 ? r.pick(moves) : r.pick(list);
      add(o.unit.power, formatOrder(o));
    }
  } else if (pos.phase.type === "R") {
    for (const list of legalRetreatOrders(variant, pos, rules).values()) {
      const o = r.pick(list);
      if (o.kind !== "waive") add(o.unit.power, formatOrder(o));
    }
  } else {
    for (const [power, { count: n, orders }] of legalAdjustmentOrders(variant, pos, rules)) {
      const shuffled = [...orders].sort(() => r.next() - 0.5);
      for (const o of shuffled.slice(0, n)) add(power, formatOrder(o));
    }
  }
  return out;
}

const positions: Position[] = [];
let pos = variant.start;
while (positions.length < count) {
  positions.push(pos);
  const res = adjudicate(variant, pos, randomOrders(pos), rules);
  pos = res.winner !== null || res.next.phase.year > 1930 ? variant.start : res.next;
}

function generate(p: Position): number {
  let n = 0;
  if (p.phase.type === "M")
    for (const l of legalMovementOrders(variant, p, rules).values()) n += l.length;
  else if (p.phase.type === "R")
    for (const l of legalRetreatOrders(variant, p, rules).values()) n += l.length;
  else for (const e of legalAdjustmentOrders(variant, p, rules).values()) n += e.orders.length;
  return n;
}

// Warm up, then the best of three timed passes.
for (const p of positions.slice(0, 1000)) generate(p);
let best = Number.POSITIVE_INFINITY;
let orders = 0;
for (let pass = 0; pass < 3; pass++) {
  orders = 0;
  const t0 = performance.now();
  for (const p of positions) orders += generate(p);
  best = Math.min(best, performance.now() - t0);
}
const byPhase: Record<PhaseType, number> = { M: 0, R: 0, A: 0 };
for (const p of positions) byPhase[p.phase.type]++;

const perPosition = (best * 1000) / positions.length;
console.log(
  `legal orders for ${positions.length} positions (M ${byPhase.M}, R ${byPhase.R}, A ${byPhase.A}): ` +
    `${best.toFixed(1)} ms, ${perPosition.toFixed(1)} µs per position, ${orders} orders`,
);
console.log(
  JSON.stringify({
    positions: positions.length,
    phases: byPhase,
    ms: Number(best.toFixed(1)),
    usPerPosition: Number(perPosition.toFixed(2)),
    orders,
  }),
);
