import { get, post } from "./api.ts";
import { fill, h, keepFocus, message } from "./dom.ts";
import type { GameCtx, Panel } from "./game.ts";
import type { GameView } from "./types.ts";

/*
 * The game master's console, one for every game: start, pause, resume, resolve now and
 * extend the deadline; what the game's parts add (chaired play, corrections, replacing a
 * player, ending the game, the moderator map); the invitations and the seats. Also the Seats
 * tab of observers of a game whose orders and reports only their powers may read.
 */

export function gmPanel(ctx: GameCtx): Panel {
  const el = h("div", { class: "gm" });
  const base = ctx.base;
  const { gm, words } = ctx.parts;
  /*
   * What the last action said, shown beside the buttons it was pressed among (its group:
   * the phase's buttons, the deadline, the correction, the replacement, the end), which
   * stays when the console is drawn again with the new state of the game.
   */
  let said: { group: string; text: string; kind: "ok" | "error" } | null = null;
  const slots = new Map<string, HTMLElement>();
  const feedback = (group: string) => {
    const slot = h("span", { class: "feedback", "data-feedback": group, "aria-live": "polite" });
    slots.set(group, slot);
    if (said?.group === group) fill(slot, message(said.text, said.kind));
    return slot;
  };
  const say = (group: string, text: string, kind: "ok" | "error") => {
    said = { group, text, kind };
    const slot = slots.get(group);
    if (slot) fill(slot, message(text, kind));
  };
  /** Runs an action and says how it went, beside the buttons of its group. */
  const act = async (what: string, f: () => Promise<unknown>, group = what) => {
    // The console is drawn again: the focus goes back to the button pressed, or to the
    // first one of its group when that one is gone (Pause becomes Resume).
    const pressed = document.activeElement?.textContent ?? "";
    const refocus = () => {
      const buttons = [...el.querySelectorAll("button")];
      const again = buttons.find((b) => b.textContent === pressed);
      const slot = slots.get(group);
      (again ?? slot?.parentElement?.querySelector("button"))?.focus();
    };
    try {
      await f();
      said = { group, text: `${what}: done.`, kind: "ok" };
      await ctx.reload();
      say(group, `${what}: done.`, "ok");
    } catch (e) {
      say(group, `${what}: ${(e as Error).message}`, "error");
    }
    refocus();
  };
  const btn = (label: string, f: () => void, cls = "secondary") =>
    h("button", { type: "button", class: cls, onclick: f }, label);
  const minutes = h("input", { type: "number", value: "60", "aria-label": "minutes", step: "any" });
  const corrPower = h("select", { "aria-label": "power whose orders are corrected" });
  const corrOrders = h("textarea", {
    rows: 3,
    "aria-label": "corrected orders",
    placeholder: "one order per line",
  });
  const corrReason = h("input", { "aria-label": "reason", placeholder: "reason" });
  const seat = h("input", { type: "number", min: "0", value: "0", "aria-label": "seat" });
  const user = h("input", {
    "aria-label": "user name",
    placeholder: "user name (empty: new invitation)",
  });
  const resolveNow = () =>
    gm.resolve === "now"
      ? act("Resolve", () => post(`${base}/chair/resolve`), "phase")
      : // The scheduler adjudicates the turn on its next tick.
        act(
          "Deadline set to now: the turn is adjudicated in a moment",
          () => post(`${base}/gm/deadline`, { at: new Date().toISOString() }),
          "phase",
        );
  // The orders a power gave in the last adjudicated phase, to correct from.
  corrPower.addEventListener("change", async () => {
    if (!corrPower.value || ctx.parts.names !== "variant") return;
    try {
      const phases = await get<{ orders: Record<string, string[]> }[]>(`${base}/phases`);
      corrOrders.value = (phases[phases.length - 1]?.orders[corrPower.value] ?? []).join("\n");
    } catch {
      // nothing to start from: the GM types them
    }
  });
  const download = async (url: string) => {
    try {
      const map = await get<unknown>(url);
      const blob = new Blob([JSON.stringify(map, null, 1)], { type: "application/json" });
      const a = h("a", {
        href: URL.createObjectURL(blob),
        download: `moderator-map-${ctx.view().id}.json`,
      });
      a.click();
      say("map", "The moderator map was downloaded (JSON, the map's own frame).", "ok");
    } catch (e) {
      say("map", `Moderator map: ${(e as Error).message}`, "error");
    }
  };
  // Offered once a phase has been adjudicated: there is nothing to correct before.
  const corrections = (v: GameView) => [
    v.phaseIndex > 0
      ? [
          h("h3", {}, "Correct the last adjudication"),
          h(
            "div",
            { class: "col" },
            powerPicker(ctx, v, corrPower),
            corrOrders,
            corrReason,
            h(
              "div",
              { class: "row wrap" },
              btn(
                "Correct",
                () =>
                  void act("Correct", () =>
                    post(`${base}/gm/correct`, {
                      orders: corrPower.value
                        ? {
                            [corrPower.value]: corrOrders.value
                              .split(/\r?\n/)
                              .filter((l) => l.trim()),
                          }
                        : undefined,
                      reason: corrReason.value,
                    }),
                  ),
              ),
              feedback("Correct"),
            ),
          ),
        ]
      : null,
    h("h3", {}, "Replace a player"),
    h(
      "div",
      { class: "row" },
      seat,
      user,
      btn(
        "Replace",
        () =>
          void act("Replace", () =>
            post(
              `${base}/gm/replace`,
              user.value.trim()
                ? { seat: Number(seat.value), user: user.value.trim() }
                : { seat: Number(seat.value) },
            ),
          ),
      ),
      feedback("Replace"),
    ),
  ];
  const end = () => [
    h("h3", {}, "End the game"),
    h(
      "div",
      { class: "row" },
      btn(
        "Draw (all survivors)",
        () => void act("End", () => post(`${base}/gm/end`, { result: "draw" })),
      ),
      btn("Abandon", () => void act("End", () => post(`${base}/gm/end`, { result: "abandoned" }))),
      feedback("End"),
    ),
  ];
  return {
    title: "Game master",
    el,
    async show() {
      const v = ctx.view();
      const chair = gm.chair
        ? await get<{ chaired: boolean; received?: { power: string; final: boolean }[] }>(
            `${base}/chair`,
          )
        : null;
      const running = v.state === "open" || v.state === "paused";
      keepFocus(el, () =>
        fill(
          el,
          h("h3", {}, words.phase === "turn" ? "Turn" : "Phase"),
          h(
            "div",
            { class: "row wrap" },
            v.state === "forming"
              ? btn("Start now", () => void act("Start", () => post(`${base}/gm/start`), "phase"))
              : null,
            v.state === "open"
              ? btn("Pause", () => void act("Pause", () => post(`${base}/gm/pause`), "phase"))
              : null,
            v.state === "paused"
              ? btn("Resume", () => void act("Resume", () => post(`${base}/gm/resume`), "phase"))
              : null,
            v.state === "open" ? btn("Resolve now", () => void resolveNow(), "") : null,
            chair
              ? btn(
                  chair.chaired ? "Chaired: on (turn off)" : "Chaired: off (turn on)",
                  () =>
                    void act(
                      "Chair mode",
                      () => post(`${base}/chair`, { on: !chair.chaired }),
                      "phase",
                    ),
                )
              : null,
            feedback("phase"),
          ),
          // Only a running game has a deadline to move.
          running
            ? h(
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
                feedback("Extend"),
              )
            : null,
          chair?.received
            ? h(
                "p",
                {},
                `Orders received: ${chair.received.map((r) => `${ctx.name(r.power)}${r.final ? " (final)" : ""}`).join(", ") || "none"}; to order: ${v.toOrder.map(ctx.name).join(", ") || "nobody"}`,
              )
            : null,
          gm.corrections ? corrections(v) : null,
          gm.end ? end() : null,
          gm.moderatorMap
            ? [
                h("h3", {}, "The whole map"),
                h(
                  "p",
                  {},
                  "Only you may read the generated map of every area (players see theirs in their reports, in their own names).",
                ),
                h(
                  "div",
                  { class: "row wrap" },
                  btn(
                    "Download the moderator map (JSON)",
                    () => void download(gm.moderatorMap as string),
                  ),
                  feedback("map"),
                ),
              ]
            : null,
          h("h3", {}, "Invitations"),
          h(
            "ul",
            {},
            (v.invites ?? []).map((i) =>
              h(
                "li",
                {},
                `${i.role}${i.seat !== null ? ` (seat ${i.seat})` : ""}: `,
                h(
                  "a",
                  { href: `/join/${encodeURIComponent(i.code)}` },
                  `${location.origin}/join/${i.code}`,
                ),
              ),
            ),
          ),
          seatList(ctx, v),
          ctx.parts.panels.includes("press")
            ? null
            : h(
                "p",
                { class: "hint" },
                "Press and votes are not part of these games: ME commands are their press.",
              ),
        ),
      );
    },
  };
}

/** The power picker of a correction: every power of the game, or none (adjudicate again). */
function powerPicker(ctx: GameCtx, v: GameView, select: HTMLSelectElement): HTMLSelectElement {
  const chosen = select.value;
  fill(
    select,
    h("option", { value: "" }, "no orders changed: adjudicate again"),
    v.seatList
      .flatMap((s) => s.powers)
      .map((p) => h("option", { value: p, selected: p === chosen }, `${ctx.name(p)}'s orders`)),
  );
  return select;
}

/** Who holds each seat: the seat's number (its powers, where powers are numbers), its name. */
function seatList(ctx: GameCtx, v: GameView): HTMLElement {
  return h(
    "div",
    {},
    h("h3", {}, "Seats"),
    h(
      "ul",
      { class: "seats" },
      v.seatList.map((s) =>
        h(
          "li",
          {},
          `${ctx.parts.names === "seats" ? s.powers.join(", ") : s.index}. ${s.name}: ${s.player ?? "free"}`,
        ),
      ),
    ),
  );
}

/** For observers and visitors of a game whose orders and reports are private: who plays. */
export function seatsPanel(ctx: GameCtx): Panel {
  const el = h("div", {});
  return {
    title: "Seats",
    el,
    async show() {
      fill(
        el,
        seatList(ctx, ctx.view()),
        h(
          "p",
          { class: "hint" },
          `${ctx.parts.words.orders === "commands" ? "Commands" : "Orders"} and reports are seen only by their power's player and the game master.`,
        ),
      );
    },
  };
}
