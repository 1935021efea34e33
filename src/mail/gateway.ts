import type { Judge } from "../judge/judge.ts";
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

export class MailGateway {
  constructor(
    readonly judge: Judge,
    private readonly dialects: readonly MailDialect[],
    private readonly postman: Postman | null = null,
  ) {
    if (dialects.length === 0) throw new Error("a mail gateway needs at least one dialect");
  }

  /** Handles one raw mail; the replies go to the postman (outbox, and SMTP if configured). */
  async receive(raw: Buffer | string): Promise<HandleResult> {
    const size = typeof raw === "string" ? Buffer.byteLength(raw) : raw.length;
    if (size > MAX_MAIL_BYTES) {
      return { accepted: false, dialect: "none", replies: [] };
    }
    const mail = await readMail(raw);
    const own = new Set(
      (await this.judge.store.db.selectFrom("mail_games").select("address").execute()).map(
        (r) => r.address,
      ),
    );
    if (automatic(mail, own)) return { accepted: false, dialect: "none", replies: [] };
    const dialect = this.dialects.find((d) => d.claims(mail)) ?? this.dialects.at(-1)!;
    const result = await dialect.handle(mail, { judge: this.judge });
    if (this.postman && result.replies.length > 0) {
      await this.postman.queue(result.replies);
      await this.postman.flush();
    }
    return result;
  }
}
