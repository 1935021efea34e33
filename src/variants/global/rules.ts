import {
  type BoardData,
  type GameRules,
  GameRulesError,
  type LineVerdict,
  type PhaseInfo,
  type PlayerCount,
  type ResultLine,
  type Viewer,
} from "../../engine/game.ts";
import { rngFor } from "../../engine/random.ts";
import { adjudicateTurn } from "./adjudicate.ts";
import { readCommandSet } from "./commands.ts";
import type { GlobalMap } from "./map.ts";
import {
  GlobalPositionError,
  readGlobalPosition,
  readGlobalRules,
  writeGlobalPosition,
  writeTurnResult,
} from "./position.ts";
import { randomCommands } from "./possible.ts";
import { turnReport } from "./report.ts";
import { initialState, tallyOf } from "./state.ts";
import {
  type AreaId,
  type GameState,
  type GlobalRules,
  type PowerId,
  type TurnResult,
  UNIT_LETTERS,
  type Unit,
} from "./types.ts";
import { worldGame, worldMap } from "./world.ts";

/*
 * The game rules (src/engine/game.ts) of the seed 004 family: Global Diplomacy on the world
 * map here, and any game on global's rules and another map through `familyGameRules` with
 * the family's own hooks (Age of Discovery: src/variants/discovery/rules.ts). A turn is one
 * phase (`T1`, `T2`, ...) in which every power still in the game sends its commands; silence
 * is an empty command list (the moderator's forced removals and downgrades then apply).
 */

type Json = Record<string, unknown>;

/** A game of the family between two turns. */
export interface FamilyState<X> {
  readonly map: GlobalMap;
  readonly game: GameState;
  readonly rules: GlobalRules;
  /** What the family adds to global's state (Age of Discovery: its map and knowledge). */
  readonly extra: X;
  /** The turn just played, for the reports; null at the start and after `decode`. */
  readonly last: TurnResult | null;
}

/** A power's command lines, as the adjudicator takes them. */
export type CommandLines = readonly string[];

/** What a viewer may see of a family game. */
export interface FamilyView {
  readonly phase: PhaseInfo;
  /** The reports the viewer may read, per power: a player its own, the GM every one. */
  readonly reports: ReadonlyMap<string, string>;
  /** The units the viewer may see: the GM all, a player its own powers' (its report has more). */
  readonly units: readonly Unit[];
  /** Owned areas the viewer may see, as `units`. */
  readonly owners: ReadonlyMap<AreaId, PowerId>;
  readonly winners: readonly string[] | null;
}

/** What a member of the family adds to global's rules. */
export interface FamilyHooks<X> {
  readonly id: string;
  readonly name: string;
  readonly players: PlayerCount;
  /** The map, the opening state and the family's own part, for a seed and player count. */
  setup(seed: number, players: number): { map: GlobalMap; game: GameState; extra: X };
  /** The map and the family's own part named by a stored position (throws a message). */
  fromJson(json: Json): { map: GlobalMap; extra: (game: GameState) => X };
  /** The family's own part as position JSON fields. */
  toJson(state: FamilyState<X>): Json;
  /** Each non-empty line read against the state: a verdict with the line as written. */
  check(state: FamilyState<X>, power: PowerId, lines: readonly string[]): LineVerdict[];
  /** One turn adjudicated: the result and the family's own part after it. */
  adjudicate(
    state: FamilyState<X>,
    orders: Readonly<Record<PowerId, readonly string[]>>,
  ): { result: TurnResult; extra: X };
  /**
   * A power's report of a turn (the opening report for a turn with nothing done), headed
   * with the game's name as its players know it (`label`; the family's id when absent).
   */
  report(state: FamilyState<X>, result: TurnResult, power: PowerId, label?: string): string;
  /** Random command lines for self-play. */
  random(state: FamilyState<X>, power: PowerId, seed: number): string[];
  /** The areas of the board a player may be shown (null: the whole map is public). */
  visible(state: FamilyState<X>, powers: readonly PowerId[]): ReadonlySet<AreaId> | null;
  /** The seats of a game with this many players, one power each, before it is set up. */
  seats(players: number): readonly Seating[];
  /** What the stored turn adds to global's result JSON (Age of Discovery: the spies). */
  turnJson?(result: TurnResult): Json;
  /** The whole map of a game whose map is made for it, for its moderator; absent for one map. */
  moderatorMap?(state: FamilyState<X>): Json;
}

/** A seat of a family game: its one power (as positions key it) and the seat's name. */
export interface Seating {
  readonly power: string;
  readonly name: string;
}

/**
 * What a host of the family's games asks beyond their rules (src/engine/game.ts): the
 * judge (src/judge/family.ts) keeps a game's options once in its head and a position per
 * turn, sends each player a text report a turn (the EMG families' way), lists the seats of
 * each player count, and shows the moderator a generated map. Typed like the rules: only the
 * store boundary (`load`, `store`, `storedTurn`, `readOptions`) sees JSON.
 */
export interface FamilyHosting<State> {
  /**
   * A new game's rule options from its creator's input, checked, as the game's head keeps
   * them; throws a `GameRulesError` saying what is right.
   */
  readOptions(input: unknown): Json;
  /** The seats of a game with this many players (the lobby lists them before a game exists). */
  seats(players: number): readonly Seating[];
  /** A stored position with the game's options (kept in its head) as a state. */
  load(position: Json, options: Json): State;
  /** A state as the store keeps its position: `encode` without the options. */
  store(state: State): Json;
  /** The turn that led to a state as the store keeps it (results, moves, news, next); null at a start. */
  storedTurn(state: State): Json | null;
  /** A power's report of the turn that led to a state (the opening report at a start). */
  report(state: State, power: string, label: string): string;
  /** Who holds each area with supply value (a supply centre), by area id: draws count it. */
  centres(state: State): ReadonlyMap<string, string>;
  /**
   * What a viewer sees of a state in the shape of the judge's game view, per power: units
   * (`A 12`) and owned areas; the GM all, a player only its own powers' (as `view`).
   */
  shown(
    state: State,
    viewer: Viewer,
  ): {
    units: Record<string, string[]>;
    centers: Record<string, string[]>;
    /** Per power: supply centres, units, their points and the surplus; null: not seen. */
    tally: Record<string, ReturnType<typeof tallyOf> | null>;
  };
  /** The whole map of a game whose map is made for it, for the moderator only. */
  moderatorMap?(state: State): Json;
}

/** The position as a turn with nothing done: what a report says before any turn. */
export function openingTurn(s: GameState): TurnResult {
  return {
    turn: s.turn - 1,
    before: s,
    after: s,
    results: [],
    outcomes: [],
    battles: [],
    spies: {},
    messages: {},
    news: [],
  };
}

/** Powers with a unit or an owned area, in the map's order. */
export function alivePowers(map: GlobalMap, s: GameState): PowerId[] {
  const alive = new Set<number>([...s.units.map((u) => u.power), ...Object.values(s.owners)]);
  return map.powers.filter((p) => alive.has(p.id)).map((p) => p.id);
}

const OUTCOME: Readonly<Record<"ok" | "failed" | "rejected", ResultLine["outcome"]>> = {
  ok: "succeeds",
  failed: "fails",
  rejected: "invalid",
};

function readPowerId(map: GlobalMap, power: string): PowerId {
  const p = Number(power);
  if (!Number.isInteger(p) || map.power(p) === undefined)
    throw new GameRulesError(
      `no power "${power}" in this game; its powers are ${map.powers.map((x) => x.id).join(", ")}`,
    );
  return p;
}

/** The powers a viewer reads the reports of, and whose units and areas it sees. */
function sight(map: GlobalMap, viewer: Viewer) {
  const mine =
    viewer.kind === "gm"
      ? map.powers.map((p) => p.id)
      : viewer.kind === "player"
        ? viewer.powers.map((p) => readPowerId(map, p))
        : [];
  return { mine, see: (p: PowerId) => viewer.kind === "gm" || mine.includes(p) };
}

/** Game rules on global's rules with a family's hooks. */
export function familyGameRules<X>(
  h: FamilyHooks<X>,
): GameRules<FamilyState<X>, CommandLines, FamilyView> {
  const phase = (s: FamilyState<X>): PhaseInfo => ({
    name: `T${s.game.turn}`,
    kind: "turn",
    index: s.game.turn - 1,
  });
  const acting = (s: FamilyState<X>): string[] =>
    s.game.winners ? [] : alivePowers(s.map, s.game).map(String);
  return {
    id: h.id,
    name: h.name,
    players: h.players,
    setup(seed, players = h.players.default) {
      const { min, max } = h.players;
      if (!Number.isInteger(players) || players < min || players > max)
        throw new GameRulesError(
          min === max
            ? `${h.name} is played by ${min} players, not ${players}`
            : `${h.name} is played by ${min} to ${max} players, not ${players}`,
        );
      const { map, game, extra } = h.setup(seed, players);
      return { map, game, rules: readGlobalRules(undefined), extra, last: null };
    },
    phase,
    powers: (s) => s.map.powers.map((p) => ({ id: String(p.id), name: p.name })),
    mustOrder: acting,
    mayOrder: acting,
    read(s, power, text) {
      const p = readPowerId(s.map, power);
      const lines = text
        .split(/\r\n|\r|\n/)
        .map((l) => l.trim())
        .filter((l) => l !== "");
      return { verdicts: h.check(s, p, lines), orders: lines, final: false };
    },
    whenSilent: () => [],
    resolve(s, sets) {
      if (s.game.winners)
        throw new GameRulesError("the game is over (it has winners); there is nothing to resolve");
      const orders: Record<PowerId, readonly string[]> = {};
      for (const [power, lines] of sets) orders[readPowerId(s.map, power)] = lines;
      const { result, extra } = h.adjudicate(s, orders);
      const winners = result.after.winners?.map(String) ?? null;
      return {
        phase: phase(s).name,
        results: result.results.map((r) => ({
          power: String(r.power),
          order: r.text,
          outcome: OUTCOME[r.status],
          ...(r.reason !== undefined ? { reason: r.reason } : {}),
        })),
        next: { map: s.map, game: result.after, rules: s.rules, extra, last: result },
        ended: winners
          ? { kind: winners.length === 1 ? "solo" : "shared", winners: winners }
          : null,
        silent: acting(s).filter((p) => !sets.has(p)),
      };
    },
    view(s, viewer) {
      const turn = s.last ?? openingTurn(s.game);
      const { mine, see } = sight(s.map, viewer);
      return {
        phase: phase(s),
        reports: new Map(mine.map((p) => [String(p), h.report(s, turn, p)])),
        units: s.game.units.filter((u) => see(u.power)),
        owners: new Map(
          Object.entries(s.game.owners)
            .filter(([, p]) => see(p))
            .map(([a, p]) => [Number(a), p]),
        ),
        winners: s.game.winners?.map(String) ?? null,
      };
    },
    random: (s, power, seed) => h.random(s, readPowerId(s.map, power), seed),
    board(s, viewer) {
      const shown =
        viewer.kind === "gm"
          ? null
          : h.visible(
              s,
              viewer.kind === "player" ? viewer.powers.map((p) => readPowerId(s.map, p)) : [],
            );
      const areas = s.map.areas.filter((a) => shown === null || shown.has(a.id));
      return {
        id: s.map.data.id,
        name: s.map.data.name,
        areas: areas.map((a) => ({
          id: String(a.id),
          name: a.name,
          kind: a.kind,
          supply: a.supply > 0,
          neighbours: a.adjacency
            .filter((e) => shown === null || shown.has(e.to))
            .map((e) => String(e.to)),
        })),
        powers: s.map.powers.map((p) => ({ id: String(p.id), name: p.name })),
      } satisfies BoardData;
    },
    invariants(s) {
      const seen = new Set<AreaId>();
      const out: string[] = [];
      for (const u of s.game.units) {
        if (seen.has(u.area)) out.push(`two units in one area (${s.map.areaName(u.area)})`);
        seen.add(u.area);
        if (s.map.area(u.area) === undefined) out.push(`a unit in no area of the map (${u.area})`);
      }
      return out;
    },
    encode: (s) => ({ ...writeGlobalPosition(s.game), rules: s.rules, ...h.toJson(s) }),
    decode(json) {
      if (typeof json !== "object" || json === null || Array.isArray(json))
        throw new GameRulesError(`a stored ${h.name} game is a position object`);
      try {
        const o = json as Json;
        const { map, extra } = h.fromJson(o);
        const game = readGlobalPosition(map, o);
        return { map, game, rules: readGlobalRules(o.rules), extra: extra(game), last: null };
      } catch (e) {
        if (e instanceof GlobalPositionError) throw new GameRulesError(e.message);
        throw e;
      }
    },
  };
}

/** The hosting of games on global's rules with a family's hooks, beside `familyGameRules`. */
export function familyHosting<X>(
  h: FamilyHooks<X>,
  rules: GameRules<FamilyState<X>, CommandLines, FamilyView>,
): FamilyHosting<FamilyState<X>> {
  const store = (s: FamilyState<X>): Json => {
    const { rules: _options, ...position } = rules.encode(s) as Json;
    return position;
  };
  const moderatorMap = h.moderatorMap;
  return {
    readOptions(input) {
      if (input !== undefined && (typeof input !== "object" || input === null))
        throw new GameRulesError(
          `rules of ${/^[aeiou]/i.test(h.name) ? "an" : "a"} ${h.name} game are an object such as {"convoyDisruption": "5.5"} (docs/global.md)`,
        );
      try {
        return { ...readGlobalRules(input) };
      } catch (e) {
        if (e instanceof GlobalPositionError) throw new GameRulesError(e.message);
        throw e;
      }
    },
    seats: (players) => h.seats(players),
    load: (position, options) => rules.decode({ ...position, rules: options }),
    store,
    storedTurn: (s) =>
      s.last ? { ...writeTurnResult(s.last), next: store(s), ...h.turnJson?.(s.last) } : null,
    report: (s, power, label) =>
      h.report(s, s.last ?? openingTurn(s.game), readPowerId(s.map, power), label),
    centres(s) {
      const out = new Map<string, string>();
      for (const [area, owner] of Object.entries(s.game.owners))
        if ((s.map.area(Number(area))?.supply ?? 0) > 0) out.set(area, String(owner));
      return out;
    },
    shown(s, viewer) {
      const { see } = sight(s.map, viewer);
      const units: Record<string, string[]> = {};
      for (const u of s.game.units)
        if (see(u.power)) {
          const k = String(u.power);
          units[k] = [...(units[k] ?? []), `${UNIT_LETTERS[u.kind]} ${u.area}`];
        }
      const centers: Record<string, string[]> = {};
      for (const [area, p] of Object.entries(s.game.owners))
        if (see(p)) centers[String(p)] = [...(centers[String(p)] ?? []), area];
      // The supply table's counts: centres are owned areas with supply value; a power the
      // viewer may not see is unknown (null), not 0.
      const tally: Record<string, ReturnType<typeof tallyOf> | null> = {};
      for (const p of s.map.powers)
        tally[String(p.id)] = see(p.id) ? tallyOf(s.map, s.game, p.id) : null;
      return { units, centers, tally };
    },
    ...(moderatorMap ? { moderatorMap: (s: FamilyState<X>) => moderatorMap(s) } : {}),
  };
}

/** Global Diplomacy's hooks: the authored world map, the same for every game. */
const globalHooks: FamilyHooks<null> = {
  ...worldGame,
  setup: (seed) => ({ map: worldMap, game: initialState(worldMap, seed), extra: null }),
  fromJson: () => ({ map: worldMap, extra: () => null }),
  toJson: () => ({}),
  check: (s, power, lines) =>
    readCommandSet(lines.join("\n"), s.game, power, s.map).map((l) =>
      l.ok
        ? { line: l.line, text: l.text, ok: true, order: l.text }
        : { line: l.line, text: l.text, ok: false, reason: l.reason },
    ),
  adjudicate: (s, orders) => ({
    result: adjudicateTurn(s.map, s.game, orders, s.rules),
    extra: null,
  }),
  report: (s, result, power, label) => turnReport(s.map, result, power, label),
  random: (s, power, seed) => randomCommands(s.map, s.game, power, rngFor(seed, s.game.turn)),
  visible: () => null,
  seats: () => worldMap.powers.map((p) => ({ power: String(p.id), name: p.name })),
};

/** Global Diplomacy (seed 004) on the authored world map: eleven powers. */
export const globalRules = familyGameRules(globalHooks);

/** What a host of Global Diplomacy games asks beyond its rules. */
export const globalHosting = familyHosting(globalHooks, globalRules);
