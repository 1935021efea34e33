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
});
