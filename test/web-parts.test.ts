import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { GameView as JudgeView, User } from "../src/judge/judge.ts";
import { Judge } from "../src/judge/judge.ts";
import { Clock, sevenPlayerGame, user } from "../src/judge/testing.ts";
import { discoveryMapFor } from "../src/render/families.ts";
import { hasMap } from "../src/render/serve.ts";
import type { BoardPosition } from "../src/render/types.ts";
import { testStore } from "../src/store/testing.ts";
import {
  centreHistory,
  centreRows,
  duePointsText,
  dueText,
  focusBox,
  gameParts,
  missedPowers,
  missedWords,
  possibleCommands,
  pressThreads,
} from "../src/web/parts.ts";
import type { GameView } from "../src/web/types.ts";

/*
 * The one game page (src/web/game.ts) builds itself from `gameParts`: what the game view
 * says about the game decides the map, the way orders are given, the report and the tabs.
 * Here the views come from a real judge, as the API sends them (JSON), for each kind of game
 * and each kind of viewer; whether a map exists is what the geometry route answers.
 */

/** The view as the page receives it: the judge's view through JSON. */
async function pageView(judge: Judge, u: User | null, id: string) {
  const v: JudgeView = await judge.views.gameView(u, id);
  const view = JSON.parse(JSON.stringify(v)) as GameView;
  return gameParts(view, hasMap(view.variant));
}

describe("the game page's parts, from the game view", () => {
  test("a Diplomacy variant: the board, the order pad, the public history, press and votes", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const g = await sevenPlayerGame(ts.store);
    const player = await pageView(g.judge, g.players.england, g.gameId);
    assert.equal(player.orders, "pad", "orders are given on the pad (clicking and typing)");
    assert.deepEqual(player.map, { frame: false }, "the variant's whole board");
    assert.equal(player.report, false, "no per-player report: the history is public");
    assert.deepEqual(player.panels, ["orders", "history", "press", "votes"], "a player's tabs");
    assert.equal(player.names, "variant", "powers go by the variant's names");
    assert.equal(player.kind, "classical · 7", "the head names variant and scenario");
    const gm = await pageView(g.judge, g.gm, g.gameId);
    assert.deepEqual(gm.panels, ["orders", "history", "press", "votes", "gm"], "the GM's tabs");
    assert.equal(gm.gm.corrections, true, "the GM may correct, replace and end");
    assert.equal(gm.gm.chair, true, "chaired play is offered");
    assert.equal(gm.gm.resolve, "now", "Resolve now adjudicates at once");
    const visitor = await pageView(g.judge, null, g.gameId);
    assert.deepEqual(visitor.panels, ["orders", "history", "press"], "a visitor cannot vote");
  });

  test("europe1935: the victory points tab", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const judge = new Judge({ store: ts.store, now: new Clock().now });
    const gm = await user(judge, "gm");
    const game = await judge.games.createGame(gm, { name: "Committee", variant: "europe1935" });
    const parts = await pageView(judge, gm, game.id);
    assert.ok(parts.panels.includes("points"), "the view carries scores: a Points tab");
  });

  test("Global Diplomacy with a built-in player: a player's Seats tab says which seats bots play", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const judge = new Judge({ store: ts.store, now: new Clock().now });
    const gm = await user(judge, "gm");
    const game = await judge.games.createGame(gm, {
      name: "World",
      variant: "global",
      seed: 5,
      bots: { "1": "family" },
    });
    const ann = await user(judge, "ann");
    await judge.games.acceptInvite(ann, game.invites!.find((i) => i.role === "player")!.code, {
      power: "3",
    });
    const parts = await pageView(judge, ann, game.id);
    assert.deepEqual(parts.panels, ["orders", "seats", "press", "votes"]);
  });

  test("Global Diplomacy: the world framed on the player's areas, the command box, reports", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const judge = new Judge({ store: ts.store, now: new Clock().now });
    const gm = await user(judge, "gm");
    const game = await judge.games.createGame(gm, { name: "World", variant: "global", seed: 5 });
    const code = game.invites!.find((i) => i.role === "player")!.code;
    const players: User[] = [];
    for (let p = 1; p <= 11; p++) {
      players.push(await user(judge, `w${p}`));
      await judge.games.acceptInvite(players[p - 1]!, code, { power: String(p) });
    }
    const player = await pageView(judge, players[2]!, game.id);
    assert.equal(player.orders, "commands", "commands, with a verdict per line");
    assert.deepEqual(player.map, { frame: true }, "the world map, framed on its areas");
    assert.equal(player.report, true, "the player's own report");
    assert.deepEqual(
      player.panels,
      ["orders", "press", "votes"],
      "a player's tabs: its commands, press and votes",
    );
    assert.equal(player.names, "seats", "powers go by number and seat (3-England)");
    assert.equal(player.kind, "Global Diplomacy · 11 players", "the head names the family");
    assert.deepEqual(player.words, { phase: "turn", orders: "commands" }, "its words");
    const gmParts = await pageView(judge, gm, game.id);
    assert.deepEqual(
      gmParts.panels,
      ["turns", "press", "votes", "gm"],
      "the GM: the turns, press, votes and the console",
    );
    assert.equal(gmParts.gm.corrections, true, "the GM corrects and replaces here too");
    assert.equal(gmParts.gm.end, true, "the GM ends it (a draw, abandoned) as any game");
    assert.equal(gmParts.gm.resolve, "deadline", "Resolve now moves the deadline to now");
    assert.equal(gmParts.gm.moderatorMap, null, "the world is public: no moderator map");
    const visitor = await pageView(judge, null, game.id);
    assert.deepEqual(visitor.panels, ["seats", "press"], "a visitor sees who plays, and press");
    // The supply table on turn 1: England's four centres (not its seven areas), balanced; every
    // other power unknown to England, never 0; the GM knows every power, each balanced.
    const seen = centreRows(
      (await judge.views.gameView(players[2]!, game.id)).position as BoardPosition,
    );
    const england = seen.find((r) => r.power === "3")!;
    assert.deepEqual(
      [england.centres, england.units, england.due, england.points],
      [4, 3, 0, { supply: 6, units: 6 }],
      "England starts balanced: 6 supply points, 6 unit points",
    );
    assert.equal(duePointsText(england.due), "balanced");
    assert.deepEqual(
      seen.filter((r) => r.unknown).map((r) => r.power).length,
      10,
      "the ten others unknown",
    );
    assert.ok(seen.filter((r) => r.unknown).every((r) => r.centres === 0 && r.units === 0));
    const all = centreRows((await judge.views.gameView(gm, game.id)).position as BoardPosition);
    assert.equal(all.length, 11);
    assert.ok(
      all.every((r) => !r.unknown && r.due === 0),
      "every power balanced at the start",
    );
  });

  test("Age of Discovery: each player's own map, as its report knows it; the moderator map for the GM", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const judge = new Judge({ store: ts.store, now: new Clock().now });
    const gm = await user(judge, "gm");
    const game = await judge.games.createGame(gm, {
      name: "Discovery",
      variant: "discovery",
      seed: 11,
      players: 9,
    });
    const code = game.invites!.find((i) => i.role === "player")!.code;
    const first = await user(judge, "d1");
    await judge.games.acceptInvite(first, code, { power: "1" });
    const player = await pageView(judge, first, game.id);
    assert.deepEqual(
      player.map,
      { frame: true, source: `/api/games/${game.id}/map` },
      "the player's own map, made for it",
    );
    // What that address answers: the areas the player knows, named as its report names them.
    const own = await judge.views.familyMapSource(first, game.id);
    assert.equal(own.player, 1, "drawn for the player's power");
    const drawn = discoveryMapFor({ ...own.position }, own.player);
    const { report } = await judge.views.report(first, game.id, {});
    const labels = [...drawn.geometry.base.matchAll(/class="label"[^>]*>(\d+) (\d{4})<\/text>/g)];
    assert.ok(labels.length > 0, "areas labelled with their id and square name");
    for (const [, id, square] of labels) {
      assert.ok(report.includes(square!), `${id}'s square ${square} is the report's name for it`);
    }
    const known = Object.keys(drawn.geometry.provinces);
    const all = (await judge.views.moderatorMap(gm, game.id)).map as { areas: unknown[] };
    assert.ok(known.length < all.areas.length, `only what it knows: ${known.length} areas`);
    const [, , w, hgt] = drawn.frame!;
    assert.ok(
      w < drawn.geometry.width || hgt < drawn.geometry.height,
      "framed on the areas it knows",
    );
    for (const u of Object.values(drawn.view.position.units).flat()) {
      assert.ok(known.includes(u.split(" ")[1]!), `a unit it sees: ${u}`);
    }
    const whole = await judge.views.familyMapSource(gm, game.id);
    assert.equal(whole.player, null, "the GM's is the whole map");
    const outsider = await user(judge, "nobody");
    await assert.rejects(judge.views.familyMapSource(outsider, game.id), /drawn for its players/);
    assert.equal(player.orders, "commands", "commands, as in Global Diplomacy");
    assert.equal(player.gm.moderatorMap, null, "a player is not offered the whole map");
    const gmParts = await pageView(judge, gm, game.id);
    assert.equal(
      gmParts.gm.moderatorMap,
      `/api/games/${game.id}/moderator-map`,
      "the GM downloads the whole map",
    );
  });

  test("a report's possible commands; a map framed on a position's areas", () => {
    const report = [
      "COMMAND RESULTS",
      "  (no commands received)",
      "-------------------------------",
      "POSSIBLE COMMANDS FOR NEXT TURN",
      "  F   7: MO to 4 6 233",
      "  A   5: MO to 3 4 6",
      "-------------------------------",
      "END",
    ].join("\n");
    assert.equal(
      possibleCommands(report),
      "  F   7: MO to 4 6 233\n  A   5: MO to 3 4 6",
      "the section between its rules",
    );
    assert.equal(possibleCommands("HIGHLIGHTS\n"), null, "none without the section");
    const g = {
      width: 1000,
      height: 500,
      provinces: {
        a: { unit: [100, 100] as [number, number] },
        b: { unit: [140, 120] as [number, number] },
      },
    };
    const box = focusBox(g, { units: { "3": ["F a"] }, centers: { "3": ["b"] } });
    assert.ok(box, "a box around the areas");
    const [x, y, w, hgt] = box;
    assert.ok(x <= 100 && x + w >= 140 && y <= 100 && y + hgt >= 120, `it holds both: ${box}`);
    assert.ok(w < g.width && w >= g.width / 5, `narrower than the map, at least a fifth: ${w}`);
    assert.equal(focusBox(g, { units: {} }), null, "nothing to frame: the whole map");
  });
});

test("the sandbox's order text: any name of a power is a header, and the header it recommends is accepted", async () => {
  const { splitByPower } = await import("../src/web/split.ts");
  const { europe1935 } = await import("../src/variants/europe1935/index.ts");
  // The powers as GET /api/variants/{id}/start sends them.
  const powers = europe1935.powers.map((p) => ({
    id: p.id as string,
    name: p.name,
    adjective: p.adjective,
    ...(p.aliases ? { aliases: [...p.aliases] } : {}),
  }));
  const stray = splitByPower("F lon - nth", powers).lines[0];
  const m = /on a line of its own \(e\.g\. “([^”]+)”\)/.exec(stray?.message ?? "");
  assert.ok(m, `the message recommends a header: ${stray?.message}`);
  assert.deepEqual(
    splitByPower(`${m[1]}\nF lon - nth`, powers).orders,
    { uk: ["F lon - nth"] },
    `${m[1]} is accepted`,
  );
  const named = splitByPower("Great Britain:\nF lon - nth\nSoviet Union\nA mos H", powers);
  assert.deepEqual(named.orders, { uk: ["F lon - nth"], ussr: ["A mos H"] }, "aliases are headers");
});

test("the sandbox reads a line's power from its unit where the position knows it, whatever the header", async () => {
  const { splitByPower, unitOwner } = await import("../src/web/split.ts");
  const { classical } = await import("../src/variants/classical/index.ts");
  const powers = classical.powers.map((p) => ({
    id: p.id as string,
    name: p.name,
    adjective: p.adjective,
  }));
  const position = {
    variant: "classical",
    phase: "S1901M",
    units: { england: ["F lon", "F edi"], germany: ["A mun"], russia: ["F stp/sc"] },
    centers: { england: ["lon", "edi", "lvp"], germany: ["mun"] },
  };
  const owner = (l: string) => unitOwner(position, l);
  assert.equal(owner("F stp/sc - bot"), "russia");
  assert.equal(owner("build A lvp"), "england", "a build: the centre's owner");
  assert.equal(owner("waive"), null);
  // No header at all, then a header above another power's unit: each line to its unit's owner.
  const split = splitByPower("A mun - ruh\nEngland:\nF lon - nth\nA mun H\nwaive", powers, owner);
  assert.deepEqual(split.orders, {
    germany: ["A mun - ruh", "A mun H"],
    england: ["F lon - nth", "waive"],
  });
  assert.ok(split.lines.every((l) => l.kind === "power" || l.power !== null));
  const lost = splitByPower("A kie - ber", powers, owner).lines[0]!;
  assert.equal(lost.power, null, "no unit there and no header: the page asks for the power");
  assert.match(lost.message ?? "", /name the power first/);
});

describe("the supply centres and the missed orders the page shows", () => {
  test("each power's centres, units and the builds or removals due", () => {
    const rows = centreRows({
      variant: "classical",
      phase: "W1901A",
      units: { england: ["F nth", "A yor", "F nwg"], france: ["A bur", "F mao", "A spa"] },
      centers: { england: ["lon", "edi", "lvp", "nwy"], france: ["par", "mar"], italy: [] },
    });
    assert.deepEqual(
      rows.map((r) => [r.power, r.centres, r.units, r.due, dueText(r.due)]),
      [
        ["england", 4, 3, 1, "+1 build"],
        ["france", 2, 3, -1, "−1 removal"],
      ],
      "most centres first; a power with nothing left is not listed",
    );
    assert.deepEqual(
      centreRows({ variant: "x", phase: "1", units: { a: ["A x"] } }),
      [],
      "a position without centres (a fogged report) has no table",
    );
  });

  test("NMR: the silent powers, not a power that ordered some units or had nothing to do", () => {
    const out = (text: string | null, order: string) => ({ text, order, result: "succeeds" });
    const movement = missedPowers({
      phase: "S1901M",
      orders: { england: ["F lon - nth"] },
      results: {
        england: [out("F lon - nth", "F lon - nth"), out(null, "A lvp H")],
        france: [out(null, "A par H")],
      },
      civilDisorder: ["france"],
    });
    assert.deepEqual([...movement], ["france"], "England ordered one unit: not missed");
    const before = {
      france: [{ unit: "A bur", from: "mun", retreats: ["gas"] }],
      italy: [{ unit: "A tyr", from: "ven", retreats: [] }],
    };
    const retreat = missedPowers(
      {
        phase: "F1901R",
        orders: {},
        results: { france: [out(null, "A bur D")], italy: [out(null, "A tyr D")] },
      },
      before,
    );
    assert.deepEqual(
      [...retreat],
      ["france"],
      "France could retreat and sent nothing; Italy's unit had nowhere to go",
    );
    const adjust = missedPowers({
      phase: "W1901A",
      orders: { germany: ["build A ber"] },
      results: { turkey: [out(null, "remove A smy")], germany: [out("build A ber", "A ber B")] },
    });
    assert.deepEqual([...adjust], ["turkey"], "Turkey's removal was chosen by the rules");
    assert.match(missedWords("S1901M"), /no orders received: units held/);
  });
});

describe("the centres chart and press as conversations", () => {
  const at = (phase: string, centers: Record<string, string[]>) => ({
    variant: "classical",
    phase,
    units: {},
    centers,
  });
  const ph = (phase: string, next: ReturnType<typeof at>) => ({
    phase,
    orders: {},
    results: {},
    position: next,
  });

  test("centres per power: the start, then each year's last position played", () => {
    const hist = centreHistory({
      start: at("S1901M", { england: ["lon", "edi", "lvp"], france: ["par", "mar", "bre"] }),
      phases: [
        ph(
          "S1901M",
          at("F1901M", { england: ["lon", "edi", "lvp"], france: ["par", "mar", "bre"] }),
        ),
        ph(
          "F1901M",
          at("W1901A", {
            england: ["lon", "edi", "lvp", "nwy"],
            france: ["par", "mar", "bre", "spa"],
          }),
        ),
        ph(
          "W1901A",
          at("S1902M", {
            england: ["lon", "edi", "lvp", "nwy"],
            france: ["par", "mar", "bre", "spa"],
          }),
        ),
        ph(
          "S1902M",
          at("F1902M", {
            england: ["lon", "edi", "lvp", "nwy"],
            france: ["par", "mar", "bre", "spa"],
          }),
        ),
        ph(
          "F1902M",
          at("S1903M", {
            england: ["lon", "edi", "lvp", "nwy", "bre"],
            france: ["par", "mar", "spa"],
            italy: [],
          }),
        ),
      ],
    });
    assert.deepEqual(hist.labels, ["start", "1901", "1902"], "one point a year after the start");
    assert.deepEqual(
      hist.series,
      [
        { power: "england", counts: [3, 4, 5] },
        { power: "france", counts: [3, 4, 3] },
      ],
      "most centres now first; a power that never held one is left out",
    );
    assert.deepEqual(
      centreHistory({ start: { variant: "x", phase: "1", units: {} }, phases: [] }).series,
      [],
      "a fogged record without centres has no chart",
    );
  });

  test("press threads: public, per correspondent or group, anonymous; unread per viewer", () => {
    let id = 0;
    const msg = (
      from: string | null,
      to: "all" | string[],
      extra: { yours?: boolean; kind?: string } = {},
    ) => ({
      id: ++id,
      phase: "S1901M",
      kind: extra.kind ?? (from === null ? "grey" : "white"),
      from,
      fromName: from ?? "Anonymous",
      to,
      body: `message ${id}`,
      at: "2026-01-01T00:00:00Z",
      ...(extra.yours ? { yours: true } : {}),
    });
    const items = [
      msg("france", "all"), // 1
      msg("england", ["france"], { yours: true }), // 2: England to France
      msg("france", ["england"]), // 3: France answers
      msg(null, ["england", "germany"]), // 4: grey, author unknown to England
      msg("germany", ["england", "russia"]), // 5: a group
      msg("england", ["france"], { yours: true, kind: "grey" }), // 6: England's own grey press
    ];
    const threads = pressThreads(items, ["england"], { france: 3 });
    assert.deepEqual(
      threads.map((t) => [t.key, t.to, t.items.map((m) => m.id), t.unread]),
      [
        ["all", "all", [1], 1],
        ["france", ["france"], [2, 3, 6], 0],
        ["germany,russia", ["germany", "russia"], [5], 1],
        ["anonymous", [], [4], 1],
      ],
      "the public thread first, then the latest; read up to 3 with France, one's own never unread",
    );
    // The GM reads every author, grey press's too.
    const gm = pressThreads(
      items.map((m) =>
        m.from === null ? { ...m, from: "turkey", yours: false } : { ...m, yours: false },
      ),
      [],
    );
    assert.deepEqual(
      gm.map((t) => [t.key, t.unread]),
      [
        ["all", 1],
        ["england,france", 3],
        ["england,germany,russia", 1],
        ["england,germany,turkey", 1],
      ],
      "the GM, who has no power, sees each group whole, and no anonymous thread",
    );
  });
});
