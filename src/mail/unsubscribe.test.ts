import assert from "node:assert/strict";
import { test } from "node:test";
import type { SendMailOptions, Transporter } from "nodemailer";
import nodemailer from "nodemailer";
import { noticeSettings } from "../judge/mail.ts";
import { serveJudge } from "../server/testing.ts";
import { STORE_KINDS } from "../store/testing.ts";
import { defaultDialects } from "./dialects.ts";
import { MailGateway } from "./gateway.ts";
import { Notifier } from "./notify.ts";
import { Postman } from "./postman.ts";
import { addressOf, GAME_ADDRESS, mailTestGame, outboxMails, rawMail } from "./testing.ts";

/*
 * List-Unsubscribe (RFC 2369) on the judge's own mail, with the one-click POST of RFC 8058
 * where the judge has a public https address (docs/email.md): on the start, reminder and
 * results mail, not on answers to a player's own mail nor on the missed-orders mail (sent
 * whatever the player chose, so the header would promise what it cannot do); the mailto:
 * opts out by the subject alone (empty body); the https link opts its user out of its game
 * with no login, and a link with another signature does nothing. On both stores (the signing
 * key is kept in the store).
 */

const PUBLIC = "https://judge.example.org";

for (const kind of STORE_KINDS) {
  test(`List-Unsubscribe: mailto and one-click, on the judge's own mail only (${kind})`, async (t) => {
    const served = await serveJudge(t, kind, PUBLIC);
    if (!served) return;
    const { store, clock, base } = served;
    const g = await mailTestGame(store, "houserules", clock);
    // What SMTP would carry: nodemailer writes each message, the test keeps it.
    const sent: string[] = [];
    const stream = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const transport = {
      sendMail: async (m: SendMailOptions) => {
        const info = await stream.sendMail(m);
        sent.push(String(info.message));
        return info;
      },
      close: () => {},
    } as unknown as Transporter;
    const postman = new Postman({ store, now: clock.now, smtp: transport });
    const notifier = new Notifier({ judge: served.judge, postman, reminderMs: 12 * 3_600_000 });
    const outbox = (kindOf: string) => outboxMails(store, kindOf);
    const headerOf = (raw: string, name: string) =>
      new RegExp(`^${name}: (.*(?:\\r\\n[ \\t].*)*)`, "im")
        .exec(raw)?.[1]
        ?.replace(/\r\n[ \t]+/g, " ") ?? null;
    const sentTo = (address: string, subject: RegExp) =>
      sent.filter(
        (m) => m.includes(`To: ${address}`) && subject.test(headerOf(m, "Subject") ?? ""),
      );

    await notifier.tick();
    const started = await outbox("started");
    assert.equal(started.length, 7);
    const italy = sentTo(addressOf("italy"), /^SED: /);
    assert.equal(italy.length, 1, "the start mail went out");
    const header = headerOf(italy[0]!, "List-Unsubscribe")!;
    const m = /^<mailto:([^?>]+)\?subject=([^>]+)>, <(https:\/\/[^>]+)>$/.exec(header);
    assert.ok(m, `one List-Unsubscribe with a mailto: and an https link: ${header}`);
    assert.equal(m[1], GAME_ADDRESS);
    assert.equal(decodeURIComponent(m[2]!), "NOTICES OFF SED", "the subject that opts out");
    assert.equal(headerOf(italy[0]!, "List-Unsubscribe-Post"), "List-Unsubscribe=One-Click");
    const link = new URL(m[3]!);
    assert.equal(link.origin, PUBLIC);
    assert.ok(
      link.pathname.startsWith(`/api/unsubscribe/${g.players.italy.id}/${g.gameId}/`),
      link.pathname,
    );

    // A reminder carries it too; an answer to a player's own mail does not (opting out does
    // not stop those, so the header would promise what it cannot do).
    clock.t = Date.parse((await g.judge.views.gameView(g.gm, g.gameId)).deadline!) - 11 * 3_600_000;
    await notifier.tick();
    const reminders = await outbox("reminder");
    assert.ok(reminders.length > 0);
    assert.ok(reminders.every((r) => r.list_unsubscribe?.includes("NOTICES%20OFF%20SED")));
    assert.ok(
      headerOf(sentTo(addressOf("italy"), /reminder|deadline/i)[0] ?? "", "List-Unsubscribe"),
    );
    const gw = new MailGateway(served.judge, defaultDialects(), postman);
    const help = await gw.receive(
      rawMail({ from: addressOf("italy"), to: GAME_ADDRESS, subject: "HELP", text: "" }),
    );
    assert.equal(help.replies.length, 1);
    await postman.flush();
    const replies = await outbox("reply");
    assert.equal(replies.length, 1, "the answer is in the outbox");
    assert.equal(replies[0]!.list_unsubscribe, null);
    const answer = sentTo(addressOf("italy"), /^Re: HELP/);
    assert.equal(answer.length, 1, "and was sent");
    assert.equal(headerOf(answer[0]!, "List-Unsubscribe"), null, "without List-Unsubscribe");

    // The mailto: round trip: the subject alone, an empty body, turns this game's mail off.
    const byMail = await gw.receive(
      rawMail({
        from: addressOf("england"),
        to: m[1]!,
        subject: decodeURIComponent(m[2]!),
        text: "",
      }),
    );
    assert.equal(byMail.accepted, true, byMail.replies[0]?.text);
    const england = await noticeSettings(served.judge, g.players.england);
    assert.equal(england.games.find((x) => x.gameId === g.gameId)?.notices, false);
    assert.equal(england.notices, true, "the account's other games untouched");

    // One click: Italy's link, POSTed as RFC 8058 says, with no login.
    const post = (url: string, body: string, type = "application/x-www-form-urlencoded") =>
      fetch(base + new URL(url).pathname, {
        method: "POST",
        headers: { "content-type": type },
        body,
      });
    const forged = `${link.href.slice(0, -4)}AAAA`;
    const refused = await post(forged, "List-Unsubscribe=One-Click");
    assert.equal(refused.status, 403);
    assert.match(((await refused.json()) as { error: string }).error, /not one the judge made/);
    const otherGame = await post(
      link.href.replace(g.gameId, "GD999"),
      "List-Unsubscribe=One-Click",
    );
    assert.equal(otherGame.status, 403, "a signature is for its own game only");
    const noMarker = await post(link.href, "List-Unsubscribe=Maybe");
    assert.equal(noMarker.status, 400);
    const italyBefore = await noticeSettings(served.judge, g.players.italy);
    assert.equal(italyBefore.games.find((x) => x.gameId === g.gameId)?.notices, true, "unchanged");
    // A form to any other route is refused as before: only JSON is read there.
    const formElsewhere = await post(`${PUBLIC}/api/login`, "name=x&password=y");
    assert.equal(formElsewhere.status, 415);
    assert.match(
      ((await formElsewhere.json()) as { error: string }).error,
      /must be JSON.*not application\/x-www-form-urlencoded/,
    );
    const clicked = await post(link.href, "List-Unsubscribe=One-Click");
    assert.equal(clicked.status, 200);
    assert.deepEqual(await clicked.json(), { notices: false, game: g.gameId });
    const italyAfter = await noticeSettings(served.judge, g.players.italy);
    assert.equal(italyAfter.games.find((x) => x.gameId === g.gameId)?.notices, false);
    assert.equal(italyAfter.notices, true, "only this game's mail");
    // multipart/form-data, as some mail programs send it, does the same (and again is harmless).
    const boundary = "xYz";
    const multipart = await post(
      link.href,
      `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
      `multipart/form-data; boundary=${boundary}`,
    );
    assert.equal(multipart.status, 200);

    // The results: on them the header too, and none to England or Italy any more.
    const before = (await outbox("results")).length;
    clock.t = Date.parse((await g.judge.views.gameView(g.gm, g.gameId)).deadline!) + 1;
    await served.judge.adjudication.tick();
    // Until the results are out (bounded generously: a loaded machine is slow).
    const end = Date.now() + 60_000;
    while ((await outbox("results")).length === before && Date.now() < end) {
      await notifier.tick();
      await new Promise((r) => setTimeout(r, 20));
    }
    const results = (await outbox("results")).slice(before);
    assert.deepEqual(
      results.map((r) => r.to_addr).sort(),
      ["austria", "france", "germany", "russia", "turkey"].map(addressOf),
    );
    for (const r of results) {
      const urls = JSON.parse(r.list_unsubscribe!) as string[];
      assert.equal(urls.length, 2);
      assert.match(urls[1]!, /^https:\/\/judge\.example\.org\/api\/unsubscribe\//);
    }
    const austria = sentTo(addressOf("austria"), /results/i);
    assert.equal(austria.length, 1, "Austria's results went out");
    assert.ok(headerOf(austria[0]!, "List-Unsubscribe"), "with List-Unsubscribe");
    assert.equal(headerOf(austria[0]!, "List-Unsubscribe-Post"), "List-Unsubscribe=One-Click");
    // Nobody sent orders: the missed-orders mail, about each one's own seat, reaches Italy and
    // England too, who opted out. The opt-out does not stop it, so it offers none: no header
    // for the mail program's button, no "Not wanted?" line, but why it came.
    const nmr = await outbox("nmr");
    assert.deepEqual(
      nmr.map((r) => r.to_addr).sort(),
      ["austria", "england", "france", "germany", "italy", "russia", "turkey"].map(addressOf),
    );
    for (const r of nmr) {
      assert.equal(r.list_unsubscribe, null, r.to_addr);
      assert.doesNotMatch(r.body, /Not wanted\?|NOTICES OFF|\/api\/unsubscribe\//, r.to_addr);
      assert.match(
        r.body,
        /\nSent even with the judge's mail turned off: it is about your own seat/,
      );
    }
    const italyNmr = sentTo(addressOf("italy"), /no orders received/i);
    assert.equal(italyNmr.length, 1, "Italy's missed-orders mail went out");
    assert.equal(headerOf(italyNmr[0]!, "List-Unsubscribe"), null, "without List-Unsubscribe");
    assert.equal(headerOf(italyNmr[0]!, "List-Unsubscribe-Post"), null);
  });
}
