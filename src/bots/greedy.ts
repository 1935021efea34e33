/*
 * The `greedy` player's movement orders (bots/entente.ts), also the start `entente` improves
 * on and its prediction of the others' replies: one pass, no look-ahead. Each place a unit
 * could go is worth the centres it is near by moves of that unit's type; units take their
 * best places without two going to one, and an idle unit supports a neighbour's move into a
 * province an enemy can also reach.
 */
import type { MovementOrder } from "../engine/orders.ts";
import type { Rng } from "../engine/random.ts";
import {
  type Ctx,
  canSupportInto,
  centreValues,
  destNode,
  friends,
  type Options,
  supportMove,
} from "./context.ts";
import { near } from "./score.ts";

/** One power's greedy orders (see the file's head), indexed by unit; others' left null. */
export function greedyOrders(
  c: Ctx,
  w: number,
  opts: Options,
  closed: ReadonlySet<string>,
  out: (MovementOrder | null)[],
  r: Rng | null,
): void {
  const { g, position } = c;
  const units = position.units;
  const val = centreValues(c, w);
  const mine: number[] = [];
  for (let i = 0; i < units.length; i++) if (c.unitPower[i] === w) mine.push(i);
  if (mine.length === 0) return;
  const field = (v: number): number => {
    let s = 0;
    const row = v * g.n;
    for (const p of g.centres) s += val[p]! * near(g.dist[row + p]!);
    return s;
  };
  // Every (unit, order, score), best first.
  const cands: { i: number; o: MovementOrder; p: number; score: number }[] = [];
  for (const i of mine) {
    const here = g.nodeProv[c.unitNode[i]!]!;
    const holdBonus = c.fall && c.owner[here] === w && val[here]! > 0.2 ? 0.8 : 0.05;
    cands.push({ i, o: opts.holds[i]!, p: here, score: field(c.unitNode[i]!) + holdBonus });
    for (const o of opts.moves[i]!) {
      if (o.kind !== "move") continue;
      const p = g.index.get(o.to.province)!;
      let s = field(destNode(c, o, i));
      if (c.fall && g.isCentre[p] === 1 && c.owner[p] !== w && !friends(c, c.owner[p]!, w))
        s += 1.2;
      cands.push({ i, o, p, score: s + (r ? r.next() * 0.02 : 0) });
    }
  }
  cands.sort((a, b) => b.score - a.score);
  const taken = new Set<number>();
  const leaving = new Set<number>();
  const done = new Set<number>();
  const ownAt = new Map<number, number>();
  for (const i of mine) ownAt.set(g.nodeProv[c.unitNode[i]!]!, i);
  for (let round = 0; round < 2; round++)
    for (const x of cands) {
      if (done.has(x.i) || taken.has(x.p)) continue;
      const occupant = ownAt.get(x.p);
      if (occupant !== undefined && occupant !== x.i && !leaving.has(occupant)) continue;
      out[x.i] = x.o;
      done.add(x.i);
      taken.add(x.p);
      if (x.o.kind === "move") leaving.add(x.i);
    }
  for (const i of mine) if (!done.has(i)) out[i] = opts.holds[i]!;
  // Idle units support a move into a province enemy units can also reach, or a held centre.
  const contested = (p: number): boolean => {
    for (let u = 0; u < units.length; u++)
      if (!friends(c, c.unitPower[u]!, w) && g.dist[c.unitNode[u]! * g.n + p]! <= 1) return true;
    return false;
  };
  for (const s of mine) {
    const o = out[s]!;
    if (o.kind !== "hold") continue;
    const here = g.nodeProv[c.unitNode[s]!]!;
    if (c.owner[here] === w && val[here]! > 0.2) continue; // it defends its centre
    let best: MovementOrder | null = null;
    let bestScore = 0;
    for (const i of mine) {
      const x = out[i]!;
      if (i === s || x.kind !== "move") continue;
      const p = g.index.get(x.to.province)!;
      if (!canSupportInto(c, s, p, closed) || !contested(p)) continue;
      const score = val[p]! + 0.1;
      if (score > bestScore) {
        bestScore = score;
        best = supportMove(units[s]!, x);
      }
    }
    if (best) out[s] = best;
  }
}
