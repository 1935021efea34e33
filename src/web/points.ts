import type { GameCtx, Panel } from "./context.ts";
import { drawnPanel, h } from "./dom.ts";
import type { GameView } from "./types.ts";

/* The victory-point table of a game whose view carries `scores` (europe1935). */

interface Scores {
  territorialCenters: number;
  rows: {
    power: string;
    centres: number;
    territorial: number;
    political: number;
    insurrection: number;
    total: number;
  }[];
  winner: string | null;
  leaders: string[];
}

/** The victory-point table, when the game view carries one (europe1935: docs/committee.md). */
export function pointsTable(view: GameView, name: (p: string) => string): HTMLElement | null {
  const scores = view.scores as Scores | undefined;
  if (!scores || !Array.isArray(scores.rows)) return null;
  const head: [string, string][] = [
    ["Power", "Power"],
    ["SC", "supply centres"],
    ["Terr.", "territorial points"],
    ["Pol.", "political goals' points"],
    ["Ins.", "insurrection points"],
    ["Total", "total victory points"],
  ];
  return h(
    "section",
    { class: "points" },
    h("h2", {}, "Victory points"),
    h(
      "table",
      {},
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          head.map(([t, title]) => h("th", { title, scope: "col" }, t)),
        ),
      ),
      h(
        "tbody",
        {},
        scores.rows.map((r) =>
          h(
            "tr",
            { class: scores.leaders.includes(r.power) ? "leader" : "" },
            h("th", {}, name(r.power)),
            h("td", {}, r.centres),
            h("td", {}, r.territorial),
            h("td", {}, r.political),
            h("td", {}, r.insurrection),
            h("td", {}, h("strong", {}, r.total)),
          ),
        ),
      ),
    ),
    h(
      "p",
      { class: "hint" },
      `${scores.territorialCenters} centres give the five territorial points.`,
    ),
  );
}

/** The Points tab of the game page. */
export function pointsPanel(ctx: GameCtx): Panel {
  return drawnPanel("Points", async (el) => {
    el.replaceChildren(
      pointsTable(ctx.view(), ctx.name) ?? h("p", {}, "No victory points in this game."),
    );
  });
}
