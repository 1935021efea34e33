import { drawnResults } from "../render/layers.ts";
import type { BoardPosition } from "../render/types.ts";
import { get } from "./api.ts";
import { geometry, palette } from "./board.ts";
import type { GameCtx, Panel } from "./context.ts";
import { drawnPanel, fill, h } from "./dom.ts";
import { receivedSets, setList } from "./orders.ts";
import { missedPowers, missedWords, unorderedBuilds } from "./parts.ts";
import type { GameRecord, PhaseRecord } from "./types.ts";

/*
 * What happened: the History tab (every adjudicated phase of a variant's game, public: the
 * board before it with the orders and results drawn, and each order's result, reason and
 * explanation) and, in a game of commands, whose results each player reads only in its own
 * report, the game master's Turns tab (the sets received and every adjudicated turn's).
 */

export function outcomeList(
  results: PhaseRecord["results"],
  name: (p: string) => string,
  highlight?: { power: string; index: number },
  missed?: { powers: ReadonlySet<string>; phase: string },
): HTMLElement {
  return h(
    "div",
    { class: "outcomes" },
    Object.entries(results).map(([power, list]) => {
      const nmr = missed?.powers.has(power) ?? false;
      return h(
        "section",
        nmr ? { class: "nmr", "data-nmr": power } : {},
        h("h4", {}, name(power)),
        nmr ? h("p", { class: "nmr-note" }, missedWords(missed!.phase)) : null,
        h(
          "ul",
          {},
          list.map((r, i) =>
            h(
              "li",
              {
                class: `outcome ${r.result}${missed && r.text === null ? " defaulted" : ""}${highlight && highlight.power === power && highlight.index === i ? " current" : ""}`,
              },
              h("code", {}, r.order ?? r.text ?? "(no order)"),
              " ",
              h("span", { class: `badge ${r.result}` }, r.result),
              missed && r.text === null && !nmr ? h("small", {}, " not ordered") : null,
              r.text && r.order && r.text !== r.order
                ? h("small", {}, ` written “${r.text}”`)
                : null,
              r.reason && r.reason !== r.explanation
                ? h("div", { class: "reason" }, r.reason)
                : null,
              r.explanation ? h("div", { class: "explanation" }, r.explanation) : null,
            ),
          ),
        ),
      );
    }),
  );
}

interface Correction {
  at: string;
  reason: string;
}

/**
 * A phase the GM corrected after it was published (seed 002 VIII(1)): when, and the GM's
 * reason, each time; the results shown are the corrected ones.
 */
function correctionNote(list: readonly Correction[] | undefined): HTMLElement | null {
  if (!list?.length) return null;
  return h(
    "div",
    { class: "msg info correction", role: "note", "data-corrected": String(list.length) },
    h("strong", {}, "Corrected by the GM"),
    h(
      "ul",
      {},
      list.map((c) =>
        h(
          "li",
          {},
          h("time", { datetime: c.at }, new Date(c.at).toLocaleString()),
          `: ${c.reason.trim() || "no reason given"}`,
        ),
      ),
    ),
    h(
      "p",
      {},
      "The results below replace the ones first published; the board from here on follows them.",
    ),
  );
}

/** The builds left unordered in an adjustment phase: waived, said by power. */
function waivedList(
  list: readonly { power: string; due: number; missing: number }[],
  name: (p: string) => string,
): HTMLElement | null {
  if (list.length === 0) return null;
  return h(
    "div",
    { class: "outcomes" },
    list.map((w) =>
      h(
        "section",
        { class: "nmr", "data-waived": w.power },
        h("h4", {}, name(w.power)),
        h(
          "p",
          { class: "nmr-note" },
          `${w.due} build${w.due === 1 ? "" : "s"} due, ${w.due - w.missing} ordered: ${w.missing === 1 ? "1 build" : `${w.missing} builds`} not ordered, waived`,
        ),
      ),
    ),
  );
}

export function historyPanel(ctx: GameCtx): Panel {
  const { id, name } = ctx;
  const el = h("div", {});
  let record: GameRecord | null = null;
  let homes: Record<string, string | null | undefined> = {};
  /** The GM's corrections per phase index (public `phase_corrected` events), oldest first. */
  let corrections = new Map<number, Correction[]>();
  let index = -1;
  const show = () => {
    if (!record) return;
    const n = record.phases.length;
    if (n === 0) {
      fill(el, h("p", {}, "No phase has been resolved yet."));
      void ctx.draw(record.start);
      return;
    }
    index = Math.max(0, Math.min(n - 1, index < 0 ? n - 1 : index));
    const ph = record.phases[index]!;
    const before: BoardPosition = index === 0 ? record.start : record.phases[index - 1]!.position;
    void ctx.draw(before, drawnResults(ph.results));
    const select = h(
      "select",
      { "aria-label": "phase" },
      record.phases.map((p, i) =>
        h(
          "option",
          { value: String(i), selected: i === index },
          `${i + 1}. ${p.phase}${corrections.has(i) ? " (corrected)" : ""}`,
        ),
      ),
    );
    select.addEventListener("change", () => {
      index = Number(select.value);
      show();
    });
    const step = (d: number) => {
      index += d;
      show();
    };
    fill(
      el,
      h(
        "div",
        { class: "row stepper" },
        h(
          "button",
          {
            type: "button",
            disabled: index === 0,
            onclick: () => step(-1),
            "aria-label": "previous phase",
          },
          "◀",
        ),
        select,
        h(
          "button",
          {
            type: "button",
            disabled: index === n - 1,
            onclick: () => step(1),
            "aria-label": "next phase",
          },
          "▶",
        ),
        h(
          "a",
          {
            href: `/sandbox?game=${encodeURIComponent(id)}&phase=${index}`,
            class: "button secondary",
          },
          "Fork in sandbox",
        ),
        // The phase as a picture (pictures.ts on the server), in the palette chosen.
        h(
          "a",
          {
            href: `${ctx.base}/history.png?phase=${encodeURIComponent(ph.phase)}${palette() === "colorblind" ? "&palette=colorblind" : ""}`,
            download: "",
            class: "button secondary",
            "aria-label": `Download ${ph.phase} as a PNG`,
          },
          "PNG",
        ),
      ),
      h("p", { class: "hint" }, "← and → step through the phases."),
      correctionNote(corrections.get(index)),
      h("h3", {}, `${ph.phase}: results${corrections.has(index) ? " (as corrected)" : ""}`),
      outcomeList(ph.results, name, undefined, {
        // A retreat phase's choices were set by the phase before it (its dislodged units).
        powers: missedPowers(ph, index > 0 ? record.phases[index - 1]!.dislodged : undefined),
        phase: ph.phase,
      }),
      waivedList(unorderedBuilds(ph, before, homes), name),
      ph.dislodged && Object.keys(ph.dislodged).length
        ? h(
            "div",
            {},
            h("h4", {}, "Dislodged"),
            h(
              "ul",
              {},
              Object.entries(ph.dislodged).flatMap(([p, list]) =>
                list.map((d) =>
                  h(
                    "li",
                    {},
                    `${name(p)} ${d.unit}: ${d.retreats.length ? `may retreat to ${d.retreats.join(", ")}` : "no retreat; disbanded"}`,
                  ),
                ),
              ),
            ),
          )
        : null,
    );
  };
  el.tabIndex = -1;
  el.addEventListener("keydown", (e) => {
    const k = (e as KeyboardEvent).key;
    if ((e.target as HTMLElement).tagName === "SELECT") return;
    if (k === "ArrowLeft" && index > 0) {
      index--;
      show();
    } else if (k === "ArrowRight" && record && index < record.phases.length - 1) {
      index++;
      show();
    }
  });
  return {
    title: "History",
    el,
    async show() {
      const before = record?.phases.length ?? 0;
      const [rec, events] = await Promise.all([
        get<GameRecord>(`${ctx.base}/record`),
        get<{ kind: string; at: string; data: Record<string, unknown> }[]>(
          `${ctx.base}/events`,
        ).catch(() => []),
      ]);
      record = rec;
      corrections = new Map();
      for (const e of events) {
        if (e.kind !== "phase_corrected" || typeof e.data.index !== "number") continue;
        const list = corrections.get(e.data.index) ?? [];
        list.push({ at: e.at, reason: String(e.data.reason ?? "") });
        corrections.set(e.data.index, list);
      }
      // Whose home each centre is (the map's), to tell the builds a power left unordered.
      if (Object.keys(homes).length === 0) {
        const map = await geometry(record.variant).catch(() => null);
        homes = Object.fromEntries(
          Object.entries(map?.provinces ?? {}).map(([id, p]) => [id, p.home]),
        );
      }
      if (record.phases.length !== before) index = record.phases.length - 1;
      show();
    },
  };
}

/** The GM: the command sets received for the open turn and every adjudicated turn's. */
export function turnsPanel(ctx: GameCtx): Panel {
  return drawnPanel("Turns", async (el) => {
    const v = ctx.view();
    const open = v.state === "open" || v.state === "paused" ? await receivedSets(ctx) : null;
    const all = await get<{ turns: FamilyTurn[] }>(`${ctx.base}/turns`);
    fill(
      el,
      open,
      h("h3", {}, "Adjudicated turns"),
      all.turns.length === 0
        ? h("p", {}, "None yet.")
        : h(
            "ol",
            { class: "turn-list", reversed: true },
            [...all.turns].reverse().map((t) =>
              h(
                "li",
                { value: String(t.turn) },
                h(
                  "details",
                  {},
                  h(
                    "summary",
                    {},
                    `${t.phase}: ${Object.keys(t.orders).length} command set(s)${t.missed.length ? `, ${t.missed.length} without` : ""}`,
                  ),
                  setList(
                    ctx,
                    Object.entries(t.orders).map(([power, orders]) => ({ power, orders })),
                    t.missed,
                  ),
                ),
              ),
            ),
          ),
      h(
        "p",
        { class: "hint" },
        "Any power's report of any turn: choose the power and the turn above the report.",
      ),
    );
  });
}

interface FamilyTurn {
  turn: number;
  phase: string;
  orders: Record<string, string[]>;
  missed: string[];
}
