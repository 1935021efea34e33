import { adjustmentCounts, buildSites } from "../../engine/adjustments.ts";
import { findPlace } from "../../engine/parse.ts";
import { findPowerByName } from "../../engine/powers.ts";
import type { OrderResult, OrderTexts, PhaseResult } from "../../engine/results.ts";
import type { Position, PowerId, ProvinceId, Unit, UnitType } from "../../engine/types.ts";
import type { Variant } from "../../engine/variant.ts";

/*
 * Insurrections (Historical Committee rules, "Losing and regaining your country";
 * docs/committee.md). In a movement phase any unit may be disbanded to support the revival of
 * an eliminated power (`F I Lon-Russia`); the eliminated power files a revival order naming
 * its home centres in order of preference (`Revive Mos > Stp > Ros`). At the end of the
 * movement, three supporters reclaim three home centres, four all five; each occupied centre
 * reclaimed costs one more supporter, and one nobody pays for is left out (`reclaimPlan`).
 * The revived power builds one unit on the first centre reclaimed.
 */

/**
 * The power a word names: any of its names (id, name, adjective, the variant's aliases:
 * Russia, Soviet Union for the USSR; England, Britain, Great Britain for the UK) or its letter.
 */
export function findPower(variant: Variant, word: string): PowerId | null {
  const w = word.trim().replace(/\.$/, "");
  if (w.length === 1)
    return variant.powers.find((p) => p.letter.toLowerCase() === w.toLowerCase())?.id ?? null;
  return findPowerByName(variant.powers, w);
}

/** `F I Lon-Russia`, `A I Par - UK`, `I Lon-Russia`, `F Insurrection Lon-Russia`. */
const INSURRECTION_RE = /^\s*(?:([AF])\s+)?(?:I|Insurrection)\s+(.+?)\s*-\s*(.+?)\s*$/i;
/** `Revive Mos > Stp > Ros`, also `Revival:`; any list counts as an order. */
const REVIVAL_RE = /^\s*(?:revive|revival)\b\s*:?\s*(.*)$/i;

export interface InsurrectionOrder {
  readonly kind: "insurrection";
  readonly type: UnitType | null;
  readonly province: string;
  readonly power: string;
}

export interface RevivalItem {
  readonly type: UnitType | null;
  readonly province: string;
}

export type RevivalOrder =
  | { readonly kind: "revival"; readonly ok: true; readonly centres: readonly RevivalItem[] }
  | { readonly kind: "revival"; readonly ok: false; readonly reason: string };

/** Reads an insurrection or revival order; null for any other text. */
export function readCommitteeOrder(text: string): InsurrectionOrder | RevivalOrder | null {
  const r = REVIVAL_RE.exec(text);
  if (r) {
    const body = r[1]!.trim();
    if (body === "") return { kind: "revival", ok: false, reason: "names no supply centre" };
    const parts = body.split(">").map((s) => s.trim());
    if (parts.length < 2 || parts.some((s) => s === "")) {
      return {
        kind: "revival",
        ok: false,
        reason:
          "gives no order of preference: write the centres from most to least wanted, separated by '>' (Revive Mos > Stp > Ros)",
      };
    }
    const centres = parts.map((p) => {
      const m = /^([AF])\s+(.+)$/i.exec(p);
      return m
        ? { type: m[1]!.toUpperCase() as UnitType, province: m[2]! }
        : { type: null, province: p };
    });
    return { kind: "revival", ok: true, centres };
  }
  const m = INSURRECTION_RE.exec(text);
  if (!m) return null;
  return {
    kind: "insurrection",
    type: m[1] ? (m[1].toUpperCase() as UnitType) : null,
    province: m[2]!,
    power: m[3]!,
  };
}

/** A power with no unit and no supply centre: the seed's power that "has lost its country". */
export function isEliminated(position: Position, power: PowerId): boolean {
  return (
    !position.units.some((u) => u.power === power) &&
    ![...position.centers.values()].includes(power)
  );
}

/** What came of the insurrections for one eliminated power in one season. */
export interface InsurrectionOutcome {
  /** The power to be revived. */
  readonly power: PowerId;
  /** Units that turned up (valid insurrection orders), by power. */
  readonly supporters: readonly { readonly power: PowerId; readonly province: ProvinceId }[];
  readonly revived: boolean;
  /** The home centres reclaimed, in order of preference. */
  readonly reclaimed: readonly ProvinceId[];
  /** Units standing on reclaimed centres, disbanded by the insurrection. */
  readonly displaced: readonly Unit[];
  /** The unit the revived power builds, if any. */
  readonly built: Unit | null;
  /** Why the insurrection failed; null when it succeeded. */
  readonly reason: string | null;
}

interface Pending {
  readonly index: number;
  readonly power: PowerId;
  readonly text: string;
  result: "succeeds" | "fails" | "invalid";
  reason: string | null;
  explanation: string;
}

/**
 * The europe1935 movement phase: insurrection and revival orders are taken out, the units
 * supporting an insurrection are disbanded before the moves, the rest is adjudicated by the
 * engine (`base`), then each insurrection is judged on the board the moves left.
 */
export function committeeMovement(
  variant: Variant,
  position: Position,
  orders: OrderTexts,
  base: (position: Position, orders: OrderTexts) => PhaseResult,
): PhaseResult {
  return judgeInsurrections(variant, position, orders, base).result;
}

export function judgeInsurrections(
  variant: Variant,
  position: Position,
  orders: OrderTexts,
  base: (position: Position, orders: OrderTexts) => PhaseResult,
): { result: PhaseResult; outcomes: readonly InsurrectionOutcome[] } {
  const rest = new Map<PowerId, string[]>();
  const pending: Pending[] = [];
  const support = new Map<PowerId, { unit: Unit; entry: Pending }[]>();
  const revivals = new Map<PowerId, { items: RevivalItem[]; entry: Pending }>();
  const used = new Set<ProvinceId>();
  let index = 0;
  for (const [power, texts] of orders) {
    rest.set(power, []);
    for (const text of texts) {
      const o = readCommitteeOrder(text);
      if (!o) {
        rest.get(power)!.push(text);
        continue;
      }
      const entry: Pending = {
        index: index++,
        power,
        text,
        result: "invalid",
        reason: null,
        explanation: "",
      };
      pending.push(entry);
      if (o.kind === "revival") {
        revival(variant, position, power, o, entry, revivals);
        continue;
      }
      const place = findPlace(o.province, variant.map);
      const unit = place && position.units.find((u) => u.province === place.province);
      const target = findPower(variant, o.power);
      if (!place) entry.reason = `unknown province ${JSON.stringify(o.province)}`;
      else if (!unit || unit.power !== power)
        entry.reason = `no unit of ${power} in ${place.province}`;
      else if (o.type && o.type !== unit.type)
        entry.reason = `the unit in ${unit.province} is not ${o.type === "A" ? "an army" : "a fleet"}`;
      else if (used.has(unit.province))
        entry.reason = `the unit in ${unit.province} already has an insurrection order`;
      else if (!target) entry.reason = `unknown power ${JSON.stringify(o.power)}`;
      else if (target === power) entry.reason = "a power cannot support its own insurrection";
      else if (!isEliminated(position, target)) entry.reason = `${target} has not lost its country`;
      else {
        used.add(unit.province);
        entry.result = "succeeds";
        entry.explanation = `disbanded to support the insurrection of ${target}`;
        const list = support.get(target) ?? [];
        list.push({ unit, entry });
        support.set(target, list);
      }
      if (entry.result === "invalid") entry.explanation = `invalid: ${entry.reason}`;
    }
  }
  // The supporters leave the board before the moves: they neither hold, support nor defend.
  const before: Position = {
    ...position,
    units: position.units.filter((u) => !used.has(u.province)),
  };
  const moved = base(before, rest);
  let next = moved.next;
  let dislodged = moved.dislodged;
  const outcomes: InsurrectionOutcome[] = [];
  const targets = new Set<PowerId>([...support.keys(), ...revivals.keys()]);
  for (const p of variant.powers) {
    if (!targets.has(p.id)) continue;
    const supporters = support.get(p.id) ?? [];
    const outcome = judge(variant, next, p.id, supporters, revivals.get(p.id)?.items ?? null);
    outcomes.push(outcome);
    const rev = revivals.get(p.id);
    if (rev) {
      rev.entry.result = outcome.revived ? "succeeds" : "fails";
      rev.entry.reason = outcome.reason;
      rev.entry.explanation = outcome.revived
        ? `revived with ${supporters.length} supporting units: reclaims ${outcome.reclaimed.join(", ")}`
        : `fails: ${outcome.reason}`;
    }
    if (!outcome.revived) {
      for (const s of supporters)
        s.entry.explanation = `disbanded; the insurrection of ${p.id} fails: ${outcome.reason}`;
      continue;
    }
    const gone = new Set(outcome.displaced.map((u) => u.province));
    const centers = new Map(next.centers);
    for (const c of outcome.reclaimed) centers.set(c, p.id);
    const units = next.units.filter((u) => !gone.has(u.province));
    if (outcome.built) units.push(outcome.built);
    next = { ...next, units, centers };
    dislodged = dislodged.map((d) => ({
      unit: d.unit,
      retreats: d.retreats.filter((l) => !(outcome.built && l.province === outcome.built.province)),
    }));
  }
  next = settlePhase(variant, position, next);
  const committee: OrderResult[] = pending.map((e) => ({
    power: e.power,
    text: e.text,
    order: null,
    result: e.result,
    reason: e.reason,
    explanation: e.explanation,
  }));
  return {
    result: { ...moved, results: [...committee, ...moved.results], next, dislodged },
    outcomes,
  };
}

function revival(
  variant: Variant,
  position: Position,
  power: PowerId,
  o: RevivalOrder,
  entry: Pending,
  revivals: Map<PowerId, { items: RevivalItem[]; entry: Pending }>,
): boolean {
  const fail = (reason: string): boolean => {
    entry.reason = reason;
    entry.explanation = `invalid: ${reason}`;
    return false;
  };
  if (!o.ok) return fail(o.reason);
  if (!isEliminated(position, power)) return fail(`${power} has not lost its country`);
  if (revivals.has(power)) return fail("a second revival order; the first one stands");
  const homes = new Set(variant.map.homeCenters(power).map((p) => p.id as string));
  const items: RevivalItem[] = [];
  for (const c of o.centres) {
    const place = findPlace(c.province, variant.map);
    if (!place) return fail(`unknown province ${JSON.stringify(c.province)}`);
    if (!homes.has(place.province))
      return fail(`${place.province} is not a home centre of ${power}`);
    if (items.some((i) => i.province === place.province))
      return fail(`${place.province} is named twice`);
    const kind = variant.map.province(place.province)?.kind;
    if (c.type === "F" && kind !== "coast")
      return fail(`a fleet cannot stand in ${place.province}`);
    items.push({ type: c.type, province: place.province });
  }
  entry.result = "fails";
  revivals.set(power, { items, entry });
  return true;
}

/** Decides one insurrection on the board after the moves. */
function judge(
  variant: Variant,
  board: Position,
  power: PowerId,
  supporters: readonly { unit: Unit }[],
  items: readonly RevivalItem[] | null,
): InsurrectionOutcome {
  const base = {
    power,
    supporters: supporters.map((s) => ({ power: s.unit.power, province: s.unit.province })),
  };
  const failed = (reason: string): InsurrectionOutcome => ({
    ...base,
    revived: false,
    reclaimed: [],
    displaced: [],
    built: null,
    reason,
  });
  if (!items) return failed(`${power} filed no valid order to revive its country`);
  const n = supporters.length;
  if (n < 3) return failed(`${n} supporting unit${n === 1 ? "" : "s"}; three are needed`);
  const occupant = (c: ProvinceId) => board.units.find((u) => u.province === c) ?? null;
  const plan = reclaimPlan(
    n,
    items.map((i) => i.province as ProvinceId),
    variant.map.homeCenters(power).map((p) => p.id),
    (c) => occupant(c) !== null,
  );
  if (!plan.ok)
    return failed(
      `only ${plan.best} of the centres ${n >= 4 ? "" : "named "}can be reclaimed with ${n} supporting units (an occupied centre needs one more)`,
    );
  const reclaimed = plan.reclaimed;
  const displaced = reclaimed.map(occupant).filter((u): u is Unit => u !== null);
  const first = reclaimed[0]!;
  const item = items.find((i) => i.province === first);
  const type: UnitType = item?.type ?? "A";
  const built: Unit = { power, type, province: first, coast: null };
  return { ...base, revived: true, reclaimed, displaced, built, reason: null };
}

/**
 * The home centres `n` supporters reclaim (docs/committee.md, "How many centres"): three
 * supporters buy three centres, four buy the whole country (every home centre), and each
 * occupied centre taken back costs one more supporter. An occupied centre nobody pays for is
 * left out, so the supporters buy the most centres they can pay for: four supporters with one
 * centre occupied reclaim the four free ones, never only three. Of the sets that large, the
 * one the order of preference ranks first (centres taken in the order written, an occupied
 * one while spare supporters last). A three-centre insurrection takes only centres the order
 * names; four supporters or more regain the country, named or not (the named ones first).
 * Fewer than three centres: the insurrection fails (`best` is how many it could have had).
 */
export function reclaimPlan(
  n: number,
  named: readonly ProvinceId[],
  homes: readonly ProvinceId[],
  occupied: (c: ProvinceId) => boolean,
): { ok: true; reclaimed: ProvinceId[] } | { ok: false; best: number } {
  const everything = [...named, ...homes.filter((h) => !named.includes(h))];
  const candidates = n >= 4 ? everything : named;
  let best = 0;
  for (let k = homes.length; k >= 3; k--) {
    let spare = n - (k >= 4 ? 4 : 3);
    if (spare < 0) continue;
    const picked: ProvinceId[] = [];
    for (const c of candidates) {
      if (picked.length === k) break;
      if (!occupied(c)) picked.push(c);
      else if (spare > 0) {
        spare--;
        picked.push(c);
      }
    }
    if (picked.length === k) return { ok: true, reclaimed: picked };
    best = Math.max(best, picked.length);
  }
  return { ok: false, best };
}

/**
 * After a fall movement with nothing left to retreat, the engine has already moved on to the
 * adjustments or the next spring; the insurrection may change whether adjustments are needed.
 */
function settlePhase(variant: Variant, before: Position, next: Position): Position {
  if (before.phase.season !== "F" || next.phase.type === "R") return next;
  const year = before.phase.year;
  const adj: Position = { ...next, phase: { season: "W", year, type: "A" } };
  let needed = false;
  for (const [power, n] of adjustmentCounts(variant, adj)) {
    if (n < 0 || (n > 0 && buildSites(variant, adj, power).length > 0)) needed = true;
  }
  return needed ? adj : { ...adj, phase: { season: "S", year: year + 1, type: "M" } };
}
