import { existsSync, readFileSync } from "node:fs";
import { Judge } from "../judge/judge.ts";
import { MailGateway } from "../mail/gateway.ts";
import { defaultDialects, mailConfig, postmanFor } from "../mail/service.ts";
import { openStore } from "../store/db.ts";
import { CliError } from "./games.ts";

/*
 * `entente mail ingest FILE.eml`: handles a raw mail exactly as the judge's SMTP receiver
 * does (same gateway, same store, the reply queued in the outbox and sent if SMTP is
 * configured) and prints the reply. For tests, and for GMs who fetch their mail themselves.
 */

export interface IngestOptions {
  readonly file: string;
  /** The data folder (SQLite database, outbox folder); default ./data. */
  readonly data?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export async function cmdMailIngest(opts: IngestOptions): Promise<{ ok: boolean; text: string }> {
  const env = opts.env ?? process.env;
  if (opts.file !== "-" && !existsSync(opts.file)) throw new CliError(`no mail file ${opts.file}`);
  const raw = readFileSync(opts.file === "-" ? 0 : opts.file);
  const data = opts.data ?? "data";
  const store = await openStore({
    url: env.DATABASE_URL,
    sqlitePath: `${data.replace(/\/$/, "")}/entente.sqlite`,
    schema: env.ENTENTE_PG_SCHEMA || undefined,
  });
  try {
    const judge = new Judge({ store, publicUrl: env.ENTENTE_PUBLIC_URL });
    const postman = postmanFor(judge, mailConfig(env, {}, data));
    try {
      const gateway = new MailGateway(judge, defaultDialects(), postman);
      const result = await gateway.receive(raw);
      const text =
        result.replies.length === 0
          ? "no reply: the mail is automatic (a bounce or an auto-reply), too large, or has no sender\n"
          : result.replies
              .map((r) => `To: ${r.to}\nSubject: ${r.subject}\n\n${r.text}`)
              .join("\n----------------------------------------\n");
      return { ok: result.accepted, text };
    } finally {
      postman.close();
    }
  } finally {
    await store.close();
  }
}
