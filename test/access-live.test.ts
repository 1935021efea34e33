import assert from "node:assert/strict";
import { test } from "node:test";
import { POWERS } from "../src/judge/testing.ts";
import { SseReader, waitFor } from "../src/server/testing.ts";
import { build } from "./access-world.ts";

/*
 * Access control on the live channel (GET /api/games/:id/events), in the world of
 * access-world.ts: each watcher gets only the events it may see, and a revoked token or a
 * lost seat stops them at once.
 */

test("the live channel: each watcher gets only its events; a revoked token or a lost seat stops them at once", async (t) => {
  const w = await build(t);
  const { gameA } = w;
  const watchers = [
    "anon",
    "outsider",
    "observer",
    "england",
    "france",
    "germany",
    "gmA",
    "gmB",
  ] as const;
  // Germany watches with a second token, revoked below; Italy watches and loses its seat.
  const extra = await w.judge.accounts.issueToken(w.users.germany!.id, "phone");
  const readers = new Map<string, SseReader>();
  const open = async (key: string, token: string | null) => {
    const r = new SseReader();
    const q = token ? `?token=${encodeURIComponent(token)}` : "";
    await r.open(`${w.base}/api/games/${gameA}/events${q}`);
    readers.set(key, r);
  };
  for (const a of watchers) await open(a, w.tokens[a]);
  await open("germany-phone", extra.token);
  await open("italy", w.tokens.italy);
  t.after(async () => {
    for (const r of readers.values()) await r.close();
  });
  // A press event names its message by the reader's own id, so it is known by what it says.
  const pressTo = (key: string, to: unknown, kind = "white") =>
    readers
      .get(key)!
      .events.filter(
        (e) =>
          e.event === "press" &&
          e.data.data.kind === kind &&
          JSON.stringify(e.data.data.to) === JSON.stringify(to),
      );
  const backlogPrivate = (key: string) => pressTo(key, ["germany"]).length > 0;
  await waitFor("backlogs", async () => readers.get("gmA")!.events.length > 0);
  for (const key of readers.keys()) {
    const may = ["france", "germany", "germany-phone", "gmA"].includes(key);
    assert.equal(backlogPrivate(key), may, `${key}: the backlog's private press`);
  }

  // Revoke Germany's phone token, take Italy's seat away, then send new private press.
  const res = await fetch(`${w.base}/api/tokens/${extra.id}`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${w.tokens.germany}` },
  });
  assert.equal(res.status, 200, "Germany revokes its phone's token");
  const replaced = await fetch(`${w.base}/api/games/${gameA}/gm/replace`, {
    method: "POST",
    headers: { authorization: `Bearer ${w.tokens.gmA}`, "content-type": "application/json" },
    body: JSON.stringify({ seat: POWERS.indexOf("italy") }),
  });
  assert.equal(replaced.status, 200, `the GM vacates Italy's seat: ${await replaced.text()}`);
  await w.judge.press.sendPress(w.users.france!, gameA, {
    to: ["germany", "italy"],
    body: "second private note",
  });
  await w.judge.press.sendPress(w.users.austria!, gameA, {
    to: "all",
    body: "a grey note",
    kind: "grey",
  });
  // Two grey messages to all now: Italy's, before the streams opened, and Austria's.
  await waitFor("the grey press event", async () => pressTo("anon", "all", "grey").length === 2);
  await waitFor("Germany's event", async () => pressTo("germany", ["germany", "italy"]).length > 0);
  for (const key of readers.keys()) {
    const may = ["france", "germany", "gmA"].includes(key);
    assert.equal(
      pressTo(key, ["germany", "italy"]).length > 0,
      may,
      `${key}: press to Germany and Italy after the changes`,
    );
    for (const ev of pressTo(key, "all", "grey")) {
      assert.ok(
        !JSON.stringify(ev).includes("austria") &&
          !JSON.stringify(ev).includes(w.names.austria!) &&
          !JSON.stringify(ev).includes(w.names.italy!),
        `${key}: a grey press event names its author`,
      );
    }
  }
  // Each stream numbers its own events 1, 2, 3 ... (no gap where others' private events
  // went), and a press event names the message by the id its reader's press list gives it.
  for (const [key, r] of readers) {
    assert.deepEqual(
      r.events.map((e) => e.id),
      r.events.map((_, i) => i + 1),
      `${key}: the stream's ids`,
    );
    for (const e of r.events) {
      assert.equal((e.data as { id?: unknown }).id, e.id, `${key}: the event's own id`);
    }
  }
  for (const key of ["france", "germany", "gmA"] as const) {
    const list = await w.judge.press.press(w.users[key]!, gameA);
    const note = list.find((m) => m.body === "second private note")!;
    assert.deepEqual(
      pressTo(key, ["germany", "italy"]).map((e) => e.data.data.id),
      [note.id],
      `${key}: the press event's id is the message's id in ${key}'s own list`,
    );
  }
  // The revoked token cannot reopen the stream.
  const again = await fetch(`${w.base}/api/games/${gameA}/events?token=${extra.token}`, {
    headers: { accept: "text/event-stream" },
  });
  assert.equal(again.status, 401, "a revoked token is refused");
  await again.body?.cancel();
});
