import type { BoardPosition } from "../render/types.ts";
import { h } from "./dom.ts";
import { centreRows, dueText } from "./parts.ts";

/*
 * The supply centres beside the board: each power's centres, units, and the builds or
 * removals the difference calls for (due in the adjustment phase; before it, what would be
 * due if nothing changed). Drawn from the position alone, so every variant gets it; a
 * position without centres (a fogged report's) gets none.
 */

export function centreTable(
  position: BoardPosition,
  name: (p: string) => string,
): HTMLElement | null {
  const rows = centreRows(position);
  if (rows.length === 0) return null;
  const adjusting = position.phase.endsWith("A");
  return h(
    "table",
    { class: "centres", "aria-label": "supply centres" },
    h(
      "caption",
      {},
      `Supply centres, ${position.phase}`,
      adjusting ? "" : h("small", {}, " (builds or removals due if the year ended now)"),
    ),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Power"),
        h("th", { scope: "col" }, "Centres"),
        h("th", { scope: "col" }, "Units"),
        h("th", { scope: "col" }, adjusting ? "Due" : "Due next"),
      ),
    ),
    h(
      "tbody",
      {},
      rows.map((r) =>
        h(
          "tr",
          { "data-power": r.power, "data-centres": String(r.centres), "data-due": String(r.due) },
          h("th", { scope: "row" }, name(r.power)),
          h("td", {}, String(r.centres)),
          h("td", {}, String(r.units)),
          h("td", { class: r.due > 0 ? "build" : r.due < 0 ? "remove" : "" }, dueText(r.due)),
        ),
      ),
    ),
  );
}
