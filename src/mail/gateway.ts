import type { Judge } from "../judge/judge.ts";
import { SlidingWindow, type Window } from "../judge/rate.ts";
import { type IncomingMail, MAX_MAIL_BYTES, type OutgoingMail, readMail } from "./message.ts";
import type { Postman } from "./postman.ts";

/*
 * The mail gateway: a raw mail in, the replies out. Which rules a mail is read by is a "mail
 * dialect": the house rules' (seed 002 II: `SED 01SA` subjects, orders in the body) and
 * Global Diplomacy's (seed 004 §9: EMGTURN, EMGSTART ... EMGEND) are two. The first dialect
 * that claims a mail (by its subject) handles it; the last one is the fallback that answers
 * mails nobody claims with how to write them. The SMTP receiver, the IMAP poller and
 * `entente mail ingest` all call `receive`, so a mail is handled the same way whichever way it
 * came.
 */

export interface HandleResult {
  /** Whether the mail did what it asked (orders stored, press sent, ...). */
  readonly accepted: boolean;
  /** The dialect that read it. */
  readonly dialect: string;
  /** What is sent back (the reply to the sender first). */
  readonly replies: readonly OutgoingMail[];
}

export interface MailContext {
  readonly judge: Judge;
}

/** A way of writing mails to the judge. */
export interface MailDialect {
  readonly name: string;
  /** Whether this dialect reads the mail (by its subject). */
  claims(mail: IncomingMail): boolean;
  handle(mail: IncomingMail, ctx: MailContext): Promise<HandleResult>;
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
    const dialect = this.dialects.find((d) => d.claims(mail)) ?? this.dialects.at(-1)!;
    const result = await dialect.handle(mail, { judge: this.judge });
    await this.send(result.replies);
    return result;
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
