import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type GameRecord, replayRecord } from "../engine/record.ts";
import { serveJudge } from "../server/testing.ts";
import { testStore } from "../store/testing.ts";
import { getScenario } from "../variants/scenarios.ts";
import {
  everything,
  explained,
  firstThen,
  play,
  rejectsWith,
  sequentialGame,
  sequentialGameOn,
} from "./sequential-testing.ts";
import { judgeWithGm, POWERS } from "./testing.ts";

/*
 * Sequential movement (seed 003) in a judge game (src/judge/schedule.ts): the schedule is the
 * judge's; the GM sees and sets it; nobody else learns it, from any view, through the judge or
 * over the API. The contracts players declare: sequential-contracts.test.ts.
 */

test("a game's sequential rules are checked when it is created; the schedule is not a rule", async (t) => {
  const ts = await testStore(t, "sqlite");
  if (!ts) return;
  const { judge, gm } = await judgeWithGm(ts.store);
  await assert.rejects(
    judge.games.createGame(gm, {
      name: "Bad",
      rules: { movement: "sequential", schedule: ["france", "prussia"] },
    }),
    rejectsWith("invalid", /unknown power "prussia"/),
  );
  await assert.rejects(
    judge.games.createGame(gm, {
      name: "Open",
      rules: { movement: "sequential", schedule: [...POWERS] },
    }),
    rejectsWith("invalid", /POST \/api\/games\/\{id\}\/schedule\/\{season\}/),
  );
  await assert.rejects(
    judge.games.createGame(gm, {
      name: "Open",
      rules: { movement: "sequential", contracts: [["austria", "russia"]] },
    }),
    rejectsWith("invalid", /players declare contracts with POST/),
  );
  const a = await judge.games.createGame(gm, { name: "A", rules: { movement: "sequential" } });
  const b = await judge.games.createGame(gm, { name: "B", rules: { movement: "sequential" } });
  const seedOf = (v: { rules: unknown }) => (v.rules as { scheduleSeed?: number }).scheduleSeed;
  assert.equal(typeof seedOf(a), "number", "the game gets its own schedule seed");
  assert.notEqual(seedOf(a), seedOf(b), "seeded per game");
  const c = await judge.games.createGame(gm, {
    name: "C",
    rules: { movement: "sequential", scheduleSeed: 3 },
  });
  assert.equal(seedOf(c), 3, "the GM's seed is kept");
});

describe("the schedule is kept from the players", () => {
  test("player, observer and anonymous see no schedule, seed or slot; the GM sees all", async (t) => {
    const g = await sequentialGameOn(t);
    if (!g) return;
    const { judge, gm, players, observer } = g;
    await judge.gm.setSchedule(gm, g.gameId, "S1901", firstThen("austria", "russia"));
    // Rule 2 of the seed: Austria, first, gets into Galicia and keeps Russia out.
    await play(g, { austria: ["A vie - gal"], russia: ["A war - gal"] });

    const gmPhases = await judge.views.phases(g.gameId, gm);
    assert.match(explained(gmPhases, "austria", "A vie"), /slot 1 of 7 \(Austria's orders\)/);
    assert.match(explained(gmPhases, "russia", "A war"), /fails: .*slot 2 of 7/);
    const board = (await judge.views.gameView(players.russia, g.gameId)).position.units;
    assert.ok(board.austria!.includes("A gal"), "Austria got into Galicia");
    assert.ok(board.russia!.includes("A war"), "Russia was kept out");

    for (const [who, u] of [
      ["a player", players.russia],
      ["an observer", observer],
      ["anyone", null],
    ] as const) {
      const view = await judge.views.gameView(u, g.gameId);
      assert.deepEqual(
        Object.keys(view.rules as object).filter((k) => /schedule|contracts/i.test(k)),
        [],
        `${who}: rules without schedule, contracts or seed`,
      );
      assert.equal(
        (view.rules as { movement: string }).movement,
        "sequential",
        `${who}: sequential`,
      );
      const all = await everything(g, u);
      assert.doesNotMatch(
        all,
        /slot \d|scheduleSeed|schedule_set|'s orders/,
        `${who} sees no schedule`,
      );
      const phases = await judge.views.phases(g.gameId, u);
      assert.match(
        explained(phases, "russia", "A war"),
        /^fails: bounced off A gal/,
        `${who}: outcome`,
      );
      if (u) {
        await assert.rejects(
          judge.views.schedule(u, g.gameId),
          rejectsWith("forbidden", /only by the game master: players are never told it/),
          `${who} asking for the schedule`,
        );
        await assert.rejects(
          judge.gm.setSchedule(u, g.gameId, "F1901", firstThen("russia")),
          rejectsWith("forbidden", /game master/),
          `${who} setting the schedule`,
        );
      }
    }

    // The GM's record has every phase's schedule and replays exactly; the players' does not.
    const record = await judge.views.recordFor(gm, g.gameId);
    assert.deepEqual(
      (record.rules.schedule as Record<string, string[]>).S1901,
      firstThen("austria", "russia"),
      "the GM's record has the schedule",
    );
    assert.deepEqual(
      replayRecord(getScenario("classical")!, record as GameRecord),
      { ok: true },
      "it replays",
    );
    const gmEvents = await judge.views.events(gm, g.gameId);
    assert.ok(
      gmEvents.some((e) => e.kind === "schedule_set"),
      "the GM's events say the schedule was set",
    );
  });

  test("a simultaneous season: the standard rules, and players are not told it was one", async (t) => {
    const g = await sequentialGameOn(t);
    if (!g) return;
    const { judge, gm, players } = g;
    await judge.gm.setSchedule(gm, g.gameId, "S1901", "simultaneous");
    let view = await judge.views.schedule(gm, g.gameId, 2);
    assert.deepEqual(
      view.seasons.map((s) => [s.season, s.kind, s.index]),
      [
        ["S1901", "simultaneous", null],
        ["F1901", "sequential", 0],
        ["S1902", "sequential", 1],
      ],
      "the GM sees it; it does not count among the sequential seasons",
    );
    // Italy supports Austria without a contract: in a simultaneous season that is just support.
    await play(g, {
      austria: ["A vie - gal"],
      russia: ["A war - gal"],
      germany: ["A mun - tyr"],
      italy: ["A ven - tyr"],
    });
    const board = (await judge.views.gameView(players.austria, g.gameId)).position.units;
    assert.ok(
      board.austria!.includes("A vie") && board.russia!.includes("A war"),
      "Galicia bounce",
    );
    assert.ok(board.germany!.includes("A mun") && board.italy!.includes("A ven"), "Tyrolia bounce");
    assert.match(
      explained(await judge.views.phases(g.gameId, gm), "austria", "A vie"),
      /F?S1901 is a simultaneous season/,
      "the GM's results say so",
    );
    assert.doesNotMatch(
      await everything(g, players.austria),
      /simultaneous|slot \d/,
      "the players' do not",
    );
    // The season is adjudicated: its schedule can no longer change.
    await assert.rejects(
      judge.gm.setSchedule(gm, g.gameId, "S1901", firstThen("austria")),
      rejectsWith("conflict", /S1901 has been adjudicated; the first season still open is F1901/),
    );
    view = await judge.views.schedule(gm, g.gameId, 0);
    assert.equal(view.next, "F1901", "next season");
    assert.equal(view.seasons[0]!.adjudicated, true, "S1901 adjudicated");
  });
});

describe("the GM's schedule", () => {
  test("generated per game: every block of seven sequential seasons balanced, changing after each", async (t) => {
    const g = await sequentialGameOn(t);
    if (!g) return;
    const other = await sequentialGame(g.judge.store);
    const { judge, gm } = g;
    // Two simultaneous seasons in the middle: blocks count sequential seasons only.
    await judge.gm.setSchedule(gm, g.gameId, "F1902", "simultaneous");
    await judge.gm.setSchedule(gm, g.gameId, "S1905", "simultaneous");
    const view = await judge.views.schedule(gm, g.gameId, 70);
    const sequential = view.seasons.filter((s) => s.kind === "sequential");
    assert.ok(sequential.length >= 63, "nine blocks and more");
    sequential.forEach((s, i) => {
      assert.equal(s.index, i, `${s.season}: sequential season ${i}`);
      assert.equal(s.source, "generated", `${s.season}: generated`);
      assert.deepEqual([...s.order!].sort(), [...POWERS], `${s.season}: every power once`);
    });
    const blocks = Math.floor(sequential.length / 7);
    for (let b = 0; b < blocks; b++) {
      const block = sequential.slice(b * 7, b * 7 + 7);
      for (const p of POWERS) {
        for (let place = 0; place < 7; place++) {
          assert.equal(
            block.filter((s) => s.order![place] === p).length,
            1,
            `block ${b}: ${p} is in place ${place + 1} exactly once`,
          );
        }
      }
      if (b > 0) {
        const before = sequential.slice(b * 7 - 7, b * 7);
        block.forEach((s, k) => {
          assert.notDeepEqual(s.order, before[k]!.order, `block ${b}: ${s.season} changed`);
        });
      }
    }
    assert.equal(view.blocks.length, blocks, "the GM is shown every whole block");
    assert.ok(
      view.blocks.every((b) => b.balanced),
      "and that each is balanced",
    );
    const mine = sequential.map((s) => s.order!.join(" "));
    const theirs = (await other.judge.views.schedule(other.gm, other.gameId, 20)).seasons.map((s) =>
      s.order?.join(" "),
    );
    assert.notDeepEqual(mine.slice(0, 14), theirs.slice(0, 14), "another game, another schedule");
  });

  test("the GM sets a season, goes back to the generated one; bad schedules are refused", async (t) => {
    const g = await sequentialGameOn(t);
    if (!g) return;
    const { judge, gm, gameId } = g;
    const generated = (await judge.views.schedule(gm, gameId, 3)).seasons[1]!;
    const mine = firstThen("turkey", "england");
    let view = await judge.gm.setSchedule(gm, gameId, "f1901", mine);
    assert.deepEqual(view.seasons[1], { ...generated, order: mine, source: "gm" }, "set");
    view = await judge.views.schedule(gm, gameId, 5);
    assert.equal(view.blocks.length, 0, "no whole block shown yet");
    view = await judge.views.schedule(gm, gameId, 6);
    assert.equal(view.blocks.length, 1, "one whole block");
    assert.equal(
      view.blocks[0]!.balanced,
      generated.order!.join() === mine.join(),
      "a GM's season may break the balance, and the GM is shown it",
    );
    view = await judge.gm.setSchedule(gm, gameId, "F1901", "generated");
    assert.deepEqual(view.seasons[1], generated, "back to the generated one");
    await assert.rejects(
      judge.gm.setSchedule(gm, gameId, "F1901", ["austria", "prussia"]),
      rejectsWith("invalid", /unknown power "prussia"; classical has austria, england/),
    );
    await assert.rejects(
      judge.gm.setSchedule(gm, gameId, "F1901", ["austria", "england"]),
      rejectsWith("invalid", /france, germany, italy, russia, turkey are still in the game/),
    );
    await assert.rejects(
      judge.gm.setSchedule(gm, gameId, "F1901", ["austria", "austria"]),
      rejectsWith("invalid", /names austria twice/),
    );
    await assert.rejects(
      judge.gm.setSchedule(gm, gameId, "F1899", "simultaneous"),
      rejectsWith("invalid", /the game starts in S1901/),
    );
    await assert.rejects(
      judge.gm.setSchedule(gm, gameId, "Winter 1901", "simultaneous"),
      rejectsWith("invalid", /is not a season; write it as S1901 or F1901/),
    );
  });
});

test("over the API: the GM's tools, refusals for players and observers, nothing leaks", async (t) => {
  const s = await serveJudge(t);
  if (!s) return;
  const { api } = s;
  const account = async (name: string) =>
    (
      await api.ok<{ token: string }>("POST", "/api/users", {
        name,
        password: "correct horse battery",
      })
    ).token;
  const gm = await account("seqgm");
  const game = await api.ok<{ id: string; invites: { code: string; role: string }[] }>(
    "POST",
    "/api/games",
    { name: "Hoyle", rules: { movement: "sequential" }, scenario: "2" },
    gm,
  );
  const code = game.invites.find((i) => i.role === "player")!.code;
  const a = await account("seqa");
  const b = await account("seqb");
  await api.ok("POST", `/api/invites/${code}`, { seat: 0 }, a);
  await api.ok("POST", `/api/invites/${code}`, { seat: 1 }, b);
  const base = `/api/games/${game.id}`;

  const asPlayer = await api.call("GET", `${base}/schedule`, undefined, a);
  assert.equal(asPlayer.status, 403, "a player asking for the schedule is refused");
  assert.match(JSON.stringify(asPlayer.body), /players are never told it/, "and told why");
  assert.equal((await api.call("GET", `${base}/schedule`)).status, 401, "anonymous: log in");
  const setByPlayer = await api.call(
    "POST",
    `${base}/schedule/S1914`,
    { schedule: "simultaneous" },
    a,
  );
  assert.equal(setByPlayer.status, 403, "a player may not set it");
  const bad = await api.call("POST", `${base}/schedule/S1914`, { schedule: 7 }, gm);
  assert.equal(bad.status, 400, "a bad body");
  assert.match(JSON.stringify(bad.body), /a list of powers, \\"simultaneous\\" or \\"generated\\"/);
  const set = await api.ok<{ seasons: { season: string; kind: string }[] }>(
    "POST",
    `${base}/schedule/S1914`,
    { schedule: "simultaneous" },
    gm,
  );
  assert.equal(set.seasons[0]!.kind, "simultaneous", "the GM set it");
  const sched = await api.ok<{ seasons: unknown[] }>(
    "GET",
    `${base}/schedule?ahead=3`,
    undefined,
    gm,
  );
  assert.equal(sched.seasons.length, 4, "S1914 and three ahead");
  assert.equal((await api.call("GET", `${base}/schedule?ahead=x`, undefined, gm)).status, 400);

  // Seat 0 of the two-player game plays several powers: it says which.
  const seat = await api.call("POST", `${base}/contracts`, { with: "italy" }, a);
  assert.equal(seat.status, 400, "a seat with several powers says which");
  assert.match(JSON.stringify(seat.body), /your seat plays/);
  const view = await api.ok<{ you: { powers: string[] } }>("GET", base, undefined, a);
  const mine = view.you.powers[0]!;
  const theirs = (await api.ok<{ you: { powers: string[] } }>("GET", base, undefined, b)).you
    .powers[0]!;
  const d = await api.ok<{ id: number; matched: boolean }>(
    "POST",
    `${base}/contracts`,
    { power: mine, with: theirs },
    a,
  );
  assert.equal(d.matched, false, "declared, not matched");
  const listed = await api.ok<{ declarations: unknown[] }>(
    "GET",
    `${base}/contracts`,
    undefined,
    b,
  );
  assert.deepEqual(listed.declarations, [], "the other side does not see it");
  assert.equal((await api.call("DELETE", `${base}/contracts/${d.id}`, undefined, b)).status, 404);
  assert.equal((await api.call("DELETE", `${base}/contracts/${d.id}`, undefined, a)).status, 200);

  for (const token of [a, undefined]) {
    const g = await api.ok<{ rules: Record<string, unknown> }>("GET", base, undefined, token);
    assert.equal(g.rules.scheduleSeed, undefined, "no seed in the rules");
    const rec = await api.ok<{ rules: Record<string, unknown> }>(
      "GET",
      `${base}/record`,
      undefined,
      token,
    );
    assert.equal(rec.rules.scheduleSeed, undefined, "nor in the record");
    const events = await api.ok<unknown[]>("GET", `${base}/events`, undefined, token);
    assert.doesNotMatch(JSON.stringify(events), /schedule/, "nor in the events");
  }
  const gmRecord = await api.ok<{ rules: Record<string, unknown> }>(
    "GET",
    `${base}/record`,
    undefined,
    gm,
  );
  assert.deepEqual(gmRecord.rules.schedule, { S1914: "simultaneous" }, "the GM's record has it");

  const docs = await api.ok<{ paths: Record<string, Record<string, unknown>> }>(
    "GET",
    "/api/openapi.json",
  );
  for (const [path, method] of [
    ["/api/games/{id}/schedule", "get"],
    ["/api/games/{id}/schedule/{season}", "post"],
    ["/api/games/{id}/contracts", "post"],
    ["/api/games/{id}/contracts/{cid}", "delete"],
  ] as const) {
    assert.ok(docs.paths[path]?.[method], `OpenAPI has ${method} ${path}`);
  }
});
