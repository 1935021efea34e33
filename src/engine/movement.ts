/**
 * Movement resolution, after Lucas Kruijswijk's "The Math of Adjudication": every move,
 * support and convoy is a yes/no decision defined from the others (attack, hold, defend and
 * prevent strengths). Decisions are resolved on demand; when a decision depends on itself,
 * both guesses are tried. One consistent answer is taken; where there are none or two, the
 * cycle is circular movement (all moves succeed) or a convoy paradox (the paradox rule of the
 * rule options decides). No case is special-cased.
 *
 * Here: what resolution finds (`MovementResolution`, `movementWords`), `resolveMovement` (the
 * resolver's run to a consistent answer) and `boardAfter`. The resolver is one class in layers:
 * `movement-board.ts` (the orders as tables), `movement-decisions.ts` (the decisions),
 * `movement-words.ts` (the explanations), and `Resolver` here (the run).
 */

import { minusOneList, zeroList } from "./filled.ts";
import type { GameMap } from "./map.ts";
import { CONVOY, MOVE, OTHER, SUPPORT } from "./movement-board.ts";
import { Restart, UNRESOLVED } from "./movement-decisions.ts";
import { MovementExplained } from "./movement-words.ts";
import type { MovementOrder } from "./orders.ts";
import type { RuleOptions } from "./rules.ts";
import { makeDislodged, makeUnit } from "./shapes.ts";
import type { DislodgedUnit, ProvinceId, Unit } from "./types.ts";

/** What resolution found, per order index of the input. */
export interface MovementResolution {
  /** Move: it succeeded. Support: it was given (not cut, not void). Convoy: the army was carried. Hold: not dislodged. */
  readonly success: readonly boolean[];
  /** Index of the move that dislodged the unit of this order, or -1. */
  readonly dislodgedBy: readonly number[];
  /** Whether this move goes by convoy (rule 4.A.3 applied). */
  readonly usesConvoy: readonly boolean[];
  /** Moves broken by the convoy-paradox rule. */
  readonly paradox: readonly boolean[];
  /** Provinces left empty by a standoff: no retreat there. */
  readonly contested: readonly ProvinceId[];
  /** Why each unsuccessful order failed, in words a chair can read aloud. */
  readonly reasons: readonly (string | null)[];
  /** How each order came out, successful or not: a chair can read it aloud. */
  readonly explanations: readonly string[];
}

/**
 * The words of a resolution, per order: made when first asked for and kept (self-play and
 * most callers read none; a judge reads every one once). The same words as when every order
 * was worded at once: they are made from decisions that no longer change.
 */
export interface MovementWords {
  /** Why order `i` did not succeed; null when it did. */
  reason(i: number): string | null;
  /** How order `i` came out, successful or not. */
  explanation(i: number): string;
}

/** `resolveMovement`'s answer: the decisions as data, their words on demand. */
class Resolution implements MovementResolution, MovementWords {
  protected reasonsMade: (string | null | undefined)[] | null = null;
  protected explanationsMade: (string | undefined)[] | null = null;

  constructor(
    protected readonly resolver: Resolver,
    readonly success: readonly boolean[],
    readonly dislodgedBy: readonly number[],
    readonly usesConvoy: readonly boolean[],
    readonly paradox: readonly boolean[],
    readonly contested: readonly ProvinceId[],
  ) {}

  reason(i: number): string | null {
    this.reasonsMade ??= new Array<string | null | undefined>(this.success.length);
    let r = this.reasonsMade[i];
    if (r === undefined) {
      r = this.resolver.reason(i);
      this.reasonsMade[i] = r;
    }
    return r;
  }

  explanation(i: number): string {
    this.explanationsMade ??= new Array<string | undefined>(this.success.length);
    let e = this.explanationsMade[i];
    if (e === undefined) {
      e = this.resolver.explanation(i, this.reason(i));
      this.explanationsMade[i] = e;
    }
    return e;
  }

  /** Every order's reason (all worded on the first read). */
  get reasons(): readonly (string | null)[] {
    if (this.success.length === 0) return [];
    for (let i = 0; i < this.success.length; i++) this.reason(i);
    return this.reasonsMade as (string | null)[];
  }

  /** Every order's explanation (all worded on the first read). */
  get explanations(): readonly string[] {
    if (this.success.length === 0) return [];
    for (let i = 0; i < this.success.length; i++) this.explanation(i);
    return this.explanationsMade as string[];
  }
}

/** The words of any movement resolution: its own if it makes them on demand. */
export function movementWords(res: MovementResolution): MovementWords {
  if (res instanceof Resolution) return res;
  return {
    reason: (i) => res.reasons[i] ?? null,
    explanation: (i) => res.explanations[i]!,
  };
}

/**
 * `places`, if given: each order's unit's province index on the map (`provinceIndex`, -1 for
 * a province the map lacks), which the resolver would otherwise look up.
 */
export function resolveMovement(
  map: GameMap,
  orders: readonly MovementOrder[],
  rules: RuleOptions,
  places: readonly number[] | null = null,
): MovementResolution {
  return new Resolver(map, orders, rules, places).run();
}

class Resolver extends MovementExplained {
  run(): MovementResolution {
    const { n, kindOf } = this;
    const success: boolean[] = [];
    for (;;) {
      try {
        for (let i = 0; i < n; i++) if (kindOf[i] !== OTHER) this.resolve(i);
        break;
      } catch (e) {
        // A step of the Alternative C paradox procedure changed strengths: re-resolve.
        if (!(e instanceof Restart)) throw e;
        this.state.fill(UNRESOLVED);
        this.res.fill(0);
        this.deps.length = 0;
        this.backup.fill(0);
      }
    }
    const dislodgedBy = minusOneList(n);
    for (let i = 0; i < n; i++) {
      if (kindOf[i] === MOVE && this.res[i]) continue;
      for (const m of this.movesAt(this.intoHere[i]!)) {
        if (this.res[m]) dislodgedBy[i] = m;
      }
    }
    for (let i = 0; i < n; i++) {
      const k = kindOf[i]!;
      if (k === CONVOY) {
        const m = this.convoyed[i]!;
        success.push(
          dislodgedBy[i] === -1 &&
            m !== -1 &&
            this.usesConvoy[m]! &&
            !this.paradox[m] &&
            this.path(m),
        );
      } else if (k === MOVE || k === SUPPORT) success.push(this.res[i] === 1);
      else success.push(dislodgedBy[i] === -1);
    }

    // Provinces moved into that are left empty, where some move stood off.
    const contested: ProvinceId[] = [];
    const { into } = this;
    const occupied = zeroList(into.length);
    for (let i = 0; i < n; i++) {
      if (kindOf[i] === MOVE && this.res[i]) occupied[this.intoThere[i]!] = 1;
      else if (dislodgedBy[i] === -1 && this.intoHere[i] !== -1) occupied[this.intoHere[i]!] = 1;
    }
    for (let list = 0; list < into.length; list++) {
      if (occupied[list]) continue;
      for (const m of into[list]!) {
        if (this.res[m] || this.paradox[m] || !this.path(m)) continue;
        const k = this.h2h[m]!;
        if (k !== -1 && this.res[k]) continue;
        contested.push(this.intoProvince[list]!);
        break;
      }
    }
    contested.sort();

    this.success = success;
    this.dislodgedBy = dislodgedBy;
    return new Resolution(this, success, dislodgedBy, this.usesConvoy, this.paradox, contested);
  }

  /**
   * Why order `i` did not succeed, or null. Worded from the resolver's decisions, which no
   * longer change once `run` has returned: the words are the same whenever they are made.
   */
  reason(i: number): string | null {
    return this.success[i] ? null : `${this.explain(i, this.dislodgedBy)}${this.halfNote(i)}`;
  }

  /** How order `i` came out (its reason when it failed). */
  explanation(i: number, reason: string | null): string {
    return reason ?? `${this.explainSuccess(i)}${this.halfNote(i)}`;
  }
}

/** The board after one standard resolution of `orders`. */
export function boardAfter(
  orders: readonly MovementOrder[],
  res: MovementResolution,
): { units: Unit[]; dislodged: DislodgedUnit[] } {
  const units: Unit[] = [];
  const dislodged: DislodgedUnit[] = [];
  for (let i = 0; i < orders.length; i++) {
    const o = orders[i]!;
    const u = o.unit;
    if (o.kind === "move" && res.success[i]) {
      units.push(makeUnit(u.power, u.type, o.to.province, o.to.coast));
      continue;
    }
    const by = res.dislodgedBy[i]!;
    if (by === -1) units.push(u);
    else {
      dislodged.push(makeDislodged(u, orders[by]!.unit.province, res.usesConvoy[by]!));
    }
  }
  return { units, dislodged };
}
