import type { BoardPosition } from "../render/types.ts";
import { h } from "./dom.ts";
import { type CentreHistory, centreRows, duePointsText, dueText } from "./parts.ts";

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
  const points = position.tally !== undefined;
  const withPoints = (n: number, p: number | undefined) =>
    p === undefined ? String(n) : `${n} (${p} pt${p === 1 ? "" : "s"})`;
  return h(
    "table",
    { class: "centres", "aria-label": "supply centres" },
    h(
      "caption",
      {},
      `Supply centres, ${position.phase}`,
      points
        ? h("small", {}, " (supply points over unit points, as the turn starts)")
        : adjusting
          ? ""
          : h("small", {}, " (builds or removals due if the year ended now)"),
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
        h("th", { scope: "col" }, points ? "Supply" : adjusting ? "Due" : "Due next"),
      ),
    ),
    h(
      "tbody",
      {},
      rows.map((r) =>
        r.unknown
          ? h(
              "tr",
              { "data-power": r.power, "data-unknown": "true" },
              h("th", { scope: "row" }, name(r.power)),
              h("td", { colspan: 3, class: "hint" }, "unknown"),
            )
          : h(
              "tr",
              {
                "data-power": r.power,
                "data-centres": String(r.centres),
                "data-due": String(r.due),
              },
              h("th", { scope: "row" }, name(r.power)),
              h("td", {}, withPoints(r.centres, r.points?.supply)),
              h("td", {}, withPoints(r.units, r.points?.units)),
              h(
                "td",
                { class: r.due > 0 ? "build" : r.due < 0 ? "remove" : "" },
                r.points ? duePointsText(r.due) : dueText(r.due),
              ),
            ),
      ),
    ),
  );
}

const SVG = "http://www.w3.org/2000/svg";
function s(tag: string, attrs: Record<string, string | number>, ...kids: (Node | string)[]) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const k of kids) el.append(k);
  return el;
}

/**
 * The chart of supply centres per power over the years (parts.ts `centreHistory`): a line
 * per power in its colour on the board (`colours`, which follow the palette chosen), each
 * ended by a swatch, the power's short name and its count, so colour is not the only cue. An SVG
 * drawn to the width of its box, with a text summary for screen readers; none before a year
 * has been played.
 */
export function centreChart(
  hist: CentreHistory,
  name: (p: string) => string,
  colours: Record<string, string>,
  short: (p: string) => string,
): Element | null {
  const n = hist.labels.length;
  if (n < 2 || hist.series.length === 0) return null;
  const [W, H, left, right, top, bottom] = [320, 130, 20, 52, 8, 17];
  const max = Math.max(2, ...hist.series.flatMap((x) => x.counts));
  const ceil = Math.ceil(max / 2) * 2;
  const x = (i: number) => left + ((W - left - right) * i) / (n - 1);
  const y = (c: number) => top + (H - top - bottom) * (1 - c / ceil);
  // Lines on the same count are spread a little around it, so one does not hide another.
  const at = (k: number, i: number, c: number) => {
    const same = hist.series.filter((o) => o.counts[i] === c).length;
    const before = hist.series.slice(0, k).filter((o) => o.counts[i] === c).length;
    return (y(c) + (before - (same - 1) / 2) * 1.8).toFixed(1);
  };
  const grid = [0, ceil / 2, ceil].map((c) => [
    s("line", { x1: left, x2: W - right, y1: y(c), y2: y(c), class: "grid" }),
    s("text", { x: left - 4, y: y(c) + 3, "text-anchor": "end" }, String(c)),
  ]);
  // Year labels: the first, the last and as many between as fit (about every 40 units).
  const every = Math.max(1, Math.ceil((n - 1) / ((W - left - right) / 40)));
  const years = hist.labels.flatMap((l, i) =>
    i === 0 || i === n - 1 || (i % every === 0 && n - 1 - i >= every / 2)
      ? [s("text", { x: x(i), y: H - 4, "text-anchor": "middle" }, l)]
      : [],
  );
  // The labels at the lines' ends, pushed apart so none covers another.
  const ends = hist.series
    .map((x2) => ({ power: x2.power, c: x2.counts[n - 1]!, y: y(x2.counts[n - 1]!) }))
    .sort((a, b) => a.y - b.y);
  for (let i = 1; i < ends.length; i++) ends[i]!.y = Math.max(ends[i]!.y, ends[i - 1]!.y + 11);
  const overflow = (ends[ends.length - 1]?.y ?? 0) - (H - bottom + 2);
  if (overflow > 0) for (const e of ends) e.y -= overflow;
  const lines = hist.series.map((x2, k) =>
    s(
      "g",
      { "data-power": x2.power },
      s("title", {}, `${name(x2.power)}: ${x2.counts.join(", ")}`),
      s("polyline", {
        points: x2.counts.map((c, i) => `${x(i).toFixed(1)},${at(k, i, c)}`).join(" "),
        stroke: colours[x2.power] ?? "#666",
      }),
      ...x2.counts.map((c, i) =>
        s("circle", {
          cx: x(i).toFixed(1),
          cy: at(k, i, c),
          r: 2,
          fill: colours[x2.power] ?? "#666",
        }),
      ),
    ),
  );
  const labels = ends.map((e) =>
    s(
      "g",
      { class: "end" },
      s("rect", {
        x: W - right + 4,
        y: e.y - 4,
        width: 8,
        height: 8,
        fill: colours[e.power] ?? "#666",
      }),
      s("text", { x: W - right + 15, y: e.y + 3.5 }, `${short(e.power)} ${e.c}`),
    ),
  );
  const summary = `Supply centres per year (${hist.labels.join(", ")}): ${hist.series
    .map((x2) => `${name(x2.power)} ${x2.counts.join(", ")}`)
    .join("; ")}`;
  return s(
    "svg",
    {
      class: "centre-chart",
      viewBox: `0 0 ${W} ${H}`,
      role: "img",
      "aria-label": summary,
    },
    s("title", {}, "Supply centres per power over the years"),
    ...grid.flat(),
    ...years,
    ...lines,
    ...labels,
  );
}
