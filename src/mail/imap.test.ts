import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { createServer, type Socket } from "node:net";
import { test } from "node:test";
import { testStore } from "../store/testing.ts";
import { ImapPoller } from "./imap.ts";
import { addressOf, GAME_ADDRESS, gatewayOf, mailTestGame, rawMail } from "./testing.ts";

/*
 * IMAP polling against a small IMAP server on loopback that speaks just what a client needs to
 * log in, select a mailbox, search the unseen messages, fetch one and mark it seen.
 */

interface Box {
  readonly messages: Map<number, { raw: string; seen: boolean }>;
  readonly commands: string[];
}

function imapServer(box: Box) {
  const server = createServer((sock: Socket) => {
    sock.write("* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN UIDPLUS] test server ready\r\n");
    let buf = "";
    sock.on("data", (d: Buffer) => {
      buf += d.toString("latin1");
      for (let i = buf.indexOf("\r\n"); i !== -1; i = buf.indexOf("\r\n")) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        box.commands.push(line);
        const [tag, cmd = "", sub = "", arg = ""] = line.split(" ");
        const ok = (text: string) => sock.write(`${tag} OK ${text}\r\n`);
        const verb = `${cmd} ${sub}`.toUpperCase();
        if (cmd.toUpperCase() === "CAPABILITY") {
          sock.write("* CAPABILITY IMAP4rev1 AUTH=PLAIN UIDPLUS\r\n");
          ok("done");
        } else if (cmd.toUpperCase() === "SELECT") {
          sock.write(
            `* FLAGS (\\Seen)\r\n* ${box.messages.size} EXISTS\r\n* OK [UIDVALIDITY 7] ok\r\n* OK [UIDNEXT ${box.messages.size + 1}] ok\r\n`,
          );
          ok("[READ-WRITE] selected");
        } else if (verb === "UID SEARCH") {
          const unseen = [...box.messages].filter(([, m]) => !m.seen).map(([uid]) => uid);
          sock.write(`* SEARCH${unseen.map((u) => ` ${u}`).join("")}\r\n`);
          ok("searched");
        } else if (verb === "UID FETCH") {
          const uid = Number(arg);
          const m = box.messages.get(uid)!;
          sock.write(
            `* ${uid} FETCH (UID ${uid} BODY[] {${Buffer.byteLength(m.raw)}}\r\n${m.raw})\r\n`,
          );
          ok("fetched");
        } else if (verb === "UID STORE") {
          const uid = Number(arg);
          box.messages.get(uid)!.seen = true;
          sock.write(`* ${uid} FETCH (UID ${uid} FLAGS (\\Seen))\r\n`);
          ok("stored");
        } else if (cmd.toUpperCase() === "LOGOUT") {
          sock.write("* BYE\r\n");
          ok("bye");
          sock.end();
        } else ok(`${cmd} done`);
      }
    });
  });
  return server;
}

test("IMAP: unseen mails are handled once and marked seen", async (t) => {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "sqlite store");
  const g = await mailTestGame(ts.store);
  const box: Box = {
    messages: new Map([
      [
        1,
        {
          raw: rawMail({
            from: addressOf("austria"),
            to: GAME_ADDRESS,
            subject: "SED 01SA",
            text: `Secret: ${g.secrets.austria}\nA vie-gal\nFinal`,
          }),
          seen: false,
        },
      ],
      [
        2,
        {
          raw: rawMail({
            from: addressOf("england"),
            to: GAME_ADDRESS,
            subject: "hello",
            text: "hi",
          }),
          seen: false,
        },
      ],
      [
        3,
        {
          raw: rawMail({ from: addressOf("france"), to: GAME_ADDRESS, subject: "old", text: "x" }),
          seen: true,
        },
      ],
    ]),
    commands: [],
  };
  const server = imapServer(box);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as AddressInfo).port;
  const poller = new ImapPoller({
    gateway: gatewayOf(g.judge),
    url: `imap://gm%40club.test:pw@127.0.0.1:${port}/INBOX`,
  });
  assert.equal(await poller.poll(), 2, "the two unseen mails");
  assert.ok(
    [...box.messages.values()].every((m) => m.seen),
    "marked seen once handled",
  );
  assert.ok(
    box.commands.some((c) => /AUTHENTICATE PLAIN|LOGIN/i.test(c)),
    "logged in",
  );
  const sets = await g.judge.submissions.currentOrders(g.gm, g.gameId);
  assert.deepEqual(
    sets.sets.map((s) => [s.power, s.orders, s.final]),
    [["austria", ["A vie-gal"], true]],
    "the order mail was handled",
  );
  assert.equal(await poller.poll(), 0, "nothing twice");
});
