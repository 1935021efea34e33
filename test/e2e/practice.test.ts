import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { defaultBot } from "../../src/bots/index.ts";
import { ARTIFACTS, BrowserHarness, type GameJson, SUITE_MS, WAIT_MS } from "./harness.ts";

/*
 * The lobby's practice game in Chromium (issue 31; docs/web.md, docs/judge.md "Built-in
 * players"): one click makes a game where the user plays one power and built-in players the
 * six others; it has started, its page lists the bots as such, and once the player's orders
 * are final the phase resolves at once. A screenshot is kept in test-artifacts/practice.png.
 */

const h = new BrowserHarness();

describe("a practice game against six bots in Chromium", { timeout: SUITE_MS }, () => {
  before(() => h.start(["pia"]));
  after(() => h.close());

  test("one click: the player gets a power, six bots the others, the game has started and moves on when the player is done", async () => {
    const page = await h.as("pia");
    await page.goto(`${h.base}/`);
    await page
      .getByRole("region", { name: "practice" })
      .getByRole("button", { name: "Practise against six bots" })
      .click();
    await page.waitForURL(/\/game\/[^/]+$/, { timeout: WAIT_MS });
    const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
    type View = GameJson & {
      status: string;
      phase: string;
      you: { role: string; powers: string[] };
      seatList: { powers: string[]; player: string | null; bot?: { id: string } }[];
      position: { units: Record<string, string[]> };
    };
    const view = await h.api.ok<View>("GET", `/api/games/${id}`, undefined, h.tokens.pia);
    assert.equal(view.status, "active", "started at once");
    assert.equal(view.phase, "S1901M");
    assert.equal(view.you.role, "player");
    assert.equal(view.you.powers.length, 1, "the player got a power");
    const bots = view.seatList.filter((s) => s.bot);
    assert.equal(bots.length, 6, "six bots");
    assert.ok(bots.every((s) => s.player === null));
    // The page says who plays: the Seats tab marks the bots.
    await page.getByRole("tab", { name: "Seats" }).click();
    const seats = page.locator("ul.seats");
    await seats
      .getByText(/: bot /)
      .first()
      .waitFor({ timeout: WAIT_MS });
    assert.equal(await seats.getByText(/: bot /).count(), 6);
    await page.screenshot({ path: join(ARTIFACTS, "practice.png") });
    // The lobby lists it with its bots.
    const lobby = await h.api.ok<{ id: string; bots?: number }[]>("GET", "/api/games");
    assert.equal(lobby.find((g) => g.id === id)?.bots, 6);
    // The player's final orders: the phase resolves at once (the bots' are final already).
    const mine = view.you.powers[0]!;
    const units = (view.position.units[mine] ?? []).map((u) => `${u} H`);
    await h.api.ok("POST", `/api/games/${id}/orders`, { orders: units, final: true }, h.tokens.pia);
    const deadline = Date.now() + WAIT_MS;
    let phase = view.phase;
    while (phase === "S1901M" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      phase = (await h.api.ok<View>("GET", `/api/games/${id}`, undefined, h.tokens.pia)).phase;
    }
    assert.equal(phase, "F1901M", "resolved as soon as the player was done");
    assert.deepEqual(h.pageErrors(page), []);
  });

  test("the create form seats built-in players and turns the takeover on", async () => {
    const page = await h.as("pia");
    await page.goto(`${h.base}/`);
    const form = page.getByRole("form", { name: "create a game" });
    await form.getByLabel("Name").fill("Club with bots");
    await form.getByLabel("Played by built-in players (optional)").fill("France, Turkey");
    await form.getByLabel(/A built-in player plays a power whose player misses orders/).check();
    await form.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/game\/[^/]+$/, { timeout: WAIT_MS });
    const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
    const view = await h.api.ok<{
      options: { botTakeover?: string };
      seatList: { powers: string[]; bot?: { id: string; kind: string } }[];
    }>("GET", `/api/games/${id}`, undefined, h.tokens.pia);
    assert.deepEqual(
      view.seatList.filter((s) => s.bot).map((s) => [s.powers[0], s.bot!.kind]),
      [
        ["france", "gm"],
        ["turkey", "gm"],
      ],
    );
    assert.equal(view.options.botTakeover, defaultBot().id, "the strongest");
    assert.deepEqual(h.pageErrors(page), []);
  });
});
