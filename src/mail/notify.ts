import { formatHistory } from "../engine/history.ts";
import { describePhase, parsePhase } from "../engine/phase.ts";
import type { PhaseRecord } from "../engine/record.ts";
import type { PowerId } from "../engine/types.ts";
import { isFamilyGame } from "../judge/family.ts";
import { type GameData, loadGame } from "../judge/game-data.ts";
import type { Judge } from "../judge/judge.ts";
import { phaseLengthMs } from "../judge/options.ts";
import { powersToOrder } from "../judge/orders.ts";
import { phasesFor } from "../judge/schedule.ts";
import { emgRulesFor } from "./emg.ts";
import { mailFamilyGame } from "./family-emg.ts";
import { gmOf, type MailGameRow, type Player, playersOf } from "./identity.ts";
import type { OutgoingMail } from "./message.ts";
import type { Postman } from "./postman.ts";

/*
 * What the judge mails by itself, for games played by mail: the results of every phase to
 * every player (with the variant's per-player report where it has one), the game's start and
 * end, press to its recipients, deadline changes, and a reminder before each deadline to the
 * players whose orders are missing or not final. It follows the judge's own event log (the
 * `events` table, the same flow the web page's live updates read), so adjudication itself is
 * untouched: each game keeps the id of the last event mailed.
 */

export interface NotifierOptions {
  readonly judge: Judge;
  readonly postman: Postman;
  /** Remind this long before a deadline (default a day; at most half the phase's length). */
  readonly reminderMs?: number;
  readonly log?: (message: string) => void;
}

const HOUR = 3_600_000;

const when = (iso: string | null | undefined) =>
  iso ? iso.replace(/:\d\d\.\d{3}Z$/, " UTC").replace("T", " ") : "none";

function phaseText(name: string | null | undefined): string {
  if (!name) return "";
  const p = parsePhase(name);
  return p ? `${describePhase(p)} (${name})` : name;
}

interface EventData {
  index?: number;
  phase?: string;
  next?: string | null;
  deadline?: string | null;
  nmr?: string[];
  civilDisorder?: string[];
  winner?: string;
  reason?: string;
  kind?: string;
  id?: number;
  powers?: string[];
  passed?: boolean;
  for?: number;
  against?: number;
  abstain?: number;
  text?: string;
  due?: string;
}

export class Notifier {
  private readonly judge: Judge;
  private readonly postman: Postman;
  private readonly reminderMs: number;
  private readonly log: (m: string) => void;
  private running = false;

  constructor(opts: NotifierOptions) {
    this.judge = opts.judge;
    this.postman = opts.postman;
    this.reminderMs = opts.reminderMs ?? 24 * HOUR;
    this.log = opts.log ?? (() => {});
  }

  /** Mails what happened since the last call, and the reminders due. Returns mails queued. */
  async tick(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      const games = await this.judge.store.db.selectFrom("mail_games").selectAll().execute();
      let n = 0;
      for (const game of games) {
        try {
          n += await this.game(game);
        } catch (e) {
          this.log(`mail for game ${game.abbr}: ${(e as Error).stack ?? e}`);
        }
      }
      if (n > 0) await this.postman.flush();
      return n;
    } finally {
      this.running = false;
    }
  }

  private async game(game: MailGameRow): Promise<number> {
    // Global Diplomacy games mail each player's own report instead (seed 004 §8).
    if (await isFamilyGame(this.judge.store.db, game.game_id)) {
      return mailFamilyGame(this.judge, this.postman, game);
    }
    const events = await this.judge.rawEvents(game.game_id, Number(game.last_event));
    const g = await loadGame(this.judge.store.db, game.game_id);
    const players = await playersOf(this.judge, g);
    // The GM, with a registered address, gets a copy of what is published (not press).
    const gm = await gmOf(this.judge, g);
    const mails: OutgoingMail[] = [];
    for (const e of events) mails.push(...(await this.event(game, g, players, e, gm)));
    const reminders = await this.reminders(game, g, players);
    if (events.length === 0 && reminders === null) return 0;
    mails.push(...(reminders ?? []));
    // Claimed and queued in one transaction, on the condition that nobody (another server on
    // the same database) mailed them first: each mail goes out once, and none is lost.
    return this.judge.store.db.transaction().execute(async (trx) => {
      let q = trx
        .updateTable("mail_games")
        .set({
          last_event: events.at(-1)?.id ?? Number(game.last_event),
          ...(reminders ? { reminded_idx: g.state.phase_idx } : {}),
        })
        .where("game_id", "=", game.game_id)
        .where("last_event", "=", Number(game.last_event));
      if (reminders) q = q.where("reminded_idx", "<", g.state.phase_idx);
      const claimed = await q.executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return 0;
      if (mails.length > 0) await this.postman.queue(mails, trx);
      return mails.length;
    });
  }

  private mail(
    game: MailGameRow,
    to: Player,
    kind: string,
    subject: string,
    text: string,
  ): OutgoingMail {
    return {
      from: game.address,
      to: to.address!,
      subject: `${game.abbr}: ${subject}`,
      text: `${text.trimEnd()}\n\n-- \nEntente judge, game ${game.abbr}. Orders: subject "${game.abbr} YYSP" To ${game.address} (docs/email.md).\n`,
      gameId: game.game_id,
      kind,
    };
  }

  private toAll(
    game: MailGameRow,
    players: readonly Player[],
    kind: string,
    subject: string,
    text: (p: Player) => string,
  ): OutgoingMail[] {
    return players.filter((p) => p.address).map((p) => this.mail(game, p, kind, subject, text(p)));
  }

  private async event(
    game: MailGameRow,
    g: GameData,
    players: readonly Player[],
    e: { id: number; kind: string; audience: string; data: unknown },
    gm: Player | null,
  ): Promise<OutgoingMail[]> {
    const d = (e.data ?? {}) as EventData;
    const variant = g.scenario.variant;
    const everyone = gm && e.kind !== "press" ? [...players, gm] : players;
    switch (e.kind) {
      case "started":
        return this.toAll(
          game,
          everyone,
          "started",
          `the game has started: ${phaseText(d.phase)}`,
          (p) =>
            [
              p.seat === -1
                ? `Game ${game.abbr} has started; you are its game master.`
                : `Game ${game.abbr} has started. You play ${p.powers.map((x) => variant.powers.find((v) => v.id === x)?.name ?? x).join(" and ")}.`,
              `Orders for ${phaseText(d.phase)} are due by ${when(d.deadline)}.`,
              `Power letters for subjects: ${variant.powers.map((v) => `${v.letter} ${v.name}`).join(", ")}.`,
            ].join("\n"),
        );
      case "phase_resolved":
      case "phase_corrected": {
        const played = g.record.phases[d.index ?? -1] as PhaseRecord | undefined;
        if (!played) return [];
        // One text for every recipient: as players may read it (a sequential game's schedule
        // never shows, seed 003).
        const [phase] = phasesFor({ user: null, role: null, powers: [] }, g.record.rules, [played]);
        if (!phase) return [];
        const history = formatHistory(variant, { ...g.record, phases: [phase] })
          .split("\n")
          .slice(3)
          .join("\n");
        const corrected = e.kind === "phase_corrected";
        const rules = emgRulesFor(g.game.variant);
        return this.toAll(
          game,
          everyone,
          "results",
          `${corrected ? "corrected results" : "results"} of ${phaseText(phase.phase)}`,
          (p) => {
            const lines = [
              corrected
                ? `The GM corrected the adjudication of ${phaseText(phase.phase)}: ${d.reason ?? ""}`
                : `Results of ${phaseText(phase.phase)}:`,
              "",
              history,
            ];
            if (d.nmr && d.nmr.length > 0)
              lines.push(`No orders received from: ${d.nmr.join(", ")}.`);
            if (d.civilDisorder && d.civilDisorder.length > 0) {
              lines.push(`In civil disorder: ${d.civilDisorder.join(", ")}.`);
            }
            if (d.winner) lines.push(`The game is over: ${d.winner} has won.`);
            else if (d.next)
              lines.push(`Next: ${phaseText(d.next)}, orders due by ${when(d.deadline)}.`);
            if (rules?.report && p.powers[0]) {
              lines.push(
                "",
                rules.report({ variant, position: g.position, power: p.powers[0] }, []),
              );
            }
            return lines.join("\n");
          },
        );
      }
      case "game_over":
        return this.toAll(game, everyone, "results", "the game is over", () =>
          [`Game ${game.abbr} is over.`, "", `Result: ${JSON.stringify(e.data)}`].join("\n"),
        );
      case "vote_result":
        return this.toAll(
          game,
          everyone,
          "results",
          `vote ${d.id}: ${d.passed ? "passed" : "failed"}`,
          () =>
            `The proposal "${d.text}" ${d.passed ? "passed" : "failed"}: ${d.for} for, ${d.against} against, ${d.abstain} abstaining.`,
        );
      case "proposal":
        return this.toAll(game, everyone, "vote", `proposal ${d.id}: ${d.text}`, () =>
          [
            `A proposal was made (number ${d.id}): ${d.text}.`,
            `It is decided with the orders of ${phaseText(d.due ?? d.phase)}.`,
            `Vote by mail: subject "${game.abbr} VOTE", a body line "vote ${d.id} yes" (or no, abstain) and your secret line.`,
          ].join("\n"),
        );
      case "deadline":
      case "paused":
      case "resumed":
        return this.toAll(
          game,
          everyone,
          "notice",
          `${e.kind === "deadline" ? "new deadline" : e.kind}: ${phaseText(d.phase)}`,
          () =>
            e.kind === "paused"
              ? `The GM paused the game in ${phaseText(d.phase)}.`
              : `Orders for ${phaseText(d.phase)} are now due by ${when(d.deadline)}.`,
        );
      case "press":
        return this.press(game, g, players, d.id ?? 0);
      default:
        return [];
    }
  }

  /** A message to those who may read it (the judge decides that, as for the web page). */
  private async press(
    game: MailGameRow,
    g: GameData,
    players: readonly Player[],
    id: number,
  ): Promise<OutgoingMail[]> {
    const out: OutgoingMail[] = [];
    for (const p of players) {
      if (!p.address) continue;
      const seen = await this.judge.press(p.user, g.game.id, id - 1);
      const m = seen.find((x) => x.id === id);
      if (!m || m.yours) continue;
      const to = m.to === "all" ? "everybody" : (m.to as string[]).join(", ");
      out.push(
        this.mail(
          game,
          p,
          "press",
          `press from ${m.fromName}`,
          [
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
   * Before a deadline: a reminder to each player whose powers have no final orders yet (the
   * list may be empty); null when no reminder is due now for this phase.
   */
  private async reminders(
    game: MailGameRow,
    g: GameData,
    players: readonly Player[],
  ): Promise<OutgoingMail[] | null> {
    const st = g.state;
    if (st.state !== "open" || st.deadline_at === null) return null;
    if (Number(game.reminded_idx) >= st.phase_idx) return null;
    const length = phaseLengthMs(g.options, g.position.phase.type);
    const before = Math.min(this.reminderMs, length / 2);
    const now = this.judge.now();
    if (now < st.deadline_at - before || now >= st.deadline_at) return null;
    const sets = await this.judge.store.db
      .selectFrom("submissions")
      .select(["power", "final", "id"])
      .where("game_id", "=", g.game.id)
      .where("phase_idx", "=", st.phase_idx)
      .orderBy("id")
      .execute();
    const latest = new Map(sets.map((s) => [s.power, s.final === 1]));
    const need = new Set<PowerId>(powersToOrder(g.scenario.variant, g.position, g.record.rules));
    const deadline = new Date(st.deadline_at).toISOString();
    const out: OutgoingMail[] = [];
    for (const p of players) {
      if (!p.address) continue;
      const missing = p.powers.filter((x) => need.has(x) && latest.get(x) !== true);
      if (missing.length === 0) continue;
      const lines = missing.map((x) => {
        const name = g.scenario.variant.powers.find((v) => v.id === x)?.name ?? x;
        return latest.has(x)
          ? `  ${name}: preliminary orders on file (add a line "Final" to make them final)`
          : `  ${name}: NO ORDERS on file`;
      });
      out.push(
        this.mail(
          game,
          p,
          "reminder",
          `reminder: orders for ${st.phase} due ${when(deadline)}`,
          [`Orders for ${phaseText(st.phase)} are due by ${when(deadline)}.`, ...lines].join("\n"),
        ),
      );
    }
    return out;
  }
}
