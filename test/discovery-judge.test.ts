import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Judge, type User } from "../src/judge/judge.ts";
import { configureMailGame, setMailAddress } from "../src/judge/mail.ts";
import { Clock, user } from "../src/judge/testing.ts";
import { Notifier } from "../src/mail/notify.ts";
import { Postman } from "../src/mail/postman.ts";
import { gatewayOf, rawMail } from "../src/mail/testing.ts";
import { startServer } from "../src/server/server.ts";
import { Api } from "../src/server/testing.ts";
import { STORE_KINDS, testStore } from "../src/store/testing.ts";
import { areaDistances, areaOf } from "../src/variants/discovery/areas.ts";
import { discoveryOpeningReport, playDiscoveryJson } from "../src/variants/discovery/host.ts";
import { discovery, discoveryMap } from "../src/variants/discovery/index.ts";
import { areaName, squareName } from "../src/variants/discovery/names.ts";

/*
 * Age of Discovery (seed 004, appendix C) in the judge, through the HTTP API: a game created
 * with a player count (the map generated from the game's seed for it), joined, command sets
 * with spies named by the player's own XXYY read in that player's frame, adjudicated at the
 * deadline, and each player served its own fogged report. The game's point is that players
 * cannot line their maps up except through shared area ids: no answer to a player, observer
 * or anonymous caller may carry the whole map, the seed that regenerates it, or another
 * player's names; only the GM reads the whole map.
 */

type J = Record<string, unknown>;

const SEED = 918273645;
const PLAYERS = 12;
const SECRET = "SECRETNOTEZK";
const VC_MARKER = "VC 37 1234";
/** Keys of the moderator's map data; none may reach a player. */
const MAP_KEYS = [
  '"moderatorMap"',
  '"squares"',
  '"adjacency"',
  '"outline"',
  '"offsets"',
  '"known"',
  '"grid"',
];

/** A report's body lines: area id and its name (XXYY, or ???? for an area not seen). */
function bodyNames(report: string): { id: number; name: string }[] {
  const body = report.split("RELATIONS")[0]!.split(/\n/).slice(1);
  const out: { id: number; name: string }[] = [];
  for (const line of body) {
    const m = /^\s*(\d{1,3}) (\d{4}|\?\?\?\?)(\s|$)/.exec(line);
    if (m) out.push({ id: Number(m[1]), name: m[2]! });
  }
  return out;
}

/** The area ids drawn on a report's map of known areas. */
function mapIds(report: string): Set<number> {
  const map = report.split("MAP OF KNOWN AREAS")[1] ?? "";
  const ids = new Set<number>();
  for (const line of map.split("\n")) {
    if (!/^\d\d\s+\|/.test(line)) continue;
    for (const cell of line.split("|").slice(1, -1)) {
      const m = /^\s*(\d{1,3})(\s+\d{1,3})*\s*$/.exec(cell);
      if (m) ids.add(Number(m[1]));
    }
  }
  return ids;
}

const present = (position: J, p: number): number[] => {
  const out = new Set<number>();
  for (const [a, o] of Object.entries(position.owners as Record<string, number>))
    if (o === p) out.add(Number(a));
  for (const u of (position.units as Record<string, string[]>)[String(p)] ?? [])
    out.add(Number(u.split(" ")[1]));
  return [...out];
};

describe("Age of Discovery in the judge: creation", () => {
  test("player counts: default 9, 12, the lobby's scenario, and clear refusals", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const judge = new Judge({ store: ts.store, now: new Clock().now });
    const server = await startServer({ judge, port: 0, host: "127.0.0.1", tickMs: 1e9 });
    t.after(() => server.close());
    const api = new Api(`http://127.0.0.1:${server.port}`);
    const gm = await judge.accounts.register("gm-counts", "correct horse battery");
    const nine = await api.ok<J>(
      "POST",
      "/api/games",
      { name: "D9", variant: "discovery", seed: 5 },
      gm.token,
    );
    assert.equal(nine.seats, 9, "nine seats by default");
    assert.deepEqual(
      (nine.seatList as { name: string }[]).map((s) => s.name),
      [
        "1-Avalon",
        "2-Brigantia",
        "3-Calydon",
        "4-Dalmora",
        "5-Eldoria",
        "6-Falkmark",
        "7-Galdor",
        "8-Hespera",
        "9-Istria",
      ],
      "seats named by number",
    );
    const twelve = await api.ok<J>(
      "POST",
      "/api/games",
      { name: "D12", variant: "discovery", players: 12, seed: 6 },
      gm.token,
    );
    assert.equal(twelve.seats, 12, "twelve seats when asked");
    const lobby = await api.ok<J>(
      "POST",
      "/api/games",
      { name: "D14", variant: "discovery", scenario: "14", seed: 7 },
      gm.token,
    );
    assert.equal(lobby.seats, 14, "the lobby's scenario is the player count");
    for (const [body, pattern, what] of [
      [{ players: 8 }, /9 to 20 players/, "eight players"],
      [{ players: 21 }, /9 to 20 players/, "twenty-one players"],
      [{ players: 0 }, /9 to 20 players/, "no players"],
      [{ players: 12, scenario: "13" }, /disagree/, "players and scenario disagreeing"],
      [{ scenario: "big" }, /not a player count/, "a scenario that is not a count"],
      [{ players: 12.5 }, /players/, "a fraction"],
    ] as const) {
      const r = await api.call(
        "POST",
        "/api/games",
        { name: "bad", variant: "discovery", ...body },
        gm.token,
      );
      assert.equal(r.status, 400, `${what} is refused`);
      assert.match(String((r.body as J).error), pattern, `${what}: the reason says what is right`);
    }
    const g12 = await api.call(
      "POST",
      "/api/games",
      { name: "bad", variant: "global", players: 12 },
      gm.token,
    );
    assert.equal(g12.status, 400, "Global Diplomacy has eleven players");
    assert.match(String((g12.body as J).error), /11 players/, "and says so");
    const classical = await api.call(
      "POST",
      "/api/games",
      { name: "bad", variant: "classical", players: 7 },
      gm.token,
    );
    assert.equal(classical.status, 400, "classical games take scenario, not players");
    assert.match(String((classical.body as J).error), /scenario/, "and says so");

    // The variant list names both families, with a note, beside the variants.
    const variants = await api.ok<J[]>("GET", "/api/variants");
    const ids = variants.map((v) => v.id);
    for (const id of ["classical", "europe1935", "global", "discovery"])
      assert.ok(ids.includes(id), `${id} is listed`);
    const disc = variants.find((v) => v.id === "discovery")!;
    assert.match(String(disc.family), /different game family/, "marked as another family");
    assert.deepEqual(
      (disc.scenarios as { id: string }[]).map((s) => s.id),
      Array.from({ length: 12 }, (_, i) => String(9 + i)),
      "a scenario per player count",
    );
    assert.equal(
      variants.find((v) => v.id === "classical")!.family,
      undefined,
      "variants are not marked",
    );
  });
});

for (const kind of STORE_KINDS) {
  describe(`Age of Discovery in the judge (${kind})`, () => {
    test("12 players: XXYY spies, the deadline, fogged reports, no leaks", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const clock = new Clock();
      const judge = new Judge({ store: ts.store, now: clock.now });
      const server = await startServer({ judge, port: 0, host: "127.0.0.1", tickMs: 1e9 });
      t.after(() => server.close());
      const api = new Api(`http://127.0.0.1:${server.port}`);
      const { map: dmap, global: gmap } = discoveryMap(SEED, PLAYERS);
      const gm = await judge.accounts.register(`dgm-${kind}`, "correct horse battery");
      const outsider = await judge.accounts.register(`dout-${kind}`, "correct horse battery");
      const game = await api.ok<J>(
        "POST",
        "/api/games",
        {
          name: "Discovery",
          variant: "discovery",
          players: PLAYERS,
          seed: SEED,
          options: { deadlines: { unit: "minutes", movement: 10 } },
        },
        gm.token,
      );
      const id = game.id as string;
      assert.equal(game.variant, "discovery", "the game's variant");
      assert.equal(game.seats, PLAYERS, "a seat per player");
      const invites = game.invites as { code: string; role: string }[];
      const code = invites.find((i) => i.role === "player")!.code;
      const observerCode = invites.find((i) => i.role === "observer")!.code;
      const tokens: Record<number, string> = {};
      for (let p = 1; p <= PLAYERS; p++) {
        const u = await judge.accounts.register(`d${p}-${kind}`, "correct horse battery");
        tokens[p] = u.token;
        const by = p === 2 ? { power: "Brigantia" } : { power: String(p) };
        const view = await api.ok<J>("POST", `/api/invites/${code}`, by, u.token);
        assert.deepEqual((view.you as J).powers, [String(p)], `player ${p} sits at ${p}`);
      }
      const obs = await judge.accounts.register(`dobs-${kind}`, "correct horse battery");
      await api.ok("POST", `/api/invites/${observerCode}`, {}, obs.token);
      const started = await api.ok<J>("GET", `/api/games/${id}`, undefined, gm.token);
      assert.equal(started.status, "active", "started when the last seat is taken");
      assert.equal(started.phase, "T1", "turn 1 is open");

      // The GM's whole map; nobody else's.
      assert.equal(
        (started.family as J).moderatorMap,
        `/api/games/${id}/moderator-map`,
        "the GM's view says where the whole map is",
      );
      const whole = await api.ok<{ players: number; map: { areas: J[]; grid: J } }>(
        "GET",
        `/api/games/${id}/moderator-map`,
        undefined,
        gm.token,
      );
      assert.equal(whole.players, PLAYERS, "the map's player count");
      assert.equal(whole.map.areas.length, dmap.areas.length, "every area of the generated map");
      assert.equal((whole.map.grid as J).width, dmap.width, "the grid geometry");
      const turnsView = await api.ok<{ start: J }>(
        "GET",
        `/api/games/${id}/turns`,
        undefined,
        gm.token,
      );
      const start = turnsView.start;
      assert.deepEqual(start.map, { seed: SEED, players: PLAYERS }, "the map is the game's seed's");
      assert.deepEqual(
        start.units,
        discovery.start(SEED, PLAYERS).units,
        "the opening position is the family's for this seed and count",
      );

      // Opening reports: each player's own, in its own names.
      const opening: Record<number, string> = {};
      for (let p = 1; p <= PLAYERS; p++) {
        const r = await api.ok<J>("GET", `/api/games/${id}/report`, undefined, tokens[p]);
        opening[p] = String(r.report);
        assert.equal(r.turn, 0, "before turn 1: the opening report");
        assert.equal(
          opening[p],
          discoveryOpeningReport(start, p, id),
          `player ${p}'s opening report is its own`,
        );
        assert.match(opening[p]!, new RegExp(`Great Power ${p}-${gmap.power(p)!.name}`), "header");
      }
      assert.equal(new Set(Object.values(opening)).size, PLAYERS, "every opening report differs");

      // Player 3: spies by its own XXYY (in range, and out of range), an area id, a bad square.
      const known3 = present(start, 3);
      const dist = areaDistances(dmap, known3);
      const near = [...dist].filter(([, d]) => d === 2).map(([a]) => a)[0]!;
      const nearId = [...dist].filter(([, d]) => d === 2).map(([a]) => a)[1]!;
      const far = [...dist].filter(([, d]) => d >= 5).map(([a]) => a)[0]!;
      assert.ok(near && nearId && far, "targets near and far");
      // A square of `near` other than its anchor where it has one: any square names the area.
      const nearSquare = areaOf(dmap, near).squares.at(-1)!;
      const nearXY = squareName(dmap, 3, nearSquare);
      const farXY = areaName(dmap, 3, far);
      assert.notEqual(squareName(dmap, 4, nearSquare), nearXY, "player 4 names it otherwise");
      const sent = await api.ok<J>(
        "POST",
        `/api/games/${id}/orders`,
        {
          orders: [`SP ${nearXY} ${nearId}`, `SP ${farXY}`, "SP 9999", `ME 4 ${SECRET}`, VC_MARKER],
        },
        tokens[3],
      );
      const diags = sent.diagnostics as { ok: boolean; text: string; message?: string }[];
      assert.deepEqual(
        diags.map((d) => d.ok),
        [true, true, false, true, true],
        `a verdict per line: ${JSON.stringify(diags)}`,
      );
      assert.equal(diags[0]!.text, `SP ${nearXY} ${nearId}`, "the line as the player wrote it");
      assert.match(diags[2]!.message ?? "", /no column 99/, "why 9999 is not a square");
      // Player 5: whether a square is an area id is not told at submission (else a player
      // could locate any area id on its own map); one target written twice is refused.
      const home5 = present(start, 5)[0]!;
      const far5 = [...areaDistances(dmap, present(start, 5))].find(([, d]) => d >= 6)![0];
      const probe = await api.ok<J>(
        "POST",
        `/api/games/${id}/orders`,
        {
          orders: [
            `SP ${far5} ${areaName(dmap, 5, far5)}`,
            `SP ${far5 + 1} ${areaName(dmap, 5, far5)}`,
            `SP ${home5} ${home5}`,
            "SP 1 2 3 4 5 6 7 8 9",
          ],
        },
        tokens[5],
      );
      const pd = probe.diagnostics as { ok: boolean; message?: string }[];
      assert.equal(pd[0]!.ok, pd[1]!.ok, "a square and its area id read as any two targets");
      assert.equal(pd[2]!.ok, false, "one target written twice is refused");
      assert.equal(pd[3]!.ok, false, "more than twelve spies in a turn are refused");
      assert.match(pd[3]!.message ?? "", /only 12 spies a turn; 4 already sent/, "and why");
      await api.ok("POST", `/api/games/${id}/orders`, { orders: [`SP ${home5}`] }, tokens[5]);

      // Every route, as every other caller: no whole map, no seed, no other frame, no secrets.
      const paths = [
        `/api/games/${id}`,
        `/api/games/${id}/orders`,
        `/api/games/${id}/report`,
        `/api/games/${id}/report?power=3`,
        `/api/games/${id}/report?turn=1`,
        `/api/games/${id}/events`,
        `/api/games/${id}/turns`,
        `/api/games/${id}/moderator-map`,
        `/api/games/${id}/phases`,
        `/api/games/${id}/record`,
        `/api/games/${id}/legal`,
        `/api/games/${id}/votes`,
        `/api/games/${id}/press`,
        `/api/games/${id}/schedule`,
        `/api/games/${id}/committee`,
        "/api/games",
        "/api/my/games",
        "/api/variants",
        "/api/variants/discovery/start",
        "/api/variants/discovery/geometry",
      ];
      const actors = (): Record<string, string> => ({
        ...Object.fromEntries(Object.entries(tokens).map(([p, tk]) => [`player${p}`, tk])),
        observer: obs.token,
        outsider: outsider.token,
        anon: "",
      });
      const sweep = async (label: string, secrets: Record<string, readonly string[]>) => {
        for (const [who, token] of Object.entries(actors())) {
          for (const path of paths) {
            const r = await api.call("GET", path, undefined, token || undefined);
            assert.ok(r.status < 500, `${label}: ${path} as ${who}: ${r.status}`);
            const text = JSON.stringify(r.body);
            assert.ok(!text.includes(String(SEED)), `${label}: the seed reached ${who} by ${path}`);
            for (const k of MAP_KEYS)
              assert.ok(!text.includes(k), `${label}: map data ${k} reached ${who} by ${path}`);
            for (const [m, allowed] of Object.entries(secrets))
              if (!allowed.includes(who))
                assert.ok(!text.includes(m), `${label}: ${m} leaked to ${who} by ${path}`);
          }
        }
      };
      await sweep("before the turn", {
        [SECRET]: ["player3"],
        [VC_MARKER]: ["player3"],
        [`SP ${nearXY} ${nearId}`]: ["player3"],
      });
      for (const path of [`/api/games/${id}/moderator-map`, `/api/games/${id}/turns`]) {
        for (const [who, token] of Object.entries(actors())) {
          const r = await api.call("GET", path, undefined, token || undefined);
          assert.equal(r.status, token ? 403 : 401, `${path} is the GM's only, not ${who}'s`);
        }
      }

      // The deadline: adjudicated once, with the discovery rules on the game's map.
      assert.equal(await judge.adjudication.tick(), 0, "nothing is due before the deadline");
      clock.t = Date.parse(started.deadline as string) + 1;
      assert.equal(await judge.adjudication.tick(), 1, "turn 1 is adjudicated at its deadline");
      const after = await api.ok<J>("GET", `/api/games/${id}`, undefined, tokens[3]);
      assert.equal(after.phase, "T2", "turn 2 is open");
      const turns = await api.ok<{ turns: J[] }>(
        "GET",
        `/api/games/${id}/turns`,
        undefined,
        gm.token,
      );
      const t1 = turns.turns[0]!;
      const position = t1.position as J;
      const rules = (await api.ok<J>("GET", `/api/games/${id}`, undefined, gm.token)).rules;
      const again = discovery.adjudicateJson({ ...start, orders: t1.orders, rules });
      assert.deepEqual(again.next, position, "the stored turn replays from its inputs");
      const replayed = playDiscoveryJson(
        start,
        rules,
        t1.orders as Record<string, string[]>,
        id,
      ).reports;
      const known = position.known as Record<string, number[]>;
      const spies = (t1.result as { spies: Record<string, number[]> }).spies;
      assert.ok(spies["3"]?.includes(near), "the spy named by XXYY went to its area");
      assert.ok(spies["3"]?.includes(nearId), "the spy named by id went");
      assert.ok(!spies["3"]?.includes(far), "the spy out of range did not");

      const reports: Record<number, string> = {};
      for (let p = 1; p <= PLAYERS; p++) {
        const r = await api.ok<J>("GET", `/api/games/${id}/report`, undefined, tokens[p]);
        const report = String(r.report);
        reports[p] = report;
        assert.equal(r.turn, 1, "the last turn's report");
        assert.equal(report, replayed[String(p)], `player ${p} is served its own report`);
        // What it knows: where it was, before and after, and where its spies went; no more.
        const expectKnown = [
          ...new Set([...present(start, p), ...present(position, p), ...(spies[String(p)] ?? [])]),
        ].sort((a, b) => a - b);
        assert.deepEqual(known[String(p)], expectKnown, `player ${p} knows what it visited`);
        assert.deepEqual(
          [...mapIds(report)].sort((a, b) => a - b),
          expectKnown,
          `player ${p}'s map draws exactly the areas it knows`,
        );
        // Names in the body: its own XXYY, only for areas known or next to where it is.
        const seen = new Set(expectKnown);
        for (const a of [...present(start, p), ...present(position, p)])
          for (const n of areaOf(dmap, a).neighbours) seen.add(n);
        for (const { id: a, name } of bodyNames(report)) {
          if (name === "????") continue;
          assert.ok(seen.has(a), `player ${p}'s report names area ${a}, which it has not seen`);
          assert.equal(name, areaName(dmap, p, a), `area ${a} in player ${p}'s own names`);
          for (let q = 1; q <= PLAYERS; q++)
            if (q !== p)
              assert.notEqual(name, areaName(dmap, q, a), `area ${a}: not player ${q}'s name`);
        }
        assert.ok(bodyNames(report).length > 0, "the body lists areas");
      }
      assert.equal(new Set(Object.values(reports)).size, PLAYERS, "every report differs");
      assert.ok(reports[3]!.includes(`SP ${nearXY} ${nearId}`), "the spy line as written");
      assert.match(
        reports[3]!,
        new RegExp(`${farXY} is more than 2 areas`),
        "the far spy refused by its square",
      );
      const farLine = reports[3]!.split("\n").find((l) => l.includes(`SP ${farXY}`)) ?? "";
      assert.ok(!new RegExp(`\\b${far}\\b`).test(farLine), "without telling the square's area");
      assert.ok(reports[4]!.includes(SECRET), "player 4 receives the message");
      const other = await api.call("GET", `/api/games/${id}/report?power=4`, undefined, tokens[3]);
      assert.equal(other.status, 403, "another player's report is refused");
      const gmReads = await api.ok<J>(
        "GET",
        `/api/games/${id}/report?power=3`,
        undefined,
        gm.token,
      );
      assert.equal(gmReads.report, reports[3], "the GM reads any player's report");
      await sweep("after the turn", {
        [SECRET]: ["player3", "player4"],
        [VC_MARKER]: ["player3"],
        [`SP ${nearXY} ${nearId}`]: ["player3"],
        [`SP ${farXY}`]: ["player3"],
      });
    });
  });
}

describe("Age of Discovery in the judge: mail", () => {
  test("EMGTURN read in the player's own frame; each player mailed its own report", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const clock = new Clock();
    const judge = new Judge({ store: ts.store, now: clock.now });
    const gm = await user(judge, "gm");
    const game = await judge.games.createGame(gm, {
      name: "Mail discovery",
      variant: "discovery",
      seed: 77,
      players: 9,
    });
    const address = "ad001@judge.test";
    await configureMailGame(judge, gm, game.id, { abbreviation: "AD001", address });
    const code = game.invites!.find((i) => i.role === "player")!.code;
    const addressOf = (p: number) => `realm${p}@players.test`;
    const players: Record<number, User> = {};
    const secrets: Record<number, string> = {};
    for (let p = 1; p <= 9; p++) {
      players[p] = await user(judge, `r${p}`);
      secrets[p] = (await setMailAddress(judge, players[p]!, { address: addressOf(p) })).secret;
      await judge.games.acceptInvite(players[p]!, code, { power: String(p) });
    }
    const gw = gatewayOf(judge);
    const emg = async (from: number, subject: string, lines: string[]) => {
      const r = await gw.receive(
        rawMail({
          from: addressOf(from),
          to: address,
          subject,
          text: ["EMGSTART", ...lines, "EMGEND"].join("\n"),
        }),
      );
      return { accepted: r.accepted, text: r.replies[0]?.text ?? "" };
    };
    const { map: dmap } = discoveryMap(77, 9);
    const start = discovery.start(77, 9);
    const home = present(start, 3)[0]!;
    const mine = areaName(dmap, 3, home);
    const bad = await emg(3, "EMGTURN", [secrets[3]!, "AD001", "SP 9999"]);
    assert.equal(bad.accepted, false, "a square off the map refuses the set");
    assert.match(bad.text, /SP 9999 {2}-> INVALID: no column 99/, "with the reason");
    const ok = await emg(3, "EMGTURN", [secrets[3]!, "AD001", `SP ${mine}`]);
    assert.equal(ok.accepted, true, `a spy named by the player's own XXYY: ${ok.text}`);
    const report = await emg(3, "EMGREPORT", [secrets[3]!, "AD001"]);
    // The accounting section (seed 004 §8), then the opening report under the game's id.
    const at = report.text.indexOf("AGE OF DISCOVERY");
    assert.match(
      report.text.slice(0, at),
      new RegExp(`^ACCOUNTING\n {2}Account Id {2}${secrets[3]!} `),
    );
    assert.equal(
      report.text.slice(at).trimEnd(),
      discoveryOpeningReport(start, 3, "AD001").trimEnd(),
      "own",
    );
    clock.t = Date.parse((await judge.views.gameView(gm, game.id)).deadline!) + 1;
    assert.equal(await judge.adjudication.tick(), 1, "turn 1 adjudicated");
    const postman = new Postman({ store: ts.store, now: clock.now, folder: null });
    await new Notifier({ judge, postman }).tick();
    const outbox = await ts.store.db.selectFrom("outbox").selectAll().execute();
    const results = outbox.filter((m) => m.kind === "results");
    assert.equal(results.length, 9, "a report to each player");
    for (let p = 1; p <= 9; p++) {
      const m = results.find((x) => x.to_addr === addressOf(p));
      assert.ok(m, `player ${p} is mailed`);
      assert.match(m.body, new RegExp(`Great Power ${p}-`), `player ${p}'s own report`);
      assert.match(m.body, /MAP OF KNOWN AREAS/, "with its map");
      assert.equal(m.body.includes(`SP ${mine}`), p === 3, `player 3's spy line (player ${p})`);
      assert.match(m.body, /docs\/discovery\.md/, "the footer points at the game's docs");
    }
  });

  test("a GM correction plays the turn again in the player's frame and re-issues its reports", async (t) => {
    const ts = await testStore(t, "sqlite");
    if (!ts) return;
    const clock = new Clock();
    const judge = new Judge({ store: ts.store, now: clock.now });
    const gm = await user(judge, "gm");
    const game = await judge.games.createGame(gm, {
      name: "D",
      variant: "discovery",
      seed: 77,
      players: 9,
    });
    const code = game.invites!.find((i) => i.role === "player")!.code;
    const players: User[] = [];
    for (let p = 1; p <= 9; p++) {
      players.push(await user(judge, `c${p}`));
      await judge.games.acceptInvite(players[p - 1]!, code, { power: String(p) });
    }
    const { map: dmap } = discoveryMap(77, 9);
    const mine = areaName(dmap, 3, present(discovery.start(77, 9), 3)[0]!);
    clock.t = Date.parse((await judge.views.gameView(gm, game.id)).deadline!) + 1;
    assert.equal(await judge.adjudication.tick(), 1, "turn 1 adjudicated with nobody's commands");
    const before = await judge.views.report(players[2]!, game.id, {});
    assert.ok(!before.report.includes(`SP ${mine}`), "no spy line before the correction");
    // Player 3's spy, named in its own frame, reached the GM in time: corrected by realm name.
    const realm = game.seatList[2]!.name.split("-")[1]!;
    await judge.gm.correct(gm, game.id, { orders: { [realm]: [`SP ${mine}`] }, reason: "in time" });
    const after = await judge.views.report(players[2]!, game.id, {});
    assert.equal(after.turn, 1, "the report of turn 1");
    assert.ok(after.report.includes(`SP ${mine}`), `the corrected spy line: ${after.report}`);
    const other = await judge.views.report(players[3]!, game.id, {});
    assert.ok(!other.report.includes(`SP ${mine}`), "another player's report does not show it");
    const turns = (await judge.views.familyTurns(gm, game.id)).turns;
    assert.equal(turns.length, 1, "still one turn");
    assert.deepEqual(turns[0]!.missed.includes("3"), false, "player 3 did not miss the turn");
    assert.equal((await judge.views.gameView(gm, game.id)).phase, "T2", "T2 still open");
  });
});
