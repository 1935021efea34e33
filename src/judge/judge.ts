import { type Kysely, sql } from "kysely";
import { phaseName } from "../engine/phase.ts";
import { type PositionJson, writePosition } from "../engine/position-json.ts";
import { gameWinner, newRecord, type PhaseRecord, playPhase } from "../engine/record.ts";
import { readRules } from "../engine/rules.ts";
import { checkSequential } from "../engine/sequential.ts";
import type { PowerId } from "../engine/types.ts";
import type { Store } from "../store/db.ts";
import type { DB, ProposalKind, Role } from "../store/schema.ts";
import { getGame, getVariant, variantIds } from "../variants/registry.ts";
import { getScenario, scenariosOf } from "../variants/scenarios.ts";
import { scenarioOfRecord, variantFromData } from "../variants/variant-files.ts";
import { chairDeadline } from "./chair.ts";
import {
  type ActInput,
  type ConferencesView,
  committeeFields,
  committeeView,
  recordCommitteeAct,
  type ScoresView,
  withCommittee,
} from "./committee.ts";
import { conflict, forbidden, invalid, notFound, unauthenticated } from "./errors.ts";
import { FamilyGames, isFamilyGame, loadFamilyGame } from "./family.ts";
import {
  type GameData,
  gameSummary,
  insertInvite,
  insertNewGame,
  iso,
  loadGame,
  parseJson,
  type RemoveUnitEdit,
  seatOf,
  survivingSeats,
  yearsWithoutCentreChange,
} from "./game-data.ts";
import {
  DEFAULT_OPTIONS,
  type GameOptions,
  mergeOptions,
  type OptionsPatch,
  phaseLengthMs,
} from "./options.ts";
import {
  applyEarlySets,
  type LineDiagnostic,
  powersToOrder,
  type ReadOptions,
  readSubmission,
  type SubmissionInput,
  storeEarlySets,
  submissionPhase,
} from "./orders.ts";
import { hashPassword, newToken, randomId, tokenHash, verifyPassword } from "./password.ts";
import {
  type ContractInput,
  contractsView,
  declareContract,
  effectiveRules,
  loadSequential,
  phasesFor,
  rulesFor,
  scheduleView,
  sequentialGameRules,
  sequentialRecord,
  setSchedule,
  withdrawContract,
} from "./schedule.ts";

/*
 * The judge: accounts, games, seats, order submission, deadlines and adjudication, missed
 * orders and civil disorder, votes, press and the game master's tools, over the store.
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
}

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
}

export interface GameView extends GameSummary {
  readonly rules: unknown;
  readonly options: GameOptions;
  readonly state: string;
  readonly phaseIndex: number;
  readonly seatList: readonly SeatView[];
  readonly position: PositionJson;
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

type Tx = Kysely<DB>;

export class Judge {
  readonly store: Store;
  readonly now: () => number;
  private readonly log: (m: string) => void;
  private readonly failpoint: string | undefined;
  /** Phases this process adjudicated (for /api/health and the tests). */
  adjudications = 0;
  private ticking = false;
  /** Games of another family (Global Diplomacy): src/judge/family.ts. */
  private readonly families: FamilyGames;

  constructor(cfg: JudgeConfig) {
    this.store = cfg.store;
    this.now = cfg.now ?? Date.now;
    this.log = cfg.log ?? (() => {});
    this.failpoint = cfg.failpoint;
    this.families = new FamilyGames({ db: cfg.store.db, now: this.now, log: this.log });
  }

  private get db(): Kysely<DB> {
    return this.store.db;
  }

  private fail(point: string): void {
    if (this.failpoint === point) {
      this.log(`failpoint ${point}: killing the process`);
      process.kill(process.pid, "SIGKILL");
    }
  }

  // -------------------------------------------------------------------------------------------
  // Accounts

  async register(name: string, password: string): Promise<{ user: User; token: string }> {
    const n = name.trim();
    if (!/^[\p{L}\p{N}_.-]{2,40}$/u.test(n)) {
      throw invalid("a user name is 2 to 40 letters, digits, '.', '_' or '-'");
    }
    if (password.length < 8) throw invalid("a password needs at least 8 characters");
    const hash = await hashPassword(password);
    const user = { id: randomId(12), name: n };
    const now = this.now();
    try {
      await this.db.transaction().execute(async (trx) => {
        const taken = await trx
          .selectFrom("users")
          .select("id")
          .where(sql<string>`lower(name)`, "=", n.toLowerCase())
          .executeTakeFirst();
        if (taken) throw conflict(`the name "${n}" is taken`);
        await trx
          .insertInto("users")
          .values({ id: user.id, name: n, password_hash: hash, created_at: now })
          .execute();
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(`the name "${n}" is taken`);
      throw e;
    }
    const token = await this.issueToken(user.id, "login");
    return { user, token: token.token };
  }

  async login(name: string, password: string): Promise<{ user: User; token: string }> {
    const row = await this.db
      .selectFrom("users")
      .selectAll()
      .where(sql<string>`lower(name)`, "=", name.trim().toLowerCase())
      .executeTakeFirst();
    // An unknown name costs a hash as a known one does: the answer's time tells nothing.
    DUMMY_HASH ??= hashPassword("no such user: a hash to spend the same time on");
    const stored = row?.password_hash ?? (await DUMMY_HASH);
    if (!(await verifyPassword(password, stored)) || !row) {
      throw unauthenticated("wrong user name or password");
    }
    const token = await this.issueToken(row.id, "login");
    return { user: { id: row.id, name: row.name }, token: token.token };
  }

  async issueToken(userId: string, label: string): Promise<{ id: string; token: string }> {
    const token = newToken();
    const id = randomId(10);
    await this.db
      .insertInto("tokens")
      .values({
        id,
        user_id: userId,
        token_hash: tokenHash(token),
        label: label.slice(0, 100),
        created_at: this.now(),
        last_used_at: null,
      })
      .execute();
    return { id, token };
  }

  async listTokens(user: User) {
    const rows = await this.db
      .selectFrom("tokens")
      .select(["id", "label", "created_at", "last_used_at"])
      .where("user_id", "=", user.id)
      .orderBy("created_at")
      .execute();
    return rows.map((r) => ({
      id: r.id,
      label: r.label,
      createdAt: iso(r.created_at),
      lastUsedAt: iso(r.last_used_at),
    }));
  }

  async revokeToken(user: User, id: string): Promise<void> {
    const r = await this.db
      .deleteFrom("tokens")
      .where("id", "=", id)
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw notFound(`no token "${id}" of yours`);
  }

  /** The user a token belongs to, or null. */
  async authenticate(token: string): Promise<User | null> {
    const row = await this.db
      .selectFrom("tokens")
      .innerJoin("users", "users.id", "tokens.user_id")
      .select(["users.id", "users.name", "tokens.id as token_id", "tokens.last_used_at"])
      .where("tokens.token_hash", "=", tokenHash(token))
      .executeTakeFirst();
    if (!row) return null;
    const now = this.now();
    if (row.last_used_at === null || now - row.last_used_at > 60_000) {
      await this.db
        .updateTable("tokens")
        .set({ last_used_at: now })
        .where("id", "=", row.token_id)
        .execute();
    }
    return { id: row.id, name: row.name };
  }

  // -------------------------------------------------------------------------------------------
  // Games

  async createGame(
    user: User,
    input: {
      name: string;
      variant?: string | undefined;
      scenario?: string | undefined;
      rules?: unknown;
      options?: OptionsPatch | undefined;
      seed?: number | undefined;
      /** An uploaded variant data file (docs/variant.schema.json), kept with the game. */
      variantData?: unknown;
      /** Players of a game family with a chosen count (discovery: 9 to 20; family.ts). */
      players?: number | undefined;
    },
  ): Promise<GameView> {
    if (input.variantData === undefined && input.variant && getGame(input.variant))
      return this.gameView(
        user,
        await this.families.create(user, { ...input, variant: input.variant }),
      );
    if (input.players !== undefined)
      throw invalid(
        `players is for games whose player count is chosen (discovery: 9 to 20); ${input.variant ?? "classical"} games name theirs with scenario`,
      );
    const name = input.name.trim();
    if (name.length < 1 || name.length > 80) throw invalid("a game's name is 1 to 80 characters");
    const upload = input.variantData === undefined ? null : variantFromData(input.variantData);
    if (upload && !upload.ok)
      throw invalid(`variantData is not a valid variant:\n  ${upload.errors.join("\n  ")}`);
    if (upload && input.variant !== undefined)
      throw invalid("give variant (a built-in id) or variantData (a variant file), not both");
    const variantId = upload?.ok ? upload.variant.id : (input.variant ?? "classical");
    if (!upload && !getVariant(variantId)) {
      throw invalid(`unknown variant "${variantId}"; known: ${variantIds().join(", ")}`);
    }
    const variantData = upload ? (input.variantData as Record<string, unknown>) : undefined;
    const scenario = variantData
      ? scenarioOfRecord({ variant: variantId, scenario: input.scenario, variantData })
      : getScenario(variantId, input.scenario);
    if (!scenario) {
      throw invalid(
        `${variantId} has no scenario "${input.scenario}"; choose one of ${scenariosOf(variantId)
          .map((s) => s.id)
          .join(", ")}`,
      );
    }
    const rules = readRules(input.rules, scenario.variant.rules);
    if (!rules.ok) throw invalid(rules.error);
    const sequential = checkSequential(scenario.variant, scenario.variant.start, rules.rules);
    if (sequential) throw invalid(sequential);
    const options = mergeOptions(DEFAULT_OPTIONS, input.options);
    const seed = input.seed ?? Math.floor(Math.random() * 2 ** 31);
    const gameRules = sequentialGameRules(rules.rules);
    const { phases: _none, ...head } = newRecord(scenario, gameRules, seed, variantData);
    const id = randomId(8);
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      await insertNewGame(trx, {
        id,
        name,
        variant: variantId,
        scenario: scenario.id,
        options: options,
        head,
        phase: phaseName(scenario.variant.start.phase),
        gmUserId: user.id,
        now,
      });
      await this.emit(trx, id, "game_created", "public", { name });
    });
    return this.gameView(user, id);
  }

  async listGames(): Promise<GameSummary[]> {
    const rows = await this.db
      .selectFrom("games")
      .innerJoin("phase_state", "phase_state.game_id", "games.id")
      .select([
        "games.id",
        "games.name",
        "games.variant",
        "games.scenario",
        "games.status",
        "games.record_head",
        "phase_state.phase",
        "phase_state.deadline_at",
        "phase_state.state",
      ])
      .orderBy("games.created_at", "desc")
      .limit(500)
      .execute();
    const counts = await this.db
      .selectFrom("members")
      .select(["game_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("role", "=", "player")
      .groupBy("game_id")
      .execute();
    const players = new Map(counts.map((c) => [c.game_id, Number(c.n)]));
    return rows.map((r) =>
      gameSummary(
        r,
        r,
        parseJson<{ seats: unknown[] }>(r.record_head).seats.length,
        players.get(r.id) ?? 0,
      ),
    );
  }

  private viewerIn(g: Pick<GameData, "members" | "seats">, user: User | null): Viewer {
    const m = user ? g.members.find((x) => x.user_id === user.id) : undefined;
    if (!user || !m) return { user, role: null, seat: null, powers: [] };
    const powers = m.seat !== null ? (g.seats[m.seat]?.powers ?? []) : [];
    return { user, role: m.role, seat: m.seat, powers };
  }

  async gameView(user: User | null, gameId: string): Promise<GameView> {
    if (await isFamilyGame(this.db, gameId)) return this.families.view(user, gameId);
    const g = await loadGame(this.db, gameId);
    const v = this.viewerIn(g, user);
    const names = await this.userNames(g.members.map((m) => m.user_id));
    const seatList = g.seats.map((s, i) => {
      const holder = g.members.find((m) => m.seat === i && m.role === "player");
      return {
        index: i,
        name: s.name,
        powers: [...s.powers],
        player: holder ? (names.get(holder.user_id) ?? null) : null,
      };
    });
    const st = g.state;
    let invites: GameView["invites"];
    if (v.role === "gm") {
      const rows = await this.db
        .selectFrom("invites")
        .select(["code", "role", "seat"])
        .where("game_id", "=", gameId)
        .where("revoked", "=", 0)
        .execute();
      invites = rows;
    }
    const last = g.record.phases[g.record.phases.length - 1];
    const position = last?.position ?? g.record.start;
    return {
      ...gameSummary(g.game, st, g.seats.length, seatList.filter((s) => s.player !== null).length),
      rules: rulesFor(v, g.record.rules),
      options: g.options,
      state: st.state,
      phaseIndex: st.phase_idx,
      seatList,
      position,
      toOrder: st.state === "done" ? [] : this.toOrder(g),
      result: g.game.result ? parseJson<unknown>(g.game.result) : null,
      you: v.role ? { role: v.role, seat: v.seat, powers: [...v.powers] } : null,
      ...(invites ? { invites } : {}),
      ...(await committeeFields(this.db, g)),
    };
  }

  /** Seated powers that have something to order now. */
  private toOrder(g: GameData): PowerId[] {
    const seated = new Set(g.seats.flatMap((s) => s.powers));
    return powersToOrder(g.scenario.variant, g.position, g.record.rules).filter((p) =>
      seated.has(p),
    );
  }

  private async userNames(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("users")
      .select(["id", "name"])
      .where("id", "in", [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /**
   * The phase history: every adjudicated phase's record (public once adjudicated; with
   * sequential movement, only the GM reads the slots: src/judge/schedule.ts).
   */
  async phases(gameId: string, user: User | null = null): Promise<PhaseRecord[]> {
    const g = await loadGame(this.db, gameId);
    return phasesFor(this.viewerIn(g, user), g.record.rules, g.record.phases);
  }

  /** The whole game record (docs/records.md), as the judge played it. */
  async record(gameId: string, user: User | null = null) {
    const g = await loadGame(this.db, gameId);
    return withCommittee(this.db, g, this.viewerIn(g, user), g.record);
  }

  /**
   * The record as a viewer may read it: while the game is on, its seed (which decides the
   * game's random events to come, such as the two-player game's coin toss) is shown only to
   * the GM; everybody gets it once the game is over.
   */
  async recordFor(user: User | null, gameId: string) {
    const g = await loadGame(this.db, gameId);
    // Sequential movement: the GM's record has the schedules; nobody else's (schedule.ts).
    const seqRecord = sequentialRecord(
      this.viewerIn(g, user),
      g,
      await loadSequential(this.db, gameId),
    );
    // europe1935: the committee's acts, goals withheld from other powers (committee.ts).
    const record = await withCommittee(this.db, g, this.viewerIn(g, user), seqRecord);
    if (g.game.status === "finished" || this.viewerIn(g, user).role === "gm") return record;
    return {
      ...record,
      seed: null,
      seedHidden: "the seed decides random events still to come: published when the game ends",
    };
  }

  // -------------------------------------------------------------------------------------------
  // Invitations, seats

  async createInvite(
    user: User,
    gameId: string,
    role: "player" | "observer",
    seat: number | null,
  ): Promise<{ code: string }> {
    if (await isFamilyGame(this.db, gameId))
      return this.families.createInvite(user, gameId, role, seat);
    const g = await loadGame(this.db, gameId);
    this.requireGm(g, user);
    return insertInvite(this.db, {
      gameId,
      role,
      seat,
      seats: g.seats.length,
      by: user.id,
      now: this.now(),
    });
  }

  async inviteInfo(code: string) {
    const inv = await this.db
      .selectFrom("invites")
      .selectAll()
      .where("code", "=", code)
      .where("revoked", "=", 0)
      .executeTakeFirst();
    if (!inv) throw notFound("no such invitation (it may have been withdrawn)");
    if (await isFamilyGame(this.db, inv.game_id))
      return this.families.inviteInfo(inv.game_id, inv.role, inv.seat);
    const g = await loadGame(this.db, inv.game_id);
    const taken = new Set(g.members.flatMap((m) => (m.seat === null ? [] : [m.seat])));
    return {
      game: { id: g.game.id, name: g.game.name, variant: g.game.variant, status: g.game.status },
      role: inv.role,
      seat: inv.seat,
      freeSeats: g.seats
        .map((s, i) => ({ index: i, name: s.name, powers: [...s.powers] }))
        .filter((s) => !taken.has(s.index) && (inv.seat === null || inv.seat === s.index)),
    };
  }

  /** Joins a game through an invitation: a seat (the one asked for, or the first free one). */
  async acceptInvite(
    user: User,
    code: string,
    wanted: { seat?: number | undefined; power?: string | undefined },
  ): Promise<GameView> {
    const inv = await this.db
      .selectFrom("invites")
      .selectAll()
      .where("code", "=", code)
      .where("revoked", "=", 0)
      .executeTakeFirst();
    if (!inv) throw notFound("no such invitation (it may have been withdrawn)");
    const gameId = inv.game_id;
    if (await isFamilyGame(this.db, gameId)) {
      await this.families.join(user, inv, wanted);
      return this.gameView(user, gameId);
    }
    await this.mutate(gameId, async (trx, g) => {
      if (g.game.status === "finished") throw conflict("the game is over");
      const existing = g.members.find((m) => m.user_id === user.id);
      if (existing?.role === "gm") throw conflict("you are the game master of this game");
      if (existing?.role === "player" && existing.seat !== null) {
        throw conflict(`you already play ${g.seats[existing.seat]?.name} in this game`);
      }
      let seat: number | null = null;
      if (inv.role === "player") {
        const taken = new Set(g.members.flatMap((m) => (m.seat === null ? [] : [m.seat])));
        let want = wanted.seat ?? null;
        if (wanted.power !== undefined) {
          want = seatOf(g.seats, wanted.power.toLowerCase());
          if (want === -1) throw invalid(`nobody plays "${wanted.power}" in this game`);
        }
        if (inv.seat !== null) {
          if (want !== null && want !== inv.seat) {
            throw invalid(`this invitation is for seat ${inv.seat} (${g.seats[inv.seat]?.name})`);
          }
          want = inv.seat;
        }
        if (want !== null) {
          if (!g.seats[want])
            throw invalid(`no seat ${want}; seats are 0 to ${g.seats.length - 1}`);
          if (taken.has(want)) throw conflict(`${g.seats[want]!.name} is taken`);
          seat = want;
        } else {
          seat = g.seats.findIndex((_, i) => !taken.has(i));
          if (seat === -1) throw conflict("every seat is taken");
        }
      }
      const now = this.now();
      if (existing) {
        await trx
          .updateTable("members")
          .set({ role: inv.role, seat })
          .where("game_id", "=", gameId)
          .where("user_id", "=", user.id)
          .execute();
      } else {
        await trx
          .insertInto("members")
          .values({ game_id: gameId, user_id: user.id, role: inv.role, seat, joined_at: now })
          .execute();
      }
      if (inv.seat !== null) {
        await trx.updateTable("invites").set({ revoked: 1 }).where("code", "=", code).execute();
      }
      await this.emit(trx, gameId, "joined", "public", {
        player: user.name,
        role: inv.role,
        ...(seat !== null ? { seat, seatName: g.seats[seat]!.name } : {}),
      });
      if (seat !== null && g.game.status === "forming" && g.options.startWhenFull) {
        const filled = new Set(g.members.flatMap((m) => (m.seat === null ? [] : [m.seat])));
        filled.add(seat);
        if (filled.size === g.seats.length) await this.startLocked(trx, g);
      }
    });
    return this.gameView(user, gameId);
  }

  async start(user: User, gameId: string): Promise<GameView> {
    if (await isFamilyGame(this.db, gameId)) {
      await this.families.start(user, gameId);
      return this.gameView(user, gameId);
    }
    await this.mutate(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.game.status !== "forming") throw conflict("the game has already started");
      await this.startLocked(trx, g);
    });
    return this.gameView(user, gameId);
  }

  private async startLocked(trx: Tx, g: GameData): Promise<void> {
    const now = this.now();
    await trx.updateTable("games").set({ status: "active" }).where("id", "=", g.game.id).execute();
    // Chaired play (chair.ts): no deadline; the chair resolves.
    const deadline = await chairDeadline(
      trx,
      g.game.id,
      now + phaseLengthMs(g.options, g.position.phase.type),
    );
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

  private requireGm(g: Pick<GameData, "members">, user: User): void {
    const m = g.members.find((x) => x.user_id === user.id);
    if (m?.role !== "gm") throw forbidden("only the game master may do this");
  }

  /**
   * Runs `fn` in a transaction that holds the game's lock: the phase_state row updated first
   * (version + 1), then the game read inside the transaction.
   */
  private async mutate<T>(
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
  private async mutateBase<T>(
    gameId: string,
    fn: (trx: Tx, g: Pick<GameData, "game" | "state" | "members">) => Promise<T>,
  ): Promise<T> {
    if (!(await isFamilyGame(this.db, gameId))) return this.mutate(gameId, fn);
    return this.families.mutate(gameId, fn);
  }

  // -------------------------------------------------------------------------------------------
  // Orders

  async submitOrders(
    user: User,
    gameId: string,
    input: SubmissionInput & { phase?: string | undefined },
    readOptions: ReadOptions = {},
  ): Promise<SubmissionAnswer> {
    if (await isFamilyGame(this.db, gameId)) return this.families.submit(user, gameId, input);
    return this.mutate(gameId, async (trx, g) => {
      const v = this.viewerIn(g, user);
      if (v.role !== "player" || v.seat === null) {
        throw forbidden("only a player with a seat may send orders in this game");
      }
      const st = g.state;
      if (st.state === "forming") throw conflict("the game has not started yet");
      if (st.state === "done" || g.game.status === "finished") throw conflict("the game is over");
      // Orders for a later retreat or adjustment phase are kept for it (seed 002 II(5)).
      const target = submissionPhase(input.phase, st.phase);
      const position = target.kind === "early" ? null : g.position;
      const rules = g.record.rules;
      const read = readSubmission(
        g.scenario.variant,
        position,
        rules,
        v.powers,
        input,
        readOptions,
      );
      const now = this.now();
      const powers: { power: string; orders: readonly string[] }[] = [];
      if (target.kind === "early") {
        await storeEarlySets(trx, gameId, target.phase, user.id, read.sets, now);
        const sets = [...read.sets].map(([power, orders]) => ({ power, orders }));
        const at = iso(now)!;
        return {
          phase: target.phase,
          final: read.final,
          receivedAt: at,
          powers: sets,
          diagnostics: read.lines,
          early: true,
        };
      }
      for (const [power, orders] of read.sets) {
        const diag = read.lines.filter((l) => l.power === power);
        await trx
          .insertInto("submissions")
          .values({
            game_id: gameId,
            phase_idx: st.phase_idx,
            phase: st.phase,
            power,
            user_id: user.id,
            orders: JSON.stringify(orders),
            final: read.final ? 1 : 0,
            diagnostics: JSON.stringify(diag),
            received_at: now,
          })
          .execute();
        powers.push({ power, orders });
      }
      await this.updateReady(trx, g);
      return {
        phase: st.phase,
        final: read.final,
        receivedAt: iso(now)!,
        powers,
        diagnostics: read.lines,
      };
    });
  }

  /** Latest order set per power for the open phase. */
  private async latestSets(trx: Tx, g: GameData) {
    const rows = await trx
      .selectFrom("submissions")
      .select(["id", "power", "orders", "final", "received_at", "user_id", "diagnostics"])
      .where("game_id", "=", g.game.id)
      .where("phase_idx", "=", g.state.phase_idx)
      .where("phase", "=", g.state.phase)
      .orderBy("id")
      .execute();
    const latest = new Map<string, (typeof rows)[number]>();
    for (const r of rows) latest.set(r.power, r);
    return latest;
  }

  private async updateReady(trx: Tx, g: GameData): Promise<void> {
    // Without early resolution the flag stays 0: no write (g.state was read under the lock).
    if (!g.options.resolveEarly && g.state.ready === 0) return;
    let ready = 0;
    if (g.options.resolveEarly) {
      const latest = await this.latestSets(trx, g);
      const need = this.toOrder(g);
      ready = need.length > 0 && need.every((p) => latest.get(p)?.final === 1) ? 1 : 0;
    }
    await trx.updateTable("phase_state").set({ ready }).where("game_id", "=", g.game.id).execute();
  }

  /** The caller's current order sets for the open phase (the GM sees every power's). */
  async currentOrders(user: User, gameId: string) {
    if (await isFamilyGame(this.db, gameId)) return this.families.current(user, gameId);
    const g = await loadGame(this.db, gameId);
    const v = this.viewerIn(g, user);
    if (v.role !== "gm" && v.role !== "player") {
      throw forbidden("orders are seen only by the power that sent them and the game master");
    }
    const latest = await this.latestSets(this.db, g);
    const visible = [...latest.values()].filter(
      (r) => v.role === "gm" || v.powers.includes(r.power as PowerId),
    );
    return {
      phase: g.state.phase,
      sets: visible.map((r) => ({
        power: r.power,
        orders: parseJson<string[]>(r.orders),
        final: r.final === 1,
        receivedAt: iso(r.received_at),
        diagnostics: parseJson<LineDiagnostic[]>(r.diagnostics),
      })),
    };
  }

  /**
   * How each line of an order set reads for the open phase, as submitOrders would read it,
   * storing nothing: for every game family (src/mail's EMG dialect stores a set only when
   * every line is valid, seed 004 §9).
   */
  async checkOrders(
    user: User,
    gameId: string,
    input: SubmissionInput,
    readOptions: ReadOptions = {},
  ): Promise<{ phase: string; diagnostics: readonly LineDiagnostic[] }> {
    const family = await isFamilyGame(this.db, gameId);
    const g = family ? await loadFamilyGame(this.db, gameId) : await loadGame(this.db, gameId);
    const v = this.viewerIn(g, user);
    if (v.role !== "player" || v.seat === null) {
      throw forbidden("only a player with a seat may send orders in this game");
    }
    if (!("rules" in g)) {
      const read = readSubmission(
        g.scenario.variant,
        g.position,
        g.record.rules,
        v.powers,
        input,
        readOptions,
      );
      return { phase: g.state.phase, diagnostics: read.lines };
    }
    const power = input.power ?? v.powers[0]!;
    if (!v.powers.includes(power as PowerId)) throw forbidden(`you do not play "${power}"`);
    const raw = typeof input.orders === "string" ? input.orders.split(/\r?\n/) : input.orders;
    const lines = raw.map((l) => l.trim()).filter((l) => l !== "");
    const diagnostics = g.rules.check(g.position, power, lines).map((c) => ({
      line: c.line,
      text: c.text,
      kind: "order" as const,
      power,
      ok: c.ok,
      ...(c.ok ? { order: c.text } : { message: c.reason ?? "not understood" }),
    }));
    return { phase: g.state.phase, diagnostics };
  }

  // -------------------------------------------------------------------------------------------
  // Adjudication

  /** Adjudicates every phase that is due now. Returns how many this call adjudicated. */
  async tick(): Promise<number> {
    if (this.ticking) return 0;
    this.ticking = true;
    try {
      const now = this.now();
      const due = await this.db
        .selectFrom("phase_state")
        .select(["game_id", "phase_idx"])
        .where("state", "=", "open")
        .where((eb) => eb.or([eb("deadline_at", "<=", now), eb("ready", "=", 1)]))
        .execute();
      let n = 0;
      for (const d of due) {
        try {
          if (await this.adjudicateIfDue(d.game_id, d.phase_idx)) n++;
        } catch (e) {
          this.log(`game ${d.game_id}: adjudication failed: ${(e as Error).stack ?? e}`);
        }
      }
      return n;
    } finally {
      this.ticking = false;
    }
  }

  /**
   * Adjudicates phase `idx` of the game if it is still open and due. Exactly once: the claim
   * is the conditional update at the start of the transaction.
   */
  async adjudicateIfDue(gameId: string, idx: number): Promise<boolean> {
    if (await isFamilyGame(this.db, gameId)) {
      const done = await this.families.adjudicateIfDue(gameId, idx);
      if (done) this.adjudications++;
      return done;
    }
    const now = this.now();
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
      const g = await loadGame(trx, gameId);
      const ended = await this.decideVotes(trx, g);
      if (!ended) await this.resolve(trx, g);
      this.fail("adjudicate-before-commit");
      this.adjudications++;
      return true;
    });
  }

  /** Plays the open phase with the latest order sets; writes the phase, NMRs, next state. */
  private async resolve(trx: Tx, g: GameData): Promise<void> {
    const now = this.now();
    const idx = g.state.phase_idx;
    const latest = await this.latestSets(trx, g);
    const orders = new Map<PowerId, string[]>();
    for (const [power, r] of latest) orders.set(power as PowerId, parseJson<string[]>(r.orders));
    const sent = new Map([...latest].map(([p, r]) => [p, r.received_at]));
    const early = await applyEarlySets(trx, g, sent, orders);
    const need = this.toOrder(g);
    const next = playPhase(g.scenario, await this.playedRecord(trx, g), orders);
    const phase = next.phases[next.phases.length - 1]!;
    await trx
      .insertInto("phases")
      .values({
        game_id: g.game.id,
        idx,
        phase: phase.phase,
        record: JSON.stringify(phase),
        superseded: 0,
        adjudicated_at: now,
      })
      .execute();
    // Missed orders (seed 002 VII(6)): adjudicated without them, recorded.
    const missed = need.filter((p) => !latest.has(p) && !early.has(p));
    for (const power of missed) {
      const seat = seatOf(g.seats, power);
      const holder = g.members.find((m) => m.role === "player" && m.seat === seat);
      await trx
        .insertInto("nmrs")
        .values({
          game_id: g.game.id,
          phase_idx: idx,
          phase: phase.phase,
          power,
          seat,
          user_id: holder?.user_id ?? null,
          at: now,
        })
        .execute();
    }
    const disorder = await this.civilDisorder(trx, g, missed);
    const winner = gameWinner(next);
    const nextPhase = phase.position.phase;
    const nextType = nextPhase.slice(-1) as "M" | "R" | "A";
    const deadline = await chairDeadline(trx, g.game.id, now + phaseLengthMs(g.options, nextType));
    await trx
      .updateTable("phase_state")
      .set({
        phase_idx: idx + 1,
        phase: nextPhase,
        state: winner ? "done" : "open",
        deadline_at: winner ? null : deadline,
        remaining_ms: null,
        ready: 0,
        updated_at: now,
      })
      .where("game_id", "=", g.game.id)
      .execute();
    if (winner) {
      await trx
        .updateTable("games")
        .set({ status: "finished", result: JSON.stringify({ kind: "solo", winner }) })
        .where("id", "=", g.game.id)
        .execute();
    }
    await this.emit(trx, g.game.id, "phase_resolved", "public", {
      index: idx,
      phase: phase.phase,
      next: winner ? null : nextPhase,
      deadline: winner ? null : iso(deadline),
      nmr: missed,
      civilDisorder: disorder,
      ...(winner ? { winner } : {}),
    });
    this.log(`game ${g.game.id}: adjudicated ${phase.phase} (phase ${idx})`);
  }

  /**
   * Seats whose player missed `civilDisorderAfter` phases in a row (counting this one) are
   * declared in civil disorder: the player leaves the seat, which is offered to a replacement.
   */
  private async civilDisorder(trx: Tx, g: GameData, missed: readonly PowerId[]) {
    const limit = g.options.civilDisorderAfter;
    if (limit === 0 || missed.length === 0) return [];
    const out: string[] = [];
    const seats = new Set(missed.map((p) => seatOf(g.seats, p)));
    for (const seat of seats) {
      // A seat is in NMR only when all its powers that had to order missed.
      const holder = g.members.find((m) => m.role === "player" && m.seat === seat);
      if (!holder) continue;
      const lastSent = await trx
        .selectFrom("submissions")
        .select((eb) => eb.fn.max("phase_idx").as("m"))
        .where("game_id", "=", g.game.id)
        .where("user_id", "=", holder.user_id)
        .executeTakeFirst();
      const since = lastSent?.m ?? -1;
      const nmrs = await trx
        .selectFrom("nmrs")
        .select("phase_idx")
        .distinct()
        .where("game_id", "=", g.game.id)
        .where("seat", "=", seat)
        .where("user_id", "=", holder.user_id)
        .where("phase_idx", ">", Number(since))
        .execute();
      if (nmrs.length < limit) continue;
      await trx
        .updateTable("members")
        .set({ role: "observer", seat: null })
        .where("game_id", "=", g.game.id)
        .where("user_id", "=", holder.user_id)
        .execute();
      const code = randomId(16);
      await trx
        .insertInto("invites")
        .values({
          code,
          game_id: g.game.id,
          role: "player",
          seat,
          created_by: holder.user_id,
          created_at: this.now(),
          revoked: 0,
        })
        .execute();
      const name = g.seats[seat]!.name;
      out.push(name);
      await this.emit(trx, g.game.id, "civil_disorder", "public", {
        seat,
        seatName: name,
        missed: nmrs.length,
      });
      await this.emit(trx, g.game.id, "replacement_needed", "gm", { seat, seatName: name, code });
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Votes (seed 002 IX)

  async propose(
    user: User,
    gameId: string,
    input: {
      kind: ProposalKind;
      powers?: readonly string[] | undefined;
      text?: string | undefined;
      options?: OptionsPatch | undefined;
    },
  ) {
    return this.mutate(gameId, async (trx, g) => {
      const v = this.viewerIn(g, user);
      const isGm = v.role === "gm";
      if (!(v.role === "player" && v.seat !== null) && !(isGm && input.kind === "houserule")) {
        throw forbidden("only players (and the GM, for house rules) may make proposals");
      }
      if (g.game.status !== "active") throw conflict("proposals are made while the game is on");
      const survivors = survivingSeats(g.seats, g.position);
      let powers: string[] | null = null;
      let text = input.text?.trim() ?? "";
      let options: OptionsPatch | null = null;
      if (input.kind === "draw") {
        const all = survivors.flatMap((i) => g.seats[i]!.powers);
        powers = input.powers ? input.powers.map((p) => p.toLowerCase()) : [...all];
        for (const p of powers) {
          if (!all.includes(p as PowerId)) throw invalid(`${p} is not a surviving power`);
        }
        if (powers.length === 0) throw invalid("a draw includes at least one power");
        const seatsIn = new Set(powers.map((p) => seatOf(g.seats, p)));
        powers = [...new Set(g.seats.flatMap((s, i) => (seatsIn.has(i) ? s.powers : [])))].filter(
          (p) => all.includes(p),
        );
        if (!text) {
          text =
            seatsIn.size === survivors.length
              ? "A draw including all survivors"
              : `A draw of ${[...seatsIn].map((i) => g.seats[i]!.name).join(", ")}`;
        }
      } else if (input.kind === "concede") {
        if (input.powers?.length !== 1) {
          throw invalid("a win is conceded to exactly one player: give one power");
        }
        const p = input.powers[0]!.toLowerCase();
        const seat = seatOf(g.seats, p);
        if (seat === -1 || !survivors.includes(seat))
          throw invalid(`${p} is not a surviving power`);
        powers = [...g.seats[seat]!.powers];
        if (!text) text = `Concede the win to ${g.seats[seat]!.name}`;
      } else {
        if (!text) throw invalid("a house-rule proposal needs a text saying what changes");
        if (input.options) {
          mergeOptions(g.options, input.options); // checked now, applied if it passes
          options = input.options;
        }
      }
      if (text.length > 2000) throw invalid("a proposal's text is at most 2000 characters");
      const row = await trx
        .insertInto("proposals")
        .values({
          game_id: gameId,
          kind: input.kind,
          powers: powers ? JSON.stringify(powers) : null,
          text,
          options: options ? JSON.stringify(options) : null,
          proposer_user: user.id,
          proposer_seat: v.seat,
          due_idx: g.state.phase_idx,
          status: "open",
          counts: null,
          created_at: this.now(),
          closed_at: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      await this.emit(trx, gameId, "proposal", "public", {
        id,
        kind: input.kind,
        text,
        powers,
        due: g.state.phase,
      });
      return { id, kind: input.kind, text, powers, options, due: g.state.phase, status: "open" };
    });
  }

  /** Whose vote this viewer casts on a proposal: `seat:N`, `gm`, or null (no vote). */
  private voterKey(g: GameData, v: Viewer, kind: ProposalKind): string | null {
    if (v.role === "player" && v.seat !== null) {
      return survivingSeats(g.seats, g.position).includes(v.seat) ? `seat:${v.seat}` : null;
    }
    if (v.role === "gm" && kind === "houserule") return "gm";
    return null;
  }

  async vote(user: User, gameId: string, proposalId: number, vote: "yes" | "no" | "abstain") {
    return this.mutate(gameId, async (trx, g) => {
      const p = await trx
        .selectFrom("proposals")
        .selectAll()
        .where("id", "=", proposalId)
        .where("game_id", "=", gameId)
        .executeTakeFirst();
      if (!p) throw notFound(`no proposal ${proposalId} in this game`);
      if (p.status !== "open") throw conflict("this vote is over");
      const voter = this.voterKey(g, this.viewerIn(g, user), p.kind);
      if (!voter) throw forbidden("you have no vote on this proposal");
      const now = this.now();
      await trx
        .deleteFrom("ballots")
        .where("proposal_id", "=", proposalId)
        .where("voter", "=", voter)
        .execute();
      await trx
        .insertInto("ballots")
        .values({ proposal_id: proposalId, voter, vote, user_id: user.id, at: now })
        .execute();
      return { proposal: proposalId, vote, due: g.state.phase };
    });
  }

  async proposals(user: User, gameId: string) {
    const g = await loadGame(this.db, gameId);
    const v = this.viewerIn(g, user);
    if (!v.role) throw forbidden("you are not in this game");
    const rows = await this.db
      .selectFrom("proposals")
      .selectAll()
      .where("game_id", "=", gameId)
      .orderBy("id")
      .execute();
    const out = [];
    for (const p of rows) {
      const voter = this.voterKey(g, v, p.kind);
      const mine = voter
        ? await this.db
            .selectFrom("ballots")
            .select("vote")
            .where("proposal_id", "=", p.id)
            .where("voter", "=", voter)
            .executeTakeFirst()
        : undefined;
      out.push({
        id: Number(p.id),
        kind: p.kind,
        text: p.text,
        powers: p.powers ? parseJson<string[]>(p.powers) : null,
        options: p.options ? parseJson<OptionsPatch>(p.options) : null,
        status: p.status,
        due: p.due_idx,
        counts: p.counts ? parseJson<unknown>(p.counts) : null,
        yourVote: p.status === "open" && voter ? (mine?.vote ?? null) : undefined,
        yours: p.proposer_user === user.id,
      });
    }
    return out;
  }

  /**
   * Decides the proposals due with this phase's orders. Unanimity among those who do not
   * abstain; an uncast vote is a no; the player a win is conceded to votes yes. Only the
   * counts are published. Returns true when a draw or concession ended the game: its result
   * is published instead of the adjudication (seed 002 IX(4)).
   */
  private async decideVotes(trx: Tx, g: GameData): Promise<boolean> {
    const due = await trx
      .selectFrom("proposals")
      .selectAll()
      .where("game_id", "=", g.game.id)
      .where("status", "=", "open")
      .where("due_idx", "<=", g.state.phase_idx)
      .orderBy("id")
      .execute();
    const now = this.now();
    const survivors = survivingSeats(g.seats, g.position);
    const seated = new Set(
      g.members.flatMap((m) => (m.role === "player" && m.seat !== null ? [m.seat] : [])),
    );
    let ended = false;
    let options = g.options;
    for (const p of due) {
      const ballots = await trx
        .selectFrom("ballots")
        .select(["voter", "vote"])
        .where("proposal_id", "=", p.id)
        .execute();
      const cast = new Map(ballots.map((b) => [b.voter, b.vote]));
      const voters = survivors.filter((s) => seated.has(s)).map((s) => `seat:${s}`);
      if (p.kind === "houserule") voters.push("gm");
      if (p.kind === "concede") {
        const target = seatOf(g.seats, parseJson<string[]>(p.powers ?? "[]")[0] ?? "");
        cast.set(`seat:${target}`, "yes");
      }
      const counts = { for: 0, against: 0, abstain: 0 };
      for (const voter of voters) {
        const vote = cast.get(voter);
        if (vote === "yes") counts.for++;
        else if (vote === "abstain") counts.abstain++;
        else counts.against++;
      }
      const passed = !ended && counts.against === 0 && counts.for > 0;
      await trx
        .updateTable("proposals")
        .set({
          status: passed ? "passed" : "failed",
          counts: JSON.stringify(counts),
          closed_at: now,
        })
        .where("id", "=", p.id)
        .execute();
      await this.emit(trx, g.game.id, "vote_result", "public", {
        id: Number(p.id),
        kind: p.kind,
        text: p.text,
        passed,
        ...counts,
      });
      if (!passed) continue;
      if (p.kind === "houserule") {
        if (p.options) {
          options = mergeOptions(options, parseJson<OptionsPatch>(p.options));
          await trx
            .updateTable("games")
            .set({ options: JSON.stringify(options) })
            .where("id", "=", g.game.id)
            .execute();
        }
        continue;
      }
      const powers = parseJson<string[]>(p.powers ?? "[]");
      const result =
        p.kind === "draw"
          ? { kind: "draw", powers, by: "vote" }
          : { kind: "concession", winner: powers[0], powers, by: "vote" };
      await this.finish(trx, g, result);
      ended = true;
    }
    return ended;
  }

  private async finish(trx: Tx, g: GameData, result: Record<string, unknown>): Promise<void> {
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

  // -------------------------------------------------------------------------------------------
  // Press (seed 002 X)

  async sendPress(
    user: User,
    gameId: string,
    input: {
      to: "all" | readonly string[];
      body: string;
      kind?: string | undefined;
      signedAs?: string | undefined;
    },
  ) {
    return this.mutate(gameId, async (trx, g) => {
      const v = this.viewerIn(g, user);
      const kind = (input.kind ?? "white").toLowerCase().replace(/[\s_]+/g, "-");
      if (kind === "dark-grey" || kind === "dark-gray") {
        throw invalid(
          "dark grey press (attributed to somebody else) is not accepted (seed 002 X(1)): send white (signed) or grey (anonymous) press",
        );
      }
      if (kind === "black") {
        throw invalid(
          "black press (attributed to the GM) is not accepted (seed 002 X(1)): send white (signed) or grey (anonymous) press",
        );
      }
      if (kind === "gray") return this.pressLocked(trx, g, v, { ...input, kind: "grey" });
      if (kind !== "white" && kind !== "grey") {
        throw invalid(`press is "white" (signed) or "grey" (anonymous), not "${input.kind}"`);
      }
      return this.pressLocked(trx, g, v, { ...input, kind });
    });
  }

  private async pressLocked(
    trx: Tx,
    g: GameData,
    v: Viewer,
    input: {
      to: "all" | readonly string[];
      body: string;
      kind: "white" | "grey";
      signedAs?: string | undefined;
    },
  ) {
    const isGm = v.role === "gm";
    if (!isGm && !(v.role === "player" && v.seat !== null)) {
      throw forbidden("only players and the game master send press");
    }
    const body = input.body.trim();
    if (body.length === 0) throw invalid("the message is empty");
    if (body.length > 20_000) throw invalid("a message is at most 20000 characters");
    if (input.signedAs !== undefined) {
      const as = input.signedAs.toLowerCase();
      if (as === "gm" || as === "game master") {
        throw invalid("black press (signed as the GM) is not accepted (seed 002 X(1))");
      }
      if (!v.powers.includes(as as PowerId)) {
        throw invalid("dark grey press (signed as somebody else) is not accepted (seed 002 X(1))");
      }
    }
    if (isGm && input.kind === "grey") throw invalid("the GM's messages are always signed");
    if (!isGm) {
      if (input.kind === "white" && !g.options.press.white)
        throw invalid("white press is off in this game");
      if (input.kind === "grey" && !g.options.press.grey)
        throw invalid("grey press is off in this game");
      const type = g.state.phase.slice(-1);
      if (
        g.game.status === "active" &&
        type !== "M" &&
        !g.options.press.duringRetreatsAndAdjustments
      ) {
        throw conflict(
          "there is no negotiation outside the spring and fall phases (seed 002 II(5)); send it when the next movement phase opens",
        );
      }
    }
    const all = g.scenario.variant.powers.map((p) => p.id as string);
    let recipients: "all" | string[];
    if (input.to === "all") recipients = "all";
    else {
      recipients = [...new Set(input.to.map((p) => p.toLowerCase()))];
      if (recipients.length === 0) throw invalid('give at least one recipient power, or "all"');
      for (const p of recipients) {
        if (!all.includes(p)) throw invalid(`unknown power "${p}"; use ${all.join(", ")} or "all"`);
        if (v.powers.includes(p as PowerId)) throw invalid(`${p} is yours: no need to write to it`);
      }
    }
    const now = this.now();
    const authorPower = isGm ? null : (v.powers[0] ?? null);
    const row = await trx
      .insertInto("press")
      .values({
        game_id: g.game.id,
        phase_idx: g.state.phase_idx,
        phase: g.state.phase,
        author_user: v.user!.id,
        author_power: authorPower,
        kind: input.kind,
        recipients: JSON.stringify(recipients),
        body,
        at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const audience =
      recipients === "all" ? "public" : `powers:${[...recipients, ...v.powers].join(",")}`;
    await this.emit(trx, g.game.id, "press", audience, {
      id: Number(row.id),
      kind: input.kind,
      to: recipients,
      phase: g.state.phase,
    });
    return {
      id: Number(row.id),
      kind: input.kind,
      to: recipients,
      phase: g.state.phase,
      at: iso(now),
    };
  }

  /**
   * The messages a viewer may read: to all, to one of their powers, or from them. Grey
   * authorship is shown to nobody but the author and the GM (seed 002 X(2)).
   */
  async press(user: User | null, gameId: string, afterId = 0) {
    const g = await loadGame(this.db, gameId);
    const v = this.viewerIn(g, user);
    const rows = await this.db
      .selectFrom("press")
      .selectAll()
      .where("game_id", "=", gameId)
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(1000)
      .execute();
    const seatNames = (power: string | null) =>
      power === null ? "GM" : (g.seats[seatOf(g.seats, power)]?.name ?? power);
    const out = [];
    for (const r of rows) {
      const to = parseJson<"all" | string[]>(r.recipients);
      const mine = v.user !== null && r.author_user === v.user.id;
      const toMe = to === "all" || to.some((p) => v.powers.includes(p as PowerId));
      if (!(v.role === "gm" || mine || toMe)) continue;
      const showAuthor = r.kind === "white" || v.role === "gm" || mine;
      out.push({
        id: Number(r.id),
        phase: r.phase,
        kind: r.kind,
        from: showAuthor ? (r.author_power ?? "gm") : null,
        fromName: showAuthor ? seatNames(r.author_power) : "Anonymous",
        to,
        body: r.body,
        at: iso(r.at),
        ...(mine ? { yours: true } : {}),
      });
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Game master's tools

  async pause(user: User, gameId: string) {
    await this.mutateBase(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.state.state !== "open") throw conflict(`the game is ${g.state.state}, not running`);
      const now = this.now();
      const remaining = Math.max(0, (g.state.deadline_at ?? now) - now);
      await trx
        .updateTable("phase_state")
        .set({ state: "paused", remaining_ms: remaining, deadline_at: null, updated_at: now })
        .where("game_id", "=", gameId)
        .execute();
      await this.emit(trx, gameId, "paused", "public", { phase: g.state.phase });
    });
    return this.gameView(user, gameId);
  }

  async resume(user: User, gameId: string) {
    await this.mutateBase(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.state.state !== "paused") throw conflict("the game is not paused");
      const now = this.now();
      const deadline = await chairDeadline(
        trx,
        gameId,
        now + Math.max(g.state.remaining_ms ?? 0, 60_000),
      );
      await trx
        .updateTable("phase_state")
        .set({ state: "open", remaining_ms: null, deadline_at: deadline, updated_at: now })
        .where("game_id", "=", gameId)
        .execute();
      await this.emit(trx, gameId, "resumed", "public", {
        phase: g.state.phase,
        deadline: iso(deadline),
      });
    });
    return this.gameView(user, gameId);
  }

  /** Moves the deadline: later by an amount, or to a given time (now or past: resolve next tick). */
  async setDeadline(
    user: User,
    gameId: string,
    input: { extendMinutes?: number | undefined; at?: string | undefined },
  ) {
    await this.mutateBase(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.state.state !== "open" && g.state.state !== "paused") {
        throw conflict(`the game is ${g.state.state}: there is no deadline to move`);
      }
      const now = this.now();
      let deadline: number;
      if (input.at !== undefined) {
        deadline = Date.parse(input.at);
        if (Number.isNaN(deadline))
          throw invalid(`"at" must be a date and time (ISO 8601), not "${input.at}"`);
      } else if (input.extendMinutes !== undefined) {
        const base =
          g.state.state === "paused"
            ? now + (g.state.remaining_ms ?? 0)
            : (g.state.deadline_at ?? now);
        deadline = base + input.extendMinutes * 60_000;
      } else throw invalid('give "extendMinutes" or "at"');
      const set =
        g.state.state === "paused"
          ? { remaining_ms: Math.max(0, deadline - now), updated_at: now }
          : { deadline_at: deadline, updated_at: now };
      await trx.updateTable("phase_state").set(set).where("game_id", "=", gameId).execute();
      await this.emit(trx, gameId, "deadline", "public", {
        phase: g.state.phase,
        deadline: iso(deadline),
      });
    });
    return this.gameView(user, gameId);
  }

  /**
   * Corrects the last adjudication (seed 002 VIII(1)): allowed until the next phase is
   * adjudicated. The phase is played again from the same position with its orders, some
   * powers' sets replaced by the GM (a late order accepted, a mistyped one fixed); the old
   * result is kept, marked superseded.
   */
  async correct(
    user: User,
    gameId: string,
    input: { orders?: Readonly<Record<string, readonly string[]>> | undefined; reason: string },
  ) {
    await this.mutate(gameId, async (trx, g) => {
      this.requireGm(g, user);
      const n = g.record.phases.length;
      if (n === 0) throw conflict("no phase has been adjudicated yet");
      const result = g.game.result ? parseJson<{ kind: string }>(g.game.result) : null;
      if (result && result.kind !== "solo") {
        throw conflict("the game ended by vote or by the GM; there is nothing to correct");
      }
      const last = g.record.phases[n - 1]!;
      const orders = new Map<PowerId, string[]>(
        Object.entries(last.orders).map(([p, l]) => [p as PowerId, [...l]]),
      );
      for (const [p, list] of Object.entries(input.orders ?? {})) {
        const power = p.toLowerCase() as PowerId;
        if (!g.scenario.variant.powers.some((x) => x.id === power))
          throw invalid(`unknown power "${p}"`);
        orders.set(power, [...list]);
      }
      const base = {
        ...(await this.playedRecord(trx, g)),
        phases: g.record.phases.slice(0, n - 1),
      };
      let again: ReturnType<typeof playPhase>;
      try {
        again = playPhase(g.scenario, base, orders);
      } catch (e) {
        throw invalid((e as Error).message);
      }
      const phase = again.phases[again.phases.length - 1]!;
      const now = this.now();
      await trx
        .updateTable("phases")
        .set({ superseded: 1 })
        .where("game_id", "=", gameId)
        .where("idx", "=", n - 1)
        .where("superseded", "=", 0)
        .execute();
      await trx
        .insertInto("phases")
        .values({
          game_id: gameId,
          idx: n - 1,
          phase: phase.phase,
          record: JSON.stringify(phase),
          superseded: 0,
          adjudicated_at: now,
        })
        .execute();
      // Powers whose orders the GM supplied did not miss the phase after all.
      const supplied = Object.keys(input.orders ?? {}).map((p) => p.toLowerCase());
      if (supplied.length > 0) {
        await trx
          .deleteFrom("nmrs")
          .where("game_id", "=", gameId)
          .where("phase_idx", "=", n - 1)
          .where("power", "in", supplied)
          .execute();
      }
      const winner = gameWinner(again);
      const nextType = phase.position.phase.slice(-1) as "M" | "R" | "A";
      const keepDeadline = g.state.state === "open" && g.state.deadline_at !== null;
      const deadline = keepDeadline
        ? g.state.deadline_at!
        : now + phaseLengthMs(g.options, nextType);
      await trx
        .updateTable("phase_state")
        .set({
          phase: phase.position.phase,
          state: winner ? "done" : g.state.state === "paused" ? "paused" : "open",
          deadline_at: winner || g.state.state === "paused" ? null : deadline,
          ready: 0,
          updated_at: now,
        })
        .where("game_id", "=", gameId)
        .execute();
      await trx
        .updateTable("games")
        .set(
          winner
            ? { status: "finished", result: JSON.stringify({ kind: "solo", winner }) }
            : { status: "active", result: null },
        )
        .where("id", "=", gameId)
        .execute();
      await this.emit(trx, gameId, "phase_corrected", "public", {
        index: n - 1,
        phase: phase.phase,
        next: phase.position.phase,
        reason: input.reason,
        powers: supplied,
      });
    });
    return this.gameView(user, gameId);
  }

  /** Removes a unit from the board now (seed 002 VIII(2): an extra unit, removed at once). */
  async removeUnit(
    user: User,
    gameId: string,
    input: { power: string; unit: string; reason: string },
  ) {
    await this.mutate(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.state.state === "done") throw conflict("the game is over");
      const power = input.power.toLowerCase();
      const pos = writePosition(g.scenario.variant, g.position);
      const wanted = input.unit.trim().replace(/\s+/g, " ");
      const list = pos.units[power] ?? [];
      const unit = list.find((u) => u.toLowerCase() === wanted.toLowerCase());
      if (!unit) {
        throw invalid(
          `${power} has no unit "${input.unit}"; its units: ${list.join(", ") || "none"}`,
        );
      }
      const edit: RemoveUnitEdit = { power, unit };
      await trx
        .insertInto("edits")
        .values({
          game_id: gameId,
          after_idx: g.record.phases.length,
          kind: "remove-unit",
          data: JSON.stringify(edit),
          reason: input.reason,
          user_id: user.id,
          at: this.now(),
        })
        .execute();
      await this.emit(trx, gameId, "unit_removed", "public", { ...edit, reason: input.reason });
    });
    return this.gameView(user, gameId);
  }

  /** Gives a seat to another user (by name), or vacates it with an invitation for a replacement. */
  async replacePlayer(
    user: User,
    gameId: string,
    input: { seat: number; user?: string | undefined },
  ) {
    return this.mutate(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (!g.seats[input.seat]) throw invalid(`no seat ${input.seat}`);
      const old = g.members.find((m) => m.role === "player" && m.seat === input.seat);
      if (old) {
        await trx
          .updateTable("members")
          .set({ role: "observer", seat: null })
          .where("game_id", "=", gameId)
          .where("user_id", "=", old.user_id)
          .execute();
      }
      let code: string | null = null;
      let name: string | null = null;
      if (input.user !== undefined) {
        const u = await trx
          .selectFrom("users")
          .select(["id", "name"])
          .where(sql<string>`lower(name)`, "=", input.user.toLowerCase())
          .executeTakeFirst();
        if (!u) throw notFound(`no user "${input.user}"`);
        const m = g.members.find((x) => x.user_id === u.id);
        if (m?.role === "gm") throw invalid("the game master cannot take a seat");
        if (m?.role === "player" && m.seat !== null && m.seat !== input.seat) {
          throw conflict(`${u.name} already plays ${g.seats[m.seat]?.name}`);
        }
        if (m) {
          await trx
            .updateTable("members")
            .set({ role: "player", seat: input.seat })
            .where("game_id", "=", gameId)
            .where("user_id", "=", u.id)
            .execute();
        } else {
          await trx
            .insertInto("members")
            .values({
              game_id: gameId,
              user_id: u.id,
              role: "player",
              seat: input.seat,
              joined_at: this.now(),
            })
            .execute();
        }
        name = u.name;
      } else {
        code = randomId(16);
        await trx
          .insertInto("invites")
          .values({
            code,
            game_id: gameId,
            role: "player",
            seat: input.seat,
            created_by: user.id,
            created_at: this.now(),
            revoked: 0,
          })
          .execute();
      }
      await this.emit(trx, gameId, "player_replaced", "public", {
        seat: input.seat,
        seatName: g.seats[input.seat]!.name,
        player: name,
      });
      return { seat: input.seat, player: name, invite: code };
    });
  }

  /** Ends the game: a draw, a conceded win, or abandoned. */
  async endGame(
    user: User,
    gameId: string,
    input: {
      result: "draw" | "concession" | "abandoned";
      powers?: readonly string[] | undefined;
      note?: string | undefined;
    },
  ) {
    await this.mutate(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.game.status === "finished") throw conflict("the game is already over");
      const powers = (input.powers ?? []).map((p) => p.toLowerCase());
      for (const p of powers) {
        if (seatOf(g.seats, p) === -1) throw invalid(`nobody plays "${p}" in this game`);
      }
      if (input.result === "concession" && powers.length !== 1) {
        throw invalid("a concession names exactly one power");
      }
      const result =
        input.result === "draw"
          ? {
              kind: "draw",
              powers:
                powers.length > 0
                  ? powers
                  : survivingSeats(g.seats, g.position).flatMap((i) => g.seats[i]!.powers),
              by: "gm",
            }
          : input.result === "concession"
            ? { kind: "concession", winner: powers[0], by: "gm" }
            : { kind: "abandoned", by: "gm" };
      await this.finish(trx, g, { ...result, ...(input.note ? { note: input.note } : {}) });
    });
    return this.gameView(user, gameId);
  }

  /**
   * Seed 002 IX(2), Alternative A: after `drawAfterYearsWithoutChange` game years with no
   * supply centre changing hands, the GM may, after a warning, declare a draw of all
   * survivors. `warn: true` gives the warning; the declaration needs one given earlier.
   */
  async declareDraw(user: User, gameId: string, input: { warn: boolean }) {
    await this.mutate(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.game.status !== "active") throw conflict("the game is not running");
      const years = yearsWithoutCentreChange(g.record);
      const needed = g.options.drawAfterYearsWithoutChange;
      if (years < needed) {
        throw conflict(
          `supply centres changed hands ${years === 0 ? "in the last game year" : `${years} game year(s) ago`}; a draw may be declared after ${needed} years without change`,
        );
      }
      if (input.warn) {
        await this.emit(trx, gameId, "draw_warning", "public", { years, phase: g.state.phase });
        return;
      }
      const warned = await trx
        .selectFrom("events")
        .select("id")
        .where("game_id", "=", gameId)
        .where("kind", "=", "draw_warning")
        .executeTakeFirst();
      if (!warned) throw conflict('warn the players first (seed 002 IX(2)): send {"warn": true}');
      const powers = survivingSeats(g.seats, g.position).flatMap((i) => g.seats[i]!.powers);
      await this.finish(trx, g, { kind: "draw", powers, by: "gm", years });
    });
    return this.gameView(user, gameId);
  }

  // -------------------------------------------------------------------------------------------
  // The europe1935 committee: goals, conferences, victory points (src/judge/committee.ts)

  async committee(user: User | null, gameId: string) {
    const g = await loadGame(this.db, gameId);
    return committeeView(this.db, g, this.viewerIn(g, user));
  }

  async committeeAct(user: User, gameId: string, input: ActInput) {
    return this.mutate(gameId, (trx, g) =>
      recordCommitteeAct(trx, g, this.viewerIn(g, user), input, this.now(), (k, a, d) =>
        this.emit(trx, gameId, k, a, d),
      ),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Sequential movement (seed 003): the GM's schedule and the contracts (src/judge/schedule.ts)

  /** The record a phase is played with: the GM's schedules and the contracts that count. */
  private async playedRecord(trx: Tx, g: GameData) {
    if (g.record.rules.movement !== "sequential") return g.record;
    return { ...g.record, rules: effectiveRules(g, await loadSequential(trx, g.game.id)) };
  }

  /** The GM: the schedule of every season so far and `ahead` seasons on. */
  async schedule(user: User, gameId: string, ahead?: number) {
    const g = await loadGame(this.db, gameId);
    return scheduleView(g, await loadSequential(this.db, gameId), this.viewerIn(g, user), ahead);
  }

  /** The GM: a season's schedule (a list of powers, "simultaneous" or "generated"). */
  async setSchedule(user: User, gameId: string, season: string, schedule: unknown) {
    await this.mutate(gameId, (trx, g) =>
      setSchedule(trx, g, this.viewerIn(g, user), season, schedule, this.now(), (k, a, d) =>
        this.emit(trx, gameId, k, a, d),
      ),
    );
    return this.schedule(user, gameId);
  }

  async contracts(user: User, gameId: string) {
    const g = await loadGame(this.db, gameId);
    return contractsView(g, await loadSequential(this.db, gameId), this.viewerIn(g, user));
  }

  async declareContract(user: User, gameId: string, input: ContractInput) {
    return this.mutate(gameId, (trx, g) =>
      declareContract(trx, g, this.viewerIn(g, user), input, this.now(), (k, a, d) =>
        this.emit(trx, gameId, k, a, d),
      ),
    );
  }

  async withdrawContract(user: User, gameId: string, id: number) {
    return this.mutate(gameId, (trx, g) =>
      withdrawContract(trx, g, this.viewerIn(g, user), id, this.now(), (k, a, d) =>
        this.emit(trx, gameId, k, a, d),
      ),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Events (live updates and the audit log)

  private async emit(trx: Tx, gameId: string, kind: string, audience: string, data: unknown) {
    await trx
      .insertInto("events")
      .values({ game_id: gameId, kind, audience, data: JSON.stringify(data), at: this.now() })
      .execute();
  }

  /** Who may see what: a function from an event's audience to yes/no, for this viewer. */
  async audienceFilter(user: User | null, gameId: string): Promise<(audience: string) => boolean> {
    return this.filterFor(await this.viewable(gameId), user);
  }

  /**
   * For live streams, re-checked before every delivery: each watcher's filter as the game now
   * stands (a seat taken away, a role changed), or null for a token revoked since the stream
   * opened (null tokens are anonymous watchers). One read of the game and of the tokens.
   */
  async audienceFilters(
    gameId: string,
    tokens: readonly (string | null)[],
  ): Promise<(((audience: string) => boolean) | null)[]> {
    const hashes = [...new Set(tokens.flatMap((t) => (t === null ? [] : [tokenHash(t)])))];
    const rows =
      hashes.length === 0
        ? []
        : await this.db
            .selectFrom("tokens")
            .innerJoin("users", "users.id", "tokens.user_id")
            .select(["users.id", "users.name", "tokens.token_hash"])
            .where("tokens.token_hash", "in", hashes)
            .execute();
    const users = new Map(rows.map((r) => [r.token_hash, { id: r.id, name: r.name }]));
    const g = await this.viewable(gameId);
    return tokens.map((t) => {
      if (t === null) return this.filterFor(g, null);
      const u = users.get(tokenHash(t));
      return u ? this.filterFor(g, u) : null;
    });
  }

  /** Members and seats of any game, family games included (who may see which events). */
  private async viewable(gameId: string): Promise<Pick<GameData, "members" | "seats">> {
    if (await isFamilyGame(this.db, gameId)) return loadFamilyGame(this.db, gameId);
    return loadGame(this.db, gameId);
  }

  /** Global Diplomacy: a power's report (seed 004 §8), only its player's or the GM's. */
  async report(
    user: User,
    gameId: string,
    q: { power?: string | undefined; turn?: number | undefined },
  ) {
    return this.families.report(user, gameId, q);
  }

  /** Global Diplomacy: every adjudicated turn, for the game master (the moderator). */
  async familyTurns(user: User, gameId: string) {
    return this.families.turns(user, gameId);
  }

  /** Age of Discovery: the game's whole generated map, for the game master only. */
  async moderatorMap(user: User, gameId: string) {
    return this.families.moderatorMap(user, gameId);
  }

  private filterFor(
    g: Pick<GameData, "members" | "seats">,
    user: User | null,
  ): (audience: string) => boolean {
    const v = this.viewerIn(g, user);
    return (audience: string) => {
      if (v.role === "gm" || audience === "public") return true;
      if (audience.startsWith("powers:")) {
        return audience
          .slice(7)
          .split(",")
          .some((p) => v.powers.includes(p as PowerId));
      }
      return false;
    };
  }

  async events(user: User | null, gameId: string, afterId = 0): Promise<EventView[]> {
    const allowed = await this.audienceFilter(user, gameId);
    return (await this.rawEvents(gameId, afterId))
      .filter((e) => allowed(e.audience))
      .map(({ audience: _, ...e }) => e);
  }

  /** A game's events after `afterId`, each with its audience (for the live-update hub). */
  async rawEvents(gameId: string, afterId: number): Promise<(EventView & { audience: string })[]> {
    const rows = await this.db
      .selectFrom("events")
      .selectAll()
      .where("game_id", "=", gameId)
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(1000)
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      audience: r.audience,
      data: parseJson<unknown>(r.data),
      at: iso(r.at)!,
    }));
  }
}

/** A real hash, made once, to check wrong names against (login). */
let DUMMY_HASH: Promise<string> | null = null;

function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err.code === "23505" || err.code === "SQLITE_CONSTRAINT_UNIQUE";
}
