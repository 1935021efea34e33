import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { MailGateway } from "./gateway.ts";
import { MAX_MAIL_BYTES } from "./message.ts";

/*
 * The built-in SMTP receiver (smtp-server): a mail server that takes mail for the judge and
 * hands each message to the gateway, as it arrived. It accepts plain SMTP without login
 * (players' mail comes through their providers' servers, which do not log in); put it behind
 * your MX or a relay. Who may send orders is decided by the gateway (registered address plus
 * secret), not here.
 */

export interface ReceiverOptions {
  readonly gateway: MailGateway;
  readonly port: number;
  readonly host?: string;
  readonly log?: (message: string) => void;
}

export interface RunningReceiver {
  readonly port: number;
  close(): Promise<void>;
}

export async function startReceiver(opts: ReceiverOptions): Promise<RunningReceiver> {
  const log = opts.log ?? (() => {});
  const pending = new Set<Promise<unknown>>();
  const server = new SMTPServer({
    name: "entente",
    banner: "Entente judge",
    authOptional: true,
    disabledCommands: ["AUTH"],
    size: MAX_MAIL_BYTES,
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          callback(Object.assign(new Error("message too large"), { responseCode: 552 }));
          return;
        }
        const raw = Buffer.concat(chunks);
        // Accepted once handled (and its reply queued): a crash before that makes the sender retry.
        const job = opts.gateway
          .receive(raw)
          .then((r) => {
            log(`mail received (${r.dialect}): ${r.accepted ? "accepted" : "not accepted"}`);
            callback();
          })
          .catch((e: unknown) => {
            log(`mail receiver: ${(e as Error).stack ?? e}`);
            callback(
              Object.assign(new Error("temporary failure, try again"), { responseCode: 451 }),
            );
          })
          .finally(() => pending.delete(job));
        pending.add(job);
      });
    },
  });
  server.on("error", (e) => log(`smtp: ${e.message}`));
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(opts.port, opts.host ?? "0.0.0.0", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    async close() {
      await Promise.allSettled([...pending]);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
