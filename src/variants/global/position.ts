/*
 * Global Diplomacy's position JSON (docs/global.md): a state read from it (every field
 * checked, each error saying what is right) and written back, the `orders`, `reports` and
 * `rules` fields of an adjudication's input, and a turn's result as output JSON.
 */
import type { GlobalMap } from "./map.ts";
import { GlobalMap as MapClass } from "./map.ts";
import { initialState, pairKey, victoryPoints } from "./state.ts";
import type {
  AccessGrant,
  AreaId,
  CallToArms,
  GameState,
  GlobalRules,
  Penalty,
  PowerId,
  Relation,
  TurnResult,
  Unit,
  UnitKind,
  Vote,
} from "./types.ts";
import { DEFAULT_RULES, UNIT_LETTERS } from "./types.ts";

/** A position JSON that cannot be read: the message says what was wrong and what is right. */
export class GlobalPositionError extends Error {}

const KIND_BY_LETTER: Readonly<Record<string, UnitKind>> = {
  A: "army",
  C: "corps",
  F: "fleet",
  S: "squadron",
};

type Json = Record<string, unknown>;

function isObj(x: unknown): x is Json {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** A power named by number ("3") or by name ("England", case-insensitive). */
export function readPower(map: GlobalMap, key: string, where: string): PowerId {
  const n = Number(key);
  if (Number.isInteger(n) && map.power(n)) return n;
  const k = key.trim().toLowerCase();
  const p = map.powers.find(
    (x) =>
      x.name.toLowerCase() === k ||
      x.name.toLowerCase().replace(/[^a-z]/g, "") === k.replace(/[^a-z]/g, ""),
  );
  if (p) return p.id;
  throw new GlobalPositionError(
    `${where}: unknown power ${JSON.stringify(key)}; powers are ${map.powers.map((x) => `${x.id} ${x.name}`).join(", ")}`,
  );
}

function readArea(map: GlobalMap, x: unknown, where: string): AreaId {
  const n = typeof x === "string" ? Number(x) : x;
  if (typeof n !== "number" || !Number.isInteger(n) || !map.area(n))
    throw new GlobalPositionError(
      `${where}: ${JSON.stringify(x)} is not an area number of this map`,
    );
  return n;
}

/**
 * Reads the position JSON extension for Global Diplomacy (docs/global.md). Every field is
 * optional; an absent one is the map's start (owners, units, initial victory points) or
 * empty (relations, grants, calls, penalties, votes).
 */
export function readGlobalPosition(map: GlobalMap, input: Json): GameState {
  const start = initialState(map, 1);
  const turn = input.turn ?? 1;
  if (typeof turn !== "number" || !Number.isInteger(turn) || turn < 1)
    throw new GlobalPositionError(
      `turn must be a whole number from 1, not ${JSON.stringify(turn)}`,
    );
  const seed = input.seed ?? 1;
  if (typeof seed !== "number" || !Number.isInteger(seed))
    throw new GlobalPositionError(`seed must be a whole number, not ${JSON.stringify(seed)}`);
  /** A field that is an object: its entries, or undefined where it is absent. */
  const entries = (name: string, form: string): [string, unknown][] | undefined => {
    const v = input[name];
    if (v === undefined) return undefined;
    if (!isObj(v)) throw new GlobalPositionError(`${name} must be ${form}`);
    return Object.entries(v);
  };
  let owners: Record<AreaId, PowerId> = { ...start.owners };
  const ownerEntries = entries("owners", 'an object of area number to power, e.g. {"17": 4}');
  if (ownerEntries) {
    owners = {};
    for (const [a, p] of ownerEntries) {
      const area = readArea(map, a, "owners");
      if (map.area(area)!.kind === "sea")
        throw new GlobalPositionError(
          `owners: ${map.areaName(area)} is a sea area; seas are only occupied`,
        );
      owners[area] = readPower(map, String(p), `owners.${a}`);
    }
  }
  let units: Unit[] = [...start.units];
  const unitsForm = 'an object of power to unit list, e.g. {"3": ["F 233", "A 16"]}';
  const unitEntries = entries("units", unitsForm);
  if (unitEntries) {
    units = [];
    const seen = new Set<AreaId>();
    for (const [pk, list] of unitEntries) {
      const power = readPower(map, pk, "units");
      if (!Array.isArray(list))
        throw new GlobalPositionError(`units.${pk} must be a list like ["F 233"]`);
      for (const t of list) {
        const m = typeof t === "string" ? /^\s*([ACFS])\s+(\d+)\s*$/i.exec(t) : null;
        if (!m)
          throw new GlobalPositionError(
            `units.${pk}: ${JSON.stringify(t)} is not a unit; write a letter (${Object.entries(
              UNIT_LETTERS,
            )
              .map(([k, l]) => `${l} ${k}`)
              .join(", ")}) and an area number, e.g. "F 233"`,
          );
        const kind = KIND_BY_LETTER[m[1]!.toUpperCase()]!;
        const area = readArea(map, m[2], `units.${pk}`);
        if (!MapClass.allowed(kind, map.area(area)!.kind))
          throw new GlobalPositionError(
            `units.${pk}: a ${kind} cannot stand in ${map.areaName(area)} (${map.area(area)!.kind})`,
          );
        if (seen.has(area)) throw new GlobalPositionError(`units: two units in area ${area}`);
        seen.add(area);
        units.push({ area, power, kind });
      }
    }
    units.sort((a, b) => a.area - b.area);
  }
  const relations: Record<string, Relation> = {};
  const relationsForm = 'an object like {"3-4": "war", "1-5": "alliance"}';
  for (const [k, r] of entries("relations", relationsForm) ?? []) {
    const m = /^(\w[\w -]*?)-(\w[\w -]*)$/.exec(k);
    if (!m)
      throw new GlobalPositionError(
        `relations: key ${JSON.stringify(k)} must be two powers joined by "-", e.g. "3-4"`,
      );
    const a = readPower(map, m[1]!, "relations");
    const b = readPower(map, m[2]!, "relations");
    if (a === b) throw new GlobalPositionError(`relations: ${k} names one power twice`);
    if (r !== "war" && r !== "alliance" && r !== "neutral")
      throw new GlobalPositionError(
        `relations.${k} must be "war", "alliance" or "neutral", not ${JSON.stringify(r)}`,
      );
    if (r !== "neutral") relations[pairKey(a, b)] = r;
  }
  const list = (name: string): Json[] => {
    const v = input[name];
    if (v === undefined) return [];
    if (!Array.isArray(v) || !v.every(isObj))
      throw new GlobalPositionError(`${name} must be a list of objects`);
    return v as Json[];
  };
  const access: AccessGrant[] = list("access").map((g, i) => {
    const areas = g.areas ?? "all";
    return {
      grantor: readPower(map, String(g.grantor), `access[${i}].grantor`),
      grantee: readPower(map, String(g.grantee), `access[${i}].grantee`),
      areas:
        areas === "all"
          ? "all"
          : Array.isArray(areas)
            ? areas.map((a) => readArea(map, a, `access[${i}].areas`))
            : (() => {
                throw new GlobalPositionError(
                  `access[${i}].areas must be "all" or a list of area numbers`,
                );
              })(),
    };
  });
  const calls: CallToArms[] = list("calls").map((c, i) => ({
    caller: readPower(map, String(c.caller), `calls[${i}].caller`),
    ally: readPower(map, String(c.ally), `calls[${i}].ally`),
    enemy: readPower(map, String(c.enemy), `calls[${i}].enemy`),
    turn: typeof c.turn === "number" ? c.turn : turn - 1,
  }));
  const penalties: Penalty[] = list("penalties").map((p, i) => {
    if (typeof p.percent !== "number" || p.percent < 0 || p.percent > 100)
      throw new GlobalPositionError(`penalties[${i}].percent must be a number from 0 to 100`);
    return { power: readPower(map, String(p.power), `penalties[${i}].power`), percent: p.percent };
  });
  const votes: Record<PowerId, Vote> = {};
  const votesForm = 'an object like {"3": {"turns": 20, "percent": 400}}';
  for (const [k, v] of entries("votes", votesForm) ?? []) {
    if (!isObj(v) || typeof v.turns !== "number" || typeof v.percent !== "number")
      throw new GlobalPositionError(`votes.${k} must be {"turns": N, "percent": P}`);
    votes[readPower(map, k, "votes")] = { turns: v.turns, percent: v.percent };
  }
  const state: GameState = {
    variant: map.data.id,
    turn,
    owners,
    units,
    relations,
    access,
    calls,
    penalties,
    votes,
    initialVP: start.initialVP,
    seed,
  };
  const initialVP: Record<PowerId, number> = { ...start.initialVP };
  for (const [k, v] of entries("initialVP", 'an object like {"3": 24}') ?? []) {
    if (typeof v !== "number" || v <= 0)
      throw new GlobalPositionError(`initialVP.${k} must be a positive number`);
    initialVP[readPower(map, k, "initialVP")] = v;
  }
  const winners = Array.isArray(input.winners)
    ? input.winners.map((w) => readPower(map, String(w), "winners"))
    : undefined;
  return { ...state, initialVP, ...(winners ? { winners } : {}) };
}

export function readGlobalRules(x: unknown): GlobalRules {
  if (x === undefined || typeof x === "string") return DEFAULT_RULES;
  if (!isObj(x)) throw new GlobalPositionError("rules must be an object");
  const c = x.convoyDisruption ?? DEFAULT_RULES.convoyDisruption;
  if (c !== "7.6" && c !== "5.5")
    throw new GlobalPositionError(
      `rules.convoyDisruption must be "7.6" or "5.5", not ${JSON.stringify(c)}`,
    );
  return { convoyDisruption: c };
}

/**
 * The `orders` of a position JSON: each power's command lines, the power by number or name.
 * `who` is what the errors call a power ("power"; "player" on a discovery map).
 */
export function readOrders(map: GlobalMap, x: unknown, who: string): Record<PowerId, string[]> {
  const orders: Record<PowerId, string[]> = {};
  if (x === undefined) return orders;
  if (!isObj(x))
    throw new GlobalPositionError(
      `orders must be an object of ${who} to command lines, e.g. {"3": ["MO 16 17"]}`,
    );
  for (const [k, lines] of Object.entries(x)) {
    if (!Array.isArray(lines) || !lines.every((l) => typeof l === "string"))
      throw new GlobalPositionError(`orders.${k} must be a list of command lines`);
    const p = readPower(map, k, "orders");
    orders[p] = [...(orders[p] ?? []), ...(lines as string[])];
  }
  return orders;
}

/**
 * The powers whose reports the `reports` field of a position JSON asks for: true for every
 * power, or a list; null when it asks for none (absent or false). `who` as for `readOrders`.
 */
export function readReportPowers(map: GlobalMap, want: unknown, who: string): PowerId[] | null {
  if (want === undefined || want === false) return null;
  if (want === true) return map.powers.map((p) => p.id);
  if (Array.isArray(want)) return want.map((w) => readPower(map, String(w), "reports"));
  throw new GlobalPositionError(`reports must be true or a list of ${who}s`);
}

/** A state as position JSON (the `next` of an adjudication). */
export function writeGlobalPosition(state: GameState): Json {
  const units: Record<string, string[]> = {};
  for (const u of state.units) {
    const k = String(u.power);
    units[k] = [...(units[k] ?? []), `${UNIT_LETTERS[u.kind]} ${u.area}`];
  }
  return {
    variant: state.variant,
    turn: state.turn,
    seed: state.seed,
    owners: state.owners,
    units,
    relations: state.relations,
    ...(state.access.length > 0 ? { access: state.access } : {}),
    calls: state.calls,
    penalties: state.penalties,
    votes: state.votes,
    initialVP: state.initialVP,
    ...(state.winners ? { winners: state.winners } : {}),
  };
}

/** Command results grouped by power, as the output JSON gives them. */
export function writeTurnResult(r: TurnResult): Json {
  const results: Record<string, { text: string; status: string; reason?: string }[]> = {};
  for (const x of r.results) {
    const k = String(x.power);
    results[k] = [
      ...(results[k] ?? []),
      { text: x.text, status: x.status, ...(x.reason ? { reason: x.reason } : {}) },
    ];
  }
  return {
    turn: r.turn,
    results,
    units: r.outcomes.map((o) => ({
      power: o.power,
      unit: `${UNIT_LETTERS[o.kind]} ${o.from}`,
      to: o.to,
      ...(o.mark ? { mark: o.mark } : {}),
    })),
    battles: r.battles,
    news: r.news,
    next: writeGlobalPosition(r.after),
  };
}

export { victoryPoints };
