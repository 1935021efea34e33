import type { GameSummary } from "../judge/judge.ts";

/*
 * The HTML shell of every page: the style sheet, the client's script (src/web, bundled by
 * web.ts) and, for the front page, the games list rendered on the server so it paints before
 * any script runs (and reads without one). Every text from users is escaped.
 */

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export interface ShellAssets {
  readonly js: string;
  readonly css: string;
}

export function appShell(title: string, body: string, assets: ShellAssets): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${escapeHtml(assets.css)}">
<script type="module" src="${escapeHtml(assets.js)}"></script>
</head><body>
<header class="top"><a class="brand" href="/">Entente</a><nav id="nav"><a href="/">Lobby</a><a href="/sandbox">Sandbox</a><a href="/api/docs">API</a></nav></header>
<main id="app">${body}</main>
</body></html>
`;
}

export function homePage(games: readonly GameSummary[], assets: ShellAssets): string {
  const rows = games
    .map(
      (g) =>
        `<tr><td data-label="Game"><a href="/game/${encodeURIComponent(g.id)}">${escapeHtml(g.name)}</a></td><td data-label="Variant">${escapeHtml(
          g.variant,
        )} (${escapeHtml(g.scenario)})</td><td data-label="Status">${escapeHtml(g.status)}</td><td data-label="Phase">${escapeHtml(g.phase ?? "-")}</td><td data-label="Deadline (UTC)">${escapeHtml(
          g.deadline ?? "-",
        )}</td><td data-label="Players">${g.players}/${g.seats}</td></tr>`,
    )
    .join("\n");
  const list =
    games.length === 0
      ? "<p>No games yet.</p>"
      : `<table class="games"><thead><tr><th>Game</th><th>Variant</th><th>Status</th><th>Phase</th><th>Deadline (UTC)</th><th>Players</th></tr></thead><tbody>
${rows}
</tbody></table>`;
  return appShell(
    "Entente judge",
    `<h1>Entente judge</h1>
<section id="lobby-static"><h2>Games (${games.length})</h2>
${list}
<p>The API is described at <a href="/api/docs">/api/docs</a>.</p></section>`,
    assets,
  );
}
