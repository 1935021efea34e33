import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { BrowserHarness, type GameJson, SUITE_MS } from "./harness.ts";

/*
 * The board around a game in Chromium (issue 19): the supply centres beside it, zoom and pan
 * (buttons, keyboard, wheel) kept while the board redraws, names shown from their zoom on,
 * missed orders (NMR) marked in the history, the wording a player understands (powers by
 * name, an illegal order called illegal) and the favicon. Screenshots at 1440×900 and
 * 390×844 go to test-artifacts/ and, the ones docs/web.md shows, to docs/screens/.
 */

const h = new BrowserHarness();
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

interface SvgLike {
  getAttribute(name: string): string | null;
  querySelectorAll(
    sel: string,
  ): ArrayLike<{ getAttribute(n: string): string | null; style: { display: string } }>;
}
declare const document: {
  querySelector(selector: string): SvgLike | null;
  querySelectorAll(selector: string): unknown;
};

const viewBox = (page: Page) =>
  page.evaluate(() =>
    (document.querySelector(".game .map svg")?.getAttribute("viewBox") ?? "")
      .split(" ")
      .map(Number),
  );
const zoomLevel = async (page: Page) =>
  Number(await page.locator(".game .map").getAttribute("data-zoom"));
/** A name on the map: whether it is shown, and the least zoom it carries (1 if none). */
const label = (page: Page, text: string) =>
  page.evaluate((t) => {
    const all = document.querySelectorAll(".game .map .labels text") as unknown as ArrayLike<{
      textContent: string | null;
      style: { display: string };
      getAttribute(n: string): string | null;
    }>;
    const l = Array.from(all).find((x) => x.textContent === t);
    return l
      ? {
          shown: l.style.display !== "none",
          minZoom: Number(l.getAttribute("data-min-zoom") ?? 1),
          maxZoom: Number(l.getAttribute("data-max-zoom") ?? Number.POSITIVE_INFINITY),
        }
      : null;
  }, text);

describe("the board in Chromium: centres, zoom, NMRs, wording", { timeout: SUITE_MS }, () => {
  let id = "";
  let code = "";
  before(async () => {
    await h.start(["gm", "alice", "bob"]);
    const g = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Board", scenario: "7", options: { deadlines: { unit: "hours" } } },
      h.tokens.gm,
    );
    id = g.id;
    code = g.invites!.find((i) => i.role === "player")!.code;
  });
  after(() => h.close());

  test("the invitation names seats as players do: Austria, not Austria (austria)", async () => {
    const page = await h.as("alice", DESKTOP);
    await page.goto(`${h.base}/join/${code}`);
    const seat = page.locator(".chips button", { hasText: "England" });
    await seat.waitFor();
    assert.equal((await seat.textContent())?.trim(), "England", "the seat is its power's name");
    const all = await page.locator(".chips button").allTextContents();
    assert.ok(all.includes("Austria"), `Austria is offered by name: ${all.join(" | ")}`);
    assert.ok(!all.some((t) => /\(/.test(t)), `no power written twice: ${all.join(" | ")}`);
    await seat.click();
    await page.waitForURL(/\/game\//);
    const view = await h.api.ok<{ seatList: { index: number; powers: string[] }[] }>(
      "GET",
      `/api/games/${id}`,
    );
    const france = view.seatList.find((s) => s.powers.includes("france"))!;
    await h.api.ok("POST", `/api/invites/${code}`, { seat: france.index }, h.tokens.bob);
    await h.api.ok("POST", `/api/games/${id}/gm/start`, undefined, h.tokens.gm);
  });

  test("supply centres: every power's count and its builds or removals due, beside the board", async () => {
    const page = await h.as("alice", DESKTOP);
    await page.goto(`${h.base}/game/${id}`);
    const table = page.getByRole("table", { name: "supply centres" });
    await table.waitFor();
    const rows = table.locator("tbody tr");
    assert.equal(await rows.count(), 7, "a row for each of the seven powers");
    assert.equal(await table.locator('tr[data-power="russia"]').getAttribute("data-centres"), "4");
    const england = table.locator('tr[data-power="england"]');
    assert.equal(await england.locator("th").textContent(), "England", "named as players say it");
    assert.deepEqual(
      await england.locator("td").allTextContents(),
      ["3", "3", "—"],
      "England: 3 centres, 3 units, nothing due",
    );
    assert.match((await table.locator("caption").textContent()) ?? "", /S1901M/);
    // The table sits beside the board, above the tabs (under the board on a phone).
    const box = await table.boundingBox();
    const map = await page.locator(".game .map").boundingBox();
    assert.ok(
      box && map && box.x >= map.x + map.width && box.y < map.y + map.height,
      "the table is beside the board",
    );
    await h.docShot(page, "board-centres-desktop");
    const phone = await h.as("alice", PHONE);
    await phone.goto(`${h.base}/game/${id}`);
    await phone.getByRole("table", { name: "supply centres" }).scrollIntoViewIfNeeded();
    await h.docShot(phone, "board-centres-phone");
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });

  test("an illegal order is called illegal; unreadable text is not understood", async () => {
    const page = await h.as("alice", DESKTOP);
    await page.goto(`${h.base}/game/${id}`);
    await page.locator("textarea.orders-text").fill("A lvp - mun\nF lon - xyzzy");
    const bad = page.locator(".diags li.bad");
    await bad.nth(1).waitFor();
    const texts = await bad.allTextContents();
    assert.match(texts[0] ?? "", /A lvp - mun — illegal: /, `the move is illegal: ${texts[0]}`);
    assert.match(texts[1] ?? "", /not understood/, `the gibberish is not understood: ${texts[1]}`);
    assert.doesNotMatch(
      texts[0] ?? "",
      /not understood/,
      "an illegal order is not 'not understood'",
    );
  });

  test("zoom and pan: buttons, keyboard and wheel, names from their zoom on, kept on redraw", async () => {
    const page = await h.as("alice", DESKTOP);
    await page.goto(`${h.base}/game/${id}`);
    await page.locator(".game .map svg").waitFor();
    const whole = await viewBox(page);
    assert.equal(await zoomLevel(page), 1, "the board starts fitted");
    const clyde = (await label(page, "CLY"))!;
    assert.ok(clyde.minZoom > 2.25, `Clyde's small name is for a close view: ${clyde.minZoom}`);
    assert.equal(clyde.shown, false, "Clyde's small name waits for its zoom");
    await page.getByRole("button", { name: "zoom in" }).click();
    assert.equal(await zoomLevel(page), 1.5, "+ zooms in by half");
    const zoomed = await viewBox(page);
    assert.ok(
      Math.abs(zoomed[2]! - whole[2]! / 1.5) < 1,
      `a third less of the map is shown: ${zoomed}`,
    );
    // The keyboard on the focused map: + again, then the arrows pan.
    await page.locator(".game .map").focus();
    await page.keyboard.press("+");
    assert.equal(await zoomLevel(page), 2.25, "+ on the keyboard");
    const lvp = (await label(page, "LVP"))!;
    assert.ok(lvp.minZoom > 1 && lvp.minZoom <= 2.25, `Liverpool's name: ${lvp.minZoom}`);
    assert.equal(lvp.shown, true, "Liverpool's name is shown at 2.25×");
    assert.equal((await label(page, "CLY"))!.shown, false, "Clyde's still waits at 2.25×");
    const before = await viewBox(page);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
    const panned = await viewBox(page);
    assert.ok(
      panned[0]! > before[0]! && panned[1]! > before[1]!,
      `the arrows pan: ${before} → ${panned}`,
    );
    await page.keyboard.press("0");
    assert.equal(await zoomLevel(page), 1, "0 fits the map");
    assert.deepEqual(await viewBox(page), whole, "fitted is the whole board");
    // The wheel zooms around the pointer.
    const map = (await page.locator(".game .map").boundingBox())!;
    await page.mouse.move(map.x + map.width * 0.3, map.y + map.height * 0.3);
    await page.mouse.wheel(0, -300);
    await page.waitForFunction(
      () =>
        Number(
          (document.querySelector(".game .map") as unknown as SvgLike).getAttribute("data-zoom"),
        ) > 1,
    );
    for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "zoom in" }).click();
    assert.ok((await zoomLevel(page)) >= clyde.minZoom, "close up");
    // Close up, every name is shown: Clyde's abbreviation, or from its threshold on its full
    // name in its place (docs/maps.md).
    const cly = (await label(page, "CLY"))!;
    const closer = (await zoomLevel(page)) >= cly.maxZoom;
    assert.equal(cly.shown, !closer, "CLY shown until its full name takes over");
    assert.equal((await label(page, "Clyde"))!.shown, closer, "Clyde in full from its zoom");
    assert.ok(cly.shown || (await label(page, "Clyde"))!.shown, "every name is shown close up");
    // A redraw (an order typed draws it on the board) keeps the view.
    const kept = await viewBox(page);
    await page.locator("textarea.orders-text").fill("F lon - nth\nA lvp - yor\nF edi - nwg");
    await page.locator(".diags li.ok", { hasText: "F edi - nwg" }).waitFor();
    await page.locator(".game .map .orders g").first().waitFor();
    assert.deepEqual(await viewBox(page), kept, "the zoom stays while the board redraws");
    await h.docShot(page, "board-zoom-desktop");
    await page.getByRole("button", { name: "Submit final" }).click();
    await page.getByText(/Final orders received/).waitFor();
    // The phase is resolved: the live update redraws the board, zoomed as it was.
    const level = await zoomLevel(page);
    await h.api.ok("POST", `/api/games/${id}/chair/resolve`, undefined, h.tokens.gm);
    await page.locator(".meta strong", { hasText: "F1901M" }).waitFor();
    await page.waitForFunction(
      () => document.querySelector(".game .map svg")?.getAttribute("data-phase") === "F1901M",
    );
    assert.equal(await zoomLevel(page), level, "the zoom survives the new phase");
    assert.deepEqual(await viewBox(page), kept, "and so does the view");
    // On a phone, the buttons zoom too.
    const phone = await h.as("alice", PHONE);
    await phone.goto(`${h.base}/game/${id}`);
    await phone.locator(".game .map svg").waitFor();
    // It opens close up on England's units (pocket.test.ts); from the whole map, two steps.
    await phone.locator('.game .map[data-zoom]:not([data-zoom="1"])').waitFor();
    await phone.getByRole("button", { name: "fit the map" }).click();
    await phone.getByRole("button", { name: "zoom in" }).click();
    await phone.getByRole("button", { name: "zoom in" }).click();
    assert.equal(await zoomLevel(phone), 2.25, "zoomed on a phone");
    await h.docShot(phone, "board-zoom-phone");
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });

  test("history marks the powers that sent no orders apart from those that did", async () => {
    const page = await h.as("alice", DESKTOP);
    await page.goto(`${h.base}/game/${id}`);
    await page.getByRole("tab", { name: "History" }).click();
    const russia = page.locator('.outcomes section[data-nmr="russia"]');
    await russia.waitFor();
    assert.match(
      (await russia.locator(".nmr-note").textContent()) ?? "",
      /no orders received: units held/,
      "Russia sent nothing: its units held",
    );
    assert.equal(
      await page.locator('.outcomes section[data-nmr="england"]').count(),
      0,
      "England gave orders",
    );
    const nmr = await page.locator(".outcomes section.nmr").count();
    assert.equal(nmr, 6, "the six powers without orders are marked");
    const englandSection = page.locator(".outcomes section", { hasText: "England" });
    assert.equal(await englandSection.locator(".nmr-note").count(), 0, "no note for England");
    await page.locator('.outcomes section[data-nmr="france"]').scrollIntoViewIfNeeded();
    await h.docShot(page, "history-nmr-desktop");
    const phone = await h.as("alice", PHONE);
    await phone.goto(`${h.base}/game/${id}`);
    await phone.getByRole("tab", { name: "History" }).click();
    await phone.locator('.outcomes section[data-nmr="france"]').scrollIntoViewIfNeeded();
    await h.docShot(phone, "history-nmr-phone");
  });

  test("a favicon: a small SVG served by the judge, named by every page", async () => {
    const res = await fetch(`${h.base}/favicon.svg`);
    assert.equal(res.status, 200, "the icon is served");
    assert.equal(res.headers.get("content-type"), "image/svg+xml");
    const svg = await res.text();
    assert.match(svg, /^<svg /, "an SVG");
    assert.ok(svg.length < 1024, `small (${svg.length} B)`);
    assert.equal((await fetch(`${h.base}/favicon.ico`)).status, 200, "the browser's default ask");
    const page = await h.anonymous();
    await page.goto(`${h.base}/game/${id}`);
    assert.equal(await page.locator('link[rel="icon"]').getAttribute("href"), "/favicon.svg");
  });
});
