import assert from "node:assert/strict";
import { test } from "node:test";
import { SseReader, waitFor } from "../src/server/testing.ts";
import { type Actor, build, call } from "./access-world.ts";

/*
 * Ids as each viewer is shown them, in the world of access-world.ts: press and event ids 1 to
 * n per viewer with no gaps where others wrote privately, and proposals numbered per game.
 */

test("ids a viewer is shown are their own: 1 to n with no gaps where others wrote privately", async (t) => {
  const w = await build(t);
  const { gameA } = w;
  const call = async <T>(who: Actor, path: string): Promise<T> => {
    const token = w.tokens[who];
    const res = await fetch(`${w.base}/api/games/${gameA}${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    assert.equal(res.status, 200, `${who} ${path}: ${res.status}`);
    return (await res.json()) as T;
  };
  const send = (from: string, to: "all" | string[], body: string, kind = "white") =>
    w.judge.press.sendPress(from === "gmA" ? w.users.gmA! : w.users[from]!, gameA, {
      to,
      body,
      kind,
    });
  const idsOf = async (who: Actor, what: "press" | "events", after = 0) =>
    (await call<{ id: number }[]>(who, `/${what}${after ? `?after=${after}` : ""}`)).map(
      (x) => x.id,
    );
  const oneToN = (ids: number[], what: string) =>
    assert.deepEqual(
      ids,
      ids.map((_, i) => i + 1),
      what,
    );
  const readers: Actor[] = ["england", "france", "germany", "observer", "anon", "gmA"];
  const before = new Map<Actor, { press: number[]; events: number[] }>();
  for (const who of readers) {
    before.set(who, { press: await idsOf(who, "press"), events: await idsOf(who, "events") });
  }

  // England and France write to each other; between their messages others exchange private
  // press (white and grey), the GM writes privately, and private events happen (a contract).
  const first = await send("england", ["france"], "first, England to France");
  await send("germany", ["russia"], "Germany to Russia");
  await send("russia", ["germany"], "Russia to Germany", "grey");
  await send("austria", ["turkey", "italy"], "Austria to Turkey and Italy");
  await send("gmA", ["russia"], "the GM to Russia");
  const declared = await w.judge.gm.declareContract(w.users.germany!, gameA, { with: "russia" });
  const second = await send("france", ["england"], "second, France to England");
  await send("italy", ["austria"], "Italy to Austria");
  const third = await send("england", "all", "third, England to all");

  for (const who of readers) {
    const press = await idsOf(who, "press");
    const events = await idsOf(who, "events");
    oneToN(press, `${who}: press ids`);
    oneToN(events, `${who}: event ids`);
    // Stable: what a reader was shown before keeps its ids; new items only append.
    assert.deepEqual(press.slice(0, before.get(who)!.press.length), before.get(who)!.press);
    assert.deepEqual(events.slice(0, before.get(who)!.events.length), before.get(who)!.events);
  }
  // England's three messages follow each other in England's numbering, whatever others wrote
  // between them; the answer to the sender is the sender's own id.
  const englandPress = await call<{ id: number; body: string }[]>("england", "/press");
  const base = before.get("england")!.press.length;
  assert.deepEqual(
    englandPress.slice(base).map((m) => [m.id, m.body]),
    [
      [base + 1, "first, England to France"],
      [base + 2, "second, France to England"],
      [base + 3, "third, England to all"],
    ],
  );
  assert.deepEqual([first.id, third.id], [base + 1, base + 3], "sendPress answers England's ids");
  const francePress = await call<{ id: number; body: string }[]>("france", "/press");
  assert.equal(second.id, francePress.find((m) => m.body.startsWith("second"))!.id);
  // What a reader sees is exactly what they may read, with nothing in between.
  assert.equal(
    (await idsOf("observer", "press")).length,
    before.get("observer")!.press.length + 1,
    "the observer reads only England's message to all",
  );
  // The GM reads everything: their ids count every message of the game (not of other games).
  const all = await w.store.db
    .selectFrom("press")
    .select("id")
    .where("game_id", "=", gameA)
    .execute();
  assert.deepEqual(
    await idsOf("gmA", "press"),
    all.map((_, i) => i + 1),
  );
  // ?after= is a cursor in the reader's numbering.
  assert.deepEqual(await idsOf("england", "press", base + 1), [base + 2, base + 3]);
  const ev = await idsOf("england", "events");
  assert.deepEqual(await idsOf("england", "events", ev.length - 2), ev.slice(-2));
  assert.deepEqual(await idsOf("england", "press", 1_000_000), [], "past the end: nothing");
  for (const bad of ["-1", "1.5", "100000000000000000000", "x"]) {
    const res = await fetch(`${w.base}/api/games/${gameA}/press?after=${bad}`);
    assert.equal(res.status, 400, `after=${bad}`);
    assert.match(((await res.json()) as { error: string }).error, /"after" must be an id/);
  }
  // A press event names the message by the reader's own id for it.
  const events = await call<{ kind: string; data: { id?: number; to: unknown } }[]>(
    "england",
    "/events",
  );
  assert.deepEqual(
    events
      .filter((e) => e.kind === "press")
      .slice(-3)
      .map((e) => e.data.id),
    [base + 1, base + 2, base + 3],
  );
  // Contract declarations too: England declared one in the set-up, Germany its first now.
  assert.equal(declared.id, 1, "Germany's first declaration is its number 1");
  const declarations = async (who: Actor) =>
    (await w.judge.views.contracts(w.users[who]!, gameA)).declarations.map((d) => [d.id, d.power]);
  assert.deepEqual(await declarations("germany"), [[1, "germany"]]);
  assert.deepEqual(await declarations("england"), [[1, "england"]]);
  assert.deepEqual(await declarations("gmA"), [
    [1, "england"],
    [2, "germany"],
  ]);
  const contractEvent = async (who: Actor) =>
    (await call<{ kind: string; data: { id?: number; power?: string } }[]>(who, "/events"))
      .filter((e) => e.kind === "contract_declared" && e.data.power === "germany")
      .map((e) => e.data.id);
  assert.deepEqual(await contractEvent("germany"), [1], "Germany's event: its own id");
  assert.deepEqual(await contractEvent("gmA"), [2], "the GM's event: the GM's id");
  // A live stream from a cursor goes on in the same numbering.
  const sse = new SseReader();
  await sse.open(
    `${w.base}/api/games/${gameA}/events?after=${ev.length - 1}&token=${w.tokens.england}`,
  );
  t.after(() => sse.close());
  await waitFor("the backlog", async () => sse.events.length === 1);
  await send("germany", ["russia"], "more private press England does not see");
  await send("turkey", "all", "Turkey to all");
  await waitFor("the next event", async () => sse.events.length === 2);
  assert.deepEqual(
    sse.events.map((e) => [e.id, (e.data.data as { id?: number }).id]),
    [
      [ev.length, base + 3],
      [ev.length + 1, base + 4],
    ],
  );
});

test("proposals are numbered per game: 1, 2, 3 in each, whatever other games propose", async (t) => {
  const w = await build(t);
  const { gameA, gameB } = w;
  const api = async <T>(who: Actor, method: string, path: string, body?: unknown) => {
    const r = await call(w, who, method, path, body);
    assert.ok(
      r.status === 200 || r.status === 201,
      `${who} ${method} ${path}: ${r.status} ${r.text}`,
    );
    return JSON.parse(r.text) as T;
  };
  const listed = async (who: Actor, game: string) =>
    (
      await api<{ id: number; status: string; text: string }[]>(
        who,
        "GET",
        `/api/games/${game}/votes`,
      )
    ).map((p) => [p.id, p.status, p.text]);
  const eventIds = async (who: Actor, game: string) =>
    (await api<{ kind: string; data: { id?: number } }[]>(who, "GET", `/api/games/${game}/events`))
      .filter((e) => e.kind.startsWith("proposal") || e.kind === "vote_result")
      .map((e) => [e.kind, e.data.id]);

  // Game A made a proposal in the set-up (Russia's draw): its 1. Game B's first is its 1 too.
  assert.equal(w.proposal, 1, "game A's first proposal is its 1");
  const b1 = await api<{ id: number }>("playerB", "POST", `/api/games/${gameB}/votes`, {
    kind: "draw",
  });
  assert.equal(b1.id, 1, "game B's first proposal is its 1, though game A made one before");
  // Interleaved: A's second, B's second, each the 2 of its own game.
  const a2 = await w.judge.votes.propose(w.users.gmA!, gameA, {
    kind: "houserule",
    text: "rule A",
  });
  const b2 = await w.judge.votes.propose(w.users.gmB!, gameB, {
    kind: "houserule",
    text: "rule B",
  });
  assert.deepEqual([a2.id, b2.id], [2, 2]);
  // The store's rows went on counting across games (4 rows), and nobody is shown that.
  const rows = await w.store.db.selectFrom("proposals").select("id").execute();
  assert.equal(rows.length, 4);

  // Each number names its own game's proposal: B's player votes on B's 1, B's GM refuses B's
  // 2 (the API and the judge map the number to the game's row); A's are untouched.
  await api("playerB", "POST", `/api/games/${gameB}/votes/1`, { vote: "yes" });
  const refused = await api<{ proposal: number }>(
    "gmB",
    "POST",
    `/api/games/${gameB}/gm/refuse-proposal`,
    { proposal: 2, reason: "rule B again" },
  );
  assert.equal(refused.proposal, 2);
  assert.deepEqual(await listed("england", gameA), [
    [1, "open", "A draw including all survivors"],
    [2, "open", "rule A"],
  ]);
  assert.deepEqual(await listed("playerB", gameB), [
    [1, "open", "A draw including all survivors"],
    [2, "refused", "rule B"],
  ]);
  const yourVote = async (who: Actor, game: string) =>
    (
      await api<{ id: number; yourVote?: string | null }[]>(who, "GET", `/api/games/${game}/votes`)
    ).map((p) => [p.id, p.yourVote ?? null]);
  assert.deepEqual(await yourVote("playerB", gameB), [
    [1, "yes"],
    [2, null],
  ]);
  assert.deepEqual(await yourVote("austria", gameA), [
    [1, "yes"],
    [2, null],
  ]);
  // A number the game has not reached is not found there, whatever other games have.
  const missing = await call(w, "gmA", "POST", `/api/games/${gameA}/gm/refuse-proposal`, {
    proposal: 3,
    reason: "x",
  });
  assert.equal(missing.status, 404);
  assert.match(missing.text, /no proposal 3 in this game/);
  // A second proposal of a sort still open names the open one by its number.
  const again = await call(w, "france", "POST", `/api/games/${gameA}/votes`, { kind: "draw" });
  assert.equal(again.status, 409);
  assert.match(again.text, /proposal 1 \(draw/);

  // The events name proposals by the same numbers, for the players and the GM.
  assert.deepEqual(await eventIds("england", gameA), [
    ["proposal", 1],
    ["proposal", 2],
  ]);
  assert.deepEqual(await eventIds("playerB", gameB), [
    ["proposal", 1],
    ["proposal", 2],
    ["proposal_refused", 2],
  ]);
  assert.deepEqual(await eventIds("gmB", gameB), [
    ["proposal", 1],
    ["proposal", 2],
    ["proposal_refused", 2],
    ["proposal_refused_reason", 2],
  ]);
});
