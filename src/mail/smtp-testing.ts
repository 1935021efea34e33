import type { AddressInfo } from "node:net";
import type { TestContext } from "node:test";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import type { Judge } from "../judge/judge.ts";
import { mailConfig, startMail } from "./service.ts";

/*
 * Helpers for the tests that play by mail over real SMTP on loopback (smtp.test.ts,
 * smtp-game.test.ts): the players' mailboxes (a test mail server, smtp-server), our mail
 * service with its receiver on a free port and its postman sending to those mailboxes, and
 * the players' mail client (nodemailer) speaking to the receiver.
 */

export interface Delivered {
  readonly to: string;
  readonly from: string;
  readonly subject: string;
  readonly text: string;
}

/** The players' mail server: keeps every message delivered to it, one per recipient. */
async function mailboxes() {
  const got: Delivered[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (m) => {
          for (const rcpt of session.envelope.rcptTo) {
            got.push({
              to: rcpt.address,
              from: m.from?.value[0]?.address ?? "",
              subject: m.subject ?? "",
              text: m.text ?? "",
            });
          }
          callback();
        },
        (e: Error) => callback(e),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    got,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The judge's mail service over loopback for one test: `boxes`, the players' mailboxes;
 * `mail`, the service (its receiver on a free port, its postman delivering to `boxes`, no
 * ticking of its own); `client`, the players' mail client sending to the receiver. All three
 * end with the test.
 */
export async function mailOverSmtp(t: TestContext, judge: Judge) {
  const boxes = await mailboxes();
  t.after(() => boxes.close());
  const out = nodemailer.createTransport({
    host: "127.0.0.1",
    port: boxes.port,
    secure: false,
    ignoreTLS: true,
  });
  const config = {
    ...mailConfig({ ENTENTE_OUTBOX: "none" }),
    receivePort: 0,
    receiveHost: "127.0.0.1",
    tickMs: 0,
  };
  const mail = await startMail(judge, config, () => {}, out);
  t.after(() => mail.close());
  const client = nodemailer.createTransport({
    host: "127.0.0.1",
    port: mail.receiverPort!,
    secure: false,
    ignoreTLS: true,
  });
  t.after(() => client.close());
  return { boxes, mail, client };
}

/** Polls `f` until it answers; the bound is generous for a loaded machine (docs/reliability.md). */
export async function until<T>(what: string, f: () => T | undefined, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
