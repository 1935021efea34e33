import type { Transporter } from "nodemailer";
import type { Judge } from "../judge/judge.ts";
import { defaultDialects } from "./dialects.ts";
import { MailGateway } from "./gateway.ts";
import { ImapPoller } from "./imap.ts";
import { Notifier } from "./notify.ts";
import { Postman } from "./postman.ts";
import { type RunningReceiver, startReceiver } from "./receiver.ts";

/*
 * Play by email as a whole, as `entente serve` and `entente mail ingest` run it: the settings
 * (environment variables or flags, docs/email.md), the gateway with its dialects, the
 * postman, the notifier, and the optional SMTP receiver and IMAP poller.
 */

export interface MailConfig {
  /** Port of the built-in SMTP receiver; null: none. */
  readonly receivePort: number | null;
  readonly receiveHost: string;
  /** A mailbox to poll; null: none. */
  readonly imapUrl: string | null;
  readonly imapEveryMs: number;
  /** Where mail is sent through (`smtp://user:pass@host:587`); null: the outbox only. */
  readonly smtpUrl: string | null;
  /**
   * The sender of mail that is not from a game's address: replies to commands, and the
   * judge's own mail for games not set up for mail (sent only with `smtpUrl`).
   */
  readonly from: string;
  /** Folder for .eml files when there is no SMTP server; null: none. */
  readonly outboxFolder: string | null;
  readonly reminderMs: number;
  /** How often the notifier looks for results to mail (ms). */
  readonly tickMs: number;
}

export class MailConfigError extends Error {}

function number(name: string, v: string | undefined, dflt: number, max: number): number {
  if (v === undefined || v === "") return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > max) {
    throw new MailConfigError(`${name} must be a number from 0 to ${max}, not "${v}"`);
  }
  return n;
}

/** The settings from flags (first) and environment variables; `data` is the data folder. */
export function mailConfig(
  env: Readonly<Record<string, string | undefined>>,
  flags: { smtpPort?: string | undefined; smtpHost?: string | undefined } = {},
  data = "data",
): MailConfig {
  const port = flags.smtpPort ?? env.ENTENTE_SMTP_PORT;
  return {
    receivePort:
      port === undefined || port === "" ? null : number("ENTENTE_SMTP_PORT", port, 0, 65535),
    receiveHost: flags.smtpHost ?? env.ENTENTE_SMTP_HOST ?? "0.0.0.0",
    imapUrl: env.ENTENTE_IMAP_URL || null,
    imapEveryMs:
      number("ENTENTE_IMAP_POLL_SECONDS", env.ENTENTE_IMAP_POLL_SECONDS, 60, 86_400) * 1000,
    smtpUrl: env.ENTENTE_SMTP_URL || null,
    from: env.ENTENTE_MAIL_FROM || "entente@localhost",
    outboxFolder:
      env.ENTENTE_OUTBOX === "none"
        ? null
        : env.ENTENTE_OUTBOX || `${data.replace(/\/$/, "")}/outbox`,
    reminderMs:
      number("ENTENTE_REMINDER_HOURS", env.ENTENTE_REMINDER_HOURS, 24, 24 * 365) * 3_600_000,
    tickMs: number("ENTENTE_MAIL_TICK_MS", env.ENTENTE_MAIL_TICK_MS, 5000, 3_600_000),
  };
}

export { defaultDialects };

export function postmanFor(
  judge: Judge,
  config: MailConfig,
  log?: (m: string) => void,
  transport?: Transporter,
): Postman {
  return new Postman({
    store: judge.store,
    now: judge.now,
    smtp: transport ?? config.smtpUrl,
    from: config.from,
    folder: config.outboxFolder,
    ...(log ? { log } : {}),
  });
}

export interface RunningMail {
  readonly gateway: MailGateway;
  readonly postman: Postman;
  readonly notifier: Notifier;
  /** The SMTP receiver's port, if it runs. */
  readonly receiverPort: number | null;
  close(): Promise<void>;
}

/** Starts the mail side of the judge: notifier always; receiver and IMAP when configured. */
export async function startMail(
  judge: Judge,
  config: MailConfig,
  log: (m: string) => void = () => {},
  transport?: Transporter,
): Promise<RunningMail> {
  const postman = postmanFor(judge, config, log, transport);
  const gateway = new MailGateway(judge, defaultDialects(), postman);
  // Games not set up for mail are mailed from the judge's own address, only when the judge
  // can send mail at all (an SMTP server): otherwise they would fill an outbox nobody reads.
  const notifier = new Notifier({
    judge,
    postman,
    reminderMs: config.reminderMs,
    log,
    judgeAddress: config.smtpUrl !== null || transport ? config.from : null,
    takesMail: config.receivePort !== null || config.imapUrl !== null,
  });
  let receiver: RunningReceiver | null = null;
  if (config.receivePort !== null) {
    receiver = await startReceiver({
      gateway,
      port: config.receivePort,
      host: config.receiveHost,
      log,
    });
  }
  const imap = config.imapUrl
    ? new ImapPoller({ gateway, url: config.imapUrl, everyMs: config.imapEveryMs, log })
    : null;
  imap?.start();
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    running = Promise.all([notifier.tick(), postman.flush()]).catch((e: unknown) =>
      log(`mail: ${(e as Error).stack ?? e}`),
    );
  };
  const timer = config.tickMs > 0 ? setInterval(tick, config.tickMs) : null;
  return {
    gateway,
    postman,
    notifier,
    receiverPort: receiver?.port ?? null,
    async close() {
      stopped = true;
      if (timer) clearInterval(timer);
      await imap?.stop();
      await receiver?.close();
      await running;
      postman.close();
    },
  };
}
