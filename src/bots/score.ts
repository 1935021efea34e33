/*
 * How the built-in players score a board for their power (bots/entente.ts): centres held and
 * taken (in the fall as they will count), units lost and dislodged, and how near its units
 * stand to the centres worth having; after a movement phase resolved with the engine's
 * resolver (`after`), or for a board of units as it stands (`boardScore`).
 */
import { resolveMovement } from "../engine/movement.ts";
import type { MovementOrder } from "../engine/orders.ts";
import type { Unit } from "../engine/types.ts";
import { type Ctx, destNode, friends } from "./context.ts";
import { FAR, nodeOf } from "./geometry.ts";

/** How much a centre `d` moves away counts, by `d`. */
const NEAR = [1, 0.55, 0.28, 0.14, 0.07, 0.035, 0.018, 0.009, 0.005, 0.0025];
export const near = (d: number): number => (d < NEAR.length ? NEAR[d]! : d >= FAR ? 0 : 0.001);

/** The score of the board after a movement phase, for the bot's power. */
export interface After {
  nodes: number[];
  occupant: Int32Array;
  lost: number;
  hit: number;
  friendlyHit: number;
}

export function scoreBoard(c: Ctx, val: Float64Array, a: After): number {
  const { g, me } = c;
  let material = 0;
  for (const p of g.centres) {
    const o = c.owner[p]!;
    const occ = a.occupant[p]!;
    if (c.fall) {
      const next = occ >= 0 ? occ : o;
      if (next === me) material += 1;
    } else if (o === me) material += occ >= 0 && !friends(c, occ, me) ? 0.45 : 1;
    else if (occ === me) material += 0.55;
  }
  return (
    material - 0.5 * a.lost + 0.1 * a.hit - 0.5 * a.friendlyHit + 0.3 * positional(c, val, a.nodes)
  );
}

/** How near the units stand to the centres worth having: the nearest two count. */
function positional(c: Ctx, val: Float64Array, nodes: readonly number[]): number {
  const { g } = c;
  let s = 0;
  for (const p of g.centres) {
    const v = val[p]!;
    if (v === 0) continue;
    let d1 = FAR;
    let d2 = FAR;
    for (const node of nodes) {
      const d = g.dist[node * g.n + p]!;
      if (d < d1) {
        d2 = d1;
        d1 = d;
      } else if (d < d2) d2 = d;
    }
    s += v * (near(d1) + 0.35 * near(d2));
  }
  return s;
}

/** Resolves a full order set and reads the board after it, for the bot's power. */
export function after(c: Ctx, orders: MovementOrder[], a: After): void {
  const res = resolveMovement(c.g.map, orders, c.rules);
  a.nodes.length = 0;
  a.occupant.fill(-1);
  a.lost = 0;
  a.hit = 0;
  a.friendlyHit = 0;
  for (let i = 0; i < orders.length; i++) {
    const o = orders[i]!;
    const pw = c.unitPower[i]!;
    const by = res.dislodgedBy[i]!;
    if (by !== -1) {
      const attacker = c.unitPower[by]!;
      if (pw === c.me) a.lost++;
      else if (attacker === c.me) {
        if (friends(c, pw, c.me)) a.friendlyHit++;
        else a.hit++;
      }
      continue;
    }
    const node = o.kind === "move" && res.success[i] ? destNode(c, o, i) : c.unitNode[i]!;
    a.occupant[c.g.nodeProv[node]!] = pw;
    if (pw === c.me) a.nodes.push(node);
  }
}

/** The score of a board of units (no adjudication): centres as they would count, nearness. */
export function boardScore(c: Ctx, val: Float64Array, units: readonly Unit[]): number {
  const a: After = {
    nodes: [],
    occupant: new Int32Array(c.g.n).fill(-1),
    lost: 0,
    hit: 0,
    friendlyHit: 0,
  };
  const pIndex = new Map(c.powers.map((p, i) => [p as string, i]));
  for (const u of units) {
    const node = nodeOf(c.g, u);
    if (node < 0) continue;
    const w = pIndex.get(u.power) ?? -1;
    a.occupant[c.g.nodeProv[node]!] = w;
    if (w === c.me) a.nodes.push(node);
  }
  return scoreBoard(c, val, a);
}
