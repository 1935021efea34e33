import type { Bot } from "../bots/index.ts";
import { phaseName } from "../engine/phase.ts";
import { newRecord } from "../engine/record.ts";
import { readRules } from "../engine/rules.ts";
import { checkSequential } from "../engine/sequential-schedule.ts";
import type { PowerId } from "../engine/types.ts";
import { gameFamily } from "../variants/game-rules.ts";
import { getGame, getVariant, variantIds } from "../variants/registry.ts";
import { getScenario, scenariosOf } from "../variants/scenarios.ts";
import { scenarioOfRecord, variantFromData } from "../variants/variant-files.ts";
import { botSeatsOf, chooseBot, chooseFamilyBot } from "./bot-list.ts";
import type { BotPlay } from "./bot-play.ts";
import type { BotSeats } from "./bot-seats.ts";
import { chairDeadline } from "./chair.ts";
import type { DaideSeats } from "./daide-seats.ts";
import { conflict, forbidden, invalid, notFound } from "./errors.ts";
import { familyPlayers } from "./family-rules.ts";
import {
  gameSummary,
  insertInvite,
  insertNewGame,
  iso,
  parseJson,
  placeMember,
  seatNamed,
} from "./game-data.ts";
import { checkLabel } from "./labels.ts";
import { DEFAULT_OPTIONS, mergeOptions, type OptionsPatch, phaseLengthMs } from "./options.ts";
import { randomId } from "./password.ts";
import type { GameSummary, GameView, JudgeCore, Tx, User } from "./room.ts";
import { type HostedGame, phaseTypeOf, Room } from "./room.ts";
import { sequentialGameRules } from "./schedule.ts";
import { lostSeats } from "./seat-loss.ts";
import { lineProblem } from "./text.ts";
import type { Views } from "./views.ts";

/*
 * Games and seats: creating a game, the lobby's list, invitations, taking a seat, starting.
 * A room of the judge (judge.ts builds the rooms; room.ts the shared helpers); calls
 * views.ts, bot-seats.ts, bot-play.ts and daide-seats.ts.
 */

export class Games extends Room {
  constructor(
    core: JudgeCore,
    private readonly views: Views,
    private readonly botSeats: BotSeats,
    private readonly botPlay: BotPlay,
    private readonly daideSeats: DaideSeats,
  ) {
    super(core);
  }

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
      /** The game's id as its players know it (`GD001`; labels.ts). */
      label?: string | undefined;
      /** Seats played by built-in players: a power's id or name (or a seat's) to a bot's id. */
      bots?: Readonly<Record<string, string>> | undefined;
      /** Seats kept for DAIDE clients (daide-seats.ts): powers' ids or names, or seat numbers (daide-seats.ts). */
      daide?: readonly string[] | undefined;
    },
  ): Promise<GameView> {
    const badName =
      lineProblem(input.name, "a game's name") ??
      (input.label === undefined ? null : lineProblem(input.label, "a game's label"));
    if (badName) throw invalid(badName);
    if (input.variantData === undefined && input.variant && getGame(input.variant)) {
      if (input.daide && input.daide.length > 0)
        throw invalid(
          `DAIDE clients play the Diplomacy variants (classical, its scenarios, europe1935, uploaded variants); a ${input.variant} game has no DAIDE seats`,
        );
      // Seats for the family's built-in players (bot-seats.ts), checked before the game is made.
      const family = gameFamily(input.variant);
      const familySeats = family
        ? family.hosting
            .seats(familyPlayers(family.rules, input.players, input.scenario))
            .map((p) => ({ name: p.name, powers: [p.power as PowerId] }))
        : [];
      const familyBotSeats = new Map<number, { id: string }>();
      for (const [word, id] of Object.entries(input.bots ?? {})) {
        if (!family) break;
        // A family's powers are numbered: a number is a power's id here, not a seat's.
        const at = seatNamed(familySeats, word);
        if (at < 0)
          throw invalid(
            `bots: nobody plays "${word}" in this game; name a power by its id or name: ${familySeats.map((s) => `${s.powers[0]} ${s.name}`).join(", ")}`,
          );
        familyBotSeats.set(at, chooseFamilyBot(id, family.rules.name));
      }
      const id = await this.families.create(user, { ...input, variant: input.variant });
      if (familyBotSeats.size > 0)
        await this.mutateBase(id, async (trx, g) => {
          for (const [seat, bot] of familyBotSeats)
            await this.botSeats.seatBotLocked(trx, { ...g, members: [] }, seat, bot);
        });
      return this.views.gameView(user, id);
    }
    if (input.players !== undefined)
      throw invalid(
        `players is for games whose player count is chosen (discovery: 9 to 20); ${input.variant ?? "classical"} games name theirs with scenario`,
      );
    const name = input.name.trim();
    if (name.length < 1 || name.length > 80) throw invalid("a game's name is 1 to 80 characters");
    const label = input.label === undefined ? null : checkLabel(input.label, "label");
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
    // Seats for built-in players, checked before anything is stored (bot-seats.ts).
    const botSeats = new Map<number, Bot>();
    for (const [word, id] of Object.entries(input.bots ?? {})) {
      const at = /^\d+$/.test(word) ? Number(word) : seatNamed(scenario.seats, word);
      if (at < 0 || at >= scenario.seats.length)
        throw invalid(
          `bots: nobody plays "${word}" in this game; the seats are ${scenario.seats.map((s, i) => `${i} ${s.name}`).join(", ")}`,
        );
      botSeats.set(at, chooseBot(id));
    }
    // Seats kept for DAIDE clients (daide-seats.ts), on a judge whose server has DAIDE ports.
    const daideSeats = new Set<number>();
    for (const word of input.daide ?? []) {
      const at = /^\d+$/.test(word) ? Number(word) : seatNamed(scenario.seats, word);
      if (at < 0 || at >= scenario.seats.length)
        throw invalid(
          `daide: nobody plays "${word}" in this game; the seats are ${scenario.seats.map((s, i) => `${i} ${s.name}`).join(", ")}`,
        );
      if (botSeats.has(at))
        throw invalid(
          `${scenario.seats[at]!.name} is given to a built-in player (bots) and kept for a DAIDE client (daide): choose one`,
        );
      daideSeats.add(at);
    }
    if (daideSeats.size > 0 && rules.rules.movement === "sequential")
      throw invalid(
        "DAIDE clients order every unit at once: a game with sequential movement has no DAIDE seats",
      );
    if (daideSeats.size > 0 && !this.daideSeats.ports)
      throw invalid(
        "this judge takes no DAIDE clients: its server was started without --daide-ports (entente serve --daide-ports 16713-16812)",
      );
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
        label,
      });
      await this.emit(trx, id, "game_created", "public", { name });
      if (botSeats.size > 0) {
        const state = { phase: phaseName(scenario.variant.start.phase), state: "forming" };
        for (const [seat, bot] of botSeats)
          await this.botSeats.seatBotLocked(
            trx,
            { game: { id }, state, members: [], seats: scenario.seats },
            seat,
            bot,
          );
      }
      if (daideSeats.size > 0)
        await this.daideSeats.reserveLocked(
          trx,
          id,
          [...daideSeats].sort((a, b) => a - b),
        );
    });
    return this.views.gameView(user, id);
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
        "games.label",
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
    const botCounts = await this.db
      .selectFrom("bot_seats")
      .select(["game_id", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy("game_id")
      .execute();
    const bots = new Map(botCounts.map((c) => [c.game_id, Number(c.n)]));
    return rows.map((r) =>
      gameSummary(
        r,
        r,
        parseJson<{ seats: unknown[] }>(r.record_head).seats.length,
        players.get(r.id) ?? 0,
        bots.get(r.id) ?? 0,
      ),
    );
  }

  async createInvite(
    user: User,
    gameId: string,
    role: "player" | "observer",
    seat: number | null,
  ): Promise<{ code: string }> {
    const g = await this.loadHosted(this.db, gameId);
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

  /** An invitation still open, or a 404 that says it may have been withdrawn. */
  private async openInvite(code: string) {
    const inv = await this.db
      .selectFrom("invites")
      .selectAll()
      .where("code", "=", code)
      .where("revoked", "=", 0)
      .executeTakeFirst();
    if (!inv) throw notFound("no such invitation (it may have been withdrawn)");
    return inv;
  }

  async inviteInfo(code: string) {
    const inv = await this.openInvite(code);
    const g = await this.loadHosted(this.db, inv.game_id);
    const taken = new Set(g.members.flatMap((m) => (m.seat === null ? [] : [m.seat])));
    const bots = new Map((await botSeatsOf(this.db, g.game.id)).map((r) => [r.seat, r]));
    // Seats kept for DAIDE clients are no player's to take (daide-seats.ts).
    const daide = await this.daideSeats.kept(this.db, g.game.id);
    // Public (the invitation page, logged out): the game's name, its variant by name, the
    // phase and deadline; nothing of its players, orders or codes.
    const variantName = getVariant(g.game.variant)?.name ?? getGame(g.game.variant)?.name;
    const running = g.game.status !== "forming" && g.state.state !== "done";
    return {
      game: {
        id: g.game.id,
        name: g.game.name,
        variant: g.game.variant,
        ...(variantName ? { variantName } : {}),
        status: g.game.status,
        phase: running ? g.state.phase : null,
        deadline: running && g.state.deadline_at !== null ? iso(g.state.deadline_at) : null,
      },
      role: inv.role,
      seat: inv.seat,
      // A seat a built-in player plays is free for a player, and says so (bot-seats.ts).
      freeSeats: g.seats
        .map((s, i) => ({
          index: i,
          name: s.name,
          powers: [...s.powers],
          ...(bots.has(i) ? { bot: bots.get(i)!.bot } : {}),
        }))
        .filter(
          (s) =>
            !taken.has(s.index) &&
            !daide.has(s.index) &&
            (inv.seat === null || inv.seat === s.index),
        ),
    };
  }

  /** Joins a game through an invitation: a seat (the one asked for, or the first free one). */
  async acceptInvite(
    user: User,
    code: string,
    wanted: { seat?: number | undefined; power?: string | undefined },
  ): Promise<GameView> {
    const inv = await this.openInvite(code);
    const gameId = inv.game_id;
    await this.mutateBase(gameId, async (trx, g) => {
      if (g.game.status === "finished") throw conflict("the game is over");
      const existing = g.members.find((m) => m.user_id === user.id);
      if (existing?.role === "gm") throw conflict("you are the game master of this game");
      if (existing?.role === "player" && existing.seat !== null) {
        throw conflict(`you already play ${g.seats[existing.seat]?.name} in this game`);
      }
      let seat: number | null = null;
      // A player who lost their seat here (civil disorder, the GM) is seated again by the GM
      // alone (gm/replace, or a seat's own invitation), as the mail and the page tell them:
      // not by the game's general invitation, which they may still hold.
      if (inv.role === "player" && inv.seat === null && existing) {
        const lost = (await lostSeats(trx, user.name, [gameId])).get(gameId);
        if (lost)
          throw forbidden(
            `you lost your seat (${lost.seatName}) in this game: only the GM can give you a seat again (gm/replace, or an invitation for the seat)`,
          );
      }
      const botSeats = await this.botSeats.seatsWithBots(trx, gameId);
      // Seats kept for DAIDE clients are theirs (daide-seats.ts).
      const daideSeats = await this.daideSeats.kept(trx, gameId);
      if (inv.role === "player") {
        const taken = new Set(g.members.flatMap((m) => (m.seat === null ? [] : [m.seat])));
        let want = wanted.seat ?? null;
        if (wanted.power !== undefined) {
          want = seatNamed(g.seats, wanted.power);
          if (want === -1)
            throw invalid(
              `nobody plays "${wanted.power}" in this game; the seats are ${g.seats
                .map((x) => `${x.name} (${x.powers.join(", ")})`)
                .join("; ")}`,
            );
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
          if (daideSeats.has(want))
            throw conflict(
              `${g.seats[want]!.name} is kept for a DAIDE client (a program connecting to the game's DAIDE port); choose another seat`,
            );
          seat = want;
        } else {
          // A seat a built-in player plays is taken only when asked for by name.
          seat = g.seats.findIndex(
            (_, i) => !taken.has(i) && !botSeats.has(i) && !daideSeats.has(i),
          );
          if (seat === -1)
            throw conflict(
              botSeats.size > 0
                ? `every seat is taken (${[...botSeats].map((i) => g.seats[i]!.name).join(", ")} by built-in players: ask for one of them by power to play it instead)`
                : "every seat is taken",
            );
        }
      }
      await placeMember(trx, gameId, user.id, { role: inv.role, seat }, !!existing, this.now());
      if (inv.seat !== null) {
        await trx.updateTable("invites").set({ revoked: 1 }).where("code", "=", code).execute();
      }
      // A seat a built-in player played is the player's now (bot-seats.ts).
      if (seat !== null)
        await this.botSeats.seatTaken(trx, g, seat, g.seats[seat]!.name, user.name);
      await this.emit(trx, gameId, "joined", "public", {
        player: user.name,
        role: inv.role,
        ...(seat !== null ? { seat, seatName: g.seats[seat]!.name } : {}),
      });
      if (seat !== null && g.game.status === "forming" && g.options.startWhenFull) {
        const filled = new Set(g.members.flatMap((m) => (m.seat === null ? [] : [m.seat])));
        for (const b of botSeats) filled.add(b);
        for (const d of await this.daideSeats.taken(trx, gameId)) filled.add(d);
        filled.add(seat);
        if (filled.size === g.seats.length) await this.startLocked(trx, g);
      }
    });
    // The built-in players' orders for the first phase, if the game started (bot-play.ts).
    await this.botPlay.playAfter(gameId);
    return this.views.gameView(user, gameId);
  }

  async start(user: User, gameId: string): Promise<GameView> {
    await this.mutateBase(gameId, async (trx, g) => {
      this.requireGm(g, user);
      if (g.game.status !== "forming") throw conflict("the game has already started");
      await this.startLocked(trx, g);
    });
    await this.botPlay.playAfter(gameId);
    return this.views.gameView(user, gameId);
  }

  /** Starts a forming game inside the caller's transaction (its lock held). */
  async startLocked(trx: Tx, g: HostedGame): Promise<void> {
    const now = this.now();
    await trx.updateTable("games").set({ status: "active" }).where("id", "=", g.game.id).execute();
    // Chaired play (chair.ts): no deadline; the chair resolves.
    const deadline = await chairDeadline(
      trx,
      g.game.id,
      now + phaseLengthMs(g.options, phaseTypeOf(g.state.phase)),
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
}
