import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { MAX_MAIL_BYTES } from "../src/mail/message.ts";
import { addressOf, GAME_ADDRESS, gatewayOf, mailTestGame, rawMail } from "../src/mail/testing.ts";
import { testStore } from "../src/store/testing.ts";

/*
 * Mail fuzzing (docs/reliability.md): raw mails, random and mutated, through the gateway that
 * the SMTP receiver, the IMAP poller and `entente mail ingest` all use. Never an exception;
 * a mail from a player (its From intact) always gets a reply to that player, whatever its
 * body, encodings and attachments; every mail is handled in bounded time, huge ones too.
 */

const BOUND_MS = 5000;

/** A valid order mail from Austria, the base of the mutations. */
function orderMail(secret: string, overrides: { head?: string[]; body?: string } = {}): string {
  const base = rawMail({
    from: addressOf("austria"),
    to: GAME_ADDRESS,
    subject: "SED 01SA",
    text: overrides.body ?? `Secret: ${secret}\nA vie-gal\nA bud-ser\nF tri H`,
  });
  if (!overrides.head) return base;
  const cut = base.indexOf("\r\n\r\n");
  const head = base
    .slice(0, cut)
    .split("\r\n")
    .filter((l) => !/^(Content-Type|MIME-Version):/i.test(l));
  return `${[...head, ...overrides.head].join("\r\n")}\r\n\r\n${base.slice(cut + 4)}`;
}

/** Mails with the From line intact but everything else odd: MIME structures and encodings. */
function structured(secret: string): fc.Arbitrary<{ name: string; raw: string }> {
  const orders = `Secret: ${secret}\r\nA vie-gal\r\nA bud-ser\r\nF tri H`;
  const b64 = (s: string | Uint8Array) => Buffer.from(s).toString("base64");
  const mime = (type: string, body: string, extra: string[] = []) =>
    orderMail(secret, { head: ["MIME-Version: 1.0", `Content-Type: ${type}`, ...extra] }).replace(
      /\r\n\r\n[\s\S]*$/,
      `\r\n\r\n${body}`,
    );
  return fc.oneof(
    fc.uint8Array({ maxLength: 4000 }).map((bytes) => ({
      name: "text and a binary attachment",
      raw: mime(
        'multipart/mixed; boundary="b1"',
        `--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${orders}\r\n--b1\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="map.bin"\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64(bytes)}\r\n--b1--\r\n`,
      ),
    })),
    fc.string({ maxLength: 300 }).map((junk) => ({
      name: "broken base64 body",
      raw: mime("text/plain; charset=utf-8", `${junk}!!==**`, [
        "Content-Transfer-Encoding: base64",
      ]),
    })),
    fc.string({ maxLength: 200 }).map((junk) => ({
      name: "broken quoted-printable",
      raw: mime("text/plain; charset=utf-8", `${orders}=\r\n=ZZ=4${junk}=`, [
        "Content-Transfer-Encoding: quoted-printable",
      ]),
    })),
    fc.constantFrom("x-unknown", "utf-7", "iso-2022-jp", "", "utf-16", "\u00ff").map((cs) => ({
      name: `charset ${cs}`,
      raw: mime(`text/plain; charset="${cs}"`, `${orders}\r\n\u00e9\u00e8 caf\u00e9`),
    })),
    fc.uint8Array({ minLength: 1, maxLength: 500 }).map((bytes) => ({
      name: "invalid UTF-8 bytes in a UTF-8 body",
      raw: mime(
        "text/plain; charset=utf-8",
        `${orders}\r\n${Buffer.from(bytes).toString("latin1")}`,
      ),
    })),
    fc.string({ maxLength: 80 }).map((s) => ({
      name: "broken encoded-word subject",
      raw: orderMail(secret).replace("Subject: SED 01SA", `Subject: =?utf-8?B?${s}?= =?x?Q?${s}`),
    })),
    fc.constant({
      name: "HTML only, with script",
      raw: mime(
        "text/html; charset=utf-8",
        `<html><body><script>alert(1)</script><p>Secret: ${secret}</p><p>A vie-gal<br>A bud-ser</p></body></html>`,
      ),
    }),
    fc.nat({ max: 5 }).map((depth) => ({
      name: `nested multipart ${depth} deep, never closed`,
      raw: mime(
        'multipart/mixed; boundary="d0"',
        `${Array.from(
          { length: depth + 1 },
          (_, i) => `--d${i}\r\nContent-Type: multipart/alternative; boundary="d${i + 1}"\r\n\r\n`,
        ).join("")}--d${depth + 1}\r\nContent-Type: text/plain\r\n\r\n${orders}\r\n`,
      ),
    })),
    fc.constant({
      name: "multipart without a boundary",
      raw: mime("multipart/mixed", orders),
    }),
    fc.nat({ max: 200_000 }).map((n) => ({
      name: `a header line of ${n} characters`,
      raw: orderMail(secret, { head: [`X-Long: ${"x".repeat(n)}`] }),
    })),
    fc.constant({ name: "an empty body", raw: orderMail(secret, { body: "" }) }),
  );
}

test("mail fuzzing: random and mutated mails never throw, players always get a reply, in bounded time", async (t) => {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "a SQLite store");
  // Hundreds of mails from one sender on a stopped clock: no rate limit here (mail.test.ts
  // tests the mail limit, below the orders-rate quota), only the reading.
  const g = await mailTestGame(ts.store, "houserules", undefined, null);
  const gw = gatewayOf(g.judge, { perSender: { max: 1_000_000, windowMs: 1 } });
  const secret = g.secrets.austria;
  const figures = { mails: 0, replied: 0, slowestMs: 0 };
  const handle = async (raw: string | Buffer, what: string) => {
    const t0 = performance.now();
    let r: Awaited<ReturnType<typeof gw.receive>>;
    try {
      r = await gw.receive(raw);
    } catch (e) {
      assert.fail(`${what}: the gateway threw ${(e as Error).stack}`);
    }
    const ms = performance.now() - t0;
    figures.mails++;
    figures.slowestMs = Math.max(figures.slowestMs, ms);
    assert.ok(ms < BOUND_MS, `${what}: ${Math.round(ms)} ms`);
    if (r.replies.length > 0) figures.replied++;
    return r;
  };
  const repliedToAustria = (
    r: { replies: readonly { to: string; text: string }[] },
    what: string,
  ) => {
    assert.ok(r.replies.length >= 1, `${what}: no reply`);
    assert.equal(r.replies[0]!.to, addressOf("austria"), `${what}: the reply goes to the sender`);
    assert.ok(r.replies[0]!.text.trim().length > 0, `${what}: the reply says something`);
  };

  // The base mail works (the mutations start from something the judge accepts).
  const base = await handle(orderMail(secret), "the base mail");
  assert.equal(base.accepted, true, `the base mail is accepted: ${base.replies[0]?.text}`);

  // Random bytes and text: never an exception.
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(fc.string({ maxLength: 3000 }), fc.uint8Array({ maxLength: 3000 })),
      async (x) => {
        await handle(typeof x === "string" ? x : Buffer.from(x), "random input");
      },
    ),
    { numRuns: 200, seed: 12 },
  );

  // Byte mutations of a good mail: never an exception; a reply while From is intact.
  const good = Buffer.from(orderMail(secret));
  const fromEnd = good.indexOf("\r\n", good.indexOf("From:")) + 2;
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.tuple(
          fc.nat(),
          fc.integer({ min: 0, max: 255 }),
          fc.constantFrom("set", "insert", "delete"),
        ),
        {
          minLength: 1,
          maxLength: 20,
        },
      ),
      async (edits) => {
        let bytes = [...good];
        let touchedFrom = false;
        for (const [at, byte, op] of edits) {
          const i = at % (bytes.length + 1);
          if (i < fromEnd) touchedFrom = true;
          if (op === "set") bytes[i] = byte;
          else if (op === "insert") bytes.splice(i, 0, byte);
          else bytes.splice(i, 1);
        }
        bytes = bytes.filter((b) => b !== undefined);
        const r = await handle(Buffer.from(bytes), `mutated ${JSON.stringify(edits)}`);
        if (!touchedFrom) repliedToAustria(r, `mutated ${JSON.stringify(edits)}`);
      },
    ),
    { numRuns: 300, seed: 34 },
  );

  // Odd MIME: attachments, broken encodings, unknown charsets, HTML, deep nesting, long lines.
  await fc.assert(
    fc.asyncProperty(structured(secret), async ({ name, raw }) => {
      repliedToAustria(await handle(raw, name), name);
    }),
    { numRuns: 200, seed: 56 },
  );

  // Huge: just under the bound (thousands of order lines), and over it (refused unread, and
  // the sender told so from the headers).
  const lines = Array.from({ length: 40_000 }, (_, i) => `A vie-gal ${i}`).join("\n");
  const nearly = orderMail(secret, {
    body: `Secret: ${secret}\n${lines}`.slice(0, MAX_MAIL_BYTES - 2000),
  });
  assert.ok(Buffer.byteLength(nearly) < MAX_MAIL_BYTES, "under the bound");
  repliedToAustria(await handle(nearly, "a mail just under 1 MB"), "a mail just under 1 MB");
  const over = orderMail(secret, { body: "x".repeat(MAX_MAIL_BYTES + 10) });
  const refused = await handle(over, "a mail over 1 MB");
  repliedToAustria(refused, "a mail over 1 MB");
  assert.match(refused.replies[0]!.text, /larger than the judge reads/, "it is told why");
  assert.equal(refused.accepted, false, "and nothing of it is read");
  await handle(Buffer.alloc(5 * MAX_MAIL_BYTES, 0x41), "5 MB of one letter");

  t.diagnostic(
    `${figures.mails} mails, ${figures.replied} answered, slowest ${Math.round(figures.slowestMs)} ms`,
  );
});

test("orders by mail past the orders-rate quota: a reply saying so and when to send again; nothing of it stored", async (t) => {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "a SQLite store");
  const g = await mailTestGame(ts.store, "houserules", undefined, { burst: 2, perSecond: 0.1 });
  const gw = gatewayOf(g.judge);
  const secret = g.secrets.austria;
  const sets = ["A vie-gal\nA bud-ser\nF tri H", "A vie-tyr\nA bud-ser\nF tri H"];
  for (const body of sets) {
    const r = await gw.receive(orderMail(secret, { body: `Secret: ${secret}\n${body}` }));
    assert.equal(r.accepted, true, r.replies[0]?.text);
  }
  const third = await gw.receive(
    orderMail(secret, { body: `Secret: ${secret}\nA vie H\nA bud H\nF tri H` }),
  );
  assert.equal(third.accepted, false, "the third at once is refused");
  assert.equal(third.replies[0]?.to, addressOf("austria"), "and the sender told");
  const text = third.replies[0]!.text;
  assert.match(text, /NOT accepted: nothing was changed/, text);
  assert.match(
    text,
    /too many order sets from you in this game: at most 2 at once, then one every 10 seconds .*your last set taken stands: send it again in 10 seconds/,
    text,
  );
  const stored = await ts.store.db
    .selectFrom("submissions")
    .select("orders")
    .where("power", "=", "austria")
    .orderBy("id")
    .execute();
  assert.equal(stored.length, 2, "the two taken are stored, the refused one is not");
  g.clock.advance(10_000);
  const later = await gw.receive(
    orderMail(secret, { body: `Secret: ${secret}\nA vie H\nA bud H\nF tri H` }),
  );
  assert.equal(later.accepted, true, `after ten seconds: ${later.replies[0]?.text}`);
});
