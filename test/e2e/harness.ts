import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { Judge } from "../../src/judge/judge.ts";
import { type RunningServer, startServer } from "../../src/server/server.ts";
import { Api } from "../../src/server/testing.ts";
import { openStore, type Store } from "../../src/store/db.ts";

/*
 * What the browser tests share: a judge server on an ephemeral port with a fresh SQLite store,
 * Debian's Chromium headless (the flags a closed network needs), pages logged in as a user,
 * the script errors each page met, and screenshots under test-artifacts/.
 */

declare const localStorage: {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
};

export const CHROMIUM = process.env.ENTENTE_CHROMIUM ?? "/usr/bin/chromium";
export const ARTIFACTS = join(import.meta.dirname, "..", "..", "test-artifacts");
/** Where the screenshots docs/web.md shows are kept (rewritten with ENTENTE_DOC_SHOTS=1). */
export const DOC_SCREENS = join(import.meta.dirname, "..", "..", "docs", "screens");
/**
 * The bound on a browser suite (a file's `describe`): a guard against a hang, far above what a
 * suite takes on a 2-core machine with a CPU hog on each core; a wait that comes early costs
 * nothing.
 */
export const SUITE_MS = 900_000;
/**
 * The bound on each wait of a page (an element to appear, a download): generous, for a loaded
 * 2-core machine draws the 1935 map slowly; a wait is not an assertion.
 */
export const WAIT_MS = 90_000;
/** How long closing the browser, the server and the store may take before the test says so. */
const CLOSE_MS = 30_000;

/** `p`, or an error after `ms` saying what did not end. */
async function bounded<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A phone as Chromium emulates one: touch events, a mobile viewport, three device pixels a CSS pixel. */
export const PHONE_DEVICE = { isMobile: true, hasTouch: true, deviceScaleFactor: 3 } as const;
/** The phone the site is laid out for (issue 29): 390×844 CSS pixels. */
export const PHONE = { width: 390, height: 844 } as const;

export interface GameJson {
  id: string;
  phase: string | null;
  state: string;
  invites?: { code: string; role: string; seat: number | null }[];
}

export class BrowserHarness {
  store!: Store;
  judge!: Judge;
  server!: RunningServer;
  browser!: Browser;
  base = "";
  api!: Api;
  readonly tokens: Record<string, string> = {};
  private readonly contexts: BrowserContext[] = [];
  private readonly errors = new WeakMap<Page, string[]>();
  private tmp = "";

  /** Starts the server and the browser; `users` get accounts (password `NAME-judge-password`). */
  async start(users: readonly string[]): Promise<void> {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `no browser at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium) or set ENTENTE_CHROMIUM`,
      );
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    this.tmp = mkdtempSync(join(tmpdir(), "entente-e2e-"));
    this.store = await openStore({ sqlitePath: join(this.tmp, "entente.sqlite") });
    this.judge = new Judge({ store: this.store });
    this.server = await startServer({
      judge: this.judge,
      port: 0,
      host: "127.0.0.1",
      tickMs: 50,
      pollMs: 50,
    });
    this.base = `http://127.0.0.1:${this.server.port}`;
    this.api = new Api(this.base);
    for (const name of users) await this.account(name);
    this.browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  }

  /** An account for `name` (made once), its token kept for `as`. */
  async account(name: string): Promise<string> {
    this.tokens[name] ??= (
      await this.judge.accounts.register(name, `${name}-judge-password`)
    ).token;
    return this.tokens[name]!;
  }

  /**
   * Ends everything `start` started, whatever of it did start, each step bounded. Chromium is
   * Playwright's child in a process group of its own: `browser.close` ends it, and Playwright
   * kills that group when this process exits should closing fail.
   */
  async close(): Promise<void> {
    const errors: unknown[] = [];
    const step = async (what: string, p: Promise<unknown> | undefined) => {
      if (p) await bounded(p, CLOSE_MS, what).catch((e: unknown) => errors.push(e));
    };
    for (const c of this.contexts)
      await step(
        "a browser context",
        c.close().catch(() => {}),
      );
    await step("the browser", this.browser?.close());
    await step("the server", this.server?.close());
    await step("the store", this.store?.close());
    if (this.tmp) rmSync(this.tmp, { recursive: true, force: true });
    if (errors.length > 0) throw errors[0];
  }

  /** A page of its own, logged in as nobody (closed with the harness). */
  async anonymous(viewport = { width: 1280, height: 900 }, touch = false): Promise<Page> {
    const page = await this.browser.newPage({ viewport, ...(touch ? PHONE_DEVICE : {}) });
    this.contexts.push(page.context());
    page.setDefaultTimeout(WAIT_MS);
    return page;
  }

  /** A browser context logged in as `user` (the token in localStorage, as the login form does). */
  async as(user: string, viewport = { width: 1280, height: 900 }, touch = false): Promise<Page> {
    const ctx = await this.browser.newContext({ viewport, ...(touch ? PHONE_DEVICE : {}) });
    this.contexts.push(ctx);
    await ctx.addInitScript(
      ([token, name]) => {
        if (!localStorage.getItem("entente.token")) {
          localStorage.setItem("entente.token", token!);
          localStorage.setItem("entente.user", name!);
        }
      },
      [this.tokens[user]!, user],
    );
    const page = await ctx.newPage();
    page.setDefaultTimeout(WAIT_MS);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      // Refusals the page shows to the user or answers itself (4xx answers: a 403 for a seat
      // lost while the page read it) are not script errors; the others are kept with their URL.
      if (m.type() === "error" && !/40[01349]/.test(m.text())) {
        const at = m.location().url;
        errors.push(at ? `${m.text()} (${at})` : m.text());
      }
    });
    this.errors.set(page, errors);
    return page;
  }

  /** The script errors a page met so far. */
  pageErrors(page: Page): readonly string[] {
    return this.errors.get(page) ?? [];
  }

  /**
   * A screenshot of the viewport (in CSS pixels) into test-artifacts/; with ENTENTE_DOC_SHOTS set, also kept
   * for the docs under docs/screens/, a desktop's at half size (Chromium scales it down, so
   * the folder stays small), a phone's as taken.
   */
  async docShot(page: Page, name: string): Promise<void> {
    // In CSS pixels: a phone emulated at three device pixels a pixel is kept at 390 wide.
    const png = await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), scale: "css" });
    if (!process.env.ENTENTE_DOC_SHOTS) return;
    const size = page.viewportSize()!;
    if (size.width <= 800) {
      writeFileSync(join(DOC_SCREENS, `${name}.png`), png);
      return;
    }
    const half = { width: Math.round(size.width / 2), height: Math.round(size.height / 2) };
    const small = await this.anonymous(half);
    await small.setContent(
      `<body style="margin:0"><img style="display:block;width:${half.width}px" src="data:image/png;base64,${png.toString("base64")}"></body>`,
    );
    await small
      .locator("img")
      .evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
    await small.screenshot({ path: join(DOC_SCREENS, `${name}.png`) });
    await small.close();
  }

  async shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }
}
