import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ARTIFACTS, BrowserHarness, type GameJson, SUITE_MS } from "./harness.ts";

/*
 * The lobby's mail settings in Chromium (docs/web.md, docs/email.md): a web player gives an
 * address, then opts out of one game's mail and of all mail; each choice is the API's. A hint
 * beside the box says what it does not stop; a screenshot of the card is kept in
 * test-artifacts/mail-settings-card.png.
 */

const h = new BrowserHarness();

describe("the lobby's mail settings in Chromium", { timeout: SUITE_MS }, () => {
  before(() => h.start(["gm", "dora"]));
  after(() => h.close());

  test("an address, then mail off for one game and for all, as the API stores it", async () => {
    const game = await h.api.ok<GameJson & { label?: string }>(
      "POST",
      "/api/games",
      { name: "Web and mail", label: "WM1" },
      h.tokens.gm,
    );
    assert.equal(game.label, "WM1", "the game's id chosen at creation");
    const code = game.invites!.find((i) => i.role === "player")!.code;
    await h.api.ok("POST", `/api/invites/${code}`, { power: "france" }, h.tokens.dora);
    const page = await h.as("dora");
    await page.goto(`${h.base}/`);
    const card = page.getByRole("region", { name: "mail settings" });
    const all = card.locator('input[name="notices"]');
    assert.equal(await all.isDisabled(), true, "no address yet: nothing to opt out of");
    await card.getByLabel("Mail address").fill("dora@players.test");
    await card.getByRole("button", { name: "Save address" }).click();
    await card.getByText(/Saved: dora@players\.test\. Your secret for order mail: \S+/).waitFor();
    const one = card.locator(`input[name="notices-${game.id}"]`);
    await one.waitFor();
    assert.equal(await one.isChecked(), true, "mail is on by default");
    assert.match((await card.locator("li").first().textContent()) ?? "", /WM1: Web and mail/);
    // Beside the box, what it does not stop (the mail sent with it off: docs/email.md).
    const hint = card.locator("#notices-hint");
    assert.equal(
      await hint.textContent(),
      "With mail off, for every game or for one, you are still mailed what is about your own seat (missed orders, the seat taken from you) and, as a game's GM, missed orders and seats to replace; and your own mails are still answered.",
    );
    for (const box of [all, one])
      assert.equal(
        await box.getAttribute("aria-describedby"),
        "notices-hint",
        "read with each box",
      );
    await card.screenshot({ path: join(ARTIFACTS, "mail-settings-card.png") });
    await one.uncheck();
    await card.getByText("Saved.").waitFor();
    type Notices = { address: string; notices: boolean; games: { notices: boolean }[] };
    let stored = await h.api.ok<Notices>("GET", "/api/me/notices", undefined, h.tokens.dora);
    assert.equal(stored.address, "dora@players.test");
    assert.deepEqual(
      [stored.notices, stored.games[0]?.notices],
      [true, false],
      "off for this game only",
    );
    await card.locator('input[name="notices"]').uncheck();
    // The card drawn again from the answer: the last "Saved." may still be the game box's.
    await card.getByRole("list", { name: "mail per game" }).waitFor({ state: "detached" });
    await card.getByText("Saved.").waitFor();
    stored = await h.api.ok<Notices>("GET", "/api/me/notices", undefined, h.tokens.dora);
    assert.equal(stored.notices, false, "off for every game");
    assert.equal(await card.locator("li").count(), 0, "the games' boxes hidden while all is off");
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });
});
