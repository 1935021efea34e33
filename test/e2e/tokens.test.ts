import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ARTIFACTS, BrowserHarness } from "./harness.ts";

/*
 * The lobby's devices-and-tokens card in Chromium (issue 28; docs/web.md, docs/judge.md
 * "Tokens"): each token with its label, when it was made and last used and when it expires,
 * never the secret; a program's token revoked with a click. A screenshot of the card is kept
 * in test-artifacts/tokens-card.png.
 */

const h = new BrowserHarness();

describe("the lobby's devices and tokens in Chromium", { timeout: 180_000 }, () => {
  before(() => h.start(["tina"]));
  after(() => h.close());

  test("the list shows labels and dates, never a secret; Revoke revokes", async () => {
    const bot = await h.api.ok<{ id: string; token: string }>(
      "POST",
      "/api/tokens",
      { label: "my bot" },
      h.tokens.tina,
    );
    const page = await h.as("tina");
    await page.goto(`${h.base}/`);
    const card = page.getByRole("region", { name: "devices and tokens" });
    await card.getByText("my bot").waitFor();
    const text = (await card.textContent()) ?? "";
    assert.match(text, /\(this browser\)/, "the browser's own token is marked");
    assert.match(text, /Expires unused/);
    assert.ok(!text.includes(bot.token) && !text.includes(h.tokens.tina!), "never a secret");
    await card.screenshot({ path: join(ARTIFACTS, "tokens-card.png") });
    await card
      .getByRole("row", { name: /my bot/ })
      .getByRole("button", { name: "Revoke" })
      .click();
    await card.getByText("Revoked: my bot.").waitFor();
    assert.equal((await h.api.call("GET", "/api/me", undefined, bot.token)).status, 401);
    assert.deepEqual(h.pageErrors(page), []);
  });
});
