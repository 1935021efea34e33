import type { Kysely } from "kysely";
import { GameRulesError } from "../engine/game.ts";
import type { PowerId } from "../engine/types.ts";
import type { DB } from "../store/schema.ts";
import { gameFamily } from "../variants/game-rules.ts";
import { getGame } from "../variants/registry.ts";
import { conflict, forbidden, invalid } from "./errors.ts";
import {
  type FamilyContext,
  type FamilyGame,
  type FamilyHead,
  knownFamilyGame,
  loadFamilyGame,
  playTurn,
  readCommands,
  type User,
  viewer,
} from "./family-game.ts";
import { familyPlayers, judgeFamilyIds } from "./family-rules.ts";
import {
  familyMapSource,
  familyModeratorMap,
  familyReport,
  familyTurns,
  familyView,
} from "./family-views.ts";
import {
  advancePhase,
  FAMILY_SCENARIO,
  insertNewGame,
  iso,
  lockGame,
  parseJson,
} from "./game-data.ts";
import { checkLabel } from "./labels.ts";
import { latestSetRows } from "./latest.ts";
import { recordMissed } from "./missed.ts";
import { DEFAULT_OPTIONS, mergeOptions, type OptionsPatch, phaseLengthMs } from "./options.ts";
import { randomId } from "./password.ts";

/** The families' listing (GET /api/variants), kept here for the server's import. */
export { familyListing } from "./family-rules.ts";

type Json = Record<string, unknown>;

export {
  type FamilyContext,
  type FamilyGame,
  type FamilyHead,
  type FamilyTurn,
  isFamilyGame,
  loadFamilyGame,
  playTurn,
  powerOf,
  readCommands,
  stateAt,
  turnAt,
  type User,
  viewer,
} from "./family-game.ts";

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
   * The game's lock (as room.ts `mutate`): phase_state updated first, then the game read. Also
   * the Judge's, for the tools both kinds of game share (pause, resume, deadlines).
   */
  mutate<T>(gameId: string, fn: (trx: Kysely<DB>, g: FamilyGame) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await lockGame(trx, gameId);
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
    knownFamilyGame(id);
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
   * bot-play.ts) with the game's lock held, and marks the turn ready when early resolution is on
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
    // Powers the takeover bot played (`bots`, bot-play.ts) still missed the turn.
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
    const result = over ? { kind: "victory", winners } : null;
    await advancePhase(trx, g.game.id, { index: idx + 1, phase: next, deadline, result, now });
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
