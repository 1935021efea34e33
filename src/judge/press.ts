import type { Selectable } from "kysely";
import type { PowerId } from "../engine/types.ts";
import type { DB } from "../store/schema.ts";
import { conflict, forbidden, invalid, notFound } from "./errors.ts";
import { iso, parseJson, seatOf } from "./game-data.ts";
import { pressPage, readableCount, readerOf } from "./numbering.ts";
import { type PlayedGame, powerList, powerNamed } from "./played.ts";
import type { HostedGame, Tx, User, Viewer } from "./room.ts";
import { Room } from "./room.ts";
import { textProblem } from "./text.ts";

/*
 * Press (seed 002 X): white and grey messages, broadcast or to some powers, and who reads them;
 * for a game of any family, its powers and its negotiation phases as its rules say (played.ts).
 * A room of the judge (judge.ts builds the rooms; room.ts the shared helpers); calls no
 * other room.
 */

export class Press extends Room {
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
    const bad = textProblem(input.body, "press");
    if (bad) throw invalid(bad);
    return this.mutatePlayed(gameId, async (trx, g) => {
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

  /**
   * Press from a seat kept for a DAIDE client (daide.ts: the client's SND), as its player
   * would send it: white (a DAIDE message names its sender), under the game's press options
   * and phases; stored with the sender `daide:<seat>` (the seat's client, never a user).
   */
  async seatPress(
    gameId: string,
    seat: number,
    sender: User,
    input: { to: readonly string[]; body: string },
  ) {
    const bad = textProblem(input.body, "press");
    if (bad) throw invalid(bad);
    return this.mutatePlayed(gameId, async (trx, g) => {
      const powers = g.seats[seat]?.powers;
      if (!powers) throw invalid(`no seat ${seat} in this game`);
      if (g.game.status !== "active") throw conflict("press is sent while the game is on");
      const v: Viewer = { user: sender, role: "player", seat, powers: [...powers] as PowerId[] };
      return this.pressLocked(trx, g, v, { ...input, kind: "white" });
    });
  }

  private async pressLocked(
    trx: Tx,
    g: PlayedGame,
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
      // Negotiation is in movement phases, and in each turn of a game counted in turns
      // (Global Diplomacy: every turn is a round of messages and moves, seed 004 §7.12).
      const negotiating = g.phase.kind === "movement" || g.phase.kind === "turn";
      if (
        g.game.status === "active" &&
        !negotiating &&
        !g.options.press.duringRetreatsAndAdjustments
      ) {
        throw conflict(
          "there is no negotiation outside the spring and fall phases (seed 002 II(5)); send it when the next movement phase opens",
        );
      }
    }
    let recipients: "all" | string[];
    if (input.to === "all") recipients = "all";
    else {
      // A power by its id or its name (`england`, `3`, `China`).
      const named = input.to.map((p) => powerNamed(g.powers, p) ?? p.toLowerCase());
      recipients = [...new Set(named)];
      if (recipients.length === 0) throw invalid('give at least one recipient power, or "all"');
      for (const p of recipients) {
        if (!g.powers.some((x) => x.id === p))
          throw invalid(`unknown power "${p}"; use ${powerList(g.powers)} or "all"`);
        if (v.powers.includes(p as PowerId)) throw invalid(`${p} is yours: no need to write to it`);
      }
    }
    const now = this.now();
    const authorPower = isGm ? null : (v.powers[0] ?? null);
    // The message as stored, held for review or sent at once.
    const message = {
      game_id: g.game.id,
      phase_idx: g.state.phase_idx,
      phase: g.state.phase,
      author_user: v.user!.id,
      author_power: authorPower,
      kind: input.kind,
      recipients: JSON.stringify(recipients),
      body,
      at: now,
    };
    if (!isGm && g.options.press.review === true) {
      // Seed 002 X(1): the GM may refuse to publish. Held: nobody but its author and the GM
      // reads it until the GM approves it (then delivered as sent) or refuses it.
      const last = await trx
        .selectFrom("held_press")
        .where("game_id", "=", g.game.id)
        .select((eb) => eb.fn.max("n").as("m"))
        .executeTakeFirst();
      const n = Number(last?.m ?? 0) + 1;
      await trx
        .insertInto("held_press")
        .values({ ...message, n, status: "held" })
        .execute();
      // To the GM alone, once per message: it waits for their review.
      await this.emit(trx, g.game.id, "press_held", "gm", {
        held: n,
        from: authorPower,
        kind: input.kind,
        to: recipients,
        phase: g.state.phase,
        body,
      });
      return {
        // The author's own number for it (their 1st, 2nd ... held message): the game's count
        // of held press is the GM's to know, as row ids are nobody's (numbering.ts).
        held: await this.ownHeldNumber(trx, g.game.id, v.user!.id, n),
        status: "held" as const,
        kind: input.kind,
        to: recipients,
        phase: g.state.phase,
        at: iso(now),
      };
    }
    const row = await trx
      .insertInto("press")
      .values(message)
      .returning("id")
      .executeTakeFirstOrThrow();
    const audience =
      recipients === "all" ? "public" : `powers:${[...recipients, ...v.powers].join(",")}`;
    // The event keeps the row id; each reader is shown their own id for it (numbering.ts).
    await this.emit(trx, g.game.id, "press", audience, {
      id: Number(row.id),
      kind: input.kind,
      to: recipients,
      phase: g.state.phase,
    });
    return {
      // The sender's own id for it: how many messages they may read, this one the last.
      id: await readableCount(trx, "press", g.game.id, readerOf(v), Number(row.id)),
      kind: input.kind,
      to: recipients,
      phase: g.state.phase,
      at: iso(now),
    };
  }

  /**
   * Held press (the option `press.review`): the GM reads every held message of the game, a
   * player their own (held, approved or refused, with the GM's reason); nobody else any.
   * `status` "held" is a message awaiting the GM.
   */
  async heldPress(user: User, gameId: string) {
    const g = await this.loadHosted(this.db, gameId);
    const v = this.viewerIn(g, user);
    if (v.role !== "gm" && !(v.role === "player" && v.seat !== null)) {
      throw forbidden("only the game's players and its game master have held press");
    }
    let q = this.db.selectFrom("held_press").selectAll().where("game_id", "=", gameId);
    if (v.role !== "gm") q = q.where("author_user", "=", v.user?.id ?? "");
    const rows = await q.orderBy("n").execute();
    const seatName = (power: string | null) =>
      power === null ? "GM" : (g.seats[seatOf(g.seats, power)]?.name ?? power);
    // The GM names them by the game's numbers; a player reads their own, 1 to n.
    return rows.map((r, i) => ({
      n: v.role === "gm" ? Number(r.n) : i + 1,
      status: r.status,
      phase: r.phase,
      kind: r.kind,
      from: r.author_power,
      fromName: seatName(r.author_power),
      to: parseJson<"all" | string[]>(r.recipients),
      body: r.body,
      at: iso(r.at),
      ...(r.reason !== null ? { reason: r.reason } : {}),
      ...(r.decided_at !== null ? { decidedAt: iso(r.decided_at) } : {}),
    }));
  }

  /**
   * The GM publishes held message `n`: written to the press as its author sent it (its phase
   * and time kept) and delivered to its recipients now, by every channel press takes.
   */
  async approvePress(user: User, gameId: string, n: number) {
    return this.mutatePlayed(gameId, async (trx, g) => {
      this.requireGm(g, user);
      const h = await this.heldNumbered(trx, gameId, n);
      const recipients = parseJson<"all" | string[]>(h.recipients);
      const row = await trx
        .insertInto("press")
        .values({
          game_id: gameId,
          phase_idx: Number(h.phase_idx),
          phase: h.phase,
          author_user: h.author_user,
          author_power: h.author_power,
          kind: h.kind,
          recipients: h.recipients,
          body: h.body,
          at: Number(h.at),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .updateTable("held_press")
        .set({ status: "approved", decided_at: this.now(), press_id: Number(row.id) })
        .where("id", "=", h.id)
        .execute();
      const authors = this.authorPowers(g, h.author_power);
      const audience =
        recipients === "all" ? "public" : `powers:${[...recipients, ...authors].join(",")}`;
      await this.emit(trx, gameId, "press", audience, {
        id: Number(row.id),
        kind: h.kind,
        to: recipients,
        phase: h.phase,
      });
      await this.emit(trx, gameId, "press_approved", this.authorAudience(authors), {
        held: await this.ownHeldNumber(trx, gameId, h.author_user, n),
        to: recipients,
        phase: h.phase,
      });
      return { held: n, status: "approved" as const };
    });
  }

  /** The GM refuses to publish held message `n` (seed 002 X(1)); its author alone is told why. */
  async refusePress(user: User, gameId: string, n: number, reason: string) {
    return this.mutatePlayed(gameId, async (trx, g) => {
      this.requireGm(g, user);
      const why = reason.trim();
      if (why === "") throw invalid("give the reason for refusing to publish the message");
      const bad = textProblem(why, "reason");
      if (bad) throw invalid(bad);
      const h = await this.heldNumbered(trx, gameId, n);
      await trx
        .updateTable("held_press")
        .set({ status: "refused", decided_at: this.now(), reason: why })
        .where("id", "=", h.id)
        .execute();
      await this.emit(
        trx,
        gameId,
        "press_refused",
        this.authorAudience(this.authorPowers(g, h.author_power)),
        {
          held: await this.ownHeldNumber(trx, gameId, h.author_user, n),
          to: parseJson<"all" | string[]>(h.recipients),
          phase: h.phase,
          body: h.body,
          reason: why,
        },
      );
      return { held: n, status: "refused" as const, reason: why };
    });
  }

  private async heldNumbered(trx: Tx, gameId: string, n: number) {
    const h = await trx
      .selectFrom("held_press")
      .selectAll()
      .where("game_id", "=", gameId)
      .where("n", "=", n)
      .executeTakeFirst();
    if (!h) throw notFound(`no held message ${n} in this game`);
    if (h.status !== "held") throw conflict(`held message ${n} is already ${h.status}`);
    return h;
  }

  /** The author's own number for the game's held message `n`: their how-manyth it is. */
  private async ownHeldNumber(trx: Tx, gameId: string, author: string, n: number) {
    const row = await trx
      .selectFrom("held_press")
      .where("game_id", "=", gameId)
      .where("author_user", "=", author)
      .where("n", "<=", n)
      .select((eb) => eb.fn.countAll().as("c"))
      .executeTakeFirst();
    return Number(row?.c ?? 0);
  }

  /** The powers of the author's seat (the audience of what is said to the author). */
  private authorPowers(g: PlayedGame, power: string | null): string[] {
    if (power === null) return [];
    return [...(g.seats[seatOf(g.seats, power)]?.powers ?? [power])];
  }

  private authorAudience(powers: readonly string[]): string {
    return powers.length > 0 ? `powers:${powers.join(",")}` : "gm";
  }

  /**
   * The messages a viewer may read: to all, to one of their powers, or from them. Grey
   * authorship is shown to nobody but the author and the GM (seed 002 X(2)). Ids are the
   * viewer's own (numbering.ts): 1 to n over what they may read; `afterId` is one of them.
   */
  async press(user: User | null, gameId: string, afterId = 0) {
    const g = await this.loadHosted(this.db, gameId);
    const v = this.viewerIn(g, user);
    const rows = await pressPage(this.db, gameId, readerOf(v), afterId, 1000);
    return rows.map(({ n, row }) => this.message(g, v, n, row));
  }

  /**
   * One message by its row id (as a press event stores it), as `user` reads it, with their
   * id for it; null if they may not read it. For the mail notifier.
   */
  async pressMessage(user: User, gameId: string, rowId: number) {
    const g = await this.loadHosted(this.db, gameId);
    const v = this.viewerIn(g, user);
    const r = readerOf(v);
    const n = await readableCount(this.db, "press", gameId, r, rowId);
    if (n === 0) return null;
    const [hit] = await pressPage(this.db, gameId, r, n - 1, 1);
    return hit && Number(hit.row.id) === rowId ? this.message(g, v, n, hit.row) : null;
  }

  private message(g: HostedGame, v: Viewer, n: number, r: PressRow) {
    const seatNames = (power: string | null) =>
      power === null ? "GM" : (g.seats[seatOf(g.seats, power)]?.name ?? power);
    const to = parseJson<"all" | string[]>(r.recipients);
    const mine = v.user !== null && r.author_user === v.user.id;
    const showAuthor = r.kind === "white" || v.role === "gm" || mine;
    return {
      id: n,
      phase: r.phase,
      kind: r.kind,
      from: showAuthor ? (r.author_power ?? "gm") : null,
      fromName: showAuthor ? seatNames(r.author_power) : "Anonymous",
      to,
      body: r.body,
      at: iso(r.at),
      ...(mine ? { yours: true } : {}),
    };
  }
}

type PressRow = Selectable<DB["press"]>;
