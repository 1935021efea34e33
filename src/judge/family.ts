import { type Kysely, type Selectable, sql } from "kysely";
import type { Seat } from "../engine/scenario.ts";
import type { PowerId } from "../engine/types.ts";
import type { DB, GamesTable, MembersTable, PhaseStateTable } from "../store/schema.ts";
import {
  checkDiscoveryCommands,
  discoveryOpeningReport,
  moderatorMap,
  playDiscoveryJson,
} from "../variants/discovery/host.ts";
import { discovery } from "../variants/discovery/index.ts";
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
import { initialState } from "../variants/global/state.ts";
import type { GameState, TurnResult } from "../variants/global/types.ts";
import { getGame } from "../variants/registry.ts";
import { conflict, forbidden, invalid, notFound } from "./errors.ts";
import {
  FAMILY_SCENARIO,
  gameSummary,
  insertInvite,
  insertNewGame,
  iso,
  parseJson,
} from "./game-data.ts";
import { DEFAULT_OPTIONS, type GameOptions, mergeOptions, type OptionsPatch } from "./options.ts";
import { randomId } from "./password.ts";

/*
 * Games of another game family (Global Diplomacy, seed 004) in the judge. Such a game shares
 * the judge's tables and its lock with every other game: a `games` row (scenario "family",
 * the head below in record_head), its phase_state row (phase `T1`, `T2`, ...: the turn open
 * for commands), one `phases` row per adjudicated turn (every power's commands, the result
 * JSON and every power's report), `submissions` for the command sets (each new set replaces
 * the last, seed 004 §9), `members` with one seat per power, `nmrs` and `events`.
 *
 * What each viewer may see (seed 004 §8): a player reads its own report and its own commands;
 * nothing of another power's commands or units comes out of the judge except through that
 * player's report, which shows only what the player may see. The GM (the moderator) reads
 * every power's commands and reports and the whole position. The seed (which decides the
 * moderator's random removals and downgrades) is in the head and in every stored position.
 *
 * The family-specific rules (reading commands, adjudicating a turn, writing reports) come from
 * a `FamilyRules` per family id; `global` is registered here. A family without one is refused
 * by createGame with a message.
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
  /**
   * The moderator's whole map of a game whose map is made for it (discovery), from its
   * opening position; absent for a family with one fixed map. Only the GM reads it.
   */
  moderatorMap?(start: Json): Json;
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
      const opening: TurnResult = {
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
      return turnReport(map, opening, Number(power), label);
    },
    alive: (position) => {
      const s = state(position);
      const alive = new Set<number>([...s.units.map((u) => u.power), ...Object.values(s.owners)]);
      return map.powers.filter((p) => alive.has(p.id)).map((p) => String(p.id));
    },
    turn: (position) => state(position).turn,
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
function familyPlayers(
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

/** A family game's record head (games.record_head). */
export interface FamilyHead {
  readonly format: "entente-family-game";
  readonly family: string;
  readonly seed: number;
  readonly rules: Json;
  readonly seats: readonly Seat[];
  readonly start: Json;
}

/** One adjudicated turn (a phases row's record). */
export interface FamilyTurn {
  readonly turn: number;
  readonly phase: string;
  readonly orders: Readonly<Record<string, readonly string[]>>;
  readonly result: Json;
  readonly position: Json;
  readonly reports: Readonly<Record<string, string>>;
  /** Powers that sent no commands. */
  readonly missed: readonly string[];
}

/** A family game read back from the store. */
export interface FamilyGame {
  readonly game: Selectable<GamesTable>;
  readonly options: GameOptions;
  readonly state: Selectable<PhaseStateTable>;
  readonly seats: readonly Seat[];
  readonly members: readonly Selectable<MembersTable>[];
  readonly head: FamilyHead;
  readonly rules: FamilyRules;
  readonly turns: readonly FamilyTurn[];
  /** The position of the turn open for commands. */
  readonly position: Json;
}

export const turnPhase = (turn: number): string => `T${turn}`;

interface User {
  readonly id: string;
  readonly name: string;
}

export interface FamilyContext {
  readonly db: Kysely<DB>;
  readonly now: () => number;
  readonly log: (m: string) => void;
}

/** Family-game ids seen (a game's family never changes): one read per game and process. */
const known = new Map<string, boolean>();

/** Whether a game is a family game (false for an unknown id: the caller's path says 404). */
export async function isFamilyGame(db: Kysely<DB>, gameId: string): Promise<boolean> {
  const k = known.get(gameId);
  if (k !== undefined) return k;
  const row = await db
    .selectFrom("games")
    .select(["scenario"])
    .where("id", "=", gameId)
    .executeTakeFirst();
  if (!row) return false;
  const is = row.scenario === FAMILY_SCENARIO;
  if (known.size > 10_000) known.clear();
  known.set(gameId, is);
  return is;
}

export async function loadFamilyGame(db: Kysely<DB>, gameId: string): Promise<FamilyGame> {
  const game = await db.selectFrom("games").selectAll().where("id", "=", gameId).executeTakeFirst();
  if (!game || game.scenario !== FAMILY_SCENARIO) throw notFound(`no game "${gameId}"`);
  const head = parseJson<FamilyHead>(game.record_head);
  const rules = familyRules(head.family);
  if (!rules) throw new Error(`game ${gameId}: the judge does not serve family ${head.family}`);
  const state = await db
    .selectFrom("phase_state")
    .selectAll()
    .where("game_id", "=", gameId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom("phases")
    .select(["record"])
    .where("game_id", "=", gameId)
    .where("superseded", "=", 0)
    .orderBy("idx")
    .execute();
  const turns = rows.map((r) => parseJson<FamilyTurn>(r.record));
  const members = await db
    .selectFrom("members")
    .selectAll()
    .where("game_id", "=", gameId)
    .execute();
  return {
    game,
    options: parseJson<GameOptions>(game.options),
    state,
    seats: head.seats,
    members,
    head,
    rules,
    turns,
    position: turns.at(-1)?.position ?? head.start,
  };
}

function viewer(g: FamilyGame, user: User | null) {
  const m = user ? g.members.find((x) => x.user_id === user.id) : undefined;
  const powers = m?.seat !== null && m?.seat !== undefined ? (g.seats[m.seat]?.powers ?? []) : [];
  return { role: m?.role ?? null, seat: m?.seat ?? null, powers: powers.map(String) };
}

/** A power named by id ("3") or name ("England"), as the game's seats name it. */
function powerOf(g: FamilyGame, name: string): string | undefined {
  const n = name.trim().toLowerCase();
  return g.rules
    .powers(g.seats.length)
    .find(
      (p) => p.id === n || p.name.toLowerCase() === n || `${p.id}-${p.name}`.toLowerCase() === n,
    )?.id;
}

/** The judge's operations on family games (src/judge/judge.ts calls these through hooks). */
export class FamilyGames {
  constructor(private readonly ctx: FamilyContext) {}

  private get db(): Kysely<DB> {
    return this.ctx.db;
  }

  async emit(trx: Kysely<DB>, gameId: string, kind: string, audience: string, data: unknown) {
    await trx
      .insertInto("events")
      .values({ game_id: gameId, kind, audience, data: JSON.stringify(data), at: this.ctx.now() })
      .execute();
  }

  /**
   * The game's lock (as Judge.mutate): phase_state updated first, then the game read. Also
   * the Judge's, for the tools both kinds of game share (pause, resume, deadlines).
   */
  mutate<T>(gameId: string, fn: (trx: Kysely<DB>, g: FamilyGame) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable("phase_state")
        .set({ version: sql`version + 1` })
        .where("game_id", "=", gameId)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) throw notFound(`no game "${gameId}"`);
      return fn(trx, await loadFamilyGame(trx, gameId));
    });
  }

  /** Creates a game of a family; answers its id. */
  async create(
    user: User,
    input: {
      name: string;
      variant: string;
      scenario?: string | undefined;
      rules?: unknown;
      options?: OptionsPatch | undefined;
      seed?: number | undefined;
      players?: number | undefined;
    },
  ): Promise<string> {
    const name = input.name.trim();
    if (name.length < 1 || name.length > 80) throw invalid("a game's name is 1 to 80 characters");
    const rules = familyRules(input.variant);
    if (!rules)
      throw invalid(
        `the judge does not host ${getGame(input.variant)?.name ?? input.variant} games yet; it hosts ${judgeFamilyIds().join(", ")} (play the others with bin/entente)`,
      );
    const players = familyPlayers(rules, input.players, input.scenario);
    let gameRules: Json;
    try {
      gameRules = rules.readRules(input.rules);
    } catch (e) {
      if (e instanceof GlobalPositionError) throw invalid(e.message);
      throw e;
    }
    const options = mergeOptions(DEFAULT_OPTIONS, input.options);
    const seed = input.seed ?? Math.floor(Math.random() * 2 ** 31);
    const start = rules.start(seed, players);
    const head: FamilyHead = {
      format: "entente-family-game",
      family: rules.id,
      seed,
      rules: gameRules,
      seats: rules.powers(players).map((p) => ({ name: p.seat, powers: [p.id as PowerId] })),
      start,
    };
    const id = randomId(8);
    const now = this.ctx.now();
    await this.db.transaction().execute(async (trx) => {
      await insertNewGame(trx, {
        id,
        name,
        variant: rules.id,
        scenario: FAMILY_SCENARIO,
        options: options,
        head,
        phase: turnPhase(rules.turn(head.start)),
        gmUserId: user.id,
        now,
      });
      await this.emit(trx, id, "game_created", "public", { name });
    });
    known.set(id, true);
    return id;
  }

  /** The game as the viewer may see it (shaped as the judge's GameView). */
  async view(user: User | null, gameId: string) {
    const g = await loadFamilyGame(this.db, gameId);
    const v = viewer(g, user);
    const ids = g.members.map((m) => m.user_id);
    const names = new Map(
      ids.length === 0
        ? []
        : (
            await this.db
              .selectFrom("users")
              .select(["id", "name"])
              .where("id", "in", ids)
              .execute()
          ).map((r) => [r.id, r.name]),
    );
    const seatList = g.seats.map((s, i) => {
      const holder = g.members.find((m) => m.seat === i && m.role === "player");
      return {
        index: i,
        name: s.name,
        powers: [...s.powers],
        player: holder ? (names.get(holder.user_id) ?? null) : null,
      };
    });
    const invites =
      v.role === "gm"
        ? await this.db
            .selectFrom("invites")
            .select(["code", "role", "seat"])
            .where("game_id", "=", gameId)
            .where("revoked", "=", 0)
            .execute()
        : undefined;
    const st = g.state;
    const seated = new Set(g.seats.flatMap((s) => s.powers.map(String)));
    return {
      ...gameSummary(g.game, st, g.seats.length, seatList.filter((s) => s.player !== null).length),
      rules: g.head.rules,
      options: g.options,
      state: st.state,
      phaseIndex: st.phase_idx,
      seatList,
      position: this.visiblePosition(g, v.role === "gm" ? null : v.powers),
      toOrder: st.state === "done" ? [] : g.rules.alive(g.position).filter((p) => seated.has(p)),
      result: g.game.result ? parseJson<unknown>(g.game.result) : null,
      you: v.role ? { role: v.role, seat: v.seat, powers: v.powers } : null,
      ...(invites ? { invites } : {}),
      family: {
        id: g.rules.id,
        name: g.rules.name,
        turn: g.rules.turn(g.position),
        turnsAdjudicated: g.turns.length,
        report: `/api/games/${g.game.id}/report`,
        players: g.seats.length,
        // The whole generated map, for the GM only (discovery).
        ...(g.rules.moderatorMap && v.role === "gm"
          ? { moderatorMap: `/api/games/${g.game.id}/moderator-map` }
          : {}),
      },
    };
  }

  /**
   * The position in the judge's position shape (units and owned areas per power): all of it
   * for the GM (`powers` null), only the viewer's own powers' for anybody else.
   */
  private visiblePosition(g: FamilyGame, powers: readonly string[] | null) {
    const keep = (p: string) => powers === null || powers.includes(p);
    const units: Record<string, string[]> = {};
    const rawUnits = (g.position.units ?? {}) as Record<string, string[]>;
    for (const [p, list] of Object.entries(rawUnits)) if (keep(p)) units[p] = [...list];
    const centers: Record<string, string[]> = {};
    const owners = (g.position.owners ?? {}) as Record<string, number | string>;
    for (const [area, owner] of Object.entries(owners)) {
      const p = String(owner);
      if (keep(p)) centers[p] = [...(centers[p] ?? []), area];
    }
    return { variant: g.rules.id, phase: turnPhase(g.rules.turn(g.position)), units, centers };
  }

  async createInvite(user: User, gameId: string, role: "player" | "observer", seat: number | null) {
    const g = await loadFamilyGame(this.db, gameId);
    if (viewer(g, user).role !== "gm") throw forbidden("only the game master may do this");
    return insertInvite(this.db, {
      gameId,
      role,
      seat,
      seats: g.seats.length,
      by: user.id,
      now: this.ctx.now(),
    });
  }

  async inviteInfo(gameId: string, role: string, seat: number | null) {
    const g = await loadFamilyGame(this.db, gameId);
    const taken = new Set(g.members.flatMap((m) => (m.seat === null ? [] : [m.seat])));
    return {
      game: { id: g.game.id, name: g.game.name, variant: g.game.variant, status: g.game.status },
      role,
      seat,
      freeSeats: g.seats
        .map((s, i) => ({ index: i, name: s.name, powers: [...s.powers] }))
        .filter((s) => !taken.has(s.index) && (seat === null || seat === s.index)),
    };
  }

  /** Joins through an invitation (the judge has checked the code): a seat or observing. */
  async join(
    user: User,
    inv: { code: string; game_id: string; role: "player" | "observer"; seat: number | null },
    wanted: { seat?: number | undefined; power?: string | undefined },
  ): Promise<void> {
    await this.mutate(inv.game_id, async (trx, g) => {
      if (g.game.status === "finished") throw conflict("the game is over");
      const existing = g.members.find((m) => m.user_id === user.id);
      if (existing?.role === "gm") throw conflict("you are the game master of this game");
      if (existing?.role === "player") throw conflict("you already have a seat in this game");
      const taken = new Set(g.members.flatMap((m) => (m.seat === null ? [] : [m.seat])));
      let seat: number | null = null;
      if (inv.role === "player") {
        let want = inv.seat ?? wanted.seat;
        if (wanted.power !== undefined) {
          const p = powerOf(g, wanted.power);
          if (p === undefined)
            throw invalid(
              `no power "${wanted.power}"; the powers are ${g.rules
                .powers(g.seats.length)
                .map((x) => `${x.id} ${x.name}`)
                .join(", ")}`,
            );
          const s = g.seats.findIndex((x) => x.powers.map(String).includes(p));
          if (inv.seat !== null && inv.seat !== s)
            throw forbidden("this invitation is for another seat");
          want = s;
        }
        if (want !== undefined) {
          if (!g.seats[want])
            throw invalid(`no seat ${want}; seats are 0 to ${g.seats.length - 1}`);
          if (taken.has(want)) throw conflict(`${g.seats[want]!.name} is taken`);
          seat = want;
        } else {
          seat = g.seats.findIndex((_, i) => !taken.has(i));
          if (seat === -1) throw conflict("every seat is taken");
        }
      }
      const now = this.ctx.now();
      if (existing) {
        await trx
          .updateTable("members")
          .set({ role: inv.role, seat })
          .where("game_id", "=", g.game.id)
          .where("user_id", "=", user.id)
          .execute();
      } else {
        await trx
          .insertInto("members")
          .values({ game_id: g.game.id, user_id: user.id, role: inv.role, seat, joined_at: now })
          .execute();
      }
      if (inv.seat !== null)
        await trx.updateTable("invites").set({ revoked: 1 }).where("code", "=", inv.code).execute();
      await this.emit(trx, g.game.id, "joined", "public", {
        player: user.name,
        role: inv.role,
        ...(seat !== null ? { seat, seatName: g.seats[seat]!.name } : {}),
      });
      if (seat !== null && g.game.status === "forming" && g.options.startWhenFull) {
        taken.add(seat);
        if (taken.size === g.seats.length) await this.startLocked(trx, g);
      }
    });
  }

  async start(user: User, gameId: string): Promise<void> {
    await this.mutate(gameId, async (trx, g) => {
      if (viewer(g, user).role !== "gm") throw forbidden("only the game master may do this");
      if (g.game.status !== "forming") throw conflict("the game has already started");
      await this.startLocked(trx, g);
    });
  }

  private deadline(g: FamilyGame, now: number): number {
    const unit = { days: 86_400_000, hours: 3_600_000, minutes: 60_000 }[g.options.deadlines.unit];
    return now + Math.round(g.options.deadlines.movement * unit);
  }

  private async startLocked(trx: Kysely<DB>, g: FamilyGame): Promise<void> {
    const now = this.ctx.now();
    const deadline = this.deadline(g, now);
    await trx.updateTable("games").set({ status: "active" }).where("id", "=", g.game.id).execute();
    await trx
      .updateTable("phase_state")
      .set({ state: "open", deadline_at: deadline, updated_at: now })
      .where("game_id", "=", g.game.id)
      .execute();
    await this.emit(trx, g.game.id, "started", "public", {
      phase: g.state.phase,
      deadline: iso(deadline),
    });
  }

  /**
   * A player's command set for the open turn: every line read against the position (a
   * verdict per line, in the judge's diagnostic shape); the set replaces the last one whole.
   * Lines the reader refuses are kept too: the adjudicator refuses them again in the report.
   */
  async submit(
    user: User,
    gameId: string,
    input: {
      orders: string | readonly string[];
      power?: string | undefined;
      final?: boolean | undefined;
      phase?: string | undefined;
    },
  ) {
    return this.mutate(gameId, async (trx, g) => {
      const v = viewer(g, user);
      if (v.role !== "player" || v.seat === null)
        throw forbidden("only a player with a seat may send commands in this game");
      const st = g.state;
      if (st.state === "forming") throw conflict("the game has not started yet");
      if (st.state === "done" || g.game.status === "finished") throw conflict("the game is over");
      if (input.phase !== undefined && input.phase.toUpperCase() !== st.phase)
        throw conflict(
          `the commands are for ${input.phase}, but the turn open is ${st.phase}: they were not stored`,
        );
      let power = v.powers[0]!;
      if (input.power !== undefined) {
        const p = powerOf(g, input.power);
        if (p === undefined || !v.powers.includes(p))
          throw forbidden(`you do not play "${input.power}"; you play ${v.powers.join(", ")}`);
        power = p;
      }
      const raw = typeof input.orders === "string" ? input.orders.split(/\r?\n/) : input.orders;
      const lines = raw.map((l) => l.trim()).filter((l) => l !== "");
      const checked = g.rules.check(g.position, power, lines);
      const diagnostics = checked.map((c) => ({
        line: c.line,
        text: c.text,
        kind: "order" as const,
        power,
        ok: c.ok,
        ...(c.ok ? { order: c.text } : { message: c.reason ?? "not understood" }),
      }));
      const now = this.ctx.now();
      await trx
        .insertInto("submissions")
        .values({
          game_id: gameId,
          phase_idx: st.phase_idx,
          phase: st.phase,
          power,
          user_id: user.id,
          orders: JSON.stringify(lines),
          final: input.final ? 1 : 0,
          diagnostics: JSON.stringify(diagnostics),
          received_at: now,
        })
        .execute();
      if (g.options.resolveEarly) {
        const latest = await this.latest(trx, g);
        const need = this.toOrder(g);
        const ready = need.length > 0 && need.every((p) => latest.get(p)?.final === 1) ? 1 : 0;
        await trx.updateTable("phase_state").set({ ready }).where("game_id", "=", gameId).execute();
      }
      return {
        phase: st.phase,
        final: input.final === true,
        receivedAt: iso(now)!,
        powers: [{ power, orders: lines }],
        diagnostics,
      };
    });
  }

  private toOrder(g: FamilyGame): string[] {
    const seated = new Set(g.seats.flatMap((s) => s.powers.map(String)));
    return g.rules.alive(g.position).filter((p) => seated.has(p));
  }

  private async latest(db: Kysely<DB>, g: FamilyGame) {
    const rows = await db
      .selectFrom("submissions")
      .select(["id", "power", "orders", "final", "received_at", "diagnostics"])
      .where("game_id", "=", g.game.id)
      .where("phase_idx", "=", g.state.phase_idx)
      .orderBy("id")
      .execute();
    const latest = new Map<string, (typeof rows)[number]>();
    for (const r of rows) latest.set(r.power, r);
    return latest;
  }

  /** The caller's command set on file for the open turn (the GM: every power's). */
  async current(user: User, gameId: string) {
    const g = await loadFamilyGame(this.db, gameId);
    const v = viewer(g, user);
    if (v.role !== "gm" && v.role !== "player")
      throw forbidden("commands are seen only by the power that sent them and the game master");
    const latest = await this.latest(this.db, g);
    return {
      phase: g.state.phase,
      sets: [...latest.values()]
        .filter((r) => v.role === "gm" || v.powers.includes(r.power))
        .map((r) => ({
          power: r.power,
          orders: parseJson<string[]>(r.orders),
          final: r.final === 1,
          receivedAt: iso(r.received_at),
          diagnostics: parseJson<unknown[]>(r.diagnostics),
        })),
    };
  }

  /**
   * Adjudicates turn `idx` if it is still open and due: the claim is the conditional update
   * of phase_state, as for every game. Returns whether this call adjudicated it.
   */
  async adjudicateIfDue(gameId: string, idx: number): Promise<boolean> {
    const now = this.ctx.now();
    return this.db.transaction().execute(async (trx) => {
      const claim = await trx
        .updateTable("phase_state")
        .set({ version: sql`version + 1` })
        .where("game_id", "=", gameId)
        .where("phase_idx", "=", idx)
        .where("state", "=", "open")
        .where((eb) => eb.or([eb("deadline_at", "<=", now), eb("ready", "=", 1)]))
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) return false;
      await this.resolve(trx, await loadFamilyGame(trx, gameId));
      return true;
    });
  }

  private async resolve(trx: Kysely<DB>, g: FamilyGame): Promise<void> {
    const now = this.ctx.now();
    const idx = g.state.phase_idx;
    const latest = await this.latest(trx, g);
    const orders: Record<string, string[]> = {};
    for (const [p, r] of latest) orders[p] = parseJson<string[]>(r.orders);
    const need = this.toOrder(g);
    const missed = need.filter((p) => !latest.has(p));
    const played = g.rules.adjudicate(g.position, g.head.rules, orders, g.game.id);
    const turn: FamilyTurn = {
      turn: g.rules.turn(g.position),
      phase: g.state.phase,
      orders,
      result: played.result,
      position: played.next,
      reports: played.reports,
      missed,
    };
    await trx
      .insertInto("phases")
      .values({
        game_id: g.game.id,
        idx,
        phase: g.state.phase,
        record: JSON.stringify(turn),
        superseded: 0,
        adjudicated_at: now,
      })
      .execute();
    for (const power of missed) {
      const seat = g.seats.findIndex((s) => s.powers.map(String).includes(power));
      const holder = g.members.find((m) => m.role === "player" && m.seat === seat);
      await trx
        .insertInto("nmrs")
        .values({
          game_id: g.game.id,
          phase_idx: idx,
          phase: g.state.phase,
          power,
          seat,
          user_id: holder?.user_id ?? null,
          at: now,
        })
        .execute();
    }
    const over = played.winners !== null;
    const next = turnPhase(g.rules.turn(played.next));
    const deadline = over ? null : this.deadline(g, now);
    await trx
      .updateTable("phase_state")
      .set({
        phase_idx: idx + 1,
        phase: next,
        state: over ? "done" : "open",
        deadline_at: deadline,
        remaining_ms: null,
        ready: 0,
        updated_at: now,
      })
      .where("game_id", "=", g.game.id)
      .execute();
    if (over) {
      await trx
        .updateTable("games")
        .set({
          status: "finished",
          result: JSON.stringify({ kind: "victory", winners: played.winners }),
        })
        .where("id", "=", g.game.id)
        .execute();
    }
    // Who sent commands is the moderator's to know, not the other players'.
    await this.emit(trx, g.game.id, "phase_resolved", "public", {
      index: idx,
      phase: g.state.phase,
      next: over ? null : next,
      deadline: iso(deadline),
      ...(over ? { winners: played.winners } : {}),
    });
    if (missed.length > 0)
      await this.emit(trx, g.game.id, "nmr", "gm", { phase: g.state.phase, powers: missed });
    this.ctx.log(`game ${g.game.id}: adjudicated ${g.state.phase} (phase ${idx})`);
  }

  /**
   * A power's report (seed 004 §8): the last adjudicated turn's, or turn `turn`'s; before the
   * first turn, the opening report. A player reads only its own power's; the GM any power's.
   */
  async report(
    user: User,
    gameId: string,
    q: { power?: string | undefined; turn?: number | undefined },
  ): Promise<{ power: string; turn: number; phase: string | null; report: string }> {
    if (!(await isFamilyGame(this.db, gameId))) {
      const m = await this.db
        .selectFrom("members")
        .select(["role", "seat"])
        .where("game_id", "=", gameId)
        .where("user_id", "=", user.id)
        .executeTakeFirst();
      if (!m || (m.role !== "gm" && m.seat === null))
        throw forbidden("reports are read by the game's players and its game master");
      throw conflict(
        "this game has no per-player reports (only Global Diplomacy games do): read its phases at /api/games/{id}/phases",
      );
    }
    const g = await loadFamilyGame(this.db, gameId);
    const v = viewer(g, user);
    if (v.role !== "gm" && (v.role !== "player" || v.seat === null))
      throw forbidden("a report is read only by its power's player and the game master");
    let power: string;
    if (q.power !== undefined) {
      const p = powerOf(g, q.power);
      if (p === undefined) throw invalid(`no power "${q.power}"`);
      if (v.role !== "gm" && !v.powers.includes(p))
        throw forbidden("you may read only your own power's report");
      power = p;
    } else if (v.role === "gm") {
      throw invalid("say whose report: ?power=3 (a power's number or name)");
    } else power = v.powers[0]!;
    if (q.turn !== undefined) {
      const t = g.turns.find((x) => x.turn === q.turn);
      if (!t)
        throw notFound(
          `no report for turn ${q.turn}: turns adjudicated so far are ${g.turns.map((x) => x.turn).join(", ") || "none"}`,
        );
      return { power, turn: t.turn, phase: t.phase, report: t.reports[power] ?? "" };
    }
    const last = g.turns.at(-1);
    if (last)
      return { power, turn: last.turn, phase: last.phase, report: last.reports[power] ?? "" };
    return {
      power,
      turn: 0,
      phase: null,
      report: g.rules.startReport(g.head.start, power, g.game.id),
    };
  }

  /** The moderator's view of every adjudicated turn: commands, results, reports, positions. */
  async turns(user: User, gameId: string) {
    if (!(await isFamilyGame(this.db, gameId))) {
      const m = await this.db
        .selectFrom("members")
        .select(["role"])
        .where("game_id", "=", gameId)
        .where("user_id", "=", user.id)
        .executeTakeFirst();
      if (m?.role !== "gm") throw forbidden("only the game master reads every turn");
      throw conflict(
        "this game is not a Global Diplomacy game: its phases are at /api/games/{id}/phases",
      );
    }
    const g = await loadFamilyGame(this.db, gameId);
    if (viewer(g, user).role !== "gm")
      throw forbidden(
        "only the game master reads every power's turn; players read their report at /api/games/{id}/report",
      );
    return { family: g.head.family, seed: g.head.seed, start: g.head.start, turns: g.turns };
  }

  /**
   * The whole map of a game whose map was made for it (Age of Discovery), for the game
   * master only: every area with its squares, adjacency and supply, and the grid geometry, in
   * the map's own frame. Players see only their report's map, in their own names.
   */
  async moderatorMap(user: User, gameId: string) {
    const family = await isFamilyGame(this.db, gameId);
    const g = family ? await loadFamilyGame(this.db, gameId) : null;
    const role = g
      ? viewer(g, user).role
      : (
          await this.db
            .selectFrom("members")
            .select(["role"])
            .where("game_id", "=", gameId)
            .where("user_id", "=", user.id)
            .executeTakeFirst()
        )?.role;
    if (role !== "gm")
      throw forbidden(
        "only the game master reads the whole map; players see theirs in their report (/api/games/{id}/report)",
      );
    if (!g?.rules.moderatorMap)
      throw conflict(
        `this game's map is not made for it (only Age of Discovery games are): ${g ? "its areas are the family's map (bin/entente global)" : "see /api/variants/{id}/geometry"}`,
      );
    return {
      family: g.head.family,
      seed: g.head.seed,
      players: g.seats.length,
      map: g.rules.moderatorMap(g.head.start),
    };
  }
}
