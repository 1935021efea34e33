/*
 * The position JSON of the public contract (docs/adjudicate-json.md): reading it with clear
 * errors, and writing positions and results back. Pure functions; the CLI does the I/O.
 */

import { formatOrder } from "./orders.ts";
import { parsePhase, phaseName } from "./phase.ts";
import type { OrderTexts, PhaseResult } from "./results.ts";
import { makeDislodged, makeUnit } from "./shapes.ts";
import {
  type Coast,
  type DislodgedUnit,
  dislodgedKey,
  type Position,
  type PowerId,
  type ProvinceId,
  type Unit,
  type UnitType,
} from "./types.ts";
import type { Variant } from "./variant.ts";

export interface PositionJson {
  variant: string;
  phase: string;
  units: Record<string, string[]>;
  dislodged?: Record<string, { unit: string; from: string | null; viaConvoy?: boolean }[]>;
  contested?: string[];
  centers?: Record<string, string[]>;
}

export interface ResultJson {
  phase: string;
  orders: Record<
    string,
    {
      text: string | null;
      order: string | null;
      result: string;
      reason?: string;
      explanation?: string;
    }[]
  >;
  next: PositionJson;
  /** Movement phases: every unit dislodged, with the places it may retreat to. */
  dislodged?: Record<
    string,
    { unit: string; from: string | null; viaConvoy: boolean; retreats: string[] }[]
  >;
  winner?: string;
}

export class PositionError extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function fail(msg: string): never {
  throw new PositionError(msg);
}

/**
 * Texts of units and provinces read before, per variant, with what they read as (readings
 * that failed throw and are not kept). A position names the same few hundred units and
 * provinces again and again; reading each was most of reading a position (docs/performance.md,
 * "The contract"). Bounded: a cache that is full is emptied and filled again.
 */
interface PlaceCache {
  readonly units: Map<string, { type: UnitType; province: ProvinceId; coast: Coast | null }>;
  readonly provinces: Map<string, ProvinceId>;
  /** Power names as written (`"france"`, `"France"`) with the power each names. */
  readonly powers: Map<string, PowerId>;
  /** Each province's index in the map. */
  readonly slots: ReadonlyMap<ProvinceId, number>;
  /**
   * `readPosition`'s note of the units placed so far, per province index: the position that
   * placed one there last (a number that grows with every position read: no clearing between
   * positions) and the text of that unit.
   */
  readonly placedBy: Int32Array;
  readonly placedText: string[];
  /** The number of the position being read (`placedBy`). */
  reading: number;
}

const PLACE_CACHE = 4096;
const placeCaches = new WeakMap<Variant, PlaceCache>();
let lastPlaces: { variant: Variant; cache: PlaceCache } | null = null;

function placeCache(variant: Variant): PlaceCache {
  if (lastPlaces !== null && lastPlaces.variant === variant) return lastPlaces.cache;
  let cache = placeCaches.get(variant);
  if (!cache) {
    const n = variant.map.provinces.length;
    cache = {
      units: new Map(),
      provinces: new Map(),
      powers: new Map(),
      slots: new Map(variant.map.provinces.map((p, i) => [p.id, i])),
      placedBy: new Int32Array(n),
      placedText: new Array<string>(n).fill(""),
      reading: 0,
    };
    placeCaches.set(variant, cache);
  }
  lastPlaces = { variant, cache };
  return cache;
}

function kept<V>(cache: Map<string, V>, text: string, value: V): void {
  if (cache.size >= PLACE_CACHE) cache.clear();
  cache.set(text, value);
}

/** Reads `TYPE PROVINCE[/COAST]`, checked against the map. */
export function readUnit(variant: Variant, power: PowerId, text: unknown): Unit {
  if (typeof text === "string") {
    const cache = placeCache(variant).units;
    const seen = cache.get(text);
    if (seen !== undefined) return makeUnit(power, seen.type, seen.province, seen.coast);
    const u = readUnitText(variant, power, text);
    kept(cache, text, { type: u.type, province: u.province, coast: u.coast });
    return u;
  }
  return readUnitText(variant, power, text);
}

function readUnitText(variant: Variant, power: PowerId, text: unknown): Unit {
  if (typeof text !== "string")
    fail(`a unit must be a string like "A par" or "F stp/sc", not ${JSON.stringify(text)}`);
  const m = /^\s*([AF])\s+([a-z]{2,4})(?:\s*[/(]\s*([a-z]{2})\s*\)?)?\s*$/i.exec(text);
  if (!m)
    fail(`cannot read unit "${text}": write TYPE PROVINCE[/COAST], e.g. "A par" or "F stp/sc"`);
  const type = m[1]!.toUpperCase() as UnitType;
  const province = variant.map.province(m[2]!.toLowerCase());
  if (!province) fail(`unit "${text}": unknown province "${m[2]}"`);
  if (province.impassable)
    fail(
      `unit "${text}": ${province.name} is impassable: no unit may enter or stand there; remove the unit or place it in another province`,
    );
  let coast = (m[3]?.toLowerCase() ?? null) as Coast | null;
  if (type === "A") coast = null;
  const places = variant.map.locationsFor(type, province.id);
  if (places.length === 0) {
    fail(
      `unit "${text}": ${type === "A" ? "an army" : "a fleet"} cannot stand in ${province.name}`,
    );
  }
  if (type === "F" && province.coasts.length > 0) {
    if (!coast)
      fail(
        `unit "${text}": a fleet in ${province.name} needs its coast (${province.coasts.map((c) => `${province.id}/${c}`).join(" or ")})`,
      );
    if (!province.coasts.includes(coast))
      fail(`unit "${text}": ${province.name} has no ${coast} coast`);
  } else if (type === "F") coast = null;
  return { power, type, province: province.id, coast };
}

function readPower(variant: Variant, name: string): PowerId {
  const cache = placeCache(variant).powers;
  const seen = cache.get(name);
  if (seen !== undefined) return seen;
  const id = readPowerText(variant, name);
  kept(cache, name, id);
  return id;
}

function readPowerText(variant: Variant, name: string): PowerId {
  const lower = name.toLowerCase();
  const p = variant.powers.find((x) => x.id === lower);
  if (!p)
    fail(
      `unknown power "${name}"; ${variant.id} has ${variant.powers.map((x) => x.id).join(", ")}`,
    );
  return p.id;
}

function readProvince(variant: Variant, id: unknown, what: string): ProvinceId {
  if (typeof id !== "string") return readProvinceText(variant, id, what);
  const cache = placeCache(variant).provinces;
  const seen = cache.get(id);
  if (seen !== undefined) return seen;
  const p = readProvinceText(variant, id, what);
  kept(cache, id, p);
  return p;
}

function readProvinceText(variant: Variant, id: unknown, what: string): ProvinceId {
  if (typeof id !== "string") fail(`${what} must be a province id string`);
  const p = variant.map.province(id.toLowerCase().split("/")[0]!);
  if (!p) fail(`${what}: unknown province "${id}"`);
  return p.id;
}

/** Reads a position (without orders); `getVariant` resolves the variant id. */
export function readPosition(input: Record<string, unknown>, variant: Variant): Position {
  if (typeof input.phase !== "string") fail('"phase" is required, e.g. "S1901M"');
  const phase = parsePhase(input.phase);
  if (!phase)
    fail(
      `cannot read phase "${input.phase}": write season, year, type, e.g. "S1901M", "F1901R", "W1901A"`,
    );
  if (!isRecord(input.units)) fail('"units" must be an object of power: ["A par", ...]');
  const units: Unit[] = [];
  // Two units in one province: each province's last placing noted by this reading's number,
  // in arrays kept per variant (a map made for every position was a third of reading it).
  const places = placeCache(variant);
  const { slots, placedBy, placedText } = places;
  if (places.reading === 0x7fffffff) {
    placedBy.fill(0);
    places.reading = 0;
  }
  const reading = ++places.reading;
  const inputUnits = input.units;
  for (const power of Object.keys(inputUnits)) {
    const pid = readPower(variant, power);
    for (const t of powerList(inputUnits[power], "units", power)) {
      const u = readUnit(variant, pid, t);
      const text = String(t);
      const k = slots.get(u.province)!;
      if (placedBy[k] === reading)
        fail(`two units in ${u.province}: "${placedText[k]}" and "${text}"`);
      placedBy[k] = reading;
      placedText[k] = text;
      units.push(u);
    }
  }
  const dislodged: DislodgedUnit[] = [];
  if (input.dislodged !== undefined && input.dislodged !== null) {
    if (!isRecord(input.dislodged))
      fail('"dislodged" must be an object of power: [{"unit": "A bul", "from": "rum"}]');
    const dseen = new Set<string>();
    const inputDislodged = input.dislodged;
    for (const power of Object.keys(inputDislodged)) {
      const pid = readPower(variant, power);
      for (const d of powerList(inputDislodged[power], "dislodged units", power)) {
        if (!isRecord(d))
          fail(`a dislodged unit is {"unit": "A bul", "from": "rum", "viaConvoy": false}`);
        const u = readUnit(variant, pid, d.unit);
        // Two powers' units may be dislodged from one province (sequential movement); one
        // power's retreat orders name its units by province, so it has one there at most.
        if (dseen.has(dislodgedKey(u))) fail(`two dislodged units of ${power} in ${u.province}`);
        dseen.add(dislodgedKey(u));
        const from =
          d.from === null || d.from === undefined
            ? null
            : readProvince(variant, d.from, "dislodged from");
        if (d.viaConvoy !== undefined && typeof d.viaConvoy !== "boolean")
          fail("viaConvoy must be true or false");
        dislodged.push(makeDislodged(u, from, d.viaConvoy === true));
      }
    }
  }
  const contested: ProvinceId[] = [];
  if (input.contested !== undefined && input.contested !== null) {
    if (!Array.isArray(input.contested)) fail('"contested" must be an array of province ids');
    for (const c of input.contested) contested.push(readProvince(variant, c, "contested"));
  }
  let centers: Map<ProvinceId, PowerId>;
  if (input.centers === undefined || input.centers === null) {
    if (phase.type === "A") fail('"centers" is needed for an adjustment phase');
    if (phase.season === "W" && phase.type === "R")
      fail('"centers" is needed for a winter phase (retreats and adjustments)');
    centers = new Map(variant.start.centers);
  } else {
    if (!isRecord(input.centers)) fail('"centers" must be an object of power: ["par", ...]');
    centers = new Map();
    const inputCentres = input.centers;
    for (const power of Object.keys(inputCentres)) {
      const pid = readPower(variant, power);
      for (const c of powerList(inputCentres[power], "centres", power)) {
        const p = readProvince(variant, c, "centre");
        if (!variant.map.get(p).supplyCenter) fail(`${p} is not a supply centre`);
        const prev = centers.get(p);
        if (prev && prev !== pid) fail(`centre ${p} is given to both ${prev} and ${pid}`);
        centers.set(p, pid);
      }
    }
  }
  return { phase, units, dislodged, contested, centers };
}

/**
 * Why a position cannot be adjudicated as given, or null: a movement phase with dislodged
 * units (they retreat in the retreat phase that follows a movement phase; a movement phase
 * starts with none, and the adjudicator would ignore them).
 */
export function positionProblem(variant: Variant, position: Position): string | null {
  if (position.phase.type !== "M" || position.dislodged.length === 0) return null;
  const d = position.dislodged[0]!;
  return `"dislodged" is for retreat phases (R), but ${phaseName(position.phase)} is a movement phase, which starts with no dislodged units (${variant.powers.find((p) => p.id === d.power)?.name ?? d.power}'s unit in ${d.province} among them): leave "dislodged" out, or give the retreat phase it belongs to (e.g. "${position.phase.season}${position.phase.year}R")`;
}

/** One power's list in an object of power: [...]; `what` names such lists in the error. */
function powerList(list: unknown, what: string, power: string): readonly unknown[] {
  if (!Array.isArray(list)) fail(`${what} of ${power} must be an array`);
  return list;
}

function allStrings(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) if (typeof list[i] !== "string") return false;
  return true;
}

export function readOrders(input: Record<string, unknown>, variant: Variant): OrderTexts {
  const out = new Map<PowerId, string[]>();
  if (input.orders === undefined || input.orders === null) return out;
  if (!isRecord(input.orders)) fail('"orders" must be an object of power: ["A par - bur", ...]');
  const inputOrders = input.orders;
  for (const power of Object.keys(inputOrders)) {
    const list = inputOrders[power];
    const pid = readPower(variant, power);
    if (!Array.isArray(list) || !allStrings(list)) {
      fail(`orders of ${power} must be an array of strings`);
    }
    // The input's own list (nothing changes it), joined to the power's earlier list when the
    // power was named twice (`"France"` and `"france"`).
    const before = out.get(pid);
    out.set(pid, before === undefined ? (list as string[]) : [...before, ...(list as string[])]);
  }
  return out;
}

const unitText = (u: Unit): string =>
  `${u.type} ${u.coast ? `${u.province}/${u.coast}` : u.province}`;

/** `list` with `x` added at the end (a new list of one for none). */
function added<T>(list: T[] | null, x: T): T[] {
  if (list === null) return [x];
  list.push(x);
  return list;
}

/** Per variant: each power's index in `variant.powers`. */
const powerIndexes = new WeakMap<Variant, ReadonlyMap<PowerId, number>>();

function powerIndex(variant: Variant): ReadonlyMap<PowerId, number> {
  let index = powerIndexes.get(variant);
  if (!index) {
    index = new Map(variant.powers.map((p, i) => [p.id, i]));
    powerIndexes.set(variant, index);
  }
  return index;
}

/** Per province: its army's and its fleet's text (`A par`, `F par`), made once (bounded). */
const unitTexts = new Map<ProvinceId, [string, string]>();

/** `unitText`, from the texts made once when the unit has no coast. */
function unitTextOf(u: Unit): string {
  if (u.coast) return unitText(u);
  let texts = unitTexts.get(u.province);
  if (!texts) {
    if (unitTexts.size >= PLACE_CACHE) unitTexts.clear();
    texts = [`A ${u.province}`, `F ${u.province}`];
    unitTexts.set(u.province, texts);
  }
  return u.type === "A" ? texts[0] : u.type === "F" ? texts[1] : unitText(u);
}

/** Per variant: its supply centres' ids, sorted as `sort()` sorts strings. */
const centreOrder = new WeakMap<Variant, readonly ProvinceId[]>();

function sortedCentres(variant: Variant): readonly ProvinceId[] {
  let ids = centreOrder.get(variant);
  if (!ids) {
    ids = variant.map.provinces.filter((p) => p.supplyCenter).map((p) => p.id);
    ids = [...ids].sort();
    centreOrder.set(variant, ids);
  }
  return ids;
}

export function writePosition(variant: Variant, pos: Position): PositionJson {
  // Each power's lists made only when it has something to list (a power without units,
  // centres or dislodged units is left out): no empty lists, which V8 holds as another kind
  // of array than full ones, so this code meets one kind (docs/performance.md, "Warm-up").
  // One pass over the units, the dislodged units and the centres, each to its power's list;
  // then the lists by power, in the variant's order of powers.
  const index = powerIndex(variant);
  const n = variant.powers.length;
  const us: (string[] | null)[] = [];
  const ds: ({ unit: string; from: string | null; viaConvoy: boolean }[] | null)[] = [];
  const cs: (string[] | null)[] = [];
  for (let i = 0; i < n; i++) {
    us.push(null);
    ds.push(null);
    cs.push(null);
  }
  for (const u of pos.units) {
    const i = index.get(u.power);
    if (i !== undefined) us[i] = added(us[i] ?? null, unitTextOf(u));
  }
  for (const d of pos.dislodged) {
    const i = index.get(d.power);
    if (i !== undefined)
      ds[i] = added(ds[i] ?? null, {
        unit: unitText(d),
        from: d.attackerFrom,
        viaConvoy: d.viaConvoy,
      });
  }
  // The centres in sorted order, so that each power's list is sorted as it is made; a
  // position owning a province that is no centre of the variant is sorted afterwards.
  let listed = 0;
  for (const c of sortedCentres(variant)) {
    const o = pos.centers.get(c);
    if (o === undefined) continue;
    listed++;
    const i = index.get(o);
    if (i !== undefined) cs[i] = added(cs[i] ?? null, c as string);
  }
  const sorted = listed === pos.centers.size;
  if (!sorted) {
    for (let i = 0; i < n; i++) cs[i] = null;
    for (const [c, o] of pos.centers) {
      const i = index.get(o);
      if (i !== undefined) cs[i] = added(cs[i] ?? null, c as string);
    }
  }
  const units: Record<string, string[]> = {};
  const dislodged: Record<string, { unit: string; from: string | null; viaConvoy: boolean }[]> = {};
  const centers: Record<string, string[]> = {};
  for (let i = 0; i < n; i++) {
    const id = variant.powers[i]!.id;
    if (us[i] !== null) units[id] = us[i]!;
    if (ds[i] !== null) dislodged[id] = ds[i]!;
    if (cs[i] !== null) centers[id] = sorted ? cs[i]! : cs[i]!.sort();
  }
  return {
    variant: variant.id,
    phase: phaseName(pos.phase),
    units,
    dislodged,
    contested: pos.contested.length === 0 ? [] : [...pos.contested].sort(),
    centers,
  };
}

export function writeResult(variant: Variant, r: PhaseResult): ResultJson {
  const orders: ResultJson["orders"] = {};
  // The results come power by power: the power's list is looked up when the power changes.
  let power: string | null = null;
  let list: ResultJson["orders"][string] = [];
  for (const o of r.results) {
    if (o.power !== power) {
      power = o.power;
      const seen = orders[power];
      if (seen === undefined) {
        list = [];
        orders[power] = list;
      } else list = seen;
    }
    const order = o.order ? formatOrder(o.order) : null;
    // Two literals, not a spread of an optional field: two hidden classes, not one per call.
    list.push(
      o.reason !== null
        ? { text: o.text, order, result: o.result, reason: o.reason, explanation: o.explanation }
        : { text: o.text, order, result: o.result, explanation: o.explanation },
    );
  }
  const out: ResultJson = {
    phase: phaseName(r.phase),
    orders,
    next: writePosition(variant, r.next),
  };
  if (r.dislodged.length > 0) {
    const d: NonNullable<ResultJson["dislodged"]> = {};
    for (const { unit, retreats } of r.dislodged) {
      const list = d[unit.power] ?? [];
      d[unit.power] = list;
      list.push({
        unit: unitText(unit),
        from: unit.attackerFrom,
        viaConvoy: unit.viaConvoy,
        retreats: retreats.map((l) => (l.coast ? `${l.province}/${l.coast}` : l.province)),
      });
    }
    out.dislodged = d;
  }
  if (r.winner) out.winner = r.winner;
  return out;
}
