import { drawnResults } from "../render/layers.ts";
import type { BoardPosition } from "../render/types.ts";
import { get, post } from "./api.ts";
import { Board, drawnOrders } from "./board.ts";
import { powersOf } from "./context.ts";
import { fill, h, message } from "./dom.ts";
import { outcomeList } from "./history.ts";
import { OrderPad } from "./orderpad.ts";
import { splitByPower, unitOwner } from "./split.ts";
import type { GameRecord, LegalView, LineDiag, ResultJson } from "./types.ts";

/*
 * The sandbox: any position (a variant's start, a phase of a game forked, or set up by hand,
 * by clicking units onto the map or editing the position JSON), orders for every power by
 * clicking or typing, and the result with its explanations. Nothing is stored: it calls
 * POST /api/sandbox/legal and /api/sandbox/adjudicate.
 */

export async function sandboxPage(app: HTMLElement): Promise<void> {
  const q = new URLSearchParams(location.search);
  // The sandbox plays the standard rules: game families (Global Diplomacy, Age of Discovery)
  // are a different game with a position of their own, so they are not offered here.
  const variants = (await get<{ id: string; family?: string }[]>("/api/variants")).filter(
    (v) => v.family === undefined,
  );
  let variant = q.get("variant") ?? "classical";
  let position: BoardPosition;
  let text = "";
  let origin = "";
  /** The forked game's rule options (the sandbox's default otherwise: datc). */
  let rules: unknown;
  const gameId = q.get("game");
  if (gameId) {
    const rec = await get<GameRecord>(`/api/games/${encodeURIComponent(gameId)}/record`);
    const i = Math.max(0, Math.min(rec.phases.length - 1, Number(q.get("phase") ?? 0)));
    const ph = rec.phases[i];
    position = i === 0 || !ph ? rec.start : rec.phases[i - 1]!.position;
    variant = rec.variant;
    rules = rec.rules;
    origin = `Forked from game ${gameId}, phase ${ph?.phase ?? position.phase}.`;
    if (ph)
      text = Object.entries(ph.orders)
        .map(([p, l]) => [`${p}:`, ...l].join("\n"))
        .join("\n");
  } else {
    position = (
      await get<{ position: BoardPosition }>(`/api/variants/${encodeURIComponent(variant)}/start`)
    ).position;
  }
  let powers = await powersOf(variant);
  let setup = false;
  const board = new Board("map", (p) => (setup ? place(p) : pad.clickProvince(p)));
  const posText = h("textarea", {
    rows: 8,
    class: "json",
    spellcheck: "false",
    "aria-label": "position JSON",
  });
  const out = h("div", { "aria-live": "polite" });
  const result = h("section", { class: "result", "aria-live": "polite" });
  const variantSel = h(
    "select",
    { "aria-label": "variant" },
    variants.map((v) => h("option", { value: v.id, selected: v.id === variant }, v.id)),
  );
  const setupPower = h("select", { "aria-label": "power to place" });
  const setupType = h(
    "select",
    { "aria-label": "unit type" },
    h("option", { value: "A" }, "Army"),
    h("option", { value: "F" }, "Fleet"),
  );
  const setupToggle = h(
    "button",
    { type: "button", class: "secondary", "aria-pressed": "false" },
    "Set up units by clicking",
  );
  const pad = new OrderPad({
    headers: true,
    powerName: (p) => powers.find((x) => x.id === p)?.name ?? p,
    check: async (t) => check(t),
    onOrders: (orders) => void board.show(position, drawnOrders(orders)),
    onSelect: (sel, targets) => void board.show(position, drawnOrders(pad.orders), sel, targets),
  });

  /** The typed orders read by the engine: each line's order as understood, or why not. */
  async function check(t: string): Promise<LineDiag[]> {
    const split = splitByPower(t, powers, (l) => unitOwner(position, l));
    const r = await post<ResultJson>("/api/sandbox/adjudicate", {
      ...position,
      ...(rules !== undefined ? { rules } : {}),
      orders: split.orders,
    });
    for (const [power, list] of Object.entries(r.orders)) {
      const given = list.filter((o) => o.text !== null);
      given.forEach((o, k) => {
        const line = split.where[power]?.[k];
        const d = split.lines.find((l) => l.line === line);
        if (!d) return;
        d.ok = o.result !== "invalid" && o.order !== null;
        if (o.order) d.order = o.order;
        if (o.result === "invalid") d.message = o.reason ?? "invalid";
      });
    }
    return split.lines;
  }

  const showPosition = async () => {
    posText.value = JSON.stringify(position, null, 1);
    fill(
      setupPower,
      powers.map((p) => h("option", { value: p.id }, p.name)),
    );
    try {
      pad.setLegal(
        await post<LegalView>("/api/sandbox/legal", {
          ...position,
          ...(rules !== undefined ? { rules } : {}),
        }),
      );
      fill(out);
    } catch (e) {
      pad.setLegal(null);
      fill(out, message((e as Error).message, "error"));
    }
    await board.show(position, drawnOrders(pad.orders));
  };

  function place(p: string): void {
    const units = { ...position.units };
    let removed = false;
    for (const [pw, list] of Object.entries(units)) {
      const left = list.filter((u) => u.split(" ")[1]!.split("/")[0] !== p);
      if (left.length !== list.length) removed = true;
      units[pw] = left;
    }
    if (!removed)
      units[setupPower.value] = [...(units[setupPower.value] ?? []), `${setupType.value} ${p}`];
    position = { ...position, units };
    void showPosition();
  }

  setupToggle.addEventListener("click", () => {
    setup = !setup;
    setupToggle.setAttribute("aria-pressed", String(setup));
    setupToggle.textContent = setup
      ? "Setting up: click a province to add or remove a unit"
      : "Set up units by clicking";
  });
  variantSel.addEventListener("change", async () => {
    variant = variantSel.value;
    powers = await powersOf(variant);
    position = (
      await get<{ position: BoardPosition }>(`/api/variants/${encodeURIComponent(variant)}/start`)
    ).position;
    pad.setText("");
    fill(result);
    await showPosition();
  });
  const applyJson = async () => {
    try {
      position = JSON.parse(posText.value) as BoardPosition;
      await showPosition();
      await pad.runCheck();
    } catch (e) {
      fill(out, message(`The position is not valid JSON: ${(e as Error).message}`, "error"));
    }
  };
  const run = async () => {
    try {
      const split = splitByPower(pad.text, powers, (l) => unitOwner(position, l));
      const r = await post<ResultJson>("/api/sandbox/adjudicate", {
        ...position,
        ...(rules !== undefined ? { rules } : {}),
        orders: split.orders,
      });
      const name = (p: string) => powers.find((x) => x.id === p)?.name ?? p;
      await board.show(position, drawnResults(r.orders));
      fill(
        result,
        h("h2", {}, `${r.phase}: result`),
        outcomeList(r.orders, name),
        h("p", {}, `Next phase: ${r.next.phase}${r.winner ? `; ${name(r.winner)} wins` : ""}.`),
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            onclick: async () => {
              position = r.next;
              pad.setText("");
              fill(result);
              await showPosition();
            },
          },
          "Continue from the result",
        ),
      );
    } catch (e) {
      fill(result, message((e as Error).message, "error"));
    }
  };
  fill(
    app,
    h("h1", {}, "Sandbox"),
    h("p", { class: "meta" }, origin || "Any position, any orders; nothing is stored."),
    h(
      "div",
      { class: "game" },
      board.el,
      h(
        "aside",
        {},
        board.legend,
        h("div", { class: "row wrap" }, variantSel, setupToggle, setupPower, setupType),
        h(
          "details",
          {},
          h("summary", {}, "Position (JSON)"),
          posText,
          h(
            "button",
            { type: "button", class: "secondary", onclick: () => void applyJson() },
            "Use this position",
          ),
        ),
        out,
        pad.el,
        h(
          "div",
          { class: "row" },
          h(
            "button",
            { type: "button", onclick: () => void run(), "data-action": "adjudicate" },
            "Adjudicate",
          ),
        ),
        result,
      ),
    ),
  );
  await showPosition();
  if (text) pad.setText(text);
}
