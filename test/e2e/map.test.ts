import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { BrowserHarness, type GameJson, SUITE_MS, WAIT_MS } from "./harness.ts";

/*
 * The board itself in Chromium (issue 19): choosing a unit outlines its legal targets on the
 * map, choosing a support or convoy the units it may help, by mouse and by keyboard; the
 * legend beside the map at 1440×900 and under it on a phone, never over it; the 1935 board
 * with no unit over a name as Chromium lays the text out. Screenshots at 1440×900 and
 * 390×844 go to test-artifacts/ and, with ENTENTE_DOC_SHOTS set, to docs/screens/.
 */

const h = new BrowserHarness();
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const docShot = (page: Page, name: string) => h.docShot(page, name);

interface LegalView {
  units: {
    location: string;
    province: string;
    orders: { kind: string; target?: string; from?: string }[];
  }[];
}

/** The provinces outlined as targets on the map, sorted. */
const outlined = async (page: Page) =>
  (
    await page
      .locator(".game .map g.targets path.target")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-province") ?? ""))
  ).sort();

/**
 * Waits until the map outlines exactly these provinces (as long as a page's wait may take: a
 * loaded machine draws slowly), then says what it outlines if it never did.
 */
async function waitOutlined(page: Page, want: string[]): Promise<void> {
  const sorted = [...want].sort();
  await page
    .waitForFunction(
      (expected) =>
        JSON.stringify(
          Array.from(
            (
              globalThis as unknown as {
                document: {
                  querySelectorAll(
                    s: string,
                  ): ArrayLike<{ getAttribute(a: string): string | null }>;
                };
              }
            ).document.querySelectorAll(".game .map g.targets path.target"),
            (e) => e.getAttribute("data-province") ?? "",
          ).sort(),
        ) === expected,
      JSON.stringify(sorted),
      { timeout: WAIT_MS },
    )
    .catch(() => {});
  assert.deepEqual(await outlined(page), sorted, "the provinces outlined on the map");
}

const provinceOf = (loc: string) => loc.split("/")[0]!;
const unique = (list: (string | undefined)[]) =>
  [...new Set(list.filter((x): x is string => !!x).map(provinceOf))].sort();

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const apart = (a: Box, b: Box) =>
  a.x + a.width <= b.x + 0.5 ||
  b.x + b.width <= a.x + 0.5 ||
  a.y + a.height <= b.y + 0.5 ||
  b.y + b.height <= a.y + 0.5;

describe("the board in Chromium: legal targets, the legend, names clear of units", {
  timeout: SUITE_MS,
}, () => {
  let id = "";
  let legal: LegalView;
  before(async () => {
    await h.start(["gm", "alice"]);
    const g = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Board", scenario: "7", options: { deadlines: { unit: "hours" } } },
      h.tokens.gm,
    );
    id = g.id;
    const code = g.invites!.find((i) => i.role === "player")!.code;
    const view = await h.api.ok<{ seatList: { index: number; powers: string[] }[] }>(
      "GET",
      `/api/games/${id}`,
    );
    const england = view.seatList.find((s) => s.powers.includes("england"))!;
    await h.api.ok("POST", `/api/invites/${code}`, { seat: england.index }, h.tokens.alice);
    await h.api.ok("POST", `/api/games/${id}/gm/start`, undefined, h.tokens.gm);
    legal = await h.api.ok<LegalView>("GET", `/api/games/${id}/legal`, undefined, h.tokens.alice);
  });
  after(() => h.close());

  test("a unit chosen outlines its legal moves; a support, the units it may help, then where they go", async () => {
    const page = await h.as("alice", DESKTOP);
    await page.goto(`${h.base}/game/${id}`);
    await page.locator(".game .map svg").waitFor();
    assert.equal(await page.locator(".game .map g.targets").count(), 0, "nothing chosen yet");
    const lon = legal.units.find((u) => u.location === "lon")!;
    const moves = unique(lon.orders.filter((o) => o.kind === "move").map((o) => o.target));
    assert.deepEqual(moves, ["eng", "nth", "wal", "yor"], "the engine's moves for F lon");

    // By the mouse: the fleet clicked on the map, once the order pad has the legal orders (the
    // map is drawn before they arrive, and a click before then chooses nothing: on a loaded
    // machine the test clicked that early and waited in vain).
    await page.locator(".orderpad .chips.units button").first().waitFor();
    await page.locator('.game .map g.unit[data-location="lon"]').click();
    await waitOutlined(page, moves);
    assert.equal(
      await page.locator('.game .map rect.dim[mask="url(#choice-dim)"]').count(),
      1,
      "the rest of the map is dimmed",
    );
    // Support: first the units it may help (England's and France's Brest fleet alike).
    await page.locator('button[data-action="support"]').click();
    const supports = lon.orders.filter((o) => o.kind === "support");
    const helped = unique(supports.map((o) => o.from));
    assert.ok(helped.includes("lvp") && helped.includes("bre"), `helped: ${helped}`);
    await waitOutlined(page, helped);
    await docShot(page, "board-support-desktop");
    // The Liverpool army clicked: where it may go with London's support.
    await page.locator('.game .map g.unit[data-location="lvp"]').click();
    const goals = unique(supports.filter((o) => o.from === "lvp").map((o) => o.target ?? o.from));
    await waitOutlined(page, goals);
    assert.ok(goals.includes("yor") && goals.includes("wal"), `goals: ${goals}`);
    // A click where Yorkshire's name is written (shown or not at this zoom; not the full name
    // kept for a deeper zoom).
    const at = await page
      .locator(".game .map .labels text:not(.zoom-name)", { hasText: /^(Yorkshire|YOR)$/ })
      .evaluate((t) => {
        const svg = t as unknown as {
          getAttribute(n: string): string;
          ownerSVGElement: {
            createSVGPoint(): {
              x: number;
              y: number;
              matrixTransform(m: unknown): { x: number; y: number };
            };
            getScreenCTM(): unknown;
          };
        };
        const p = svg.ownerSVGElement.createSVGPoint();
        p.x = Number(svg.getAttribute("x"));
        p.y = Number(svg.getAttribute("y"));
        const s = p.matrixTransform(svg.ownerSVGElement.getScreenCTM());
        return { x: s.x, y: s.y };
      });
    await page.mouse.click(at.x, at.y);
    await page.locator(".diags li.ok", { hasText: "F lon S A lvp - yor" }).waitFor();
    await waitOutlined(page, []);

    // By the keyboard: the Edinburgh fleet, Move, and the first target, all with Enter.
    await page.locator('button[data-unit="edi"]').focus();
    await page.keyboard.press("Enter");
    const edi = legal.units.find((u) => u.location === "edi")!;
    await waitOutlined(
      page,
      unique(edi.orders.filter((o) => o.kind === "move").map((o) => o.target)),
    );
    await page.locator('button[data-action="move"]').focus();
    await page.keyboard.press("Enter");
    const first = page.locator(".choices button").first();
    await first.waitFor();
    assert.equal(
      await first.evaluate(
        (b) => b === (b.ownerDocument as unknown as { activeElement: unknown }).activeElement,
      ),
      true,
      "the first target has the focus",
    );
    const text = (await first.textContent())!.trim();
    await page.keyboard.press("Enter");
    await page.locator(".diags li.ok", { hasText: text }).waitFor();
    await waitOutlined(page, []);
    // Escape drops a unit chosen, and its outlines.
    await page.locator('button[data-unit="lvp"]').focus();
    await page.keyboard.press("Enter");
    await waitOutlined(
      page,
      unique(
        legal.units
          .find((u) => u.location === "lvp")!
          .orders.filter((o) => o.kind === "move")
          .map((o) => o.target),
      ),
    );
    await page.keyboard.press("Escape");
    await waitOutlined(page, []);

    const phone = await h.as("alice", PHONE);
    await phone.goto(`${h.base}/game/${id}`);
    await phone.locator(".game .map svg").waitFor();
    await phone.locator('button[data-unit="lon"]').click();
    await waitOutlined(phone, moves);
    await phone.locator(".game .map").scrollIntoViewIfNeeded();
    await docShot(phone, "board-targets-phone");
    for (const p of [page, phone]) assert.deepEqual(h.pageErrors(p), [], "no script errors");
  });

  test("a unit clicked on the map before the pad has the legal orders is chosen once they come", async () => {
    const page = await h.as("alice", DESKTOP);
    // The legal orders are held until the click has been made: the map is drawn first (from
    // the game's view), the pad only once they come.
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route(/\/api\/games\/[^/?]+\/legal$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${h.base}/game/${id}`);
    await page.locator('.game .map g.unit[data-location="lon"]').click();
    assert.equal(await page.locator(".orderpad").count(), 0, "the pad is not there yet");
    release();
    const lon = legal.units.find((u) => u.location === "lon")!;
    await waitOutlined(
      page,
      unique(lon.orders.filter((o) => o.kind === "move").map((o) => o.target)),
    );
    await page.locator('.orderpad button[data-unit="lon"][aria-pressed="true"]').waitFor();
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });

  test("the legend: beside the map at 1440×900, under it on a phone, never over it", async () => {
    const page = await h.as("alice", DESKTOP);
    await page.goto(`${h.base}/game/${id}`);
    const legend = page.getByRole("list", { name: "legend" });
    await legend.locator("li[data-power]").first().waitFor();
    const names = await legend.locator("li[data-power] .name").allTextContents();
    assert.deepEqual(
      names,
      ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"],
      "every power by name",
    );
    assert.equal(
      await legend.locator('li[data-power="england"] svg circle').count(),
      1,
      "its army",
    );
    assert.equal(await legend.locator("li.key .name").textContent(), "supply centre");
    const map = (await page.locator(".game .map").boundingBox())!;
    const box = (await legend.boundingBox())!;
    assert.ok(box.x >= map.x + map.width, "beside the map, not over it");
    assert.ok(box.y + box.height <= DESKTOP.height, "in view without scrolling");
    const phone = await h.as("alice", PHONE);
    await phone.goto(`${h.base}/game/${id}`);
    const small = phone.getByRole("list", { name: "legend" });
    await small.locator("li[data-power]").first().waitFor();
    const pmap = (await phone.locator(".game .map").boundingBox())!;
    const pbox = (await small.boundingBox())!;
    assert.ok(pbox.y >= pmap.y + pmap.height, "under the map on a phone");
    assert.ok(pbox.x + pbox.width <= PHONE.width, "no wider than the phone");
    await small.scrollIntoViewIfNeeded();
    await docShot(phone, "board-legend-phone");
  });

  test("the 1935 board: no unit over a name as drawn, the crowded centre's names at the normal size, full names as the zoom grows", async () => {
    const g = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Committee", variant: "europe1935" },
      h.tokens.gm,
    );
    const page = await h.as("gm", DESKTOP);
    await page.goto(`${h.base}/game/${g.id}`);
    await page.locator(".game .map svg").waitFor();
    const overlaps = () =>
      page.evaluate(() => {
        const doc = (
          globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<unknown> } }
        ).document;
        type El = {
          getBBox(): Box;
          textContent: string | null;
          getAttribute(n: string): string | null;
          style: { display: string };
        };
        const texts = Array.from(
          doc.querySelectorAll(".game .map .labels text.label") as ArrayLike<El>,
        ).filter((t) => t.style.display !== "none");
        const units = Array.from(doc.querySelectorAll(".game .map g.unit") as ArrayLike<El>);
        const out: string[] = [];
        for (const t of texts) {
          const a = t.getBBox();
          for (const u of units) {
            const b = u.getBBox();
            const clear =
              a.x + a.width <= b.x + 0.5 ||
              b.x + b.width <= a.x + 0.5 ||
              a.y + a.height <= b.y + 0.5 ||
              b.y + b.height <= a.y + 0.5;
            if (!clear)
              out.push(
                `${t.textContent} under ${u.getAttribute("data-location")} (${[a.x, a.y, a.width, a.height].map(Math.round)} / ${[b.x, b.y, b.width, b.height].map(Math.round)})`,
              );
          }
        }
        const full = texts.filter((t) => (t.getAttribute("class") ?? "").includes("zoom-name"));
        return { out, texts: texts.length, units: units.length, full: full.length };
      });
    const whole = await overlaps();
    assert.ok(whole.units >= 40 && whole.texts > 100, `drawn: ${JSON.stringify(whole)}`);
    assert.deepEqual(whole.out, [], "no unit over a name at the whole-map view");
    // Issue 29: at the default zoom the crowded centre's names are shown, none smaller than a
    // name of the open country (Ukraine's), as Chromium draws them.
    const map = page.locator(".game .map svg .labels");
    const height = async (text: string) => {
      const t = map.locator("text.label:not(.zoom-name)", { hasText: new RegExp(`^${text}$`) });
      assert.equal(await t.count(), 1, `one ${text}`);
      assert.ok(await t.isVisible(), `${text} shown at the default zoom`);
      return (await t.boundingBox())!.height;
    };
    const normal = await height("Ukraine");
    assert.ok(normal > 3, `a normal name ${normal} px high`);
    // Rome, Apulia, Naples, Montenegro (MON), Gibraltar, and the others once written small.
    for (const text of ["ROM", "APU", "NAP", "MON", "GIB", "BEL", "HOL", "SIL", "EDI", "ALB"]) {
      const px = await height(text);
      assert.ok(px >= normal - 0.01, `${text} ${px} px high, a normal name ${normal} px`);
    }
    // Zoomed into central Europe: full names in place of abbreviations, none under a unit.
    await page.locator(".game .map").focus();
    for (const k of ["+", "+", "+", "ArrowLeft"]) await page.keyboard.press(k);
    const close = await overlaps();
    assert.ok(close.full > whole.full, `full names appear: ${whole.full} → ${close.full}`);
    assert.deepEqual(close.out, [], "none when zoomed either");
    assert.ok(
      apart(
        (await page.locator(".game .map").boundingBox())!,
        (await page.getByRole("list", { name: "legend" }).boundingBox())!,
      ),
      "the legend beside",
    );
    await docShot(page, "board-1935-zoom-desktop");
    const phone = await h.as("gm", PHONE);
    await phone.goto(`${h.base}/game/${g.id}`);
    await phone.locator(".game .map svg").waitFor();
    await phone.getByRole("button", { name: "zoom in" }).click();
    await phone.getByRole("button", { name: "zoom in" }).click();
    await docShot(phone, "board-1935-zoom-phone");
    assert.deepEqual(h.pageErrors(page), [], "no script errors");
  });
  test("the world: areas shown by their number get their full names as the player zooms in", async () => {
    const g = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "World", variant: "global", seed: 19, options: { deadlines: { unit: "hours" } } },
      h.tokens.gm,
    );
    const code = g.invites!.find((i) => i.role === "player")!.code;
    for (let p = 1; p <= 11; p++) {
      await h.account(`w${p}`);
      await h.api.ok("POST", `/api/invites/${code}`, { power: String(p) }, h.tokens[`w${p}`]);
    }
    for (const [size, suffix] of [
      [DESKTOP, "desktop"],
      [PHONE, "phone"],
    ] as const) {
      const page = await h.as("gm", size);
      await page.goto(`${h.base}/game/${g.id}`);
      const map = page.locator(".game .map");
      await map.locator("svg .labels").waitFor();
      // Belgium (20): its number at the whole map, its full name hidden.
      const num = map.locator("svg .labels text.label:not(.zoom-name)", { hasText: /^20$/ });
      const full = map.locator('svg text.zoom-name[data-province="20"]');
      assert.equal(await full.textContent(), "20 Belgium");
      assert.ok(await num.isVisible(), "the number at the whole map");
      assert.ok(!(await full.isVisible()), "the full name hidden at the whole map");
      const from = Number(await full.getAttribute("data-min-zoom"));
      assert.equal(Number(await num.getAttribute("data-max-zoom")), from, "they swap at one zoom");
      // The wheel over Belgium until its threshold: the point under the pointer stays there.
      await map.scrollIntoViewIfNeeded();
      const at = (await num.boundingBox())!;
      await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
      for (let i = 0; i < 40 && Number(await map.getAttribute("data-zoom")) < from; i++) {
        await page.mouse.wheel(0, -120);
        await page.waitForTimeout(30);
      }
      assert.ok(Number(await map.getAttribute("data-zoom")) >= from, "the zoom reaches it");
      assert.ok(await full.isVisible(), "the full name shown zoomed in");
      assert.ok(!(await num.isVisible()), "in place of the number");
      // Every name shown in view: clear of every unit and of every other name shown.
      const drawn = await page.evaluate(() => {
        type El = {
          getBBox(): Box;
          textContent: string | null;
          getAttribute(n: string): string | null;
          style: { display: string };
          getAttribute(n: string): string | null;
        };
        const doc = (
          globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }
        ).document;
        const svg = doc.querySelectorAll(".game .map svg")[0]!;
        const [vx, vy, vw, vh] = (svg.getAttribute("viewBox") ?? "").split(" ").map(Number) as [
          number,
          number,
          number,
          number,
        ];
        // Shown: not hidden by the zoom, and a full name only once the zoom shows it.
        const shown = Array.from(doc.querySelectorAll(".game .map .labels text.label"))
          .filter(
            (t) =>
              t.style.display !== "none" &&
              (!(t.getAttribute("class") ?? "").includes("zoom-name") ||
                t.style.display === "inline"),
          )
          .map((t) => {
            const b = t.getBBox();
            return {
              text: t.textContent ?? "",
              box: { x: b.x, y: b.y, width: b.width, height: b.height },
            };
          });
        const units = Array.from(doc.querySelectorAll(".game .map g.unit")).map((u) => {
          const b = u.getBBox();
          return {
            at: u.getAttribute("data-location") ?? "",
            box: { x: b.x, y: b.y, width: b.width, height: b.height },
          };
        });
        return { view: [vx, vy, vw, vh], shown, units };
      });
      // Measured here, not in the page (tsx names the page's functions with a helper the
      // page lacks).
      const [vx, vy, vw, vh] = drawn.view as [number, number, number, number];
      const inView = (b: Box) =>
        b.x < vx + vw && b.x + b.width > vx && b.y < vy + vh && b.y + b.height > vy;
      const shown = drawn.shown.filter((t) => inView(t.box));
      const out: string[] = [];
      for (const [i, t] of shown.entries()) {
        for (const u of drawn.units)
          if (!apart(t.box, u.box)) out.push(`"${t.text}" under ${u.at}`);
        for (const o of shown.slice(i + 1))
          if (!apart(t.box, o.box)) out.push(`"${t.text}" over "${o.text}"`);
      }
      assert.deepEqual(out, [], "names in view overlap");
      const named = shown.map((t) => t.text).filter((t) => /^\d+ \S/.test(t));
      // The phone's view is narrower: Belgium at its centre; the desktop's takes in neighbours.
      const want =
        suffix === "phone"
          ? ["20 Belgium"]
          : ["20 Belgium", "17 Picardy", "32 Westphalia", "4 Wales"];
      await docShot(page, `world-names-zoom-${suffix}`);
      for (const n of want) assert.ok(named.includes(n), `${n} in full: ${named.join(", ")}`);
      assert.deepEqual(h.pageErrors(page), [], "no script errors");
    }
  });

  test("the legend on the sandbox and on the projector, with the committee's own pieces and colours", async () => {
    const geo = await h.api.ok<{ style: { colours: Record<string, string> } }>(
      "GET",
      "/api/variants/europe1935/geometry",
    );
    const pieces = async (page: Page) => {
      const legend = page.getByRole("list", { name: "legend" });
      await legend.locator("li[data-power]").first().waitFor();
      assert.deepEqual(
        await legend.locator("li[data-power] .name").allTextContents(),
        [
          "United Kingdom",
          "France",
          "Italy",
          "Germany",
          "USSR",
          "Turkey",
          "Yugoslavia",
          "Spain",
          "Poland",
        ],
        "every power by name",
      );
      for (const [power, colour] of Object.entries(geo.style.colours)) {
        const rects = legend.locator(`li[data-power="${power}"] svg rect.piece`);
        assert.equal(await rects.count(), 2, `${power}: its army and fleet as blocks`);
        const [army, fleet] = await rects.evaluateAll((els) =>
          els.map((e) => ({
            w: Number(e.getAttribute("width")),
            h: Number(e.getAttribute("height")),
            fill: e.getAttribute("fill"),
          })),
        );
        assert.ok(Math.abs(army!.w - army!.h) < 0.01, `${power}: a square army`);
        assert.ok(fleet!.w > fleet!.h * 1.8, `${power}: a narrow fleet`);
        assert.equal(army!.fill, colour, `${power} in the seed's colour`);
        assert.equal(fleet!.fill, colour, `${power}'s fleet too`);
      }
      return legend;
    };
    // The sandbox: beside the board at 1440×900, under it on a phone, never over it.
    const page = await h.as("gm", DESKTOP);
    await page.goto(`${h.base}/sandbox?variant=europe1935`);
    await page.locator(".game .map svg").waitFor();
    const legend = await pieces(page);
    let map = (await page.locator(".game .map").boundingBox())!;
    let box = (await legend.boundingBox())!;
    assert.ok(box.x >= map.x + map.width, "beside the sandbox's board");
    assert.ok(box.y + box.height <= DESKTOP.height, "in view");
    await docShot(page, "sandbox-legend-desktop");
    const phone = await h.as("gm", PHONE);
    await phone.goto(`${h.base}/sandbox?variant=europe1935`);
    await phone.locator(".game .map svg").waitFor();
    const small = await pieces(phone);
    const pmap = (await phone.locator(".game .map").boundingBox())!;
    const pbox = (await small.boundingBox())!;
    assert.ok(pbox.y >= pmap.y + pmap.height, "under the board on a phone");
    assert.ok(pbox.x + pbox.width <= PHONE.width, "no wider than the phone");
    await small.scrollIntoViewIfNeeded();
    await docShot(phone, "sandbox-legend-phone");
    // The chair's projector view.
    const g = await h.api.ok<GameJson>(
      "POST",
      "/api/games",
      { name: "Committee room", variant: "europe1935" },
      h.tokens.gm,
    );
    const chair = await h.as("gm", DESKTOP);
    await chair.goto(`${h.base}/chair/${g.id}`);
    await chair.locator(".projector .map svg").waitFor();
    const big = await pieces(chair);
    map = (await chair.locator(".projector .map").boundingBox())!;
    box = (await big.boundingBox())!;
    assert.ok(apart(map, box), "not over the projector's map");
    assert.ok(box.x >= map.x + map.width, "beside it");
    await docShot(chair, "projector-legend-desktop");
    const chairPhone = await h.as("gm", PHONE);
    await chairPhone.goto(`${h.base}/chair/${g.id}`);
    await chairPhone.locator(".projector .map svg").waitFor();
    const under = await pieces(chairPhone);
    const cmap = (await chairPhone.locator(".projector .map").boundingBox())!;
    assert.ok((await under.boundingBox())!.y >= cmap.y + cmap.height, "under it on a phone");
    await under.scrollIntoViewIfNeeded();
    await docShot(chairPhone, "projector-legend-phone");
    for (const p of [page, phone, chair, chairPhone])
      assert.deepEqual(h.pageErrors(p), [], "no script errors");
  });
});
