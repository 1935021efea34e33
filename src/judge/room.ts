import { type Kysely, sql } from "kysely";
import type { PositionJson } from "../engine/position-json.ts";
import type { PhaseType, PowerId } from "../engine/types.ts";
import type { Store } from "../store/db.ts";
import type { DB, Role } from "../store/schema.ts";
import type { Accounts } from "./accounts.ts";
import type { Adjudication } from "./adjudication.ts";
import type { BotMark, BotPlayers } from "./bots.ts";
import type { ConferencesView, ScoresView } from "./committee.ts";
import type { DaideMark, DaidePorts, DaideSeats } from "./daide.ts";
import type { Endings } from "./endings.ts";
import { conflict, forbidden, notFound } from "./errors.ts";
import { type FamilyGames, isFamilyGame, loadFamilyGame } from "./family.ts";
import { type GameData, loadGame } from "./game-data.ts";
import type { Games } from "./games.ts";
import type { GmTools } from "./gm-tools.ts";
import { latestSetRows } from "./latest.ts";
import type { GameOptions } from "./options.ts";
import { type LineDiagnostic, powersToOrder } from "./orders.ts";
import { loadPlayed, type PlayedGame, playedDiplomacy, playedFamily } from "./played.ts";
import type { Press } from "./press.ts";
import type { Bucket, TokenBuckets } from "./rate.ts";
import { effectiveRules, loadSequential } from "./schedule.ts";
import type { LostSeat } from "./seat-loss.ts";
import type { Submissions } from "./submissions.ts";
import type { UnitEdits } from "./unit-edits.ts";
import type { Views } from "./views.ts";
import type { Votes } from "./votes.ts";

/*
 * What every room of the judge shares: the store, the clock, the log, the family games
 * (family.ts), the counter of adjudications, and the helpers every operation uses: the
 * game's lock (`mutate`), the event log (`emit`), who the viewer is. The rooms (accounts,
 * games and seats, submissions, adjudication, votes, press, GM tools, unit edits, endings,
 * views) extend
 * `Room`; src/judge/judge.ts is the facade over them.
 *
 * Every change to a game runs in one transaction that starts by updating the game's
 * phase_state row (bumping its version, on a condition): on PostgreSQL that takes the row's
 * lock, on SQLite the database's write lock. So an order set is either wholly recorded before
 * the adjudication that reads it or refused because that phase has been adjudicated, and two
 * processes can never adjudicate one phase twice (the loser finds the row moved on). A crash
 * anywhere rolls the transaction back: the phase is still open and due, and is adjudicated on
 * the next tick after restart. The clock is `now()`, given from outside.
 */

export interface User {
  readonly id: string;
  readonly name: string;
}

export interface JudgeConfig {
  readonly store: Store;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
  /** Test hook: kill this process at a named point (`adjudicate-before-commit`). */
  readonly failpoint?: string | undefined;
  /** Where the web page is reached (links.ts), checked; null or absent: mails carry no links. */
  readonly publicUrl?: string | null | undefined;
  /**
   * The orders-rate quota: order sets one player may send in one game, at once (`burst`) and
   * then per second (submissions.ts; default DEFAULT_ORDERS_RATE); null: none.
   */
  readonly ordersRate?: Bucket | null | undefined;
  /**
   * API tokens unused this long (ms) expire: the next request with one is refused and it is
   * deleted (accounts.ts; default DEFAULT_TOKEN_IDLE_MS, 90 days); null: never.
   */
  readonly tokenIdleMs?: number | null | undefined;
  /**
   * The ports games with DAIDE seats are given (`entente serve --daide-ports`; daide.ts);
   * null or absent: no game may have DAIDE seats.
   */
  readonly daidePorts?: DaidePorts | null | undefined;
}

/** Tokens unused for 90 days expire (JudgeConfig.tokenIdleMs; ENTENTE_TOKEN_IDLE_DAYS). */
export const DEFAULT_TOKEN_IDLE_MS = 90 * 86_400_000;

export interface Viewer {
  readonly user: User | null;
  readonly role: Role | null;
  readonly seat: number | null;
  readonly powers: readonly PowerId[];
}

export interface SeatView {
  readonly index: number;
  readonly name: string;
  readonly powers: readonly string[];
  readonly player: string | null;
  /** A built-in player plays the seat (bots.ts): which, and whether the GM chose it. */
  readonly bot?: BotMark;
  /** The seat is kept for a DAIDE client (daide.ts): the client that took it, if one has. */
  readonly daide?: DaideMark;
}

export interface GameSummary {
  readonly id: string;
  readonly name: string;
  readonly variant: string;
  readonly scenario: string;
  readonly status: string;
  readonly phase: string | null;
  readonly deadline: string | null;
  readonly seats: number;
  readonly players: number;
  /** Seats played by built-in players (bots.ts), when there are any. */
  readonly bots?: number;
  /** The game's id as its players know it (`GD001`, labels.ts), when its GM chose one. */
  readonly label?: string;
}

export interface GameView extends GameSummary {
  readonly rules: unknown;
  readonly options: GameOptions;
  readonly state: string;
  readonly phaseIndex: number;
  readonly seatList: readonly SeatView[];
  readonly position: PositionJson;
  /**
   * DAIDE clients' seats (daide.ts): the port they connect to while the game is forming or
   * running (null once it is over).
   */
  readonly daide?: { readonly port: number | null };
  /** Powers that have something to order in the open phase. */
  readonly toOrder: readonly string[];
  readonly result: unknown;
  readonly you: {
    readonly role: Role;
    readonly seat: number | null;
    readonly powers: readonly string[];
  } | null;
  /** For the GM: the open invitations. */
  readonly invites?: readonly { code: string; role: string; seat: number | null }[];
  /** For a member who lost their seat and holds none: how (seat-loss.ts), theirs alone. */
  readonly lostSeat?: LostSeat;
  /** europe1935: the victory-point table, public at any time (docs/committee.md). */
  readonly scores?: ScoresView;
  /** europe1935: the running conference and the past ones. */
  readonly conferences?: ConferencesView;
  /** A game of another family (Global Diplomacy): its turn and where the reports are. */
  readonly family?: {
    readonly id: string;
    readonly name: string;
    readonly turn: number;
    readonly turnsAdjudicated: number;
    readonly report: string;
  };
}

export interface SubmissionAnswer {
  readonly phase: string;
  readonly final: boolean;
  readonly receivedAt: string;
  readonly powers: readonly { power: string; orders: readonly string[] }[];
  readonly diagnostics: readonly LineDiagnostic[];
  /** Kept for a later retreat or adjustment phase (`phase`), not the open one. */
  readonly early?: boolean;
}

export interface EventView {
  readonly id: number;
  readonly kind: string;
  readonly data: unknown;
  readonly at: string;
}

export type Tx = Kysely<DB>;

/**
 * What every hosted game has, whatever its family: its row, its phase state (the lock), its
 * seats, members and options. The operations that serve every family (seats, deadlines,
 * replacement, missed orders) take this.
 */
export type HostedGame = Pick<GameData, "game" | "state" | "members" | "seats" | "options">;

/** The kind of a phase by its name, for its deadline: a family's turn (`T3`) is a movement. */
export function phaseTypeOf(phase: string): PhaseType {
  const t = phase.slice(-1);
  return t === "R" || t === "A" ? t : "M";
}

/** The rooms of one judge. */
export interface Rooms {
  readonly accounts: Accounts;
  readonly games: Games;
  readonly submissions: Submissions;
  readonly adjudication: Adjudication;
  readonly votes: Votes;
  readonly press: Press;
  readonly gm: GmTools;
  readonly units: UnitEdits;
  readonly endings: Endings;
  readonly views: Views;
  readonly bots: BotPlayers;
  readonly daide: DaideSeats;
}

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
  /** Every room, for the few operations that cross rooms (a view after a change). */
  rooms: Rooms;
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

  protected get rooms(): Rooms {
    return this.core.rooms;
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

  protected async userNames(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("users")
      .select(["id", "name"])
      .where("id", "in", [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, r.name]));
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
