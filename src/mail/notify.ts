import { sql } from "kysely";
import { parsePhase } from "../engine/phase.ts";
import type { Judge } from "../judge/judge.ts";
import { gameLink } from "../judge/links.ts";
import { phaseLengthMs } from "../judge/options.ts";
import { unsubscribeKey, unsubscribeUrl } from "../judge/unsubscribe.ts";
import type { MailDialect, Voice } from "./dialect.ts";
import { defaultDialects } from "./dialects.ts";
import { loadMailGame, type MailGame, type MailGameRow, NO_SEAT, type Player } from "./identity.ts";
import type { OutgoingMail } from "./message.ts";
import { eventMail, type Mailer } from "./notify-events.ts";
import { capital, type EventData, notice, when } from "./notify-words.ts";
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
 * the id of the last event mailed. This file is the flow (ticks, claims, reminders, the one
 * way a mail is written); what each kind of event mails is notify-events.ts's.
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

/** The last line of mail sent whatever its recipient chose: why, and how to get no more. */
const whyAnyway = (to: Player) =>
  to.seat === -1
    ? "Sent even with the judge's mail turned off: it is about your duties as this game's GM (missed orders and replacements, seed 002 VII(6)). It comes as long as you are the game's GM: the judge cannot hand a game to another GM, so it stops when the game ends."
    : to.seat === NO_SEAT
      ? "Sent even with the judge's mail turned off: it is about the seat you held. It is the last mail of this game to you: the judge mails a game's observers nothing."
      : "Sent even with the judge's mail turned off: it is about your own seat (missed orders, seed 002 VII(6)). To get no more of it, ask the GM to give your seat to a replacement.";

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

  /** How the events' mail (notify-events.ts) writes through this notifier. */
  private get mailer(): Mailer {
    return {
      judge: this.judge,
      mail: this.mail,
    };
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
    const told = folded.map((e) => notice(voice, e.kind, (e.data ?? {}) as EventData));
    for (const e of events) {
      // Whoever lost a seat is told, folded into the results or not, whoever may read the
      // event (a Global Diplomacy game's civil disorder is the GM's): it is about them.
      mails.push(...this.seatLost(game, voice, e));
      // Whoever takes a seat is briefed, folded into the results or not: it is about them.
      mails.push(...(await this.briefing(game, voice, e)));
      if (folded.includes(e)) continue;
      mails.push(
        ...(await eventMail(this.mailer, game, voice, e, e === results ? told : [], events)),
      );
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

  /** The one way the judge's own mail is written (Mailer's, for notify-events.ts too). */
  private readonly mail: Mailer["mail"] = (game, voice, to, reach, kind, subject, text) => {
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
  };

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
