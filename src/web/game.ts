import type { BoardPosition } from "../render/types.ts";
import { get, post, session } from "./api.ts";
import { Board, drawnOrders, drawnResults } from "./board.ts";
import { append, countdown, fill, h, message, tabbed } from "./dom.ts";
import { familyPage, isFamilyView } from "./family.ts";
import { gmTools } from "./gmtools.ts";
import { loginForm } from "./lobby.ts";
import { OrderPad } from "./orderpad.ts";
import { pointsTable } from "./points.ts";
import type { GameRecord, GameView, LegalView, LineDiag, PhaseRecord } from "./types.ts";

/*
 * The game page: the board, and tabs for orders (clicking and typing), the history (every
 * phase with its orders, results and explanations), press, votes and the game master's
 * console. Live events (server-sent) refresh it when a phase is resolved.
 */

export interface PowerInfo {
  id: string;
  name: string;
  adjective: string;
  /** Other names of the power a header may use (`UK`, `Soviet Union`). */
  aliases?: string[];
}

export async function powersOf(variant: string): Promise<PowerInfo[]> {
  const r = await get<{ powers: PowerInfo[] }>(
    `/api/variants/${encodeURIComponent(variant)}/start`,
  );
  return r.powers;
}

interface Panel {
  readonly title: string;
  readonly el: HTMLElement;
  show(): Promise<void>;
  onProvince?(p: string): void;
}

function outcomeList(
  results: PhaseRecord["results"],
  name: (p: string) => string,
  highlight?: { power: string; index: number },
): HTMLElement {
  return h(
    "div",
    { class: "outcomes" },
    Object.entries(results).map(([power, list]) =>
      h(
        "section",
        {},
        h("h4", {}, name(power)),
        h(
          "ul",
          {},
          list.map((r, i) =>
            h(
              "li",
              {
                class: `outcome ${r.result}${highlight && highlight.power === power && highlight.index === i ? " current" : ""}`,
              },
              h("code", {}, r.order ?? r.text ?? "(no order)"),
              " ",
              h("span", { class: `badge ${r.result}` }, r.result),
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
      ),
    ),
  );
}

export { outcomeList };

export async function gamePage(app: HTMLElement, id: string): Promise<void> {
  let view = await get<GameView>(`/api/games/${encodeURIComponent(id)}`);
  // Global Diplomacy and Age of Discovery: reports and commands (family.ts).
  if (isFamilyView(view)) return familyPage(app, id, view);
  const powers = await powersOf(view.variant);
  const name = (p: string) => powers.find((x) => x.id === p)?.name ?? p;
  const board = new Board("map", (p) => active()?.onProvince?.(p));
  const meta = h("p", { class: "meta", "aria-live": "polite" });
  const showMeta = () =>
    fill(
      meta,
      `${view.variant} · ${view.scenario} · `,
      h("strong", {}, view.phase ?? "not started"),
      ` · ${view.state}`,
      view.deadline
        ? [
            " · deadline in ",
            h("strong", { "data-deadline": view.deadline }, countdown(view.deadline)),
          ]
        : view.state === "open"
          ? " · the chair resolves"
          : "",
      view.you
        ? ` · you: ${view.you.role}${view.you.powers.length ? ` (${view.you.powers.map(name).join(", ")})` : ""}`
        : "",
    );
  showMeta();

  const panels: Panel[] = [];
  const reload = async () => {
    view = await get<GameView>(`/api/games/${encodeURIComponent(id)}`);
    showMeta();
    await active()?.show();
  };

  panels.push(ordersPanel(id, () => view, board, name));
  panels.push(historyPanel(id, board, name));
  panels.push(pressPanel(id, () => view, powers));
  if (view.you) panels.push(votesPanel(id, () => view, name));
  if (view.scores) panels.push(pointsPanel(() => view, name));
  if (view.you?.role === "gm") panels.push(gmPanel(id, () => view, name, reload));

  const { tabs, body, choose, active } = tabbed(panels, "game");

  fill(
    app,
    h(
      "div",
      { class: "game-head" },
      h("h1", {}, view.name),
      meta,
      view.you?.role === "gm"
        ? h(
            "a",
            { href: `/chair/${encodeURIComponent(id)}`, class: "button secondary" },
            "Projector view",
          )
        : null,
      h(
        "button",
        {
          type: "button",
          class: "secondary zoom-toggle",
          "aria-pressed": "false",
          onclick: (e: Event) => {
            const on = document.body.classList.toggle("zoom");
            (e.currentTarget as HTMLElement).setAttribute("aria-pressed", String(on));
          },
        },
        "Enlarge map",
      ),
    ),
    !session.token ? loginForm(() => location.reload()) : null,
    h("div", { class: "game" }, board.el, h("aside", {}, tabs, body)),
  );
  await choose(panels[0]!);
  liveUpdates(id, reload);
}

/** Server-sent events of the game: reload on anything that changes the board or phase. */
export function liveUpdates(id: string, reload: () => Promise<void>): void {
  const kinds = [
    "phase_resolved",
    "phase_corrected",
    "started",
    "deadline",
    "paused",
    "resumed",
    "game_over",
    "joined",
    "chair_mode",
    "press",
    "vote_result",
  ];
  void (async () => {
    let after = 0;
    try {
      const evs = await get<{ id: number }[]>(`/api/games/${encodeURIComponent(id)}/events`);
      after = evs.reduce((m, e) => Math.max(m, e.id), 0);
    } catch {
      // no backlog: start from the beginning
    }
    const token = session.token ? `&token=${encodeURIComponent(session.token)}` : "";
    const es = new EventSource(
      `/api/games/${encodeURIComponent(id)}/events?after=${after}${token}`,
    );
    let pending: ReturnType<typeof setTimeout> | null = null;
    for (const k of kinds) {
      es.addEventListener(k, () => {
        if (pending) clearTimeout(pending);
        pending = setTimeout(() => void reload(), 150);
      });
    }
  })();
}

function ordersPanel(
  id: string,
  view: () => GameView,
  board: Board,
  name: (p: string) => string,
): Panel {
  const el = h("div", {});
  let pad: OrderPad | null = null;
  let shownPhase: string | null = null;
  const status = h("div", { "aria-live": "polite" });
  const canOrder = () => {
    const v = view();
    return (
      v.you?.role === "player" &&
      v.state === "open" &&
      v.you.powers.some((p) => v.toOrder.includes(p))
    );
  };
  const draw = (orders: { power: string; text: string }[], selected: string[] = []) =>
    void board.show(view().position, drawnOrders(orders), selected);
  const send = async (final: boolean) => {
    if (!pad) return;
    try {
      const r = await post<{ final: boolean; receivedAt: string; diagnostics: LineDiag[] }>(
        `/api/games/${encodeURIComponent(id)}/orders`,
        { orders: pad.text, final, phase: view().phase },
      );
      const bad = r.diagnostics.filter((d) => !d.ok).length;
      fill(
        status,
        message(
          `${r.final ? "Final" : "Preliminary"} orders received at ${new Date(r.receivedAt).toLocaleTimeString()}` +
            (bad ? `; ${bad} line(s) not understood (they will count as no order)` : ""),
          bad ? "error" : "ok",
        ),
      );
    } catch (e) {
      fill(status, message((e as Error).message, "error"));
    }
  };
  return {
    title: "Orders",
    el,
    onProvince: (p) => pad?.clickProvince(p),
    async show() {
      const v = view();
      if (!canOrder()) {
        pad = null;
        shownPhase = null;
        fill(
          el,
          h(
            "p",
            {},
            v.state === "forming"
              ? "The game starts when every seat is taken."
              : v.state === "done"
                ? "The game is over."
                : v.you?.role === "player"
                  ? "Your powers have nothing to order in this phase."
                  : "Orders are given by the players; the history tab shows every resolved phase.",
          ),
        );
        if (v.you?.role === "gm" && v.state !== "forming" && v.state !== "done") {
          // The GM sees every order set sent so far (nobody else does before adjudication).
          const current = await get<{
            sets: { power: string; orders: string[]; final: boolean }[];
          }>(`/api/games/${encodeURIComponent(id)}/orders`);
          append(el, [
            h("h3", {}, `Orders sent for ${v.phase} (seen only by you)`),
            current.sets.length === 0
              ? h("p", {}, "None yet.")
              : current.sets.map((set) =>
                  h(
                    "section",
                    {},
                    h("h4", {}, `${name(set.power)}${set.final ? " (final)" : " (preliminary)"}`),
                    h(
                      "ul",
                      {},
                      set.orders.map((o) => h("li", {}, h("code", {}, o))),
                    ),
                  ),
                ),
          ]);
        }
        await board.show(v.position);
        return;
      }
      if (pad && shownPhase === v.phase) {
        draw(pad.orders);
        return;
      }
      shownPhase = v.phase;
      const mine = v.you!.powers.filter((p) => v.toOrder.includes(p));
      const legal = await get<LegalView>(`/api/games/${encodeURIComponent(id)}/legal`);
      const p = new OrderPad({
        headers: mine.length > 1,
        powerName: name,
        check: async (text) =>
          (
            await post<{ lines: LineDiag[] }>(`/api/games/${encodeURIComponent(id)}/check`, {
              orders: text,
            })
          ).lines,
        onOrders: (orders) => draw(orders),
        onSelect: (sel) => draw(p.orders, sel),
      });
      pad = p;
      p.setLegal(legal);
      const current = await get<{
        sets: { power: string; orders: string[]; final: boolean; receivedAt: string }[];
      }>(`/api/games/${encodeURIComponent(id)}/orders`);
      const text =
        mine.length > 1
          ? current.sets.map((s) => [`${name(s.power)}:`, ...s.orders].join("\n")).join("\n")
          : current.sets.flatMap((s) => s.orders).join("\n");
      const final = current.sets.length > 0 && current.sets.every((s) => s.final);
      fill(
        status,
        current.sets.length
          ? message(`Orders on file: ${final ? "final" : "preliminary"}.`, "info")
          : message("No orders sent yet.", "info"),
      );
      fill(
        el,
        h("p", { class: "meta" }, `${v.phase}: orders for ${mine.map(name).join(", ")}`),
        p.el,
        h(
          "div",
          { class: "row" },
          h(
            "button",
            { type: "button", class: "secondary", onclick: () => void send(false) },
            "Save preliminary",
          ),
          h("button", { type: "button", onclick: () => void send(true) }, "Submit final"),
        ),
        status,
      );
      p.setText(text);
      await board.show(v.position);
    },
  };
}

function historyPanel(id: string, board: Board, name: (p: string) => string): Panel {
  const el = h("div", {});
  let record: GameRecord | null = null;
  let index = -1;
  const show = () => {
    if (!record) return;
    const n = record.phases.length;
    if (n === 0) {
      fill(el, h("p", {}, "No phase has been resolved yet."));
      void board.show(record.start);
      return;
    }
    index = Math.max(0, Math.min(n - 1, index < 0 ? n - 1 : index));
    const ph = record.phases[index]!;
    const before: BoardPosition = index === 0 ? record.start : record.phases[index - 1]!.position;
    void board.show(before, drawnResults(ph.results));
    const select = h(
      "select",
      { "aria-label": "phase" },
      record.phases.map((p, i) =>
        h("option", { value: String(i), selected: i === index }, `${i + 1}. ${p.phase}`),
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
      ),
      h("p", { class: "hint" }, "← and → step through the phases."),
      h("h3", {}, `${ph.phase}: results`),
      outcomeList(ph.results, name),
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
      record = await get<GameRecord>(`/api/games/${encodeURIComponent(id)}/record`);
      if (record.phases.length !== before) index = record.phases.length - 1;
      show();
    },
  };
}

interface PressItem {
  id: number;
  phase: string;
  kind: string;
  fromName: string;
  to: "all" | string[];
  body: string;
  at: string;
}

function pressPanel(
  id: string,
  view: () => GameView,
  powers: { id: string; name: string }[],
): Panel {
  const el = h("div", {});
  const list = h("ol", { class: "press", "aria-live": "polite" });
  const body = h("textarea", { rows: 3, "aria-label": "message", maxlength: 20000 });
  const kind = h(
    "select",
    { "aria-label": "kind" },
    h("option", { value: "white" }, "signed (white)"),
    h("option", { value: "grey" }, "anonymous (grey)"),
  );
  const to = h(
    "select",
    { "aria-label": "to" },
    h("option", { value: "all" }, "everybody"),
    powers.map((p) => h("option", { value: p.id }, p.name)),
  );
  const out = h("div", { "aria-live": "polite" });
  const name = (p: string) => powers.find((x) => x.id === p)?.name ?? p;
  const load = async () => {
    const items = await get<PressItem[]>(`/api/games/${encodeURIComponent(id)}/press`);
    fill(
      list,
      items.length === 0
        ? h("li", { class: "hint" }, "No press yet.")
        : items.map((m) =>
            h(
              "li",
              { class: `press-item ${m.kind}` },
              h(
                "div",
                { class: "press-head" },
                `${m.phase} · ${m.fromName} → ${m.to === "all" ? "all" : m.to.map(name).join(", ")} (${m.kind})`,
              ),
              h("div", { class: "press-body" }, m.body),
            ),
          ),
    );
  };
  const form = h(
    "form",
    { class: "press-form", "aria-label": "send press" },
    body,
    h("div", { class: "row" }, to, kind, h("button", { type: "submit" }, "Send")),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await post(`/api/games/${encodeURIComponent(id)}/press`, {
        to: to.value === "all" ? "all" : [to.value],
        body: body.value,
        kind: kind.value,
      });
      body.value = "";
      fill(out);
      await load();
    } catch (err) {
      fill(out, message((err as Error).message, "error"));
    }
  });
  return {
    title: "Press",
    el,
    async show() {
      fill(el, list, view().you?.role === "player" ? form : null);
      await load();
    },
  };
}

interface Proposal {
  id: number;
  kind: string;
  text: string | null;
  powers: string[] | null;
  status: string;
  counts: unknown;
  yourVote?: string | null;
}

function votesPanel(id: string, view: () => GameView, name: (p: string) => string): Panel {
  const el = h("div", {});
  const out = h("div", { "aria-live": "polite" });
  const act = async (f: () => Promise<unknown>) => {
    try {
      await f();
      fill(out);
      await panel.show();
    } catch (e) {
      fill(out, message((e as Error).message, "error"));
    }
  };
  const panel: Panel = {
    title: "Votes",
    el,
    async show() {
      const props = await get<Proposal[]>(`/api/games/${encodeURIComponent(id)}/votes`);
      const player = view().you?.role === "player";
      fill(
        el,
        props.length === 0 ? h("p", {}, "No proposals.") : null,
        h(
          "ul",
          { class: "votes" },
          props.map((p) =>
            h(
              "li",
              {},
              h("strong", {}, p.kind),
              p.powers ? ` (${p.powers.map(name).join(", ")})` : "",
              p.text ? ` “${p.text}”` : "",
              ` · ${p.status}`,
              p.counts ? ` · ${JSON.stringify(p.counts)}` : "",
              p.status === "open" && player
                ? h(
                    "span",
                    { class: "row" },
                    ` your vote: ${p.yourVote ?? "none"} `,
                    (["yes", "no", "abstain"] as const).map((v) =>
                      h(
                        "button",
                        {
                          type: "button",
                          class: "chip",
                          onclick: () =>
                            void act(() =>
                              post(`/api/games/${encodeURIComponent(id)}/votes/${p.id}`, {
                                vote: v,
                              }),
                            ),
                        },
                        v,
                      ),
                    ),
                  )
                : null,
            ),
          ),
        ),
        player
          ? h(
              "div",
              { class: "row" },
              h(
                "button",
                {
                  type: "button",
                  class: "secondary",
                  onclick: () =>
                    void act(() =>
                      post(`/api/games/${encodeURIComponent(id)}/votes`, { kind: "draw" }),
                    ),
                },
                "Propose a draw of all survivors",
              ),
            )
          : null,
        out,
      );
    },
  };
  return panel;
}

function gmPanel(
  id: string,
  view: () => GameView,
  name: (p: string) => string,
  reload: () => Promise<void>,
): Panel {
  const el = h("div", { class: "gm" });
  const base = `/api/games/${encodeURIComponent(id)}`;
  const { out, act, btn, turnButtons, extendRow } = gmTools(base, reload);
  const corrPower = h("input", { "aria-label": "power", placeholder: "power" });
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
  return {
    title: "Game master",
    el,
    async show() {
      const v = view();
      const chair = await get<{ chaired: boolean; received?: { power: string; final: boolean }[] }>(
        `${base}/chair`,
      );
      fill(
        el,
        h("h3", {}, "Phase"),
        h(
          "div",
          { class: "row wrap" },
          ...turnButtons(v.state),
          v.state === "open"
            ? btn("Resolve now", () => void act("Resolve", () => post(`${base}/chair/resolve`)), "")
            : null,
          btn(
            chair.chaired ? "Chaired: on (turn off)" : "Chaired: off (turn on)",
            () => void act("Chair mode", () => post(`${base}/chair`, { on: !chair.chaired })),
          ),
        ),
        extendRow(),
        chair.received
          ? h(
              "p",
              {},
              `Orders received: ${chair.received.map((r) => `${name(r.power)}${r.final ? " (final)" : ""}`).join(", ") || "none"}; to order: ${v.toOrder.map(name).join(", ") || "nobody"}`,
            )
          : null,
        h("h3", {}, "Correct the last adjudication"),
        h(
          "div",
          { class: "col" },
          corrPower,
          corrOrders,
          corrReason,
          btn(
            "Correct",
            () =>
              void act("Correct", () =>
                post(`${base}/gm/correct`, {
                  orders: corrPower.value.trim()
                    ? {
                        [corrPower.value.trim()]: corrOrders.value
                          .split(/\r?\n/)
                          .filter((l) => l.trim()),
                      }
                    : undefined,
                  reason: corrReason.value,
                }),
              ),
          ),
        ),
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
        ),
        h("h3", {}, "End the game"),
        h(
          "div",
          { class: "row" },
          btn(
            "Draw (all survivors)",
            () => void act("End", () => post(`${base}/gm/end`, { result: "draw" })),
          ),
          btn(
            "Abandon",
            () => void act("End", () => post(`${base}/gm/end`, { result: "abandoned" })),
          ),
        ),
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
        h("h3", {}, "Seats"),
        h(
          "ul",
          {},
          v.seatList.map((s) => h("li", {}, `${s.index}. ${s.name}: ${s.player ?? "free"}`)),
        ),
        out,
      );
    },
  };
}

function pointsPanel(view: () => GameView, name: (p: string) => string): Panel {
  const el = h("div", {});
  return {
    title: "Points",
    el,
    async show() {
      fill(el, pointsTable(view(), name) ?? h("p", {}, "No victory points in this game."));
    },
  };
}
