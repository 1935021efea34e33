import { seaRoute } from "./convoy.ts";
import type { GameMap } from "./map.ts";
import type { MovementOrder } from "./orders.ts";
import type { RuleOptions } from "./rules.ts";
import { makeDislodged, makeUnit } from "./shapes.ts";
import type { DislodgedUnit, ProvinceId, Unit } from "./types.ts";

/*
 * Movement resolution, after Lucas Kruijswijk's "The Math of Adjudication": every move,
 * support and convoy is a yes/no decision defined from the others (attack, hold, defend and
 * prevent strengths). Decisions are resolved on demand; when a decision depends on itself,
 * both guesses are tried. One consistent answer is taken; where there are none or two, the
 * cycle is circular movement (all moves succeed) or a convoy paradox (the paradox rule of the
 * rule options decides). No case is special-cased.
 */

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
  private reasonsMade: (string | null | undefined)[] | null = null;
  private explanationsMade: (string | undefined)[] | null = null;

  constructor(
    private readonly resolver: Resolver,
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

const NO_FLAGS: readonly boolean[] = [];
const NO_INDICES: readonly number[] = [];

/** Thrown to start resolution again after a step of the seed 002 VI(6) paradox procedure. */
class Restart extends Error {}

/** The shared empty list of supports or convoys (never added to: see `addTo`). */
const NONE: number[] = [];

/** Adds `i` to `lists[k]`, giving it a list of its own if it had the shared empty one. */
function addTo(lists: number[][], k: number, i: number): void {
  const list = lists[k]!;
  if (list === NONE) lists[k] = [i];
  else list.push(i);
}

const UNRESOLVED = 0;
const GUESSING = 1;
const RESOLVED = 2;

export function resolveMovement(
  map: GameMap,
  orders: readonly MovementOrder[],
  rules: RuleOptions,
): MovementResolution {
  return new Resolver(map, orders, rules).run();
}

/**
 * Per map, built once: each province's index, and scratch space indexed by province for one
 * resolver's constructor at a time (left all -1 after each use). The resolver looks up each
 * province an order names once; everything after works on order indices.
 */
interface ProvinceTables {
  readonly index: ReadonlyMap<ProvinceId, number>;
  /** Per province, the order of the unit standing there (scratch). */
  readonly orderAt: Int32Array;
  /** Per province, its list in `Resolver.into` of the moves into it (scratch). */
  readonly listAt: Int32Array;
}

const provinceTables = new WeakMap<GameMap, ProvinceTables>();

function tablesOf(map: GameMap): ProvinceTables {
  let t = provinceTables.get(map);
  if (t === undefined) {
    const n = map.provinces.length;
    t = {
      index: new Map(map.provinces.map((p, i) => [p.id, i])),
      orderAt: new Int32Array(n).fill(-1),
      listAt: new Int32Array(n).fill(-1),
    };
    provinceTables.set(map, t);
  }
  return t;
}

/** Each province's index on `map` (the order of `map.provinces`), built once per map. */
export function provinceIndex(map: GameMap): ReadonlyMap<ProvinceId, number> {
  return tablesOf(map).index;
}

/*
 * The explanations list orders with these two rather than `map` (with `join` or `Math.max`):
 * `map`'s arrays are packed when the interpreter makes them and holey when optimized code
 * does, and each new kind met threw the optimized explanation code away
 * (docs/performance.md, "Warm-up: shapes and deopts").
 */

/** `list.map(word).join(", ")`. */
function listed(list: readonly number[], word: (i: number) => string): string {
  let s = "";
  for (let k = 0; k < list.length; k++) s += k === 0 ? word(list[k]!) : `, ${word(list[k]!)}`;
  return s;
}

/** `Math.max(...list.map(strength))`. */
function strongest(list: readonly number[], strength: (i: number) => number): number {
  let max = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < list.length; k++) max = Math.max(max, strength(list[k]!));
  return max;
}

/** A route's fleets, all accepted (`hasRoute` without a condition). */
const anyFleet = (_c: number): boolean => true;

class Resolver {
  private readonly n: number;
  /**
   * Per order, the order it points at: for a move, the unit standing where it goes; for a
   * support, the supported unit; for a convoy, the army it names. -1 where no unit stands.
   */
  private readonly there: number[];
  /** Per order: its list in `into` of the moves into its unit's province, or -1 (none). */
  private readonly intoHere: number[];
  /** Per move: its list in `into` of the moves into where it goes (it is one); -1 otherwise. */
  private readonly intoThere: number[];
  /** The moves into each province moved into (in order of the orders), and the provinces. */
  private readonly into: number[][] = [];
  private readonly intoProvince: ProvinceId[] = [];
  private readonly supportsOf: number[][];
  private readonly convoysOf: number[][];
  private readonly convoyed: number[];
  private readonly usesConvoy: boolean[];
  /** Whether the fleets ordered to convoy this army's move form a chain (none dislodged). */
  private readonly anyRoute: number[];
  private readonly h2h: number[];
  private readonly voidSupport: number[];
  private readonly paradox: boolean[];
  /** Moves the backup rule settled (circular movement, or all-hold in a convoy paradox). */
  private readonly backup: number[];
  /** Rated at half strength by the seed 002 VI(6) procedure (`alternative-c`). */
  private readonly half: number[];
  /** The step of that procedure last applied to this order's unit (0: none). */
  private readonly stage: number[];
  private readonly state: number[];
  private readonly res: number[];
  private readonly deps: number[] = [];
  /** Set by `run`: what the words are made from. */
  private success: readonly boolean[] = NO_FLAGS;
  private dislodgedBy: readonly number[] = NO_INDICES;
  /** When each decision was last started (a tick of `clock`): older ones are further up. */
  private readonly started: number[];
  private clock = 0;

  constructor(
    private readonly map: GameMap,
    private readonly orders: readonly MovementOrder[],
    private readonly rules: RuleOptions,
  ) {
    const n = orders.length;
    this.n = n;
    this.state = new Array<number>(n).fill(0);
    this.res = new Array<number>(n).fill(0);
    this.started = new Array<number>(n).fill(0);
    // Most orders have no supports and no convoys: they share one empty list, replaced by
    // the order's own on the first one added (`addTo`).
    this.supportsOf = new Array<number[]>(n).fill(NONE);
    this.convoysOf = new Array<number[]>(n).fill(NONE);
    this.convoyed = new Array<number>(n).fill(-1);
    this.usesConvoy = new Array<boolean>(n).fill(false);
    this.anyRoute = new Array<number>(n).fill(0);
    this.h2h = new Array<number>(n).fill(-1);
    this.voidSupport = new Array<number>(n).fill(0);
    this.paradox = new Array<boolean>(n).fill(false);
    // The paradox procedures' marks, made with the resolver though few phases have a paradox:
    // a field first set to a shared empty list and replaced later changes the resolver's
    // hidden class when it is, and V8 throws away the code optimized for it.
    this.backup = new Array<number>(n).fill(0);
    this.half = new Array<number>(n).fill(0);
    this.stage = new Array<number>(n).fill(0);
    const there = new Array<number>(n).fill(-1);
    const intoHere = new Array<number>(n).fill(0);
    const intoThere = new Array<number>(n).fill(-1);
    this.there = there;
    this.intoHere = intoHere;
    this.intoThere = intoThere;

    // Each order's province, looked up once; who stands where, and the moves into each
    // province (the per-map scratch tables, cleared again below).
    const { index, orderAt, listAt } = tablesOf(map);
    const place = new Array<number>(n).fill(-1);
    const { into, intoProvince } = this;
    // The provinces moved into (their indices), to clear `listAt` after.
    const listed: number[] = [];
    try {
      for (let i = 0; i < n; i++) {
        const k = index.get(orders[i]!.unit.province) ?? -1;
        place[i] = k;
        if (k !== -1) orderAt[k] = i;
      }
      for (let i = 0; i < n; i++) {
        const o = orders[i]!;
        if (o.kind === "move") {
          const k = index.get(o.to.province);
          if (k === undefined) throw new Error(`no province ${o.to.province} on this map`);
          there[i] = orderAt[k]!;
          let list = listAt[k]!;
          if (list === -1) {
            list = into.length;
            listAt[k] = list;
            listed.push(k);
            into.push([i]);
            intoProvince.push(o.to.province);
          } else into[list]!.push(i);
          intoThere[i] = list;
        } else if (o.kind === "support" || o.kind === "convoy") {
          const k = index.get(o.kind === "support" ? o.target : o.from);
          if (k !== undefined) there[i] = orderAt[k]!;
        }
      }
      for (let i = 0; i < n; i++) {
        const k = place[i]!;
        intoHere[i] = k === -1 ? -1 : listAt[k]!;
      }
    } finally {
      // The scratch tables are left as they were found: all -1.
      for (let i = 0; i < n; i++) {
        const k = place[i]!;
        if (k !== -1) orderAt[k] = -1;
      }
      for (const k of listed) listAt[k] = -1;
    }

    // Convoys and the armies they carry.
    for (let i = 0; i < n; i++) {
      const o = orders[i]!;
      if (o.kind !== "convoy") continue;
      const m = there[i]!;
      if (m === -1) continue;
      const mo = orders[m]!;
      if (mo.kind === "move" && mo.unit.type === "A" && mo.to.province === o.to) {
        addTo(this.convoysOf, m, i);
        this.convoyed[i] = m;
      }
    }
    for (let i = 0; i < n; i++) {
      const o = orders[i]!;
      if (o.kind !== "move" || o.unit.type !== "A") continue;
      const route = this.hasRoute(i, anyFleet);
      this.anyRoute[i] = route ? 1 : 0;
      if (!map.armyAdjacent(o.unit.province, o.to.province)) {
        this.usesConvoy[i] = true;
        continue;
      }
      let wants: boolean;
      switch (rules.convoyToAdjacent) {
        case "explicit":
          wants = o.viaConvoy;
          break;
        case "intent":
          wants =
            o.viaConvoy || this.convoysOf[i]!.some((c) => orders[c]!.unit.power === o.unit.power);
          break;
        case "any-convoy":
          wants = o.viaConvoy || this.convoysOf[i]!.length > 0;
          break;
      }
      // An explicit "via convoy" with no route: over land, or no move at all (DATC 6.G.8).
      this.usesConvoy[i] = wants && (route || (o.viaConvoy && rules.viaConvoyFallback === "none"));
    }

    // Head-to-head battles: two units moving into each other's province, neither by convoy.
    for (let i = 0; i < n; i++) {
      const o = orders[i]!;
      if (o.kind !== "move" || this.usesConvoy[i]) continue;
      const k = there[i]!;
      if (k === -1) continue;
      const ko = orders[k]!;
      if (ko.kind === "move" && ko.to.province === o.unit.province && !this.usesConvoy[k]) {
        this.h2h[i] = k;
      }
    }

    // Supports and what they support.
    for (let i = 0; i < n; i++) {
      const o = orders[i]!;
      if (o.kind !== "support") continue;
      const t = there[i]!;
      const to = t === -1 ? undefined : orders[t]!;
      let matches = false;
      if (to) {
        // A unit ordered to move, even illegally (seed 002 III(5)), is not supported to hold.
        if (o.to === null) matches = to.kind !== "move" && !(to.kind === "hold" && to.moveOrdered);
        else if (to.kind === "move" && to.to.province === o.to) {
          matches =
            rules.supportCoast === "ignore" ||
            o.toCoast === null ||
            to.to.coast === null ||
            o.toCoast === to.to.coast;
        }
      }
      if (matches) addTo(this.supportsOf, t, i);
      else this.voidSupport[i] = 1;
    }
  }

  /** The moves into the province of list `list` (-1: none). */
  private movesAt(list: number): readonly number[] {
    return list === -1 ? NONE : this.into[list]!;
  }

  run(): MovementResolution {
    const { n, orders } = this;
    const success: boolean[] = [];
    for (;;) {
      try {
        for (let i = 0; i < n; i++) {
          const o = orders[i]!;
          if (o.kind === "move" || o.kind === "support" || o.kind === "convoy") this.resolve(i);
        }
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
    const dislodgedBy = new Array<number>(n).fill(-1);
    for (let i = 0; i < n; i++) {
      const o = orders[i]!;
      if (o.kind === "move" && this.res[i]) continue;
      for (const m of this.movesAt(this.intoHere[i]!)) {
        if (this.res[m]) dislodgedBy[i] = m;
      }
    }
    for (let i = 0; i < n; i++) {
      const o = orders[i]!;
      if (o.kind === "convoy") {
        const m = this.convoyed[i]!;
        success.push(
          dislodgedBy[i] === -1 &&
            m !== -1 &&
            this.usesConvoy[m]! &&
            !this.paradox[m] &&
            this.path(m),
        );
      } else if (o.kind === "move" || o.kind === "support") success.push(this.res[i] === 1);
      else success.push(dislodgedBy[i] === -1);
    }

    // Provinces moved into that are left empty, where some move stood off.
    const contested: ProvinceId[] = [];
    const { into } = this;
    const occupied = new Array<number>(into.length).fill(0);
    for (let i = 0; i < n; i++) {
      const o = orders[i]!;
      if (o.kind === "move" && this.res[i]) occupied[this.intoThere[i]!] = 1;
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

  /** Kruijswijk's resolve: the decision of order `i`, guessing through cycles. */
  private resolve(i: number): boolean {
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
  private readGuess(i: number): boolean {
    // Recorded on every read, even when `i` is already listed: the caller tells whether it
    // read a guess by whether the list grew, and a decision that read only a guess listed
    // earlier must stay a guess, never be stored as resolved with the guess's value.
    this.deps.push(i);
    return this.res[i] === 1;
  }

  /** `resolve` of `i`, whose first guess (`first`) read guesses listed since `old`. */
  private resolveCycle(i: number, old: number, first: boolean): boolean {
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
  private readsOuterGuess(i: number, old: number): boolean {
    const { deps, started } = this;
    const mine = started[i]!;
    for (let k = old; k < deps.length; k++) if (started[deps[k]!]! < mine) return true;
    return false;
  }

  private reset(old: number): void {
    while (this.deps.length > old) this.state[this.deps.pop()!] = UNRESOLVED;
  }

  /** A cycle with no or two consistent answers: circular movement or a convoy paradox. */
  private backupRule(old: number): void {
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
  private alternativeC(cycle: readonly number[], convoys: readonly number[]): void {
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
  private involved(armies: ReadonlySet<number>): Set<number> {
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
  private base(i: number): number {
    return this.half[i] ? 0.5 : 1;
  }

  private adjudicate(i: number): boolean {
    const o = this.orders[i]!;
    switch (o.kind) {
      case "move":
        return this.adjudicateMove(i);
      case "support":
        return this.adjudicateSupport(i);
      case "convoy":
        return !this.isDislodged(i);
      default:
        return true;
    }
  }

  /** Whether a move into the province of order `i`'s unit succeeds. */
  private isDislodged(i: number): boolean {
    for (const m of this.movesAt(this.intoHere[i]!)) if (this.resolve(m)) return true;
    return false;
  }

  /** Is there a chain of fleets ordered to convoy move `m`, each accepted by `fleetOk`? */
  private hasRoute(m: number, fleetOk: (c: number) => boolean): boolean {
    const o = this.orders[m]!;
    if (o.kind !== "move") return false;
    const convoys = this.convoysOf[m]!;
    if (convoys.length === 0) return false;
    const bySea = new Map<ProvinceId, number>();
    for (const c of convoys) bySea.set(this.orders[c]!.unit.province, c);
    return seaRoute(this.map, o.unit.province, o.to.province, (sea) => {
      const c = bySea.get(sea);
      return c !== undefined && fleetOk(c);
    });
  }

  /** The convoy path of move `m` holds (always true for a move over land). */
  private path(m: number): boolean {
    if (!this.usesConvoy[m]) return true;
    if (this.paradox[m]) return false;
    if (this.rules.multiRouteConvoy === "any") {
      if (!this.hasRoute(m, () => true)) return false;
      return this.convoysOf[m]!.every((c) => this.resolve(c));
    }
    return this.hasRoute(m, (c) => this.resolve(c));
  }

  private supportCount(i: number, excludePower: string | null): number {
    let n = 0;
    for (const s of this.supportsOf[i]!) {
      if (this.resolve(s) && this.orders[s]!.unit.power !== excludePower) n += this.base(s);
    }
    return n;
  }

  private attackStrength(m: number): number {
    const o = this.orders[m]!;
    if (o.kind !== "move" || !this.path(m)) return 0;
    const d = this.there[m]!;
    if (d === -1) return this.base(m) + this.supportCount(m, null);
    const dOrder = this.orders[d]!;
    if (dOrder.kind === "move" && this.h2h[m] !== d && this.resolve(d)) {
      return this.base(m) + this.supportCount(m, null);
    }
    if (dOrder.unit.power === o.unit.power) return 0;
    return this.base(m) + this.supportCount(m, dOrder.unit.power);
  }

  /** The hold strength of the province where order `d`'s unit stands (-1: nobody, 0). */
  private holdStrength(d: number): number {
    if (d === -1) return 0;
    if (this.orders[d]!.kind === "move") return this.resolve(d) ? 0 : this.base(d);
    return this.base(d) + this.supportCount(d, null);
  }

  private defendStrength(m: number): number {
    return this.base(m) + this.supportCount(m, null);
  }

  private preventStrength(m: number): number {
    if (!this.path(m)) return 0;
    const k = this.h2h[m]!;
    if (k !== -1 && this.resolve(k)) return 0;
    return this.base(m) + this.supportCount(m, null);
  }

  private adjudicateMove(m: number): boolean {
    const o = this.orders[m]!;
    if (o.kind !== "move" || this.paradox[m]) return false;
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
  private cuts(m: number, s: number): boolean {
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

  private adjudicateSupport(s: number): boolean {
    if (this.voidSupport[s]) return false;
    for (const m of this.movesAt(this.intoHere[s]!)) if (this.cuts(m, s)) return false;
    return !this.isDislodged(s);
  }

  // ---- Explanations -------------------------------------------------------------------

  /**
   * Orders listed by their units' provinces: every list in a text comes out the same
   * whatever order the orders were given in.
   */
  private inPlaceOrder(list: readonly number[]): readonly number[] {
    if (list.length < 2) return list;
    const { orders } = this;
    return [...list].sort((a, b) => {
      const pa = orders[a]!.unit.province;
      const pb = orders[b]!.unit.province;
      return pa < pb ? -1 : pa > pb ? 1 : 0;
    });
  }

  private describe(i: number): string {
    const o = this.orders[i]!;
    const u = `${o.unit.type} ${o.unit.province}`;
    if (o.kind === "move") return `${u} - ${o.to.province}`;
    return u;
  }

  private supporters(i: number): string {
    const given = this.inPlaceOrder(this.supportsOf[i]!.filter((s) => this.res[s]));
    return given.length === 0
      ? ""
      : ` (supported by ${listed(given, (s) => `${this.orders[s]!.unit.type} ${this.orders[s]!.unit.province}`)})`;
  }

  private strengthWith(i: number, strength: number): string {
    return `${strength}${this.supporters(i)}`;
  }

  /** Why a successful order succeeded. */
  private explainSuccess(i: number): string {
    const o = this.orders[i]!;
    switch (o.kind) {
      case "move": {
        const attack = this.attackStrength(i);
        const against: string[] = [];
        const k = this.h2h[i]!;
        const d = this.there[i]!;
        if (k !== -1) {
          against.push(
            `${this.describe(k)}'s defence ${this.strengthWith(k, this.defendStrength(k))}`,
          );
        } else if (d !== -1 && !(this.orders[d]!.kind === "move" && this.res[d])) {
          against.push(`${this.describe(d)}'s hold ${this.strengthWith(d, this.holdStrength(d))}`);
        }
        for (const m of this.inPlaceOrder(this.movesAt(this.intoThere[i]!))) {
          if (m !== i)
            against.push(`${this.describe(m)} ${this.strengthWith(m, this.preventStrength(m))}`);
        }
        const how = this.usesConvoy[i] ? " by convoy" : "";
        const vs = against.length === 0 ? "unopposed" : `against ${against.join(", ")}`;
        const stays = d !== -1 && !(this.orders[d]!.kind === "move" && this.res[d]);
        const dislodging = stays ? `, dislodging ${this.describe(d)}` : "";
        return `moved${how} with strength ${this.strengthWith(i, attack)} ${vs}${dislodging}`;
      }
      case "support": {
        const t = this.there[i]!;
        return `support given to ${this.describe(t)}${o.to === null ? " to hold" : ""}`;
      }
      case "convoy":
        return `carried the army from ${o.from} to ${o.to}`;
      case "hold": {
        const attackers = this.inPlaceOrder(
          this.movesAt(this.intoHere[i]!).filter((m) => this.path(m)),
        );
        return attackers.length === 0
          ? "held; not attacked"
          : `held with strength ${this.strengthWith(i, this.holdStrength(i))} against ${listed(attackers, (m) => `${this.describe(m)} ${this.strengthWith(m, this.attackStrength(m))}`)}`;
      }
    }
  }

  private paradoxReason(m: number): string {
    if (this.rules.convoyParadox === "alternative-c" && this.stage[m]! >= 3) {
      return `convoy paradox: by Alternative C (step ${this.stage[m]}) the convoyed army fails and holds${this.half[m] ? " at half strength" : ""}, without support`;
    }
    return this.rules.convoyParadox === "szykman"
      ? "convoy paradox: by the Szykman rule the convoyed army does not move"
      : "convoy paradox: every move in the paradox fails (all-hold rule)";
  }

  /** Said after an order whose unit the paradox procedure rated at half strength. */
  private halfNote(i: number): string {
    return this.half[i] && !this.paradox[i]
      ? ` (convoy paradox, Alternative C step ${this.stage[i]}: rated at half strength)`
      : "";
  }

  /** Why order `i` did not succeed; a dislodged unit always says by whom. */
  private explain(i: number, dislodgedBy: readonly number[]): string {
    const by = dislodgedBy[i]!;
    const dislodged = by !== -1 ? `dislodged by ${this.describe(by)}` : null;
    const cause = this.cause(i, dislodged);
    return dislodged && !cause.includes(dislodged) ? `${cause}; ${dislodged}` : cause;
  }

  /**
   * Why convoyed move `m` has no convoy: no fleet ordered, fleets that form no chain, or a
   * chain broken by the dislodgement of the fleets named.
   */
  private brokenRoute(m: number): string {
    const o = this.orders[m]!;
    const fleets = this.inPlaceOrder(this.convoysOf[m]!);
    if (fleets.length === 0) return "no convoy: no fleet was ordered to convoy it";
    const route = o.kind === "move" ? `from ${o.unit.province} to ${o.to.province}` : "";
    const names = (list: readonly number[]) => listed(list, (c) => this.describe(c));
    if (!this.anyRoute[m]) {
      return `no convoy: the fleets ordered to convoy it (${names(fleets)}) form no chain ${route}`;
    }
    const lost = fleets.filter((c) => !this.resolve(c));
    return lost.length === 1
      ? `convoy disrupted: the convoying fleet ${names(lost)} was dislodged`
      : `convoy disrupted: the convoying fleets ${names(lost)} were dislodged`;
  }

  private cause(i: number, dislodged: string | null): string {
    const o = this.orders[i]!;
    switch (o.kind) {
      case "hold":
        return dislodged ?? "held, yet reported failed: a resolver error";
      case "convoy": {
        const m = this.convoyed[i]!;
        if (dislodged) return `${dislodged}; the convoy is disrupted`;
        if (m === -1) return `no army in ${o.from} is ordered to move to ${o.to}`;
        if (!this.usesConvoy[m]) return `the army in ${o.from} moves over land, not by this convoy`;
        if (this.paradox[m]) return this.paradoxReason(m);
        return `the army is not carried: ${this.brokenRoute(m)}`;
      }
      case "support": {
        if (this.voidSupport[i]) {
          const t = this.there[i]!;
          if (t === -1) return `no unit in ${o.target} to support`;
          const to = this.orders[t]!;
          if (o.to === null) return `${this.describe(t)} did not hold: it was ordered to move`;
          return to.kind === "move"
            ? `${this.describe(t)} did not move to ${o.to}${o.toCoast && to.to.coast && o.toCoast !== to.to.coast ? ` ${o.toCoast}` : ""}`
            : `${this.describe(t)} was not ordered to move to ${o.to}`;
        }
        if (dislodged) return `${dislodged}; the support is cut`;
        const cutters = this.inPlaceOrder(
          this.movesAt(this.intoHere[i]!).filter((m) => this.cuts(m, i)),
        );
        return `support cut by ${listed(cutters, (m) => this.describe(m))}`;
      }
      case "move": {
        if (this.paradox[i]) {
          return this.paradoxReason(i);
        }
        if (!this.path(i)) return this.brokenRoute(i);
        const attack = this.attackStrength(i);
        const d = this.there[i]!;
        if (attack === 0 && d !== -1) {
          return `cannot dislodge a unit of its own power (${this.describe(d)})`;
        }
        const k = this.h2h[i]!;
        const parts: string[] = [];
        if (k !== -1) {
          const def = this.defendStrength(k);
          if (attack <= def) {
            parts.push(
              `lost the head-to-head battle with ${this.describe(k)}${this.supporters(k)}: ${attack} against ${def}`,
            );
          }
        } else {
          const hold = this.holdStrength(d);
          if (attack <= hold && d !== -1) {
            parts.push(
              `bounced off ${this.describe(d)}${this.supporters(d)}: ${attack} against ${hold}`,
            );
          }
        }
        const rivals = this.inPlaceOrder(
          this.movesAt(this.intoThere[i]!).filter(
            (m) => m !== i && attack <= this.preventStrength(m),
          ),
        );
        if (rivals.length > 0) {
          parts.push(
            `bounced with ${listed(rivals, (m) => `${this.describe(m)}${this.supporters(m)}`)}: ${attack} against ${strongest(rivals, (m) => this.preventStrength(m))}`,
          );
        }
        if (parts.length === 0 && this.backup[i]) parts.push(this.paradoxReason(i));
        return parts.length > 0
          ? parts.join("; ")
          : "did not move, yet nothing stopped it: a resolver error";
      }
    }
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
