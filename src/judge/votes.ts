import type { Insertable } from "kysely";
import type { BallotsTable, ProposalKind } from "../store/schema.ts";
import type { DaideSeats } from "./daide-seats.ts";
import { conflict, forbidden, invalid, notFound } from "./errors.ts";
import { eventsData, parseJson, seatOf } from "./game-data.ts";
import { mergeOptions, type OptionsPatch } from "./options.ts";
import { loadPlayed, type PlayedGame, powerNamed, survivingSeats } from "./played.ts";
import type { JudgeCore, Tx, User, Viewer } from "./room.ts";
import { Room } from "./room.ts";

/*
 * Votes (seed 002 IX): proposals (draws, concessions, house rules), ballots, and their
 * outcome, decided at the deadline; for a game of any family, over what its rules say of it
 * (played.ts: its powers, who is still in the game).
 * A proposal is known by its number in its game (`num`: 1, 2, 3 ... in each game; every
 * member sees every proposal of the game, so the number tells nobody anything new): in the
 * API, the mail commands, the events and the notifier's mail. The row id, one sequence over
 * every game, would tell how many proposals other games made; it stays inside the judge.
 * A room of the judge (judge.ts builds the rooms; room.ts the shared helpers); calls
 * daide-seats.ts (which DAIDE seats a client has taken).
 */

export class Votes extends Room {
  constructor(
    core: JudgeCore,
    private readonly daideSeats: DaideSeats,
  ) {
    super(core);
  }

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
    return this.mutatePlayed(gameId, async (trx, g) => {
      const v = this.viewerIn(g, user);
      const isGm = v.role === "gm";
      if (!(v.role === "player" && v.seat !== null) && !(isGm && input.kind === "houserule")) {
        throw forbidden("only players (and the GM, for house rules) may make proposals");
      }
      if (g.game.status !== "active") throw conflict("proposals are made while the game is on");
      // One proposal to end the game (a draw or a concession) open at a time, and one
      // house-rule change: a second waits until the first is decided with the next orders.
      const ending = (k: ProposalKind) => k === "draw" || k === "concede";
      const open = (
        await trx
          .selectFrom("proposals")
          .select(["num", "kind", "text"])
          .where("game_id", "=", gameId)
          .where("status", "=", "open")
          .orderBy("num")
          .execute()
      ).find((p) => ending(p.kind) === ending(input.kind));
      if (open) {
        throw conflict(
          `proposal ${open.num} (${open.kind}: "${open.text}") is still open: vote on it; a new ${ending(input.kind) ? "draw or concession" : "house-rule change"} may be proposed once it is decided with the orders of ${g.state.phase}`,
        );
      }
      const survivors = survivingSeats(g.seats, g.alive);
      // A power named by its id or its name (`england`, `3`, `China`); else as written.
      const named = (p: string) => powerNamed(g.powers, p) ?? p.toLowerCase();
      let powers: string[] | null = null;
      let text = input.text?.trim() ?? "";
      let options: OptionsPatch | null = null;
      if (input.kind === "draw") {
        const all: string[] = survivors.flatMap((i) => g.seats[i]!.powers);
        powers = input.powers ? input.powers.map(named) : [...all];
        for (const p of powers) {
          if (!all.includes(p)) throw invalid(`${p} is not a surviving power`);
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
        const p = named(input.powers[0]!);
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
      // Proposing is voting yes (seed 002 IX(5), Alternative C: the proposer may vote on
      // their own proposal, and may still change this vote to no or abstain until it is
      // decided). The GM's house-rule proposal is the GM's yes.
      const voter = this.voterKey(g, v, input.kind);
      const id = await this.insertProposal(trx, g, {
        kind: input.kind,
        powers,
        text,
        options,
        by: user.id,
        seat: v.seat,
        voter,
      });
      return {
        id,
        kind: input.kind,
        text,
        powers,
        options,
        due: g.state.phase,
        status: "open",
        ...(voter ? { yourVote: "yes" as const } : {}),
      };
    });
  }

  /** A new proposal (the game's next number), the proposer's yes, everybody told. */
  private async insertProposal(
    trx: Tx,
    g: PlayedGame,
    p: {
      kind: ProposalKind;
      powers: string[] | null;
      text: string;
      options: OptionsPatch | null;
      /** The proposer: a user's id, or a DAIDE seat's sender (daide.ts). */
      by: string;
      seat: number | null;
      voter: string | null;
    },
  ): Promise<number> {
    const gameId = g.game.id;
    // The game's next number (under the game's lock, so no other proposal takes it).
    const last = await trx
      .selectFrom("proposals")
      .where("game_id", "=", gameId)
      .select((eb) => eb.fn.max("num").as("n"))
      .executeTakeFirst();
    const id = Number(last?.n ?? 0) + 1;
    await trx
      .insertInto("proposals")
      .values({
        game_id: gameId,
        num: id,
        kind: p.kind,
        powers: p.powers ? JSON.stringify(p.powers) : null,
        text: p.text,
        options: p.options ? JSON.stringify(p.options) : null,
        proposer_user: p.by,
        proposer_seat: p.seat,
        due_idx: g.state.phase_idx,
        status: "open",
        counts: null,
        created_at: this.now(),
        closed_at: null,
      })
      .execute();
    if (p.voter) {
      const row = await proposalNumbered(trx, gameId, id);
      await trx
        .insertInto("ballots")
        .values({ proposal_id: row.id, voter: p.voter, vote: "yes", user_id: p.by, at: this.now() })
        .execute();
    }
    await this.emit(trx, gameId, "proposal", "public", {
      id,
      kind: p.kind,
      text: p.text,
      powers: p.powers,
      due: g.state.phase,
    });
    return id;
  }

  /**
   * A DAIDE client's DRW (on) or NOT (DRW) (off) for its seat (daide.ts): its vote for a draw
   * of every survivor, the open draw proposal's if there is one (a vote on the open draw
   * including every survivor; false when the open proposal is another, or the seat is out),
   * else a new one; off withdraws the seat's vote on the open draw. Decided with the phase's
   * orders, as every vote is.
   */
  async seatDraw(gameId: string, seat: number, by: string, on: boolean): Promise<boolean> {
    return this.mutatePlayed(gameId, async (trx, g) => {
      if (g.game.status !== "active") return false;
      const survivors = survivingSeats(g.seats, g.alive);
      if (!survivors.includes(seat)) return false;
      const voter = `seat:${seat}`;
      const open = await trx
        .selectFrom("proposals")
        .selectAll()
        .where("game_id", "=", gameId)
        .where("status", "=", "open")
        .where("kind", "in", ["draw", "concede"])
        .executeTakeFirst();
      if (!on) {
        if (open?.kind === "draw") await withdrawBallot(trx, open.id, voter);
        return true;
      }
      const all: string[] = survivors.flatMap((i) => g.seats[i]!.powers);
      if (open) {
        const powers = open.powers ? parseJson<string[]>(open.powers) : [];
        if (open.kind !== "draw" || powers.length !== all.length) return false;
        if (!all.every((p) => powers.includes(p))) return false;
        await castBallot(trx, {
          proposal_id: open.id,
          voter,
          vote: "yes",
          user_id: by,
          at: this.now(),
        });
        return true;
      }
      await this.insertProposal(trx, g, {
        kind: "draw",
        powers: all,
        text: "A draw including all survivors",
        options: null,
        by,
        seat,
        voter,
      });
      return true;
    });
  }

  /** Whose vote this viewer casts on a proposal: `seat:N`, `gm`, or null (no vote). */
  private voterKey(g: PlayedGame, v: Viewer, kind: ProposalKind): string | null {
    if (v.role === "player" && v.seat !== null) {
      return survivingSeats(g.seats, g.alive).includes(v.seat) ? `seat:${v.seat}` : null;
    }
    if (v.role === "gm" && kind === "houserule") return "gm";
    return null;
  }

  /** A vote on the game's proposal number `num`. */
  async vote(user: User, gameId: string, num: number, vote: "yes" | "no" | "abstain") {
    return this.mutatePlayed(gameId, async (trx, g) => {
      const p = await proposalNumbered(trx, gameId, num);
      if (p.status !== "open") throw conflict("this vote is over");
      const voter = this.voterKey(g, this.viewerIn(g, user), p.kind);
      if (!voter) throw forbidden("you have no vote on this proposal");
      const now = this.now();
      await castBallot(trx, { proposal_id: p.id, voter, vote, user_id: user.id, at: now });
      return { proposal: num, vote, due: g.state.phase };
    });
  }

  /**
   * The GM refuses to conduct a vote on a proposal (seed 002 IX(5): repetitive or humorous):
   * it is closed as refused and nobody votes on it. Every member is told it was refused (they
   * were told it was made); the reason goes to the proposer alone (and the GM), so that who
   * proposed stays secret (IX(4)).
   */
  async refuse(user: User, gameId: string, num: number, reason: string) {
    return this.mutateBase(gameId, async (trx, g) => {
      this.requireGm(g, user);
      const why = reason.trim();
      if (why === "") throw invalid("give the reason for refusing the proposal");
      const p = await proposalNumbered(trx, gameId, num);
      if (p.status !== "open") throw conflict(`proposal ${num} is ${p.status}, not open`);
      await trx
        .updateTable("proposals")
        .set({ status: "refused", closed_at: this.now() })
        .where("id", "=", p.id)
        .execute();
      const id = num;
      await this.emit(trx, gameId, "proposal_refused", "public", {
        id,
        kind: p.kind,
        text: p.text,
      });
      const seat = p.proposer_seat === null ? undefined : g.seats[p.proposer_seat];
      await this.emit(
        trx,
        gameId,
        "proposal_refused_reason",
        seat ? `powers:${seat.powers.join(",")}` : "gm",
        { id, kind: p.kind, text: p.text, reason: why },
      );
      return { proposal: id, status: "refused" as const, reason: why };
    });
  }

  async proposals(user: User, gameId: string) {
    const g = await loadPlayed(this.db, gameId);
    const v = this.viewerIn(g, user);
    if (!v.role) throw forbidden("you are not in this game");
    const rows = await this.db
      .selectFrom("proposals")
      .selectAll()
      .where("game_id", "=", gameId)
      .orderBy("num")
      .execute();
    // A refusal's reason (seed 002 IX(5)) is the proposer's and the GM's to read.
    const reasons = new Map<number, string>();
    if (rows.some((p) => p.status === "refused")) {
      const refusals = await eventsData<{ id: number; reason: string }>(
        this.db,
        gameId,
        "proposal_refused_reason",
      );
      for (const d of refusals) reasons.set(d.id, d.reason);
    }
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
        id: p.num,
        kind: p.kind,
        text: p.text,
        powers: p.powers ? parseJson<string[]>(p.powers) : null,
        options: p.options ? parseJson<OptionsPatch>(p.options) : null,
        status: p.status,
        due: p.due_idx,
        counts: p.counts ? parseJson<unknown>(p.counts) : null,
        yourVote: p.status === "open" && voter ? (mine?.vote ?? null) : undefined,
        yours: p.proposer_user === user.id,
        ...((v.role === "gm" || p.proposer_user === user.id) && reasons.has(p.num)
          ? { reason: reasons.get(p.num)! }
          : {}),
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
  async decideVotes(trx: Tx, g: PlayedGame): Promise<boolean> {
    const due = await trx
      .selectFrom("proposals")
      .selectAll()
      .where("game_id", "=", g.game.id)
      .where("status", "=", "open")
      .where("due_idx", "<=", g.state.phase_idx)
      .orderBy("id")
      .execute();
    if (due.length === 0) return false;
    const now = this.now();
    const survivors = survivingSeats(g.seats, g.alive);
    const seated = new Set(
      g.members.flatMap((m) => (m.role === "player" && m.seat !== null ? [m.seat] : [])),
    );
    // A seat a DAIDE client has taken votes as a player's (daide.ts: its DRW).
    for (const d of await this.daideSeats.taken(trx, g.game.id)) seated.add(d);
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
        id: p.num,
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
}

/** The voter's ballot on the proposal, if any, withdrawn. */
async function withdrawBallot(trx: Tx, proposalId: number, voter: string): Promise<void> {
  await trx
    .deleteFrom("ballots")
    .where("proposal_id", "=", proposalId)
    .where("voter", "=", voter)
    .execute();
}

/** A ballot cast: the voter's earlier one on the proposal, if any, replaced. */
async function castBallot(trx: Tx, ballot: Insertable<BallotsTable>): Promise<void> {
  await withdrawBallot(trx, ballot.proposal_id, ballot.voter);
  await trx.insertInto("ballots").values(ballot).execute();
}

/** The game's proposal number `num` (its row), or not found. */
async function proposalNumbered(trx: Tx, gameId: string, num: number) {
  const p = await trx
    .selectFrom("proposals")
    .selectAll()
    .where("game_id", "=", gameId)
    .where("num", "=", num)
    .executeTakeFirst();
  if (!p) throw notFound(`no proposal ${num} in this game`);
  return p;
}
