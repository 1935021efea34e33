import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { BrowserHarness, type GameJson, SUITE_MS } from "./harness.ts";

/*
 * The page around the board in Chromium (issue 19): the chart of supply centres over the
 * years, press as conversations with unread counts, votes with one's own vote and no second
 * draw while one is open, the GM console's answer beside the button pressed (corrections once
 * something was adjudicated, with a power picker), the projector's reveal only for chaired
 * games, and the game as an animated GIF to download. Screenshots at 1440×900 and 390×844
 * go to test-artifacts/ and, with ENTENTE_DOC_SHOTS=1, the ones docs/web.md shows to
 * docs/screens/.
 */

const h = new BrowserHarness();
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

declare const document: {
  activeElement: { textContent: string | null; getAttribute(name: string): string | null } | null;
};
const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? null);

/** The game page of `user` with the tab `tab` open. */
async function open(user: string, id: string, tab: string, size = DESKTOP): Promise<Page> {
  const page = await h.as(user, size);
  await page.goto(`${h.base}/game/${id}`);
  await page.getByRole("tab", { name: tab }).click();
  return page;
}

describe("around the board in Chromium: chart, press, votes, GM console, GIF", {
  timeout: SUITE_MS,
}, () => {
  let id = "";
  const orders = (user: string, list: string[]) =>
    h.api.ok("POST", `/api/games/${id}/orders`, { orders: list }, h.tokens[user]);
  const resolve = () => h.api.ok("POST", `/api/games/${id}/chair/resolve`, undefined, h.tokens.gm);

  before(async () => {
    await h.start(["gm", "alice", "bob", "carol"]);
    const g = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Around", scenario: "7", options: { deadlines: { unit: "hours" } } },
      h.tokens.gm,
    );
    id = g.id;
    const code = g.invites!.find((i) => i.role === "player")!.code;
    const view = await h.api.ok<{ seatList: { index: number; powers: string[] }[] }>(
      "GET",
      `/api/games/${id}`,
    );
    const seat = (p: string) => view.seatList.find((s) => s.powers.includes(p))!.index;
    await h.api.ok("POST", `/api/invites/${code}`, { seat: seat("england") }, h.tokens.alice);
    await h.api.ok("POST", `/api/invites/${code}`, { seat: seat("france") }, h.tokens.bob);
    await h.api.ok("POST", `/api/invites/${code}`, { seat: seat("germany") }, h.tokens.carol);
    await h.api.ok("POST", `/api/games/${id}/gm/start`, undefined, h.tokens.gm);
  });
  after(() => h.close());

  test("the GM console: the answer beside the button, no correction before an adjudication, reveal only when chaired", async () => {
    const page = await open("gm", id, "Game master");
    const console_ = page.locator(".gm");
    await console_.getByRole("button", { name: "Pause" }).waitFor();
    assert.equal(
      await console_.getByRole("heading", { name: "Correct the last adjudication" }).count(),
      0,
      "nothing to correct before a phase is adjudicated",
    );
    assert.equal(await page.getByRole("link", { name: "Projector view" }).isVisible(), false);
    // Keyboard only: Pause, then Resume, each answered beside the phase's buttons.
    await console_.getByRole("button", { name: "Pause" }).focus();
    await page.keyboard.press("Enter");
    const phase = console_.locator('[data-feedback="phase"]');
    await phase.getByText("Pause: done.").waitFor();
    // The focus stays among the buttons: on Resume, which took Pause's place.
    assert.equal(await focused(page), "Resume", "the focus is kept for the keyboard");
    await page.keyboard.press("Enter");
    await phase.getByText("Resume: done.").waitFor();
    // A refusal is said beside the button pressed, not at the bottom of the page.
    await console_.getByLabel("minutes").fill("9999999");
    await console_.getByRole("button", { name: "Extend deadline (minutes)" }).click();
    const extend = console_.locator('[data-feedback="Extend"] .msg.error');
    await extend.waitFor();
    assert.match(
      (await extend.textContent()) ?? "",
      /^Extend: .*extendMinutes/,
      "the judge's reason",
    );
    const button = await console_
      .getByRole("button", { name: "Extend deadline (minutes)" })
      .boundingBox();
    const said = await extend.boundingBox();
    assert.ok(
      button && said && Math.abs(said.y - button.y) < 60,
      `the answer is beside the button (${button?.y} / ${said?.y})`,
    );
    await h.docShot(page, "gm-feedback-desktop");

    // The projector of a game played to deadlines offers no reveal.
    const chair = await h.as("gm", DESKTOP);
    await chair.goto(`${h.base}/chair/${id}`);
    await chair.getByText(/This game is not chaired/).waitFor();
    assert.equal(await chair.locator('[data-action="reveal"]').count(), 0, "no reveal");
    await h.docShot(chair, "projector-not-chaired-desktop");
    // Chaired: the projector link appears, and the reveal with it.
    await console_.getByRole("button", { name: /Chaired: off/ }).click();
    await phase.getByText("Chair mode: done.").waitFor();
    await page.getByRole("link", { name: "Projector view" }).waitFor();
    await chair.reload();
    await chair.locator('[data-action="reveal"]').waitFor();
    await console_.getByRole("button", { name: /Chaired: on/ }).click();
    await phase.getByText("Chair mode: done.").waitFor();
    await page.getByRole("link", { name: "Projector view" }).waitFor({ state: "hidden" });
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });

  test("the GM console through a live event: the button under the pointer, the focus and the text typed stay", async () => {
    const page = await open("gm", id, "Game master");
    const console_ = page.locator(".gm");
    const extend = console_.getByRole("button", { name: "Extend deadline (minutes)" });
    await extend.waitFor();
    /*
     * A live event: the deadline moved through the API (another tab of the GM's). The page
     * reads the view again (the head shows the new deadline), then the console asks the chair's
     * state (one GET /chair for the projector link, one for the console) and shows the game.
     */
    const liveEvent = async () => {
      let chairs = 0;
      const counted = new Promise<void>((done) =>
        page.on("requestfinished", (r) => {
          if (r.url().endsWith(`/api/games/${id}/chair`) && ++chairs === 2) done();
        }),
      );
      await h.api.ok("POST", `/api/games/${id}/gm/deadline`, { extendMinutes: 5 }, h.tokens.gm);
      const g = await h.api.ok<{ deadline: string }>(
        "GET",
        `/api/games/${id}`,
        undefined,
        h.tokens.gm,
      );
      await page.locator(`.meta [data-deadline="${g.deadline}"]`).waitFor();
      await counted;
      await page.waitForTimeout(100); // the console's show, after its GET /chair
    };
    // Half a user name typed, the event, the rest typed: one name, and the focus never left.
    const name = console_.getByLabel("user name");
    await name.click();
    await page.keyboard.type("ali");
    await liveEvent();
    await page.keyboard.type("ce");
    assert.equal(await name.inputValue(), "alice", "what was typed is kept");
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? null),
      "user name",
      "the input keeps the focus",
    );
    await name.fill("");
    // The pointer pressed on Extend before the event and released after it: the click lands.
    await extend.hover();
    await page.mouse.down();
    await liveEvent();
    await page.mouse.up();
    await console_.locator('[data-feedback="Extend"]').getByText("Extend: done.").waitFor();
    assert.equal(await focused(page), "Extend deadline (minutes)", "and the button has the focus");
    await h.docShot(page, "gm-live-desktop");
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });

  test("press as conversations: one thread per correspondent, unread counts remembered, grey press marked", async () => {
    const alice = await open("alice", id, "Press");
    await alice.getByRole("button", { name: "+ New conversation" }).click();
    await alice.getByLabel("France").check();
    await alice.getByLabel("message").fill("Shall we keep the Channel empty?");
    await alice.getByRole("button", { name: "Send", exact: true }).click();
    const france = alice.locator('.threads [data-thread="france"]');
    await france.waitFor();
    assert.equal(await france.getAttribute("aria-pressed"), "true", "the new thread is open");
    // Grey press to Germany, and a public message.
    await alice.getByRole("button", { name: "+ New conversation" }).click();
    await alice.getByLabel("Germany").check();
    await alice.getByLabel("message").fill("Someone is watching Munich.");
    await alice.getByLabel("kind").selectOption("grey");
    await alice.getByRole("button", { name: "Send", exact: true }).click();
    await alice.locator('.threads [data-thread="germany"]').waitFor();
    await alice.getByText("grey: sent anonymously").waitFor();
    await alice.locator('.threads [data-thread="all"]').click();
    await alice.getByLabel("kind").selectOption("white");
    await alice.getByLabel("message").fill("England wishes everybody a calm spring.");
    await alice.getByRole("button", { name: "Send", exact: true }).click();
    await alice.getByText("England wishes everybody a calm spring.").waitFor();

    // France, on the Orders tab: the Press tab counts two unread messages.
    const bob = await open("bob", id, "Orders");
    const pressTab = bob.getByRole("tab", { name: /^Press/ });
    await pressTab.locator(".unread:not([hidden])").waitFor();
    assert.equal(await pressTab.locator(".unread").textContent(), "2", "two unread on the tab");
    await pressTab.click();
    // The public thread and England's, each with one unread; the public one, open, is read.
    const fromEngland = bob.locator('.threads [data-thread="england"]');
    await fromEngland.waitFor();
    assert.equal(await pressTab.locator(".unread").textContent(), "1", "England's is left");
    assert.equal(
      await fromEngland.locator(".unread").textContent(),
      "1",
      "one unread from England",
    );
    assert.equal(
      await bob.locator('.threads [data-thread="all"] .unread').count(),
      0,
      "the public thread, open, is read",
    );
    assert.equal(await bob.locator('.threads [data-thread="germany"]').count(), 0, "not France's");
    await h.docShot(bob, "press-threads-desktop");
    // Keyboard: Tab to England's thread, Enter opens it.
    await fromEngland.focus();
    await bob.keyboard.press("Enter");
    await bob.getByText("Shall we keep the Channel empty?").waitFor();
    assert.equal(await fromEngland.locator(".unread").count(), 0, "read once opened");
    assert.equal(await focused(bob), "England", "the focus stays on the thread opened");
    assert.equal(await pressTab.locator(".unread").isVisible(), false, "nothing unread on the tab");
    await bob.getByLabel("message").fill("Agreed: no fleet in the Channel.");
    await bob.getByRole("button", { name: "Send", exact: true }).click();
    await bob.getByText("Agreed: no fleet in the Channel.").waitFor();
    await bob.reload();
    await bob.getByRole("tab", { name: "Press" }).click();
    await bob.locator('.threads [data-thread="england"]').waitFor();
    assert.equal(
      await bob.locator(".threads .unread").count(),
      0,
      "what was read stays read after a reload",
    );
    // England sees France's answer as unread in their thread.
    await alice.reload();
    await alice.getByRole("tab", { name: "Press" }).click();
    await alice.locator('.threads [data-thread="france"] .unread').waitFor();

    // Germany: the grey message, its author unknown, marked as grey press.
    const carol = await open("carol", id, "Press", PHONE);
    const anon = carol.locator('.threads [data-thread="anonymous"]');
    await anon.waitFor();
    await anon.click();
    const item = carol.locator(".press-item.grey");
    await item.getByText("Someone is watching Munich.").waitFor();
    assert.match((await item.textContent()) ?? "", /Anonymous.*grey: anonymous/, "marked grey");
    assert.doesNotMatch((await item.textContent()) ?? "", /England/, "its author is not named");
    await carol.getByText("Anonymous press cannot be answered.").waitFor();
    await h.docShot(carol, "press-threads-phone");
    for (const p of [alice, bob, carol]) assert.deepEqual(h.pageErrors(p), [], "no script errors");
  });

  test("votes: your own vote shown; no second draw while one is open (the judge refuses it too)", async () => {
    const alice = await open("alice", id, "Votes");
    await alice.getByRole("button", { name: "Propose a draw of all survivors" }).click();
    await alice.getByText(/Proposed: a draw of all survivors/).waitFor();
    const mine = alice.locator(".votes li[data-status=open]");
    // Proposing is voting yes (seed 002 IX(5) C): the proposer's vote is cast.
    assert.match((await mine.textContent()) ?? "", /Your vote: yes/);
    assert.equal(
      await alice.getByRole("button", { name: "Propose a draw of all survivors" }).count(),
      0,
      "no second draw offered while one is open",
    );
    await alice.getByText(/A proposal to end the game is open/).waitFor();
    await mine.getByRole("button", { name: "abstain" }).focus();
    await alice.keyboard.press("Enter");
    await alice.getByText(/Your vote is now abstain/).waitFor();
    assert.equal(await focused(alice), "abstain", "the focus stays on the vote given");
    assert.match((await mine.locator(".your-vote strong").textContent()) ?? "", /^abstain$/);
    assert.equal(
      await mine.getByRole("button", { name: "abstain" }).getAttribute("aria-pressed"),
      "true",
    );
    assert.equal(
      await mine.getByRole("button", { name: "yes" }).getAttribute("aria-pressed"),
      "false",
    );
    await h.docShot(alice, "votes-desktop");

    const bob = await open("bob", id, "Votes", PHONE);
    const theirs = bob.locator(".votes li[data-status=open]");
    await theirs.waitFor();
    assert.match(
      (await theirs.textContent()) ?? "",
      /Your vote: not cast/,
      "Bob's own, not Alice's",
    );
    assert.equal(await bob.getByRole("button", { name: /Propose a draw/ }).count(), 0);
    await h.docShot(bob, "votes-phone");
    const second = await h.api.call(
      "POST",
      `/api/games/${id}/votes`,
      { kind: "draw" },
      h.tokens.bob,
    );
    assert.equal(second.status, 409, "the judge refuses a second draw");
    assert.match(JSON.stringify(second.body), /is still open/);
  });

  test("after adjudication: the centres chart, a correction with a power picker, the GIF", async () => {
    await orders("alice", ["F lon - nth", "F edi - nwg", "A lvp - yor"]);
    await orders("bob", ["A par - bur", "F bre - mao", "A mar - spa"]);
    await resolve();
    await orders("alice", ["F nth - hol", "F nwg - nwy", "A yor H"]);
    await orders("bob", ["A bur - bel", "F mao - por", "A spa H"]);
    await resolve();
    await resolve(); // W1901A: nobody builds (no orders)
    await resolve(); // S1902M
    const page = await open("gm", id, "Game master");
    // The chart: a line per power, from the start to 1901 and 1902.
    const chart = page.getByRole("img", { name: /Supply centres per year/ });
    await chart.waitFor();
    const label = (await chart.getAttribute("aria-label")) ?? "";
    assert.match(label, /\(start, 1901, 1902\)/, label);
    assert.match(label, /England 3, 5, 5/, "England took Holland and Norway");
    assert.match(label, /France 3, 6, 6/, "France took Spain, Portugal and Belgium");
    assert.equal(await chart.locator("polyline").count(), 7, "a line per power");
    await h.docShot(page, "centres-chart-desktop");

    // The correction: offered now, with a power picker that starts from the orders given.
    const console_ = page.locator(".gm");
    await console_.getByRole("heading", { name: "Correct the last adjudication" }).waitFor();
    const picker = console_.getByLabel("power whose orders are corrected");
    const offered = await picker.locator("option").allTextContents();
    assert.ok(offered.includes("England's orders"), offered.join(" | "));
    await picker.selectOption("england");
    await console_.getByLabel("reason").fill("England's orders were mislaid");
    await console_.getByRole("button", { name: "Correct", exact: true }).click();
    await console_.locator('[data-feedback="Correct"]').getByText("Correct: done.").waitFor();
    await h.docShot(page, "gm-correct-desktop");

    // The GIF of the game so far, from the page's button.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download GIF" }).click(),
    ]);
    assert.match(download.suggestedFilename(), /\.gif$/);
    const gif = readFileSync((await download.path())!);
    assert.equal(gif.subarray(0, 6).toString("latin1"), "GIF89a", "an animated GIF");

    // And the phase shown in the history as a PNG.
    await page.getByRole("tab", { name: "History" }).click();
    const [png] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download S1902M as a PNG" }).click(),
    ]);
    assert.match(png.suggestedFilename(), /-S1902M\.png$/);
    const bytes = readFileSync((await png.path())!);
    assert.equal(bytes.subarray(1, 4).toString("latin1"), "PNG", "a PNG of the phase");

    const phone = await open("alice", id, "Orders", PHONE);
    const small = phone.getByRole("img", { name: /Supply centres per year/ });
    await small.scrollIntoViewIfNeeded();
    const box = (await small.boundingBox())!;
    assert.ok(box.width <= PHONE.width && box.width > 250, `as wide as the phone (${box.width})`);
    await h.docShot(phone, "centres-chart-phone");

    // The GM on a phone: the answer beside the button there too.
    const gmPhone = await open("gm", id, "Game master", PHONE);
    const extend = gmPhone.getByRole("button", { name: "Extend deadline (minutes)" });
    await extend.click();
    const said = gmPhone.locator('[data-feedback="Extend"]').getByText("Extend: done.");
    await said.waitFor();
    await said.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await h.docShot(gmPhone, "gm-feedback-phone");
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });
});
