import type { PhaseRecord } from "../engine/record.ts";
import type { PowerId } from "../engine/types.ts";
import { committeeFields, committeeView, withCommittee } from "./committee.ts";
import type { DaideSeats } from "./daide-seats.ts";
import { isFamilyGame } from "./family.ts";
import { type GameData, iso, loadGame, parseJson, viewHead } from "./game-data.ts";
import {
  eventPage,
  lastEventRow,
  type Reader,
  readableCount,
  readerOf,
  withOwnIds,
} from "./numbering.ts";
import { tokenHash } from "./password.ts";
import type { EventView, GameView, JudgeCore, User } from "./room.ts";
import { Room } from "./room.ts";
import {
  contractsView,
  loadSequential,
  phasesFor,
  rulesFor,
  scheduleView,
  sequentialRecord,
} from "./schedule.ts";
import { lostSeatField } from "./seat-loss.ts";

/*
 * Views: what each viewer may see of a game (its view, the phase history, the record, the
 * committee and schedules, family reports) and of its events (the audit log, live updates).
 * A room of the judge (judge.ts builds the rooms; room.ts the shared helpers); calls
 * daide-seats.ts (a game's DAIDE port and seats).
 */

/** What a live stream's watcher may read, and who reads (their ids are their own). */
export interface Watch {
  readonly allowed: (audience: string) => boolean;
  readonly reader: Reader;
}

export class Views extends Room {
  constructor(
    core: JudgeCore,
    private readonly daideSeats: DaideSeats,
  ) {
    super(core);
  }

  async gameView(user: User | null, gameId: string): Promise<GameView> {
    if (await isFamilyGame(this.db, gameId)) return this.families.view(user, gameId);
    const g = await loadGame(this.db, gameId);
    const v = this.viewerIn(g, user);
    const head = await viewHead(this.db, g, v.role === "gm", false);
    const daide = await this.daideSeats.of(this.db, gameId);
    const daideSeats = new Map((daide?.seats ?? []).map((r) => [r.seat, r]));
    const seatList = head.seatList.map((s) => {
      const d = daideSeats.get(s.index);
      return d ? { ...s, daide: { client: d.client, version: d.version } } : s;
    });
    const st = g.state;
    const last = g.record.phases[g.record.phases.length - 1];
    const position = last?.position ?? g.record.start;
    return {
      ...head.summary,
      rules: rulesFor(v, g.record.rules),
      options: g.options,
      state: st.state,
      phaseIndex: st.phase_idx,
      seatList,
      position,
      // The port is shown while the game is forming or running (daide-seats.ts).
      ...(daide ? { daide: { port: g.game.status === "finished" ? null : daide.port } } : {}),
      toOrder: st.state === "done" ? [] : this.toOrder(g),
      result: g.game.result ? parseJson<unknown>(g.game.result) : null,
      you: v.role ? { role: v.role, seat: v.seat, powers: [...v.powers] } : null,
      ...(head.invites ? { invites: head.invites } : {}),
      ...(await lostSeatField(this.db, v, gameId)),
      ...(await committeeFields(this.db, g)),
    };
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

  async committee(user: User | null, gameId: string) {
    const g = await loadGame(this.db, gameId);
    return committeeView(this.db, g, this.viewerIn(g, user));
  }

  /** The GM: the schedule of every season so far and `ahead` seasons on. */
  async schedule(user: User, gameId: string, ahead?: number) {
    const g = await loadGame(this.db, gameId);
    return scheduleView(g, await loadSequential(this.db, gameId), this.viewerIn(g, user), ahead);
  }

  async contracts(user: User, gameId: string) {
    const g = await loadGame(this.db, gameId);
    return contractsView(g, await loadSequential(this.db, gameId), this.viewerIn(g, user));
  }

  /**
   * For live streams, re-checked before every delivery: each watcher's filter as the game now
   * stands (a seat taken away, a role changed), or null for a token revoked since the stream
   * opened (null tokens are anonymous watchers), with who reads (for their ids). One read of
   * the game and of the tokens.
   */
  async audienceFilters(
    gameId: string,
    tokens: readonly (string | null)[],
  ): Promise<(Watch | null)[]> {
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
  private viewable(gameId: string): Promise<Pick<GameData, "members" | "seats">> {
    return this.loadHosted(this.db, gameId);
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

  /** Age of Discovery: what the viewer's own map is drawn from (a player's, or the GM's whole). */
  async familyMapSource(user: User, gameId: string) {
    return this.families.mapSource(user, gameId);
  }

  private filterFor(g: Pick<GameData, "members" | "seats">, user: User | null): Watch {
    const v = this.viewerIn(g, user);
    // The same rule as numbering.ts's `eventReadable`, in SQL.
    const allowed = (audience: string) => {
      if (v.role === "gm" || audience === "public") return true;
      if (audience.startsWith("powers:")) {
        return audience
          .slice(7)
          .split(",")
          .some((p) => v.powers.includes(p as PowerId));
      }
      return false;
    };
    return { allowed, reader: readerOf(v) };
  }

  /**
   * The events a viewer may read after their `afterId`th, with their own ids (numbering.ts):
   * 1 to n over what they may read, never the store's row ids.
   */
  async events(user: User | null, gameId: string, afterId = 0): Promise<EventView[]> {
    return (await this.eventsFrom(user, gameId, afterId)).events;
  }

  /**
   * For a live stream: the backlog after the viewer's `afterId`th event, and where the stream
   * goes on from: the last event row read (`row`) and the viewer's id for it (`n`).
   */
  async eventsFrom(user: User | null, gameId: string, afterId: number) {
    const { allowed, reader } = this.filterFor(await this.viewable(gameId), user);
    const last = await lastEventRow(this.db, gameId);
    const page = await eventPage(this.db, gameId, reader, afterId, 1000, last);
    const events = await withOwnIds(
      this.db,
      gameId,
      reader,
      page.map(({ n, row: r }) => ({
        id: n,
        kind: r.kind,
        data: parseJson<unknown>(r.data),
        at: iso(r.at)!,
      })),
    );
    const full = page.length === 1000;
    const n =
      page.length > 0
        ? page[page.length - 1]!.n
        : Math.min(afterId, await readableCount(this.db, "events", gameId, reader, last));
    return { events, allowed, reader, row: full ? Number(page[page.length - 1]!.row.id) : last, n };
  }

  /** Events as a reader is shown them: their own id for each message or declaration (numbering.ts). */
  async withOwnIds<E extends { kind: string; data: unknown }>(
    gameId: string,
    reader: Reader,
    events: readonly E[],
  ): Promise<E[]> {
    return withOwnIds(this.db, gameId, reader, events);
  }

  /**
   * A game's events after row id `afterId`, each with its audience and row id: for the
   * live-update hub and the mail notifier, never shown as they are.
   */
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
