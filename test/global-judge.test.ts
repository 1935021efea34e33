import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Judge } from "../src/judge/judge.ts";
import { Clock } from "../src/judge/testing.ts";
import { startServer } from "../src/server/server.ts";
import { Api } from "../src/server/testing.ts";
import { STORE_KINDS, testStore } from "../src/store/testing.ts";
import { global } from "../src/variants/global/index.ts";

/*
 * Global Diplomacy (seed 004) in the judge, through the HTTP API: a game created, joined by
 * eleven players, command sets sent (a new one replacing the last), adjudicated at the
 * deadline with the family's adjudicator and the game's seed, each turn stored, and each
 * player served its own report only. Secrets (marker texts in commands) must reach nobody
 * but their power, the GM, and (after the turn) whoever the report shows them to.
 */

type J = Record<string, unknown>;

const FIRST = "FIRSTDRAFTXQ";
const SECRET = "SECRETNOTEZK";
const MOVE_MARKER = "VC 33 444";

for (const kind of STORE_KINDS) {
  describe(`Global Diplomacy in the judge (${kind})`, () => {
    test("create, join 11 seats, submit, resolve at the deadline, reports, hiding", async (t) => {
      const ts = await testStore(t, kind);
      if (!ts) return;
      const clock = new Clock();
      const judge = new Judge({ store: ts.store, now: clock.now });
      const server = await startServer({ judge, port: 0, host: "127.0.0.1", tickMs: 1e9 });
      t.after(() => server.close());
      const api = new Api(`http://127.0.0.1:${server.port}`);
      const gm = await judge.accounts.register(`gm-${kind}`, "correct horse battery");
      const outsider = await judge.accounts.register(`out-${kind}`, "correct horse battery");
      const game = await api.ok<J>(
        "POST",
        "/api/games",
        {
          name: "World",
          variant: "global",
          seed: 4242,
          options: { deadlines: { unit: "minutes", movement: 10 } },
        },
        gm.token,
      );
      const id = game.id as string;
      assert.equal(game.seats, 11, "eleven seats, one per power");
      assert.equal(game.variant, "global", "the game's variant");
      const code = (game.invites as { code: string; role: string }[]).find(
        (i) => i.role === "player",
      )!.code;
      const observerCode = (game.invites as { code: string; role: string }[]).find(
        (i) => i.role === "observer",
      )!.code;
      // A bad power names the powers; a discovery game of too few players is refused, with a
      // message (test/discovery-judge.test.ts hosts discovery games).
      const bad = await api.call("POST", `/api/invites/${code}`, { power: "Atlantis" }, gm.token);
      assert.ok(
        bad.status === 409 || bad.status === 400,
        `the GM cannot take a seat: ${bad.status}`,
      );
      const disc = await api.call(
        "POST",
        "/api/games",
        { name: "x", variant: "discovery", players: 8 },
        gm.token,
      );
      assert.equal(disc.status, 400, "discovery is for 9 to 20 players");
      assert.match(String((disc.body as J).error), /9 to 20 players/, "with a reason");
      const tokens: Record<string, string> = {};
      for (let p = 1; p <= 11; p++) {
        const u = await judge.accounts.register(`p${p}-${kind}`, "correct horse battery");
        tokens[p] = u.token;
        const view = await api.ok<J>("POST", `/api/invites/${code}`, { power: String(p) }, u.token);
        assert.deepEqual((view.you as J).powers, [String(p)], `player ${p} sits at power ${p}`);
      }
      const obs = await judge.accounts.register(`obs-${kind}`, "correct horse battery");
      await api.ok("POST", `/api/invites/${observerCode}`, {}, obs.token);
      const started = await api.ok<J>("GET", `/api/games/${id}`, undefined, gm.token);
      assert.equal(started.status, "active", "the game starts when the last seat is taken");
      assert.equal(started.phase, "T1", "turn 1 is open");
      assert.equal(
        Object.keys((started.position as { units: J }).units).length,
        11,
        "the GM sees every power's units",
      );
      const asFrance = await api.ok<J>("GET", `/api/games/${id}`, undefined, tokens[4]);
      assert.deepEqual(
        Object.keys((asFrance.position as { units: J }).units),
        ["4"],
        "a player sees only its own units in the game view",
      );
      assert.equal((asFrance.family as J).report, `/api/games/${id}/report`, "where reports are");

      // The opening report: one's own, nobody else's.
      const opening = await api.ok<J>("GET", `/api/games/${id}/report`, undefined, tokens[3]);
      assert.equal(opening.turn, 0, "before turn 1: the opening report");
      assert.match(String(opening.report), /Great Power 3-England/, "England's own report");
      for (const [who, token, status] of [
        ["France", tokens[4], 403],
        ["the observer", obs.token, 403],
        ["an outsider", outsider.token, 403],
        ["nobody", undefined, 401],
      ] as const) {
        const r = await api.call("GET", `/api/games/${id}/report?power=3`, undefined, token);
        assert.equal(r.status, status, `${who} may not read England's report`);
      }
      const gmNeedsPower = await api.call("GET", `/api/games/${id}/report`, undefined, gm.token);
      assert.equal(gmNeedsPower.status, 400, "the GM says whose report");
      const gmReads = await api.ok<J>(
        "GET",
        `/api/games/${id}/report?power=England`,
        undefined,
        gm.token,
      );
      assert.match(String(gmReads.report), /3-England/, "the GM reads England's report");

      // England's commands: a first set, then a second that replaces it whole.
      const first = await api.ok<J>(
        "POST",
        `/api/games/${id}/orders`,
        { orders: [`ME 4 ${FIRST}`] },
        tokens[3],
      );
      assert.equal((first.diagnostics as J[])[0]!.ok, true, "ME is accepted");
      const second = await api.ok<J>(
        "POST",
        `/api/games/${id}/orders`,
        { orders: `ME 4 ${SECRET}\n${MOVE_MARKER}\nMO 999 1\nXX 1 2`, phase: "T1" },
        tokens[3],
      );
      const diags = second.diagnostics as { ok: boolean; message?: string; text: string }[];
      assert.deepEqual(
        diags.map((d) => d.ok),
        [true, true, false, false],
        `a verdict per line: ${JSON.stringify(diags)}`,
      );
      assert.match(diags[3]!.message ?? "", /not a command/, "why XX is refused");
      const wrongTurn = await api.call(
        "POST",
        `/api/games/${id}/orders`,
        { orders: ["VC 20 400"], phase: "T7" },
        tokens[3],
      );
      assert.equal(wrongTurn.status, 409, "commands for another turn are refused");
      const asObserver = await api.call(
        "POST",
        `/api/games/${id}/orders`,
        { orders: ["VC 20 400"] },
        obs.token,
      );
      assert.equal(asObserver.status, 403, "an observer sends no commands");
      // France sends something too.
      await api.ok("POST", `/api/games/${id}/orders`, { orders: ["VC 12 310"] }, tokens[4]);

      // Before the turn: England's commands reach England and the GM only.
      const onFile = await api.ok<{ sets: { power: string; orders: string[] }[] }>(
        "GET",
        `/api/games/${id}/orders`,
        undefined,
        tokens[3],
      );
      assert.deepEqual(
        onFile.sets.map((s) => s.power),
        ["3"],
        "England sees its own set only",
      );
      assert.ok(onFile.sets[0]!.orders.includes(`ME 4 ${SECRET}`), "the second set is on file");
      assert.ok(!JSON.stringify(onFile).includes(FIRST), "the first set is replaced");
      const gmOrders = await api.ok<J>("GET", `/api/games/${id}/orders`, undefined, gm.token);
      assert.ok(JSON.stringify(gmOrders).includes(SECRET), "the GM sees England's commands");
      const paths = [
        `/api/games/${id}`,
        `/api/games/${id}/orders`,
        `/api/games/${id}/report`,
        `/api/games/${id}/events`,
        `/api/games/${id}/turns`,
        `/api/games/${id}/phases`,
        `/api/games/${id}/record`,
        "/api/games",
      ];
      const leaks = async (label: string, markers: readonly string[], allowed: Set<string>) => {
        for (const [who, token] of Object.entries({
          ...Object.fromEntries(Object.entries(tokens).map(([p, tk]) => [`power${p}`, tk])),
          observer: obs.token,
          outsider: outsider.token,
          anon: "",
        })) {
          if (allowed.has(who)) continue;
          for (const path of paths) {
            const r = await api.call("GET", path, undefined, token || undefined);
            assert.ok(r.status < 500, `${label}: ${path} as ${who}: ${r.status}`);
            const text = JSON.stringify(r.body);
            for (const m of markers)
              assert.ok(!text.includes(m), `${label}: ${m} leaked to ${who} by ${path}`);
          }
        }
      };
      await leaks("before the turn", [SECRET, MOVE_MARKER, FIRST], new Set(["power3"]));

      // Not adjudicated before the deadline; at the deadline, with the family's adjudicator.
      assert.equal(await judge.adjudication.tick(), 0, "nothing is due before the deadline");
      // The moderator's deadline tools: pause, resume, move the deadline.
      await api.ok("POST", `/api/games/${id}/gm/pause`, undefined, gm.token);
      clock.t = Date.parse(started.deadline as string) + 1;
      assert.equal(await judge.adjudication.tick(), 0, "a paused game is not adjudicated");
      const resumed = await api.ok<J>("POST", `/api/games/${id}/gm/resume`, undefined, gm.token);
      assert.equal(resumed.state, "open", "resumed");
      const notGm = await api.call(
        "POST",
        `/api/games/${id}/gm/deadline`,
        { at: new Date(clock.t).toISOString() },
        tokens[3],
      );
      assert.equal(notGm.status, 403, "only the GM moves the deadline");
      await api.ok(
        "POST",
        `/api/games/${id}/gm/deadline`,
        { at: new Date(clock.t).toISOString() },
        gm.token,
      );
      assert.equal(await judge.adjudication.tick(), 1, "turn 1 is adjudicated at its deadline");
      const after = await api.ok<J>("GET", `/api/games/${id}`, undefined, tokens[3]);
      assert.equal(after.phase, "T2", "turn 2 is open");
      assert.ok(after.deadline, "with a new deadline");

      // Each stored turn, for the moderator: commands, results and every report.
      const turns = await api.ok<{ seed: number; start: J; turns: J[] }>(
        "GET",
        `/api/games/${id}/turns`,
        undefined,
        gm.token,
      );
      assert.equal(turns.seed, 4242, "the game's seed is recorded");
      assert.equal(turns.turns.length, 1, "one turn stored");
      const t1 = turns.turns[0]!;
      assert.deepEqual(
        (t1.orders as Record<string, string[]>)["3"],
        [`ME 4 ${SECRET}`, MOVE_MARKER, "MO 999 1", "XX 1 2"],
        "England's last set is the one adjudicated",
      );
      assert.equal(
        ((t1.position as J).seed as number) ?? null,
        4242,
        "the seed rides in the position",
      );
      const again = global.adjudicateJson({
        ...turns.start,
        orders: t1.orders,
        rules: (await api.ok<J>("GET", `/api/games/${id}`, undefined, gm.token)).rules,
      });
      assert.deepEqual(again.next, t1.position, "the stored turn replays from its inputs");
      assert.ok(
        ((t1.missed as string[]) ?? []).includes("1") && !(t1.missed as string[]).includes("3"),
        "powers without commands are recorded as missed",
      );
      const refused = await api.call("GET", `/api/games/${id}/turns`, undefined, tokens[3]);
      assert.equal(refused.status, 403, "a player does not read every power's turn");

      // Reports: England's own shows its results; France's shows the message, unsigned.
      const eng = await api.ok<J>("GET", `/api/games/${id}/report`, undefined, tokens[3]);
      assert.equal(eng.turn, 1, "the last turn's report");
      assert.match(String(eng.report), /Turn 1 report/, "the report's header");
      assert.match(String(eng.report), /MO 999 1/, "England's refused command is in its results");
      const fra = await api.ok<J>("GET", `/api/games/${id}/report?turn=1`, undefined, tokens[4]);
      assert.match(String(fra.report), new RegExp(SECRET), "France receives the message");
      assert.ok(!String(fra.report).includes(MOVE_MARKER), "France does not see England's VC");
      const noTurn = await api.call("GET", `/api/games/${id}/report?turn=9`, undefined, tokens[4]);
      assert.equal(noTurn.status, 404, "no report for a turn not played");
      await leaks("after the turn", [MOVE_MARKER, "MO 999 1", FIRST], new Set(["power3"]));
      await leaks("the message", [SECRET], new Set(["power3", "power4"]));

      // The judge's press serves these games as every game (the game's options say which
      // kinds; ME stays the game's own anonymous message): grey press to France by name.
      await api.ok(
        "POST",
        `/api/games/${id}/press`,
        { to: ["France"], body: "hello", kind: "grey" },
        tokens[3],
      );
      const press = async (p: number) =>
        (await api.ok<J[]>("GET", `/api/games/${id}/press`, undefined, tokens[p])).map((m) => [
          m.body,
          m.fromName,
        ]);
      assert.deepEqual(await press(4), [["hello", "Anonymous"]], "France reads it, unsigned");
      assert.deepEqual(await press(5), [], "Germany does not read France's press");
    });
  });
}
