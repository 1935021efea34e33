import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { BrowserHarness, type GameJson } from "./harness.ts";

/*
 * The GM's review of press on the page (seed 002 X(1), the option press.review): the author
 * sees their message awaiting the GM; the GM console lists it with Approve and Refuse with a
 * reason; the recipient reads the approved one only, the author the refusal's reason.
 */

const h = new BrowserHarness();
const DESKTOP = { width: 1280, height: 900 };

describe("press review in Chromium", { timeout: 300_000 }, () => {
  let id = "";
  before(async () => {
    await h.start(["gm", "alice", "bob"]);
    const g = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Reviewed", scenario: "7", options: { press: { review: true } } },
      h.tokens.gm,
    );
    id = g.id;
    const code = g.invites!.find((i) => i.role === "player")!.code;
    await h.api.ok("POST", `/api/invites/${code}`, { power: "england" }, h.tokens.alice);
    await h.api.ok("POST", `/api/invites/${code}`, { power: "france" }, h.tokens.bob);
    await h.api.ok("POST", `/api/games/${id}/gm/start`, undefined, h.tokens.gm);
    const send = (body: string) =>
      h.api.ok("POST", `/api/games/${id}/press`, { to: ["france"], body }, h.tokens.alice);
    await send("Shall we share the Channel?");
    await send("France smells of garlic");
  });
  after(() => h.close());

  test("the GM approves one held message and refuses another with a reason; each reader sees what they should", async () => {
    const alice = await h.as("alice", DESKTOP);
    await alice.goto(`${h.base}/game/${id}`);
    await alice.getByRole("tab", { name: /Press/ }).click();
    const held = alice.locator(".held-press");
    await held.getByText("awaiting the GM").first().waitFor();
    assert.equal(await held.locator("li").count(), 2, "the author sees both held");

    const gm = await h.as("gm", DESKTOP);
    await gm.goto(`${h.base}/game/${id}`);
    await gm.getByRole("tab", { name: "Game master" }).click();
    const con = gm.locator(".gm");
    await con.getByText("Press awaiting your review").waitFor();
    await con.getByText("France smells of garlic").waitFor();
    await con.getByText("Press awaiting your review").scrollIntoViewIfNeeded();
    await h.docShot(gm, "gm-press-review-desktop");
    // A message sent while the console is open appears there without a reload.
    await h.api.ok(
      "POST",
      `/api/games/${id}/press`,
      { to: "all", body: "A third thought" },
      h.tokens.bob,
    );
    await con.getByText("A third thought").waitFor();
    await con.getByRole("button", { name: "Approve press 1" }).click();
    await con.locator('[data-feedback="Press"]').getByText("Press 1 published: done.").waitFor();
    // A refusal needs its reason: the judge says so, nothing is refused.
    await con.getByRole("button", { name: "Refuse press 2" }).click();
    await con
      .locator('[data-feedback="Press"]')
      .getByText(/reason/)
      .waitFor();
    await con.getByLabel("reason for refusing press 2").fill("no insults, please");
    await con.getByRole("button", { name: "Refuse press 2" }).click();
    await con.locator('[data-feedback="Press"]').getByText("Press 2 refused: done.").waitFor();
    await con.getByRole("button", { name: "Approve press 3" }).click();
    await con.locator('[data-feedback="Press"]').getByText("Press 3 published: done.").waitFor();
    await con.getByText("No press is waiting.").waitFor();

    const bob = await h.as("bob", DESKTOP);
    await bob.goto(`${h.base}/game/${id}`);
    await bob.getByRole("tab", { name: /Press/ }).click();
    await bob.getByRole("button", { name: /England/ }).click();
    await bob.getByText("Shall we share the Channel?").waitFor();
    assert.equal(await bob.getByText("France smells of garlic").count(), 0, "never delivered");

    // The author's open page learns of the refusal as it happens.
    await held.getByText("The GM's reason: no insults, please").waitFor();
    assert.equal(await held.locator("li").count(), 1, "the approved one is in its thread now");
    await h.docShot(alice, "press-refused-author-desktop");
    for (const p of [alice, gm, bob]) assert.deepEqual(h.pageErrors(p), [], "no script errors");
  });
});
