import { randomInt } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { parsePhase } from "../engine/phase.ts";
import { findPowerByName } from "../engine/powers.ts";
import type { GameRecord, PhaseRecord } from "../engine/record.ts";
import type { RuleOptions } from "../engine/rules.ts";
import {
  type Contracts,
  readSequentialOption,
  type SeasonSchedule,
  seasonKeyOf,
} from "../engine/sequential-rules.ts";
import {
  hideSchedule,
  seasonKey,
  seasonPlan,
  sequentialIndex,
} from "../engine/sequential-schedule.ts";
import type { Phase, PowerId } from "../engine/types.ts";
import type { ContractsTable, DB } from "../store/schema.ts";
import { conflict, forbidden, invalid, notFound } from "./errors.ts";
import type { GameData } from "./game-data.ts";
import type { Emit, RuleViewer } from "./viewer.ts";

/*
 * Sequential movement (seed 003) in a judge game: the schedule and the contracts are the
 * judge's, kept from the players (docs/sequential.md, "In a judge game").
 *
 * - The schedule: the GM may set a season's order of resolution or make it simultaneous
 *   (table `schedules`); any other season gets the generated schedule, seeded per game (the
 *   game's `scheduleSeed`, drawn from the game's seed when it is created).
 * - Contracts: each power declares its side (table `contracts`), for one season, a run of
 *   seasons or until withdrawn; a contract counts in a season when both sides' declarations
 *   cover it. Declarations can be made and withdrawn until the season is adjudicated.
 * - At adjudication the judge plays the phase with the game's rules plus the GM's schedules
 *   and the contracts that count, by season (`effectiveRules`): that is also the GM's record,
 *   which replays exactly.
 * - Players, observers and anyone else see none of it: the rules without the schedule, the
 *   contracts and the seed; results without slots (`hideSchedule`). Players see their own
 *   declarations and whether the other side matched them.
 */

type ContractRow = Selectable<ContractsTable>;

/** What the judge keeps for a sequential game. */
export interface SequentialData {
  /** The GM's schedules by season (`S1901`). */
  readonly schedules: ReadonlyMap<string, SeasonSchedule>;
  readonly contracts: readonly ContractRow[];
}

export const isSequential = (rules: RuleOptions): boolean => rules.movement === "sequential";

// ---------------------------------------------------------------------------------------------
// Creating a game

/**
 * A new game's rules: with sequential movement, the schedule and contracts are refused (the
 * GM and the players give them through the API, and the rules are shown to everyone), and
 * the game gets its own schedule seed unless the GM gave one. It is drawn apart from the
 * game's seed, which players are shown when the game ends: the schedules are never told.
 */
export function sequentialGameRules(rules: RuleOptions): RuleOptions {
  if (!isSequential(rules)) return rules;
  if (rules.schedule !== undefined || rules.contracts !== undefined) {
    throw invalid(
      "in a judge game the schedule and the contracts are kept from the players, so they are not part of the rules: leave out schedule and contracts; the GM sets a season's schedule with POST /api/games/{id}/schedule/{season}, and players declare contracts with POST /api/games/{id}/contracts",
    );
  }
  if (rules.scheduleSeed !== undefined) return rules;
  return { ...rules, scheduleSeed: randomInt(2 ** 31) };
}

// ---------------------------------------------------------------------------------------------
// Seasons

/** `S1901` -> 3802: seasons in order. */
function ordinal(key: string): number {
  return Number(key.slice(1)) * 2 + (key[0] === "F" ? 1 : 0);
}

function keyOf(ord: number): string {
  return `${ord % 2 === 0 ? "S" : "F"}${Math.floor(ord / 2)}`;
}

const phaseOf = (key: string): Phase => ({
  season: key[0] as "S" | "F",
  year: Number(key.slice(1)),
  type: "M",
});

/**
 * The first season whose movement has not been adjudicated: the open phase's if it is a
 * movement phase, else the next spring or fall.
 */
export function nextSeason(g: GameData): string {
  const p = parsePhase(g.state.phase) ?? g.scenario.variant.start.phase;
  if (p.type === "M") return seasonKey(p);
  return p.season === "S" || p.season === "U" ? `F${p.year}` : `S${p.year + 1}`;
}

/** A season as a user wrote it, checked to be one still to be adjudicated. */
function futureSeason(g: GameData, text: string, what: string): string {
  const key = seasonKeyOf(text);
  if (!key) throw invalid(`${what}: "${text}" is not a season; write it as S1901 or F1901`);
  const start = seasonKey(g.scenario.variant.start.phase);
  if (ordinal(key) < ordinal(start)) throw invalid(`${what}: the game starts in ${start}`);
  const next = nextSeason(g);
  if (ordinal(key) < ordinal(next)) {
    throw conflict(`${what}: ${key} has been adjudicated; the first season still open is ${next}`);
  }
  return key;
}

// ---------------------------------------------------------------------------------------------
// Reading what is stored, and the rules a phase is played with

export async function loadSequential(db: Kysely<DB>, gameId: string): Promise<SequentialData> {
  const rows = await db
    .selectFrom("schedules")
    .select(["season", "schedule"])
    .where("game_id", "=", gameId)
    .execute();
  const contracts = await db
    .selectFrom("contracts")
    .selectAll()
    .where("game_id", "=", gameId)
    .orderBy("id")
    .execute();
  const schedules = new Map<string, SeasonSchedule>();
  for (const r of rows) schedules.set(r.season, JSON.parse(r.schedule) as SeasonSchedule);
  return { schedules, contracts };
}

/** Whether a declaration covers a season. */
function covers(d: ContractRow, season: string): boolean {
  const s = ordinal(season);
  return (
    ordinal(d.from_season) <= s &&
    (d.until_season === null || s <= ordinal(d.until_season)) &&
    (d.withdrawn_from === null || s < ordinal(d.withdrawn_from))
  );
}

/** The contracts that count in a season: both powers declared one covering it. */
export function matchedContracts(rows: readonly ContractRow[], season: string): [string, string][] {
  const live = rows.filter((d) => covers(d, season));
  const pairs = new Map<string, [string, string]>();
  for (const d of live) {
    if (!live.some((e) => e.power === d.partner && e.partner === d.power)) continue;
    const pair = [d.power, d.partner].sort() as [string, string];
    pairs.set(pair.join(" "), pair);
  }
  return [...pairs.values()].sort((a, b) => a.join(" ").localeCompare(b.join(" ")));
}

/**
 * The rules the game is played with: its own, plus the GM's schedules (each list completed
 * with the powers it leaves out, last, in the variant's order, as the engine would place
 * them) and the contracts that count, by season, up to the first season not yet adjudicated.
 */
export function effectiveRules(g: GameData, data: SequentialData): RuleOptions {
  const rules = g.record.rules;
  if (!isSequential(rules)) return rules;
  const powers = g.scenario.variant.powers.map((p) => p.id as string);
  const schedule: Record<string, SeasonSchedule> = {};
  for (const [season, s] of [...data.schedules].sort((a, b) => ordinal(a[0]) - ordinal(b[0]))) {
    schedule[season] =
      s === "simultaneous" ? s : [...s, ...powers.filter((p) => !(s as string[]).includes(p))];
  }
  const contracts: Record<string, Contracts> = {};
  if (data.contracts.length > 0) {
    const first = Math.min(...data.contracts.map((d) => ordinal(d.from_season)));
    for (let o = first; o <= ordinal(nextSeason(g)); o++) {
      const m = matchedContracts(data.contracts, keyOf(o));
      if (m.length > 0) contracts[keyOf(o)] = m;
    }
  }
  const { schedule: _s, contracts: _c, ...rest } = rules;
  return {
    ...rest,
    ...(Object.keys(schedule).length > 0 ? { schedule } : {}),
    ...(Object.keys(contracts).length > 0 ? { contracts } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// What each viewer sees

const isGm = (v: RuleViewer): boolean => v.role === "gm";

/** The game's rules as this viewer may read them: without the schedule, contracts and seed. */
export function rulesFor(v: RuleViewer, rules: RuleOptions): RuleOptions {
  if (!isSequential(rules) || isGm(v)) return rules;
  const { schedule: _s, contracts: _c, scheduleSeed: _seed, ...shown } = rules;
  return shown;
}

/** Phase records as this viewer may read them: results that do not tell the schedule. */
export function phasesFor(
  v: RuleViewer,
  rules: RuleOptions,
  phases: readonly PhaseRecord[],
): PhaseRecord[] {
  if (!isSequential(rules) || isGm(v)) return [...phases];
  return phases.map((p) => ({
    ...p,
    results: Object.fromEntries(
      Object.entries(p.results).map(([power, list]) => [
        power,
        list.map((r) => ({
          ...r,
          ...(r.reason !== undefined ? { reason: hideSchedule(r.reason) } : {}),
          ...(r.explanation !== undefined ? { explanation: hideSchedule(r.explanation) } : {}),
        })),
      ]),
    ),
  }));
}

/**
 * The game record as this viewer may read it. The GM's has the rules every phase was played
 * with (schedules and contracts included), so it replays exactly; anyone else's has neither
 * those nor the slots in the results.
 */
export function sequentialRecord(v: RuleViewer, g: GameData, data: SequentialData): GameRecord {
  const rules = g.record.rules;
  if (!isSequential(rules)) return g.record;
  if (isGm(v)) return { ...g.record, rules: effectiveRules(g, data) };
  return { ...g.record, rules: rulesFor(v, rules), phases: phasesFor(v, rules, g.record.phases) };
}

// ---------------------------------------------------------------------------------------------
// The GM's schedule

function requireSequential(g: GameData): void {
  if (!isSequential(g.record.rules)) {
    throw conflict('this game does not use sequential movement (rules "movement": "sequential")');
  }
}

function requireGm(v: RuleViewer): void {
  if (!isGm(v)) {
    throw forbidden(
      "the schedule of sequential movement is seen and set only by the game master: players are never told it",
    );
  }
}

function requireOpen(g: GameData): void {
  if (g.state.state === "done" || g.game.status === "finished") throw conflict("the game is over");
}

export interface ScheduleSeason {
  readonly season: string;
  readonly kind: "sequential" | "simultaneous";
  /** The powers in the order their orders are resolved (sequential seasons). */
  readonly order: readonly string[] | null;
  /** Set by the GM, or generated from the game's schedule seed. */
  readonly source: "gm" | "generated";
  /** The number of the season among the sequential ones (blocks are counted with it). */
  readonly index: number | null;
  readonly adjudicated: boolean;
  /** The contracts that count in it (so far, for a season still open). */
  readonly contracts: readonly (readonly [string, string])[];
}

/**
 * The GM's view of the schedule: every season from the start to `ahead` seasons after the
 * first one not yet adjudicated, and for every whole block of sequential seasons whether each
 * power is first once, second once, and so on.
 */
export function scheduleView(g: GameData, data: SequentialData, v: RuleViewer, ahead?: number) {
  requireGm(v);
  requireSequential(g);
  const variant = g.scenario.variant;
  const n = variant.powers.length;
  const rules = effectiveRules(g, data);
  const next = nextSeason(g);
  const first = ordinal(seasonKey(variant.start.phase));
  const last = ordinal(next) + (ahead ?? 2 * n);
  const seasons: ScheduleSeason[] = [];
  for (let o = first; o <= last; o++) {
    const key = keyOf(o);
    const plan = seasonPlan(variant, phaseOf(key), rules);
    const sequential = plan.kind === "sequential";
    seasons.push({
      season: key,
      kind: plan.kind,
      order: sequential ? plan.order : null,
      source: sequential ? plan.source : "gm",
      index: sequential ? sequentialIndex(variant, phaseOf(key), rules) : null,
      adjudicated: o < ordinal(next),
      contracts: matchedContracts(data.contracts, key),
    });
  }
  const blocks = new Map<number, ScheduleSeason[]>();
  for (const s of seasons) {
    if (s.index === null) continue;
    const b = Math.floor(s.index / n);
    blocks.set(b, [...(blocks.get(b) ?? []), s]);
  }
  return {
    next,
    powers: n,
    scheduleSeed: g.record.rules.scheduleSeed ?? 0,
    seasons,
    blocks: [...blocks.entries()]
      .filter(([, list]) => list.length === n)
      .map(([b, list]) => ({
        block: b,
        seasons: list.map((s) => s.season),
        balanced: variant.powers.every((p) =>
          list.every((_, place) => list.filter((s) => s.order![place] === p.id).length === 1),
        ),
      })),
  };
}

/**
 * The GM sets a season's schedule: a list of powers, "simultaneous", or "generated" (back to
 * the generated one). Only for seasons not yet adjudicated.
 */
export async function setSchedule(
  trx: Kysely<DB>,
  g: GameData,
  v: RuleViewer,
  seasonText: string,
  value: unknown,
  now: number,
  emit: Emit,
): Promise<void> {
  requireGm(v);
  requireSequential(g);
  requireOpen(g);
  const season = futureSeason(g, seasonText, "schedule");
  if (value === "generated") {
    await trx
      .deleteFrom("schedules")
      .where("game_id", "=", g.game.id)
      .where("season", "=", season)
      .execute();
    await emit("schedule_set", "gm", { season, schedule: "generated" });
    return;
  }
  const read = readSequentialOption("schedule", value);
  if (!read?.ok) throw invalid(read?.error ?? "schedule: expected a list of powers");
  const schedule = read.value as SeasonSchedule;
  if (schedule !== "simultaneous") {
    const variant = g.scenario.variant;
    const known = variant.powers.map((p) => p.id as string);
    const unknown = schedule.find((p) => !known.includes(p));
    if (unknown) {
      throw invalid(`schedule: unknown power "${unknown}"; ${variant.id} has ${known.join(", ")}`);
    }
    // Powers still in the game must be placed; the others may be left out (they come last).
    const alive = new Set<string>(g.position.units.map((u) => u.power));
    for (const owner of g.position.centers.values()) alive.add(owner);
    const missing = known.filter((p) => alive.has(p) && !schedule.includes(p));
    if (missing.length > 0) {
      throw invalid(
        `schedule: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} still in the game and must be given a place; list every power with units or centres, first resolved first`,
      );
    }
  }
  const text = JSON.stringify(schedule);
  await trx
    .deleteFrom("schedules")
    .where("game_id", "=", g.game.id)
    .where("season", "=", season)
    .execute();
  await trx
    .insertInto("schedules")
    .values({ game_id: g.game.id, season, schedule: text, set_by: v.user!.id, set_at: now })
    .execute();
  await emit("schedule_set", "gm", { season, schedule });
}

// ---------------------------------------------------------------------------------------------
// Contracts

export interface ContractInput {
  /** The other power. */
  readonly with: string;
  /** The declaring power (needed for a seat with several, and for the GM). */
  readonly power?: string | undefined;
  /** The first season it covers; default the first not yet adjudicated. */
  readonly season?: string | undefined;
  /** The last season it covers (default `season`), or "withdrawn": until withdrawn. */
  readonly until?: string | undefined;
}

function powerIdOf(g: GameData, text: string, what: string): string {
  const t = text.trim().toLowerCase();
  const id = findPowerByName(g.scenario.variant.powers, t);
  const p = g.scenario.variant.powers.find((x) => x.id === id);
  if (!p) {
    const known = g.scenario.variant.powers.map((x) => x.id).join(", ");
    throw invalid(`${what}: unknown power "${text}"; ${g.scenario.variant.id} has ${known}`);
  }
  return p.id;
}

/** The power a declaration is made for: one of the player's (or any, for the GM). */
function declaringPower(g: GameData, v: RuleViewer, given: string | undefined): string {
  if (isGm(v)) {
    if (given === undefined)
      throw invalid("power: say for which power the GM records this declaration");
    return powerIdOf(g, given, "power");
  }
  if (v.role !== "player" || v.powers.length === 0) {
    throw forbidden("contracts are declared by the players of the two powers (or the GM for them)");
  }
  if (given === undefined) {
    if (v.powers.length === 1) return v.powers[0]!;
    throw invalid(`power: your seat plays ${v.powers.join(" and ")}; say for which`);
  }
  const p = powerIdOf(g, given, "power");
  if (!v.powers.includes(p as PowerId)) {
    throw forbidden(`you do not play ${p}: you may declare contracts for ${v.powers.join(", ")}`);
  }
  return p;
}

/** A declaration as its maker (or the GM) sees it. */
/**
 * The declarations a viewer may see, in order: the GM's every one, a player's their powers'.
 * A declaration's id for the viewer is its place in this list (1, 2, ...): the store's row ids
 * are one sequence over every game and power, and would tell a player how many declarations
 * others made (src/judge/numbering.ts numbers press and events alike).
 */
function ownDeclarations(rows: readonly ContractRow[], v: RuleViewer): ContractRow[] {
  return rows.filter((d) => isGm(v) || v.powers.includes(d.power as PowerId));
}

/** A declaration as the viewer sees it, under their id for it. */
function ownView(g: GameData, rows: readonly ContractRow[], v: RuleViewer, rowId: number) {
  const own = ownDeclarations(rows, v);
  const i = own.findIndex((r) => Number(r.id) === rowId);
  return declarationView(g, rows, own[i]!, i + 1);
}

function declarationView(g: GameData, rows: readonly ContractRow[], d: ContractRow, id: number) {
  const next = nextSeason(g);
  // The first season still open that it covers, and whether the other side covers it too.
  let open: string | null = null;
  const from = Math.max(ordinal(d.from_season), ordinal(next));
  const to = Math.min(
    d.until_season === null ? Number.POSITIVE_INFINITY : ordinal(d.until_season),
    d.withdrawn_from === null ? Number.POSITIVE_INFINITY : ordinal(d.withdrawn_from) - 1,
  );
  if (from <= to) open = keyOf(from);
  const matched =
    open === null
      ? null
      : rows.some((e) => e.power === d.partner && e.partner === d.power && covers(e, open!));
  return {
    id,
    power: d.power,
    with: d.partner,
    from: d.from_season,
    until: d.until_season ?? "withdrawn",
    withdrawnFrom: d.withdrawn_from,
    /** The first season still to be adjudicated that it covers (null: none left). */
    season: open,
    /** Whether the other power declared its side for that season: the contract counts. */
    matched,
  };
}

export async function declareContract(
  trx: Kysely<DB>,
  g: GameData,
  v: RuleViewer,
  input: ContractInput,
  now: number,
  emit: Emit,
) {
  requireSequential(g);
  requireOpen(g);
  const power = declaringPower(g, v, input.power);
  const partner = powerIdOf(g, input.with, "with");
  if (partner === power) {
    throw invalid(`with: a contract is between two powers; ${power} cannot contract with itself`);
  }
  const from = input.season === undefined ? nextSeason(g) : futureSeason(g, input.season, "season");
  let until: string | null = from;
  if (input.until === "withdrawn") until = null;
  else if (input.until !== undefined) {
    until = futureSeason(g, input.until, "until");
    if (ordinal(until) < ordinal(from)) {
      throw invalid(`until: ${until} is before ${from}; give a season from ${from} on`);
    }
  }
  const row = await trx
    .insertInto("contracts")
    .values({
      game_id: g.game.id,
      power,
      partner,
      from_season: from,
      until_season: until,
      withdrawn_from: null,
      declared_by: v.user!.id,
      declared_at: now,
      withdrawn_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const rows = (await loadSequential(trx, g.game.id)).contracts;
  const view = ownView(g, rows, v, Number(row.id));
  // The event keeps the row id; each reader is shown their own id for it (numbering.ts).
  await emit("contract_declared", `powers:${power}`, { ...view, id: Number(row.id) });
  return view;
}

export async function withdrawContract(
  trx: Kysely<DB>,
  g: GameData,
  v: RuleViewer,
  id: number,
  now: number,
  emit: Emit,
) {
  requireSequential(g);
  requireOpen(g);
  // `id` is the viewer's own id for it: the idth declaration they may see.
  const d = Number.isInteger(id)
    ? ownDeclarations((await loadSequential(trx, g.game.id)).contracts, v)[id - 1]
    : undefined;
  if (!d) {
    // Another power's declaration is not even said to exist.
    throw notFound(`no contract declaration ${id} of yours in this game`);
  }
  if (d.withdrawn_from !== null) throw conflict(`declaration ${id} was already withdrawn`);
  const next = nextSeason(g);
  const from = ordinal(d.from_season) >= ordinal(next) ? d.from_season : next;
  if (d.until_season !== null && ordinal(d.until_season) < ordinal(from)) {
    throw conflict(
      `declaration ${id} covered only seasons already adjudicated (to ${d.until_season})`,
    );
  }
  await trx
    .updateTable("contracts")
    .set({ withdrawn_from: from, withdrawn_at: now })
    .where("id", "=", d.id)
    .execute();
  const rows = (await loadSequential(trx, g.game.id)).contracts;
  const view = ownView(g, rows, v, Number(d.id));
  await emit("contract_withdrawn", `powers:${d.power}`, { ...view, id: Number(d.id) });
  return view;
}

/**
 * The declarations this viewer may see: a player's own (with whether the other side matched),
 * the GM's every one, with the contracts that count in the first season still open.
 */
export function contractsView(g: GameData, data: SequentialData, v: RuleViewer) {
  requireSequential(g);
  if (!isGm(v) && (v.role !== "player" || v.powers.length === 0)) {
    throw forbidden("contract declarations are seen only by the powers that made them and the GM");
  }
  const mine = ownDeclarations(data.contracts, v);
  const next = nextSeason(g);
  return {
    season: next,
    declarations: mine.map((d, i) => declarationView(g, data.contracts, d, i + 1)),
    ...(isGm(v) ? { contracts: matchedContracts(data.contracts, next) } : {}),
  };
}
