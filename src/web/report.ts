import { get } from "./api.ts";
import type { GameCtx, ReportCard } from "./context.ts";
import { fill, h, message } from "./dom.ts";
import { isFamilyView } from "./parts.ts";
import type { Report } from "./types.ts";

/*
 * The viewer's own report, in a game whose results each player reads in a report of its own
 * (Global Diplomacy, Age of Discovery: `GET /api/games/:id/report`), in monospace as the judge
 * writes it: the last adjudicated turn's (before turn 1, the opening report), and every
 * earlier turn's by stepping back. The game master chooses whose report to read.
 */

/**
 * The viewer's report: the last adjudicated turn's (before turn 1, the opening report), and
 * every earlier turn's by stepping back. The GM chooses whose report to read.
 */
export function reportCard(ctx: GameCtx): ReportCard {
  const { base, view } = ctx;
  const powerName = ctx.name;
  /** The turns with a report: the view's `family` block counts them. */
  const turnsOf = () => {
    const v = view();
    return isFamilyView(v) ? v.family : { turn: 0, turnsAdjudicated: 0 };
  };
  const el = h("section", { class: "card report-card", "aria-label": "report" });
  const pre = h("pre", { class: "report", tabindex: "0" });
  const accounting = h("pre", { class: "accounting", tabindex: "0" });
  const title = h("h2", {});
  const out = h("div", { "aria-live": "polite" });
  let turn: number | null = null; // null: the latest
  let shownTurns = -1;
  let power: string | null = null;
  let latest: Report | null = null;

  const turnsAvailable = (): number[] => {
    const f = turnsOf();
    const first = f.turn - f.turnsAdjudicated;
    return Array.from({ length: f.turnsAdjudicated }, (_, i) => first + i);
  };
  const whose = (): string | null => {
    const v = view();
    if (v.you?.role === "gm") return power ?? v.seatList[0]?.powers[0] ?? null;
    return v.you?.powers[0] ?? null;
  };
  const wrap = h(
    "button",
    {
      type: "button",
      class: "secondary",
      "aria-pressed": "false",
      onclick: (e: Event) => {
        const on = pre.classList.toggle("wrap");
        (e.currentTarget as HTMLElement).setAttribute("aria-pressed", String(on));
      },
    },
    "Wrap lines",
  );

  const load = async () => {
    const v = view();
    const p = whose();
    if (!v.you || (v.you.role !== "gm" && v.you.powers.length === 0) || p === null) {
      fill(
        el,
        h("h2", {}, "Reports"),
        h(
          "p",
          {},
          `Each player reads only its own report${v.you ? "" : " (log in)"}; the game master reads every power's.`,
        ),
      );
      return;
    }
    const turns = turnsAvailable();
    if (turn !== null && !turns.includes(turn)) turn = null;
    const q = new URLSearchParams();
    if (v.you.role === "gm") q.set("power", p);
    if (turn !== null) q.set("turn", String(turn));
    let r: Report;
    try {
      const qs = q.toString();
      r = await get<Report>(`${base}/report${qs ? `?${qs}` : ""}`);
    } catch (e) {
      fill(el, h("h2", {}, "Report"), message((e as Error).message, "error"));
      return;
    }
    if (turn === null && v.you.role !== "gm") latest = r;
    const at = turn ?? turns.at(-1) ?? null;
    const step = (d: number) => {
      const i = turns.indexOf(at ?? -1) + d;
      const t = turns[i];
      if (t === undefined) return;
      turn = i === turns.length - 1 ? null : t;
      void load();
    };
    const turnSelect =
      turns.length > 0
        ? h(
            "select",
            { "aria-label": "turn" },
            turns.map((t) => h("option", { value: String(t), selected: t === at }, `Turn ${t}`)),
          )
        : null;
    turnSelect?.addEventListener("change", () => {
      const t = Number(turnSelect.value);
      turn = t === turns.at(-1) ? null : t;
      void load();
    });
    const powerSelect =
      v.you.role === "gm"
        ? h(
            "select",
            { "aria-label": "power" },
            v.seatList.flatMap((s) =>
              s.powers.map((x) => h("option", { value: x, selected: x === p }, powerName(x))),
            ),
          )
        : null;
    powerSelect?.addEventListener("change", () => {
      power = powerSelect.value;
      void load();
    });
    fill(
      title,
      r.turn === 0
        ? `Opening report of ${powerName(r.power)}`
        : `Turn ${r.turn} report of ${powerName(r.power)}`,
    );
    fill(pre, r.report);
    // The player's own accounting section, above the report as the mail prints it.
    fill(accounting, r.accounting?.trimEnd() ?? "");
    const i = turns.indexOf(at ?? -1);
    fill(
      el,
      title,
      h(
        "div",
        { class: "row wrap stepper" },
        powerSelect,
        turns.length > 0
          ? [
              h(
                "button",
                {
                  type: "button",
                  disabled: i <= 0,
                  "aria-label": "earlier turn",
                  onclick: () => step(-1),
                },
                "◀",
              ),
              turnSelect,
              h(
                "button",
                {
                  type: "button",
                  disabled: i === -1 || i >= turns.length - 1,
                  "aria-label": "later turn",
                  onclick: () => step(1),
                },
                "▶",
              ),
            ]
          : h("span", { class: "hint" }, "No turn adjudicated yet: the opening report."),
        wrap,
      ),
      r.accounting
        ? h("details", { class: "accounting", open: true }, [
            h("summary", {}, "Accounting: your account id and your last turns"),
            accounting,
          ])
        : null,
      pre,
      out,
    );
  };

  return {
    el,
    /** The latest report of the viewer's own power, once loaded (for its possible commands). */
    latest: () => latest,
    async refresh() {
      const n = turnsOf().turnsAdjudicated;
      if (n !== shownTurns) {
        // A new turn was adjudicated: show its report.
        turn = null;
        shownTurns = n;
      }
      await load();
    },
  };
}
