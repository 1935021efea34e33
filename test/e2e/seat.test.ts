import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { waitFor } from "../../src/server/testing.ts";
import { ARTIFACTS, BrowserHarness, type GameJson, SUITE_MS, WAIT_MS } from "./harness.ts";

/*
 * A player who loses the seat, on the game page in Chromium (docs/web.md, "A lost seat"):
 * Italy's player misses a phase in a game whose seats fall into civil disorder after one;
 * their open page, reloaded by the live updates, tells them which seat, when, why and what is
 * left to them, and the lobby's My games says it; France's player reads nothing of it beyond
 * the public seat list until the GM takes France's seat while their page is open (the live
 * update `player_replaced`); once Italy goes to a replacement, its former player's page says who
 * holds it now, and once the game is over, that it is over and no more. Screenshots at desktop and phone width in test-artifacts/.
 */

const h = new BrowserHarness();

describe("a lost seat on the game page in Chromium", { timeout: SUITE_MS }, () => {
  let id = "";
  before(async () => {
    await h.start(["gm", "anna", "ben", "cleo"]);
    const g = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Seats", options: { civilDisorderAfter: 1 } },
      h.tokens.gm,
    );
    id = g.id;
    const code = g.invites!.find((i) => i.role === "player")!.code;
    await h.api.ok("POST", `/api/invites/${code}`, { power: "italy" }, h.tokens.anna);
    await h.api.ok("POST", `/api/invites/${code}`, { power: "france" }, h.tokens.ben);
    await h.api.ok("POST", `/api/games/${id}/gm/start`, undefined, h.tokens.gm);
  });
  after(() => h.close());

  const notice = (page: Page) => page.getByRole("status", { name: "your seat" });

  test("civil disorder: the player's open page tells them; the other player's does not", async () => {
    const anna = await h.as("anna");
    const ben = await h.as("ben");
    // Italy's page reads its orders on file only once the seat is lost: the page, whose view
    // still says "player", is refused (403) and must read the view again, not show an error.
    let release = () => {};
    const lost = new Promise<void>((r) => {
      release = r;
    });
    // (Once released, the route lets every request through as it comes.)
    await anna.route(/\/api\/games\/[^/?]+\/orders$/, async (route) => {
      if (route.request().method() === "GET") await lost;
      await route.continue();
    });
    for (const p of [anna, ben]) {
      await p.goto(`${h.base}/game/${encodeURIComponent(id)}`);
      await p.locator(".meta").getByText("you: player").waitFor();
    }
    assert.equal(await notice(anna).count(), 0, "no notice while the seat is held");
    // France orders, Italy does not; the GM ends the phase now.
    await h.api.ok(
      "POST",
      `/api/games/${id}/orders`,
      { orders: ["A par H", "A mar H", "F bre H"], final: true },
      h.tokens.ben,
    );
    await h.api.ok(
      "POST",
      `/api/games/${id}/gm/deadline`,
      { at: new Date().toISOString() },
      h.tokens.gm,
    );
    // Once the judge has declared the seat in civil disorder, Italy's held read goes on.
    await waitFor(
      "the judge declaring Italy in civil disorder",
      async () =>
        (
          await h.api.ok<{ lostSeat?: unknown }>(
            "GET",
            `/api/games/${id}`,
            undefined,
            h.tokens.anna,
          )
        ).lostSeat,
      WAIT_MS,
    );
    release();
    // The open page, reloaded by the live update, tells Italy's player.
    await notice(anna).waitFor();
    assert.equal(await notice(anna).getByRole("heading").textContent(), "You no longer hold Italy");
    const text = (await notice(anna).textContent()) ?? "";
    assert.match(
      text,
      /Italy was declared in civil disorder in phase S1901M \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\): you missed 1 phase in a row, and this game declares a seat in civil disorder after 1 \(its option civilDisorderAfter\)\./,
    );
    assert.match(text, /but no longer send orders or press\./);
    assert.match(text, /the GM decides who takes it, and may give it back to you, directly/);
    assert.match(text, /enter its code under "Join with an invitation" in the lobby/);
    await anna.locator(".meta").getByText("you: observer").waitFor();
    await h.docShot(anna, "lost-seat-desktop");
    // France's player: the seat list says Italy is free (public), no notice about anybody.
    await ben.locator(".meta strong", { hasText: "F1901M" }).waitFor();
    assert.equal(await notice(ben).count(), 0, "France's player reads no notice");
    assert.deepEqual(h.pageErrors(anna), [], "no script errors");
    assert.equal(await anna.getByRole("alert").count(), 0, "no error shown for the refused read");

    // On a phone, the notice fits the width.
    const phone = await h.as("anna", { width: 390, height: 844 });
    await phone.goto(`${h.base}/game/${encodeURIComponent(id)}`);
    await notice(phone).waitFor();
    const box = await notice(phone).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `within the screen: ${box?.width}`);
    await h.docShot(phone, "lost-seat-phone");

    // The lobby's My games says why Italy's player is an observer.
    await anna.goto(`${h.base}/`);
    const mine = anna.getByRole("region", { name: "my games" });
    await mine.getByText("observer: lost Italy (civil disorder)").waitFor();

    // The GM takes France's seat while its player's page is open: the live update tells them.
    await h.api.ok("POST", `/api/games/${id}/gm/replace`, { seat: 2 }, h.tokens.gm);
    await notice(ben).waitFor();
    const told = (await notice(ben).textContent()) ?? "";
    assert.match(
      told,
      /The GM took your seat, France, in phase F1901M \([^)]+\) and opened it for a replacement\./,
    );
    assert.match(
      told,
      /Only the GM can give the seat back to you, directly or by sending you its invitation/,
    );
    assert.doesNotMatch(told, /Italy/, "nothing about Italy's player");
    await notice(ben).screenshot({ path: join(ARTIFACTS, "lost-seat-replaced.png") });
    await ben.locator(".meta").getByText("you: observer").waitFor();
    assert.deepEqual(h.pageErrors(ben), [], "no script errors");

    // Italy given to a replacement: Italy's former player's open page says who holds it now.
    await h.api.ok("POST", `/api/games/${id}/gm/replace`, { seat: 4, user: "cleo" }, h.tokens.gm);
    await notice(phone)
      .getByText(/cleo holds it now\./)
      .waitFor();
    const now = (await notice(phone).textContent()) ?? "";
    assert.match(now, /until a replacement took the seat\. cleo holds it now\./);
    assert.match(
      now,
      /Only the GM can give you a seat again, directly or by sending you an invitation/,
    );
    assert.doesNotMatch(now, /The seat is open/, "no longer said once it is taken");

    // The game ends: the notice says what happened and offers nothing more.
    await h.api.ok("POST", `/api/games/${id}/gm/end`, { result: "abandoned" }, h.tokens.gm);
    await notice(phone).getByText("The game is over.").waitFor();
    assert.doesNotMatch((await notice(phone).textContent()) ?? "", /GM can give|observer/);
    assert.deepEqual(h.pageErrors(phone), [], "no script errors");
  });
});
