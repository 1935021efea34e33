import { get, post } from "./api.ts";
import type { GameCtx, Panel } from "./context.ts";
import { type Child, fill, h, message, region, setText } from "./dom.ts";
import type { HeldItem } from "./talk.ts";
import { type GameView, seatWho } from "./types.ts";

/*
 * The game master's console, one for every game: start, pause, resume, resolve now and
 * extend the deadline; what the game's parts add (chaired play, corrections, replacing a
 * player, ending the game, the moderator map); the invitations and the seats. Also the Seats
 * tab of observers of a game whose orders and reports only their powers may read.
 */

export function gmPanel(ctx: GameCtx): Panel {
  const base = ctx.base;
  const { gm, words } = ctx.parts;
  /*
   * The console is built once and kept: a live event (or an action's reload) only shows,
   * hides or rewrites the parts whose data changed, so a button under the pointer, the focus
   * and what is being typed are never replaced while the game moves on.
   */
  const slots = new Map<string, HTMLElement>();
  /** Where the last action of a group is answered, beside the buttons pressed among. */
  const feedback = (group: string) => {
    const slot = h("span", { class: "feedback", "data-feedback": group, "aria-live": "polite" });
    slots.set(group, slot);
    return slot;
  };
  const say = (group: string, text: string, kind: "ok" | "error") => {
    const slot = slots.get(group);
    if (slot) fill(slot, message(text, kind));
  };
  /** Runs an action, shows the game as it now stands and says how it went. */
  const act = async (what: string, f: () => Promise<unknown>, group = what) => {
    const pressed = document.activeElement;
    try {
      await f();
      await ctx.reload();
      say(group, `${what}: done.`, "ok");
    } catch (e) {
      say(group, `${what}: ${(e as Error).message}`, "error");
    }
    // The button pressed keeps the focus; when the action hid it (Pause becomes Resume), the
    // focus goes to the first button of its row still shown.
    if (pressed instanceof HTMLElement && el.contains(pressed) && pressed.hidden) {
      const row = slots.get(group)?.parentElement;
      [...(row?.querySelectorAll("button") ?? [])].find((b) => !b.hidden)?.focus();
    }
  };
  const btn = (label: string, f: () => void, cls = "secondary") =>
    h("button", { type: "button", class: cls, onclick: f }, label);

  // The phase's buttons, each shown while the game's state offers it.
  let chaired = false;
  const start = btn("Start now", () => void act("Start", () => post(`${base}/gm/start`), "phase"));
  const pause = btn("Pause", () => void act("Pause", () => post(`${base}/gm/pause`), "phase"));
  const resume = btn("Resume", () => void act("Resume", () => post(`${base}/gm/resume`), "phase"));
  const resolveNow = btn(
    "Resolve now",
    () =>
      void (gm.resolve === "now"
        ? act("Resolve", () => post(`${base}/chair/resolve`), "phase")
        : // The scheduler adjudicates the turn on its next tick.
          act(
            "Deadline set to now: the turn is adjudicated in a moment",
            () => post(`${base}/gm/deadline`, { at: new Date().toISOString() }),
            "phase",
          )),
    "",
  );
  const chair = gm.chair
    ? btn("", () => void act("Chair mode", () => post(`${base}/chair`, { on: !chaired }), "phase"))
    : null;
  const received = h("p", { hidden: true });

  // Only a running game has a deadline to move: by a share of the phase's own length (a
  // quarter, a half, a whole phase), or by the minutes typed (a quarter of the phase at first).
  const extendBy = (n: number) =>
    void act("Extend", () => post(`${base}/gm/deadline`, { extendMinutes: n }));
  const minutes = h("input", { type: "number", value: "60", "aria-label": "minutes", step: "any" });
  const shares = [
    { label: "¼", part: 0.25 },
    { label: "½", part: 0.5 },
    { label: "a whole", part: 1 },
  ].map((x) => {
    const b = btn("", () => extendBy(Number(b.dataset.minutes)));
    b.dataset.share = String(x.part);
    return { ...x, b };
  });
  let extendFor: string | null = null;
  const extendRow = h(
    "div",
    { class: "row wrap" },
    shares.map((x) => x.b),
    minutes,
    btn("Extend deadline (minutes)", () => extendBy(Number(minutes.value))),
    feedback("Extend"),
  );
  const chairedNote = h(
    "p",
    { class: "hint", hidden: true },
    "Chaired: the phase has no deadline, so there is nothing to pause or extend. The chair resolves it (Reveal all orders on the projector view, or Resolve now); turn chairing off to give it a deadline again.",
  );
  const extend = h("div", {}, extendRow);

  // Offered once a phase has been adjudicated: there is nothing to correct before.
  const corrPower = h("select", { "aria-label": "power whose orders are corrected" });
  const corrOrders = h("textarea", {
    rows: 3,
    "aria-label": "corrected orders",
    placeholder: "one order per line",
  });
  const corrReason = h("input", { "aria-label": "reason", placeholder: "reason" });
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
  const picker = powerPicker(ctx, corrPower);
  let seatsDrawn: string | null = null;
  const seatPicker = (v: GameView) => {
    const key = JSON.stringify(v.seatList.map((x) => [x.index, x.name, seatWho(x)]));
    if (key === seatsDrawn) return;
    seatsDrawn = key;
    const chosen = seat.value;
    fill(
      seat,
      v.seatList.map((x) =>
        h(
          "option",
          { value: String(x.index), selected: String(x.index) === chosen },
          `${x.name}: ${seatWho(x)}`,
        ),
      ),
    );
  };
  const correction = h(
    "div",
    { hidden: true },
    h("h3", {}, "Correct the last adjudication"),
    h(
      "div",
      { class: "col" },
      corrPower,
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
                  ? { [corrPower.value]: corrOrders.value.split(/\r?\n/).filter((l) => l.trim()) }
                  : undefined,
                reason: corrReason.value,
              }),
            ),
        ),
        feedback("Correct"),
      ),
    ),
  );
  // The seat tools' fields: the seat (for a new player or a bot), the new player, the bot.
  const seat = h("select", { id: "gm-replace-seat" });
  const user = h("input", {
    id: "gm-replace-user",
    "aria-label": "user name",
    placeholder: "empty: open the seat with a new invitation",
  });
  const botId = h("input", {
    id: "gm-bot-id",
    "aria-label": "built-in player",
    placeholder: "default (the strongest)",
  });
  const replace = tool(
    "Replace a player",
    "Gives a seat to another user at once (their user name), or opens it with a new invitation for one seat (name left empty). The player who held it becomes an observer; both are told.",
    labelled("Seat", seat),
    labelled("New player (user name)", user),
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
  );
  // Built-in players (src/judge/bots.ts): a seat nobody holds, chosen in the seat picker above.
  const botSeat = tool(
    "Built-in players",
    "A built-in player plays the seat chosen above (one no player holds): it sends its orders as each phase opens, until a player takes the seat.",
    labelled("Bot", botId),
    btn(
      "Seat a bot",
      () =>
        void act("Bot", () =>
          post(`${base}/gm/bot`, {
            seat: Number(seat.value),
            bot: botId.value.trim() || "default",
          }),
        ),
    ),
    btn(
      "Take the bot off",
      () => void act("Bot", () => post(`${base}/gm/bot`, { seat: Number(seat.value), bot: "off" })),
    ),
    feedback("Bot"),
  );
  const end = [
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
  // Press held for review (the option press.review, seed 002 X(1)): each with its Approve,
  // and Refuse with the reason its author alone reads.
  const heldList = region("ul", { class: "held-press" });
  const heldSection = h(
    "div",
    { hidden: true },
    h("h3", {}, "Press awaiting your review"),
    heldList.el,
    h("div", { class: "row" }, feedback("Press")),
  );
  const drawHeld = (items: readonly HeldItem[]) =>
    heldList.update(JSON.stringify(items), () =>
      items.length === 0
        ? h("li", { class: "hint" }, "No press is waiting.")
        : items.map((m) => {
            const reason = h("input", {
              "aria-label": `reason for refusing press ${m.n}`,
              placeholder: "reason (its author reads it)",
            });
            return h(
              "li",
              { "data-held": String(m.n) },
              h(
                "div",
                {},
                `${m.n}. ${m.phase} · ${m.fromName}${m.kind === "grey" ? " (grey)" : ""} → ${
                  m.to === "all" ? "everybody" : m.to.map(ctx.name).join(", ")
                }`,
              ),
              h("div", { class: "press-body" }, m.body),
              h(
                "div",
                { class: "row wrap" },
                btn(
                  `Approve press ${m.n}`,
                  () =>
                    void act(
                      `Press ${m.n} published`,
                      () => post(`${base}/gm/approve-press`, { held: m.n }),
                      "Press",
                    ),
                ),
                reason,
                btn(
                  `Refuse press ${m.n}`,
                  () =>
                    void act(
                      `Press ${m.n} refused`,
                      () => post(`${base}/gm/refuse-press`, { held: m.n, reason: reason.value }),
                      "Press",
                    ),
                ),
              ),
            );
          }),
    );
  const moderatorMap = gm.moderatorMap;
  const invites = region("ul");
  const seats = seatList(ctx);
  const el = h(
    "div",
    { class: "gm" },
    h("h3", {}, words.phase === "turn" ? "Turn" : "Phase"),
    h("div", { class: "row wrap" }, start, pause, resume, resolveNow, chair, feedback("phase")),
    chairedNote,
    extend,
    received,
    heldSection,
    gm.corrections ? [correction, replace] : null,
    ctx.parts.names === "variant" ? botSeat : null,
    gm.end ? end : null,
    moderatorMap
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
            btn("Download the moderator map (JSON)", () => void download(moderatorMap)),
            feedback("map"),
          ),
        ]
      : null,
    h("h3", {}, "Invitations"),
    invites.el,
    seats.el,
    ctx.parts.panels.includes("press")
      ? null
      : h(
          "p",
          { class: "hint" },
          "Press and votes are not part of these games: ME commands are their press.",
        ),
  );
  return {
    title: "Game master",
    el,
    async show() {
      const state = gm.chair
        ? await get<{ chaired: boolean; received?: { power: string; final: boolean }[] }>(
            `${base}/chair`,
          )
        : null;
      const v = ctx.view();
      if (chair && state) {
        chaired = state.chaired;
        setText(chair, chaired ? "Chaired: on (turn off)" : "Chaired: off (turn on)");
      }
      // A chaired phase has no deadline (the chair resolves it): no clock to pause or move.
      const clocked = !(chair && chaired);
      start.hidden = v.state !== "forming";
      pause.hidden = v.state !== "open" || !clocked;
      resume.hidden = v.state !== "paused";
      resolveNow.hidden = v.state !== "open";
      chairedNote.hidden = clocked || v.state !== "open";
      extend.hidden = (v.state !== "open" && v.state !== "paused") || !clocked;
      const length = phaseMinutes(v);
      const key = `${v.phase}:${length}`;
      if (key !== extendFor) {
        extendFor = key;
        for (const x of shares) {
          const n = Math.max(1, Math.round(length * x.part));
          x.b.dataset.minutes = String(n);
          setText(x.b, `+${x.label} phase (${duration(n)})`);
        }
        minutes.value = String(Math.max(1, Math.round(length / 4)));
      }
      received.hidden = !state?.received;
      if (state?.received) {
        const sent = new Set(state.received.map((r) => r.power));
        setText(
          received,
          `Orders received: ${state.received.map((r) => `${ctx.name(r.power)}${r.final ? " (final)" : ""}`).join(", ") || "none"}; still to order: ${
            v.toOrder
              .filter((p) => !sent.has(p))
              .map(ctx.name)
              .join(", ") || "nobody"
          }`,
        );
      }
      if (ctx.parts.panels.includes("press")) {
        const all = await get<HeldItem[]>(`${base}/press/held`);
        const waiting = all.filter((m) => m.status === "held");
        heldSection.hidden = waiting.length === 0 && !v.options.press?.review;
        drawHeld(waiting);
      }
      seatPicker(v);
      correction.hidden = v.phaseIndex === 0;
      picker(v);
      invites.update(JSON.stringify(v.invites ?? []), () =>
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
      );
      seats.update(v);
    },
  };
}

/** A GM tool: its heading, a hint of what it does, and one row of its fields and buttons. */
function tool(title: string, hint: string, ...row: Child[]): HTMLElement[] {
  return [
    h("h3", {}, title),
    h("p", { class: "hint" }, hint),
    h("div", { class: "row wrap" }, ...row),
  ];
}

/** A field with its label before it (the label's `for` is the field's id). */
const labelled = (label: string, field: HTMLElement): Child => [
  h("label", { for: field.id }, label),
  field,
];

/** The open phase's length in minutes, as the game's options set it for its kind. */
export function phaseMinutes(v: Pick<GameView, "phase" | "options">): number {
  const d = v.options.deadlines;
  const unit = d.unit === "minutes" ? 1 : d.unit === "hours" ? 60 : 1440;
  const type = /^[A-Z]\d+([MRA])$/.exec(v.phase ?? "")?.[1];
  const n = type === "R" ? d.retreats : type === "A" ? d.adjustments : d.movement;
  return n * unit;
}

/** Minutes as a GM reads them: `6 min`, `1 h 30 min`, `2 d 6 h`. */
export function duration(min: number): string {
  if (min < 60) return `${min} min`;
  if (min < 1440) {
    const m = min % 60;
    return `${Math.floor(min / 60)} h${m ? ` ${m} min` : ""}`;
  }
  const hrs = Math.round((min % 1440) / 60);
  return `${Math.floor(min / 1440)} d${hrs ? ` ${hrs} h` : ""}`;
}

/**
 * The power picker of a correction: every power of the game, or none (adjudicate again). Its
 * options are written again only when the game's powers change, keeping the one chosen.
 */
function powerPicker(ctx: GameCtx, select: HTMLSelectElement): (v: GameView) => void {
  let drawn: string | null = null;
  return (v) => {
    const powers = v.seatList.flatMap((s) => s.powers);
    const key = JSON.stringify(powers.map((p) => [p, ctx.name(p)]));
    if (key === drawn) return;
    drawn = key;
    const chosen = select.value;
    fill(
      select,
      h("option", { value: "" }, "no orders changed: adjudicate again"),
      powers.map((p) =>
        h("option", { value: p, selected: p === chosen }, `${ctx.name(p)}'s orders`),
      ),
    );
  };
}

/**
 * Who holds each seat: the seat's number (its powers, where powers are numbers), its name;
 * drawn again only when a seat changes hands.
 */
function seatList(ctx: GameCtx): { el: HTMLElement; update(v: GameView): void } {
  const list = region("ul", { class: "seats" });
  return {
    el: h("div", {}, h("h3", {}, "Seats"), list.el),
    update: (v) => {
      const lines = v.seatList.map(
        (s) =>
          `${ctx.parts.names === "seats" ? s.powers.join(", ") : s.index}. ${s.name}: ${seatWho(s)}`,
      );
      list.update(JSON.stringify(lines), () => lines.map((l) => h("li", {}, l)));
    },
  };
}

/** For observers and visitors of a game whose orders and reports are private: who plays. */
export function seatsPanel(ctx: GameCtx): Panel {
  const seats = seatList(ctx);
  const el = h(
    "div",
    {},
    seats.el,
    h(
      "p",
      { class: "hint" },
      `${ctx.parts.words.orders === "commands" ? "Commands" : "Orders"} and reports are seen only by their power's player and the game master.`,
    ),
  );
  return {
    title: "Seats",
    el,
    async show() {
      seats.update(ctx.view());
    },
  };
}
