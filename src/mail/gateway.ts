import type { Judge } from "../judge/judge.ts";
import { SlidingWindow, type Window } from "../judge/rate.ts";
import { commandOf, runCommand } from "./commands.ts";
import type { MailDialect, Refusal } from "./dialect.ts";
import {
  accountGames,
  gameByAbbr,
  identify,
  loadMailGame,
  type MailGame,
  mailGameNames,
} from "./identity.ts";
import { type IncomingMail, MAX_MAIL_BYTES, type OutgoingMail, readMail } from "./message.ts";
import { isNoticesCommand, runNotices } from "./notices.ts";
import type { Postman } from "./postman.ts";

/*
 * The mail gateway: a raw mail in, the replies out, the same for every game. It reads the
 * envelope (who sent it, to which game, for which power and phase, with which secret, and the
 * body), checks the sender, hands the request to the Judge's own methods and answers: with
 * what was done, or with exactly what was wrong and how to write it instead.
 *
 * What differs between games is only how a mail names those things: its "dialect". The house
 * rules (seed 002 II: To the game's address, the subject `SED 01SA`, power letters, a
 * `Secret:` line) and EMG (seed 004 §9: the subject EMGTURN or EMGREPORT, the game id and the
 * account id inside EMGSTART ... EMGEND) are two. The first dialect that claims a mail (by its
 * subject) reads it; the last one is the fallback that answers mails nobody claims. The SMTP
 * receiver, the IMAP poller and `entente mail ingest` all call `receive`.
 */

export interface HandleResult {
  /** Whether the mail did what it asked (orders stored, press sent, ...). */
  readonly accepted: boolean;
  /** The dialect that read it. */
  readonly dialect: string;
  /** What is sent back (the reply to the sender first). */
  readonly replies: readonly OutgoingMail[];
}

/** The answer to a mail: to its sender, from the game's address, `Re:` its subject. */
export function reply(
  mail: IncomingMail,
  game: MailGame | null,
  text: string,
  kind = "reply",
): OutgoingMail {
  const s = mail.subject || "your mail";
  return {
    from: game?.address ?? null,
    to: mail.from,
    subject: /^re:/i.test(s) ? s : `Re: ${s}`,
    // A report is mailed as it stands (seed 004 §8); an answer says how to write to the judge.
    text:
      kind === "report"
        ? `${text.trimEnd()}\n`
        : `${text.trimEnd()}\n\n-- \nEntente judge${game ? `, game ${game.abbr}` : ""}. How to write to the judge: docs/email.md.\n`,
    gameId: game?.id ?? null,
    kind,
    inReplyTo: mail.messageId,
  };
}

/** A refusal's text: nothing was changed, what was wrong, and what to send instead. */
export function refusalText(r: Refusal): string {
  const p = r.problems;
  return [
    "Your mail was NOT accepted: nothing was changed.",
    "",
    ...(p.length === 1
      ? [`What was wrong: ${p[0]}`]
      : ["What was wrong:", ...p.map((x, i) => `  ${i + 1}. ${x}`)]),
    ...(r.after ? ["", r.after] : []),
  ].join("\n");
}

/** The To check of seed 002 II(2): the game's address on the To line, not Cc or Bcc. */
function toProblem(mail: IncomingMail, game: MailGame): string | null {
  if (mail.to.includes(game.address)) return null;
  const where = mail.cc.includes(game.address) ? "on the Cc line" : "not on the To line (Bcc?)";
  return `the game's address ${game.address} was ${where}. Mails to the judge must be addressed To ${game.address} (seed 002 II(2)).`;
}

/** Mail that must not be answered: bounces, auto-replies, mail from the judge itself. */
function automatic(mail: IncomingMail, own: ReadonlySet<string>): boolean {
  return (
    mail.from === "" ||
    own.has(mail.from) ||
    /^(?:mailer-daemon|postmaster|no-?reply)@/i.test(mail.from) ||
    mail.auto
  );
}

/** Mails one sender may have read in a window (more are not read; docs/email.md). */
export const DEFAULT_MAIL_RATE: Window = { max: 30, windowMs: 10 * 60_000 };

export interface GatewayOptions {
  /** Mails read per sender address; default DEFAULT_MAIL_RATE. */
  readonly perSender?: Window;
}

/** The headers of a raw mail: what is read of a mail too large to read whole. */
function headersOf(raw: Buffer | string): string {
  const text = (typeof raw === "string" ? raw : raw.subarray(0, 64 * 1024).toString("latin1"))
    .slice(0, 64 * 1024)
    .replace(/\r\n/g, "\n");
  const end = text.indexOf("\n\n");
  return end === -1 ? text : text.slice(0, end + 1);
}

export class MailGateway {
  private readonly perSender: SlidingWindow;
  /** Senders told they sent too many: told once per window, then not answered (no loops). */
  private readonly told: SlidingWindow;

  constructor(
    readonly judge: Judge,
    private readonly dialects: readonly MailDialect[],
    private readonly postman: Postman | null = null,
    options: GatewayOptions = {},
  ) {
    if (dialects.length === 0) throw new Error("a mail gateway needs at least one dialect");
    const rate = options.perSender ?? DEFAULT_MAIL_RATE;
    this.perSender = new SlidingWindow(rate);
    this.told = new SlidingWindow({ max: 1, windowMs: rate.windowMs });
  }

  /** Handles one raw mail; the replies go to the postman (outbox, and SMTP if configured). */
  async receive(raw: Buffer | string): Promise<HandleResult> {
    const size = typeof raw === "string" ? Buffer.byteLength(raw) : raw.length;
    const tooLarge = size > MAX_MAIL_BYTES;
    // A mail too large to read is answered from its headers alone.
    const mail = await readMail(tooLarge ? headersOf(raw) : raw);
    const own = new Set(
      (await this.judge.store.db.selectFrom("mail_games").select("address").execute()).map(
        (r) => r.address,
      ),
    );
    if (automatic(mail, own)) return { accepted: false, dialect: "none", replies: [] };
    if (tooLarge) {
      return this.refuse(mail, [
        `Your mail (${Math.ceil(size / 1024)} KB) is larger than the judge reads (${MAX_MAIL_BYTES / 1024} KB), so it was not read.`,
        "Send your orders, press or votes as plain text, without attachments or pictures.",
      ]);
    }
    const sender = mail.from.toLowerCase();
    const now = this.judge.now();
    const wait = this.perSender.wait(sender, now);
    if (wait > 0) {
      if (this.told.wait(sender, now) > 0) return { accepted: false, dialect: "none", replies: [] };
      this.told.add(sender, now);
      const minutes = Math.ceil(wait / 60_000);
      return this.refuse(mail, [
        `The judge has read ${this.perSender.window.max} mails from ${mail.from} in the last ${this.perSender.window.windowMs / 60_000} minutes: this one was not read, nor will others be for ${minutes} minute${minutes === 1 ? "" : "s"}.`,
        "Send it again after that; the last set of orders you sent before the deadline is the one that counts.",
      ]);
    }
    this.perSender.add(sender, now);
    // Opting out of (or back into) the judge's own mail: NOTICES OFF [game id].
    if (isNoticesCommand(mail.subject)) {
      const answer = await runNotices(this.judge, mail);
      const out = reply(mail, null, answer.text);
      await this.send([out]);
      return { accepted: answer.accepted, dialect: "commands", replies: [out] };
    }
    // The judge's own commands (HELP, REGISTER, JOIN, the GM's CREATE ... REPLACE).
    if (commandOf(mail.subject) !== null) {
      const answer = await runCommand(this.judge, mail);
      const out = reply(mail, null, answer.text);
      await this.send([out]);
      return { accepted: answer.accepted, dialect: "commands", replies: [out] };
    }
    const dialect = this.dialects.find((d) => d.claims(mail)) ?? this.dialects.at(-1)!;
    const result = await this.read(mail, dialect);
    await this.send(result.replies);
    return result;
  }

  /** The one way every mail is read: envelope, game, sender, then the request. */
  private async read(mail: IncomingMail, dialect: MailDialect): Promise<HandleResult> {
    const judge = this.judge;
    const refused = (game: MailGame | null, r: Refusal, extra: OutgoingMail[] = []) => ({
      accepted: false,
      dialect: dialect.name,
      replies: [reply(mail, game, refusalText(r)), ...extra],
    });
    const envelope = dialect.envelope(mail);
    if (!("request" in envelope)) return refused(null, envelope);
    const row = await gameByAbbr(judge, envelope.game);
    if (!row) {
      return refused(null, {
        problems: [
          dialect.unknownGame(
            envelope,
            await mailGameNames(judge),
            await accountGames(judge, mail.from, envelope.secret),
          ),
        ],
      });
    }
    const game = await loadMailGame(judge, row);
    if (!dialect.takes(game)) {
      // Told the form the game does take, in its own dialect's words.
      const own = this.dialects.find((d) => d.voice.serves(game));
      const name = game.data?.scenario.variant.name ?? game.view.family?.name ?? game.view.variant;
      return refused(game, {
        problems: [
          `game ${game.abbr} (${name}) does not take ${dialect.form}.${own && own !== dialect ? ` ${own.voice.footer(game)}` : " Write to it as docs/email.md says."}`,
        ],
      });
    }
    if (
      game.view.status === "finished" &&
      (envelope.request === "orders" || envelope.request === "vote")
    ) {
      const result = game.view.result as { kind?: string; winner?: string } | null;
      const how = result?.winner
        ? `: ${result.winner} won`
        : result?.kind
          ? ` (${result.kind})`
          : "";
      return refused(game, {
        problems: [
          `game ${game.abbr} is over${how}, so it takes no more ${envelope.request === "vote" ? "votes" : "orders"}. Nothing is needed from you; the final results were mailed, and the game's record stays on its page. Write to the GM for anything else, or to the address of another game you play.`,
        ],
      });
    }
    const problems: string[] = [];
    const to = dialect.toLine ? toProblem(mail, game) : null;
    if (to) problems.push(to);
    const named = dialect.names(mail, envelope, game);
    if ("problem" in named) problems.push(named.problem);
    const power = "problem" in named ? null : named.power;
    const gmMay = envelope.request === "press" || envelope.request === "vote";
    const who = identify(game, mail.from, envelope.secret, power, gmMay);
    if ("problem" in who) {
      const account =
        who.problem.kind === "unknown-sender"
          ? await accountGames(judge, mail.from, envelope.secret)
          : null;
      problems.push(dialect.sender(who.problem, mail, envelope, game, account));
    }
    problems.push(...(dialect.bodyProblems?.(envelope, game) ?? []));
    if ("problem" in named || "problem" in who || problems.length > 0) {
      // A wrong secret for a power named: perhaps impersonation (seed 002 X(6)). The GM is told.
      const forged = "problem" in who && who.problem.kind === "wrong-secret" && power !== null;
      const alert: OutgoingMail[] =
        forged && game.gm?.address ? [this.alert(mail, game, game.gm.address, power)] : [];
      return refused(game, { problems }, alert);
    }
    const outcome = await dialect.handle({
      judge,
      mail,
      envelope,
      game,
      player: who.player,
      // The GM (press, votes) holds no power: "" names none.
      power: power ?? who.player.powers[0] ?? "",
      phase: named.phase,
    });
    if ("problems" in outcome) return refused(game, outcome);
    return {
      accepted: outcome.accepted,
      dialect: dialect.name,
      replies: [reply(mail, game, outcome.text, outcome.kind)],
    };
  }

  private alert(mail: IncomingMail, game: MailGame, gm: string, power: string): OutgoingMail {
    const name = this.dialectFor(game).voice.power(game, power);
    return {
      from: game.address,
      to: gm,
      subject: `${game.abbr}: a mail for ${name} refused: wrong secret`,
      text: `A mail from ${mail.from} with the subject "${mail.subject}" gave orders for ${name} with a secret that is not its player's. It was refused and nothing changed; the reply went to ${mail.from}. Impersonation is grounds for replacement (seed 002 X(6)).\n`,
      gameId: game.id,
      kind: "alert",
    };
  }

  /** The dialect that speaks for a game's own mail. */
  private dialectFor(game: MailGame): MailDialect {
    return this.dialects.find((d) => d.voice.serves(game)) ?? this.dialects.at(-1)!;
  }

  private async refuse(mail: IncomingMail, lines: string[]): Promise<HandleResult> {
    const reply: OutgoingMail = {
      from: null,
      to: mail.from,
      subject: `Re: ${mail.subject || "your mail"}`,
      text: `${lines.join("\n")}\n`,
      gameId: null,
      kind: "reply",
      inReplyTo: mail.messageId,
    };
    await this.send([reply]);
    return { accepted: false, dialect: "none", replies: [reply] };
  }

  private async send(replies: readonly OutgoingMail[]): Promise<void> {
    if (this.postman && replies.length > 0) {
      await this.postman.queue(replies);
      await this.postman.flush();
    }
  }
}
