import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS, type BrowserHarness } from "./harness.ts";

/** Where the screenshots docs/web.md shows are kept. */
export const DOCS = join(import.meta.dirname, "..", "..", "docs", "screens");

/**
 * A screenshot of the viewport (not the whole page) under test-artifacts/; with
 * ENTENTE_DOC_SHOTS set, also kept under docs/screens/, a desktop's at half size (Chromium
 * scales it down: docs/screens/ stays small), a phone's as taken.
 */
export async function docShot(h: BrowserHarness, page: Page, name: string): Promise<void> {
  const png = await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  if (!process.env.ENTENTE_DOC_SHOTS) return;
  const size = page.viewportSize()!;
  if (size.width <= 800) {
    writeFileSync(join(DOCS, `${name}.png`), png);
    return;
  }
  const half = { width: Math.round(size.width / 2), height: Math.round(size.height / 2) };
  const small = await h.anonymous(half);
  await small.setContent(
    `<body style="margin:0"><img style="display:block;width:${half.width}px" src="data:image/png;base64,${png.toString("base64")}"></body>`,
  );
  await small
    .locator("img")
    .evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
  await small.screenshot({ path: join(DOCS, `${name}.png`) });
  await small.close();
}
