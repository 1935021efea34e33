import { powerColours } from "../render/layers.ts";
import type { BoardView, MapGeometry } from "../render/types.ts";
import { ApiError, get, session } from "./api.ts";
import { Board, geometry, palette } from "./board.ts";
import { centreChart, centreTable } from "./centres.ts";
import { chairClock } from "./clock.ts";
import { type GameCtx, liveUpdates, type Panel, powersOf, type ReportCard } from "./context.ts";
import { countdown, fill, h, region, tabbed } from "./dom.ts";
import { gmPanel, seatsPanel } from "./gm.ts";
import { historyPanel, turnsPanel } from "./history.ts";
import { loginForm } from "./lobby.ts";
import { ordersPanel } from "./orders.ts";
import { centreHistory, focusBox, gameParts, type PanelId, seatLabel } from "./parts.ts";
import { pointsPanel } from "./points.ts";
import { reportCard } from "./report.ts";
import { lostSeatNotice } from "./seat.ts";
import { pressPanel, votesPanel } from "./talk.ts";
import type { GameRecord, GameView } from "./types.ts";

/*
 * The game page, one for every game. It reads the game view, asks `gameParts` (parts.ts) what
 * this game shows, and builds the page from those parts: the head (name, the kind of game,
 * the phase or turn, the state, a live countdown), the map when the variant or family has
 * one, the viewer's report where results come as reports, and the tabs (orders by the pad or
 * the command box, history or turns, press, votes, points, the GM's console, seats). The
 * game's server-sent events reload it.
 */

/** Whether the variant or family has a map to draw (its geometry answers, or 404). */
async function hasMap(variant: string): Promise<boolean> {
  try {
    await geometry(variant);
    return true;
  } catch (e) {
    // Any other failure is said on the map itself.
    return !(e instanceof ApiError && e.status === 404);
  }
}

export async function gamePage(app: HTMLElement, id: string): Promise<void> {
  const base = `/api/games/${encodeURIComponent(id)}`;
  let view = await get<GameView>(base);
  // The view as read, to tell whether a later read differs (the page's parts may change the object).
  let read = JSON.stringify(view);
  // Powers are named by the variant (its list) or by their seats; the map does not matter.
  const [mapped, powers] = await Promise.all([
    hasMap(view.variant),
    gameParts(view, false).names === "variant" ? powersOf(view.variant) : null,
  ]);
  const parts = gameParts(view, mapped);
  const name = powers
    ? (p: string) => powers.find((x) => x.id === p)?.name ?? p
    : (p: string) => seatLabel(view, p);

  const board = parts.map ? new Board("map", (p) => active()?.onProvince?.(p)) : null;
  const frame = parts.map?.frame
    ? mapFrame(board!, view.you?.role === "gm", parts.map.source)
    : null;
  const meta = h("p", { class: "meta", "aria-live": "polite" });
  // The supply centres of the position as it stands (centres.ts), beside the board, and
  // their chart over the years, read from the public record when a phase was adjudicated.
  const table = h("div", {});
  const chart = h("div", { class: "chart-box" });
  const centres = h("div", { class: "centres-box" }, table, chart);
  let charted = -1;
  const showChart = async () => {
    if (parts.names !== "variant" || view.phaseIndex === charted) return;
    charted = view.phaseIndex;
    const [record, g] = await Promise.all([
      get<GameRecord>(`${base}/record`),
      geometry(view.variant),
    ]);
    const hist = centreHistory(record);
    const ids = g.powers?.map((p) => p.id) ?? [];
    for (const x of hist.series) if (!ids.includes(x.power)) ids.push(x.power);
    const colours = powerColours(ids, palette(), g.style);
    // Each line ends in the power's name cut to three letters ("Eng 5"), beside its colour.
    fill(
      chart,
      centreChart(hist, name, colours, (p) => name(p).slice(0, 3)),
    );
  };
  const showCentres = () => {
    fill(table, centreTable(view.position, name));
    if (board) void showChart().catch(() => fill(chart));
  };
  // The game so far as an animated GIF (GET history.gif: adjudicated phases only), drawn in
  // the palette the viewer chose.
  const gif = h(
    "a",
    {
      class: "button secondary",
      href: `${base}/history.gif${palette() === "colorblind" ? "?palette=colorblind" : ""}`,
      download: "",
      title: "an animated GIF of every phase adjudicated so far",
    },
    "Download GIF",
  );
  // The projector view is for chaired games (the chair reveals all orders there).
  const projector = h(
    "a",
    { href: `/chair/${encodeURIComponent(id)}`, class: "button secondary", hidden: true },
    "Projector view",
  );
  const showProjector = async () => {
    if (view.you?.role !== "gm" || !parts.gm.chair) return;
    const c = await get<{ chaired: boolean }>(`${base}/chair`);
    projector.hidden = !c.chaired;
  };
  const showMeta = () =>
    fill(
      meta,
      `${parts.kind} · `,
      h("strong", {}, view.phase ?? "not started"),
      ` · ${view.state}`,
      view.deadline
        ? [
            " · deadline in ",
            h(
              "strong",
              { class: "deadline", "data-deadline": view.deadline },
              countdown(view.deadline),
            ),
          ]
        : view.state === "open" && parts.gm.chair
          ? " · the chair resolves"
          : "",
      // The port DAIDE clients (AI players) connect to, while the game is on (docs/daide.md).
      view.daide?.port ? ` · DAIDE port ${view.daide.port}` : "",
      view.you
        ? ` · you: ${view.you.role}${view.you.powers.length ? ` (${view.you.powers.map(name).join(", ")})` : ""}`
        : "",
    );
  showMeta();
  // To a player who lost the seat: which, when, why, what is left (seat.ts); theirs alone.
  const seatNote = region("div", {});
  const showSeat = () =>
    seatNote.update(
      // The loss, who holds that seat now and whether the game is over (the notice says them).
      JSON.stringify([
        view.lostSeat ?? null,
        view.seatList[view.lostSeat?.seat ?? -1]?.player,
        view.status,
      ]),
      () => lostSeatNotice(view, parts),
    );
  showSeat();
  // A correction by the GM while the page is open: said at once, whichever tab is shown.
  const correctedNote = h("div", { "aria-live": "polite" });
  const corrected = (data: Record<string, unknown>) => {
    fill(
      correctedNote,
      h(
        "div",
        { class: "msg info", role: "status", "data-corrected-live": String(data.phase ?? "") },
        `The GM corrected ${String(data.phase ?? "the last phase")}: ${String(data.reason ?? "").trim() || "no reason given"}. ${
          parts.panels.includes("history")
            ? "The History tab shows the corrected results."
            : "Your report of that turn was issued again."
        } `,
        h(
          "button",
          { type: "button", class: "secondary", onclick: () => fill(correctedNote) },
          "Dismiss",
        ),
      ),
    );
  };

  const ctx: GameCtx = {
    id,
    base,
    parts,
    view: () => view,
    name,
    draw: async (position, orders = [], selected = [], targets = []) => {
      if (frame) await frame.show(position, orders, selected, targets);
      else await board?.show(position, orders, selected, targets);
    },
    get report() {
      return report;
    },
    reload,
  };
  const report: ReportCard | null = parts.report ? reportCard(ctx) : null;

  const make: Record<PanelId, () => Panel> = {
    orders: () => ordersPanel(ctx),
    history: () => historyPanel(ctx),
    turns: () => turnsPanel(ctx),
    // The recipients: the variant's powers, or the seats' (a family game's `3`, by seat name).
    press: () =>
      pressPanel(ctx, powers?.map((p) => p.id) ?? view.seatList.flatMap((s) => s.powers)),
    votes: () => votesPanel(ctx),
    points: () => pointsPanel(ctx),
    gm: () => gmPanel(ctx),
    seats: () => seatsPanel(ctx),
  };
  const panels = parts.panels.map((p) => make[p]());
  const { tabs, body, choose, active } = tabbed(panels, "game");
  // The tabs' marks, kept up to date while another tab is shown.
  const badges = () =>
    Promise.all(
      panels.map((p) => {
        if (!p.badge) return Promise.resolve();
        tabs.querySelector(`[data-tab="${p.title.toLowerCase()}"]`)?.append(p.badge.el);
        return p === active() ? Promise.resolve() : p.badge.refresh();
      }),
    ).catch(() => undefined);

  async function reload(): Promise<void> {
    view = await get<GameView>(base);
    read = JSON.stringify(view);
    showMeta();
    showSeat();
    showCentres();
    void showProjector();
    // The board as it stands (the tab shown may draw over it), and the report before the
    // tab: the command box shows the report's possible commands.
    await Promise.all([
      ctx.draw(view.position),
      (report ? report.refresh() : Promise.resolve()).then(() => active()?.show()),
      badges(),
    ]);
  }

  fill(
    app,
    h(
      "div",
      { class: "game-head" },
      h("h1", {}, view.name),
      meta,
      parts.gm.chair ? chairClock(id).el : null,
      projector,
    ),
    seatNote.el,
    correctedNote,
    !session.token ? loginForm(() => location.reload()) : null,
    h(
      "div",
      { class: report ? "game with-report" : "game" },
      h(
        "div",
        { class: "game-main" },
        board
          ? h(
              "div",
              { class: "map-box" },
              board.el,
              h(
                "div",
                { class: "row map-tools" },
                board.zoom.controls,
                frame?.button,
                parts.names === "variant" ? gif : null,
              ),
            )
          : null,
        report?.el,
      ),
      h("aside", {}, board?.legend ?? null, board ? centres : null, tabs, body),
    ),
  );
  showCentres();
  void showProjector();
  await Promise.all([
    // The first tab once the report is read (its command box shows the report's commands),
    // unless the user chose one meanwhile: theirs stands, shown again with the report.
    (report ? report.refresh() : Promise.resolve()).then(() => {
      const chosen = active();
      return chosen ? chosen.show() : choose(panels[0]!);
    }),
    ctx.draw(view.position),
    badges(),
  ]);
  // On a phone the board opens close up around the viewer's units (board.ts `readable`).
  board?.readable(view.you?.powers ?? []);
  // What changed between the view read above and the live updates' start (their backlog read)
  // reaches no listener: read the view once more then, and reload if it changed.
  liveUpdates(
    id,
    reload,
    async () => {
      const fresh = await get<GameView>(base);
      if (JSON.stringify(fresh) !== read) await reload();
    },
    (kind, data) => {
      if (kind === "phase_corrected") corrected(data);
    },
  );
}

/**
 * A map framed on the viewer's own units and areas (a player's fogged position is a corner of
 * a large world), and the button that widens it to the whole map and back. With a `source`
 * (a map made for this viewer: an Age of Discovery player's), that map and its own frame, the
 * areas the player knows.
 */
function mapFrame(board: Board, gm: boolean, source?: string) {
  let whole = gm;
  let last: Parameters<Board["show"]> | null = null;
  const button = h("button", {
    type: "button",
    class: "secondary map-frame",
    onclick: () => {
      whole = !whole;
      board.zoom.reset();
      if (last) void show(...last);
    },
  });
  const show = async (...args: Parameters<Board["show"]>) => {
    last = args;
    let box: [number, number, number, number] | null = null;
    if (source) {
      await board.showOn(async () => {
        const own = await get<OwnMap>(source);
        box = own.frame;
        return own;
      });
    } else {
      const position = args[0];
      await board.show(...args);
      box = focusBox(await geometry(position.variant), position);
    }
    const svg = board.el.querySelector("svg");
    board.zoom.attach(svg, box && !whole ? box : undefined);
    fill(
      button,
      whole
        ? gm
          ? "Show the powers' areas"
          : "Show my areas"
        : source
          ? "Show the whole map"
          : "Show the whole world",
    );
    button.hidden = box === null;
  };
  return { button, show };
}

/** A viewer's own generated map (`GET /api/games/:id/map`). */
interface OwnMap {
  geometry: MapGeometry;
  view: BoardView;
  frame: [number, number, number, number] | null;
}
