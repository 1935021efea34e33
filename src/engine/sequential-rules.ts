/*
 * The rule options of sequential movement (seed 003, docs/sequential.md) that are not one
 * value out of a list: the GM's schedule, the contracts, the seed of generated schedules.
 * `readRules` (rules.ts) hands these keys here; whether the powers named exist in the variant
 * is checked when a phase is adjudicated (`checkSequential` in sequential.ts).
 */

/** One season's order of resolution (power ids, the first resolved first), or simultaneous. */
export type SeasonSchedule = readonly string[] | "simultaneous";

/** Pairs of powers that declared a support contract to the GM. */
export type Contracts = readonly (readonly [string, string])[];

/**
 * `schedule`: the season being adjudicated (a list of powers, or `"simultaneous"`), or the
 * GM's choices by season (`{"S1901": [...], "F1903": "simultaneous"}`); a season the GM did
 * not set gets the generated schedule.
 */
export type ScheduleOption = SeasonSchedule | Readonly<Record<string, SeasonSchedule>>;

/** `contracts`: the season being adjudicated, or by season (`{"S1901": [["austria", "russia"]]}`). */
export type ContractsOption = Contracts | Readonly<Record<string, Contracts>>;

/** The structured option keys read here. */
export const SEQUENTIAL_OPTION_KEYS: readonly string[] = ["schedule", "contracts", "scheduleSeed"];

/** `S1901`, `F1903` (a movement phase's name without its `M` is accepted with it too). */
const SEASON_RE = /^([SF])(\d{1,5})M?$/i;

/** The canonical key of a season written by a user (`s1901m` -> `S1901`), or null. */
export function seasonKeyOf(text: string): string | null {
  const m = SEASON_RE.exec(text.trim());
  return m ? `${m[1]!.toUpperCase()}${Number(m[2])}` : null;
}

type Read = { ok: true; value: unknown } | { ok: false; error: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function readSeasonSchedule(v: unknown, where: string): Read {
  if (v === "simultaneous") return { ok: true, value: v };
  if (!Array.isArray(v) || v.length === 0 || v.some((p) => typeof p !== "string")) {
    return {
      ok: false,
      error: `${where} must be a list of powers in the order their orders are resolved (["france", "germany", ...]) or "simultaneous"`,
    };
  }
  const powers = (v as string[]).map((p) => p.trim().toLowerCase());
  const twice = powers.find((p, i) => powers.indexOf(p) !== i);
  if (twice) return { ok: false, error: `${where} names ${twice} twice` };
  return { ok: true, value: powers };
}

function readContracts(v: unknown, where: string): Read {
  const shape = `${where} must be a list of pairs of powers, e.g. [["austria", "russia"]]`;
  if (!Array.isArray(v)) return { ok: false, error: shape };
  const out: [string, string][] = [];
  for (const pair of v) {
    if (!Array.isArray(pair) || pair.length !== 2 || pair.some((p) => typeof p !== "string"))
      return { ok: false, error: shape };
    const [a, b] = (pair as string[]).map((p) => p.trim().toLowerCase()) as [string, string];
    if (a === b)
      return { ok: false, error: `${where}: a contract is between two powers, not ${a} and ${a}` };
    out.push([a, b]);
  }
  return { ok: true, value: out };
}

/** A value, or values by season (keys checked and made canonical). */
function bySeason(v: unknown, name: string, read: (v: unknown, where: string) => Read): Read {
  if (!isRecord(v)) return read(v, name);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const key = seasonKeyOf(k);
    if (!key)
      return {
        ok: false,
        error: `${name}: "${k}" is not a season; write the season as S1901 or F1901`,
      };
    const r = read(x, `${name}.${key}`);
    if (!r.ok) return r;
    out[key] = r.value;
  }
  return { ok: true, value: out };
}

/**
 * Reads one of the structured options of sequential movement. `undefined` when `key` is not
 * one of them (the caller goes on with the options that take one value out of a list).
 */
export function readSequentialOption(key: string, value: unknown): Read | undefined {
  switch (key) {
    case "schedule":
      return bySeason(value, "schedule", readSeasonSchedule);
    case "contracts":
      return bySeason(value, "contracts", readContracts);
    case "scheduleSeed":
      return typeof value === "number" && Number.isInteger(value)
        ? { ok: true, value }
        : { ok: false, error: "scheduleSeed must be an integer" };
    default:
      return undefined;
  }
}
