/**
 * Variants as data: a JSON document that describes a whole variant (powers, provinces with
 * their adjacency, the start), checked field by field before it becomes a `Variant`.
 *
 * The format is published as a JSON Schema in docs/variant.schema.json; `loadVariant` checks
 * everything the schema says and everything a schema cannot (references between provinces,
 * home centres of real powers, start units on legal places, symmetric adjacency), and names
 * the path of each problem: `provinces[12].army[3]: "bur" is not a province`.
 */

import { GameMap, type MapData, MapDataError, type ProvinceData } from "../engine/map.ts";
import { parsePhase, phaseName } from "../engine/phase.ts";
import { powerKey } from "../engine/powers.ts";
import { OPTION_VALUES, type RuleOptions } from "../engine/rules.ts";
import {
  COASTS,
  type Coast,
  type Location,
  type Phase,
  type Position,
  type Power,
  type PowerId,
  type ProvinceId,
  type ProvinceKind,
  powerId,
  provinceId,
  type Unit,
  type UnitType,
} from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";

/** A power as the variant file writes it. */
export interface PowerData {
  readonly id: string;
  readonly name: string;
  readonly adjective: string;
  readonly letter: string;
  /** Other names people write for the power (`UK`, `Great Britain`, `England`). */
  readonly aliases?: readonly string[];
}

/** A province as the variant file writes it: `ProvinceData`, and whether nothing may enter. */
export interface VariantProvinceData extends ProvinceData {
  /** Impassable land (Switzerland): no neighbours, no units, no centre. */
  readonly impassable?: boolean;
}

/** The whole variant file. */
export interface VariantData {
  /** The schema the file follows, for editors; ignored by the loader. */
  readonly $schema?: string;
  readonly id: string;
  readonly name: string;
  /** Free text for people: where the map comes from, what it assumes. */
  readonly description?: string;
  /**
   * Centres a power needs for a solo victory, or null: no number of centres wins or ends the
   * game (the variant has its own way of winning, as europe1935's victory points).
   */
  readonly victoryCenters: number | null;
  /** The first phase, e.g. `S1901M`: season, year, phase type (movement or adjustment). */
  readonly startPhase: string;
  readonly powers: readonly PowerData[];
  readonly provinces: readonly VariantProvinceData[];
  /** Per power id, its units at the start: `A par`, `F stp/sc`. */
  readonly startUnits: Readonly<Record<string, readonly string[]>>;
  /**
   * The variant's rule defaults (docs/rules.md options): applied over the chosen profile,
   * overridden by options a game or an adjudication gives explicitly.
   */
  readonly rules?: Readonly<Record<string, string | boolean>>;
}

export type LoadResult =
  | { readonly ok: true; readonly variant: Variant }
  | { readonly ok: false; readonly errors: readonly string[] };

/** The fields each object of the format may have; the schema lists the same ones. */
export const VARIANT_FIELDS: readonly string[] = [
  "$schema",
  "id",
  "name",
  "description",
  "victoryCenters",
  "startPhase",
  "powers",
  "provinces",
  "startUnits",
  "rules",
];
export const POWER_FIELDS: readonly string[] = ["id", "name", "adjective", "letter", "aliases"];
const REQUIRED_POWER = ["id", "name", "adjective", "letter"];
export const PROVINCE_FIELDS: readonly string[] = [
  "id",
  "name",
  "aliases",
  "kind",
  "supplyCenter",
  "home",
  "army",
  "fleet",
  "coasts",
  "impassable",
];

const REQUIRED_VARIANT = ["id", "name", "victoryCenters", "startPhase", "powers", "provinces"];
const REQUIRED_PROVINCE = ["id", "name", "kind", "army", "fleet"];
const KINDS: readonly ProvinceKind[] = ["land", "sea", "coast"];

/** Province ids: what position JSON reads as a unit's place (`A lon`, `F stp/sc`). */
const PROVINCE_ID = /^[a-z]{2,4}$/;
const POWER_ID = /^[a-z][a-z0-9_-]*$/;
const VARIANT_ID = /^[a-z][a-z0-9_-]*$/;
const UNIT_TEXT = /^([AF]) ([a-z]{2,4})(?:\/([a-z]{2}))?$/;

/**
 * Words an order uses for itself; a province called one of them could not be told from it.
 * (The order reader's keywords, and the coast words that may follow a place.)
 */
const ORDER_WORDS: ReadonlySet<string> = new Set([
  "a",
  "army",
  "b",
  "build",
  "builds",
  "by",
  "c",
  "convoy",
  "convoys",
  "d",
  "disband",
  "disbands",
  "ec",
  "f",
  "fleet",
  "h",
  "hold",
  "holds",
  "m",
  "move",
  "moves",
  "nc",
  "r",
  "remove",
  "removes",
  "retreat",
  "retreats",
  "s",
  "sc",
  "stand",
  "stands",
  "support",
  "supports",
  "to",
  "via",
  "waive",
  "waives",
  "wc",
]);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const q = (v: unknown): string => JSON.stringify(v);

/**
 * How the order reader sees a name: lower case, periods gone, words and punctuation apart.
 * Two spellings with the same key are the same name to a player.
 */
export function nameKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/\u2019/g, "'")
    .replace(/\./g, "")
    .replace(/[-\u2010-\u2014\u2212/()[\]]/g, (c) => ` ${c} `)
    .split(/[\s,]+/)
    .filter((w) => w !== "")
    .join(" ");
}

function describeKind(kind: ProvinceKind): string {
  return kind === "land" ? "inland" : kind === "sea" ? "a sea" : "coastal";
}

/** A province as far as the checks need it, once its own fields have been read. */
interface ProvinceInfo {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly kind: ProvinceKind | null;
  readonly coasts: readonly Coast[];
  readonly impassable: boolean;
}

class Checker {
  readonly errors: string[] = [];

  add(path: string, message: string): void {
    this.errors.push(`${path}: ${message}`);
  }

  fields(
    obj: Record<string, unknown>,
    path: string,
    allowed: readonly string[],
    required: readonly string[],
  ): void {
    for (const k of Object.keys(obj)) {
      if (!allowed.includes(k))
        this.add(path === "" ? k : `${path}.${k}`, `unknown field (known: ${allowed.join(", ")})`);
    }
    for (const k of required) {
      if (obj[k] === undefined) this.add(path === "" ? k : `${path}.${k}`, "is required");
    }
  }

  text(v: unknown, path: string): string | null {
    if (v === undefined) return null;
    if (typeof v !== "string" || v.trim() === "") {
      this.add(path, `must be a non-empty string, not ${q(v)}`);
      return null;
    }
    return v;
  }

  stringList(v: unknown, path: string): string[] | null {
    if (v === undefined) return null;
    if (!Array.isArray(v)) {
      this.add(path, `must be an array of strings, not ${q(v)}`);
      return null;
    }
    const out: string[] = [];
    v.forEach((s, i) => {
      if (typeof s !== "string" || s.trim() === "")
        this.add(`${path}[${i}]`, `must be a non-empty string, not ${q(s)}`);
      else out.push(s);
    });
    return out;
  }
}

/**
 * Reads and checks a variant file's content (already parsed JSON). Every problem found is
 * reported, each with the path of the value at fault.
 */
export function loadVariant(json: unknown): LoadResult {
  const c = new Checker();
  if (!isRecord(json)) {
    return { ok: false, errors: [`(top): a variant is a JSON object, not ${q(json)}`] };
  }
  c.fields(json, "", VARIANT_FIELDS, REQUIRED_VARIANT);
  if (json.$schema !== undefined && typeof json.$schema !== "string")
    c.add("$schema", "must be a string");
  if (json.description !== undefined && typeof json.description !== "string")
    c.add("description", "must be a string");

  const id = c.text(json.id, "id");
  if (id !== null && !VARIANT_ID.test(id))
    c.add("id", `${q(id)} must be lower case: letters, digits, "-" or "_", starting with a letter`);
  const name = c.text(json.name, "name");

  let phase: Phase | null = null;
  const phaseText = c.text(json.startPhase, "startPhase");
  if (phaseText !== null) {
    phase = /^[SUFW]\d{1,5}[MRA]$/.test(phaseText) ? parsePhase(phaseText) : null;
    if (!phase)
      c.add("startPhase", `${q(phaseText)} is not a phase: write e.g. "S1901M" or "W1900A"`);
    else if (phase.type === "R") {
      c.add("startPhase", `${q(phaseText)}: a game cannot start with retreats`);
      phase = null;
    }
  }

  const { powers, ids: powerIds } = readPowers(c, json.powers);
  const provinces = readProvinces(c, json.provinces, powerIds);
  const map = buildMap(c, provinces);

  // Powers need somewhere to build.
  if (map) {
    powers.forEach((p, i) => {
      if (map.homeCenters(p.id).length === 0)
        c.add(`powers[${i}]`, `${q(p.id)} has no home centres`);
    });
  }

  const centreCount = Array.isArray(json.provinces)
    ? json.provinces.filter((p) => isRecord(p) && p.supplyCenter === true).length
    : 0;
  let victoryCenters: number | null | undefined;
  if (json.victoryCenters === null) victoryCenters = null;
  else if (json.victoryCenters !== undefined) {
    const v = json.victoryCenters;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1)
      c.add("victoryCenters", `must be a whole number of centres, at least 1, not ${q(v)}`);
    else if (Array.isArray(json.provinces) && v > centreCount)
      c.add("victoryCenters", `${v} is more than the ${centreCount} supply centres of the map`);
    else victoryCenters = v;
  }

  const units = readStartUnits(c, json.startUnits, powerIds, provinces.info, map);
  const rules = readRuleDefaults(c, json.rules);

  if (c.errors.length > 0 || provinces.broken || !map || id === null || name === null || !phase) {
    if (c.errors.length === 0) c.errors.push("(top): the variant could not be read");
    return { ok: false, errors: c.errors };
  }
  const start: Position = {
    phase,
    units,
    dislodged: [],
    contested: [],
    centers: new Map(
      map.supplyCenters
        .filter((p) => p.home !== null)
        .map((p) => [p.id, p.home as PowerId] as const),
    ),
  };
  return {
    ok: true,
    variant: {
      id,
      name,
      powers,
      map,
      start,
      victoryCenters: victoryCenters === undefined ? centreCount : victoryCenters,
      ...(rules ? { rules } : {}),
    },
  };
}

/** The `rules` field: rule options (docs/rules.md) with one of their values each. */
function readRuleDefaults(c: Checker, v: unknown): Partial<RuleOptions> | null {
  if (v === undefined) return null;
  if (!isRecord(v)) {
    c.add("rules", `must be an object of rule options, not ${q(v)}`);
    return null;
  }
  const values = OPTION_VALUES as Readonly<Record<string, readonly unknown[]>>;
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(v)) {
    const allowed = values[k];
    if (!allowed) {
      c.add(`rules.${k}`, `unknown rule option (known: ${Object.keys(values).join(", ")})`);
    } else if (!allowed.includes(value)) {
      c.add(`rules.${k}`, `cannot be ${q(value)}; use one of ${allowed.map(q).join(", ")}`);
    } else out[k] = value;
  }
  return out as Partial<RuleOptions>;
}

/** The sound powers, and the ids of all powers (sound or not) for references to them. */
function readPowers(c: Checker, v: unknown): { powers: Power[]; ids: Set<string> } {
  const out: Power[] = [];
  const all = new Set<string>();
  if (v === undefined) return { powers: out, ids: all };
  if (!Array.isArray(v) || v.length === 0) {
    c.add("powers", "must be a non-empty array of powers");
    return { powers: out, ids: all };
  }
  const ids = new Map<string, number>();
  const letters = new Map<string, number>();
  const names = new Map<string, number>();
  v.forEach((p, i) => {
    const path = `powers[${i}]`;
    if (!isRecord(p)) {
      c.add(path, `a power is an object {id, name, adjective, letter}, not ${q(p)}`);
      return;
    }
    c.fields(p, path, POWER_FIELDS, REQUIRED_POWER);
    const id = c.text(p.id, `${path}.id`);
    const name = c.text(p.name, `${path}.name`);
    const adjective = c.text(p.adjective, `${path}.adjective`);
    const letter = c.text(p.letter, `${path}.letter`);
    const aliases = c.stringList(p.aliases, `${path}.aliases`);
    let ok = id !== null && name !== null && adjective !== null && letter !== null;
    // No name may stand for two powers: a header or an order naming it would be ambiguous.
    const spelled = [id, name, adjective].filter((x): x is string => x !== null);
    const own = new Set<string>();
    for (const [j, n] of [...spelled, ...(aliases ?? [])].entries()) {
      const key = powerKey(n);
      const other = names.get(key);
      const at = j < spelled.length ? path : `${path}.aliases[${j - spelled.length}]`;
      if (other !== undefined && other !== i) {
        c.add(at, `${q(n)} already names powers[${other}]`);
        ok = false;
      } else if (!own.has(key)) {
        own.add(key);
        names.set(key, i);
      }
    }
    if (id !== null) {
      all.add(id);
      if (!POWER_ID.test(id)) {
        c.add(`${path}.id`, `${q(id)} must be lower case: letters, digits, "-" or "_"`);
        ok = false;
      }
      const prev = ids.get(id);
      if (prev !== undefined) {
        c.add(`${path}.id`, `${q(id)} is already the id of powers[${prev}]`);
        ok = false;
      } else ids.set(id, i);
    }
    if (letter !== null) {
      if (!/^[A-Z]$/.test(letter)) {
        c.add(`${path}.letter`, `${q(letter)} must be one capital letter (A-Z)`);
        ok = false;
      } else {
        const prev = letters.get(letter);
        if (prev !== undefined) {
          c.add(`${path}.letter`, `${q(letter)} is already the letter of powers[${prev}]`);
          ok = false;
        } else letters.set(letter, i);
      }
    }
    if (ok)
      out.push({
        id: powerId(id as string),
        name: name as string,
        adjective: adjective as string,
        letter: letter as string,
        ...(aliases && aliases.length > 0 ? { aliases } : {}),
      });
  });
  return { powers: out, ids: all };
}

interface ProvincesRead {
  /** Per id, what the checks need; duplicates keep the first. */
  readonly info: ReadonlyMap<string, ProvinceInfo>;
  /** Each province once, with only its sound fields and references, for the map. */
  readonly data: readonly VariantProvinceData[];
  /** Whether any province had a problem (then no variant is built). */
  readonly broken: boolean;
}

function readProvinces(c: Checker, v: unknown, powers: ReadonlySet<string>): ProvincesRead {
  const info = new Map<string, ProvinceInfo>();
  const data: VariantProvinceData[] = [];
  let broken = false;
  if (v === undefined) return { info, data, broken: true };
  if (!Array.isArray(v) || v.length === 0) {
    c.add("provinces", "must be a non-empty array of provinces");
    return { info, data, broken: true };
  }
  const names = new Map<string, string>();
  const spell = (text: string, path: string, index: number, id: string) => {
    const key = nameKey(text);
    if (ORDER_WORDS.has(key)) {
      c.add(path, `${q(text)} is an order word and cannot name a province`);
      return;
    }
    const prev = names.get(key);
    if (prev !== undefined && !prev.startsWith(`provinces[${index}] `))
      c.add(path, `${q(text)} already names ${prev}`);
    else if (prev === undefined) names.set(key, `provinces[${index}] (${q(id)})`);
  };

  // First the ids, so that references can be checked in any order.
  v.forEach((p, i) => {
    if (!isRecord(p) || typeof p.id !== "string") return;
    const coasts = isRecord(p.coasts)
      ? (Object.keys(p.coasts).filter((k) => (COASTS as readonly string[]).includes(k)) as Coast[])
      : [];
    const kind = KINDS.includes(p.kind as ProvinceKind) ? (p.kind as ProvinceKind) : null;
    if (!info.has(p.id))
      info.set(p.id, {
        index: i,
        id: p.id,
        name: typeof p.name === "string" ? p.name : p.id,
        kind,
        coasts,
        impassable: p.impassable === true,
      });
  });

  v.forEach((p, i) => {
    const path = `provinces[${i}]`;
    if (!isRecord(p)) {
      c.add(path, `a province is an object {id, name, kind, army, fleet, ...}, not ${q(p)}`);
      broken = true;
      return;
    }
    const before = c.errors.length;
    c.fields(p, path, PROVINCE_FIELDS, REQUIRED_PROVINCE);
    const id = c.text(p.id, `${path}.id`);
    if (id !== null) {
      if (!PROVINCE_ID.test(id))
        c.add(
          `${path}.id`,
          `${q(id)} must be 2 to 4 lower-case letters (a-z): positions write units as "A ${id.toLowerCase().slice(0, 3)}"`,
        );
      const first = info.get(id);
      if (first && first.index !== i)
        c.add(`${path}.id`, `${q(id)} is already the id of provinces[${first.index}]`);
    }
    const name = c.text(p.name, `${path}.name`);
    const aliases = c.stringList(p.aliases, `${path}.aliases`);
    const ownId = id ?? `#${i}`;
    if (id !== null) spell(id, `${path}.id`, i, ownId);
    if (name !== null) spell(name, `${path}.name`, i, ownId);
    aliases?.forEach((a, k) => {
      spell(a, `${path}.aliases[${k}]`, i, ownId);
    });

    let kind: ProvinceKind | null = null;
    if (p.kind !== undefined) {
      if (KINDS.includes(p.kind as ProvinceKind)) kind = p.kind as ProvinceKind;
      else c.add(`${path}.kind`, `${q(p.kind)} is not a kind: use "land", "sea" or "coast"`);
    }
    const impassable = p.impassable === true;
    if (p.impassable !== undefined && typeof p.impassable !== "boolean")
      c.add(`${path}.impassable`, `must be true or false, not ${q(p.impassable)}`);
    const supplyCenter = p.supplyCenter === true;
    if (p.supplyCenter !== undefined && typeof p.supplyCenter !== "boolean")
      c.add(`${path}.supplyCenter`, `must be true or false, not ${q(p.supplyCenter)}`);
    if (supplyCenter && kind === "sea")
      c.add(`${path}.supplyCenter`, "a sea cannot be a supply centre");
    if (supplyCenter && impassable)
      c.add(`${path}.supplyCenter`, "an impassable province cannot be a supply centre");
    if (impassable && kind !== null && kind !== "land")
      c.add(`${path}.impassable`, `only land can be impassable, not ${describeKind(kind)}`);

    let home: string | null = null;
    if (p.home !== undefined && p.home !== null) {
      if (typeof p.home !== "string")
        c.add(`${path}.home`, `must be a power id or null, not ${q(p.home)}`);
      else if (!powers.has(p.home))
        c.add(
          `${path}.home`,
          `${q(p.home)} is not a power (powers: ${[...powers].join(", ") || "none"})`,
        );
      else if (!supplyCenter)
        c.add(`${path}.home`, 'a home centre must be a supply centre ("supplyCenter": true)');
      else home = p.home;
    }

    const self = id ?? "";
    const army = checkArmy(c, p.army, `${path}.army`, self, info);
    const split = p.coasts !== undefined;
    const fleet = checkFleet(c, p.fleet, `${path}.fleet`, self, info);
    let coasts: Partial<Record<Coast, string[]>> | undefined;
    if (split) {
      if (!isRecord(p.coasts)) {
        c.add(`${path}.coasts`, `must be an object of coast: [locations], not ${q(p.coasts)}`);
      } else {
        if (kind !== null && kind !== "coast")
          c.add(`${path}.coasts`, `only a coastal province has coasts, not ${describeKind(kind)}`);
        const keys = Object.keys(p.coasts);
        if (keys.length < 2)
          c.add(
            `${path}.coasts`,
            'a province with one coast lists its fleet moves under "fleet" (coasts are for two or more)',
          );
        if (fleet && fleet.length > 0)
          c.add(
            `${path}.fleet`,
            'a province with coasts lists its fleet moves under "coasts", so "fleet" must be empty',
          );
        coasts = {};
        for (const k of keys) {
          if (!(COASTS as readonly string[]).includes(k)) {
            c.add(`${path}.coasts.${k}`, `${q(k)} is not a coast: use nc, sc, ec or wc`);
            continue;
          }
          const list = checkFleet(c, p.coasts[k], `${path}.coasts.${k}`, self, info);
          if (list) coasts[k as Coast] = list;
          if (list && list.length === 0)
            c.add(`${path}.coasts.${k}`, "a coast with no fleet moves cannot be reached");
        }
      }
    }

    const fleetMoves = (fleet?.length ?? 0) + Object.values(coasts ?? {}).flat().length;
    if (kind === "sea" && army && army.length > 0)
      c.add(`${path}.army`, "a sea has no army neighbours: leave it empty");
    if (kind === "land" && fleet && fleet.length > 0)
      c.add(`${path}.fleet`, "an inland province has no fleet moves: leave it empty");
    if (kind === "coast" && !split && fleet && fleet.length === 0)
      c.add(`${path}.fleet`, 'a coastal province with no fleet moves is inland: make it "land"');
    if (kind === "sea" && fleet && fleet.length === 0)
      c.add(`${path}.fleet`, "a sea with no fleet moves cannot be reached");
    if (impassable && ((army?.length ?? 0) > 0 || fleetMoves > 0))
      c.add(path, "an impassable province has no neighbours: leave army and fleet empty");
    if (!impassable && kind === "land" && army && army.length === 0)
      c.add(
        `${path}.army`,
        'an inland province with no neighbours cannot be entered: give it neighbours, or mark it "impassable": true',
      );

    if (c.errors.length > before || id === null || name === null || kind === null) broken = true;
    // What is sound goes on to the map, so that its own checks (symmetry) report only new
    // problems, not echoes of the ones above.
    if (id === null || info.get(id)?.index !== i) return;
    const k: ProvinceKind = kind ?? "coast";
    data.push({
      id,
      name: name ?? id,
      ...(aliases && aliases.length > 0 ? { aliases } : {}),
      kind: k,
      ...(supplyCenter && k !== "sea" ? { supplyCenter } : {}),
      ...(home !== null ? { home } : {}),
      army: k === "sea" ? [] : (army ?? []),
      fleet: k === "land" || coasts ? [] : (fleet ?? []),
      ...(coasts && k === "coast" && Object.keys(coasts).length > 0 ? { coasts } : {}),
      ...(impassable ? { impassable } : {}),
    });
  });
  return { info, data, broken };
}

/** The army neighbours, each checked; only the sound ones are returned. */
function checkArmy(
  c: Checker,
  v: unknown,
  path: string,
  self: string,
  info: ReadonlyMap<string, ProvinceInfo>,
): string[] | null {
  const list = c.stringList(v, path);
  if (!list) return null;
  const out: string[] = [];
  const seen = new Set<string>();
  list.forEach((t, k) => {
    const at = `${path}[${k}]`;
    const other = info.get(t);
    if (!other) c.add(at, `${q(t)} is not a province`);
    else if (t === self) c.add(at, "a province is not its own neighbour");
    else if (seen.has(t)) c.add(at, `${q(t)} is listed twice`);
    else if (other.kind === "sea") c.add(at, `${q(t)} is a sea: armies cannot go there`);
    else if (other.impassable) c.add(at, `${q(t)} is impassable`);
    else out.push(t);
    seen.add(t);
  });
  return out;
}

/** Fleet destinations (`lon`, `stp/nc`), each checked; only the sound ones are returned. */
function checkFleet(
  c: Checker,
  v: unknown,
  path: string,
  self: string,
  info: ReadonlyMap<string, ProvinceInfo>,
): string[] | null {
  const list = c.stringList(v, path);
  if (!list) return null;
  const out: string[] = [];
  const seen = new Set<string>();
  list.forEach((t, k) => {
    const at = `${path}[${k}]`;
    const [p, coast, extra] = t.split("/");
    const other = info.get(p ?? "");
    if (extra !== undefined || coast === "")
      c.add(at, `${q(t)}: write a place as "lon" or "stp/nc"`);
    else if (!other) c.add(at, `${q(p)} is not a province`);
    else if (p === self) c.add(at, "a province is not its own neighbour");
    else if (seen.has(t)) c.add(at, `${q(t)} is listed twice`);
    else if (other.kind === "land")
      c.add(at, `${q(p)} is ${other.impassable ? "impassable" : "inland"}: fleets cannot go there`);
    else if (coast === undefined && other.coasts.length > 0)
      c.add(
        at,
        `${q(p)} has coasts: write ${other.coasts.map((x) => q(`${p}/${x}`)).join(" or ")}`,
      );
    else if (coast !== undefined && other.coasts.length === 0)
      c.add(at, `${q(p)} has no separate coasts: write ${q(p)}`);
    else if (coast !== undefined && !other.coasts.includes(coast as Coast))
      c.add(at, `${other.name} has no ${q(coast)} coast (it has ${other.coasts.join(", ")})`);
    else out.push(t);
    seen.add(t);
  });
  return out;
}

/**
 * The `GameMap` of what is sound in the provinces; its own problems (symmetry) are passed
 * through. Built even when some provinces had problems, for the checks that need a map.
 */
function buildMap(c: Checker, provinces: ProvincesRead): GameMap | null {
  if (provinces.data.length === 0) return null;
  const mapData: MapData = {
    provinces: provinces.data,
  };
  try {
    return new GameMap(mapData);
  } catch (e) {
    if (!(e instanceof MapDataError)) throw e;
    for (const problem of e.problems) c.add("adjacency", problem);
    return null;
  }
}

function readStartUnits(
  c: Checker,
  v: unknown,
  powers: ReadonlySet<string>,
  info: ReadonlyMap<string, ProvinceInfo>,
  map: GameMap | null,
): Unit[] {
  const units: Unit[] = [];
  if (v === undefined) return units;
  if (!isRecord(v)) {
    c.add("startUnits", `must be an object of power: ["A par", ...], not ${q(v)}`);
    return units;
  }
  const taken = new Map<string, string>();
  for (const [power, list] of Object.entries(v)) {
    const path = `startUnits.${power}`;
    if (!powers.has(power)) {
      c.add(path, `${q(power)} is not a power (powers: ${[...powers].join(", ")})`);
      continue;
    }
    const pid = powerId(power);
    if (!Array.isArray(list)) {
      c.add(path, `must be an array of units like "A par", not ${q(list)}`);
      continue;
    }
    list.forEach((t, k) => {
      const at = `${path}[${k}]`;
      const u = readStartUnit(c, t, at, pid, info);
      if (!u) return;
      const prev = taken.get(u.province);
      if (prev) {
        c.add(at, `${q(t)}: ${u.province} already holds a unit (${prev})`);
        return;
      }
      taken.set(u.province, `${at} ${q(t)}`);
      units.push(u);
    });
    if (map) {
      const homes = map.homeCenters(pid).length;
      if (list.length > homes)
        c.add(path, `${list.length} units but only ${homes} home centre${homes === 1 ? "" : "s"}`);
    }
  }
  return units;
}

function readStartUnit(
  c: Checker,
  t: unknown,
  at: string,
  power: PowerId,
  info: ReadonlyMap<string, ProvinceInfo>,
): Unit | null {
  if (typeof t !== "string") {
    c.add(at, `a unit is a string like "A par" or "F stp/sc", not ${q(t)}`);
    return null;
  }
  const m = UNIT_TEXT.exec(t);
  if (!m) {
    c.add(at, `${q(t)}: write TYPE ID[/COAST], e.g. "A par" or "F stp/sc"`);
    return null;
  }
  const type = m[1] as UnitType;
  const id = m[2]!;
  const coast = (m[3] ?? null) as Coast | null;
  const p = info.get(id);
  if (!p || p.kind === null) {
    c.add(at, `${q(id)} is not a province`);
    return null;
  }
  if (p.impassable) {
    c.add(at, `${q(t)}: ${p.name} is impassable`);
    return null;
  }
  if (type === "A") {
    if (p.kind === "sea") c.add(at, `${q(t)}: an army cannot stand in ${p.name} (a sea)`);
    else if (coast !== null) c.add(at, `${q(t)}: an army stands on no coast; write "A ${id}"`);
    else return { power, type, province: provinceId(id), coast: null };
    return null;
  }
  if (p.kind === "land") {
    c.add(at, `${q(t)}: a fleet cannot stand in ${p.name} (inland)`);
    return null;
  }
  if (p.coasts.length > 0) {
    if (coast === null)
      c.add(
        at,
        `${q(t)}: a fleet in ${p.name} needs its coast: ${p.coasts.map((x) => q(`F ${id}/${x}`)).join(" or ")}`,
      );
    else if (!p.coasts.includes(coast))
      c.add(at, `${q(t)}: ${p.name} has no ${coast} coast (it has ${p.coasts.join(", ")})`);
    else return { power, type, province: provinceId(id), coast };
    return null;
  }
  if (coast !== null) {
    c.add(at, `${q(t)}: ${p.name} has no separate coasts; write "F ${id}"`);
    return null;
  }
  return { power, type, province: provinceId(id), coast: null };
}

const locText = (l: Location): string => (l.coast ? `${l.province}/${l.coast}` : l.province);

/**
 * A variant written back in the data format (for `variant show`-style exports and round-trip
 * tests). Land with no neighbours is written impassable.
 */
export function variantToData(v: Variant): VariantData {
  const provinces: VariantProvinceData[] = v.map.provinces.map((p) => {
    const at = { province: p.id, coast: null };
    const army = v.map.armyNeighbours(p.id).map(String);
    const coasts =
      p.coasts.length > 0
        ? Object.fromEntries(
            p.coasts.map((c) => [
              c,
              v.map.fleetNeighbours({ province: p.id, coast: c }).map(locText),
            ]),
          )
        : undefined;
    const fleet = coasts ? [] : v.map.fleetNeighbours(at).map(locText);
    return {
      id: p.id,
      name: p.name,
      ...(p.aliases.length > 0 ? { aliases: [...p.aliases] } : {}),
      kind: p.kind,
      ...(p.supplyCenter ? { supplyCenter: true } : {}),
      ...(p.home !== null ? { home: p.home } : {}),
      army,
      fleet,
      ...(coasts ? { coasts } : {}),
      ...(p.impassable ? { impassable: true } : {}),
    };
  });
  const startUnits: Record<string, string[]> = {};
  for (const p of v.powers) {
    const list = v.start.units
      .filter((u) => u.power === p.id)
      .map((u) => `${u.type} ${locText(u)}`);
    if (list.length > 0) startUnits[p.id] = list;
  }
  return {
    id: v.id,
    name: v.name,
    victoryCenters: v.victoryCenters,
    startPhase: phaseName(v.start.phase),
    powers: v.powers.map((p) => ({
      id: p.id,
      name: p.name,
      adjective: p.adjective,
      letter: p.letter,
      ...(p.aliases && p.aliases.length > 0 ? { aliases: [...p.aliases] } : {}),
    })),
    provinces,
    startUnits,
    ...(v.rules ? { rules: { ...(v.rules as Record<string, string | boolean>) } } : {}),
  };
}

/** Counts for reports: provinces by kind, centres, undirected edges. */
export interface VariantSummary {
  readonly provinces: number;
  readonly land: number;
  readonly coast: number;
  readonly sea: number;
  readonly impassable: readonly ProvinceId[];
  readonly splitCoasts: readonly ProvinceId[];
  readonly centres: number;
  readonly homeCentres: number;
  readonly neutralCentres: readonly ProvinceId[];
  /** Pairs of provinces an army can move between. */
  readonly armyEdges: number;
  /** Pairs of locations (coasts counted apart) a fleet can move between. */
  readonly fleetEdges: number;
}

export function summarize(v: Variant): VariantSummary {
  const ps = v.map.provinces;
  let army = 0;
  let fleet = 0;
  for (const p of ps) {
    for (const n of v.map.armyNeighbours(p.id)) if (p.id < n) army++;
    const locs: Location[] =
      p.coasts.length > 0
        ? p.coasts.map((c) => ({ province: p.id, coast: c }))
        : [{ province: p.id, coast: null }];
    for (const l of locs) {
      for (const n of v.map.fleetNeighbours(l)) if (locText(l) < locText(n)) fleet++;
    }
  }
  const centres = v.map.supplyCenters;
  return {
    provinces: ps.length,
    land: ps.filter((p) => p.kind === "land").length,
    coast: ps.filter((p) => p.kind === "coast").length,
    sea: ps.filter((p) => p.kind === "sea").length,
    impassable: ps.filter((p) => p.impassable).map((p) => p.id),
    splitCoasts: ps.filter((p) => p.coasts.length > 0).map((p) => p.id),
    centres: centres.length,
    homeCentres: centres.filter((p) => p.home !== null).length,
    neutralCentres: centres.filter((p) => p.home === null).map((p) => p.id),
    armyEdges: army,
    fleetEdges: fleet,
  };
}
