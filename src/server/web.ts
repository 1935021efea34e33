import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { Judge } from "../judge/judge.ts";
import { appShell, homePage } from "./page.ts";

/*
 * The web client: its pages (one HTML shell; src/web draws the rest) and its script (src/web
 * bundled with esbuild on first use, kept in memory, gzipped once). The API routes only it
 * needs are web-routes.ts's. docs/web.md describes the pages.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const ENTRY = join(ROOT, "src", "web", "main.ts");
/** The style sheet's files (src/web/style/), served joined in this order: the cascade's. */
const CSS = ["base", "layout", "panels", "phone"].map((f) =>
  join(ROOT, "src", "web", "style", `${f}.css`),
);

/** Every page: scripts only from this origin, no inline script, nothing framed. */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'";

export interface Asset {
  readonly body: Buffer;
  readonly gzip: Buffer;
  readonly hash: string;
  readonly type: string;
}

function asset(body: Buffer, type: string): Asset {
  return {
    body,
    gzip: gzipSync(body, { level: 9 }),
    hash: createHash("sha256").update(body).digest("hex").slice(0, 12),
    type,
  };
}

/**
 * The icon of every page (and of the browser's own `/favicon.ico` request): a supply centre's
 * star on a blue sea, small and inline.
 */
const FAVICON = asset(
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2a5db0"/><circle cx="16" cy="16" r="10" fill="#f3e9c6" stroke="#7a5a12" stroke-width="2"/><path d="M16 8.5l2.2 4.8 5.2.6-3.9 3.5 1.1 5.1L16 19.9l-4.6 2.6 1.1-5.1-3.9-3.5 5.2-.6z" fill="#a3261b"/></svg>',
  ),
  "image/svg+xml",
);

let bundled: Promise<{ js: Asset; css: Asset }> | null = null;

/** The client bundle and its style sheet, built once per process. */
export function clientAssets(): Promise<{ js: Asset; css: Asset }> {
  bundled ??= (async () => {
    const esbuild = await import("esbuild");
    const out = await esbuild.build({
      entryPoints: [ENTRY],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2020",
      write: false,
      legalComments: "none",
      logLevel: "silent",
    });
    const js = out.outputFiles[0];
    if (!js) throw new Error("esbuild produced no output for src/web/main.ts");
    const css = Buffer.concat(await Promise.all(CSS.map((f) => readFile(f))));
    return {
      js: asset(Buffer.from(js.contents), "text/javascript; charset=utf-8"),
      css: asset(css, "text/css; charset=utf-8"),
    };
  })();
  bundled.catch(() => {
    bundled = null;
  });
  return bundled;
}

function sendAsset(req: IncomingMessage, res: ServerResponse, a: Asset, immutable: boolean) {
  const gz = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  const body = gz ? a.gzip : a.body;
  res.writeHead(200, {
    "content-type": a.type,
    "content-length": body.length,
    "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
    etag: `"${a.hash}"`,
    "x-content-type-options": "nosniff",
    ...(gz ? { "content-encoding": "gzip", vary: "accept-encoding" } : {}),
  });
  res.end(body);
}

const PAGE = /^\/(?:|index\.html|game\/[^/]+|chair\/[^/]+|sandbox|join\/[^/]+|login)$/;

/**
 * Serves the pages and the client's assets; answers false for anything else (the API).
 */
export async function serveWeb(
  judge: Judge,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const path = url.pathname;
  if (path === "/assets/app.js" || path === "/assets/app.css") {
    const assets = await clientAssets();
    const a = path.endsWith(".js") ? assets.js : assets.css;
    sendAsset(req, res, a, url.searchParams.get("v") === a.hash);
    return true;
  }
  if (path === "/favicon.svg" || path === "/favicon.ico") {
    sendAsset(req, res, FAVICON, false);
    return true;
  }
  if (!PAGE.test(path)) return false;
  const { js, css } = await clientAssets();
  const assets = { js: `/assets/app.js?v=${js.hash}`, css: `/assets/app.css?v=${css.hash}` };
  const html =
    path === "/" || path === "/index.html"
      ? homePage(await judge.games.listGames(), assets)
      : appShell("Entente", "", assets);
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
  });
  res.end(html);
  return true;
}
