import { drawnResults } from "../render/layers.ts";
import type { DrawnOrder } from "../render/types.ts";
import { get, post, session } from "./api.ts";
import { Board, geometry } from "./board.ts";
import { chairClock } from "./clock.ts";
import { liveUpdates, powersOf } from "./context.ts";
import { fill, h, message } from "./dom.ts";
import { loginForm } from "./lobby.ts";
import { orderProvince } from "./orderpad.ts";
import { pointsTable } from "./points.ts";
import { enlarge, playFrame, shapeTo } from "./projector.ts";
import type { GameView, OrderOutcome, PhaseRecord } from "./types.ts";

/*
 * The chair's projector view (seed 000): a large map, the phase, the chairs' timer for the
 * speech, diplomacy and order-writing periods (kept by the judge: clock.ts; 30 minutes of
 * diplomacy before the first turn, 15 after; every length configurable), which delegations
 * have sent orders (never what), the victory points when the game view carries them, and the
 * reveal: all orders given shown at once, then each with its result and explanation, step by
 * step (the units nobody ordered, which hold, summed up in one last step), then the next
 * phase (retreats, adjustments) the same way. An illegal or unreadable order is shown as
 * such, never drawn as if it were valid. The page fills the screen (a fullscreen button; no
 * page scroll), the board framed on the part of the map where the game is played and drawn
 * large enough to read from the back of the room (projector.ts).
 */

interface Step {
  power: string;
  index: number;
  outcome: OrderOutcome;
}

/**
 * Whether an order given was not valid (unreadable, or not possible on the board: the
 * result's reason says which); the projector never shows it as if it were.
 */
function invalidKind(o: OrderOutcome): "invalid" | null {
  return o.result === "invalid" && o.text !== null ? "invalid" : null;
}

/** The units nobody ordered (they hold), each power's in one line. */
function unorderedLine(
  results: Record<string, OrderOutcome[]>,
  name: (p: string) => string,
): string | null {
  const parts = Object.entries(results).flatMap(([p, list]) => {
    const units = list
      .filter((r) => r.text === null && r.order)
      .map((r) => r.order!.replace(/ H$/, ""));
    return units.length ? [`${name(p)}: ${units.join(", ")}`] : [];
  });
  return parts.length ? `No orders, so they hold: ${parts.join("; ")}` : null;
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
  document.body.classList.add("projecting");
  // The board framed on the play, shaped to its area, enlarged for the room (projector.ts);
  // drawn again when the window changes size (fullscreen on and off).
  let last: Parameters<Board["show"]> | null = null;
  const draw = async (...args: Parameters<Board["show"]>) => {
    last = args;
    await board.show(...args);
    const svg = board.el.querySelector("svg");
    if (!svg) return;
    const g = await geometry(args[0].variant);
    const area = board.el.getBoundingClientRect();
    board.zoom.attach(svg, shapeTo(playFrame(g), area.width / area.height, g));
    enlarge(svg);
  };
  let resized: ReturnType<typeof setTimeout> | null = null;
  addEventListener("resize", () => {
    if (resized) clearTimeout(resized);
    resized = setTimeout(() => {
      if (last) void draw(...last);
    }, 150);
  });
  const fullscreen = h(
    "button",
    {
      type: "button",
      class: "secondary",
      "data-action": "fullscreen",
      onclick: () =>
        void (
          document.fullscreenElement
            ? document.exitFullscreen()
            : document.documentElement.requestFullscreen()
        ).catch(() => undefined),
    },
    "Fullscreen",
  );
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
  let holdLine: string | null = null;
  let revealing = false;

  // The reveal is the chair's: offered only while the game is chaired (a game played to
  // deadlines is adjudicated by the clock, or by the GM's console).
  const chaired = async () =>
    gm && (await get<{ chaired: boolean }>(`/api/games/${encodeURIComponent(id)}/chair`)).chaired;
  const showLive = async () => {
    revealed = null;
    const chairing = view.state === "open" && (await chaired());
    fill(title, `${view.name}: ${view.phase ?? "not started"}`);
    fill(points, pointsTable(view, name));
    await draw(view.position);
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
    const results = revealed.phase.results;
    let drawn: DrawnOrder[];
    let current: Step | null = null;
    const summary = step > steps.length;
    if (step === 0) {
      // Every order given, as ordered: an illegal one drawn as invalid, an unreadable one
      // (nothing to draw) only listed.
      const given: Record<string, OrderOutcome[]> = {};
      for (const s of steps) {
        given[s.power] = [
          ...(given[s.power] ?? []),
          { ...s.outcome, result: s.outcome.result === "invalid" ? "invalid" : "ordered" },
        ];
      }
      drawn = drawnResults(given).map((d) => ({ ...d, note: undefined }));
    } else if (summary) {
      drawn = drawnResults(results);
    } else {
      current = steps[step - 1]!;
      const partial: Record<string, OrderOutcome[]> = {};
      for (const s of steps.slice(0, step))
        partial[s.power] = [...(partial[s.power] ?? []), s.outcome];
      drawn = drawnResults(partial);
    }
    const at = current?.outcome.order ? orderProvince(current.outcome.order) : null;
    const holders = summary
      ? Object.values(results).flatMap((list) =>
          list.filter((r) => r.text === null && r.order).map((r) => orderProvince(r.order!)),
        )
      : [];
    await draw(revealed.before, drawn, at ? [at] : holders.filter((x): x is string => !!x));
    const total = steps.length + (holdLine ? 1 : 0);
    const last = step === total;
    const bad = current ? invalidKind(current.outcome) : null;
    fill(
      reveal,
      h(
        "h2",
        {},
        step === 0
          ? "All orders"
          : summary
            ? "Units without orders"
            : `Order ${step} of ${steps.length}`,
      ),
      current
        ? h(
            "div",
            { class: `explain ${bad ?? current.outcome.result}` },
            h(
              "div",
              { class: "explain-order" },
              `${name(current.power)}: `,
              h("code", {}, bad ? (current.outcome.text ?? "") : (current.outcome.order ?? "")),
              " ",
              h(
                "span",
                { class: `badge ${bad ? "invalid" : current.outcome.result}` },
                bad ?? current.outcome.result,
              ),
            ),
            bad ? h("p", {}, "Not a valid order, so it is not followed: the unit holds.") : null,
            current.outcome.reason && current.outcome.reason !== current.outcome.explanation
              ? h("p", {}, current.outcome.reason)
              : null,
            current.outcome.explanation
              ? h("p", { class: "explanation" }, current.outcome.explanation)
              : null,
          )
        : summary
          ? h("p", { class: "explain holds" }, holdLine)
          : h(
              "div",
              { class: "all-orders" },
              Object.entries(results).map(([p, list]) => {
                const given = list.filter((r) => r.text !== null);
                if (given.length === 0) return null;
                return h(
                  "section",
                  {},
                  h("h3", {}, name(p)),
                  h(
                    "ul",
                    {},
                    given.map((r) => {
                      const kind = invalidKind(r);
                      return h(
                        "li",
                        { class: kind ? "invalid" : "" },
                        h("code", kind ? { class: "struck" } : {}, r.text ?? ""),
                        kind ? h("span", { class: "badge invalid" }, kind) : null,
                        kind && r.reason ? h("small", { class: "reason" }, ` ${r.reason}`) : null,
                      );
                    }),
                  ),
                );
              }),
              holdLine ? h("p", { class: "holds" }, holdLine) : null,
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
            { type: "button", class: "link", onclick: () => go(total) },
            "Skip to the end",
          ),
      h("p", { class: "hint" }, "Space or → steps forward, ← back, End to the last result."),
    );
  };
  const go = (d: number) => {
    step = Math.max(0, Math.min(steps.length + (holdLine ? 1 : 0), step + d));
    void showStep();
  };
  const doReveal = async () => {
    revealing = true;
    try {
      const before = view.position;
      const r = await post<{ index: number; phase: PhaseRecord }>(
        `/api/games/${encodeURIComponent(id)}/chair/resolve`,
      );
      view = await get<GameView>(`/api/games/${encodeURIComponent(id)}`);
      revealed = { phase: r.phase, before };
      // The orders given, step by step; the units nobody ordered in one line at the end.
      steps = Object.entries(r.phase.results).flatMap(([power, list]) =>
        list.flatMap((outcome, index) =>
          outcome.text === null ? [] : [{ power, index, outcome }],
        ),
      );
      holdLine = unorderedLine(r.phase.results, name);
      step = 0;
      fill(title, `${view.name}: ${r.phase.phase}, revealed`);
      fill(status);
      fill(out);
      await showStep();
    } catch (e) {
      fill(out, message((e as Error).message, "error"));
    } finally {
      revealing = false;
    }
  };
  document.addEventListener("keydown", (e) => {
    if (!revealed) return;
    const t = e.target as HTMLElement;
    if (t.tagName === "INPUT" || t.tagName === "TEXTAREA") return;
    const total = steps.length + (holdLine ? 1 : 0);
    if (e.key === "ArrowRight" || e.key === " ") {
      e.preventDefault();
      if (step < total) go(1);
    } else if (e.key === "ArrowLeft") go(-1);
    else if (e.key === "End") go(total);
  });
  fill(
    app,
    h(
      "div",
      { class: "projector" },
      h(
        "div",
        { class: "projector-map" },
        h("div", { class: "projector-head" }, title, fullscreen),
        board.el,
      ),
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
    // The reveal the chair started owns the page until the chair moves to the next phase.
    if (revealed || revealing) return;
    const fresh = await get<GameView>(`/api/games/${encodeURIComponent(id)}`);
    if (revealed || revealing) return;
    view = fresh;
    await showLive();
  });
  setInterval(() => {
    if (!revealed && !revealing && gm) void refreshStatus();
  }, 3000);
}
