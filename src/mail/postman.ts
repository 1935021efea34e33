import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Kysely } from "kysely";
import nodemailer, { type SendMailOptions, type Transporter } from "nodemailer";
import MailComposer from "nodemailer/lib/mail-composer/index.js";
import type { Store } from "../store/db.ts";
import type { DB } from "../store/schema.ts";
import type { OutgoingMail } from "./message.ts";

/*
 * Sending: every mail the judge writes goes into the outbox table first (the GM lists it with
 * GET /api/games/{id}/outbox), then out through SMTP (nodemailer) when a server is configured.
 * With none, nothing leaves the machine: each mail is also written as an .eml file to the
 * outbox folder (./data/outbox by default), so a fresh install works without a mail server.
 */

export interface PostmanOptions {
  readonly store: Store;
  readonly now?: () => number;
  /** An SMTP URL (`smtp://user:pass@host:587`, `smtps://...`) or a nodemailer transport. */
  readonly smtp?: string | Transporter | null | undefined;
  /** The sender when a mail names none (default `entente@localhost`). */
  readonly from?: string | undefined;
  /** Folder for .eml files when there is no SMTP server; null: none. */
  readonly folder?: string | null | undefined;
  readonly log?: (message: string) => void;
}

/** Unsent mail older than this is not tried again (it stays in the outbox with its error). */
const RETRY_FOR_MS = 86_400_000;

export class Postman {
  private readonly store: Store;
  private readonly now: () => number;
  private readonly transport: Transporter | null;
  private readonly from: string;
  private readonly folder: string | null;
  private readonly log: (m: string) => void;
  private readonly since: number;
  private flushing: Promise<number> | null = null;

  constructor(opts: PostmanOptions) {
    this.store = opts.store;
    this.now = opts.now ?? Date.now;
    this.transport =
      typeof opts.smtp === "string" ? nodemailer.createTransport(opts.smtp) : (opts.smtp ?? null);
    this.from = opts.from ?? "entente@localhost";
    this.folder = opts.folder ?? null;
    this.log = opts.log ?? (() => {});
    this.since = this.now();
  }

  /** Whether mail leaves through SMTP (otherwise it only goes to the outbox). */
  get sending(): boolean {
    return this.transport !== null;
  }

  /**
   * Puts mails in the outbox (and, without SMTP, in the folder). Returns their ids. `db`: a
   * transaction to queue them in (they are then sent once it has committed).
   */
  async queue(mails: readonly OutgoingMail[], db: Kysely<DB> = this.store.db): Promise<number[]> {
    const ids: number[] = [];
    for (const m of mails) {
      const row = await db
        .insertInto("outbox")
        .values({
          game_id: m.gameId,
          kind: m.kind,
          from_addr: m.from ?? this.from,
          to_addr: m.to,
          subject: m.subject,
          body: m.text,
          in_reply_to: m.inReplyTo ?? null,
          list_unsubscribe: m.listUnsubscribe?.length ? JSON.stringify(m.listUnsubscribe) : null,
          created_at: this.now(),
          sent_at: null,
          error: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      ids.push(id);
      if (!this.transport && this.folder) {
        const eml = await compose({ ...m, from: m.from ?? this.from });
        mkdirSync(this.folder, { recursive: true });
        const file = join(this.folder, `${String(id).padStart(6, "0")}-${m.kind}.eml`);
        writeFileSync(`${file}.tmp`, eml);
        renameSync(`${file}.tmp`, file);
      }
    }
    return ids;
  }

  /** Sends what is waiting (with SMTP). Returns how many were sent. */
  async flush(): Promise<number> {
    if (!this.transport) return 0;
    // One flush at a time: a mail is never sent twice by this process.
    while (this.flushing) await this.flushing.catch(() => {});
    this.flushing = this.flushOnce();
    try {
      return await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  private async flushOnce(): Promise<number> {
    const transport = this.transport!;
    const rows = await this.store.db
      .selectFrom("outbox")
      .selectAll()
      .where("sent_at", "is", null)
      .where("created_at", ">=", Math.max(this.since, this.now() - RETRY_FOR_MS) - 60_000)
      .orderBy("id")
      .limit(200)
      .execute();
    let sent = 0;
    for (const r of rows) {
      // Claimed first (another server on the same database may be flushing too): sent once.
      const claim = await this.store.db
        .updateTable("outbox")
        .set({ sent_at: this.now() })
        .where("id", "=", r.id)
        .where("sent_at", "is", null)
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) continue;
      try {
        await transport.sendMail(
          mailOptions({
            from: r.from_addr,
            to: r.to_addr,
            subject: r.subject,
            text: r.body,
            inReplyTo: r.in_reply_to,
            listUnsubscribe: r.list_unsubscribe
              ? (JSON.parse(r.list_unsubscribe) as string[])
              : null,
          }),
        );
        await this.store.db
          .updateTable("outbox")
          .set({ error: null })
          .where("id", "=", r.id)
          .execute();
        sent++;
      } catch (e) {
        const error = (e as Error).message.slice(0, 500);
        this.log(`mail ${r.id} to ${r.to_addr}: ${error}`);
        await this.store.db
          .updateTable("outbox")
          .set({ sent_at: null, error })
          .where("id", "=", r.id)
          .execute();
      }
    }
    return sent;
  }

  close(): void {
    this.transport?.close();
  }
}

/**
 * What nodemailer is given for a mail. The opt-out goes in List-Unsubscribe through
 * nodemailer's `list` option (one header, the mailto: and the https link in it, RFC 2369);
 * with an https link, List-Unsubscribe-Post marks it one-click (RFC 8058), a fixed value that
 * `list` would write as a URL, so it is a plain header.
 */
export function mailOptions(
  m: Pick<OutgoingMail, "to" | "subject" | "text" | "inReplyTo" | "listUnsubscribe"> & {
    from: string;
  },
): SendMailOptions {
  const urls = m.listUnsubscribe ?? [];
  return {
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    ...(m.inReplyTo ? { inReplyTo: m.inReplyTo, references: m.inReplyTo } : {}),
    ...(urls.length > 0 ? { list: { unsubscribe: [[...urls]] } } : {}),
    ...(urls.some((u) => u.startsWith("https:"))
      ? { headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } }
      : {}),
  };
}

/** A mail as RFC 5322 text (for the outbox folder). */
export function compose(m: OutgoingMail & { from: string }): Promise<Buffer> {
  const composer = new MailComposer(mailOptions(m));
  return new Promise((resolve, reject) =>
    composer.compile().build((err, msg) => (err ? reject(err) : resolve(msg))),
  );
}
