import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { BrowserHarness, type GameJson, PHONE } from "./harness.ts";

/*
 * The site on a phone (issue 29): Chromium emulating one (390×844, touch, three device pixels a
 * pixel). No page scrolls sideways; the game page opens the board close up around the
 * viewer's own units (each at least 20 px across, every tap target at least 44 px), pinch and
 * the whole-map button work by touch, a unit and a target tapped give an order, and the
 * board stays in view while the orders pad is scrolled to. Global Diplomacy's map comes
 * before its command box; the 1935 board opens the same way. At 1440×900 the order tabs are
 * in view without scrolling. With ENTENTE_DOC_SHOTS=1 the screenshots docs/web.md shows are
 * rewritten under docs/screens/.
 */

const h = new BrowserHarness();
const DESKTOP = { width: 1440, height: 900 };

declare const document: {
  documentElement: { scrollWidth: number };
  querySelectorAll(s: string): ArrayLike<Measured>;
  querySelector(s: string): Measured | null;
};
declare const innerWidth: number;
declare const innerHeight: number;
interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}
interface Measured {
  getBoundingClientRect(): Rect;
  getAttribute(n: string): string | null;
  textContent: string | null;
  offsetParent: unknown;
}

/** The page's width as laid out against the phone's: nothing may be wider. */
const widths = (page: Page) =>
  page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));

async function noSideways(page: Page, what: string): Promise<void> {
  const w = await widths(page);
  assert.ok(
    w.scroll <= PHONE.width && w.inner === PHONE.width,
    `${what}: laid out ${w.scroll} px wide (window ${w.inner}) on a ${PHONE.width} px phone`,
  );
}

/** The viewer's units on the map, as drawn: their size and whether they are in view. */
const units = (page: Page, power: string) =>
  page.evaluate((p) => {
    const map = document.querySelector(".game .map")!.getBoundingClientRect();
    return Array.from(document.querySelectorAll(`.game .map g.unit[data-power="${p}"]`)).map(
      (u) => {
        const r = u.getBoundingClientRect();
        const inside =
          r.left >= map.left - 1 &&
          r.right <= map.right + 1 &&
          r.top >= map.top - 1 &&
          r.bottom <= map.bottom + 1;
        return { at: u.getAttribute("data-location"), w: r.width, h: r.height, inside };
      },
    );
  }, power);

/** Buttons shown on the page that are smaller than a finger (44 px) either way. */
const smallTargets = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll("main button, main a.button"))
      .filter((b) => b.offsetParent !== null)
      .map((b) => ({ text: (b.textContent ?? "").trim(), r: b.getBoundingClientRect() }))
      .filter((b) => b.r.width > 0 && (b.r.height < 43.5 || b.r.width < 43.5))
      .map((b) => `${b.text} ${Math.round(b.r.width)}×${Math.round(b.r.height)}`),
  );

const zoomOf = async (page: Page) =>
  Number(await page.locator(".game .map").getAttribute("data-zoom"));

/** A point of the map where a tap lands on province `id` (not on a unit or a name of another). */
const pointOf = (page: Page, id: string) =>
  page.evaluate((id) => {
    const el = document.querySelector(`.game .map [data-province="${id}"]`);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    const d = globalThis as unknown as {
      document: {
        elementFromPoint(x: number, y: number): { closest(s: string): Measured | null } | null;
      };
    };
    for (let i = 1; i < 16; i++) {
      for (let j = 1; j < 16; j++) {
        const x = r.left + (r.width * i) / 16;
        const y = r.top + (r.height * j) / 16;
        if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
        const hit = d.document.elementFromPoint(x, y)?.closest("[data-province]");
        if (hit?.getAttribute("data-province") === id) return { x, y };
      }
    }
    return null;
  }, id);

describe("the site on a phone, and the board's tabs at 1440×900", { timeout: 300_000 }, () => {
  let classical = "";
  let code = "";
  let committee = "";
  let world = "";
  before(async () => {
    await h.start(["gm", "alice", "bob", "carol"]);
    const g = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Pocket", scenario: "7", options: { deadlines: { unit: "hours" } } },
      h.tokens.gm,
    );
    classical = g.id;
    code = g.invites!.find((i) => i.role === "player")!.code;
    const seats = await h.api.ok<{ seatList: { index: number; powers: string[] }[] }>(
      "GET",
      `/api/games/${classical}`,
    );
    const seat = (p: string) => seats.seatList.find((s) => s.powers.includes(p))!.index;
    await h.api.ok("POST", `/api/invites/${code}`, { seat: seat("england") }, h.tokens.alice);
    await h.api.ok("POST", `/api/invites/${code}`, { seat: seat("russia") }, h.tokens.bob);
    await h.api.ok("POST", `/api/games/${classical}/gm/start`, undefined, h.tokens.gm);

    const c = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Committee", variant: "europe1935", options: { deadlines: { unit: "hours" } } },
      h.tokens.gm,
    );
    committee = c.id;
    const cseats = await h.api.ok<{ seatList: { index: number; powers: string[] }[] }>(
      "GET",
      `/api/games/${committee}`,
    );
    const italy = cseats.seatList.find((s) => s.powers.includes("italy"))!.index;
    const ccode = c.invites!.find((i) => i.role === "player")!.code;
    await h.api.ok("POST", `/api/invites/${ccode}`, { seat: italy }, h.tokens.carol);
    await h.api.ok("POST", `/api/games/${committee}/gm/start`, undefined, h.tokens.gm);

    const w = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "World", variant: "global", seed: 19, options: { deadlines: { unit: "hours" } } },
      h.tokens.gm,
    );
    world = w.id;
    // The maps built before any page asks (the world's takes seconds on a loaded machine).
    for (const v of ["classical", "europe1935", "global"])
      await h.api.ok("GET", `/api/variants/${v}/geometry`);
    const wcode = w.invites!.find((i) => i.role === "player")!.code;
    for (let p = 1; p <= 11; p++) {
      await h.account(`w${p}`);
      await h.api.ok("POST", `/api/invites/${wcode}`, { power: String(p) }, h.tokens[`w${p}`]);
    }
  });
  after(() => h.close());

  test("no page scrolls sideways on a phone: lobby, join, sandbox, chair", async () => {
    const lobby = await h.as("alice", PHONE, true);
    await lobby.goto(`${h.base}/`);
    await lobby.getByRole("region", { name: "my games" }).getByText("Pocket").waitFor();
    await noSideways(lobby, "the lobby");
    await h.docShot(lobby, "pocket-lobby-phone");
    const join = await h.as("carol", PHONE, true);
    await join.goto(`${h.base}/join/${code}`);
    await join.locator(".chips button").first().waitFor();
    await noSideways(join, "an invitation");
    const sandbox = await h.as("carol", PHONE, true);
    await sandbox.goto(`${h.base}/sandbox`);
    await sandbox.locator(".map svg").waitFor();
    await noSideways(sandbox, "the sandbox");
    const chair = await h.as("gm", PHONE, true);
    await chair.goto(`${h.base}/chair/${classical}`);
    await chair.locator(".map svg").waitFor();
    await noSideways(chair, "the projector");
    for (const p of [lobby, join, sandbox, chair]) assert.deepEqual(h.pageErrors(p), []);
  });

  test("the classical board on a phone: close up on England, a tap and a tap give an order", async () => {
    const page = await h.as("alice", PHONE, true);
    await page.goto(`${h.base}/game/${classical}`);
    await page.locator('.game .map g.unit[data-power="england"]').first().waitFor();
    await page.waitForFunction(
      () =>
        Number(
          (
            globalThis as unknown as {
              document: { querySelector(s: string): { dataset: { zoom?: string } } | null };
            }
          ).document.querySelector(".game .map")?.dataset.zoom ?? 0,
        ) > 1,
    );
    await noSideways(page, "the game");
    const mine = await units(page, "england");
    assert.equal(mine.length, 3);
    for (const u of mine) {
      assert.ok(u.inside, `${u.at} is in view`);
      assert.ok(u.w >= 20 && u.h >= 20, `${u.at} is ${u.w.toFixed(1)}×${u.h.toFixed(1)} px`);
    }
    assert.deepEqual(await smallTargets(page), [], "every button at least 44 px");
    await h.docShot(page, "pocket-game-phone");

    // A tap on the London fleet, Move, a tap on the North Sea: the order (once the order pad
    // has the legal orders: a tap before then chooses nothing).
    await page.locator(".orderpad .chips.units button").first().waitFor();
    await page.locator('.game .map g.unit[data-location="lon"]').tap();
    await page.locator('button[data-action="move"]').tap();
    const nth = await pointOf(page, "nth");
    assert.ok(nth, "the North Sea is in view");
    await page.touchscreen.tap(nth.x, nth.y);
    await page.locator(".diags li.ok", { hasText: "F lon - nth" }).waitFor();

    // The orders pad scrolled to: the board stays in view above it.
    await page.getByRole("button", { name: "Submit final" }).scrollIntoViewIfNeeded();
    const map = (await page.locator(".game .map").boundingBox())!;
    const submit = (await page.getByRole("button", { name: "Submit final" }).boundingBox())!;
    assert.ok(map.y >= -1 && map.y + map.height <= submit.y, "the map above the pad, in view");
    assert.ok(submit.y + submit.height <= PHONE.height, "the pad's button in view");
    await h.docShot(page, "pocket-game-orders-phone");

    // Two fingers spread: the board zooms in; one tap on "whole map": all of it.
    const before = await zoomOf(page);
    const cdp = await page.context().newCDPSession(page);
    const c = { x: map.x + map.width / 2, y: map.y + map.height / 2 };
    const fingers = (d: number) => [
      { x: c.x - d, y: c.y, id: 1 },
      { x: c.x + d, y: c.y, id: 2 },
    ];
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: fingers(30) });
    for (const d of [40, 50, 60, 70])
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: fingers(d) });
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    const pinched = await zoomOf(page);
    assert.ok(pinched > before * 1.5, `pinched from ${before} to ${pinched}`);
    await page.getByRole("button", { name: "fit the map" }).tap();
    assert.equal(await zoomOf(page), 1, "one tap: the whole board");
    assert.deepEqual(h.pageErrors(page), []);
  });

  test("the 1935 board on a phone opens close up on Italy's units", async () => {
    const page = await h.as("carol", PHONE, true);
    await page.goto(`${h.base}/game/${committee}`);
    await page.locator('.game .map g.unit[data-power="italy"]').first().waitFor();
    await page.waitForFunction(
      () =>
        Number(
          (
            globalThis as unknown as {
              document: { querySelector(s: string): { dataset: { zoom?: string } } | null };
            }
          ).document.querySelector(".game .map")?.dataset.zoom ?? 0,
        ) > 1,
    );
    await noSideways(page, "the 1935 game");
    const mine = await units(page, "italy");
    assert.ok(mine.length >= 4, `Italy's units: ${mine.length}`);
    const shown = mine.filter((u) => u.inside);
    assert.ok(shown.length >= 3, `most of Italy's units in view: ${JSON.stringify(mine)}`);
    // The committee's fleets are drawn about twice as wide as tall (docs/europe1935.md).
    for (const u of mine)
      assert.ok(u.w >= 20 && u.h >= 14, `${u.at} is ${u.w.toFixed(1)}×${u.h.toFixed(1)} px`);
    assert.deepEqual(await smallTargets(page), [], "every button at least 44 px");
    await h.docShot(page, "pocket-1935-phone");
    assert.deepEqual(h.pageErrors(page), []);
  });

  test("Global Diplomacy on a phone: the map before the command box, close up", async () => {
    const page = await h.as("w3", PHONE, true);
    await page.goto(`${h.base}/game/${world}`);
    await page.locator('.game .map g.unit[data-power="3"]').first().waitFor();
    await page.waitForFunction(
      () =>
        Number(
          (
            globalThis as unknown as {
              document: { querySelector(s: string): { dataset: { zoom?: string } } | null };
            }
          ).document.querySelector(".game .map")?.dataset.zoom ?? 0,
        ) > 1,
    );
    await noSideways(page, "the Global Diplomacy game");
    const map = (await page.locator(".game .map").boundingBox())!;
    const box = (await page.getByRole("textbox", { name: "commands" }).boundingBox())!;
    assert.ok(map.y + map.height <= box.y, "the map comes before the command box");
    assert.ok(map.y < PHONE.height, "the map in view when the page opens");
    for (const u of await units(page, "3")) {
      assert.ok(u.inside, `${u.at} is in view`);
      assert.ok(u.w >= 20, `${u.at} is ${u.w.toFixed(1)} px`);
    }
    assert.deepEqual(await smallTargets(page), [], "every button at least 44 px");
    await h.docShot(page, "pocket-world-phone");
    assert.deepEqual(h.pageErrors(page), []);
  });

  test("at 1440×900 the order tabs are in view without scrolling, once the chart is shown", async () => {
    // A phase adjudicated: the chart of centres stands beside the board too.
    await h.api.ok(
      "POST",
      `/api/games/${classical}/gm/deadline`,
      { at: new Date().toISOString() },
      h.tokens.gm,
    );
    // The scheduler adjudicates on its next tick; bounded.
    const until = Date.now() + 30_000;
    while ((await h.api.ok<GameJson>("GET", `/api/games/${classical}`)).phase === "S1901M") {
      assert.ok(Date.now() < until, "the phase was adjudicated");
      await new Promise((r) => setTimeout(r, 50));
    }
    const page = await h.as("alice", DESKTOP);
    await page.goto(`${h.base}/game/${classical}`);
    await page.locator(".game .map svg").waitFor();
    await page.locator(".game .centre-chart").waitFor();
    for (const name of ["Orders", "History", "Press", "Votes"]) {
      const tab = (await page.getByRole("tab", { name }).boundingBox())!;
      assert.ok(
        tab.y >= 0 && tab.y + tab.height <= DESKTOP.height,
        `${name} at ${Math.round(tab.y)}–${Math.round(tab.y + tab.height)}`,
      );
    }
    assert.equal(await zoomOf(page), 1, "a desktop opens on the whole board");
    await h.docShot(page, "pocket-game-desktop");
    assert.deepEqual(h.pageErrors(page), []);
  });
});
