import type { GameSummary } from "../judge/judge.ts";

/*
 * GET /: a plain page listing the games and pointing at the API. The full web client is a
 * later issue; this page shows only what exists.
 */

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

export function homePage(games: readonly GameSummary[]): string {
  const rows = games
    .map(
      (g) =>
        `<tr><td><a href="/api/games/${escapeHtml(g.id)}">${escapeHtml(g.name)}</a></td><td>${escapeHtml(
          g.variant,
        )} (${escapeHtml(g.scenario)})</td><td>${escapeHtml(g.status)}</td><td>${escapeHtml(g.phase ?? "-")}</td><td>${escapeHtml(
          g.deadline ?? "-",
        )}</td><td>${g.players}/${g.seats}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Entente judge</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #ddd}</style>
</head><body>
<h1>Entente judge</h1>
<p>Diplomacy games hosted here. Everything is done through the API: see its
<a href="/api/docs">OpenAPI document</a> (<code>/api/docs</code>) and
<a href="/api/health">health</a>.</p>
<h2>Games (${games.length})</h2>
${
  games.length === 0
    ? "<p>No games yet. Create an account (<code>POST /api/users</code>), then a game (<code>POST /api/games</code>).</p>"
    : `<table><thead><tr><th>Game</th><th>Variant</th><th>Status</th><th>Phase</th><th>Deadline (UTC)</th><th>Players</th></tr></thead><tbody>
${rows}
</tbody></table>`
}
</body></html>
`;
}
