import { post } from "./api.ts";
import { fill, h, message } from "./dom.ts";

/*
 * What the game master's console does the same in every kind of game (standard and family
 * games): run an action and say how it went, buttons, start/pause/resume by the game's
 * state, and extending the deadline.
 */
export function gmTools(base: string, reload: () => Promise<void>) {
  const out = h("div", { "aria-live": "polite" });
  const act = async (what: string, f: () => Promise<unknown>) => {
    try {
      await f();
      fill(out, message(`${what}: done.`, "ok"));
      await reload();
    } catch (e) {
      fill(out, message(`${what}: ${(e as Error).message}`, "error"));
    }
  };
  const btn = (label: string, f: () => void, cls = "secondary") =>
    h("button", { type: "button", class: cls, onclick: f }, label);
  const minutes = h("input", { type: "number", value: "60", "aria-label": "minutes", step: "any" });
  /** Start (forming), pause (open) or resume (paused). */
  const turnButtons = (state: string) => [
    state === "forming"
      ? btn("Start now", () => void act("Start", () => post(`${base}/gm/start`)))
      : null,
    state === "open" ? btn("Pause", () => void act("Pause", () => post(`${base}/gm/pause`))) : null,
    state === "paused"
      ? btn("Resume", () => void act("Resume", () => post(`${base}/gm/resume`)))
      : null,
  ];
  /** Minutes to add, and the button that adds them to the deadline. */
  const extendRow = () =>
    h(
      "div",
      { class: "row" },
      minutes,
      btn(
        "Extend deadline (minutes)",
        () =>
          void act("Extend", () =>
            post(`${base}/gm/deadline`, { extendMinutes: Number(minutes.value) }),
          ),
      ),
    );
  return { out, act, btn, turnButtons, extendRow };
}
