import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { type ServerProcess, spawnServer } from "../../src/server/process.ts";
import { Api } from "../../src/server/testing.ts";
import { BrowserHarness, type GameJson } from "./harness.ts";

/*
 * Chaired play in Chromium (seed 000; docs/committee.md "Running a session"): the chairs'
 * timer is the judge's, so a timer set in one chair's window is seen ticking in a second
 * window and on a delegation's game page, and survives a reload and a restart of a real
 * server process; a dated order sheet of the 1935 committee is accepted; the projector fills
 * the screen with a map readable from the back of the room.
 */

declare const document: {
  documentElement: {
    scrollWidth: number;
    scrollHeight: number;
    clientWidth: number;
    clientHeight: number;
  };
  querySelector(s: string): { getBoundingClientRect(): { width: number; height: number } } | null;
  querySelectorAll(s: string): ArrayLike<{
    getBoundingClientRect(): { width: number; height: number };
    textContent: string | null;
  }>;
};

const h = new BrowserHarness();

/** The seconds left the page's chairs' clock shows (data-remaining), once it shows `stage`. */
async function remaining(page: Page, stage: string): Promise<number> {
  const clock = page.locator(`.chair-clock[data-stage="${stage}"]`);
  await clock.waitFor();
  return Number(await clock.getAttribute("data-remaining"));
}

/** Waits (bounded) until the clock shows less than `than` seconds: it is ticking. */
async function ticksBelow(page: Page, than: number): Promise<number> {
  await page.waitForFunction(
    (t) => {
      const el = (
        globalThis as unknown as {
          document: { querySelector(s: string): { dataset: Record<string, string> } | null };
        }
      ).document.querySelector(".chair-clock[data-remaining]");
      return el !== null && Number(el.dataset.remaining) < t;
    },
    than,
    { timeout: 15_000 },
  );
  return remaining(page, "diplomacy");
}

describe("chaired play in Chromium", { timeout: 300_000 }, () => {
  before(() => h.start(["chair", "alice", "bob"]));
  after(() => h.close());

  test("the chairs' timer: seen in a second window and by a delegation, kept across a reload and a restart", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "entente-chair-"));
    const running: ServerProcess[] = [];
    t.after(async () => {
      for (const s of running) await s.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    const serve = async () => {
      const s = await spawnServer({}, ["--data", dir]);
      running.push(s);
      return s;
    };
    let server = await serve();
    let api = new Api(server.base);
    for (const n of ["pchair", "palice", "pbob"]) {
      h.tokens[n] = (
        await api.ok<{ token: string }>("POST", "/api/users", { name: n, password: `${n}-secret!` })
      ).token;
    }
    const g = await api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Committee", scenario: "4", options: { civilDisorderAfter: 0 } },
      h.tokens.pchair,
    );
    const code = g.invites!.find((i) => i.role === "player")!.code;
    await api.ok("POST", `/api/invites/${code}`, { seat: 0 }, h.tokens.palice);
    await api.ok("POST", `/api/invites/${code}`, { seat: 1 }, h.tokens.pbob);
    await api.ok("POST", `/api/games/${g.id}/chair`, { on: true }, h.tokens.pchair);
    await api.ok("POST", `/api/games/${g.id}/gm/start`, undefined, h.tokens.pchair);

    const first = await h.as("pchair", { width: 1440, height: 900 });
    const second = await h.as("pchair", { width: 1440, height: 900 });
    const delegate = await h.as("palice", { width: 1280, height: 900 });
    await first.goto(`${server.base}/chair/${g.id}`);
    await second.goto(`${server.base}/chair/${g.id}`);
    await delegate.goto(`${server.base}/game/${g.id}`);
    await first.locator('.chair-clock:not([data-stage="diplomacy"])').waitFor();
    await first.getByRole("button", { name: "Diplomacy", exact: true }).click();
    const set = await remaining(first, "diplomacy");
    assert.ok(set <= 1800 && set > 1740, `30 minutes before the first turn: ${set} s`);
    // The second window and the delegation are told by the event stream, and count down.
    const seen = await remaining(second, "diplomacy");
    assert.ok(seen <= set, `the second window shows the chair's time: ${seen} s`);
    await ticksBelow(second, seen);
    const del = await remaining(delegate, "diplomacy");
    assert.ok(del <= set && del > 1740, `the delegation's game page shows it: ${del} s`);
    await ticksBelow(delegate, del);
    assert.match(
      (await delegate.locator(".chair-clock").textContent()) ?? "",
      /Diplomacy\s*(29|30):\d\d/,
      "the delegation reads the stage and the time",
    );
    await h.docShot(first, "chair-timer-desktop");
    // A reload reads the judge's time, not the page's.
    await second.reload();
    const reloaded = await remaining(second, "diplomacy");
    const now = await remaining(first, "diplomacy");
    assert.ok(Math.abs(reloaded - now) <= 2, `a reload shows the same time: ${reloaded} / ${now}`);
    // Paused in one window: paused everywhere, at one time.
    await first.locator('[data-timer="pause"]').click();
    await second.locator(".chair-clock.paused").waitFor();
    await delegate.locator(".chair-clock.paused").waitFor();
    const pausedAt = await remaining(second, "diplomacy");
    assert.equal(await remaining(delegate, "diplomacy"), pausedAt, "the same time everywhere");
    // The server restarts (a new process on the same data): the timer is read back.
    await server.stop();
    server = await serve();
    api = new Api(server.base);
    const kept = await api.ok<{ timer: { stage: string; running: boolean; remainingMs: number } }>(
      "GET",
      `/api/games/${g.id}/chair`,
    );
    assert.equal(kept.timer.stage, "diplomacy", "the API carries the timer after a restart");
    assert.equal(kept.timer.running, false);
    assert.equal(Math.ceil(kept.timer.remainingMs / 1000), pausedAt, "with its time");
    await second.goto(`${server.base}/chair/${g.id}`);
    await second.locator(".chair-clock.paused").waitFor();
    assert.equal(await remaining(second, "diplomacy"), pausedAt, "and the chair's page too");
    await second.locator('[data-timer="pause"]', { hasText: "Resume" }).click();
    await delegate.goto(`${server.base}/game/${g.id}`);
    await delegate.locator('.chair-clock[data-running="true"]').waitFor();
    await ticksBelow(delegate, pausedAt);
    // The pages open while the first server stopped failed to reach it (refused, or reset
    // when it stopped in the middle of a request, as it may on a loaded machine): nothing else.
    for (const page of [first, second, delegate]) {
      const errors = h
        .pageErrors(page)
        .filter((e) => !/ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|Failed to fetch/.test(e));
      assert.deepEqual(errors, [], "no script errors");
    }
  });

  test("a dated 1935 sheet is accepted; the projector fills the screen, readable from the back of the room", async () => {
    const POWERS = [
      "uk",
      "france",
      "italy",
      "germany",
      "ussr",
      "turkey",
      "yugoslavia",
      "spain",
      "poland",
    ];
    for (const p of POWERS) await h.account(`d-${p}`);
    const g = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Historical Committee", variant: "europe1935", options: { civilDisorderAfter: 0 } },
      h.tokens.chair,
    );
    const code = g.invites!.find((i) => i.role === "player")!.code;
    for (const p of POWERS) {
      await h.api.ok("POST", `/api/invites/${code}`, { power: p }, h.tokens[`d-${p}`]);
    }
    await h.api.ok("POST", `/api/games/${g.id}/chair`, { on: true }, h.tokens.chair);
    const v = await h.api.ok<GameJson>("GET", `/api/games/${g.id}`);
    if (v.state !== "open") {
      await h.api.ok("POST", `/api/games/${g.id}/gm/start`, undefined, h.tokens.chair);
    }
    // Germany's delegation types a dated, numbered sheet, as the seed asks.
    const germany = await h.as("d-germany", { width: 1440, height: 900 });
    await germany.goto(`${h.base}/game/${g.id}`);
    await germany.locator("textarea.orders-text").fill("Spring 1936\nA Mun H");
    await germany.getByRole("button", { name: "Submit final" }).click();
    await germany
      .getByText(/phase open for orders is Spring 1935 movement \(S1935M\)/)
      .first()
      .waitFor();
    await germany
      .locator("textarea.orders-text")
      .fill("Germany, Spring 1935\n1. A Mun - Sax\n2) F Ham - Hol");
    await germany.locator(".diags li.ok", { hasText: "A Mun - Sax" }).waitFor();
    await germany.getByRole("button", { name: "Submit final" }).click();
    await germany.getByText(/Final orders received/).waitFor();
    const mine = await h.api.ok<{ sets: { power: string; orders: string[] }[] }>(
      "GET",
      `/api/games/${g.id}/orders`,
      undefined,
      h.tokens["d-germany"],
    );
    assert.deepEqual(
      mine.sets.find((s) => s.power === "germany")?.orders,
      ["A Mun - Sax", "F Ham - Hol"],
      "the date is no order; the numbered orders are",
    );
    await h.api.ok(
      "POST",
      `/api/games/${g.id}/orders`,
      { orders: "France, Spring 1935\nA Par - Ber\nA Lyo - Nowhere\nF Bri - Eng" },
      h.tokens["d-france"],
    );

    for (const [width, height] of [
      [1440, 900],
      [1920, 1080],
    ] as const) {
      const chair = await h.as("chair", { width, height });
      await chair.goto(`${h.base}/chair/${g.id}`);
      await chair.locator(".delegations li.in", { hasText: "Germany" }).waitFor();
      await chair.locator(".map svg g.unit[transform]").first().waitFor();
      await chair.locator('[data-action="fullscreen"]').waitFor();
      const m = await chair.evaluate(() => {
        const d = document.documentElement;
        const units = Array.from(document.querySelectorAll(".map svg g.unit")).map((e) =>
          Math.max(e.getBoundingClientRect().width, e.getBoundingClientRect().height),
        );
        const names = Array.from(document.querySelectorAll(".map svg g.names text"))
          .map((t) => t.getBoundingClientRect().height)
          .filter((x) => x > 0);
        const svg = document.querySelector(".map svg") as unknown as {
          getAttribute(n: string): string | null;
          getBoundingClientRect(): { width: number; height: number };
        };
        return {
          scroll: [d.scrollWidth - d.clientWidth, d.scrollHeight - d.clientHeight],
          unit: Math.min(...units),
          units: units.length,
          name: Math.min(...names),
          names: names.length,
          viewBox: (svg.getAttribute("viewBox") ?? "").split(" ").map(Number),
          board: [svg.getBoundingClientRect().width, svg.getBoundingClientRect().height],
        };
      });
      assert.deepEqual(m.scroll, [0, 0], `${width}x${height}: no page scroll`);
      assert.equal(m.units, 45, "every unit drawn");
      assert.ok(m.names > 50, "the names drawn");
      if (width === 1920) {
        assert.ok(m.unit >= 28, `a unit at least 28 px across at 1920x1080: ${m.unit}`);
        assert.ok(m.name >= 14, `a province name at least 14 px high at 1920x1080: ${m.name}`);
      }
      assert.ok(
        m.board[0]! >= width * 0.7 && m.board[1]! >= height * 0.85,
        `the board fills the screen beside the panel: ${m.board}`,
      );
      assert.ok(m.viewBox[0]! > 0 || m.viewBox[2]! < 2000, `framed on the play: ${m.viewBox}`);
      await h.docShot(chair, `projector-${width}`);
      if (width !== 1920) continue;
      await chair.locator('[data-action="reveal"]').click();
      await chair.getByRole("heading", { name: "All orders" }).waitFor();
      const all = chair.locator(".all-orders");
      assert.match(
        (await all.locator("li", { hasText: "A Lyo - Nowhere" }).textContent()) ?? "",
        /invalid unknown province "Nowhere"/,
        "an unreadable order is shown as such, with why",
      );
      assert.match(
        (await all.locator("li", { hasText: "A Par - Ber" }).textContent()) ?? "",
        /invalid Paris is not adjacent to Berlin/,
        "an illegal order is shown as such, with why",
      );
      assert.match(
        (await all.locator(".holds").textContent()) ?? "",
        /^No orders, so they hold: .*United Kingdom: F lon/,
        "the units nobody ordered, in one line",
      );
      await h.docShot(chair, "projector-reveal-1920");
      let seen = "";
      for (let i = 0; i < 10 && !/A Par - Ber/.test(seen); i++) {
        await chair.keyboard.press("ArrowRight");
        await chair.locator(".explain").waitFor();
        seen = (await chair.locator(".explain").textContent()) ?? "";
      }
      assert.match(seen, /France: A Par - Ber\s*invalid/, `the illegal order's step: ${seen}`);
      assert.match(seen, /not followed: the unit holds.*Paris is not adjacent to Berlin/s);
      await chair.keyboard.press("End");
      await chair.getByRole("heading", { name: "Units without orders" }).waitFor();
      assert.deepEqual(h.pageErrors(chair), [], "no script errors");
    }
  });
});
