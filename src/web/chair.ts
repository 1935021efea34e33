import type { DrawnOrder } from "../render/types.ts";
import { get, post, session } from "./api.ts";
import { Board, drawnOrders, drawnResults } from "./board.ts";
import { chairClock } from "./clock.ts";
import { fill, h, message } from "./dom.ts";
import { liveUpdates, powersOf } from "./game.ts";
import { loginForm } from "./lobby.ts";
import { orderProvince } from "./orderpad.ts";
import { pointsTable } from "./points.ts";
import type { GameView, OrderOutcome, PhaseRecord } from "./types.ts";

/*
 * The chair's projector view (seed 000): a large map, the phase, the chairs' timer for the
 * speech, diplomacy and order-writing periods (kept by the judge: clock.ts; 30 minutes of
 * diplomacy before the first turn, 15 after; every length configurable), which delegations have sent orders (never
 * what), the victory points when the game view carries them, and the reveal: all orders
 * shown at once, then each result with its explanation, step by step, then the next phase
 * (retreats, adjustments) the same way.
 */

interface Step {
  power: string;
  index: number;
  outcome: OrderOutcome;
}

export async function chairPage(app: HTMLElement, id: string): Promise<void> {
  if (!session.token) {
    fill(
      app,
      h("h1", {}, "The chair's view"),
      loginForm(() => location.reload()),
    );
    return;
  }
  let view = await get<GameView>(`/api/games/${encodeURIComponent(id)}`);
  const powers = await powersOf(view.variant);
  const name = (p: string) => powers.find((x) => x.id === p)?.name ?? p;
  const gm = view.you?.role === "gm";
  const board = new Board("map big");
  // The chairs' timer, kept by the judge (clock.ts): the controls are the GM's.
  const clock = chairClock(id, { big: true, chair: gm });
  const title = h("h1", { class: "chair-phase" });
  const status = h("section", { class: "received", "aria-live": "polite" });
  const reveal = h("section", { class: "reveal", "aria-live": "polite" });
  const points = h("div", {});
  const out = h("div", { "aria-live": "polite" });
  let revealed: { phase: PhaseRecord; before: GameView["position"] } | null = null;
  let step = 0;
  let steps: Step[] = [];

  // The reveal is the chair's: offered only while the game is chaired (a game played to
  // deadlines is adjudicated by the clock, or by the GM's console).
  const chaired = async () =>
    gm && (await get<{ chaired: boolean }>(`/api/games/${encodeURIComponent(id)}/chair`)).chaired;
  const showLive = async () => {
    revealed = null;
    const chairing = view.state === "open" && (await chaired());
    fill(title, `${view.name}: ${view.phase ?? "not started"}`);
    fill(points, pointsTable(view, name));
    await board.show(view.position);
    fill(
      reveal,
      chairing
        ? h(
            "button",
            {
              type: "button",
              class: "big",
              "data-action": "reveal",
              onclick: () => void doReveal(),
            },
            "Reveal all orders",
          )
        : h(
            "p",
            {},
            view.state === "done"
              ? "The game is over."
              : view.state === "forming"
                ? "Waiting for the delegations to take their seats."
                : gm && view.state === "open"
                  ? "This game is not chaired: its phases are resolved at their deadlines. Turn chaired play on in the game master's console to reveal orders here."
                  : "",
          ),
    );
    await refreshStatus();
  };
  const refreshStatus = async () => {
    if (view.state !== "open") {
      fill(status);
      return;
    }
    let received: { power: string; final: boolean }[] = [];
    if (gm) {
      const c = await get<{ received?: { power: string; final: boolean }[] }>(
        `/api/games/${encodeURIComponent(id)}/chair`,
      );
      received = c.received ?? [];
    }
    fill(
      status,
      h("h2", {}, "Orders received"),
      h(
        "ul",
        { class: "delegations" },
        view.toOrder.map((p) => {
          const r = received.find((x) => x.power === p);
          return h(
            "li",
            { class: r ? "in" : "" },
            h("span", { class: "mark" }, r ? "✓" : "…"),
            ` ${name(p)}`,
            r?.final ? " (final)" : "",
          );
        }),
      ),
    );
  };

  const showStep = async () => {
    if (!revealed) return;
    let drawn: DrawnOrder[];
    let current: Step | null = null;
    if (step === 0) {
      drawn = drawnOrders(
        steps
          .filter((s) => s.outcome.order)
          .map((s) => ({ power: s.power, text: s.outcome.order! })),
      );
    } else {
      current = steps[step - 1]!;
      const partial: Record<string, OrderOutcome[]> = {};
      for (const s of steps.slice(0, step))
        partial[s.power] = [...(partial[s.power] ?? []), s.outcome];
      drawn = drawnResults(partial);
    }
    const at = current?.outcome.order ? orderProvince(current.outcome.order) : null;
    await board.show(revealed.before, drawn, at ? [at] : []);
    const last = step === steps.length;
    fill(
      reveal,
      h("h2", {}, step === 0 ? "All orders" : `Result ${step} of ${steps.length}`),
      current
        ? h(
            "div",
            { class: `explain ${current.outcome.result}` },
            h(
              "div",
              { class: "explain-order" },
              `${name(current.power)}: `,
              h("code", {}, current.outcome.order ?? current.outcome.text ?? "(no order)"),
              " ",
              h("span", { class: `badge ${current.outcome.result}` }, current.outcome.result),
            ),
            current.outcome.reason && current.outcome.reason !== current.outcome.explanation
              ? h("p", {}, current.outcome.reason)
              : null,
            current.outcome.explanation
              ? h("p", { class: "explanation" }, current.outcome.explanation)
              : null,
          )
        : h(
            "div",
            { class: "all-orders" },
            Object.entries(revealed.phase.results).map(([p, list]) =>
              h(
                "section",
                {},
                h("h3", {}, name(p)),
                h(
                  "ul",
                  {},
                  list.map((r) =>
                    h(
                      "li",
                      {},
                      h("code", {}, r.order ?? r.text ?? ""),
                      r.text === null ? h("small", {}, " (no order: holds)") : null,
                    ),
                  ),
                ),
              ),
            ),
          ),
      h(
        "div",
        { class: "row" },
        h(
          "button",
          { type: "button", class: "secondary", disabled: step === 0, onclick: () => go(-1) },
          "◀ Back",
        ),
        last
          ? h(
              "button",
              { type: "button", "data-action": "next-phase", onclick: () => void showLive() },
              `Show the next phase (${view.phase ?? "over"})`,
            )
          : h(
              "button",
              { type: "button", "data-action": "next", onclick: () => go(1) },
              step === 0 ? "Resolve ▶" : "Next ▶",
            ),
      ),
      last
        ? null
        : h(
            "button",
            { type: "button", class: "link", onclick: () => go(steps.length) },
            "Skip to the end",
          ),
      h("p", { class: "hint" }, "Space or → steps forward, ← back, End to the last result."),
    );
  };
  const go = (d: number) => {
    step = Math.max(0, Math.min(steps.length, step + d));
    void showStep();
  };
  const doReveal = async () => {
    try {
      const before = view.position;
      const r = await post<{ index: number; phase: PhaseRecord }>(
        `/api/games/${encodeURIComponent(id)}/chair/resolve`,
      );
      view = await get<GameView>(`/api/games/${encodeURIComponent(id)}`);
      revealed = { phase: r.phase, before };
      steps = Object.entries(r.phase.results).flatMap(([power, list]) =>
        list.map((outcome, index) => ({ power, index, outcome })),
      );
      step = 0;
      fill(title, `${view.name}: ${r.phase.phase}, revealed`);
      fill(status);
      fill(out);
      await showStep();
    } catch (e) {
      fill(out, message((e as Error).message, "error"));
    }
  };
  document.addEventListener("keydown", (e) => {
    if (!revealed) return;
    const t = e.target as HTMLElement;
    if (t.tagName === "INPUT" || t.tagName === "TEXTAREA") return;
    if (e.key === "ArrowRight" || e.key === " ") {
      e.preventDefault();
      if (step < steps.length) go(1);
    } else if (e.key === "ArrowLeft") go(-1);
    else if (e.key === "End") go(steps.length);
  });
  fill(
    app,
    h(
      "div",
      { class: "projector" },
      h("div", { class: "projector-map" }, title, board.el),
      h(
        "aside",
        {},
        board.legend,
        h(
          "section",
          { class: "timers", "aria-label": "timers" },
          clock.notices,
          clock.el,
          clock.controls,
        ),
        status,
        reveal,
        out,
        points,
        h("p", {}, h("a", { href: `/game/${encodeURIComponent(id)}` }, "Game page")),
      ),
    ),
  );
  await showLive();
  liveUpdates(id, async () => {
    if (revealed) return;
    view = await get<GameView>(`/api/games/${encodeURIComponent(id)}`);
    await showLive();
  });
  setInterval(() => {
    if (!revealed && gm) void refreshStatus();
  }, 3000);
}
