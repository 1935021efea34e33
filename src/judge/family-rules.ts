import {
  checkDiscoveryCommands,
  discoveryOpeningReport,
  moderatorMap,
  playDiscoveryJson,
} from "../variants/discovery/host.ts";
import { discovery, mapOfPosition } from "../variants/discovery/index.ts";
import { PLAYER_NAMES } from "../variants/discovery/mapdata.ts";
import {
  adjudicateTurn,
  readCommandSet,
  readGlobalPosition,
  turnReport,
  worldMap,
  writeGlobalPosition,
  writeTurnResult,
} from "../variants/global/index.ts";
import type { GlobalMap } from "../variants/global/map.ts";
import { GlobalPositionError, readGlobalRules } from "../variants/global/position.ts";
import { openingTurn } from "../variants/global/rules.ts";
import { initialState } from "../variants/global/state.ts";
import type { GameState } from "../variants/global/types.ts";
import { invalid } from "./errors.ts";

/*
 * What the judge needs of each game family it hosts (Global Diplomacy, Age of Discovery), in
 * the position JSON its games are stored in: reading commands, adjudicating a turn, writing
 * reports, the opening report, who is alive; the families' listing for GET /api/variants; a
 * new game's player count. family.ts hosts the games with these.
 */

type Json = Record<string, unknown>;

/** What the judge needs of a game family beyond its `GameFamily` (registry.ts). */
export interface FamilyRules {
  readonly id: string;
  readonly name: string;
  /** The game rules (rule options) from the game creator's input, checked; throws a message. */
  readRules(input: unknown): Json;
  /** How many players a game has: fixed (min = max) or chosen at creation; the default. */
  readonly players: { readonly min: number; readonly max: number; readonly default: number };
  /** The opening position (position JSON) of a game with this seed and player count. */
  start(seed: number, players: number): Json;
  /**
   * The powers of a game with this many players, one seat each: id (as position JSON keys
   * them), name, and the seat's name.
   */
  powers(players: number): readonly { id: string; name: string; seat: string }[];
  /** Each non-empty command line read against the position: accepted, or why not. */
  check(
    position: Json,
    power: string,
    lines: readonly string[],
  ): { line: number; text: string; ok: boolean; reason?: string }[];
  /** Plays one turn: the result JSON (with `next`, the next position) and every power's report. */
  adjudicate(
    position: Json,
    rules: Json,
    orders: Readonly<Record<string, readonly string[]>>,
    gameLabel: string,
  ): { result: Json; next: Json; reports: Record<string, string>; winners: string[] | null };
  /** What a power's report says before the first turn is adjudicated. */
  startReport(position: Json, power: string, gameLabel: string): string;
  /** The powers still in the game (with a unit or an owned area). */
  alive(position: Json): readonly string[];
  /** The turn a position is at. */
  turn(position: Json): number;
  /** Who holds each area with supply value (a supply centre), by area id: draws count it. */
  centres(position: Json): Record<string, string>;
  /**
   * The moderator's whole map of a game whose map is made for it (discovery), from its
   * opening position; absent for a family with one fixed map. Only the GM reads it.
   */
  moderatorMap?(start: Json): Json;
}

/** The owned areas of a state that have supply value (supply centres), by area id. */
function supplyOwners(map: GlobalMap, s: GameState): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [area, owner] of Object.entries(s.owners))
    if ((map.area(Number(area))?.supply ?? 0) > 0) out[area] = String(owner);
  return out;
}

function globalRulesOn(map: GlobalMap): FamilyRules {
  const state = (position: Json): GameState => readGlobalPosition(map, position);
  return {
    id: map.data.id,
    name: map.data.name,
    readRules: (input) => {
      if (input !== undefined && (typeof input !== "object" || input === null))
        throw new GlobalPositionError(
          `rules of a ${map.data.name} game are an object such as {"convoyDisruption": "5.5"} (docs/global.md)`,
        );
      return { ...readGlobalRules(input) };
    },
    players: { min: map.powers.length, max: map.powers.length, default: map.powers.length },
    start: (seed) => writeGlobalPosition(initialState(map, seed)),
    powers: () => map.powers.map((p) => ({ id: String(p.id), name: p.name, seat: p.name })),
    check: (position, power, lines) =>
      readCommandSet(lines.join("\n"), state(position), Number(power), map).map((l) =>
        l.ok
          ? { line: l.line, text: l.text, ok: true }
          : { line: l.line, text: l.text, ok: false, reason: l.reason },
      ),
    adjudicate: (position, rules, orders, label) => {
      const before = state(position);
      const byPower: Record<number, string[]> = {};
      for (const [p, lines] of Object.entries(orders)) byPower[Number(p)] = [...lines];
      const r = adjudicateTurn(map, before, byPower, readGlobalRules(rules));
      const reports: Record<string, string> = {};
      for (const p of map.powers) reports[String(p.id)] = turnReport(map, r, p.id, label);
      const result = writeTurnResult(r);
      return {
        result,
        next: result.next as Json,
        reports,
        winners: r.after.winners ? r.after.winners.map(String) : null,
      };
    },
    startReport: (position, power, label) => {
      const s = state(position);
      // The opening report: the position before turn 1 as a turn with nothing done.
      return turnReport(map, openingTurn(s), Number(power), label);
    },
    alive: (position) => {
      const s = state(position);
      const alive = new Set<number>([...s.units.map((u) => u.power), ...Object.values(s.owners)]);
      return map.powers.filter((p) => alive.has(p.id)).map((p) => String(p.id));
    },
    turn: (position) => state(position).turn,
    centres: (position) => supplyOwners(map, state(position)),
  };
}

/**
 * Age of Discovery (seed 004, appendix C): global's rules on a map generated from the game's
 * seed for its player count (the position's `map`), commands read in each player's own frame
 * (spies by area id or the player's own XXYY), reports fogged to what each player knows.
 */
function discoveryRules(): FamilyRules {
  const turnOf = (position: Json): number => {
    const t = position.turn;
    if (typeof t !== "number") throw new Error("a discovery position without its turn");
    return t;
  };
  return {
    id: discovery.id,
    name: discovery.name,
    readRules: (input) => {
      if (input !== undefined && (typeof input !== "object" || input === null))
        throw new GlobalPositionError(
          `rules of an ${discovery.name} game are an object such as {"convoyDisruption": "5.5"} (docs/global.md)`,
        );
      return { ...readGlobalRules(input) };
    },
    players: discovery.players,
    start: (seed, players) => discovery.start(seed, players),
    // Players 1 to N, named as the generated map names them (mapdata.ts); seats by number.
    powers: (players) =>
      PLAYER_NAMES.slice(0, players).map((name, i) => ({
        id: String(i + 1),
        name,
        seat: `${i + 1}-${name}`,
      })),
    check: (position, power, lines) => checkDiscoveryCommands(position, Number(power), lines),
    adjudicate: (position, rules, orders, label) =>
      playDiscoveryJson(position, rules, orders, label),
    startReport: (position, power, label) => discoveryOpeningReport(position, Number(power), label),
    // From the JSON alone (no map to regenerate): powers with a unit or an owned area.
    alive: (position) => {
      const alive = new Set<string>();
      for (const [p, list] of Object.entries((position.units ?? {}) as Record<string, unknown[]>))
        if (list.length > 0) alive.add(p);
      for (const o of Object.values((position.owners ?? {}) as Record<string, number>))
        alive.add(String(o));
      return [...alive].sort((a, b) => Number(a) - Number(b));
    },
    turn: turnOf,
    centres: (position) => {
      const { global } = mapOfPosition(position);
      return supplyOwners(global, readGlobalPosition(global, { ...position }));
    },
    moderatorMap: (start) => moderatorMap(start),
  };
}

const FAMILIES: readonly FamilyRules[] = [globalRulesOn(worldMap), discoveryRules()];

/** The judge's rules for a game family id, or undefined (not a family the judge serves). */
export function familyRules(id: string): FamilyRules | undefined {
  return FAMILIES.find((f) => f.id === id);
}

/**
 * The judge's game families as GET /api/variants lists them beside the variants: a note that
 * they are another game, the player counts, and a "scenario" per count (its id the count, as
 * POST /api/games takes it) with its seats.
 */
export function familyListing() {
  return FAMILIES.map((f) => ({
    id: f.id,
    name: f.name,
    family: `${f.name} is a different game family (seed 004): its own commands, turns and per-player reports (docs/${f.id}.md); the web page's game page shows each player its report and takes its commands (docs/web.md); the sandbox and the clickable orders do not serve it`,
    players: f.players,
    scenarios: Array.from({ length: f.players.max - f.players.min + 1 }, (_, i) => {
      const n = f.players.min + i;
      return {
        id: String(n),
        description:
          f.players.min === f.players.max
            ? `${n} players, one power each`
            : `${n} players on a map generated for the game${n === f.players.default ? " (default)" : ""}`,
        seats: f.powers(n).map((p) => ({ name: p.seat, powers: [p.id] })),
      };
    }),
  }));
}

/** The ids of the game families the judge serves. */
export function judgeFamilyIds(): string[] {
  return FAMILIES.map((f) => f.id);
}

/**
 * A new game's player count: `players`, or `scenario` as the classical games name theirs (a
 * player count, as the lobby sends it), or the family's default; outside the family's range
 * (or the two disagreeing) a 400 that says what is allowed.
 */
export function familyPlayers(
  rules: FamilyRules,
  players: number | undefined,
  scenario: string | undefined,
): number {
  const { min, max } = rules.players;
  const allowed =
    min === max
      ? `${rules.name} is played by ${min} players, one power each: leave players and scenario out`
      : `${rules.name} is played by ${min} to ${max} players: give "players": ${min} to ${max} (default ${rules.players.default})`;
  const fromScenario =
    scenario === undefined || scenario.trim() === "" ? undefined : Number(scenario.trim());
  if (fromScenario !== undefined && !Number.isInteger(fromScenario))
    throw invalid(`scenario "${scenario}" is not a player count; ${allowed}`);
  if (players !== undefined && fromScenario !== undefined && players !== fromScenario)
    throw invalid(`players ${players} and scenario "${scenario}" disagree; ${allowed}`);
  const n = players ?? fromScenario ?? rules.players.default;
  if (!Number.isInteger(n) || n < min || n > max) throw invalid(`not ${n} players: ${allowed}`);
  return n;
}
