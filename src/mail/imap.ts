import { ImapFlow } from "imapflow";
import type { MailGateway } from "./gateway.ts";

/*
 * Polling a game master's existing mailbox (imapflow) instead of, or beside, the built-in
 * SMTP receiver: every `everyMs` the unseen messages of the mailbox are fetched, handed to
 * the gateway one by one, and marked seen once handled (a message that fails stays unseen
 * and is tried again next time).
 */

export interface ImapOptions {
  readonly gateway: MailGateway;
  /** `imaps://user:password@host:993/INBOX` (imap:// uses STARTTLS where offered). */
  readonly url: string;
  readonly everyMs?: number;
  readonly log?: (message: string) => void;
}

export interface ImapSettings {
  readonly host: string;
  readonly port: number;
  readonly secure: boolean;
  readonly user: string;
  readonly pass: string;
  readonly mailbox: string;
}

/** Reads an IMAP URL, or says what is wrong with it. */
export function readImapUrl(url: string): ImapSettings {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(
      `ENTENTE_IMAP_URL must be like imaps://user:password@host:993/INBOX, not "${url}"`,
    );
  }
  if (u.protocol !== "imap:" && u.protocol !== "imaps:") {
    throw new Error(`ENTENTE_IMAP_URL must start with imap:// or imaps://, not ${u.protocol}//`);
  }
  if (!u.username)
    throw new Error("ENTENTE_IMAP_URL needs a user name: imaps://user:password@host/INBOX");
  const secure = u.protocol === "imaps:";
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 993 : 143,
    secure,
    user: decodeURIComponent(u.username),
    pass: decodeURIComponent(u.password),
    mailbox: decodeURIComponent(u.pathname.replace(/^\//, "")) || "INBOX",
  };
}

export class ImapPoller {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private readonly settings: ImapSettings;
  private readonly log: (m: string) => void;

  constructor(private readonly opts: ImapOptions) {
    this.settings = readImapUrl(opts.url);
    this.log = opts.log ?? (() => {});
  }

  start(): void {
    const run = () => {
      if (this.running) return;
      this.running = this.poll()
        .catch((e: unknown) => {
          this.log(`imap ${this.settings.host}: ${(e as Error).message}`);
          return 0;
        })
        .finally(() => {
          this.running = null;
        });
    };
    run();
    this.timer = setInterval(run, this.opts.everyMs ?? 60_000);
  }

  /** Fetches and handles the unseen messages once. Returns how many were handled. */
  async poll(): Promise<number> {
    const s = this.settings;
    const client = new ImapFlow({
      host: s.host,
      port: s.port,
      secure: s.secure,
      auth: { user: s.user, pass: s.pass },
      logger: false,
    });
    await client.connect();
    let handled = 0;
    try {
      const lock = await client.getMailboxLock(s.mailbox);
      try {
        const uids = (await client.search({ seen: false }, { uid: true })) || [];
        for (const uid of uids) {
          const msg = await client.fetchOne(String(uid), { source: true }, { uid: true });
          if (!msg || msg.source === undefined) continue;
          await this.opts.gateway.receive(msg.source);
          await client.messageFlagsAdd(String(uid), ["\\Seen"], { uid: true });
          handled++;
        }
      } finally {
        lock.release();
      }
    } finally {
      await client.logout().catch(() => {});
    }
    return handled;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
