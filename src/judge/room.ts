import { type Kysely, sql } from "kysely";
import type { PowerId } from "../engine/types.ts";
import type { Store } from "../store/db.ts";
import type { DB } from "../store/schema.ts";
import { conflict, forbidden, notFound } from "./errors.ts";
import { type FamilyGames, isFamilyGame, loadFamilyGame } from "./family.ts";
import { type GameData, loadGame } from "./game-data.ts";
import { latestSetRows } from "./latest.ts";
import { powersToOrder } from "./orders.ts";
import { loadPlayed, type PlayedGame, playedDiplomacy, playedFamily } from "./played.ts";
import type { TokenBuckets } from "./rate.ts";
import { effectiveRules, loadSequential } from "./schedule.ts";
import type { DaidePorts, HostedGame, Tx, User, Viewer } from "./types.ts";

export type {
  EventView,
  GameSummary,
  GameView,
  HostedGame,
  SeatView,
  SubmissionAnswer,
  Tx,
  User,
  Viewer,
} from "./types.ts";
export { phaseTypeOf } from "./types.ts";

/*
 * What every room of the judge shares: the store, the clock, the log, the family games
 * (family.ts), the counter of adjudications, and the helpers every operation uses: the
 * game's lock (`mutate`), the event log (`emit`), who the viewer is. Every room extends
 * `Room`; a room that calls another is given it in its constructor (judge.ts builds them in
 * that order, docs/architecture.md draws the graph). This file imports no room.
 *
 * Every change to a game runs in one transaction that starts by updating the game's
 * phase_state row (bumping its version, on a condition): on PostgreSQL that takes the row's
 * lock, on SQLite the database's write lock. So an order set is either wholly recorded before
 * the adjudication that reads it or refused because that phase has been adjudicated, and two
 * processes can never adjudicate one phase twice (the loser finds the row moved on). A crash
 * anywhere rolls the transaction back: the phase is still open and due, and is adjudicated on
 * the next tick after restart. The clock is `now()`, given from outside.
 */

/** Tokens unused for 90 days expire (JudgeConfig.tokenIdleMs; ENTENTE_TOKEN_IDLE_DAYS). */
export const DEFAULT_TOKEN_IDLE_MS = 90 * 86_400_000;

/** What the rooms of one judge share. */
export interface JudgeCore {
  readonly store: Store;
  readonly now: () => number;
  readonly log: (m: string) => void;
  /** Test hook: kill this process at a named point (`adjudicate-before-commit`). */
  readonly failpoint: string | undefined;
  /** Games of another family (Global Diplomacy): src/judge/family.ts. */
  readonly families: FamilyGames;
  /** Phases this process adjudicated (for /api/health and the tests). */
  adjudications: number;
  /** The orders-rate quota's buckets, per game and player (null: no quota). */
  readonly orderBuckets: TokenBuckets | null;
  /** Tokens unused this long expire (null: never). */
  readonly tokenIdleMs: number | null;
  /** The ports of games with DAIDE seats (null: none may have them). */
  readonly daidePorts: DaidePorts | null;
}

/** A room of the judge: the shared core, and the helpers every operation uses. */
export abstract class Room {
  constructor(protected readonly core: JudgeCore) {}

  protected get db(): Kysely<DB> {
    return this.core.store.db;
  }

  protected get now(): () => number {
    return this.core.now;
  }

  protected get log(): (m: string) => void {
    return this.core.log;
  }

  protected get families(): FamilyGames {
    return this.core.families;
  }

  protected viewerIn(g: Pick<GameData, "members" | "seats">, user: User | null): Viewer {
    const m = user ? g.members.find((x) => x.user_id === user.id) : undefined;
    if (!user || !m) return { user, role: null, seat: null, powers: [] };
    const powers = m.seat !== null ? (g.seats[m.seat]?.powers ?? []) : [];
    return { user, role: m.role, seat: m.seat, powers };
  }

  /** Seated powers that have something to order now. */
  protected toOrder(g: GameData): PowerId[] {
    const seated = new Set(g.seats.flatMap((s) => s.powers));
    return powersToOrder(g.scenario.variant, g.position, g.record.rules).filter((p) =>
      seated.has(p),
    );
  }

  protected requireGm(g: Pick<GameData, "members">, user: User): void {
    const m = g.members.find((x) => x.user_id === user.id);
    if (m?.role !== "gm") throw forbidden("only the game master may do this");
  }

  /**
   * Runs `fn` in a transaction that holds the game's lock: the phase_state row updated first
   * (version + 1), then the game read inside the transaction.
   */
  protected async mutate<T>(
    gameId: string,
    fn: (trx: Tx, g: GameData) => Promise<T>,
    expectIdx?: number,
  ): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      let q = trx
        .updateTable("phase_state")
        .set({ version: sql`version + 1` })
        .where("game_id", "=", gameId);
      if (expectIdx !== undefined) q = q.where("phase_idx", "=", expectIdx);
      const r = await q.executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) {
        if (expectIdx !== undefined) throw conflict("the game has moved on; try again");
        throw notFound(`no game "${gameId}"`);
      }
      const g = await loadGame(trx, gameId);
      return fn(trx, g);
    });
  }

  /**
   * `mutate` for tools that need only the game's row, state and members, so that they serve
   * games of another family (Global Diplomacy, family.ts) too: pause, resume, deadline.
   */
  protected async mutateBase<T>(
    gameId: string,
    fn: (trx: Tx, g: HostedGame) => Promise<T>,
  ): Promise<T> {
    if (!(await isFamilyGame(this.db, gameId))) return this.mutate(gameId, fn);
    return this.families.mutate(gameId, fn);
  }

  /**
   * `mutate` for the tools that serve every family through what the game's rules say of it
   * (played.ts: powers, phase, who is still in): votes, press, ending the game, draws.
   */
  protected async mutatePlayed<T>(
    gameId: string,
    fn: (trx: Tx, g: PlayedGame) => Promise<T>,
  ): Promise<T> {
    if (!(await isFamilyGame(this.db, gameId)))
      return this.mutate(gameId, (trx, g) => fn(trx, playedDiplomacy(g)));
    return this.families.mutate(gameId, (trx, g) => fn(trx, playedFamily(g)));
  }

  /**
   * The seated powers that must order in the open phase, asked of the game's rules (the one
   * interface, src/engine/game.ts) for a game of any family.
   */
  protected async mustOrderNow(db: Kysely<DB>, gameId: string): Promise<string[]> {
    const g = await loadPlayed(db, gameId);
    const seated = new Set(g.seats.flatMap((s) => s.powers.map(String)));
    return g.state.state === "done" ? [] : g.mustOrder.filter((p) => seated.has(p));
  }

  /** Any game read back, as far as every family shares it (family games included). */
  protected async loadHosted(db: Kysely<DB>, gameId: string): Promise<HostedGame> {
    if (await isFamilyGame(db, gameId)) return loadFamilyGame(db, gameId);
    return loadGame(db, gameId);
  }

  /**
   * Latest order set per power for the open phase: each power's last row only, by an index
   * seek per power (latest.ts): every revision stays on file, and a player may revise
   * hundreds of times, so reading them all made each read grow with the phase's history
   * (docs/performance.md, "Long phases").
   */
  protected async latestSets(trx: Tx, g: GameData) {
    const rows = await latestSetRows(trx, {
      gameId: g.game.id,
      phaseIdx: g.state.phase_idx,
      phase: g.state.phase,
      powers: g.scenario.variant.powers.map((p) => p.id),
    });
    const latest = new Map<string, (typeof rows)[number]>();
    for (const r of rows) latest.set(r.power, r);
    return latest;
  }

  /** Ends a game of any family with this result: finished, its open proposals failed, told. */
  protected async finish(
    trx: Tx,
    g: Pick<HostedGame, "game">,
    result: Record<string, unknown>,
  ): Promise<void> {
    const now = this.now();
    await trx
      .updateTable("games")
      .set({ status: "finished", result: JSON.stringify(result) })
      .where("id", "=", g.game.id)
      .execute();
    await trx
      .updateTable("phase_state")
      .set({ state: "done", deadline_at: null, remaining_ms: null, ready: 0, updated_at: now })
      .where("game_id", "=", g.game.id)
      .execute();
    await trx
      .updateTable("proposals")
      .set({ status: "failed", closed_at: now })
      .where("game_id", "=", g.game.id)
      .where("status", "=", "open")
      .execute();
    await this.emit(trx, g.game.id, "game_over", "public", result);
  }

  /** The record a phase is played with: the GM's schedules and the contracts that count. */
  protected async playedRecord(trx: Tx, g: GameData) {
    if (g.record.rules.movement !== "sequential") return g.record;
    return { ...g.record, rules: effectiveRules(g, await loadSequential(trx, g.game.id)) };
  }

  protected async emit(trx: Tx, gameId: string, kind: string, audience: string, data: unknown) {
    await trx
      .insertInto("events")
      .values({ game_id: gameId, kind, audience, data: JSON.stringify(data), at: this.now() })
      .execute();
  }

  protected fail(point: string): void {
    if (this.core.failpoint === point) {
      this.log(`failpoint ${point}: killing the process`);
      process.kill(process.pid, "SIGKILL");
    }
  }
}
