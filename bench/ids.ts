// Per-viewer ids (issue 21): what reading press and events costs when each viewer's ids are
// counted over what they may read (src/judge/numbering.ts).
//   node --import tsx bench/ids.ts [--messages 20000]
// Two games of `messages` press messages each (one in ten to all, the rest private between
// two powers, each with its event), written straight into a temporary SQLite store; then
// England's pages of press and events at the start, in the middle and past the end, the GM's,
// and sending one message (its answer is the sender's own id: a count). Prints one JSON line
// of mean milliseconds per call (20 calls each). docs/reliability.md gives the figures.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Judge, type User } from "../src/judge/judge.ts";
import { readableCount, readerOf } from "../src/judge/numbering.ts";
import { Clock, POWERS } from "../src/judge/testing.ts";
import { openStore } from "../src/store/db.ts";

const { values } = parseArgs({ options: { messages: { type: "string", default: "20000" } } });
const N = Number(values.messages);
const dir = mkdtempSync(join(tmpdir(), "entente-ids-"));
try {
  const store = await openStore({ sqlitePath: join(dir, "bench.sqlite") });
  const clock = new Clock();
  const judge = new Judge({ store, now: clock.now });
  const gm = (await judge.accounts.register("bench-gm", "correct horse battery")).user;
  const players: Record<string, User> = {};
  for (const p of POWERS)
    players[p] = (await judge.accounts.register(`bench-${p}`, "correct horse battery")).user;
  const games: string[] = [];
  for (let k = 0; k < 2; k++) {
    const g = await judge.games.createGame(gm, { name: `game ${k}` });
    const code = g.invites!.find((i) => i.role === "player")!.code;
    if (k === 0)
      for (const p of POWERS) await judge.games.acceptInvite(players[p]!, code, { power: p });
    games.push(g.id);
  }
  for (const game of games) {
    await store.db.transaction().execute(async (trx) => {
      for (let i = 0; i < N; i++) {
        const from = POWERS[i % 7]!;
        const to = POWERS[(i + 1 + (i % 5)) % 7]!;
        const all = i % 10 === 0;
        const row = await trx
          .insertInto("press")
          .values({
            game_id: game,
            phase_idx: 0,
            phase: "S1901M",
            author_user: players[from]!.id,
            author_power: from,
            kind: "white",
            recipients: JSON.stringify(all ? "all" : [to]),
            body: `message ${i}`,
            at: i,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        await trx
          .insertInto("events")
          .values({
            game_id: game,
            kind: "press",
            audience: all ? "public" : `powers:${to},${from}`,
            data: JSON.stringify({ id: Number(row.id), kind: "white", to: all ? "all" : [to] }),
            at: i,
          })
          .execute();
      }
    });
  }
  const england = players.england!;
  const reader = readerOf({ user: england, role: "player", seat: 1, powers: ["england" as never] });
  const readable = await readableCount(store.db, "press", games[0]!, reader);
  const time = async (f: () => Promise<unknown>) => {
    await f();
    const t = performance.now();
    for (let i = 0; i < 20; i++) await f();
    return Number(((performance.now() - t) / 20).toFixed(1));
  };
  const g0 = games[0]!;
  const out = {
    messagesPerGame: N,
    englandMayRead: readable,
    pressFirstPage: await time(() => judge.press.press(england, g0)),
    pressMiddle: await time(() => judge.press.press(england, g0, Math.floor(readable / 2))),
    pressPastEnd: await time(() => judge.press.press(england, g0, readable)),
    eventsFirstPage: await time(() => judge.views.events(england, g0)),
    eventsPastEnd: await time(() => judge.views.events(england, g0, readable + 100)),
    gmPressLastPage: await time(() => judge.press.press(gm, g0, N - 1000)),
    sendPress: await time(() => judge.press.sendPress(england, g0, { to: ["france"], body: "x" })),
    loadavg: loadavg().map((x) => Number(x.toFixed(1))),
  };
  console.log(JSON.stringify(out));
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
