/*
 * The provinces of a variant file read and checked (data.ts): ids, names (no two spelled
 * alike as the order reader sees them, none an order word), kinds, centres and homes, the
 * army and fleet neighbours and split coasts, each problem with its path; then the
 * `GameMap` of what is sound, whose own checks (symmetric adjacency) are passed through.
 */
import { GameMap, type MapData, MapDataError } from "../engine/map.ts";
import { COASTS, type Coast, type ProvinceKind } from "../engine/types.ts";
import { type Checker, isRecord, q } from "./data-check.ts";
import { PROVINCE_FIELDS, REQUIRED_PROVINCE, type VariantProvinceData } from "./data-format.ts";

const KINDS: readonly ProvinceKind[] = ["land", "sea", "coast"];

/** Province ids: what position JSON reads as a unit's place (`A lon`, `F stp/sc`). */
const PROVINCE_ID = /^[a-z]{2,4}$/;

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
export interface ProvinceInfo {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly kind: ProvinceKind | null;
  readonly coasts: readonly Coast[];
  readonly impassable: boolean;
}

export interface ProvincesRead {
  /** Per id, what the checks need; duplicates keep the first. */
  readonly info: ReadonlyMap<string, ProvinceInfo>;
  /** Each province once, with only its sound fields and references, for the map. */
  readonly data: readonly VariantProvinceData[];
  /** Whether any province had a problem (then no variant is built). */
  readonly broken: boolean;
}

export function readProvinces(c: Checker, v: unknown, powers: ReadonlySet<string>): ProvincesRead {
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
    const army = checkPlaces(c, p.army, `${path}.army`, armyProblem(self, info));
    const split = p.coasts !== undefined;
    const fleet = checkPlaces(c, p.fleet, `${path}.fleet`, fleetProblem(self, info));
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
          const list = checkPlaces(c, p.coasts[k], `${path}.coasts.${k}`, fleetProblem(self, info));
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

/**
 * A list of places, each checked by `why` (what is wrong with it, given the places listed
 * before it; null when it is sound); only the sound ones are returned.
 */
function checkPlaces(
  c: Checker,
  v: unknown,
  path: string,
  why: (t: string, seen: ReadonlySet<string>) => string | null,
): string[] | null {
  const list = c.stringList(v, path);
  if (!list) return null;
  const out: string[] = [];
  const seen = new Set<string>();
  list.forEach((t, k) => {
    const problem = why(t, seen);
    if (problem === null) out.push(t);
    else c.add(`${path}[${k}]`, problem);
    seen.add(t);
  });
  return out;
}

/** The provinces by id, as the checks of a list of places read them. */
type Places = ReadonlyMap<string, ProvinceInfo>;

/** What is wrong with an army neighbour `t` of province `self` (null: nothing). */
const armyProblem =
  (self: string, info: Places) =>
  (t: string, seen: ReadonlySet<string>): string | null => {
    const other = info.get(t);
    if (!other) return `${q(t)} is not a province`;
    if (t === self) return "a province is not its own neighbour";
    if (seen.has(t)) return `${q(t)} is listed twice`;
    if (other.kind === "sea") return `${q(t)} is a sea: armies cannot go there`;
    if (other.impassable) return `${q(t)} is impassable`;
    return null;
  };

/** What is wrong with a fleet destination `t` (`lon`, `stp/nc`) of `self` (null: nothing). */
const fleetProblem =
  (self: string, info: Places) =>
  (t: string, seen: ReadonlySet<string>): string | null => {
    const [p, coast, extra] = t.split("/");
    const other = info.get(p ?? "");
    if (extra !== undefined || coast === "") return `${q(t)}: write a place as "lon" or "stp/nc"`;
    if (!other) return `${q(p)} is not a province`;
    if (p === self) return "a province is not its own neighbour";
    if (seen.has(t)) return `${q(t)} is listed twice`;
    if (other.kind === "land")
      return `${q(p)} is ${other.impassable ? "impassable" : "inland"}: fleets cannot go there`;
    if (coast === undefined && other.coasts.length > 0)
      return `${q(p)} has coasts: write ${other.coasts.map((x) => q(`${p}/${x}`)).join(" or ")}`;
    if (coast !== undefined && other.coasts.length === 0)
      return `${q(p)} has no separate coasts: write ${q(p)}`;
    if (coast !== undefined && !other.coasts.includes(coast as Coast))
      return `${other.name} has no ${q(coast)} coast (it has ${other.coasts.join(", ")})`;
    return null;
  };

/**
 * The `GameMap` of what is sound in the provinces; its own problems (symmetry) are passed
 * through. Built even when some provinces had problems, for the checks that need a map.
 */
export function buildMap(c: Checker, provinces: ProvincesRead): GameMap | null {
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
