import { ApiError, get, post } from "./api.ts";
import { drawnOrders } from "./board.ts";
import type { GameCtx, Panel } from "./context.ts";
import { append, fill, h, message } from "./dom.ts";
import { OrderPad, refusal, shortAdjustments } from "./orderpad.ts";
import { possibleCommands } from "./parts.ts";
import type { LegalView, LineDiag } from "./types.ts";

/*
 * The Orders tab (Commands in a game of commands): the viewer's order set, given the game's
 * way. The order pad (orderpad.ts): clicking and typing, each line read by the judge as it is
 * typed. The command box: one command per line as the seed writes them, a verdict per line
 * when the set is sent, a click on the map writes an area's number. Whoever cannot order
 * reads why; the game master reads the sets sent so far (`receivedSets`).
 */

/** An order set on file (`GET /api/games/:id/orders`). */
interface OrderSet {
  power: string;
  orders: string[];
  final: boolean;
  receivedAt: string | null;
  diagnostics?: LineDiag[];
}

interface SendAnswer {
  phase: string;
  final: boolean;
  receivedAt: string;
  diagnostics: LineDiag[];
}

/** One way of writing an order set: its element, its text, and what it does on the page. */
interface OrderInput {
  readonly el: HTMLElement;
  readonly text: () => string;
  /** The buttons that send the text (preliminary or final). */
  readonly buttons: HTMLElement;
  /** What follows the status line (the verdicts and possible commands), if anything. */
  readonly after: HTMLElement | null;
  /** Fills the input from the sets on file and says what is on file. */
  load(sets: readonly OrderSet[]): Promise<void>;
  /** What to say once a set is received. */
  answered(r: SendAnswer): void;
  readonly onProvince: (p: string) => void;
  /** Draws the board with what the input holds. */
  draw(): void;
}

export function ordersPanel(ctx: GameCtx): Panel {
  const el = h("div", {});
  const status = h("div", { "aria-live": "polite" });
  let input: OrderInput | null = null;
  let shownPhase: string | null = null;
  // Whether a refusal (403) is being answered by reading the view again (show, below).
  let rereading = false;
  // A place clicked on the map while the pad is being made (the map is drawn first, the legal
  // orders come after): kept, the last one, and given to the pad once it is there, so that the
  // click is not lost.
  let early: string | null = null;
  const canOrder = () => {
    const v = ctx.view();
    return (
      v.you?.role === "player" &&
      (v.state === "open" || v.state === "paused") &&
      v.you.powers.some((p) => v.toOrder.includes(p))
    );
  };
  const send = async (final: boolean) => {
    if (!input) return;
    try {
      const r = await post<SendAnswer>(`${ctx.base}/orders`, {
        orders: input.text(),
        final,
        phase: ctx.view().phase,
      });
      input.answered(r);
    } catch (e) {
      fill(status, message((e as Error).message, "error"));
    }
  };
  const commands = ctx.parts.orders === "commands";
  return {
    title: commands ? "Commands" : "Orders",
    el,
    onProvince: (p) => {
      if (input) input.onProvince(p);
      else if (canOrder()) early = p;
    },
    async show() {
      const v = ctx.view();
      if (!canOrder()) {
        input = null;
        shownPhase = null;
        fill(
          el,
          h(
            "p",
            {},
            v.state === "forming"
              ? "The game starts when every seat is taken."
              : v.state === "done"
                ? ctx.parts.report
                  ? "The game is over: your last report is beside."
                  : "The game is over."
                : v.you?.role === "player"
                  ? `Your powers have nothing to order in this ${ctx.parts.words.phase}.`
                  : "Orders are given by the players; the history tab shows every resolved phase.",
          ),
        );
        if (v.you?.role === "gm" && v.state !== "forming" && v.state !== "done") {
          append(el, [await receivedSets(ctx)]);
        }
        await ctx.draw(v.position);
        return;
      }
      if (input && shownPhase === v.phase && el.contains(input.el)) {
        input.draw();
        return;
      }
      const mine = v.you!.powers.filter((p) => v.toOrder.includes(p));
      // The pad on show is for another phase (or gone): clicks wait for the new one.
      input = null;
      early = null;
      let next: OrderInput;
      let sets: OrderSet[] = [];
      try {
        next = commands ? commandBox(ctx, status, send) : await orderPad(ctx, mine, send);
        sets = (await get<{ sets: OrderSet[] }>(`${ctx.base}/orders`)).sets;
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        // 403: the seat was lost while the page read it (civil disorder, the GM's
        // replacement): the view is stale, so it is read again once, and the page says why
        // (seat.ts). Anything else, or a refusal the view read again does not explain, is said.
        if (e.status === 403 && !rereading) {
          rereading = true;
          try {
            return await ctx.reload();
          } finally {
            rereading = false;
          }
        }
        fill(el, message(e.message, "error"));
        return;
      }
      shownPhase = v.phase;
      input = next;
      fill(
        el,
        h(
          "p",
          { class: "meta" },
          `${v.phase}: ${ctx.parts.words.orders} for ${mine.map(ctx.name).join(", ")}`,
        ),
        commands
          ? h(
              "p",
              { class: "hint" },
              "One command per line, areas and powers by number, as the rules write them (MO 20 19, SA 20 17 3, SP 0203). Each set you send replaces the last one whole.",
            )
          : null,
        next.el,
        next.buttons,
        status,
        next.after,
      );
      await next.load(sets);
      await ctx.draw(v.position);
      if (early !== null && input === next) {
        const clicked = early;
        early = null;
        next.onProvince(clicked);
      }
    },
  };

  /** The order pad: clicking and typing, read as typed; preliminary or final. */
  async function orderPad(
    c: GameCtx,
    mine: readonly string[],
    sendSet: (final: boolean) => Promise<void>,
  ): Promise<OrderInput> {
    const draw = (
      orders: { power: string; text: string }[],
      selected: string[] = [],
      targets: string[] = [],
    ) => void c.draw(c.view().position, drawnOrders(orders), selected, targets);
    const legal = await get<LegalView>(`${c.base}/legal`);
    const pad: OrderPad = new OrderPad({
      headers: mine.length > 1,
      powerName: c.name,
      check: async (text) =>
        (await post<{ lines: LineDiag[] }>(`${c.base}/check`, { orders: text })).lines,
      onOrders: (orders) => draw(orders),
      onSelect: (sel, targets) => draw(pad.orders, sel, targets),
    });
    pad.setLegal(legal);
    return {
      el: pad.el,
      text: () => pad.text,
      buttons: h(
        "div",
        { class: "row" },
        h(
          "button",
          { type: "button", class: "secondary", onclick: () => void sendSet(false) },
          "Save preliminary",
        ),
        h(
          "button",
          {
            type: "button",
            onclick: () => {
              // Builds or removals left unordered: lawful, but never done silently.
              const short = shortAdjustments(legal, pad.orders, mine, c.name);
              if (!short) {
                void sendSet(true);
                return;
              }
              const yes = h(
                "button",
                { type: "button", onclick: () => void sendSet(true) },
                "Submit final anyway",
              );
              fill(
                status,
                h(
                  "div",
                  { class: "msg error confirm", role: "alertdialog", "aria-label": "confirm" },
                  h("p", {}, `${short}. Submit these orders as final?`),
                  h(
                    "div",
                    { class: "row" },
                    yes,
                    h(
                      "button",
                      {
                        type: "button",
                        class: "secondary",
                        onclick: () => fill(status, message("Not sent: go on ordering.", "info")),
                      },
                      "Go back",
                    ),
                  ),
                ),
              );
              yes.focus();
            },
          },
          "Submit final",
        ),
      ),
      after: null,
      async load(sets) {
        const final = sets.length > 0 && sets.every((s) => s.final);
        fill(
          status,
          sets.length
            ? message(`Orders on file: ${final ? "final" : "preliminary"}.`, "info")
            : message("No orders sent yet.", "info"),
        );
        pad.setText(
          mine.length > 1
            ? sets.map((s) => [`${c.name(s.power)}:`, ...s.orders].join("\n")).join("\n")
            : sets.flatMap((s) => s.orders).join("\n"),
        );
      },
      answered(r) {
        const refused = r.diagnostics.filter((d) => !d.ok);
        const bad = refused.length;
        const illegal = refused.filter((d) => refusal(d) === "illegal").length;
        const words = [
          illegal ? `${illegal} illegal` : "",
          bad - illegal ? `${bad - illegal} not understood` : "",
        ]
          .filter(Boolean)
          .join(", ");
        fill(
          status,
          message(
            `${r.final ? "Final" : "Preliminary"} orders received at ${new Date(r.receivedAt).toLocaleTimeString()}` +
              (bad ? `; ${bad} line(s) refused (${words}): they will count as no order` : ""),
            bad ? "error" : "ok",
          ),
        );
      },
      onProvince: (p) => pad.clickProvince(p),
      draw: () => draw(pad.orders),
    };
  }
}

/** The command box: the whole set sent at once, a verdict per line; clicks write areas. */
function commandBox(
  ctx: GameCtx,
  status: HTMLElement,
  send: (final: boolean) => Promise<void>,
): OrderInput {
  const box = h("textarea", {
    rows: 8,
    class: "commands",
    "aria-label": "commands",
    spellcheck: "false",
    autocapitalize: "characters",
    autocomplete: "off",
    placeholder: "MO 20 19\nSA 20 17 3\nSP 0203",
  });
  const verdicts = h("div", { class: "verdict-list" });
  const possible = h("div", {});
  const phase = () => ctx.view().phase;
  const resolveEarly = (ctx.view().options as { resolveEarly?: boolean }).resolveEarly;
  return {
    el: box,
    text: () => box.value,
    buttons: h(
      "div",
      { class: "row" },
      h("button", { type: "button", onclick: () => void send(false) }, "Send commands"),
      resolveEarly
        ? h(
            "button",
            { type: "button", class: "secondary", onclick: () => void send(true) },
            "Send as final",
          )
        : null,
    ),
    after: h("div", {}, verdicts, possible),
    async load(sets) {
      const v = ctx.view();
      const mine = sets.find((s) => v.you?.powers.includes(s.power));
      box.value = mine ? mine.orders.join("\n") : "";
      fill(verdicts, mine?.diagnostics?.length ? verdictList(mine.diagnostics) : null);
      fill(
        status,
        mine
          ? message(
              `Set on file for ${phase()}: ${mine.orders.length} command(s)${mine.final ? ", final" : ""}, received ${mine.receivedAt ? new Date(mine.receivedAt).toLocaleString() : ""}.`,
              "info",
            )
          : message(`No commands on file for ${phase()}: your units will stand.`, "info"),
      );
      const list = possibleCommands(ctx.report?.latest()?.report ?? "");
      fill(
        possible,
        list
          ? h(
              "details",
              { class: "possible" },
              h("summary", {}, "Possible commands (from your last report)"),
              h("pre", { class: "report" }, list),
            )
          : null,
      );
    },
    answered(r) {
      const bad = r.diagnostics.filter((d) => !d.ok).length;
      fill(verdicts, r.diagnostics.length ? verdictList(r.diagnostics) : null);
      fill(
        status,
        message(
          `${r.diagnostics.length} command(s) on file for ${r.phase}${r.final ? " (final)" : ""}, received ${new Date(r.receivedAt).toLocaleTimeString()}; this set replaces any earlier one.` +
            (bad
              ? ` ${bad} line(s) refused: the adjudicator will refuse them again, with the reason, in your report.`
              : ""),
          bad ? "error" : "ok",
        ),
      );
    },
    onProvince(area) {
      // The area's number goes where the cursor is in the command box.
      const at = box.selectionStart ?? box.value.length;
      const before = box.value.slice(0, at);
      const pad = before === "" || /[\s]$/.test(before) ? "" : " ";
      box.setRangeText(`${pad}${area} `, at, box.selectionEnd ?? at, "end");
      box.focus();
    },
    draw: () => void ctx.draw(ctx.view().position),
  };
}

/** One verdict per line: ✓ and the line, or ✗, the line and why the judge refused it. */
function verdictList(list: readonly LineDiag[]): HTMLElement {
  return h(
    "ul",
    { class: "diags verdicts", "aria-label": "verdicts" },
    list.map((d) =>
      h(
        "li",
        { class: d.ok ? "ok" : "bad" },
        h("span", { class: "mark", "aria-hidden": "true" }, d.ok ? "✓" : "✗"),
        h("code", {}, d.text),
        d.ok ? null : h("span", { class: "why" }, `: ${d.message ?? "not understood"}`),
      ),
    ),
  );
}

/**
 * The order sets sent for the open phase, which only the game master may read before it is
 * adjudicated, and the powers still to send one.
 */
export async function receivedSets(ctx: GameCtx): Promise<HTMLElement> {
  const open = await get<{ phase: string; sets: OrderSet[] }>(`${ctx.base}/orders`);
  const sent = new Set(open.sets.map((s) => s.power));
  return h(
    "div",
    {},
    h("h3", {}, `${open.phase}: ${ctx.parts.words.orders} received (seen only by you)`),
    open.sets.length
      ? setList(
          ctx,
          open.sets,
          ctx.view().toOrder.filter((p) => !sent.has(p)),
        )
      : h("p", {}, "None yet."),
  );
}

/**
 * A set's lines as the player saw them answered: each line the judge refused marked ✗ with
 * the reason the player read (its diagnostic when sent); without diagnostics, the lines.
 */
function linesAsSent(
  orders: readonly string[],
  diagnostics: readonly LineDiag[] | undefined,
): HTMLElement {
  const lines = diagnostics?.filter((d) => d.kind === "order");
  if (!lines?.length) return h("pre", { class: "report" }, h("code", {}, orders.join("\n")));
  return h(
    "ul",
    { class: "diags verdicts", "aria-label": "lines sent" },
    lines.map((d) =>
      h(
        "li",
        { class: d.ok ? "ok" : "bad", "data-refused": d.ok ? null : "true" },
        h("span", { class: "mark", "aria-hidden": "true" }, d.ok ? "✓" : "✗"),
        h("code", {}, d.ok ? (d.order ?? d.text) : d.text),
        d.ok
          ? null
          : [
              " — ",
              h("strong", { class: "refusal" }, `refused, ${refusal(d)}`),
              d.message && d.message !== refusal(d) ? `: ${d.message}` : "",
            ],
      ),
    ),
  );
}

/** Order sets as the game master reads them: per power, its lines; who has sent none. */
export function setList(
  ctx: GameCtx,
  sets: readonly {
    power: string;
    orders: readonly string[];
    final?: boolean;
    diagnostics?: readonly LineDiag[];
  }[],
  missed: readonly string[] = [],
): HTMLElement {
  const name = ctx.name;
  return h(
    "ul",
    { class: "turn-sets" },
    [...sets]
      .sort((a, b) => Number(a.power) - Number(b.power) || 0)
      .map((s) =>
        h(
          "li",
          {},
          h("strong", {}, name(s.power)),
          s.final === undefined ? null : s.final ? " (final)" : " (preliminary)",
          s.orders.length === 0 ? ": (empty set)" : null,
          s.orders.length ? linesAsSent(s.orders, s.diagnostics) : null,
        ),
      ),
    missed.length
      ? h(
          "li",
          { class: "hint" },
          `No ${ctx.parts.words.orders} received: ${missed.map(name).join(", ")}`,
        )
      : null,
  );
}
