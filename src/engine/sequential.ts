/**
 * Sequential movement (seed 003, Nicholas Hoyle's variant; docs/sequential.md). The powers'
 * orders are resolved one power after another, in a secret order of resolution (the
 * schedule), each against the board as the earlier ones left it. Every slot is an ordinary
 * movement resolution (`resolveMovement`, untouched): the slot's own orders, and every other
 * unit on the board as it stands, holding, with the supports to hold its power gave earlier
 * in the season and the retrospective supports (`A rum S A vie in gal`) still standing.
 *
 * - Support and convoy between two powers need a contract; the units concerned (everything
 *   linked to them by support, convoy or a move into a province their own power leaves) are
 *   resolved together in the slot of the contracted power that comes later.
 * - A unit dislodged before its own slot does nothing more; its orders fail.
 * - The board after the season, the dislodged units (where they stood when dislodged, and
 *   where their attacker came from) and the provinces no one may retreat to come out with
 *   the per-order results; the retreat and adjustment phases are the standard ones.
 *
 * Here: the season resolved slot by slot (`resolveSequential`, the `Season`). The schedule,
 * the contracts and what players may read are `sequential-schedule.ts`; reading the options
 * is `sequential-rules.ts`.
 */

import { boardAfter, type MovementResolution, resolveMovement } from "./movement.ts";
import type { MovementOrder } from "./orders.ts";
import type { RuleOptions } from "./rules.ts";
import {
  checkSequential,
  contractsFor,
  range,
  seasonKey,
  seasonPlan,
} from "./sequential-schedule.ts";
import { makeDislodged, makeUnit } from "./shapes.ts";
import {
  type DislodgedUnit,
  dislodgedKey,
  type Phase,
  type Position,
  type PowerId,
  type ProvinceId,
  type Unit,
} from "./types.ts";
import type { Variant } from "./variant.ts";

/** The movement resolution of a whole season, with the board it leaves. */
export interface SequentialResolution extends MovementResolution {
  /** Units on the board after the season's moves, where they ended. */
  readonly units: readonly Unit[];
  /** Units dislodged, where they were dislodged, with the province their attacker came from. */
  readonly dislodged: readonly DislodgedUnit[];
}

// ---------------------------------------------------------------------------------------------
// Resolution

const hold = (unit: Unit, moveOrdered = false): MovementOrder =>
  moveOrdered ? { kind: "hold", unit, moveOrdered: true } : { kind: "hold", unit };

const isRetro = (o: MovementOrder): boolean => o.kind === "support" && o.arrived === true;

const describe = (u: Unit): string => `${u.type} ${u.province}`;

const describeOrder = (o: MovementOrder): string =>
  o.kind === "move" ? `${describe(o.unit)} - ${o.to.province}` : describe(o.unit);

/** A unit's province and coast, as text. */
const where = (u: Unit): string => (u.coast ? `${u.province}/${u.coast}` : u.province);

/** One order's outcome, as the whole season leaves it. */
interface Outcome {
  readonly success: boolean;
  readonly reason: string | null;
  readonly explanation: string;
  /** Void before resolution: it was never part of a slot's resolution. */
  readonly voided?: boolean;
}

/** Where and by whom a unit was dislodged. */
interface Dislodgement {
  readonly slot: number;
  /** The index of the order whose move dislodged it. */
  readonly by: number;
  /** The attacker's province when it attacked. */
  readonly from: ProvinceId;
  readonly viaConvoy: boolean;
  /** The unit as it stood when dislodged. */
  readonly unit: Unit;
  /** `A mun - bur in slot 2 of 7 (Germany's orders)`. */
  readonly byText: string;
  /** `dislodged by A mun - bur in slot 2 of 7 (Germany's orders)`. */
  readonly text: string;
}

/**
 * Resolves the movement phase of `position` sequentially. `orders[i]` is the order of unit
 * `i` (every unit has one; holds for those given none), as the simultaneous resolver takes
 * them. The schedule, the contracts and the simultaneous seasons come from `rules`.
 */
export function resolveSequential(
  variant: Variant,
  position: Position,
  orders: readonly MovementOrder[],
  rules: RuleOptions,
): SequentialResolution {
  const problem = checkSequential(variant, position, rules);
  if (problem) throw new Error(problem);
  const plan = seasonPlan(variant, position.phase, rules);
  if (plan.kind === "simultaneous") return simultaneousSeason(variant, position, orders, rules);
  return new Season(variant, position.phase, orders, rules, plan.order).run();
}

/**
 * A season the GM made simultaneous: the standard rules, support between powers included;
 * a retrospective support has nothing to look back on and gives nothing.
 */
function simultaneousSeason(
  variant: Variant,
  position: Position,
  orders: readonly MovementOrder[],
  rules: RuleOptions,
): SequentialResolution {
  const plain = orders.map((o) => (isRetro(o) ? hold(o.unit) : o));
  const res = resolveMovement(variant.map, plain, rules);
  const note = ` (all orders resolved together: ${seasonKey(position.phase)} is a simultaneous season)`;
  const reasons = res.reasons.map((r, i) =>
    isRetro(orders[i]!)
      ? `retrospective support has nothing to look back on in a simultaneous season${note}`
      : r === null
        ? null
        : `${r}${note}`,
  );
  return {
    ...res,
    ...boardAfter(plain, res),
    success: res.success.map((s, i) => s && !isRetro(orders[i]!)),
    reasons,
    explanations: res.explanations.map((e, i) => reasons[i] ?? `${e}${note}`),
  };
}

class Season {
  private readonly n: number;
  private readonly names: ReadonlyMap<PowerId, string>;
  /** The slot each power's own orders take (its place in the schedule). */
  private readonly slotOfPower = new Map<PowerId, number>();
  /** The power whose orders each slot resolves. */
  private readonly slotPowers: PowerId[];
  /** The slot each unit's orders are resolved in. */
  private readonly slot: number[];
  /** Why in that slot (a contract), for units resolved outside their power's slot. */
  private readonly why: string[];
  /** The unit that stood in each province at the start of the season. */
  private readonly startAt = new Map<ProvinceId, number>();
  private readonly contracted = new Set<string>();
  /** Orders void before resolution (support between powers without a contract, ...). */
  private readonly voidReason: (string | null)[];
  /** Where each unit stands now. */
  private readonly current: Unit[];
  private readonly dislodgement: (Dislodgement | null)[];
  private readonly outcome: (Outcome | null)[];
  private readonly usesConvoy: boolean[];
  private readonly paradox: boolean[];
  /** Supports to hold (plain or retrospective) standing after their slot: the unit supported. */
  private readonly standing = new Map<number, number>();
  /** A standing support that was cut, and how. */
  private readonly cut: (string | null)[];
  /** What happened to a unit in slots other than its own, in words. */
  private readonly events: string[][];
  /** Provinces where a move was kept out: no retreat there if they end the season empty. */
  private readonly fought = new Set<ProvinceId>();

  constructor(
    private readonly variant: Variant,
    phase: Phase,
    private readonly orders: readonly MovementOrder[],
    private readonly rules: RuleOptions,
    schedule: readonly PowerId[],
  ) {
    const n = orders.length;
    this.n = n;
    this.names = new Map(variant.powers.map((p) => [p.id, p.name]));
    this.slotPowers = [...schedule];
    for (const u of orders.map((o) => o.unit)) {
      if (!this.slotPowers.includes(u.power)) this.slotPowers.push(u.power);
    }
    this.slotPowers.forEach((p, k) => {
      this.slotOfPower.set(p, k);
    });
    for (const [a, b] of contractsFor(rules, phase)) {
      this.contracted.add(`${a} ${b}`);
      this.contracted.add(`${b} ${a}`);
    }
    orders.forEach((o, i) => {
      this.startAt.set(o.unit.province, i);
    });
    this.current = orders.map((o) => o.unit);
    this.voidReason = orders.map((o) => this.precheck(o));
    this.dislodgement = new Array<Dislodgement | null>(n).fill(null);
    this.outcome = new Array<Outcome | null>(n).fill(null);
    this.usesConvoy = new Array<boolean>(n).fill(false);
    this.paradox = new Array<boolean>(n).fill(false);
    this.cut = new Array<string | null>(n).fill(null);
    this.events = Array.from({ length: n }, () => []);
    this.slot = new Array<number>(n).fill(0);
    this.why = new Array<string>(n).fill("");
    this.assignSlots();
  }

  private name(p: PowerId): string {
    return this.names.get(p) ?? p;
  }

  private slotName(s: number): string {
    return `slot ${s + 1} of ${this.slotPowers.length}`;
  }

  /** `slot 2 of 7 (Germany's orders)`. */
  private slotText(s: number): string {
    return `${this.slotName(s)} (${this.name(this.slotPowers[s]!)}'s orders)`;
  }

  /** `slot 2 of 7 (Germany's orders)`: where unit `i`'s orders are resolved, and why there. */
  private place(i: number): string {
    return `${this.slotName(this.slot[i]!)} (${this.why[i]})`;
  }

  /** `resolved in slot 2 of 7 (Germany's orders)`, said with every result. */
  private note(i: number): string {
    return `resolved in ${this.place(i)}`;
  }

  /** The unit an order names as supported or convoyed, by its place at the start. */
  private targetOf(o: MovementOrder): number | undefined {
    if (o.kind === "support") return this.startAt.get(o.target);
    if (o.kind === "convoy") return this.startAt.get(o.from);
    return undefined;
  }

  /** Why a support or convoy cannot count, before any resolution; null when it may. */
  private precheck(o: MovementOrder): string | null {
    if (o.kind !== "support" && o.kind !== "convoy") return null;
    const t = this.targetOf(o);
    if (t === undefined) {
      return o.kind === "support"
        ? `no unit in ${o.target} to support`
        : `no army in ${o.from} is ordered to move to ${o.to}`;
    }
    const a = o.unit.power;
    const b = this.orders[t]!.unit.power;
    if (a === b || this.contracted.has(`${a} ${b}`)) return null;
    const what = o.kind === "support" ? "support for" : "a convoy of";
    return `${what} a unit of ${this.name(b)} needs a contract between ${this.name(a)} and ${this.name(b)}, declared to the GM; there is none this season`;
  }

  /**
   * Each unit's slot. Units linked by support or convoy, or by a move into a province another
   * unit of the same power leaves, are resolved together; a group with units of several
   * (contracted) powers takes the latest of their slots.
   */
  private assignSlots(): void {
    const parent = range(this.n);
    const find = (i: number): number => {
      while (parent[i] !== i) {
        parent[i] = parent[parent[i]!]!;
        i = parent[i]!;
      }
      return i;
    };
    const union = (a: number, b: number) => {
      parent[find(a)] = find(b);
    };
    this.orders.forEach((o, i) => {
      if (this.voidReason[i] === null) {
        const t = this.targetOf(o);
        if (t !== undefined) union(i, t);
      }
      if (o.kind === "move") {
        const k = this.startAt.get(o.to.province);
        const ko = k === undefined ? undefined : this.orders[k]!;
        if (ko?.kind === "move" && ko.unit.power === o.unit.power) union(i, k!);
      }
    });
    const groups = new Map<number, number[]>();
    for (let i = 0; i < this.n; i++) {
      const r = find(i);
      const g = groups.get(r);
      if (g) g.push(i);
      else groups.set(r, [i]);
    }
    for (const members of groups.values()) {
      const powers = [...new Set(members.map((i) => this.orders[i]!.unit.power))];
      const last = Math.max(...powers.map((p) => this.slotOfPower.get(p)!));
      const lastPower = this.slotPowers[last]!;
      for (const i of members) {
        const own = this.orders[i]!.unit.power;
        this.slot[i] = last;
        if (powers.length === 1) this.why[i] = `${this.name(own)}'s orders`;
        else if (own === lastPower) {
          const others = powers.filter((p) => p !== own).map((p) => `${this.name(p)}'s`);
          this.why[i] = `${this.name(own)}'s orders, with ${others.join(" and ")} under contract`;
        } else {
          this.why[i] =
            `with ${this.name(lastPower)}'s orders: contracted units are resolved in the slot of the power lower on the schedule`;
        }
      }
    }
  }

  run(): SequentialResolution {
    const slots = this.slotPowers.length;
    for (let s = 0; s < slots; s++) this.resolveSlot(s);
    return this.result();
  }

  /** The order a unit resolved in an earlier slot stands with now. */
  private standingOrder(i: number): MovementOrder {
    const unit = this.current[i]!;
    const t = this.standing.get(i);
    if (t !== undefined && this.dislodgement[t] === null) {
      const target = this.current[t]!;
      return {
        kind: "support",
        unit,
        target: target.province,
        targetType: target.type,
        to: null,
        toCoast: null,
      };
    }
    // A unit whose move failed was ordered to move: it is not supported to hold (nothing of
    // its power's supports it to hold anyway). One that arrived stands like any other.
    const o = this.orders[i]!;
    const failed =
      o.kind === "move" ? unit === o.unit : o.kind === "hold" && o.moveOrdered === true;
    return hold(unit, failed);
  }

  /** The order a unit resolved in this slot is given, or why it cannot count now. */
  private activeOrder(i: number): { order: MovementOrder; void: string | null } {
    const o = this.orders[i]!;
    const off = (why: string) => ({ order: hold(o.unit), void: why });
    const early = this.voidReason[i] ?? null;
    if (early !== null) return off(early);
    if (isRetro(o)) return { order: hold(o.unit), void: null };
    const t = this.targetOf(o);
    if (t !== undefined) {
      const d = this.dislodgement[t];
      if (d)
        return off(`${describe(this.orders[t]!.unit)} was ${d.text}, before this order's turn`);
    }
    return { order: o, void: null };
  }

  private resolveSlot(s: number): void {
    const local: MovementOrder[] = [];
    const idx: number[] = [];
    const voided = new Map<number, string>();
    for (let i = 0; i < this.n; i++) {
      if (this.dislodgement[i]) continue;
      if (this.slot[i] === s) {
        const a = this.activeOrder(i);
        if (a.void !== null) voided.set(i, a.void);
        local.push(a.order);
      } else if (this.slot[i]! < s) local.push(this.standingOrder(i));
      else {
        const o = this.orders[i]!;
        local.push(hold(o.unit, o.kind === "hold" && o.moveOrdered === true));
      }
      idx.push(i);
    }
    if (!idx.some((i) => this.slot[i] === s)) return;
    const res = resolveMovement(this.variant.map, local, this.rules);
    const slotText = this.slotText(s);

    local.forEach((o, k) => {
      const i = idx[k]!;
      const attacked = local.some(
        (m, j) => m.kind === "move" && j !== k && m.to.province === o.unit.province,
      );
      if (this.slot[i] === s) {
        const v = voided.get(i);
        if (v !== undefined)
          this.outcome[i] = { success: false, reason: v, explanation: v, voided: true };
        else if (!isRetro(this.orders[i]!)) {
          this.outcome[i] = {
            success: res.success[k]!,
            reason: res.reasons[k] ?? null,
            explanation: res.explanations[k]!,
          };
          this.usesConvoy[i] = res.usesConvoy[k]!;
          this.paradox[i] = res.paradox[k]!;
        }
      } else if (this.standing.has(i) && o.kind === "support" && !res.success[k]) {
        this.cut[i] = `${res.reasons[k]} in ${slotText}`;
        this.standing.delete(i);
      } else if (attacked && res.dislodgedBy[k] === -1) {
        this.events[i]!.push(`in ${slotText}: ${res.explanations[k]}`);
      }
    });

    // Dislodgements, then moves.
    local.forEach((o, k) => {
      const by = res.dislodgedBy[k]!;
      if (by === -1 || (o.kind === "move" && res.success[k])) return;
      const i = idx[k]!;
      this.dislodgement[i] = {
        slot: s,
        by: idx[by]!,
        from: local[by]!.unit.province,
        viaConvoy: res.usesConvoy[by]!,
        unit: this.current[i]!,
        byText: `${describeOrder(local[by]!)} in ${slotText}`,
        text: `dislodged by ${describeOrder(local[by]!)} in ${slotText}`,
      };
      this.standing.delete(i);
    });
    local.forEach((o, k) => {
      if (o.kind === "move" && res.success[k]) {
        this.current[idx[k]!] = makeUnit(o.unit.power, o.unit.type, o.to.province, o.to.coast);
      }
    });

    // Where a move was kept out (a standoff, or a unit not yet resolved that may leave later).
    for (const p of res.contested) this.fought.add(p);
    local.forEach((o, k) => {
      if (o.kind !== "move" || res.success[k] || res.paradox[k]) return;
      const there = this.startAt.get(o.to.province);
      const pending =
        there !== undefined &&
        this.slot[there]! > s &&
        this.current[there]!.province === o.to.province;
      if (pending && this.carried(local, res, k)) this.fought.add(o.to.province);
    });

    // Supports to hold given in this slot stand from now on, as do retrospective supports
    // whose move succeeded.
    for (const i of idx) {
      const o = this.orders[i]!;
      if (this.slot[i] !== s || this.dislodgement[i] || voided.has(i)) continue;
      if (o.kind !== "support" || (o.to !== null && !o.arrived)) continue;
      const t = this.targetOf(o)!;
      if (this.dislodgement[t]) continue;
      if (o.arrived) {
        if (this.retroProblem(i) === null) this.standing.set(i, t);
      } else if (this.outcome[i]!.success) this.standing.set(i, t);
    }
  }

  /** Whether move `k` of a slot had its way there (over land, or by a convoy that held). */
  private carried(local: readonly MovementOrder[], res: MovementResolution, k: number): boolean {
    const m = local[k]!;
    if (m.kind !== "move" || !res.usesConvoy[k]) return true;
    return local.some(
      (c, j) =>
        c.kind === "convoy" &&
        c.from === m.unit.province &&
        c.to === m.to.province &&
        res.success[j],
    );
  }

  /** Why a retrospective support finds nothing to support; null when its move succeeded. */
  private retroProblem(i: number): string | null {
    const o = this.orders[i]!;
    if (o.kind !== "support" || o.to === null) return null;
    const t = this.targetOf(o)!;
    const to = this.orders[t]!;
    const unit = describe(to.unit);
    if (to.kind !== "move" || to.to.province !== o.to)
      return `${unit} was not ordered to move to ${o.to}: there is no arrival to support`;
    const d = this.dislodgement[t];
    if (d && d.unit.province !== o.to) return `${unit} was dislodged before it could move`;
    if (!this.outcome[t]?.success)
      return `${unit} - ${o.to} failed: the support was conditional on it`;
    return null;
  }

  private result(): SequentialResolution {
    const success: boolean[] = [];
    const reasons: (string | null)[] = [];
    const explanations: string[] = [];
    const dislodgedBy: number[] = [];
    for (let i = 0; i < this.n; i++) {
      const out = this.final(i);
      success.push(out.success);
      reasons.push(out.success ? null : out.reason);
      explanations.push(out.success ? out.explanation : (out.reason ?? out.explanation));
      dislodgedBy.push(this.dislodgement[i]?.by ?? -1);
    }
    // Units dislodged from one province in one season (an earlier slot's and a later one's)
    // all retreat, each power's named by its province. Only if one power had two dislodged
    // from the same province (three dislodgements there) would its retreat orders not tell
    // them apart: then the later one retreats and the earlier is disbanded (docs/sequential.md).
    const last = new Map<string, number>();
    for (let i = 0; i < this.n; i++) {
      const d = this.dislodgement[i];
      if (!d) continue;
      const key = dislodgedKey(d.unit);
      const prev = last.get(key);
      if (prev === undefined || this.dislodgement[prev]!.slot < d.slot) last.set(key, i);
    }
    const dislodged: DislodgedUnit[] = [];
    for (let i = 0; i < this.n; i++) {
      const d = this.dislodgement[i];
      if (!d) continue;
      const k = last.get(dislodgedKey(d.unit))!;
      if (k !== i) {
        const gone = `; it is disbanded: another unit of its power was dislodged from ${d.unit.province} later in the season, by ${this.dislodgement[k]!.byText}, and retreat orders name a power's dislodged unit by its province`;
        explanations[i] = `${explanations[i]}${gone}`;
        if (reasons[i] !== null) reasons[i] = `${reasons[i]}${gone}`;
        continue;
      }
      dislodged.push(makeDislodged(d.unit, d.from, d.viaConvoy));
    }
    const units = this.current.filter((_, i) => !this.dislodgement[i]);
    const occupied = new Set(units.map((u) => u.province));
    const contested = [...this.fought].filter((p) => !occupied.has(p)).sort();
    return {
      success,
      dislodgedBy,
      usesConvoy: this.usesConvoy,
      paradox: this.paradox,
      contested,
      reasons,
      explanations,
      units,
      dislodged,
    };
  }

  /** How order `i` came out over the whole season, with the slot it was resolved in. */
  private final(i: number): Outcome {
    const o = this.orders[i]!;
    const d = this.dislodgement[i] ?? null;
    const s = this.slot[i]!;
    const note = this.note(i);
    const fail = (why: string): Outcome => ({ success: false, reason: why, explanation: why });
    if (d && d.slot < s) return fail(`${d.text}, before its own turn in ${this.place(i)}`);
    const own = this.outcome[i];
    const after = d && d.slot > s ? d : null;
    const then = after ? `; then dislodged from ${where(after.unit)} by ${after.byText}` : "";
    const later = this.events[i]!.length > 0 ? `; ${this.events[i]!.join("; ")}` : "";
    if (own?.voided) return fail(`${own.reason}; ${note}${then}`);
    if (isRetro(o)) return this.finalRetro(i, d, later);
    const base = own ?? { success: true, reason: null, explanation: "held" };
    if (o.kind === "hold" && after)
      return fail(`${after.text}; it held when its orders were ${note}`);
    if (o.kind === "support" && o.to === null && base.success) {
      const given = `support given in ${this.place(i)}, then`;
      if (this.cut[i] !== null) return fail(`${given} ${this.cut[i]}`);
      if (after) return fail(`${given} ${after.text}`);
      return {
        success: true,
        reason: null,
        explanation: `${base.explanation}, standing for the rest of the season; ${note}${later}`,
      };
    }
    return {
      success: base.success,
      reason: base.reason === null ? null : `${base.reason}; ${note}${then}${later}`,
      explanation: `${base.explanation}; ${note}${then}${later}`,
    };
  }

  private finalRetro(i: number, d: Dislodgement | null, later: string): Outcome {
    const o = this.orders[i]!;
    const fail = (why: string): Outcome => ({ success: false, reason: why, explanation: why });
    const problem = this.retroProblem(i);
    if (problem !== null) return fail(`${problem}; ${this.note(i)}`);
    const t = this.targetOf(o)!;
    const what = `${describe(this.orders[t]!.unit)} in ${o.kind === "support" ? o.to : ""}`;
    const given = `retrospective support for ${what} given from ${this.place(i)} on`;
    if (this.cut[i] !== null) return fail(`${given}, then ${this.cut[i]}`);
    if (d) return fail(`${given}, until ${d.text}`);
    return {
      success: true,
      reason: null,
      explanation: `${given}, for the orders resolved after it${later}`,
    };
  }
}
