import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { GameRecord } from "../engine/record.ts";
import { replayRecord } from "../engine/record.ts";
import { STORE_KINDS } from "../store/testing.ts";
import { classical } from "../variants/classical/index.ts";
import { getScenario } from "../variants/scenarios.ts";
import { SseReader, serveJudge, waitFor } from "./testing.ts";

const POWERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"] as const;
type P = (typeof POWERS)[number];
/** A power's home centres: where its 1901 units stand. */
const homes = (p: P): string[] =>
  classical.start.units.filter((u) => u.power === p).map((u) => u.province);

interface GameJson {
  id: string;
  status: string;
  phase: string | null;
  phaseIndex: number;
  deadline: string | null;
  toOrder: string[];
  position: { units: Record<string, string[]>; centers?: Record<string, string[]> };
  invites?: { code: string; role: string }[];
  result: unknown;
}

for (const kind of STORE_KINDS) {
  describe(`judge server on ${kind}`, () => {
    test("a seven-player game over the API: deadlines, an NMR, press, votes, a GM correction, a draw", async (t) => {
      const s = await serveJudge(t, kind);
      if (!s) return;
      const { api, clock } = s;
      const gm = await api.ok<{ token: string }>("POST", "/api/users", {
        name: "gamemaster",
        password: "gm secret words",
      });
      let game = await api.ok<GameJson>(
        "POST",
        "/api/games",
        {
          name: "Club game",
          variant: "classical",
          scenario: "7",
          rules: "datc",
          options: { civilDisorderAfter: 3 },
        },
        gm.token,
      );
      const id = game.id;
      const code = game.invites!.find((i) => i.role === "player")!.code;
      const invite = await api.ok<{ freeSeats: unknown[]; game: Record<string, unknown> }>(
        "GET",
        `/api/invites/${code}`,
      );
      assert.equal(invite.freeSeats.length, 7);
      // The public lookup names the game, its variant and its deadline (none before the start).
      assert.deepEqual(
        { ...invite.game, id: undefined },
        {
          id: undefined,
          name: "Club game",
          variant: "classical",
          variantName: "Classical (1901)",
          status: "forming",
          phase: null,
          deadline: null,
        },
      );
      const tok = {} as Record<P, string>;
      for (const p of POWERS) {
        const u = await api.ok<{ token: string }>("POST", "/api/users", {
          name: `${p}-player`,
          password: "correct horse battery",
        });
        tok[p] = u.token;
        await api.ok("POST", `/api/invites/${code}`, { power: p }, u.token);
      }
      game = await api.ok<GameJson>("GET", `/api/games/${id}`, undefined, tok.england);
      assert.equal(game.status, "active");
      assert.equal(game.phase, "S1901M");

      const sse = new SseReader();
      await sse.open(`${api.base}/api/games/${id}/events?token=${tok.england}`);
      t.after(() => sse.close());

      // Press: white to one, grey to all, grey between two others, the GM's.
      await api.ok(
        "POST",
        `/api/games/${id}/press`,
        { to: ["france"], body: "Let us keep the Channel empty." },
        tok.england,
      );
      await api.ok(
        "POST",
        `/api/games/${id}/press`,
        { to: "all", kind: "grey", body: "Beware of Russia." },
        tok.germany,
      );
      await api.ok(
        "POST",
        `/api/games/${id}/press`,
        { to: ["turkey"], kind: "grey", body: "Black Sea?" },
        tok.russia,
      );
      await api.ok(
        "POST",
        `/api/games/${id}/press`,
        { to: "all", body: "Good luck, all." },
        gm.token,
      );
      const black = await api.call(
        "POST",
        `/api/games/${id}/press`,
        { to: "all", kind: "black", body: "x" },
        tok.england,
      );
      assert.equal(black.status, 400);
      const francePress = await api.ok<{ from: string | null; body: string }[]>(
        "GET",
        `/api/games/${id}/press`,
        undefined,
        tok.france,
      );
      assert.deepEqual(
        francePress.map((m) => m.from),
        ["england", null, "gm"],
      );

      const advance = async () => {
        const before = await api.ok<GameJson>("GET", `/api/games/${id}`);
        clock.t = Date.parse(before.deadline!) + 1;
        return waitFor(`the phase after ${before.phase}`, async () => {
          const g = await api.ok<GameJson>("GET", `/api/games/${id}`);
          return g.phaseIndex > before.phaseIndex || g.status === "finished" ? g : undefined;
        });
      };
      const send = (p: P, orders: string[] | string, extra: Record<string, unknown> = {}) =>
        api.ok<{ diagnostics: { ok: boolean; message?: string }[]; final: boolean }>(
          "POST",
          `/api/games/${id}/orders`,
          { orders, ...extra },
          tok[p],
        );
      const holdAll = async (g: GameJson, except: P[] = []) => {
        for (const p of g.toOrder as P[]) {
          if (!except.includes(p))
            await send(
              p,
              (g.position.units[p] ?? []).map((u) => `${u} H`),
              { final: true },
            );
        }
      };

      // Spring 1901: the openings (a preliminary set revised by a final one for England).
      await send("austria", ["A vie-gal", "A bud-ser", "F tri-alb"]);
      const prelim = await send("england", ["F lon-eng", "F edi-nth", "A lvp-wal"]);
      assert.equal(prelim.final, false);
      const eng = await send("england", "F London - North Sea\nF edi-nwg\nA lvp-yor\nFinal");
      assert.equal(eng.final, true);
      assert.ok(eng.diagnostics.every((d) => d.ok));
      await send("france", ["F bre-mao", "A par-bur", "A mar-spa"]);
      await send("germany", ["F kie-den", "A ber-kie", "A mun-ruh"]);
      await send("italy", ["F nap-ion", "A rom-apu", "A ven H"]);
      await send("russia", ["A war-ukr", "A mos-stp", "F sev-bla", "F stp/sc-bot"]);
      const turkey = await send("turkey", ["F ank-bla", "A con-bul", "A smy-arm", "A smy-syria"]);
      // Ordered twice: the last order counts (DATC 4.D.1), and the diagnostic says so.
      assert.deepEqual(
        turkey.diagnostics.map((d) => d.ok),
        [true, true, false, true],
      );
      assert.match(turkey.diagnostics[2]!.message!, /more than once; "A smy-syria" counts/);
      const englandSees = await api.ok<{ sets: { power: string }[] }>(
        "GET",
        `/api/games/${id}/orders`,
        undefined,
        tok.england,
      );
      assert.deepEqual(
        englandSees.sets.map((x) => x.power),
        ["england"],
      );
      const unauth = await api.call("GET", `/api/games/${id}/orders`);
      assert.equal(unauth.status, 401);
      game = await advance();
      assert.equal(game.phase, "F1901M");
      const phases = await api.ok<{ phase: string; orders: Record<string, string[]> }[]>(
        "GET",
        `/api/games/${id}/phases`,
      );
      assert.deepEqual(phases[0]!.orders.england, [
        "F London - North Sea",
        "F edi-nwg",
        "A lvp-yor",
      ]);

      // Fall 1901: Italy sends nothing (an NMR); the others move.
      await send("austria", ["A gal H", "A ser-gre", "F alb S A ser-gre"], { final: true });
      await send("england", ["F nth-nwy", "F nwg-bar", "A yor H"], { final: true });
      await send("france", ["F mao-por", "A bur-bel", "A spa H"], { final: true });
      await send("germany", ["F den H", "A kie-hol", "A ruh H"], { final: true });
      await send("russia", ["A ukr-rum", "A stp H", "F bot-swe", "F sev H"], { final: true });
      await send("turkey", ["A bul H", "A arm H", "F ank H"], { final: true });
      game = await advance();
      assert.equal(game.phase, "W1901A");
      const resolved = await waitFor("the event", async () =>
        sse.events.find((e) => e.event === "phase_resolved" && e.data.data.phase === "F1901M"),
      );
      assert.deepEqual(resolved.data.data.nmr, ["italy"]);

      // The GM accepts Italy's orders as sent in time (seed 002 VII(1)) and corrects F1901M.
      const notGm = await api.call(
        "POST",
        `/api/games/${id}/gm/correct`,
        { reason: "x" },
        tok.france,
      );
      assert.equal(notGm.status, 403);
      game = await api.ok<GameJson>(
        "POST",
        `/api/games/${id}/gm/correct`,
        {
          orders: { italy: ["F ion-tun", "A apu H", "A ven H"] },
          reason: "Italy's orders were sent before the deadline",
        },
        gm.token,
      );
      assert.ok(game.position.units.italy!.includes("F tun"));
      assert.ok(game.toOrder.includes("italy"), "Italy now builds");
      await waitFor("the correction event", async () =>
        sse.events.some((e) => e.event === "phase_corrected"),
      );

      // Winter 1901: builds, armies in free home centres.
      for (const p of game.toOrder as P[]) {
        const centres = game.position.centers?.[p]?.length ?? 0;
        const units = game.position.units[p] ?? [];
        const occupied = new Set(units.map((u) => u.slice(2, 5)));
        const free = homes(p).filter(
          (h) => !occupied.has(h) && game.position.centers?.[p]?.includes(h),
        );
        const builds = free
          .slice(0, Math.max(0, centres - units.length))
          .map((h) => `build A ${h}`);
        const ans = await send(p, builds, { final: true });
        assert.ok(
          ans.diagnostics.every((d) => d.ok),
          `${p}: ${JSON.stringify(ans.diagnostics)}`,
        );
      }
      game = await advance();
      assert.equal(game.phase, "S1902M");
      assert.equal(game.position.units.russia!.length, 6);

      // Spring 1902: Turkey misses the deadline; a draw is proposed and fails (Turkey's uncast vote).
      await holdAll(game, ["turkey"]);
      const proposal = await api.ok<{ id: number }>(
        "POST",
        `/api/games/${id}/votes`,
        { kind: "draw" },
        tok.england,
      );
      for (const p of POWERS)
        if (p !== "turkey")
          await api.ok("POST", `/api/games/${id}/votes/${proposal.id}`, { vote: "yes" }, tok[p]);
      game = await advance();
      assert.equal(game.phase, "F1902M");
      const votes = await api.ok<{ status: string; counts: unknown }[]>(
        "GET",
        `/api/games/${id}/votes`,
        undefined,
        tok.france,
      );
      assert.equal(votes[0]!.status, "failed");
      assert.deepEqual(votes[0]!.counts, { for: 6, against: 1, abstain: 0 });

      // Fall 1902 to Fall 1903: everybody holds.
      for (const expected of ["S1903M", "F1903M", "S1904M"]) {
        await holdAll(game);
        game = await advance();
        assert.equal(game.phase, expected);
      }

      // Spring 1904: a draw of all survivors, Turkey abstaining, passes at the deadline.
      const draw = await api.ok<{ id: number }>(
        "POST",
        `/api/games/${id}/votes`,
        { kind: "draw" },
        tok.france,
      );
      for (const p of POWERS) {
        await api.ok(
          "POST",
          `/api/games/${id}/votes/${draw.id}`,
          { vote: p === "turkey" ? "abstain" : "yes" },
          tok[p],
        );
      }
      game = await advance();
      assert.equal(game.status, "finished");
      assert.deepEqual(game.result, { kind: "draw", powers: [...POWERS], by: "vote" });
      const finalVotes = await api.ok<{ counts: unknown }[]>(
        "GET",
        `/api/games/${id}/votes`,
        undefined,
        tok.italy,
      );
      assert.deepEqual(finalVotes[1]!.counts, { for: 6, against: 0, abstain: 1 });

      // The record replays exactly, NMRs are kept, and England's live stream saw the game.
      const record = await api.ok<GameRecord>("GET", `/api/games/${id}/record`);
      assert.equal(record.phases.length, 7, "S1901M to F1903M; S1904M ended by the draw");
      assert.deepEqual(replayRecord(getScenario("classical", "7")!, record), { ok: true });
      const nmrs = await s.store.db
        .selectFrom("nmrs")
        .select(["phase", "power"])
        .orderBy("id")
        .execute();
      assert.deepEqual(nmrs, [{ phase: "S1902M", power: "turkey" }]);
      await waitFor("game over", async () => sse.events.some((e) => e.event === "game_over"));
      const kinds = sse.events.map((e) => e.event);
      assert.equal(kinds.filter((k) => k === "phase_resolved").length, 7);
      assert.ok(kinds.includes("vote_result"));
      assert.equal(
        kinds.filter((k) => k === "press").length,
        3,
        "not the message from Russia to Turkey",
      );
      assert.ok(
        !JSON.stringify(sse.events).includes("Black Sea?"),
        "press bodies are fetched, not pushed",
      );
    });

    test("inputs are validated with clear errors; docs, health and the home page", async (t) => {
      const s = await serveJudge(t, kind);
      if (!s) return;
      const { api } = s;
      const health = await api.ok("GET", "/api/health");
      assert.equal(health.status, "ok");
      assert.equal(health.database, kind);
      const docs = await api.ok<{ openapi: string; paths: Record<string, unknown> }>(
        "GET",
        "/api/openapi.json",
      );
      assert.equal(docs.openapi, "3.1.0");
      // The reference is rendered at /api/docs by this server alone: every script and style
      // sheet the page loads is served here (no other origin), and it reads the same document.
      const reference = await fetch(`${api.base}/api/docs`);
      assert.match(
        reference.headers.get("content-type") ?? "",
        /text\/html/,
        "/api/docs is a page",
      );
      const referenceHtml = await reference.text();
      const assets = [...referenceHtml.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      assert.ok(
        assets.some((a) => a.endsWith(".js")),
        `the page loads a script: ${assets}`,
      );
      for (const a of assets) {
        assert.ok(a.startsWith("/api/docs/"), `${a} is served by the judge itself`);
        const r = await fetch(api.base + a);
        assert.equal(r.status, 200, `${a} is served`);
        await r.arrayBuffer();
      }
      const init = await (await fetch(`${api.base}/api/docs/static/swagger-initializer.js`)).text();
      const code = init
        .split("\n")
        .filter((l) => !l.trim().startsWith("//"))
        .join("\n");
      assert.ok(!/https?:\/\//.test(code), "the page's configuration names no other server");
      assert.deepEqual(await api.ok("GET", "/api/docs/json"), docs, "the page reads this document");
      for (const p of [
        "/api/games",
        "/api/games/{id}/orders",
        "/api/games/{id}/gm/correct",
        "/api/games/{id}/events",
      ]) {
        assert.ok(docs.paths[p], p);
      }
      const bad = async (
        method: string,
        path: string,
        body: unknown,
        status: number,
        message: RegExp,
        token?: string,
      ) => {
        const a = await api.call<{ error: string }>(method, path, body, token);
        assert.equal(a.status, status, `${method} ${path}: ${JSON.stringify(a.body)}`);
        assert.match(a.body.error, message);
      };
      await bad("POST", "/api/users", "{not json", 400, /not valid JSON/);
      await bad(
        "POST",
        "/api/users",
        { name: "x" },
        400,
        /^The field "name" is too short: it must have at least 2 characters, and has 1 \(body\.name\)$/,
      );
      await bad(
        "POST",
        "/api/users",
        { name: "xy", password: "correct horse battery", admin: true },
        400,
        /body.admin: unknown field/,
      );
      const u = await api.ok<{ token: string }>("POST", "/api/users", {
        name: "ann",
        password: "correct horse battery",
      });
      await bad(
        "POST",
        "/api/users",
        { name: "ANN", password: "correct horse battery" },
        409,
        /taken/,
      );
      await bad("POST", "/api/games", { name: "g" }, 401, /log in/);
      await bad("POST", "/api/games", { name: "g" }, 401, /unknown or revoked/, "ent_wrong");
      await bad(
        "POST",
        "/api/games",
        { name: "g", variant: "narnia" },
        400,
        /unknown variant/,
        u.token,
      );
      await bad(
        "POST",
        "/api/games",
        { name: "g", scenario: "9" },
        400,
        /no scenario "9"/,
        u.token,
      );
      await bad(
        "POST",
        "/api/games",
        { name: "g", rules: { convoyParadox: "x" } },
        400,
        /convoyParadox/,
        u.token,
      );
      await bad(
        "POST",
        "/api/games",
        { name: "g", options: { deadlines: { movement: -1 } } },
        400,
        /body.options.deadlines.movement: must be at least/,
        u.token,
      );
      await bad("GET", "/api/games/nosuch", undefined, 404, /no game "nosuch"/);
      await bad("DELETE", "/api/games", undefined, 405, /takes GET, POST/);
      await bad("GET", "/api/nothing", undefined, 404, /\/api\/docs/);
      const g = await api.ok<GameJson>("POST", "/api/games", { name: "Friday <game>" }, u.token);
      await bad(
        "POST",
        `/api/games/${g.id}/orders`,
        { orders: ["A vie-gal"] },
        403,
        /only a player/,
        u.token,
      );
      await bad(
        "POST",
        `/api/games/${g.id}/orders`,
        { orders: 5 },
        400,
        /list of order lines or one text/,
        u.token,
      );
      const page = await fetch(`${api.base}/`);
      assert.match(page.headers.get("content-type") ?? "", /text\/html/);
      const html = await page.text();
      assert.ok(html.includes("Friday &lt;game&gt;"));
      assert.ok(html.includes('href="/api/docs"'));
    });
  });
}
