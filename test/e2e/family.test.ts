import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import type { Api } from "../../src/server/testing.ts";
import { BrowserHarness, type GameJson, SUITE_MS } from "./harness.ts";

/*
 * The game page (src/web/game.ts) of a Global Diplomacy game (seed 004) in Chromium: a game
 * created over the API with its eleven players, England's player reads its opening report,
 * types commands and reads the judge's verdict on each line; France's player sees none of
 * them; the GM sees the set received and resolves the turn from the console; England reads
 * its turn 1 report with the command's result, and the map shows its fleet where it went.
 * An Age of Discovery game: each player's own map, framed on the areas it knows and labelled
 * as its report names them; the moderator map only for the GM.
 * Screenshots go to test-artifacts/.
 */

const h = new BrowserHarness();
let base: string;
let api: Api;
const tokens = h.tokens;
const as = (user: string, viewport?: { width: number; height: number }) => h.as(user, viewport);
const shot = (page: Page, name: string) => h.shot(page, name);
const pageErrors = (page: Page) => h.pageErrors(page);

/** A game of a family with every seat taken over the API (the game starts when full). */
async function familyGame(
  body: Record<string, unknown>,
  players: number,
  prefix: string,
  last?: (code: string, user: string) => Promise<void>,
) {
  const game = await api.ok<GameJson>("POST", "/api/games", body, tokens.gm);
  const code = game.invites!.find((i) => i.role === "player")!.code;
  for (let p = 1; p <= players; p++) {
    const name = `${prefix}${p}`;
    await h.account(name);
    if (p === players && last) await last(code, name);
    else await api.ok("POST", `/api/invites/${code}`, { power: String(p) }, tokens[name]);
  }
  const started = await api.ok<GameJson>("GET", `/api/games/${game.id}`, undefined, tokens.gm);
  assert.equal(started.state, "open", "the game starts when the last seat is taken");
  return game.id;
}

describe("family games on the web page in Chromium", { timeout: SUITE_MS }, () => {
  before(async () => {
    await h.start(["gm"]);
    base = h.base;
    api = h.api;
  });

  after(() => h.close());

  test("Global Diplomacy: report, commands with verdicts, the GM resolves, the new report", async () => {
    const id = await familyGame(
      {
        name: "World <i>1</i>",
        variant: "global",
        seed: 4242,
        options: { deadlines: { unit: "hours", movement: 48 } },
      },
      11,
      "g",
      // The last seat (11, the United States) is taken on the invitation page.
      async (code, user) => {
        const page = await as(user);
        await page.goto(`${base}/join/${code}`);
        await page.getByRole("button", { name: /United States/ }).click();
        await page.waitForURL(/\/game\//);
        await page.locator("pre.report").getByText("Great Power 11-United States").waitFor();
      },
    );

    // England (power 3) finds the game in the lobby and opens it.
    const england = await as("g3");
    await england.goto(`${base}/`);
    await england.locator(`a[href="/game/${id}"]`).first().click();
    await england.waitForURL(/\/game\//);
    // Its opening report, its own units on the map.
    const report = england.locator("pre.report").first();
    await report.getByText("Great Power 3-England").waitFor();
    assert.equal(
      await england.locator("h1").textContent(),
      "World <i>1</i>",
      "the game's name is shown as text",
    );
    assert.match(
      (await england.locator(".report-card h2").textContent()) ?? "",
      /Opening report of 3-England/,
      "before turn 1: the opening report",
    );
    assert.match(
      (await england.locator(".meta").first().textContent()) ?? "",
      /T1 · open · deadline in (1d|2d|47h)/,
      "the turn and its deadline countdown",
    );
    await england.locator(".map svg .unit").first().waitFor();
    const drawnPowers = await england
      .locator(".map svg .unit")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-power")));
    assert.deepEqual(
      [...new Set(drawnPowers)],
      ["3"],
      "a player's map shows only its own units (what the API gave it)",
    );
    assert.equal(drawnPowers.length, 3, "England's three units");
    // The supply table: England's centres and units with their points, balanced; the other
    // powers unknown to England (fog of war), never "0 centres".
    const mine = england.locator('table.centres tr[data-power="3"]');
    await mine.waitFor();
    assert.deepEqual(
      (await mine.locator("td").allTextContents()).map((t) => t.trim()),
      ["4 (6 pts)", "3 (6 pts)", "balanced"],
      "four supply centres (of seven areas), balanced on turn 1",
    );
    assert.equal(await england.locator("table.centres tr[data-unknown]").count(), 10);
    await h.docShot(england, "global-supply-desktop");
    // Framed on England's areas; the whole world a click away.
    const viewBox = () => england.locator(".map svg").getAttribute("viewBox");
    const framed = ((await viewBox()) ?? "").split(" ").map(Number);
    const whole = await api.ok<{ width: number; height: number }>(
      "GET",
      "/api/variants/global/geometry",
    );
    assert.ok(
      framed[2]! < whole.width / 2,
      `the map is framed on England's areas: ${framed.join(" ")}`,
    );
    await england.getByRole("button", { name: "Show the whole world" }).click();
    await england.getByRole("button", { name: "Show my areas" }).waitFor();
    assert.equal(await viewBox(), `0 0 ${whole.width} ${whole.height}`, "the whole world");
    await england.getByRole("button", { name: "Show my areas" }).click();
    await england.getByRole("button", { name: "Show the whole world" }).waitFor();
    const possible = england.locator("details.possible");
    assert.match(
      (await possible.textContent()) ?? "",
      /F\s+7: MO to 4 6 233 234/,
      "the possible commands of the report beside the command box",
    );

    // Commands typed as the seed writes them; the judge answers each line.
    const box = england.getByLabel("commands");
    await box.fill("MO 7 233\nMO 5 233\nSA 3 6\nSP 90 91 92");
    await england.getByRole("button", { name: "Send commands" }).click();
    const verdicts = england.locator(".verdicts li");
    await verdicts.first().waitFor();
    assert.equal(await verdicts.count(), 4, "one verdict per line");
    assert.equal(await england.locator(".verdicts li.ok").count(), 3, "three lines accepted");
    const refused = england.locator(".verdicts li.bad");
    assert.match(
      (await refused.textContent()) ?? "",
      /MO 5 233\s*\S.+/,
      `the refused line with the judge's reason: ${await refused.textContent()}`,
    );
    await england.getByText(/4 command\(s\) on file for T1/).waitFor();
    await shot(england, "family-01-commands");

    // A fresh page shows the set on file.
    await england.reload();
    await england.getByText(/Set on file for T1: 4 command\(s\)/).waitFor();
    assert.equal(
      await england.getByLabel("commands").inputValue(),
      "MO 7 233\nMO 5 233\nSA 3 6\nSP 90 91 92",
      "the set on file is in the command box",
    );

    // France (power 4) sees none of England's commands, nor its units.
    const france = await as("g4");
    await france.goto(`${base}/game/${id}`);
    await france.locator("pre.report").getByText("Great Power 4-France").waitFor();
    await france.getByText(/No commands on file for T1/).waitFor();
    assert.equal(await france.getByLabel("commands").inputValue(), "", "France's box is empty");
    const franceText = (await france.locator("body").textContent()) ?? "";
    assert.ok(!franceText.includes("MO 7 233"), "France does not see England's commands");
    await france.locator(".map svg .unit").first().waitFor();
    const franceDrawn = await france
      .locator(".map svg .unit")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-power")));
    assert.deepEqual([...new Set(franceDrawn)], ["4"], "France's map shows only France's units");

    // The GM sees the set received, then resolves the turn from the console.
    const gm = await as("gm");
    await gm.goto(`${base}/game/${id}`);
    await gm.getByRole("tab", { name: "Turns" }).waitFor();
    await gm.getByText("T1: commands received (seen only by you)").waitFor();
    assert.match(
      (await gm.locator(".turn-sets").first().textContent()) ?? "",
      /3-England.*MO 7 233/s,
      "the GM reads England's commands",
    );
    await gm.getByRole("tab", { name: "Game master" }).click();
    await gm.getByRole("button", { name: "Resolve now" }).click();

    // England's page follows the resolution live: the turn 1 report, the fleet moved.
    await england.locator(".report-card h2").getByText("Turn 1 report of 3-England").waitFor();
    const after1 = (await england.locator("pre.report").first().textContent()) ?? "";
    assert.match(after1, /COMMAND RESULTS/, "the new report has the command results");
    assert.match(after1, /MO 7 233/, "England's move is in its report");
    // Its accounting section (seed 004 §8), as the API gives it to England's player alone.
    const accounting = (await england.locator("pre.accounting").textContent()) ?? "";
    assert.match(accounting, /^ACCOUNTING/, "the accounting section above the report");
    assert.match(accounting, /Great Power 3-England/, "its own power");
    assert.match(
      accounting,
      /\n\s+1\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+\d+ received/,
      "turn 1 processed",
    );
    await england.locator('.map svg .unit[data-location="233"]').waitFor();
    await england.getByText(/No commands on file for T2/).waitFor();
    assert.match(
      (await england.locator(".meta").first().textContent()) ?? "",
      /T2 · open/,
      "turn 2 is open",
    );
    // Its earlier reports: turn 1 is listed.
    assert.deepEqual(
      await england.getByLabel("turn").locator("option").allTextContents(),
      ["Turn 1"],
      "the turns with a report",
    );
    await shot(england, "family-02-after-turn-1");

    // The GM: the adjudicated turn with every power's commands; any power's report.
    await gm.getByRole("tab", { name: "Turns" }).click();
    await gm.getByText(/T1: \d+ command set\(s\)/).waitFor();
    await gm.getByLabel("power").selectOption("4");
    await gm.locator(".report-card h2").getByText("Turn 1 report of 4-France").waitFor();
    assert.equal(await gm.locator("pre.accounting").count(), 0, "no accounting for the GM");
    await gm.locator("details", { hasText: /^T1:/ }).locator("summary").click();
    await shot(gm, "family-05-gm-turns");

    // A phone: the command box first, the report readable (no page-wide horizontal scroll).
    const phone = await as("g3", { width: 390, height: 844 });
    await phone.goto(`${base}/game/${id}`);
    await phone.locator("pre.report").first().getByText("Great Power 3-England").waitFor();
    const overflow = await phone.evaluate(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } })
          .document.documentElement.scrollWidth,
    );
    assert.ok(overflow <= 400, `the page is no wider than the phone (${overflow} px)`);
    await shot(phone, "family-03-phone");
    for (const p of [england, france, gm, phone])
      assert.deepEqual(pageErrors(p), [], "no script errors on the page");
  });

  test("Global Diplomacy: press between two powers, a proposed draw, the GM's draw from the console", async () => {
    const id = await familyGame(
      { name: "Talk", variant: "global", seed: 77, options: { deadlines: { unit: "hours" } } },
      11,
      "t",
    );
    // England (3) writes to France (4) from the Press tab; Germany (5) does not read it.
    const england = await as("t3");
    await england.goto(`${base}/game/${id}`);
    await england.getByRole("tab", { name: "Press" }).click();
    await england.getByRole("button", { name: "+ New conversation" }).click();
    await england.getByLabel(/France/).check();
    await england.getByLabel("message").fill("Shall we share Africa?");
    await england.getByRole("button", { name: "Send", exact: true }).click();
    await england.locator(".press-item").getByText("Shall we share Africa?").waitFor();
    const france = await as("t4");
    await france.goto(`${base}/game/${id}`);
    await france.getByRole("tab", { name: /^Press/ }).click();
    await france.locator('.threads [data-thread="3"]').click();
    const item = france.locator(".press-item", { hasText: "Shall we share Africa?" });
    await item.waitFor();
    assert.match((await item.textContent()) ?? "", /England/);
    const germany = await as("t5");
    await germany.goto(`${base}/game/${id}`);
    await germany.getByRole("tab", { name: /^Press/ }).click();
    assert.equal(await germany.locator('.threads [data-thread="3"]').count(), 0, "not Germany's");
    assert.equal(await germany.getByText("Shall we share Africa?").count(), 0, "nor its text");
    // France proposes a draw from the Votes tab; England sees it open.
    await france.getByRole("tab", { name: "Votes" }).click();
    await france.getByRole("button", { name: "Propose a draw of all survivors" }).click();
    await france.getByText(/A draw including all survivors/).waitFor();
    await england.getByRole("tab", { name: "Votes" }).click();
    await england.getByText(/A draw including all survivors.*open/).waitFor();
    // The GM ends the game with a draw from the console, as in any game.
    const gm = await as("gm");
    await gm.goto(`${base}/game/${id}`);
    await gm.getByRole("tab", { name: "Game master" }).click();
    const ended = gm.waitForResponse((r) => r.url().endsWith("/gm/end") && r.status() === 200);
    await gm.getByRole("button", { name: "Draw (all survivors)" }).click();
    await ended;
    const done = await api.ok<GameJson & { result: { kind: string; powers: string[] } }>(
      "GET",
      `/api/games/${id}`,
      undefined,
      tokens.gm,
    );
    assert.equal(done.result.kind, "draw", "the game ended in a draw");
    assert.equal(done.result.powers.length, 11, "of all eleven powers");
    await shot(france, "family-06-press");
    for (const p of [england, france, germany, gm])
      assert.deepEqual(pageErrors(p), [], "no script errors on the page");
  });

  test("Age of Discovery: a player's own map, as its report knows it; the moderator map for the GM only", async () => {
    const id = await familyGame(
      { name: "Discovery", variant: "discovery", players: 9, seed: 11 },
      9,
      "d",
    );
    const player = await as("d2", { width: 1440, height: 900 });
    await player.goto(`${base}/game/${id}`);
    await player.locator("pre.report").first().waitFor();
    assert.match(
      (await player.locator(".report-card h2").textContent()) ?? "",
      /^Opening report of 2-[A-Z][a-z]+$/,
      "the player's own opening report",
    );
    // The player's own map: the areas it knows, each named as its report names it.
    await player.locator(".map svg .labels text.label").first().waitFor();
    const report = (await player.locator("pre.report").first().textContent()) ?? "";
    const labels = await player.locator(".map svg .labels text.label").allTextContents();
    assert.ok(labels.length >= 5, `its known areas are drawn: ${labels.join(", ")}`);
    for (const l of labels) {
      // The id, and the square where the name fits (the squares' X and Y are on the margins).
      const m = /^(\d+)(?: (\d{4}))?$/.exec(l);
      assert.ok(m, `an area's id and square: "${l}"`);
      assert.match(report, new RegExp(`\\b${m[1]}\\b`), `${l}: an area of the report`);
      if (m[2]) assert.ok(report.includes(m[2]), `${l}: the square as the report names it`);
    }
    assert.ok(
      labels.some((l) => / \d{4}$/.test(l)),
      "areas named by their square where it fits",
    );
    // Framed once the button to widen it is there; the frame, the drawing and its box are
    // then measured at one moment (a live update may draw the map again meanwhile).
    await player.getByRole("button", { name: "Show the whole map" }).waitFor();
    const measured = await player.locator(".map").evaluate((el) => {
      // No named function in here: the page has not the helpers tsx's output would call.
      const svg = el.querySelector("svg")!;
      const [drawn, holder] = [svg, el].map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      });
      return {
        box: svg.getAttribute("viewBox")!,
        fit: svg.getAttribute("data-fit")!,
        drawn: drawn!,
        holder: holder!,
      };
    });
    const box = measured.box.split(" ").map(Number);
    const fit = measured.fit.split(" ").map(Number);
    assert.ok(box[2]! < fit[2]! / 2, `framed on what it knows: ${box} of ${fit}`);
    // The drawing takes the frame's shape: no band of the map's background above the grid.
    const { drawn, holder } = measured;
    assert.ok(
      Math.abs(drawn.width / drawn.height - box[2]! / box[3]!) < 0.01 * (box[2]! / box[3]!),
      `the drawing's shape ${drawn.width}×${drawn.height} is the frame's ${box[2]}×${box[3]}`,
    );
    assert.ok(
      holder.height - drawn.height < 3 && drawn.y - holder.y < 2,
      `the map's box holds the drawing alone: ${JSON.stringify(holder)} / ${JSON.stringify(drawn)}`,
    );
    assert.ok(
      await player.getByRole("button", { name: "Show the whole map" }).isVisible(),
      "and the whole map a click away",
    );
    await h.docShot(player, "discovery-map-desktop");
    const phone = await as("d2", { width: 390, height: 844 });
    await phone.goto(`${base}/game/${id}`);
    await phone.locator(".map svg .labels text.label").first().waitFor();
    await phone.locator(".map").scrollIntoViewIfNeeded();
    await h.docShot(phone, "discovery-map-phone");
    assert.equal(
      await player.getByText("Download the moderator map").count(),
      0,
      "a player is not offered the whole map",
    );
    const gm = await as("gm");
    // The tab the GM chooses while the page still reads the report stays chosen: the report
    // is held back until the click (the page once chose its first tab when the report came,
    // which a loaded machine's slow report made happen after the click: the GM's tools hid).
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const reportUrl = /\/api\/games\/[^/]+\/report/;
    await gm.route(reportUrl, async (route) => {
      await held;
      await route.continue();
    });
    await gm.goto(`${base}/game/${id}`);
    await gm.getByRole("tab", { name: "Game master" }).click();
    release();
    await gm.locator("pre.report").first().waitFor();
    assert.equal(
      await gm.getByRole("tab", { name: "Game master" }).getAttribute("aria-selected"),
      "true",
      "the GM's tab is still the one shown once the report is read",
    );
    const button = gm.getByRole("button", { name: "Download the moderator map (JSON)" });
    await button.waitFor();
    const [file] = await Promise.all([gm.waitForEvent("download"), button.click()]);
    assert.match(file.suggestedFilename(), /^moderator-map-.+\.json$/, "the map is downloaded");
    await shot(player, "family-04-discovery-player");
    for (const p of [player, gm]) assert.deepEqual(pageErrors(p), [], "no script errors");
  });
});
