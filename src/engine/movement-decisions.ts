/**
 * Kruijswijk's decisions over a `MovementBoard`: `resolve` (a decision on demand, guessing
 * through cycles), the backup rule (circular movement, convoy paradoxes by the rule options,
 * seed 002 VI(6)'s procedure), and each decision: attack, hold, defend and prevent strengths,
 * moves, supports cut or given, convoy routes, dislodgement.
 */

import { CONVOY, MOVE, MovementBoard, SUPPORT } from "./movement-board.ts";
import type { ProvinceId } from "./types.ts";

/** Thrown to start resolution again after a step of the seed 002 VI(6) paradox procedure. */
export class Restart extends Error {}

export const UNRESOLVED = 0;
const GUESSING = 1;
const RESOLVED = 2;

export class MovementDecisions extends MovementBoard {
  /** Kruijswijk's resolve: the decision of order `i`, guessing through cycles. */
  protected resolve(i: number): boolean {
    const { state, res, deps } = this;
    if (state[i] === RESOLVED) return res[i] === 1;
    if (state[i] === GUESSING) return this.readGuess(i);
    const old = deps.length;
    res[i] = 0;
    state[i] = GUESSING;
    this.started[i] = ++this.clock;
    const first = this.adjudicate(i);
    if (deps.length === old) {
      if (state[i] !== RESOLVED) {
        res[i] = first ? 1 : 0;
        state[i] = RESOLVED;
      }
      return first;
    }
    return this.resolveCycle(i, old, first);
  }

  /*
   * The two methods below run only where decisions depend on each other (few phases of
   * random play). They are methods of their own, not lines of `resolve`: code V8 optimized
   * before a phase first reached them would be thrown away at each such line it meets, the
   * callers of `resolve` with it (docs/performance.md, "Warm-up: shapes and deopts").
   */

  /** A read of the guess on `i`, still being decided further up. */
  protected readGuess(i: number): boolean {
    // Recorded on every read, even when `i` is already listed: the caller tells whether it
    // read a guess by whether the list grew, and a decision that read only a guess listed
    // earlier must stay a guess, never be stored as resolved with the guess's value.
    this.deps.push(i);
    return this.res[i] === 1;
  }

  /** `resolve` of `i`, whose first guess (`first`) read guesses listed since `old`. */
  protected resolveCycle(i: number, old: number, first: boolean): boolean {
    const { state, res, deps } = this;
    if (this.readsOuterGuess(i, old)) {
      // Depends on a guess made further up: stay a guess, let the head of the cycle decide.
      deps.push(i);
      res[i] = first ? 1 : 0;
      return first;
    }
    // `i` heads a cycle of decisions: try the other guess.
    this.reset(old);
    res[i] = 1;
    state[i] = GUESSING;
    const second = this.adjudicate(i);
    if (this.readsOuterGuess(i, old)) {
      deps.push(i);
      res[i] = second ? 1 : 0;
      return second;
    }
    if (first === second) {
      this.reset(old);
      res[i] = first ? 1 : 0;
      state[i] = RESOLVED;
      return first;
    }
    this.backupRule(old);
    return this.resolve(i);
  }

  /**
   * Whether the decisions listed since `old` read a guess made before `i` was started: one
   * further up, still being decided (Tarjan's low link). Then `i` is not the head of its
   * cycle, wherever that outer guess stands in the list: it stays a guess. Only a decision
   * whose listed guesses were all made inside its own resolution decides a cycle.
   */
  protected readsOuterGuess(i: number, old: number): boolean {
    const { deps, started } = this;
    const mine = started[i]!;
    for (let k = old; k < deps.length; k++) if (started[deps[k]!]! < mine) return true;
    return false;
  }

  protected reset(old: number): void {
    while (this.deps.length > old) this.state[this.deps.pop()!] = UNRESOLVED;
  }

  /** A cycle with no or two consistent answers: circular movement or a convoy paradox. */
  protected backupRule(old: number): void {
    const cycle = this.deps.slice(old);
    this.reset(old);
    const convoys = cycle.filter((i) => this.orders[i]!.kind === "convoy");
    const settle = (m: number, ok: boolean) => {
      this.res[m] = ok ? 1 : 0;
      this.state[m] = RESOLVED;
      this.backup[m] = 1;
    };
    const moves = cycle.filter((i) => this.orders[i]!.kind === "move");
    if (convoys.length === 0) {
      // Circular movement: every move in the circle succeeds.
      for (const m of moves) settle(m, true);
      return;
    }
    if (this.rules.convoyParadox === "alternative-c") this.alternativeC(cycle, convoys);
    if (this.rules.convoyParadox === "szykman") {
      // Szykman: the armies whose convoys are in the paradox do not move and have no effect.
      let changed = false;
      for (const c of convoys) {
        const m = this.convoyed[c]!;
        if (m === -1 || this.paradox[m]) continue;
        this.paradox[m] = true;
        settle(m, false);
        changed = true;
      }
      if (changed) return;
    }
    // `all-hold` (or nothing left for Szykman to break): every move in the paradox fails.
    for (const m of moves) {
      if (this.usesConvoy[m]) this.paradox[m] = true;
      settle(m, false);
    }
    for (const c of convoys) {
      const m = this.convoyed[c]!;
      if (m !== -1) {
        this.paradox[m] = true;
        settle(m, false);
      }
    }
  }

  /**
   * Seed 002 VI(6), Alternative C, one step per call, each followed by a new resolution of
   * the whole phase (thrown `Restart`): (1) the involved convoyed armies are rated at half
   * strength; (2) the involved fleets acting from, in or into land provinces too; (3) the
   * armies fail: they hold, unsupported and at full strength, and have no effect; (4) they
   * hold at half strength. The paradox is the cycle of decisions the resolver found with no or
   * two consistent answers (the seed's "unresolved or more than one possible resolution");
   * its armies are those of its convoys, its fleets those of `involved`. A cycle left after
   * step 4 falls to the all-hold rule: only then does this return.
   */
  protected alternativeC(cycle: readonly number[], convoys: readonly number[]): void {
    const armies = new Set<number>();
    for (const c of convoys) if (this.convoyed[c]! !== -1) armies.add(this.convoyed[c]!);
    for (const i of cycle) if (this.orders[i]!.kind === "move" && this.usesConvoy[i]) armies.add(i);
    if (armies.size === 0) return;
    const step = Math.max(...[...armies].map((m) => this.stage[m]!)) + 1;
    if (step > 4) return;
    for (const m of armies) this.stage[m] = step;
    const land = (p: ProvinceId) => this.map.get(p).kind !== "sea";
    switch (step) {
      case 1:
        for (const m of armies) this.half[m] = 1;
        break;
      case 2:
        for (const i of this.involved(armies)) {
          const o = this.orders[i]!;
          if (o.unit.type !== "F" || armies.has(i)) continue;
          if (land(o.unit.province) || (o.kind === "move" && land(o.to.province))) {
            this.half[i] = 1;
            this.stage[i] = 2;
          }
        }
        break;
      case 3:
        for (const m of armies) {
          this.half[m] = 0;
          this.paradox[m] = true;
        }
        break;
      case 4:
        for (const m of armies) this.half[m] = 1;
        break;
    }
    throw new Restart();
  }

  /**
   * The orders involved in a paradox: every order taking part in the battles its convoyed
   * armies turn on: where each army stands, where it goes, and where the fleets ordered to
   * convoy it stand. Who stands there, who moves there, and who supports a move there or a
   * hold there is involved. (Drawn from the armies alone, not from the cycle of decisions
   * the resolver happened to walk, so that it never depends on the order of the orders.)
   */
  protected involved(armies: ReadonlySet<number>): Set<number> {
    const battles = new Set<ProvinceId>();
    for (const m of armies) {
      const o = this.orders[m]!;
      battles.add(o.unit.province);
      if (o.kind === "move") battles.add(o.to.province);
      for (const c of this.convoysOf[m]!) battles.add(this.orders[c]!.unit.province);
    }
    const out = new Set<number>(armies);
    this.orders.forEach((o, i) => {
      if (battles.has(o.unit.province)) out.add(i);
      if (o.kind === "move" && battles.has(o.to.province)) out.add(i);
      if (o.kind === "support" && battles.has(o.to ?? o.target)) out.add(i);
    });
    return out;
  }

  /** A unit's own strength: 1, or 1/2 where the paradox procedure rated it at half. */
  protected base(i: number): number {
    return this.half[i] ? 0.5 : 1;
  }

  protected adjudicate(i: number): boolean {
    switch (this.kindOf[i]) {
      case MOVE:
        return this.adjudicateMove(i);
      case SUPPORT:
        return this.adjudicateSupport(i);
      case CONVOY:
        return !this.isDislodged(i);
      default:
        return true;
    }
  }

  /** Whether a move into the province of order `i`'s unit succeeds. */
  protected isDislodged(i: number): boolean {
    for (const m of this.movesAt(this.intoHere[i]!)) if (this.resolve(m)) return true;
    return false;
  }

  /** The convoy path of move `m` holds (always true for a move over land). */
  protected path(m: number): boolean {
    if (!this.usesConvoy[m]) return true;
    if (this.paradox[m]) return false;
    if (this.rules.multiRouteConvoy === "any") {
      if (!this.hasRoute(m, () => true)) return false;
      return this.convoysOf[m]!.every((c) => this.resolve(c));
    }
    return this.hasRoute(m, (c) => this.resolve(c));
  }

  protected supportCount(i: number, excludePower: string | null): number {
    let n = 0;
    for (const s of this.supportsOf[i]!) {
      if (this.resolve(s) && this.orders[s]!.unit.power !== excludePower) n += this.base(s);
    }
    return n;
  }

  protected attackStrength(m: number): number {
    const o = this.orders[m]!;
    if (o.kind !== "move" || !this.path(m)) return 0;
    const d = this.there[m]!;
    if (d === -1) return this.base(m) + this.supportCount(m, null);
    const dOrder = this.orders[d]!;
    if (this.kindOf[d] === MOVE && this.h2h[m] !== d && this.resolve(d)) {
      return this.base(m) + this.supportCount(m, null);
    }
    if (dOrder.unit.power === o.unit.power) return 0;
    return this.base(m) + this.supportCount(m, dOrder.unit.power);
  }

  /** The hold strength of the province where order `d`'s unit stands (-1: nobody, 0). */
  protected holdStrength(d: number): number {
    if (d === -1) return 0;
    if (this.kindOf[d] === MOVE) return this.resolve(d) ? 0 : this.base(d);
    return this.base(d) + this.supportCount(d, null);
  }

  protected defendStrength(m: number): number {
    return this.base(m) + this.supportCount(m, null);
  }

  protected preventStrength(m: number): number {
    if (!this.path(m)) return 0;
    const k = this.h2h[m]!;
    if (k !== -1 && this.resolve(k)) return 0;
    return this.base(m) + this.supportCount(m, null);
  }

  protected adjudicateMove(m: number): boolean {
    if (this.kindOf[m] !== MOVE || this.paradox[m]) return false;
    const attack = this.attackStrength(m);
    if (attack === 0) return false;
    const k = this.h2h[m]!;
    if (k !== -1) {
      if (attack <= this.defendStrength(k)) return false;
    } else if (attack <= this.holdStrength(this.there[m]!)) return false;
    for (const other of this.movesAt(this.intoThere[m]!)) {
      if (other !== m && attack <= this.preventStrength(other)) return false;
    }
    return true;
  }

  /** Whether attack `m` on the supporter cuts support `s` (apart from dislodging it). */
  protected cuts(m: number, s: number): boolean {
    const so = this.orders[s]!;
    const mo = this.orders[m]!;
    if (so.kind !== "support" || mo.kind !== "move") return false;
    if (mo.unit.power === so.unit.power || this.paradox[m]) return false;
    const directedAt = so.to ?? so.target;
    if (mo.unit.province === directedAt) {
      if (!(this.usesConvoy[m] && this.rules.convoyedAttackCutsSupportAgainstOrigin)) return false;
    }
    return this.path(m);
  }

  protected adjudicateSupport(s: number): boolean {
    if (this.voidSupport[s]) return false;
    for (const m of this.movesAt(this.intoHere[s]!)) if (this.cuts(m, s)) return false;
    return !this.isDislodged(s);
  }
}
