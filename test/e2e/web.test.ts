import assert from "node:assert/strict";
import { get as httpGet } from "node:http";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { gunzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import type { Api } from "../../src/server/testing.ts";
import { ARTIFACTS, BrowserHarness, type GameJson, SUITE_MS } from "./harness.ts";

/*
 * The web client end to end: Chromium (Debian's /usr/bin/chromium, headless) against a judge
 * server on an ephemeral port with a fresh SQLite store. A game is created in the lobby, a
 * player joins by the invitation link and orders by clicking and by typing, the GM resolves,
 * the history shows the results with explanations; the sandbox adjudicates a what-if; the
 * chair reveals and steps through a chaired phase. Screenshots go to test-artifacts/.
 */

// What the functions run inside the page use (the test files are type-checked without the DOM).
interface PageElement {
  getBoundingClientRect(): { left: number; top: number; width: number; height: number };
  closest(selector: string): PageElement | null;
  getAttribute(name: string): string | null;
}
declare const document: {
  querySelector(selector: string): PageElement | null;
  elementFromPoint(x: number, y: number): PageElement | null;
};
const h = new BrowserHarness();
let base: string;
let api: Api;
const tokens = h.tokens;
const as = (user: string, viewport?: { width: number; height: number }) => h.as(user, viewport);
const shot = (page: Page, name: string) => h.shot(page, name);

/** Clicks a province on the map where it is not covered by another one's name or unit. */
async function clickProvince(page: Page, id: string): Promise<void> {
  const at = await page.evaluate((id) => {
    const el = document.querySelector(`.map [data-province="${id}"]`);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    for (let i = 1; i < 24; i++) {
      for (let j = 1; j < 24; j++) {
        const x = r.left + (r.width * i) / 24;
        const y = r.top + (r.height * j) / 24;
        const hit = document.elementFromPoint(x, y)?.closest("[data-province]");
        if (hit?.getAttribute("data-province") === id) return { x, y };
      }
    }
    return null;
  }, id);
  assert.ok(at, `${id} is drawn and can be clicked`);
  await page.mouse.click(at.x, at.y);
}

/** The result row whose order is exactly `order`. */
const outcome = (page: Page, scope: string, order: string) =>
  page
    .locator(`${scope} .outcome`)
    .filter({ has: page.locator("code", { hasText: new RegExp(`^${order}$`) }) });

describe("the web client in Chromium", { timeout: SUITE_MS }, () => {
  before(async () => {
    await h.start(["chair", "alice", "bob", "carol"]);
    base = h.base;
    api = h.api;
  });

  after(() => h.close());

  test("pages carry a content security policy; the game page's script is small", async () => {
    const res = await fetch(`${base}/`, { headers: { "accept-encoding": "gzip" } });
    const csp = res.headers.get("content-security-policy") ?? "";
    assert.match(csp, /script-src 'self'/, `the CSP limits scripts to this origin: ${csp}`);
    const html = await res.text();
    const src = /src="(\/assets\/app\.js\?v=[0-9a-f]+)"/.exec(html)?.[1];
    assert.ok(src, "the shell loads the bundle");
    const js = await fetch(`${base}${src}`, { headers: { "accept-encoding": "gzip" } });
    assert.equal(js.headers.get("content-encoding"), "gzip", "the bundle is sent compressed");
    const gz = Buffer.from(await js.arrayBuffer());
    // fetch undoes the gzip; measure the compressed size the server sends.
    const raw = await new Promise<Buffer>((resolve, reject) => {
      httpGet(`${base}${src}`, { headers: { "accept-encoding": "gzip" } }, (r) => {
        const parts: Buffer[] = [];
        r.on("data", (c: Buffer) => parts.push(c));
        r.on("end", () => resolve(Buffer.concat(parts)));
      }).on("error", reject);
    });
    const size = raw.length;
    console.log(
      `# client bundle: ${(gunzipSync(raw).length / 1024).toFixed(1)} KB, ${(size / 1024).toFixed(1)} KB gzipped`,
    );
    assert.ok(gz.length > 1000, "the bundle is not empty");
    assert.ok(size < 250 * 1024, `the game page's script is under 250 KB compressed (${size} B)`);
  });

  let gameId = "";

  test("lobby: the GM logs in and creates a game; names are shown as text", async () => {
    const page = await h.anonymous();
    await page.goto(`${base}/`);
    await page.getByLabel("Name", { exact: true }).fill("chair");
    await page.getByLabel("Password").fill("chair-judge-password");
    await page.getByRole("button", { name: "Log in" }).click();
    const form = page.getByRole("form", { name: "create a game" });
    await form.locator('input[name="game-name"]').fill("<b>Club</b> & game");
    await form.locator('select[name="scenario"]').selectOption("4");
    await form.locator('select[name="unit"]').selectOption("hours");
    await shot(page, "01-lobby-create");
    await form.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/game\//);
    gameId = decodeURIComponent(page.url().split("/game/")[1]!);
    const h1 = page.locator("h1");
    assert.equal(await h1.textContent(), "<b>Club</b> & game", "the name is shown as written");
    assert.equal(await h1.locator("b").count(), 0, "the name's markup is not markup");
    await page.getByRole("tab", { name: "Game master" }).click();
    await page.getByText("Invitations").waitFor();
    await shot(page, "02-gm-console");
    await page.close();
  });

  test("a player joins by the invitation link and gives orders by clicking and typing", async () => {
    const game = await api.ok<GameJson>("GET", `/api/games/${gameId}`, undefined, tokens.chair);
    const code = game.invites!.find((i) => i.role === "player")!.code;
    // Bob takes seat 1 (Austria and France) over the API; Alice joins in the browser.
    await api.ok("POST", `/api/invites/${code}`, { seat: 1 }, tokens.bob);
    const page = await as("alice");
    await page.goto(`${base}/join/${code}`);
    await page.getByRole("button", { name: /England/ }).click();
    await page.waitForURL(/\/game\//);
    await api.ok("POST", `/api/games/${gameId}/gm/start`, undefined, tokens.chair);
    await page.reload();
    await page.locator(".map svg").waitFor();
    // Clicking: the fleet in London, Move, then the North Sea on the map.
    await page.locator('[data-unit="lon"]').click();
    await page.locator('[data-action="move"]').click();
    await shot(page, "03-orders-click-choices");
    await clickProvince(page, "nth");
    await page.locator(".diags li.ok", { hasText: "F lon - nth" }).waitFor();
    // Clicking on the list only: Liverpool, Move, Yorkshire.
    await page.locator('[data-unit="lvp"]').click();
    await page.locator('[data-action="move"]').click();
    await page.getByRole("button", { name: "A lvp - yor", exact: true }).click();
    await page.locator(".diags li.ok", { hasText: "A lvp - yor" }).waitFor();
    // Typing: a misspelt line gets a diagnostic as it is typed, then is fixed.
    const text = page.locator("textarea.orders-text");
    await text.press("End");
    await text.press("Control+End");
    await text.pressSequentially("\nF edi - Norwegain Sea");
    const bad = page.locator(".diags li.bad");
    await bad.waitFor();
    assert.match((await bad.textContent()) ?? "", /edi|Norweg/i, "the bad line is named");
    await shot(page, "04-orders-typing-diagnostic");
    await text.fill(`${(await text.inputValue()).replace(/\n.*$/, "")}\nF edi - nwg`);
    await page.locator(".diags li.ok", { hasText: "F edi - nwg" }).waitFor();
    assert.equal(await page.locator(".diags li.bad").count(), 0, "every line is understood");
    const value = await text.inputValue();
    assert.match(value, /^F lon - nth$/m, "the click wrote the canonical order into the text");
    assert.match(value, /^A lvp - yor$/m, "both ways share one order set");
    // The units list shows the same canonical orders as the text.
    assert.match(
      (await page.locator('[data-unit="edi"]').textContent()) ?? "",
      /- nwg/,
      "the unit's button shows its order",
    );
    await page.getByRole("button", { name: "Submit final" }).click();
    await page.getByText(/Final orders received/).waitFor();
    await shot(page, "05-orders-submitted");
    const sets = await api.ok<{ sets: { orders: string[]; final: boolean }[] }>(
      "GET",
      `/api/games/${gameId}/orders`,
      undefined,
      tokens.alice,
    );
    assert.deepEqual(
      sets.sets[0]?.orders,
      ["F lon - nth", "A lvp - yor", "F edi - nwg"],
      "the judge has the three orders",
    );
    assert.equal(sets.sets[0]?.final, true, "marked final");
    const errors = h.pageErrors(page);
    assert.deepEqual(errors, [], "no script errors on the game page");
  });

  test("the GM resolves; the player reads the result and its explanation in the history", async () => {
    await api.ok(
      "POST",
      `/api/games/${gameId}/orders`,
      { orders: "France:\nA par - bur\nAustria:\nA vie - gal", final: true },
      tokens.bob,
    );
    const gm = await as("chair");
    await gm.goto(`${base}/game/${gameId}`);
    // The GM alone sees the order sets sent so far.
    await gm.locator("code", { hasText: "F lon - nth" }).waitFor();
    await gm.getByRole("tab", { name: "Game master" }).click();
    await gm.getByRole("button", { name: "Resolve now" }).click();
    await gm.getByText("Resolve: done.").waitFor();
    const page = await as("alice");
    await page.goto(`${base}/game/${gameId}`);
    await page.getByRole("tab", { name: "History" }).click();
    const row = outcome(page, "", "F lon - nth");
    await row.waitFor();
    assert.match((await row.textContent()) ?? "", /succeeds/, "the move succeeded");
    const why = (await row.locator(".explanation").textContent()) ?? "";
    assert.ok(why.length > 10, `an explanation is shown: "${why}"`);
    await shot(page, "06-history-result");
    // Press with markup in it is shown as the text it is.
    await page.getByRole("tab", { name: "Press" }).click();
    const evil = '<img src=x onerror="document.title=1">Hello, <b>France</b>';
    await page.getByLabel("message").fill(evil);
    await page.getByRole("button", { name: "Send" }).click();
    const body = page.locator(".press-body").last();
    await body.waitFor();
    assert.equal(await body.textContent(), evil, "the message is shown as written");
    assert.equal(await page.locator(".press img, .press b").count(), 0, "and is not markup");
    // A phone: the same page in one column.
    const phone = await as("alice", { width: 390, height: 844 });
    await phone.goto(`${base}/game/${gameId}`);
    await phone.locator(".map svg").waitFor();
    await shot(phone, "07-phone-orders");
    // The board opens close up on the phone (test/e2e/pocket.test.ts measures it); "whole map"
    // shows all of it.
    await phone.locator('.map[data-zoom]:not([data-zoom="1"])').waitFor();
    await phone.getByRole("button", { name: "fit the map" }).click();
    await phone.locator('.map[data-zoom="1"]').waitFor();
    await phone.screenshot({ path: join(ARTIFACTS, "07b-phone-map-whole.png") });
  });

  test("sandbox: a what-if adjudicated with explanations, nothing stored", async () => {
    const page = await as("carol");
    await page.goto(`${base}/sandbox`);
    await page.locator(".map svg").waitFor();
    const offered = await page.locator("option").allTextContents();
    assert.ok(
      offered.includes("europe1935") &&
        !offered.includes("global") &&
        !offered.includes("discovery"),
      `the standard-rules variants are offered, not the other game families (${offered.join(", ")})`,
    );
    await page
      .locator("textarea.orders-text")
      .fill("England:\nF lon - eng\nFrance:\nF bre - eng\nA par - pic");
    await page.locator(".diags li.ok", { hasText: "A par - pic" }).waitFor();
    await page.locator('[data-action="adjudicate"]').click();
    const lon = outcome(page, ".result", "F lon - eng");
    await lon.waitFor();
    assert.match((await lon.textContent()) ?? "", /fails/, "London's fleet bounces");
    const bre = outcome(page, ".result", "F bre - eng");
    assert.match((await bre.textContent()) ?? "", /fails/, "so does Brest's: a standoff");
    assert.ok(
      ((await bre.locator(".explanation").textContent()) ?? "").length > 10,
      "with an explanation",
    );
    const pic = outcome(page, ".result", "A par - pic");
    assert.match((await pic.textContent()) ?? "", /succeeds/, "Paris's army reaches Picardy");
    await shot(page, "08-sandbox-result");
    const games = await api.ok<unknown[]>("GET", "/api/games");
    assert.equal(games.length, 1, "the sandbox stored no game");
  });

  test("chair: delegations' orders hidden until the chair reveals and steps through them", async () => {
    const g = await api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Committee", scenario: "4", options: { deadlines: { unit: "minutes" } } },
      tokens.chair,
    );
    await api.ok("POST", `/api/games/${g.id}/chair`, { on: true }, tokens.chair);
    const code = g.invites!.find((i) => i.role === "player")!.code;
    await api.ok("POST", `/api/invites/${code}`, { seat: 0 }, tokens.alice);
    await api.ok("POST", `/api/invites/${code}`, { seat: 1 }, tokens.bob);
    await api.ok("POST", `/api/games/${g.id}/gm/start`, undefined, tokens.chair);
    const started = await api.ok<GameJson & { deadline: string | null }>(
      "GET",
      `/api/games/${g.id}`,
    );
    assert.equal(started.deadline, null, "a chaired phase has no deadline");
    // A delegation orders on a phone.
    const phone = await as("alice", { width: 390, height: 844 });
    await phone.goto(`${base}/game/${g.id}`);
    await phone.locator("textarea.orders-text").fill("F lon - eng\nA lvp - wal");
    await phone.locator(".diags li.ok", { hasText: "A lvp - wal" }).waitFor();
    await phone.getByRole("button", { name: "Submit final" }).click();
    await phone.getByText(/Final orders received/).waitFor();
    await api.ok(
      "POST",
      `/api/games/${g.id}/orders`,
      { orders: "France:\nF bre - eng\nA par - pic", final: true },
      tokens.bob,
    );
    // Nobody else sees them before the reveal.
    const seen = await api.call("GET", `/api/games/${g.id}/orders`, undefined, tokens.carol);
    assert.equal(seen.status, 403, "an outsider cannot read the orders");
    const chair = await as("chair", { width: 1600, height: 1000 });
    await chair.goto(`${base}/chair/${g.id}`);
    await chair.locator(".delegations li.in", { hasText: "England" }).waitFor();
    await chair.getByRole("button", { name: "Diplomacy" }).click();
    await chair.locator('.chair-clock[data-stage="diplomacy"]').waitFor();
    assert.match(
      (await chair.locator(".clock").textContent()) ?? "",
      /^(30:00|29:5\d)$/,
      "thirty minutes of diplomacy before the first turn",
    );
    await shot(chair, "09-chair-before-reveal");
    await chair.locator('[data-action="reveal"]').click();
    await chair.getByRole("heading", { name: "All orders" }).waitFor();
    assert.match(
      (await chair.locator(".all-orders").textContent()) ?? "",
      /F lon - eng.*F bre - eng|F bre - eng.*F lon - eng/s,
      "every delegation's orders are shown at once",
    );
    await shot(chair, "10-chair-all-orders");
    await chair.keyboard.press("ArrowRight");
    await chair.getByRole("heading", { name: /Order 1 of/ }).waitFor();
    const first = (await chair.locator(".explain").textContent()) ?? "";
    assert.ok(first.length > 10, `the first result is explained: ${first}`);
    // Step to the English fleet's bounce.
    for (let i = 0; i < 30; i++) {
      if (/F lon - eng/.test((await chair.locator(".explain").textContent()) ?? "")) break;
      await chair.keyboard.press("ArrowRight");
    }
    const bounce = (await chair.locator(".explain").textContent()) ?? "";
    assert.match(bounce, /F lon - eng.*fails/s, `London's fleet fails: ${bounce}`);
    await shot(chair, "11-chair-step");
    await chair.keyboard.press("End");
    await chair.locator('[data-action="next-phase"]').click();
    await chair.locator(".chair-phase", { hasText: "F1901M" }).waitFor();
    await shot(chair, "12-chair-next-phase");
  });

  test("chair: the projector shows the committee's victory points", async () => {
    const g = await api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Historical Committee", variant: "europe1935" },
      tokens.chair,
    );
    const page = await as("chair", { width: 1600, height: 1000 });
    await page.goto(`${base}/chair/${g.id}`);
    const table = page.locator(".points table");
    await table.waitFor();
    assert.match((await table.textContent()) ?? "", /Total/, "the table has its totals");
    assert.equal(await table.locator("tbody tr").count(), 9, "one row per great power");
    await shot(page, "13-chair-points");
  });
});
