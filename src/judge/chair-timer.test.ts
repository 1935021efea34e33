import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { serveJudge, waitFor } from "../server/testing.ts";
import { STORE_KINDS } from "../store/testing.ts";
import type { ChairTimerView as Timer } from "./chair.ts";

/*
 * The chairs' timers (seed 000; src/judge/chair.ts, docs/committee.md "Running a session"):
 * kept by the judge, changed by the chair alone, read by anybody, counted by the judge's
 * clock; a run-out orders timer tells the chair, and resolves the phase when the game's
 * option says so.
 */

for (const kind of STORE_KINDS) {
  describe(`the chairs' timers on ${kind}`, () => {
    async function setup(t: import("node:test").TestContext, options: Record<string, unknown>) {
      const served = await serveJudge(t, kind);
      if (!served) {
        t.skip(`no ${kind}`);
        return null;
      }
      const { api } = served;
      const tok: Record<string, string> = {};
      for (const n of ["gm", "alice", "bob"]) {
        tok[n] = (
          await api.ok<{ token: string }>("POST", "/api/users", {
            name: `${n}-${kind}`,
            password: `${n}-secret!`,
          })
        ).token;
      }
      const game = await api.ok<{ id: string; invites: { code: string; role: string }[] }>(
        "POST",
        "/api/games",
        { name: "Committee", scenario: "4", options },
        tok.gm,
      );
      const code = game.invites.find((i) => i.role === "player")!.code;
      await api.ok("POST", `/api/invites/${code}`, { seat: 0 }, tok.alice);
      await api.ok("POST", `/api/invites/${code}`, { seat: 1 }, tok.bob);
      await api.ok("POST", `/api/games/${game.id}/chair`, { on: true }, tok.gm);
      await api.ok("POST", `/api/games/${game.id}/gm/start`, undefined, tok.gm);
      const path = `/api/games/${game.id}/chair/timer`;
      /** A change to the timer by the chair (or by `token`): the answer, whatever it is. */
      const timerCall = (body: Record<string, unknown>, token = tok.gm) =>
        api.call("POST", path, body, token);
      /** A change to the timer by the chair, which must succeed: the timer then. */
      const setTimer = (body: Record<string, unknown>) => api.ok<Timer>("POST", path, body, tok.gm);
      return { ...served, tok, id: game.id, timerCall, setTimer };
    }

    test("kept by the judge, set by the chair, seen by everybody, told when it runs out", async (t) => {
      const s = await setup(t, { civilDisorderAfter: 0 });
      if (!s) return;
      const { api, tok, id, clock, timerCall, setTimer } = s;
      const timer = async (token?: string) =>
        (await api.ok<{ timer: Timer }>("GET", `/api/games/${id}/chair`, undefined, token)).timer;
      assert.equal((await timer()).stage, null, "no timer before the chair starts one");
      const refused = await timerCall({ action: "start", stage: "speech" }, tok.alice);
      assert.equal(refused.status, 403, "a delegation cannot set the chairs' timer");
      const started = await setTimer({ action: "start", stage: "diplomacy" });
      assert.equal(started.length, 1800, "30 minutes of diplomacy before the first turn");
      assert.equal(started.endsAt, clock.now() + 1_800_000, "ends by the judge's clock");
      clock.advance(600_000);
      const seen = await timer();
      assert.equal(seen.remainingMs, 1_200_000, "anybody, logged in or not, reads 20:00 left");
      assert.equal(seen.running, true);
      assert.equal(seen.now, clock.now(), "with the judge's clock to count down from");
      assert.deepEqual(await timer(tok.bob), seen, "a delegation reads the same time");
      const paused = await setTimer({ action: "pause" });
      assert.equal(paused.running, false);
      clock.advance(3_600_000);
      assert.equal((await timer()).remainingMs, 1_200_000, "a paused timer keeps its time");
      await setTimer({ action: "resume" });
      assert.equal((await timer()).endsAt, clock.now() + 1_200_000, "and resumes with it");
      const again = await timerCall({ action: "resume" });
      assert.equal(again.status, 409, "resuming a running timer is refused");
      const noStage = await timerCall({ action: "start" });
      assert.equal(noStage.status, 400, "a start names its stage");
      await setTimer({ action: "lengths", lengths: { orders: 120 } });
      const orders = await setTimer({ action: "start", stage: "orders" });
      assert.equal(orders.length, 120, "the chair's length for order writing");
      assert.equal(orders.lengths.firstDiplomacy, 1800, "the other lengths kept");
      clock.advance(121_000);
      const ended = await waitFor("the timer to be announced as run out", async () => {
        const v = await timer();
        return v.ended && !v.running ? v : undefined;
      });
      assert.equal(ended.remainingMs, 0);
      const gmEvents = await api.ok<{ kind: string; data: Record<string, unknown> }[]>(
        "GET",
        `/api/games/${id}/events`,
        undefined,
        tok.gm,
      );
      const told = gmEvents.filter((e) => e.kind === "chair_timer_ended");
      assert.equal(told.length, 1, "the chair is told once");
      assert.equal(told[0]!.data.stage, "orders");
      assert.equal(told[0]!.data.resolving, false, "and the judge does not resolve by itself");
      const bobEvents = await api.ok<{ kind: string }[]>(
        "GET",
        `/api/games/${id}/events`,
        undefined,
        tok.bob,
      );
      assert.ok(
        bobEvents.some((e) => e.kind === "chair_timer"),
        "delegations see the timer",
      );
      assert.ok(
        !bobEvents.some((e) => e.kind === "chair_timer_ended"),
        "the notice is the chair's",
      );
      const v = await api.ok<{ phase: string }>("GET", `/api/games/${id}`);
      assert.equal(v.phase, "S1901M", "the phase waits for the chair");
      const second = await setTimer({ action: "start", stage: "speech", seconds: 90 });
      assert.equal(second.length, 90, "a start may give its own length");
      const reset = await setTimer({ action: "reset" });
      assert.equal(reset.stage, null);
      assert.equal(reset.lengths.orders, 120, "a reset keeps the lengths");
    });

    test("resolveWhenOrdersTimerEnds: the orders timer running out resolves the phase", async (t) => {
      const s = await setup(t, { civilDisorderAfter: 0, resolveWhenOrdersTimerEnds: true });
      if (!s) return;
      const { api, tok, id, clock, setTimer } = s;
      await api.ok("POST", `/api/games/${id}/orders`, { orders: ["F lon - nth"] }, tok.alice);
      await setTimer({ action: "start", stage: "speech", seconds: 60 });
      clock.advance(61_000);
      await waitFor("the speech timer to run out", async () => {
        const c = await api.ok<{ timer: Timer }>("GET", `/api/games/${id}/chair`);
        return c.timer.ended;
      });
      assert.equal(
        (await api.ok<{ phase: string }>("GET", `/api/games/${id}`)).phase,
        "S1901M",
        "a speech timer running out resolves nothing",
      );
      await setTimer({ action: "start", stage: "orders", seconds: 60 });
      clock.advance(61_000);
      const next = await waitFor("the phase to be resolved", async () => {
        const v = await api.ok<{ phase: string }>("GET", `/api/games/${id}`);
        return v.phase !== "S1901M" ? v : undefined;
      });
      assert.equal(next.phase, "F1901M", "resolved at once, with the orders sent");
      const phases = await api.ok<
        { results: Record<string, { order: string; result: string }[]> }[]
      >("GET", `/api/games/${id}/phases`);
      assert.equal(phases[0]?.results.england?.[0]?.order, "F lon - nth");
    });
  });
}
