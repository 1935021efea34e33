/*
 * Variants as data: a JSON document that describes a whole variant (powers, provinces with
 * their adjacency, the start), checked field by field before it becomes a `Variant`.
 *
 * The format is published as a JSON Schema in docs/variant.schema.json; `loadVariant` checks
 * everything the schema says and everything a schema cannot (references between provinces,
 * home centres of real powers, start units on legal places, symmetric adjacency), and names
 * the path of each problem: `provinces[12].army[3]: "bur" is not a province`.
 *
 * This file reads the document's top level, its powers, rule defaults and start units;
 * data-provinces.ts its provinces and map; data-format.ts has the format's types.
 */
import type { GameMap } from "../engine/map.ts";
import { parsePhase } from "../engine/phase.ts";
import { powerKey } from "../engine/powers.ts";
import { OPTION_VALUES, type RuleOptions } from "../engine/rules.ts";
import {
  type Coast,
  type Phase,
  type Position,
  type Power,
  type PowerId,
  powerId,
  provinceId,
  type Unit,
  type UnitType,
} from "../engine/types.ts";
import { Checker, isRecord, q } from "./data-check.ts";
import {
  type LoadResult,
  POWER_FIELDS,
  REQUIRED_POWER,
  REQUIRED_VARIANT,
  VARIANT_FIELDS,
} from "./data-format.ts";
import { buildMap, type ProvinceInfo, readProvinces } from "./data-provinces.ts";

const POWER_ID = /^[a-z][a-z0-9_-]*$/;
const VARIANT_ID = /^[a-z][a-z0-9_-]*$/;
const UNIT_TEXT = /^([AF]) ([a-z]{2,4})(?:\/([a-z]{2}))?$/;

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
