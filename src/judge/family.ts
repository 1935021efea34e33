import { type Kysely, type Selectable, sql } from "kysely";
import type { AnyGameRules, Opaque } from "../engine/game.ts";
import { GameRulesError } from "../engine/game.ts";
import { applyEdits } from "../engine/record.ts";
import type { Seat } from "../engine/scenario.ts";
import type { PowerId } from "../engine/types.ts";
import { inSnapshot } from "../store/db.ts";
import type { DB, GamesTable, MembersTable, PhaseStateTable } from "../store/schema.ts";
import { gameFamily } from "../variants/game-rules.ts";
import type { FamilyHosting } from "../variants/global/rules.ts";
import { getGame } from "../variants/registry.ts";
import { conflict, forbidden, invalid, notFound } from "./errors.ts";
import { familyPlayers, judgeFamilyIds } from "./family-rules.ts";
import {
  familyMapSource,
  familyModeratorMap,
  familyReport,
  familyTurns,
  familyView,
} from "./family-views.ts";
import { FAMILY_SCENARIO, insertNewGame, iso, parseJson, recordEdits } from "./game-data.ts";
import { checkLabel, gameLabel } from "./labels.ts";
import { latestSetRows } from "./latest.ts";
import { recordMissed } from "./missed.ts";
import {
  DEFAULT_OPTIONS,
  type GameOptions,
  mergeOptions,
  type OptionsPatch,
  phaseLengthMs,
} from "./options.ts";
import { randomId } from "./password.ts";

/** The families' listing (GET /api/variants), kept here for the server's import. */
export { familyListing } from "./family-rules.ts";

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
 * Those reads are in family-views.ts; this file holds the games' changes.
 *
 * The family's own rules (reading commands, adjudicating a turn, who must act) are its game
 * rules (src/engine/game.ts), spoken to in their own types: a stored position is decoded to
 * the rules' state once, when the game is read (`loadFamilyGame`, `stateAt`), and a state
 * encoded back only to be stored. The reports, the options, the seats and the moderator's
 * map come from the family's hosting beside its rules (family-rules.ts). A family without
 * them is refused by createGame with a message.
 */

type Json = Record<string, unknown>;

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
  /** The family's game rules, and what the judge asks of it beyond them. */
  readonly rules: AnyGameRules;
  readonly hosting: FamilyHosting<Opaque<"state">>;
  readonly turns: readonly FamilyTurn[];
  /** The position of the turn open for commands, as stored (the GM's edits applied). */
  readonly position: Json;
  /** That position as the rules' state: the game the judge asks its rules about. */
  readonly open: Opaque<"state">;
}

/** A stored position of a game (its start, a turn's) as its rules' state. */
export function stateAt(g: Pick<FamilyGame, "hosting" | "head">, position: Json) {
  return g.hosting.load(position, g.head.rules);
}

/** The number of the turn a state is at (a family's phase is a turn: `T3` is turn 3). */
export function turnAt(g: Pick<FamilyGame, "rules">, state: Opaque<"state">): number {
  return g.rules.phase(state).index + 1;
}

export interface User {
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

/** A game of another family as stored, read on one snapshot of the database (`inSnapshot`). */
export function loadFamilyGame(db: Kysely<DB>, gameId: string): Promise<FamilyGame> {
  return inSnapshot(db, (snapshot) => readFamilyGame(snapshot, gameId));
}

async function readFamilyGame(db: Kysely<DB>, gameId: string): Promise<FamilyGame> {
  const game = await db.selectFrom("games").selectAll().where("id", "=", gameId).executeTakeFirst();
  if (!game || game.scenario !== FAMILY_SCENARIO) throw notFound(`no game "${gameId}"`);
  const head = parseJson<FamilyHead>(game.record_head);
  const family = gameFamily(head.family);
  if (!family) throw new Error(`game ${gameId}: the judge does not serve family ${head.family}`);
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
  const members = await db
    .selectFrom("members")
    .selectAll()
    .where("game_id", "=", gameId)
    .execute();
  // The GM's removed units (unit-edits.ts), applied to the position after the turn they follow.
  const edits = recordEdits(
    await db.selectFrom("edits").selectAll().where("game_id", "=", gameId).orderBy("id").execute(),
  );
  const edited = <P extends Json>(p: P, after: number): P =>
    applyEdits(
      p,
      edits.filter((e) => e.after === after),
    );
  const turns = rows.map((r, i) => {
    const t = parseJson<FamilyTurn>(r.record);
    return { ...t, position: edited(t.position, i + 1) };
  });
  const start = edited(head.start, 0);
  const position = turns.at(-1)?.position ?? start;
  return {
    game,
    options: parseJson<GameOptions>(game.options),
    state,
    seats: head.seats,
    members,
    head: { ...head, start },
    rules: family.rules,
    hosting: family.hosting,
    turns,
    position,
    open: family.hosting.load(position, head.rules),
  };
}

export function viewer(g: FamilyGame, user: User | null) {
  const m = user ? g.members.find((x) => x.user_id === user.id) : undefined;
  const powers = m?.seat !== null && m?.seat !== undefined ? (g.seats[m.seat]?.powers ?? []) : [];
  return { role: m?.role ?? null, seat: m?.seat ?? null, powers: powers.map(String) };
}

/** A power named by id ("3") or name ("England"), as the game's seats name it. */
export function powerOf(g: FamilyGame, name: string): string | undefined {
  const n = name.trim().toLowerCase();
  return g.rules
    .powers(g.open)
    .find(
      (p) => p.id === n || p.name.toLowerCase() === n || `${p.id}-${p.name}`.toLowerCase() === n,
    )?.id;
}

/**
 * A command set as sent (one power's lines, by its id or name; the first power the player
 * holds when none is named) checked against the open turn: a verdict per line. Shared by
 * storing a set and by checking one without storing it (the EMG mail's all-or-nothing sets).
 */
export function readCommands(
  g: FamilyGame,
  held: readonly string[],
  input: { power?: string | undefined; orders: string | readonly string[] },
) {
  let power = held[0]!;
  if (input.power !== undefined) {
    const p = powerOf(g, input.power);
    if (p === undefined || !held.includes(p))
      throw forbidden(`you do not play "${input.power}"; you play ${held.join(", ")}`);
    power = p;
  }
  const raw = typeof input.orders === "string" ? input.orders.split(/\r?\n/) : input.orders;
  const lines = raw.map((l) => l.trim()).filter((l) => l !== "");
  const diagnostics = g.rules.read(g.open, power, lines.join("\n")).verdicts.map((c) => ({
    line: c.line,
    text: c.text,
    kind: "order" as const,
    power,
    ok: c.ok,
    ...(c.ok ? { order: c.order } : { message: c.reason }),
  }));
  return { power, lines, diagnostics };
}

/**
 * Plays one turn from `before` (a state of the game) with these command sets, each read by
 * the rules and resolved by them: the turn as stored (the result and position encoded for
 * the store, every power's report issued under the game's id as its players know it,
 * labels.ts), the phase open after it, and the winners if the game ended. The scheduler's
 * turn and a GM's correction of it (gm-tools.ts) are both played here.
 */
export function playTurn(
  g: FamilyGame,
  before: Opaque<"state">,
  orders: Readonly<Record<string, readonly string[]>>,
  missed: readonly string[],
): { turn: FamilyTurn; next: string; winners: string[] | null } {
  const sets = new Map(
    Object.entries(orders).map(([p, lines]) => [
      p,
      g.rules.read(before, p, lines.join("\n")).orders,
    ]),
  );
  const played = g.rules.resolve(before, sets);
  const result = g.hosting.storedTurn(played.next);
  if (result === null) throw new Error(`game ${g.game.id}: ${played.phase} resolved to no turn`);
  const label = gameLabel(g.game);
  const turn: FamilyTurn = {
    turn: turnAt(g, before),
    phase: played.phase,
    orders,
    result,
    position: g.hosting.store(played.next),
    reports: Object.fromEntries(
      g.rules.powers(played.next).map((p) => [p.id, g.hosting.report(played.next, p.id, label)]),
    ),
    missed,
  };
  return {
    turn,
    next: g.rules.phase(played.next).name,
    winners: played.ended ? [...played.ended.winners] : null,
  };
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
      label?: string | undefined;
    },
  ): Promise<string> {
    const name = input.name.trim();
    if (name.length < 1 || name.length > 80) throw invalid("a game's name is 1 to 80 characters");
    const label = input.label === undefined ? null : checkLabel(input.label, "label");
    const family = gameFamily(input.variant);
    if (!family)
      throw invalid(
        `the judge does not host ${getGame(input.variant)?.name ?? input.variant} games yet; it hosts ${judgeFamilyIds().join(", ")} (play the others with bin/entente)`,
      );
    const { rules } = family;
    const players = familyPlayers(rules, input.players, input.scenario);
    let gameRules: Json;
    try {
      gameRules = family.hosting.readOptions(input.rules);
    } catch (e) {
      if (e instanceof GameRulesError) throw invalid(e.message);
      throw e;
    }
    const options = mergeOptions(DEFAULT_OPTIONS, input.options);
    const seed = input.seed ?? Math.floor(Math.random() * 2 ** 31);
    const start = rules.setup(seed, players);
    const head: FamilyHead = {
      format: "entente-family-game",
      family: rules.id,
      seed,
      rules: gameRules,
      seats: family.hosting
        .seats(players)
        .map((p) => ({ name: p.name, powers: [p.power as PowerId] })),
      start: family.hosting.store(start),
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
        phase: rules.phase(start).name,
        gmUserId: user.id,
        now,
        label,
      });
      await this.emit(trx, id, "game_created", "public", { name });
    });
    known.set(id, true);
    return id;
  }

  /** The game as the viewer may see it (family-views.ts). */
  view(user: User | null, gameId: string) {
    return familyView(this.db, user, gameId);
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
      const { power, lines, diagnostics } = readCommands(g, v.powers, input);
      const now = await this.storeSetLocked(trx, g, {
        power,
        lines,
        diagnostics,
        sender: user.id,
        final: input.final === true,
      });
      return {
        phase: st.phase,
        final: input.final === true,
        receivedAt: iso(now)!,
        powers: [{ power, orders: lines }],
        diagnostics,
      };
    });
  }

  /**
   * Stores a power's command set for the open turn (a player's, or a built-in player's:
   * bots.ts) with the game's lock held, and marks the turn ready when early resolution is on
   * and every power's latest set is final. Answers the time stored.
   */
  async storeSetLocked(
    trx: Kysely<DB>,
    g: FamilyGame,
    set: {
      power: string;
      lines: readonly string[];
      diagnostics: readonly unknown[];
      sender: string;
      final: boolean;
    },
  ): Promise<number> {
    const st = g.state;
    const now = this.ctx.now();
    await trx
      .insertInto("submissions")
      .values({
        game_id: g.game.id,
        phase_idx: st.phase_idx,
        phase: st.phase,
        power: set.power,
        user_id: set.sender,
        orders: JSON.stringify(set.lines),
        final: set.final ? 1 : 0,
        diagnostics: JSON.stringify(set.diagnostics),
        received_at: now,
      })
      .execute();
    if (g.options.resolveEarly) {
      const latest = await this.latest(trx, g);
      const need = this.toOrder(g);
      const ready = need.length > 0 && need.every((p) => latest.get(p)?.final === 1) ? 1 : 0;
      await trx
        .updateTable("phase_state")
        .set({ ready })
        .where("game_id", "=", g.game.id)
        .execute();
    }
    return now;
  }

  /** The seated powers that may send commands in the open turn. */
  toOrder(g: FamilyGame): string[] {
    const seated = new Set(g.seats.flatMap((s) => s.powers.map(String)));
    return g.rules.mayOrder(g.open).filter((p) => seated.has(p));
  }

  private async latest(db: Kysely<DB>, g: FamilyGame) {
    // Each power's last set only, by an index seek per power (latest.ts), not every revision.
    const rows = await latestSetRows(db, {
      gameId: g.game.id,
      phaseIdx: g.state.phase_idx,
      phase: g.state.phase,
      powers: g.seats.flatMap((s) => s.powers.map(String)),
    });
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
   * Plays the open turn, claimed by the judge's scheduler (adjudication.ts: the conditional
   * update of phase_state, as for every game), in the claim's transaction.
   */
  async resolveClaimed(
    trx: Kysely<DB>,
    g: FamilyGame,
    bots: ReadonlyMap<string, string> = new Map(),
  ): Promise<void> {
    const now = this.ctx.now();
    const idx = g.state.phase_idx;
    const latest = await this.latest(trx, g);
    const orders: Record<string, string[]> = {};
    for (const [p, r] of latest) orders[p] = parseJson<string[]>(r.orders);
    // Powers the takeover bot played (`bots`, bots.ts) still missed the turn.
    const missed = this.toOrder(g).filter((p) => !latest.has(p) || bots.has(p));
    const { turn, next, winners } = playTurn(g, g.open, orders, missed);
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
    // Missed commands and civil disorder: the judge's one path for every game (missed.ts).
    await recordMissed(trx, g, { idx, phase: g.state.phase, now }, missed, {
      emit: (k, a, d) => this.emit(trx, g.game.id, k, a, d),
      audience: "gm",
      bots,
    });
    const over = winners !== null;
    const deadline = over ? null : now + phaseLengthMs(g.options, "M");
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
          result: JSON.stringify({ kind: "victory", winners }),
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
      ...(over ? { winners } : {}),
    });
    if (missed.length > 0)
      await this.emit(trx, g.game.id, "nmr", "gm", { phase: g.state.phase, powers: missed });
    this.ctx.log(`game ${g.game.id}: adjudicated ${g.state.phase} (phase ${idx})`);
  }

  /** A power's report (family-views.ts). */
  report(user: User, gameId: string, q: { power?: string | undefined; turn?: number | undefined }) {
    return familyReport(this.db, user, gameId, q);
  }

  /** The moderator's view of every adjudicated turn (family-views.ts). */
  turns(user: User, gameId: string) {
    return familyTurns(this.db, user, gameId);
  }

  /** The whole generated map, for the GM (family-views.ts). */
  moderatorMap(user: User, gameId: string) {
    return familyModeratorMap(this.db, user, gameId);
  }

  /** What the viewer's own generated map is drawn from (family-views.ts). */
  mapSource(user: User, gameId: string) {
    return familyMapSource(this.db, user, gameId);
  }
}
