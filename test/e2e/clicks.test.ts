import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { BrowserHarness, type GameJson } from "./harness.ts";

/*
 * Nothing silent, nothing lost on the page (issue 30): a build by clicking a home centre, a
 * short adjustment set sent final only after the page said what it waives, the history naming
 * the builds left unordered. Screenshots go to test-artifacts/ and, with
 * ENTENTE_DOC_SHOTS=1, the ones docs/web.md shows to docs/screens/.
 */

const h = new BrowserHarness();
const DESKTOP = { width: 1440, height: 900 };

describe("clicks in Chromium: builds, confirmations, the history", { timeout: 300_000 }, () => {
  let id = "";
  const orders = (user: string, list: string[]) =>
    h.api.ok("POST", `/api/games/${id}/orders`, { orders: list }, h.tokens[user]);
  const resolve = () => h.api.ok("POST", `/api/games/${id}/chair/resolve`, undefined, h.tokens.gm);

  before(async () => {
    await h.start(["gm", "alice", "bob"]);
    const g = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Clicks", scenario: "7", options: { deadlines: { unit: "hours" } } },
      h.tokens.gm,
    );
    id = g.id;
    const code = g.invites!.find((i) => i.role === "player")!.code;
    await h.api.ok("POST", `/api/invites/${code}`, { power: "england" }, h.tokens.alice);
    await h.api.ok("POST", `/api/invites/${code}`, { power: "france" }, h.tokens.bob);
    await h.api.ok("POST", `/api/games/${id}/gm/start`, undefined, h.tokens.gm);
    // England takes Norway: one build due in W1901A, at London (its fleet left) or Liverpool.
    await orders("alice", ["F lon - nth", "F edi - nwg", "A lvp - yor"]);
    await resolve();
    await orders("alice", ["F nth - nwy", "F nwg - nao", "A yor - edi"]);
    await resolve();
  });
  after(() => h.close());

  /** A second game, six-minute movement phases, England (alice) and France (bob) seated. */
  let console6 = "";
  const consoleGame = async () => {
    if (console6) return console6;
    const g = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      {
        name: "Console",
        scenario: "7",
        options: { deadlines: { unit: "minutes", movement: 6, retreats: 2, adjustments: 2 } },
      },
      h.tokens.gm,
    );
    const code = g.invites!.find((i) => i.role === "player")!.code;
    await h.api.ok("POST", `/api/invites/${code}`, { power: "england" }, h.tokens.alice);
    await h.api.ok("POST", `/api/invites/${code}`, { power: "france" }, h.tokens.bob);
    await h.api.ok("POST", `/api/games/${g.id}/gm/start`, undefined, h.tokens.gm);
    console6 = g.id;
    return g.id;
  };
  const deadlineOf = async (game: string) =>
    Date.parse(
      (await h.api.ok<{ deadline: string }>("GET", `/api/games/${game}`, undefined, h.tokens.gm))
        .deadline,
    );

  test("a build by clicking a home centre; a short final set is confirmed first; the history names the waived build", async () => {
    const page: Page = await h.as("alice", DESKTOP);
    await page.goto(`${h.base}/game/${id}`);
    const pad = page.locator(".orderpad");
    await pad.getByText(/England: 1 build due, 0 ordered/).waitFor();
    // A click on London on the map offers the army and the fleet at once.
    await page.locator('.game .map [data-province="lon"]').first().click({ force: true });
    const fleet = pad.getByRole("button", { name: "build F lon" });
    await fleet.waitFor();
    assert.equal(await pad.getByRole("button", { name: "build A lon" }).count(), 1);
    await fleet.click();
    await pad.getByText(/England: 1 build due, 1 ordered/).waitFor();
    assert.equal(await page.locator("textarea.orders-text").inputValue(), "build F lon");
    await h.shot(page, "clicks-build");

    // Emptied and sent final: the page says what is waived and sends nothing until told.
    await page.locator("textarea.orders-text").fill("");
    await pad.getByText(/England: 1 build due, 0 ordered/).waitFor();
    await page.getByRole("button", { name: "Submit final", exact: true }).click();
    const confirm = page.getByRole("alertdialog");
    await confirm.waitFor();
    assert.match(
      (await confirm.textContent()) ?? "",
      /England: 1 build due, 0 ordered; 1 build will be waived/,
    );
    await h.docShot(page, "build-waive-confirm-desktop");
    const none = await h.api.ok<{ sets: unknown[] }>(
      "GET",
      `/api/games/${id}/orders`,
      undefined,
      h.tokens.alice,
    );
    assert.equal(none.sets.length, 0, "nothing sent before the player confirms");
    await confirm.getByRole("button", { name: "Go back" }).click();
    await page.getByText("Not sent: go on ordering.").waitFor();
    // Confirmed: sent as it is, and the history says so once resolved.
    await page.getByRole("button", { name: "Submit final", exact: true }).click();
    await confirm.getByRole("button", { name: "Submit final anyway" }).click();
    await page.getByText(/Final orders received/).waitFor();
    await resolve();
    await page.reload();
    await page.getByRole("tab", { name: "History" }).click();
    await page.locator("select[aria-label=phase]").selectOption({ label: "3. W1901A" });
    const waived = page.locator('[data-waived="england"]');
    await waived.waitFor();
    assert.match(
      (await waived.textContent()) ?? "",
      /England.*1 build due, 0 ordered: 1 build not ordered, waived/,
    );
    assert.equal(await page.locator("[data-waived]").count(), 1, "only England had builds");
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });

  test("a GM's correction: every player told at once on the open page, and the History marks the phase with when and why", async () => {
    // The Clicks game stands after W1901A, where England built nothing (the test above).
    const page = await h.as("bob", DESKTOP);
    const streaming = page.waitForRequest((r) =>
      r.url().includes(`/api/games/${id}/events?after=`),
    );
    await page.goto(`${h.base}/game/${id}`);
    await streaming;
    const reason = "England's build came by mail before the deadline";
    await h.api.ok(
      "POST",
      `/api/games/${id}/gm/correct`,
      { orders: { england: ["build F lon"] }, reason },
      h.tokens.gm,
    );
    const live = page.locator("[data-corrected-live]");
    await live.waitFor();
    assert.match(
      (await live.textContent()) ?? "",
      new RegExp(`The GM corrected W1901A: ${reason}`),
    );
    await page.getByRole("tab", { name: "History" }).click();
    const select = page.locator("select[aria-label=phase]");
    await select
      .locator("option", { hasText: "3. W1901A (corrected)" })
      .waitFor({ state: "attached" });
    assert.deepEqual(
      (await select.locator("option").allTextContents()).filter((t) => t.includes("corrected")),
      ["3. W1901A (corrected)"],
      "only the corrected phase is marked",
    );
    await select.selectOption({ label: "3. W1901A (corrected)" });
    const note = page.locator(".correction");
    await note.waitFor();
    assert.match((await note.textContent()) ?? "", new RegExp(`Corrected by the GM.*${reason}`));
    assert.ok(await note.locator("time[datetime]").count(), "when it was corrected");
    await page.locator(".outcome code", { hasText: "build F lon" }).waitFor();
    assert.equal(await page.locator("[data-waived]").count(), 0, "England's build now stands");
    await h.docShot(page, "history-corrected-desktop");
    await select.selectOption({ label: "2. F1901M" });
    assert.equal(await page.locator(".correction").count(), 0, "not on the phases left alone");
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });

  test("the proposer of a draw reads their own vote as yes, and may change it", async () => {
    const game = await consoleGame();
    const page = await h.as("bob", DESKTOP);
    await page.goto(`${h.base}/game/${game}`);
    await page.getByRole("tab", { name: "Votes" }).click();
    await page.getByRole("button", { name: "Propose a draw of all survivors" }).click();
    const mine = page.locator(".votes li .your-vote");
    await mine.waitFor();
    assert.equal(
      (await mine.locator("strong").textContent())?.trim(),
      "yes",
      "proposing is voting yes, not 'not cast'",
    );
    assert.equal(
      await mine.getByRole("button", { name: "yes" }).getAttribute("aria-pressed"),
      "true",
    );
    await mine.getByRole("button", { name: "abstain" }).click();
    await page.getByText("Your vote is now abstain").waitFor();
    await mine.getByRole("button", { name: "yes" }).click();
    await page.getByText("Your vote is now yes").waitFor();
    // England, who did not propose, has not voted.
    const other = await h.as("alice", DESKTOP);
    await other.goto(`${h.base}/game/${game}`);
    await other.getByRole("tab", { name: "Votes" }).click();
    await other.getByText("not cast (counts as no)").waitFor();
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });

  test("the GM console: who is still to order, extensions in proportion to the phase, a labelled replacement, refused orders marked, no clock when chaired", async () => {
    const game = await consoleGame();
    // England sends a set with an illegal line; France sends nothing.
    await h.api.ok(
      "POST",
      `/api/games/${game}/orders`,
      { orders: ["F lon - nth", "A lvp - mun"] },
      h.tokens.alice,
    );
    const page = await h.as("gm", DESKTOP);
    await page.goto(`${h.base}/game/${game}`);
    // The GM's Orders tab: England's refused line marked with the reason England read.
    const refused = page.locator('.turn-sets [data-refused="true"]');
    await refused.waitFor();
    assert.match((await refused.textContent()) ?? "", /A lvp - mun.*refused, illegal/);
    assert.match(
      (await page.locator(".turn-sets").textContent()) ?? "",
      /No orders received: Austria, France, Germany, Italy, Russia, Turkey/,
    );
    await page.getByRole("tab", { name: "Game master" }).click();
    const gm = page.locator(".gm");
    const still = gm.getByText(/^Orders received: England; still to order:/);
    await still.waitFor();
    assert.doesNotMatch((await still.textContent()) ?? "", /still to order:.*England/);
    assert.match((await still.textContent()) ?? "", /France/);
    // Six-minute phases: a quarter, a half, a whole phase; the box starts at a quarter.
    for (const name of ["+¼ phase (2 min)", "+½ phase (3 min)", "+a whole phase (6 min)"]) {
      await gm.getByRole("button", { name }).waitFor();
    }
    assert.equal(await gm.getByLabel("minutes").inputValue(), "2");
    const before = await deadlineOf(game);
    await gm.getByRole("button", { name: "+½ phase (3 min)" }).click();
    await gm.locator('[data-feedback="Extend"]').getByText("Extend: done.").waitFor();
    assert.equal((await deadlineOf(game)) - before, 3 * 60_000, "three minutes, not an hour");
    // Replacing a player: labelled, said what it does, the seats by name.
    await gm.getByLabel("Seat").selectOption({ label: "England: alice" });
    await gm.getByText(/Gives a seat to another user at once/).waitFor();
    await h.docShot(page, "gm-console-extend-desktop");
    // Chaired: no deadline, so neither Pause nor Extend; Resolve now stays.
    await gm.getByRole("button", { name: /Chaired: off/ }).click();
    await gm.locator('[data-feedback="phase"]').getByText("Chair mode: done.").waitFor();
    await gm.getByText(/Chaired: the phase has no deadline/).waitFor();
    assert.equal(await gm.getByRole("button", { name: "Pause" }).isVisible(), false);
    assert.equal(
      await gm.getByRole("button", { name: "Extend deadline (minutes)" }).isVisible(),
      false,
    );
    assert.equal(await gm.getByRole("button", { name: "Resolve now" }).isVisible(), true);
    await h.docShot(page, "gm-console-chaired-desktop");
    await gm.getByRole("button", { name: /Chaired: on/ }).click();
    await gm.getByRole("button", { name: "Pause" }).waitFor();
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });

  test("the sandbox: typed orders need no header where the unit tells the power; a click does not change whose a typed line is; each waive names its power", async () => {
    const page = await h.as("bob", DESKTOP);
    await page.goto(`${h.base}/sandbox`);
    await page.locator(".map svg").waitFor();
    const text = page.locator("textarea.orders-text");
    // No header: each line is its unit's power's.
    await text.fill("A mun - ruh\nF lon - nth");
    await page.locator(".diags li.ok", { hasText: "A mun - ruh" }).waitFor();
    await page.locator(".diags li.ok", { hasText: "F lon - nth" }).waitFor();
    assert.equal(await page.locator(".diags li.bad").count(), 0);
    // A click on England's Edinburgh fleet writes it under "England:"; a German order typed
    // after it is still Germany's.
    await page.locator('.orderpad [data-unit="edi"]').click();
    await page.locator('.orderpad [data-action="move"]').click();
    await page.locator(".orderpad .choices button", { hasText: "F edi - nwg" }).click();
    await page.locator(".diags li.ok", { hasText: "F edi - nwg" }).waitFor();
    await text.fill(`${await text.inputValue()}\nA ber - kie`);
    await page.locator(".diags li.ok", { hasText: "A ber - kie" }).waitFor();
    assert.equal(
      await page.locator(".diags li.bad").count(),
      0,
      `no line refused: ${await page.locator(".diags").textContent()}`,
    );
    await page.locator('[data-action="adjudicate"]').click();
    await page.locator(".result .outcome > code", { hasText: /^A ber - kie$/ }).waitFor();

    // A winter where four powers may build: four waives, each naming its power.
    await page.getByText("Position (JSON)").click();
    const json = page.getByLabel("position JSON");
    const pos = JSON.parse(await json.inputValue()) as {
      phase: string;
      units: Record<string, string[]>;
    };
    pos.phase = "W1901A";
    for (const p of ["england", "france", "germany", "italy"]) pos.units[p]!.shift();
    await json.fill(JSON.stringify(pos));
    await page.getByRole("button", { name: "Use this position" }).click();
    const waives = page.locator('.orderpad [data-unit="waive"]');
    await page.locator('.orderpad [data-unit="waive"]', { hasText: "Italy" }).waitFor();
    assert.deepEqual((await waives.allTextContents()).map((t) => t.trim()).sort(), [
      "England: waive a build",
      "France: waive a build",
      "Germany: waive a build",
      "Italy: waive a build",
    ]);
    await h.docShot(page, "sandbox-waives-desktop");
    // A winter where England has a unit too many: a click on one offers its removal at once.
    const again = JSON.parse(await json.inputValue()) as typeof pos;
    again.units.england = [...again.units.england!, "F lon", "A yor"];
    await json.fill(JSON.stringify(again));
    await page.getByRole("button", { name: "Use this position" }).click();
    await page.getByText(/England: 1 unit to remove, 0 ordered/).waitFor();
    await page.locator('.game .map .unit[data-location="yor"]').click();
    await page.locator(".orderpad .choices button", { hasText: "remove yor" }).click();
    await page.getByText(/England: 1 unit to remove, 1 ordered/).waitFor();
    assert.match(await text.inputValue(), /remove yor/);
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });
});
