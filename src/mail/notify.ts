import { sql } from "kysely";
import { parsePhase } from "../engine/phase.ts";
import type { Judge } from "../judge/judge.ts";
import { gameLink, inviteLink } from "../judge/links.ts";
import { phaseLengthMs } from "../judge/options.ts";
import { unsubscribeKey, unsubscribeUrl } from "../judge/unsubscribe.ts";
import { defaultDialects } from "./dialects.ts";
import type { MailDialect, ResultEvent, Voice } from "./gateway.ts";
import { loadMailGame, type MailGame, type MailGameRow, NO_SEAT, type Player } from "./identity.ts";
import type { OutgoingMail } from "./message.ts";
import type { Postman } from "./postman.ts";

/*
 * What the judge mails by itself, for every game played by mail: the game's start, the
 * results of every phase to every player (a variant game's results with the variant's
 * per-player report where it has one; a Global Diplomacy or Age of Discovery game's each
 * player's own report, seed 004 §8), the end, press to its recipients, votes, deadline
 * changes, and a reminder before each deadline to the players whose orders are missing (or
 * not final, where sets are marked final). One flow for every game; the game's dialect (its
 * `voice`) only words it. It follows the judge's own event log (the `events` table, the same
 * flow the web page's live updates read), so adjudication itself is untouched: each game keeps
 * the id of the last event mailed.
 *
 * A game played on the web page (never set up for mail) is mailed the same way to its players
 * and GM who gave an address, from the judge's own address (`judgeAddress`, the mail service's
 * sender): its progress is kept in `notice_games`, and while nobody of such a game has an
 * address, or the judge sends no mail at all, its events are passed over, never mailed later.
 */

export interface NotifierOptions {
  readonly judge: Judge;
  readonly postman: Postman;
  /** Remind this long before a deadline (default a day; at most half the phase's length). */
  readonly reminderMs?: number;
  readonly log?: (message: string) => void;
  /** The dialects whose voices word the mail (default: defaultDialects()). */
  readonly dialects?: readonly MailDialect[];
  /**
   * The judge's own address: the sender of its mail for games not set up for mail (to their
   * players and GM who gave an address). Null or absent: those games are mailed nothing.
   */
  readonly judgeAddress?: string | null;
  /** Whether mail sent to the judge is read (a receiver, a polled mailbox): `NOTICES OFF` works. */
  readonly takesMail?: boolean;
}

const HOUR = 3_600_000;

/** A held message's event (src/judge/press.ts): press_held, press_refused, press_approved. */
interface HeldData {
  held: number;
  from?: string | null;
  kind?: string;
  to: "all" | string[];
  phase: string;
  body?: string;
  reason?: string;
}

const heldTo = (game: MailGame, voice: Voice, to: "all" | string[]) =>
  to === "all" ? "everybody" : to.map((p) => voice.power(game, p)).join(", ");

const when = (iso: string | null | undefined) =>
  iso ? iso.replace(/:\d\d\.\d{3}Z$/, " UTC").replace("T", " ") : "none";

interface EventData extends ResultEvent {
  power?: string;
  unit?: string;
  seatName?: string;
  player?: string | null;
  years?: number;
  turns?: number;
  missed?: number;
  code?: string;
  kind?: string;
  id?: number;
  powers?: string[];
  passed?: boolean;
  for?: number;
  against?: number;
  abstain?: number;
  text?: string;
  due?: string;
  contactUntil?: string;
  seat?: number;
  rule?: string;
  from?: string;
  period?: number;
  to?: string | null;
  /** player_replaced: who held the seat before (by name), if anybody else. */
  former?: string | null;
  /** player_replaced: the phases whose early orders of the former player were dropped. */
  dropped?: string[];
  /** bot_*, missed_orders: the built-in player (src/judge/bots.ts). */
  bot?: string;
  /** bot_removed: gm, player_seated or player_back. */
  cause?: string;
}

/** Events told in the results mail when they come with it. */
const FOLDED = new Set([
  "vote_result",
  "deadline",
  "paused",
  "resumed",
  "unit_removed",
  "unit_relocated",
  "player_replaced",
  "draw_warning",
  "civil_disorder",
  "proposal_refused",
  "bot_seated",
  "bot_removed",
]);

/** The last line of the judge's own mail: how to stop it (docs/email.md). */
const optOut = (game: MailGame, takesMail: boolean) =>
  game.byMail || takesMail
    ? `Not wanted? Mail the subject "NOTICES OFF ${game.abbr}" (this game) or "NOTICES OFF" (every game) to ${game.address}, or untick it in your mail settings on the web page (POST /api/me/notices); "NOTICES ON" undoes it.`
    : `Not wanted? Untick it in your mail settings on the web page (POST /api/me/notices {"notices": false, "game": "${game.abbr}"} for this game, without "game" for every game).`;

/**
 * Whether the opt-out stops a mail (docs/email.md). `"optional"`: the judge's ordinary mail,
 * sent only to those who did not opt out (`Player.notices`, filtered where its recipients are
 * chosen); it ends with how to stop it (`optOut`) and carries a List-Unsubscribe header.
 * `"duty"`: mail about the recipient's own seat (missed orders, or the seat taken from them)
 * or their duties as the game's GM (a seat to replace), sent whatever they chose; it offers no
 * opt-out that would not stop it (neither the line nor the header) and ends with why it came
 * (`whyAnyway`).
 */
export type Reach = "optional" | "duty";

/** The last line of mail sent whatever its recipient chose: why, and how to get no more. */
const whyAnyway = (to: Player) =>
  to.seat === -1
    ? "Sent even with the judge's mail turned off: it is about your duties as this game's GM (missed orders and replacements, seed 002 VII(6)). It comes as long as you are the game's GM: the judge cannot hand a game to another GM, so it stops when the game ends."
    : to.seat === NO_SEAT
      ? "Sent even with the judge's mail turned off: it is about the seat you held. It is the last mail of this game to you: the judge mails a game's observers nothing."
      : "Sent even with the judge's mail turned off: it is about your own seat (missed orders, seed 002 VII(6)). To get no more of it, ask the GM to give your seat to a replacement.";

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Whether a player (or the GM, seat -1) may read an event of this audience: as the judge's
 * views decide it (views.ts), so that mail tells nobody what the page would not show them
 * (a family game's civil disorder and removed units are the moderator's and the power's).
 */
const reads = (audience: string, p: Player): boolean =>
  audience === "public" ||
  p.seat === -1 ||
  (audience.startsWith("powers:") &&
    audience
      .slice(7)
      .split(",")
      .some((x) => p.powers.includes(x)));

export class Notifier {
  private readonly judge: Judge;
  private readonly postman: Postman;
  private readonly reminderMs: number;
  private readonly log: (m: string) => void;
  private readonly dialects: readonly MailDialect[];
  private readonly judgeAddress: string | null;
  private readonly takesMail: boolean;
  /** The key one-click unsubscribe links are signed with (with a public address only). */
  private unsubscribeKey: Buffer | null = null;
  private running = false;

  constructor(opts: NotifierOptions) {
    this.judge = opts.judge;
    this.postman = opts.postman;
    this.reminderMs = opts.reminderMs ?? 24 * HOUR;
    this.log = opts.log ?? (() => {});
    this.dialects = opts.dialects ?? defaultDialects();
    this.judgeAddress = opts.judgeAddress ?? null;
    this.takesMail = opts.takesMail ?? false;
  }

  /** Mails what happened since the last call, and the reminders due. Returns mails queued. */
  async tick(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      if (this.judge.publicUrl?.startsWith("https:") && !this.unsubscribeKey)
        this.unsubscribeKey = await unsubscribeKey(this.judge.store);
      const games = await this.judge.store.db
        .selectFrom("mail_games")
        .selectAll()
        .where(this.mayMail("mail_games"))
        .execute();
      let n = 0;
      for (const game of games) {
        try {
          n += await this.game(game, true);
        } catch (e) {
          this.log(`mail for game ${game.abbr}: ${(e as Error).stack ?? e}`);
        }
      }
      for (const game of await this.webGames()) {
        try {
          n += await this.game(game, false);
        } catch (e) {
          this.log(`mail for game ${game.game_id}: ${(e as Error).stack ?? e}`);
        }
      }
      if (n > 0) await this.postman.flush();
      return n;
    } finally {
      this.running = false;
    }
  }

  /**
   * The games not set up for mail whose players or GM may be mailed now: those with somebody
   * who gave an address, and new events or a phase still to come. Every other such game (all
   * of them when the judge sends no mail) has its events passed over first.
   */
  private async webGames(): Promise<MailGameRow[]> {
    const db = this.judge.store.db;
    const addressed = sql<boolean>`exists (select 1 from members join mail_users on mail_users.user_id = members.user_id
      where members.game_id = notice_games.game_id and members.role in ('gm', 'player'))`;
    // Only the rows behind their game's last event are written.
    const newest = sql`(select max(events.id) from events where events.game_id = notice_games.game_id)`;
    await sql`update notice_games set last_event = ${newest}
      where ${newest} > last_event
      ${this.judgeAddress === null ? sql`` : sql`and not ${addressed}`}`.execute(db);
    if (this.judgeAddress === null) return [];
    const rows = await db
      .selectFrom("notice_games")
      .innerJoin("games", "games.id", "notice_games.game_id")
      .select([
        "notice_games.game_id",
        "notice_games.last_event",
        "notice_games.reminded_idx",
        "games.label",
        "games.created_at",
      ])
      .where("notice_games.game_id", "not in", db.selectFrom("mail_games").select("game_id"))
      .where(addressed)
      .where(this.mayMail("notice_games"))
      .execute();
    // Named by its id as its players know it (its label), or the game's own id.
    return rows.map((r) => ({
      game_id: r.game_id,
      abbr: r.label ?? r.game_id,
      address: this.judgeAddress!,
      last_event: r.last_event,
      reminded_idx: r.reminded_idx,
      created_at: r.created_at,
    }));
  }

  /**
   * Whether a game may have mail to send now: events not yet mailed, or a reminder that may
   * be due (an open phase not yet reminded whose deadline is less than `reminderMs` away;
   * `reminders` decides). Loading a game is most of the notifier's cost, so a tick loads
   * only these, not every game with an address every tick (docs/performance.md, "Long
   * phases"): an idle tick is one query per table, whatever the number of games.
   */
  private mayMail(table: "mail_games" | "notice_games") {
    const now = this.judge.now();
    const id = sql.ref(`${table}.game_id`);
    return sql<boolean>`(exists (select 1 from events where events.game_id = ${id}
        and events.id > ${sql.ref(`${table}.last_event`)})
      or exists (select 1 from phase_state where phase_state.game_id = ${id}
        and phase_state.state = 'open' and phase_state.deadline_at is not null
        and phase_state.phase_idx > ${sql.ref(`${table}.reminded_idx`)}
        and phase_state.deadline_at > ${now}
        and phase_state.deadline_at <= ${now + this.reminderMs}))`;
  }

  private async game(row: MailGameRow, byMail: boolean): Promise<number> {
    const events = await this.judge.views.rawEvents(row.game_id, Number(row.last_event));
    const game = await loadMailGame(this.judge, row, byMail);
    const voice = (this.dialects.find((d) => d.voice.serves(game)) ?? this.dialects.at(-1)!).voice;
    const mails: OutgoingMail[] = [];
    // One mail per player per phase: vote outcomes and the GM's notices that come with a
    // phase's results (the same batch of events) are told in the results mail.
    const results = events.find((e) => e.kind === "phase_resolved" || e.kind === "phase_corrected");
    const folded = results
      ? events.filter((e) => FOLDED.has(e.kind) && e.audience === "public")
      : [];
    const told = folded.map((e) => this.notice(voice, e.kind, (e.data ?? {}) as EventData));
    for (const e of events) {
      // Whoever lost a seat is told, folded into the results or not, whoever may read the
      // event (a Global Diplomacy game's civil disorder is the GM's): it is about them.
      mails.push(...this.seatLost(game, voice, e));
      // Whoever takes a seat is briefed, folded into the results or not: it is about them.
      mails.push(...(await this.briefing(game, voice, e)));
      if (folded.includes(e)) continue;
      mails.push(...(await this.event(game, voice, e, e === results ? told : [], events)));
    }
    const reminders = await this.reminders(game, voice);
    if (events.length === 0 && reminders === null) return 0;
    mails.push(...(reminders ?? []));
    // Claimed and queued in one transaction, on the condition that nobody (another server on
    // the same database) mailed them first: each mail goes out once, and none is lost.
    return this.judge.store.db.transaction().execute(async (trx) => {
      let q = trx
        .updateTable(byMail ? "mail_games" : "notice_games")
        .set({
          last_event: events.at(-1)?.id ?? Number(row.last_event),
          ...(reminders ? { reminded_idx: game.view.phaseIndex } : {}),
        })
        .where("game_id", "=", row.game_id)
        .where("last_event", "=", Number(row.last_event));
      if (reminders) q = q.where("reminded_idx", "<", game.view.phaseIndex);
      const claimed = await q.executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return 0;
      if (mails.length > 0) await this.postman.queue(mails, trx);
      return mails.length;
    });
  }

  private mail(
    game: MailGame,
    voice: Voice,
    to: Player,
    reach: Reach,
    kind: string,
    subject: string,
    text: string,
  ): OutgoingMail {
    const link = gameLink(this.judge.publicUrl, game.id);
    // A game played on the web page takes no orders by mail: its mail says where to play.
    const footer = game.byMail
      ? voice.footer(game)
      : `"${game.view.name}" is played on the judge's web page: ${voice.sends} there, not by mail.`;
    return {
      from: game.address,
      to: to.address!,
      subject: `${game.abbr}: ${subject}`,
      text: [
        text.trimEnd(),
        "",
        "-- ",
        `Entente judge, game ${game.abbr}. ${footer}`,
        ...(link ? [`The game on the web: ${link}`] : []),
        reach === "optional" ? optOut(game, this.takesMail) : whyAnyway(to),
        "",
      ].join("\n"),
      gameId: game.id,
      kind,
      // Only where the opt-out stops the mail: offered on one that goes regardless, it would
      // promise what it cannot do.
      listUnsubscribe: reach === "optional" ? this.listUnsubscribe(game, to) : null,
    };
  }

  /**
   * The List-Unsubscribe of a mail to `to` about `game` (docs/email.md): what its last line
   * says, for the mail program's button. A mailto: with the subject NOTICES OFF <game> where
   * the judge reads mail at the game's address; the one-click link (RFC 8058) where it has a
   * public address. Each turns off this game's mail, as the line offers first.
   */
  private listUnsubscribe(game: MailGame, to: Player): string[] {
    const urls: string[] = [];
    if (game.byMail || this.takesMail)
      urls.push(`mailto:${game.address}?subject=${encodeURIComponent(`NOTICES OFF ${game.abbr}`)}`);
    // RFC 8058: one-click over https only.
    if (this.judge.publicUrl?.startsWith("https:") && this.unsubscribeKey)
      urls.push(unsubscribeUrl(this.judge.publicUrl, this.unsubscribeKey, to.user.id, game.id));
    return urls;
  }

  private async toAll(
    game: MailGame,
    voice: Voice,
    players: readonly Player[],
    reach: Reach,
    kind: string,
    subject: string,
    text: (p: Player) => string | Promise<string>,
  ): Promise<OutgoingMail[]> {
    const out: OutgoingMail[] = [];
    for (const p of players)
      if (p.address) out.push(this.mail(game, voice, p, reach, kind, subject, await text(p)));
    return out;
  }

  /** A vote's outcome or a GM's notice, as one line of a results mail. */
  private notice(voice: Voice, kind: string, d: EventData): string {
    switch (kind) {
      case "vote_result":
        // Counts only: votes are secret (seed 002 IX(4)).
        return `Proposal ${d.id} ("${d.text}") ${d.passed ? "PASSED" : "failed"}: ${d.for} for, ${d.against} against, ${d.abstain} abstaining.`;
      case "paused":
        return `The GM paused the game in ${voice.phase(d.phase)}.`;
      case "resumed":
        return `The GM resumed the game: ${voice.sends} for ${voice.phase(d.phase)} are due by ${when(d.deadline)}.`;
      case "unit_removed":
        return `The GM removed ${d.power ? `${d.power}'s ` : ""}${d.unit ?? "a unit"}${d.reason ? `: ${d.reason}` : ""} (seed 002 VIII(2))${d.rule ? `; the unit by the house rule: ${d.rule}` : ""}.`;
      case "unit_relocated":
        return d.to
          ? `The GM put ${d.power ? `${d.power}'s ` : ""}${d.unit} where it should stand: ${d.to}${d.reason ? ` (${d.reason})` : ""}, seed 002 VIII(3).`
          : `The GM disbanded ${d.power ? `${d.power}'s ` : ""}${d.unit}, a unit an erroneous adjudication put where it should not be${d.reason ? ` (${d.reason})` : ""}, seed 002 VIII(3).`;
      case "player_replaced":
        return `The GM ${d.player ? `gave ${d.seatName}'s seat to ${d.player}` : `opened ${d.seatName}'s seat for a replacement`}.`;
      case "draw_warning":
        return `The GM warned that a draw of all survivors may be declared: no supply centre has changed hands for ${d.turns !== undefined ? `${d.turns} turn(s)` : `${d.years} game year(s)`} (seed 002 IX(2)).${d.from ? ` If none changes hands before ${voice.phase(d.from)}, the GM may declare it then.` : d.period !== undefined && d.turns !== undefined ? ` If none changes hands in the next ${d.period} turn(s), the GM may declare it then.` : ""}`;
      case "proposal_refused":
        return `The GM refused to put proposal ${d.id} ("${d.text}") to the vote (seed 002 IX(5)): nobody votes on it.`;
      case "civil_disorder":
        return `${d.seatName} missed ${d.missed} phases in a row and is in civil disorder; its seat is open for a replacement.`;
      case "bot_seated":
        return `The GM seated the built-in player ${d.bot} at ${d.seatName}: it plays the seat until a player takes it.`;
      case "bot_removed":
        return d.cause === "player_back"
          ? `${d.player} plays ${d.seatName} again: the built-in player ${d.bot} that played it after missed orders has left.`
          : d.cause === "player_seated"
            ? `${d.player} took ${d.seatName}'s seat from the built-in player ${d.bot}.`
            : `The GM took the built-in player ${d.bot} off ${d.seatName}: the seat is free.`;
      case "bot_took_over":
        return `The built-in player ${d.bot} plays ${d.seatName} from ${voice.phase(d.phase)} on, as the game's option botTakeover says, since ${d.player ? `${d.player} sent no orders` : "nobody holds the seat"}: until ${d.player ? "they send orders again or " : ""}a player is seated.`;
      default:
        return `The GM set the deadline: ${voice.sends} for ${voice.phase(d.phase)} are due by ${when(d.deadline)}.`;
    }
  }

  /**
   * The mail to a player whose seat was taken from them: by civil disorder (the game's
   * `civilDisorderAfter`) or by the GM (REPLACE, gm/replace). Sent whatever they chose ("duty":
   * it is about their own seat), to the address they gave; they now hold no seat, so it says
   * why and what is left to them. The event names them (`player`, `former`); one stored
   * before it did names nobody, and nobody is mailed.
   */
  private seatLost(
    game: MailGame,
    voice: Voice,
    e: { kind: string; data: unknown },
  ): OutgoingMail[] {
    if (e.kind !== "civil_disorder" && e.kind !== "player_replaced") return [];
    const d = (e.data ?? {}) as EventData;
    const name = e.kind === "civil_disorder" ? d.player : d.former;
    // Only while they hold no seat: one given back to them before this mail is made was not lost.
    const to = name ? game.unseated.find((p) => p.user.name === name) : undefined;
    if (!to?.address) return [];
    const seat = d.seatName ?? "your seat";
    const stay = `You stay in the game as an observer, and can no longer send ${voice.sends} or press in it.`;
    const phases = (n: number | undefined) => `${n} phase${n === 1 ? "" : "s"}`;
    const text =
      e.kind === "civil_disorder"
        ? [
            `You no longer hold ${seat} in game ${game.abbr}: you missed ${phases(d.missed)} in a row, and in this game a seat is declared in civil disorder once its player has missed ${phases(game.view.options.civilDisorderAfter)} in a row (the game's option civilDisorderAfter; seed 002 VII(6)). Its powers go on in civil disorder, adjudicated without ${voice.sends}, until a replacement takes the seat.`,
            stay,
            `The seat is open for a replacement, by an invitation the GM holds: the GM decides who takes it, and may give it back to you. If you want to play on, write to the GM.`,
          ]
        : [
            d.player
              ? `The GM gave your seat, ${seat}, in game ${game.abbr} to ${d.player}.`
              : `The GM took your seat, ${seat}, in game ${game.abbr} and opened it for a replacement.`,
            stay,
            ...(d.dropped && d.dropped.length > 0
              ? [
                  `Your ${voice.sends} for later phases (${d.dropped.map((x) => voice.phase(x)).join(", ")}) were dropped: they are not used for the seat.`,
                ]
              : []),
            `Only the GM can give the seat back to you: if you think this is a mistake, write to the GM.`,
          ];
    return [
      this.mail(
        game,
        voice,
        to,
        "duty",
        "seat",
        e.kind === "civil_disorder"
          ? `${seat} is in civil disorder: you no longer hold the seat`
          : `you no longer hold ${seat}`,
        text.join("\n"),
      ),
    ];
  }

  /**
   * The mail to a player the GM gave a seat to (REPLACE, gm/replace): everything needed to
   * play on at once, whatever they chose ("duty": it is about their own seat): the power, the
   * phase and deadline, the units and supply centres (a Diplomacy game; another family's own
   * report), their secret and how to send orders by mail and on the web, and which of the
   * former player's early orders were dropped.
   */
  private async briefing(
    game: MailGame,
    voice: Voice,
    e: { kind: string; data: unknown },
  ): Promise<OutgoingMail[]> {
    if (e.kind !== "player_replaced") return [];
    const d = (e.data ?? {}) as EventData;
    const to = d.player ? game.players.find((p) => p.user.name === d.player) : undefined;
    if (!to?.address || to.powers.length === 0) return [];
    const v = game.view;
    const powers = to.powers.map((x) => voice.power(game, x)).join(" and ");
    const lines = [
      `The GM gave you the seat of ${powers} in game ${game.abbr} ("${v.name}")${d.former ? `, which ${d.former} held` : ""}.`,
      v.phase
        ? `Now: ${voice.phase(v.phase)}${v.deadline ? `, ${voice.sends} due by ${when(v.deadline)}` : " (no deadline set while the game is paused)"}.`
        : "The game has not started yet.",
    ];
    if (game.data) {
      const units = v.position.units as Record<string, readonly string[]>;
      const centres = (v.position as { centers?: Record<string, readonly string[]> }).centers ?? {};
      for (const p of to.powers) {
        lines.push(
          `${voice.power(game, p)}'s units: ${(units[p] ?? []).join(", ") || "none"}.`,
          `${voice.power(game, p)}'s supply centres (${(centres[p] ?? []).length}): ${(centres[p] ?? []).join(", ") || "none"}.`,
        );
      }
    } else {
      lines.push("", ...(await voice.started(this.judge, game, to)), "");
    }
    lines.push(
      d.dropped && d.dropped.length > 0
        ? `The former player's ${voice.sends} for later phases (${d.dropped.map((x) => voice.phase(x)).join(", ")}) were dropped: nothing of theirs is used for you.`
        : `Nothing the former player sent for later phases is kept for you.`,
      "",
      `Your secret: ${to.secret ?? "(none yet: POST /api/me/mail gives one)"}. Keep it to yourself.`,
      ...(game.byMail ? [voice.howToOrder(game, to.powers[0]!)] : []),
      `On the web: ${gameLink(this.judge.publicUrl, game.id) ?? `the game's page (game ${game.abbr})`}.`,
    );
    return [this.mail(game, voice, to, "duty", "seat", `you now play ${powers}`, lines.join("\n"))];
  }

  private async event(
    game: MailGame,
    voice: Voice,
    e: { id: number; kind: string; audience: string; data: unknown },
    told: readonly string[] = [],
    batch: readonly { kind: string; audience: string; data: unknown }[] = [],
  ): Promise<OutgoingMail[]> {
    const d = (e.data ?? {}) as EventData;
    // The judge's own mail ("optional", see Reach) goes to those who did not opt out
    // (docs/email.md); mail about a player's own seat (missed orders) and the GM's duties
    // ("duty") goes to them regardless, from game.players and game.gm unfiltered.
    const players = game.players.filter((p) => p.notices);
    const gm = game.gm?.notices ? game.gm : null;
    // The GM, with a registered address, gets a copy of what is published (not press).
    const everyone = (gm && e.kind !== "press" ? [...players, gm] : players).filter((p) =>
      reads(e.audience, p),
    );
    switch (e.kind) {
      case "started":
        return this.toAll(
          game,
          voice,
          everyone,
          "optional",
          "started",
          `the game has started: ${voice.phase(d.phase)}`,
          async (p) =>
            [
              p.seat === -1
                ? `Game ${game.abbr} has started; you are its game master.`
                : `Game ${game.abbr} has started. You play ${p.powers.map((x) => voice.power(game, x)).join(" and ")}.`,
              `${capital(voice.sends)} for ${voice.phase(d.phase)} are due by ${when(d.deadline)}.`,
              ...(p.seat === -1 ? [] : await voice.started(this.judge, game, p)),
            ].join("\n"),
        );
      case "phase_resolved":
      case "phase_corrected": {
        const next = d.winner
          ? `The game is over: ${d.winner} has won.`
          : d.winners
            ? `The game is over: won by ${d.winners.join(", ")}.`
            : d.next
              ? d.deadline
                ? `Next: ${voice.phase(d.next)}, ${voice.sends} due by ${when(d.deadline)}.`
                : `Next: ${voice.phase(d.next)}; no deadline is set while the game is paused.`
              : null;
        const votes = told.filter((t) => t.startsWith("Proposal "));
        const acts = told.filter((t) => !t.startsWith("Proposal "));
        const with_ = [
          ...(votes.length > 0
            ? ["Votes (counts only, seed 002 IX(4)):", ...votes.map((v) => `  ${v}`)]
            : []),
          ...(acts.length > 0
            ? ["The GM's acts since the last results:", ...acts.map((v) => `  ${v}`)]
            : []),
          ...(next ? [next] : []),
        ];
        const results = await voice.results(
          this.judge,
          game,
          { kind: e.kind, data: d },
          everyone.filter((p) => p.address),
          with_.length > 0 ? with_.join("\n") : null,
        );
        return results.map((r) =>
          this.mail(game, voice, r.to, "optional", "results", r.subject, r.text),
        );
      }
      case "game_over":
        return this.toAll(game, voice, everyone, "optional", "results", "the game is over", () =>
          [
            `Game ${game.abbr} is over.${d.kind === "draw" && (e.data as { by?: string }).by === "gm" ? ` The GM declared a draw of all survivors (${(d.powers ?? []).map((x) => voice.power(game, x)).join(", ")}), seed 002 IX(2).` : ""}`,
            "",
            `Result: ${resultText(voice, game, e.data as GameResult)}.`,
          ].join("\n"),
        );
      case "vote_result":
        return this.toAll(
          game,
          voice,
          everyone,
          "optional",
          "results",
          `vote ${d.id}: ${d.passed ? "passed" : "failed"}`,
          () =>
            `The proposal "${d.text}" ${d.passed ? "passed" : "failed"}: ${d.for} for, ${d.against} against, ${d.abstain} abstaining.`,
        );
      case "proposal":
        return this.toAll(
          game,
          voice,
          everyone,
          "optional",
          "vote",
          `proposal ${d.id}: ${d.text}`,
          () =>
            [
              `A proposal was made (number ${d.id}): ${d.text}.`,
              `It is decided with the ${voice.sends} of ${voice.phase(d.due ?? d.phase)}.`,
              voice.votesByMail && game.byMail
                ? `Vote by mail: subject "${game.abbr} VOTE", a body line "vote ${d.id} yes" (or no, abstain) and your secret line.`
                : game.byMail
                  ? "Vote on the game's page (the game's mail takes commands and report requests only)."
                  : "Vote on the game's page.",
            ].join("\n"),
        );
      case "deadline":
      case "paused":
      case "resumed":
        return this.toAll(
          game,
          voice,
          everyone,
          "optional",
          "notice",
          `${e.kind === "deadline" ? "new deadline" : e.kind}: ${voice.phase(d.phase)}`,
          () =>
            e.kind === "paused"
              ? `The GM paused the game in ${voice.phase(d.phase)}.`
              : `${capital(voice.sends)} for ${voice.phase(d.phase)} are now due by ${when(d.deadline)}.`,
        );
      case "unit_removed":
      case "unit_relocated":
      case "player_replaced":
      case "draw_warning":
      case "civil_disorder":
        return this.toAll(
          game,
          voice,
          everyone,
          "optional",
          "notice",
          noticeSubject(e.kind, d),
          () => this.notice(voice, e.kind, d),
        );
      case "proposal_refused": {
        // The proposer, mailed the reason in this same batch, gets that one mail only.
        const reason = batch.find(
          (x) => x.kind === "proposal_refused_reason" && (x.data as EventData | null)?.id === d.id,
        );
        const proposer = reason ? this.audienceOf(players, reason.audience) : [];
        return this.toAll(
          game,
          voice,
          everyone.filter((p) => !proposer.includes(p)),
          "optional",
          "vote",
          `proposal ${d.id} refused`,
          () => this.notice(voice, e.kind, d),
        );
      }
      case "proposal_refused_reason":
        // To the proposer alone (who proposed is secret, seed 002 IX(4)); the GM gave it.
        return this.toAll(
          game,
          voice,
          this.audienceOf(players, e.audience),
          "optional",
          "vote",
          `proposal ${d.id} refused`,
          () =>
            [
              `The GM refused to put your proposal ${d.id} ("${d.text}") to the vote (seed 002 IX(5)): nobody votes on it.`,
              `The GM's reason: ${d.reason}`,
              "Every player is told that it was refused, not who proposed it nor why.",
            ].join("\n"),
        );
      case "bot_seated":
      case "bot_removed":
      case "bot_took_over": {
        // Public seatings go to everybody; a takeover and a hand-back to the seat's player and
        // the GM ("duty": about their own seat), unless the missed-orders mail says it.
        if (e.audience === "public")
          return this.toAll(
            game,
            voice,
            everyone,
            "optional",
            "notice",
            `${d.seatName}: a built-in player`,
            () => this.notice(voice, e.kind, d),
          );
        const told = batch.some(
          (x) => x.kind === "missed_orders" && (x.data as EventData | null)?.seat === d.seat,
        );
        if (e.kind === "bot_took_over" && told) return [];
        const holder = game.players.filter((p) => p.seat === d.seat);
        return this.toAll(
          game,
          voice,
          game.gm ? [...holder, game.gm] : holder,
          "duty",
          "nmr",
          e.kind === "bot_took_over"
            ? `a built-in player plays ${d.seatName}`
            : `${d.seatName} is played by its player again`,
          () => this.notice(voice, e.kind, d),
        );
      }
      case "missed_orders": {
        // At once, to the seat's player and the GM: the player keeps the seat (seed 002 VII(6)).
        // Unless the seat fell into civil disorder with it: its player is then told so alone
        // (seatLost), and the GM is not told that they keep it.
        const holder = game.players.filter((p) => p.seat === d.seat);
        const to = game.gm ? [...holder, game.gm] : holder;
        const lost = batch.some(
          (x) => x.kind === "civil_disorder" && (x.data as EventData | null)?.seat === d.seat,
        );
        const names = (d.powers ?? []).map((x) => voice.power(game, x)).join(" and ");
        return this.toAll(
          game,
          voice,
          to,
          "duty",
          "nmr",
          `no orders received from ${d.seatName} for ${voice.phase(d.phase)}`,
          (p) =>
            [
              d.bot
                ? `No orders received from ${names || d.seatName} for ${voice.phase(d.phase)}: the built-in player ${d.bot} played them instead of holding (the game's option botTakeover), and plays the seat until ${p.seat === -1 ? "the player sends" : "you send"} orders again or a player is seated.`
                : `No orders received from ${names || d.seatName} for ${voice.phase(d.phase)}: the phase was adjudicated without them (civil disorder for that phase).`,
              p.seat === -1
                ? lost
                  ? `${d.player ?? "The player"} no longer holds the seat: it is in civil disorder (the game's option civilDisorderAfter), and a replacement may be arranged.`
                  : `${d.player ?? "The player"} keeps the seat. If there are still no orders from them by ${when(d.contactUntil)}, you will be told that a replacement may be arranged.`
                : `You keep your seat. Please send orders for the next phase, or write to the GM; if there are still no orders from you by ${when(d.contactUntil)}, the GM may arrange a replacement.`,
            ].join("\n"),
        );
      }
      case "replacement_suggested":
        // To the GM only, once the contact window has passed: the commands to replace.
        return game.gm?.address
          ? [
              this.mail(
                game,
                voice,
                game.gm,
                "duty",
                "nmr",
                `a replacement may be arranged for ${d.seatName}`,
                [
                  `No orders received from ${d.player} (${d.seatName}) since ${voice.phase(d.phase)} (${d.missed} phase(s) missed in a row), and the contact window has passed: a replacement may be arranged (seed 002 VII(6)).`,
                  ...(game.byMail
                    ? [
                        `The player keeps the seat until you decide. To open it for a replacement, send`,
                        `  REPLACE ${game.abbr} ${d.seatName}`,
                        `with your secret line: the judge answers with the seat's invitation code, which the`,
                        `replacement sends as "JOIN <code>". Or give it to a registered player at once:`,
                        `  REPLACE ${game.abbr} ${d.seatName} <user>`,
                      ]
                    : [
                        `The player keeps the seat until you decide. To open it for a replacement, or give it`,
                        `to a registered player, use the game master's tab of the game's page`,
                        `(POST /api/games/${game.id}/gm/replace {"seat": ${d.seat}} or {"seat": ${d.seat}, "user": ...}).`,
                      ]),
                ].join("\n"),
              ),
            ]
          : [];
      case "replacement_needed":
        // To the GM only: the seat's invitation code and the mail command to replace.
        return game.gm?.address
          ? [
              this.mail(
                game,
                voice,
                game.gm,
                "duty",
                "notice",
                `a replacement may be arranged for ${d.seatName}`,
                [
                  `${d.seatName} is in civil disorder (seed 002 VII(6)); a replacement may be arranged.`,
                  `Give the replacement the invitation code ${d.code} (they send "JOIN ${d.code}"${d.code && this.judge.publicUrl ? `, or open ${inviteLink(this.judge.publicUrl, d.code)}` : ""}),`,
                  game.byMail
                    ? `or send "REPLACE ${game.abbr} ${d.seatName} <user>" with your secret line.`
                    : `or give the seat to a registered player on the game master's tab of the game's page.`,
                ].join("\n"),
              ),
            ]
          : [];
      case "store_fault": {
        // To the GM only: the judge's database could not read or write for a while
        // (src/server/readiness.ts); players' requests meanwhile were refused, not lost.
        const f = e.data as { cause?: string; since?: string; until?: string | null };
        return game.gm?.address
          ? [
              this.mail(
                game,
                voice,
                game.gm,
                "duty",
                "notice",
                f.until
                  ? "the judge's database failed for a while"
                  : "the judge's database is failing",
                [
                  `The judge's database ${f.until ? `could not be used from ${f.since} to ${f.until}` : `cannot be used since ${f.since}`}: ${f.cause}.`,
                  `Meanwhile the judge refused requests it could not store (answered 503, "try again later"): nothing it acknowledged is lost, but orders, press or votes sent then were not taken. Players may need to send them again; a deadline may need extending (the game master's tools).`,
                  f.until
                    ? `It works again now.`
                    : `It does not work yet; the server's log says the same to its administrator.`,
                ].join("\n"),
              ),
            ]
          : [];
      }
      case "chair_timer_ended": {
        // To the chair (the GM) only: the time of a stage is up (seed 000; src/judge/chair.ts).
        const t = e.data as { stage?: string; resolving?: boolean } | null;
        const stage =
          t?.stage === "orders"
            ? "order writing"
            : t?.stage === "diplomacy"
              ? "the diplomatic phase"
              : "the speech";
        return game.gm?.address
          ? [
              this.mail(
                game,
                voice,
                game.gm,
                "duty",
                "notice",
                `time is up: ${stage}`,
                [
                  `The chairs' timer for ${stage} has run out in ${voice.phase(d.phase)}.`,
                  t?.resolving
                    ? "The game's option resolveWhenOrdersTimerEnds is on: the judge resolves the phase now."
                    : t?.stage === "orders"
                      ? `Reveal and resolve the orders on the projector page (/chair/${game.id}) when the room is ready.`
                      : "Start the next timer on the projector page when the room is ready.",
                ].join("\n"),
              ),
            ]
          : [];
      }
      case "press":
        return this.press(game, voice, d.id ?? 0);
      case "press_held": {
        // To the GM alone, once per message: a player's press awaits review (seed 002 X(1)).
        const h = e.data as HeldData;
        const abbr = game.abbr;
        return game.gm?.address
          ? [
              this.mail(
                game,
                voice,
                game.gm,
                "duty",
                "press",
                `press ${h.held} awaits your review`,
                [
                  `${h.from ? voice.power(game, h.from) : "A player"} sent ${h.kind === "grey" ? "grey (anonymous) " : ""}press to ${heldTo(game, voice, h.to)} in ${voice.phase(h.phase)}; it is held until you approve or refuse it (the game's option press.review, seed 002 X(1)). Nobody else reads it meanwhile.`,
                  "",
                  h.body,
                  "",
                  game.byMail
                    ? `To publish it, send "APPROVE ${abbr} PRESS ${h.held}"; to refuse it, "REFUSE ${abbr} PRESS ${h.held}" with a body line "Reason: <why>" (the author alone reads it). Both with your secret line.`
                    : `Approve or refuse it on the game master's tab of the game's page${gameLink(this.judge.publicUrl, game.id) ? ` (${gameLink(this.judge.publicUrl, game.id)})` : ""}.`,
                ].join("\n"),
              ),
            ]
          : [];
      }
      case "press_refused":
      case "press_approved": {
        // To the author alone (nobody else learns that a message was held or refused).
        const h = e.data as HeldData;
        const refused = e.kind === "press_refused";
        return this.toAll(
          game,
          voice,
          this.audienceOf(game.players, e.audience),
          "duty",
          "press",
          refused ? "the GM refused to publish your press" : "the GM published your press",
          () =>
            (refused
              ? [
                  `The GM refused to publish your press to ${heldTo(game, voice, h.to)} of ${voice.phase(h.phase)} (seed 002 X(1)): nobody else reads it.`,
                  `The GM's reason: ${h.reason}`,
                  "",
                  "Your message was:",
                  h.body ?? "",
                ]
              : [
                  `The GM approved your press to ${heldTo(game, voice, h.to)} of ${voice.phase(h.phase)}: it is delivered to its recipients now.`,
                ]
            ).join("\n"),
        );
      }
      default:
        return [];
    }
  }

  /** The players an event's audience (`powers:a,b`) names; nobody for "public" or "gm". */
  private audienceOf(players: readonly Player[], audience: string): Player[] {
    if (!audience.startsWith("powers:")) return [];
    const powers = audience.slice(7).split(",");
    return players.filter((p) => p.powers.some((x) => powers.includes(x)));
  }

  /** A message to those who may read it (the judge decides that, as for the web page). */
  private async press(game: MailGame, voice: Voice, id: number): Promise<OutgoingMail[]> {
    const out: OutgoingMail[] = [];
    // The GM publishes press (seed 002 X(1)) and reads all of it: a copy of every message,
    // private ones too, with a grey message's author (never revealed to others, X(2)).
    for (const p of [...game.players, ...(game.gm ? [game.gm] : [])]) {
      if (!p.address || !p.notices) continue;
      // The event names the message by its row id; the player reads it as the judge lets them.
      const m = await this.judge.press.pressMessage(p.user, game.id, id);
      if (!m || m.yours) continue;
      const to = m.to === "all" ? "everybody" : (m.to as string[]).join(", ");
      out.push(
        this.mail(
          game,
          voice,
          p,
          "optional",
          "press",
          `press from ${m.fromName}`,
          [
            ...(p.seat < 0
              ? ["Your copy as the GM (every message of the game reaches you, seed 002 X(1)).", ""]
              : []),
            `From: ${m.fromName}${m.kind === "grey" ? " (grey press)" : ""}`,
            `To: ${to}`,
            `Phase: ${m.phase}`,
            "",
            m.body,
          ].join("\n"),
        ),
      );
    }
    return out;
  }

  /**
   * Before a deadline: a reminder to each player whose powers have no orders yet, or (where
   * sets are marked final) no final ones (the list may be empty); null when no reminder is
   * due now for this phase.
   */
  private async reminders(game: MailGame, voice: Voice): Promise<OutgoingMail[] | null> {
    const v = game.view;
    if (v.state !== "open" || v.deadline === null || v.phase === null) return null;
    if (Number(game.row.reminded_idx) >= v.phaseIndex) return null;
    const deadlineAt = Date.parse(v.deadline);
    const length = phaseLengthMs(v.options, parsePhase(v.phase)?.type ?? "M");
    const before = Math.min(this.reminderMs, length / 2);
    const now = this.judge.now();
    if (now < deadlineAt - before || now >= deadlineAt) return null;
    // Who owes orders is the judge's answer for every game family (Judge.ordersOwed); where
    // sets are not marked final (EMG), a preliminary set on file is enough.
    const owed = await this.judge.submissions.ordersOwed(game.id);
    const onFile = new Map(owed.owed.flatMap((o) => o.powers.map((x) => [x.power, x.onFile])));
    const due = `${voice.phase(v.phase)} are due by ${iso(deadlineAt)}`;
    const out: OutgoingMail[] = [];
    for (const p of game.players) {
      if (!p.address || !p.notices) continue;
      const missing = p.powers.filter(
        (x) => onFile.has(x) && (voice.finalSets || onFile.get(x) === "none"),
      );
      if (missing.length === 0) continue;
      const lines = missing.map((x) =>
        onFile.get(x) === "preliminary"
          ? `  ${voice.power(game, x)}: preliminary ${voice.sends} on file (${game.byMail ? 'add a line "Final"' : "mark them final on the game's page"} to make them final)`
          : `  ${voice.power(game, x)}: NO ${voice.sends.toUpperCase()} on file`,
      );
      out.push(
        this.mail(
          game,
          voice,
          p,
          "optional",
          "reminder",
          `reminder: ${voice.sends} for ${v.phase} due ${iso(deadlineAt)}`,
          [`${capital(voice.sends)} for ${due}.`, ...lines].join("\n"),
        ),
      );
    }
    return out;
  }
}

const iso = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/:\d\d\.\d{3}Z$/, " UTC")
    .replace("T", " ");

/** The subject of a GM's notice mailed on its own: what happened, not only who did it. */
function noticeSubject(kind: string, d: EventData): string {
  switch (kind) {
    case "unit_removed":
      return `the GM removed ${d.power ? `${d.power}'s ` : ""}${d.unit ?? "a unit"}`;
    case "unit_relocated":
      return d.to
        ? `the GM put ${d.power ? `${d.power}'s ` : ""}${d.unit} where it should stand`
        : `the GM disbanded ${d.power ? `${d.power}'s ` : ""}${d.unit}`;
    case "player_replaced":
      return d.player
        ? `the GM gave ${d.seatName}'s seat to ${d.player}`
        : `${d.seatName}'s seat is open for a replacement`;
    case "draw_warning":
      return "the GM warns that a draw may be declared";
    case "civil_disorder":
      return `${d.seatName} is in civil disorder`;
    default:
      return "a notice from the GM";
  }
}

/** A game's result as stored (`games.result`, the `game_over` event). */
interface GameResult {
  readonly kind?: string;
  readonly winner?: string;
  readonly winners?: readonly string[];
  readonly powers?: readonly string[];
  readonly by?: string;
  readonly note?: string;
}

/** A game's result in words, powers by their names (the game-over mail). */
function resultText(voice: Voice, game: MailGame, r: GameResult): string {
  const names = (list: readonly string[] | undefined) =>
    (list ?? []).map((x) => voice.power(game, x)).join(", ");
  const how =
    r.kind === "solo" && r.winner
      ? `${voice.power(game, r.winner)} won`
      : r.kind === "victory" && r.winners
        ? `won by ${names(r.winners)}`
        : r.kind === "draw"
          ? `a draw of ${names(r.powers) || "all survivors"}${r.by === "gm" ? ", declared by the GM" : r.by === "vote" ? ", agreed by vote" : ""}`
          : r.kind === "concede" || r.kind === "concession"
            ? `conceded to ${r.winner ? voice.power(game, r.winner) : names(r.powers)}${r.by === "vote" ? " by vote" : ""}`
            : r.kind === "abandoned"
              ? "abandoned by the GM"
              : r.kind === "points"
                ? `decided on points${r.winner ? `: ${voice.power(game, r.winner)} first` : ""}`
                : r.winner
                  ? `${voice.power(game, r.winner)} won`
                  : `${r.kind ?? "ended"}`;
  return r.note ? `${how} (${r.note})` : how;
}
