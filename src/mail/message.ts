import { type AddressObject, simpleParser } from "mailparser";

/*
 * A mail as the gateway sees it: who it is from, the To and Cc lines, the subject and the
 * plain-text body, read from the raw message (RFC 5322) with mailparser. And a mail to send.
 */

export interface IncomingMail {
  /** The From address, lower case ("" if there is none). */
  readonly from: string;
  /** Addresses on the To line, lower case. */
  readonly to: readonly string[];
  /** Addresses on the Cc line, lower case. */
  readonly cc: readonly string[];
  readonly subject: string;
  /** The plain-text body (from the HTML part when there is no text part). */
  readonly text: string;
  readonly messageId: string | null;
  /** An automatic mail (Auto-Submitted, a bulk or list Precedence): never answered. */
  readonly auto: boolean;
}

export interface OutgoingMail {
  /** Default: the game's address, or the configured sender. */
  readonly from?: string | null;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The game it belongs to (the GM sees it in the outbox), if any. */
  readonly gameId: string | null;
  /** reply, results, reminder, press, report. */
  readonly kind: string;
  /** The Message-ID answered. */
  readonly inReplyTo?: string | null;
  /**
   * The judge's own mail: how to opt out of it, for its List-Unsubscribe header (RFC 2369): a
   * `mailto:` with the subject that opts out, an https one-click link (RFC 8058). None on
   * answers to a player's own mail.
   */
  readonly listUnsubscribe?: readonly string[] | null;
}

/** Largest mail read (bytes): order mails are small; anything bigger is refused. */
export const MAX_MAIL_BYTES = 1024 * 1024;

function addresses(a: AddressObject | AddressObject[] | undefined): string[] {
  const list = a === undefined ? [] : Array.isArray(a) ? a : [a];
  const out: string[] = [];
  const walk = (v: { address?: string | undefined; group?: unknown[] | undefined }) => {
    if (v.address) out.push(v.address.trim().toLowerCase());
    for (const g of (v.group ?? []) as { address?: string }[]) walk(g);
  };
  for (const o of list) for (const v of o.value) walk(v);
  return out;
}

function header(v: unknown): string {
  return typeof v === "string" ? v.trim() : "";
}

/** Reads a raw mail. */
export async function readMail(raw: Buffer | string): Promise<IncomingMail> {
  const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextLinks: true });
  const from = addresses(parsed.from)[0] ?? "";
  let text = parsed.text ?? "";
  if (text.trim() === "" && typeof parsed.html === "string") {
    text = parsed.html
      .replace(/<(?:br|\/p|\/div|\/li)\b[^>]*>/gi, "\n")
      .replace(/<[^>]+>/g, "")
      .replace(/&nbsp;/g, " ")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  }
  return {
    from,
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    subject: (parsed.subject ?? "").trim(),
    text,
    messageId: parsed.messageId ?? null,
    auto:
      /^(?!no\b)\S/i.test(header(parsed.headers.get("auto-submitted"))) ||
      /^(?:bulk|junk|list)$/i.test(header(parsed.headers.get("precedence")).trim()),
  };
}
