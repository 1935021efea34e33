import { ApiError, get, post, session } from "./api.ts";
import { Board, geometry } from "./board.ts";
import { append, countdown, fill, h, message, tabbed } from "./dom.ts";
import { liveUpdates } from "./game.ts";
import { gmTools } from "./gmtools.ts";
import { loginForm } from "./lobby.ts";
import type { GameView } from "./types.ts";

/*
 * The game page of a game of another family (Global Diplomacy and Age of Discovery, seed 004;
 * the judge's src/judge/family.ts): the viewer's own report (monospace, turn by turn), a
 * command box answered line by line by the judge, the set on file, the deadline, and for the
 * game master the controls, every turn's commands and (Age of Discovery) the whole map.
 * Everything shown comes from what the API gives this viewer; the world map (global) draws
 * the game view's position, which for a player holds only its own units and areas.
 */

/** The `family` block of a family game's view (src/judge/family.ts `view`). */
export interface FamilyInfo {
  id: string;
  name: string;
  turn: number;
  turnsAdjudicated: number;
  report: string;
  players: number;
  moderatorMap?: string;
}

export type FamilyView = GameView & { family: FamilyInfo };

interface Report {
  power: string;
  turn: number;
  phase: string | null;
  report: string;
}

interface Verdict {
  line: number;
  text: string;
  ok: boolean;
  order?: string;
  message?: string;
}

interface CommandSet {
  power: string;
  orders: string[];
  final: boolean;
  receivedAt: string | null;
  diagnostics: Verdict[];
}

interface FamilyTurn {
  turn: number;
  phase: string;
  orders: Record<string, string[]>;
  missed: string[];
}

interface Panel {
  readonly title: string;
  readonly el: HTMLElement;
  show(): Promise<void>;
}

const enc = encodeURIComponent;

export const isFamilyView = (v: GameView): v is FamilyView =>
  typeof v.family === "object" && v.family !== null;

/** A power as the reports name it: `3-England` (seats already named so, as `2-Brigantia`). */
export function powerLabel(v: GameView, p: string): string {
  const name = v.seatList.find((s) => s.powers.includes(p))?.name;
  if (name === undefined) return p;
  return name.startsWith(`${p}-`) ? name : `${p}-${name}`;
}

/**
 * The part of the map around a position's units and owned areas (a viewBox: x, y, width,
 * height), with a margin, at least a fifth of the map wide and as wide as the map's own
 * proportions; null when the position has nothing on the map.
 */
export function focusBox(
  g: { width: number; height: number; provinces: Record<string, { unit: [number, number] }> },
  position: { units: Record<string, string[]>; centers?: Record<string, string[]> },
): [number, number, number, number] | null {
  const areas = [
    ...Object.values(position.units).flatMap((l) => l.map((u) => u.split(" ")[1] ?? "")),
    ...Object.values(position.centers ?? {}).flat(),
  ];
  const pts = areas.flatMap((a) => {
    const p = g.provinces[a.split("/")[0]!];
    return p ? [p.unit] : [];
  });
  if (pts.length === 0) return null;
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const ratio = g.width / g.height;
  let w = Math.max(...xs) - Math.min(...xs);
  let hgt = Math.max(...ys) - Math.min(...ys);
  const margin = Math.max(w, hgt, g.width / 20) * 0.35;
  w = Math.max(w + 2 * margin, g.width / 5);
  hgt = Math.max(hgt + 2 * margin, w / ratio);
  w = Math.max(w, hgt * ratio);
  if (w >= g.width || hgt >= g.height) return null;
  const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
  const cy = (Math.max(...ys) + Math.min(...ys)) / 2;
  const x = Math.min(Math.max(0, cx - w / 2), g.width - w);
  const y = Math.min(Math.max(0, cy - hgt / 2), g.height - hgt);
  const r = (n: number) => Math.round(n);
  return [r(x), r(y), r(w), r(hgt)];
}

/** The section "POSSIBLE COMMANDS FOR NEXT TURN" of a report, if it has one. */
export function possibleCommands(report: string): string | null {
  const lines = report.split("\n");
  const start = lines.findIndex((l) => /^POSSIBLE COMMANDS/.test(l.trim()));
  if (start === -1) return null;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => /^[-=]{10,}\s*$/.test(l));
  const body = (end === -1 ? rest : rest.slice(0, end)).join("\n").replace(/\s+$/, "");
  return body.trim() === "" ? null : body;
}

/** One verdict per line: ✓ and the line, or ✗, the line and why the judge refused it. */
function verdictList(list: readonly Verdict[]): HTMLElement {
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

export async function familyPage(app: HTMLElement, id: string, first: FamilyView): Promise<void> {
  let view = first;
  const base = `/api/games/${enc(id)}`;
  const powerName = (p: string) => powerLabel(view, p);
  const gm = () => view.you?.role === "gm";
  const seated = () => view.you?.role === "player" && view.you.powers.length > 0;

  const meta = h("p", { class: "meta", "aria-live": "polite" });
  const showMeta = () =>
    fill(
      meta,
      `${view.family.name} · ${view.family.players} players · `,
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
        : "",
      view.you
        ? ` · you: ${view.you.role}${view.you.powers.length ? ` (${view.you.powers.map(powerName).join(", ")})` : ""}`
        : "",
    );
  showMeta();

  // The world map (Global Diplomacy only: an Age of Discovery map is the game's own, and a
  // player's part of it is drawn as text in the report).
  const commands = h("textarea", {
    rows: 8,
    class: "commands",
    "aria-label": "commands",
    spellcheck: "false",
    autocapitalize: "characters",
    autocomplete: "off",
    placeholder: "MO 20 19\nSA 20 17 3\nSP 0203",
  });
  const board =
    view.family.id === "global"
      ? new Board("map", (area) => {
          // A click on an area writes its number where the cursor is in the command box.
          const at = commands.selectionStart ?? commands.value.length;
          const before = commands.value.slice(0, at);
          const pad = before === "" || /[\s]$/.test(before) ? "" : " ";
          commands.setRangeText(`${pad}${area} `, at, commands.selectionEnd ?? at, "end");
          commands.focus();
        })
      : null;
  // A player's map is framed on its own areas (the world is 5000 units wide), the GM's on
  // the world; a button switches between the two.
  let whole = gm();
  const frame = h(
    "button",
    {
      type: "button",
      class: "secondary map-frame",
      onclick: () => {
        whole = !whole;
        void drawMap();
      },
    },
    "",
  );
  const drawMap = async () => {
    if (!board) return;
    await board.show(view.position);
    const svg = board.el.querySelector("svg");
    const box = whole ? null : focusBox(await geometry(view.position.variant), view.position);
    if (svg && box) svg.setAttribute("viewBox", box.join(" "));
    fill(
      frame,
      whole ? (gm() ? "Show the powers' areas" : "Show my areas") : "Show the whole world",
    );
    frame.hidden = focusBox(await geometry(view.position.variant), view.position) === null;
  };

  const reports = reportCard(base, () => view, powerName);
  const panels: Panel[] = [];
  if (seated()) panels.push(commandsPanel(base, () => view, commands, reports));
  if (gm()) panels.push(turnsPanel(base, () => view, powerName));
  if (gm()) panels.push(gmPanel(base, () => view, reload));
  if (panels.length === 0) panels.push(seatsPanel(() => view));

  async function reload(): Promise<void> {
    const next = await get<GameView>(base);
    if (!isFamilyView(next)) return;
    view = next;
    showMeta();
    // The report first: the commands panel shows its possible commands.
    await Promise.all([drawMap(), reports.refresh().then(() => active()?.show())]);
  }

  const { tabs, body, choose, active } = tabbed(panels, "game");

  fill(
    app,
    h(
      "div",
      { class: "game-head" },
      h("h1", {}, view.name),
      meta,
      board
        ? h(
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
          )
        : null,
    ),
    !session.token ? loginForm(() => location.reload()) : null,
    h(
      "div",
      { class: "game family" },
      h(
        "div",
        { class: "family-main" },
        board ? h("div", { class: "family-map" }, board.el, frame) : null,
        reports.el,
      ),
      h("aside", {}, tabs, body),
    ),
  );
  await Promise.all([reports.refresh().then(() => choose(panels[0]!)), drawMap()]);
  liveUpdates(id, reload);
}

/**
 * The viewer's report: the last adjudicated turn's (before turn 1, the opening report), and
 * every earlier turn's by stepping back. The GM chooses whose report to read.
 */
function reportCard(base: string, view: () => FamilyView, powerName: (p: string) => string) {
  const el = h("section", { class: "card report-card", "aria-label": "report" });
  const pre = h("pre", { class: "report", tabindex: "0" });
  const title = h("h2", {});
  const out = h("div", { "aria-live": "polite" });
  let turn: number | null = null; // null: the latest
  let shownTurns = -1;
  let power: string | null = null;
  let latest: Report | null = null;

  const turnsAvailable = (): number[] => {
    const f = view().family;
    const first = f.turn - f.turnsAdjudicated;
    return Array.from({ length: f.turnsAdjudicated }, (_, i) => first + i);
  };
  const whose = (): string | null => {
    const v = view();
    if (v.you?.role === "gm") return power ?? v.seatList[0]?.powers[0] ?? null;
    return v.you?.powers[0] ?? null;
  };
  const wrap = h(
    "button",
    {
      type: "button",
      class: "secondary",
      "aria-pressed": "false",
      onclick: (e: Event) => {
        const on = pre.classList.toggle("wrap");
        (e.currentTarget as HTMLElement).setAttribute("aria-pressed", String(on));
      },
    },
    "Wrap lines",
  );

  const load = async () => {
    const v = view();
    const p = whose();
    if (!v.you || (v.you.role !== "gm" && v.you.powers.length === 0) || p === null) {
      fill(
        el,
        h("h2", {}, "Reports"),
        h(
          "p",
          {},
          `Each player reads only its own report${v.you ? "" : " (log in)"}; the game master reads every power's.`,
        ),
      );
      return;
    }
    const turns = turnsAvailable();
    if (turn !== null && !turns.includes(turn)) turn = null;
    const q = new URLSearchParams();
    if (v.you.role === "gm") q.set("power", p);
    if (turn !== null) q.set("turn", String(turn));
    let r: Report;
    try {
      const qs = q.toString();
      r = await get<Report>(`${base}/report${qs ? `?${qs}` : ""}`);
    } catch (e) {
      fill(el, h("h2", {}, "Report"), message((e as Error).message, "error"));
      return;
    }
    if (turn === null && v.you.role !== "gm") latest = r;
    const at = turn ?? turns.at(-1) ?? null;
    const step = (d: number) => {
      const i = turns.indexOf(at ?? -1) + d;
      const t = turns[i];
      if (t === undefined) return;
      turn = i === turns.length - 1 ? null : t;
      void load();
    };
    const turnSelect =
      turns.length > 0
        ? h(
            "select",
            { "aria-label": "turn" },
            turns.map((t) => h("option", { value: String(t), selected: t === at }, `Turn ${t}`)),
          )
        : null;
    turnSelect?.addEventListener("change", () => {
      const t = Number(turnSelect.value);
      turn = t === turns.at(-1) ? null : t;
      void load();
    });
    const powerSelect =
      v.you.role === "gm"
        ? h(
            "select",
            { "aria-label": "power" },
            v.seatList.flatMap((s) =>
              s.powers.map((x) => h("option", { value: x, selected: x === p }, powerLabel(v, x))),
            ),
          )
        : null;
    powerSelect?.addEventListener("change", () => {
      power = powerSelect.value;
      void load();
    });
    fill(
      title,
      r.turn === 0
        ? `Opening report of ${powerName(r.power)}`
        : `Turn ${r.turn} report of ${powerName(r.power)}`,
    );
    fill(pre, r.report);
    const i = turns.indexOf(at ?? -1);
    fill(
      el,
      title,
      h(
        "div",
        { class: "row wrap stepper" },
        powerSelect,
        turns.length > 0
          ? [
              h(
                "button",
                {
                  type: "button",
                  disabled: i <= 0,
                  "aria-label": "earlier turn",
                  onclick: () => step(-1),
                },
                "◀",
              ),
              turnSelect,
              h(
                "button",
                {
                  type: "button",
                  disabled: i === -1 || i >= turns.length - 1,
                  "aria-label": "later turn",
                  onclick: () => step(1),
                },
                "▶",
              ),
            ]
          : h("span", { class: "hint" }, "No turn adjudicated yet: the opening report."),
        wrap,
      ),
      pre,
      out,
    );
  };

  return {
    el,
    /** The latest report of the viewer's own power, once loaded (for its possible commands). */
    latest: () => latest,
    async refresh() {
      const n = view().family.turnsAdjudicated;
      if (n !== shownTurns) {
        // A new turn was adjudicated: show its report.
        turn = null;
        shownTurns = n;
      }
      await load();
    },
  };
}

/** The player's command set: typed as the seed writes them, answered line by line. */
function commandsPanel(
  base: string,
  view: () => FamilyView,
  commands: HTMLTextAreaElement,
  reports: { latest(): Report | null },
): Panel {
  const el = h("div", {});
  const status = h("div", { "aria-live": "polite" });
  const verdicts = h("div", { class: "verdict-list" });
  let shownPhase: string | null = null;
  const onFile = (set: CommandSet | undefined) =>
    set
      ? message(
          `Set on file for ${view().phase}: ${set.orders.length} command(s)${set.final ? ", final" : ""}, received ${set.receivedAt ? new Date(set.receivedAt).toLocaleString() : ""}.`,
          "info",
        )
      : message(`No commands on file for ${view().phase}: your units will stand.`, "info");
  const send = async (final: boolean) => {
    const v = view();
    try {
      const r = await post<{
        phase: string;
        final: boolean;
        receivedAt: string;
        diagnostics: Verdict[];
      }>(`${base}/orders`, { orders: commands.value, final, phase: v.phase });
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
    } catch (e) {
      fill(status, message((e as Error).message, "error"));
    }
  };
  return {
    title: "Commands",
    el,
    async show() {
      const v = view();
      if (v.state !== "open" && v.state !== "paused") {
        shownPhase = null;
        fill(
          el,
          h(
            "p",
            {},
            v.state === "forming"
              ? "The game starts when every seat is taken."
              : "The game is over: your last report is beside.",
          ),
        );
        return;
      }
      if (shownPhase === v.phase && el.contains(commands)) return;
      shownPhase = v.phase;
      let mine: CommandSet | undefined;
      try {
        const current = await get<{ phase: string; sets: CommandSet[] }>(`${base}/orders`);
        mine = current.sets.find((s) => v.you?.powers.includes(s.power));
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        fill(status, message(e.message, "error"));
      }
      commands.value = mine ? mine.orders.join("\n") : "";
      fill(verdicts, mine?.diagnostics.length ? verdictList(mine.diagnostics) : null);
      fill(status, onFile(mine));
      const possible = possibleCommands(reports.latest()?.report ?? "");
      fill(
        el,
        h(
          "p",
          { class: "meta" },
          `${v.phase}: commands for ${v.you?.powers.map((p) => powerLabel(v, p)).join(", ")}`,
        ),
        h(
          "p",
          { class: "hint" },
          "One command per line, areas and powers by number, as the rules write them (MO 20 19, SA 20 17 3, SP 0203). Each set you send replaces the last one whole.",
        ),
        commands,
        h(
          "div",
          { class: "row" },
          h("button", { type: "button", onclick: () => void send(false) }, "Send commands"),
          v.options && (v.options as { resolveEarly?: boolean }).resolveEarly
            ? h(
                "button",
                { type: "button", class: "secondary", onclick: () => void send(true) },
                "Send as final",
              )
            : null,
        ),
        status,
        verdicts,
        possible
          ? h(
              "details",
              { class: "possible" },
              h("summary", {}, "Possible commands (from your last report)"),
              h("pre", { class: "report" }, possible),
            )
          : null,
      );
    },
  };
}

/** The GM: the command sets received for the open turn and every adjudicated turn's. */
function turnsPanel(base: string, view: () => FamilyView, powerName: (p: string) => string) {
  const el = h("div", {});
  const setList = (orders: Record<string, string[]>, missed: readonly string[] = []) =>
    h(
      "ul",
      { class: "turn-sets" },
      Object.entries(orders)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([p, list]) =>
          h(
            "li",
            {},
            h("strong", {}, powerName(p)),
            list.length === 0 ? ": (empty set)" : null,
            list.length ? h("pre", { class: "report" }, list.join("\n")) : null,
          ),
        ),
      missed.length
        ? h("li", { class: "hint" }, `No commands: ${missed.map(powerName).join(", ")}`)
        : null,
    );
  return {
    title: "Turns",
    el,
    async show() {
      const v = view();
      const open =
        v.state === "open" || v.state === "paused"
          ? await get<{ phase: string; sets: CommandSet[] }>(`${base}/orders`)
          : null;
      const all = await get<{ turns: FamilyTurn[] }>(`${base}/turns`);
      const received: Record<string, string[]> = {};
      for (const s of open?.sets ?? []) received[s.power] = s.orders;
      fill(
        el,
        open
          ? [
              h("h3", {}, `${open.phase}: commands received (seen only by you)`),
              open.sets.length
                ? setList(
                    received,
                    v.toOrder.filter((p) => !(p in received)),
                  )
                : h("p", {}, "None yet."),
            ]
          : null,
        h("h3", {}, "Adjudicated turns"),
        all.turns.length === 0
          ? h("p", {}, "None yet.")
          : h(
              "ol",
              { class: "turn-list", reversed: true },
              [...all.turns]
                .reverse()
                .map((t) =>
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
                      setList(t.orders, t.missed),
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
    },
  };
}

/** The GM's controls of a family game: start, pause, resume, resolve now, extend; seats. */
function gmPanel(base: string, view: () => FamilyView, reload: () => Promise<void>): Panel {
  const el = h("div", { class: "gm" });
  const { out, act, btn, turnButtons, extendRow } = gmTools(base, reload);
  const download = async () => {
    const url = view().family.moderatorMap;
    if (!url) return;
    try {
      const map = await get<unknown>(url);
      const blob = new Blob([JSON.stringify(map, null, 1)], { type: "application/json" });
      const a = h("a", {
        href: URL.createObjectURL(blob),
        download: `moderator-map-${view().id}.json`,
      });
      a.click();
      fill(out, message("The moderator map was downloaded (JSON, the map's own frame).", "ok"));
    } catch (e) {
      fill(out, message(`Moderator map: ${(e as Error).message}`, "error"));
    }
  };
  return {
    title: "Game master",
    el,
    async show() {
      const v = view();
      fill(
        el,
        h("h3", {}, "Turn"),
        h(
          "div",
          { class: "row wrap" },
          ...turnButtons(v.state),
          v.state === "open"
            ? btn(
                "Resolve now",
                () =>
                  void act("Deadline set to now: the turn is adjudicated in a moment", () =>
                    post(`${base}/gm/deadline`, { at: new Date().toISOString() }),
                  ),
                "",
              )
            : null,
        ),
        v.state === "open" || v.state === "paused" ? extendRow() : null,
        v.family.moderatorMap
          ? [
              h("h3", {}, "The whole map"),
              h(
                "p",
                {},
                "Only you may read the generated map of every area (players see theirs in their reports, in their own names).",
              ),
              btn("Download the moderator map (JSON)", () => void download()),
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
              h("a", { href: `/join/${enc(i.code)}` }, `${location.origin}/join/${i.code}`),
            ),
          ),
        ),
        seatList(v),
        h(
          "p",
          { class: "hint" },
          "Press, votes, corrections and replacing players are not part of these games: ME commands are their press.",
        ),
        out,
      );
    },
  };
}

function seatList(v: FamilyView): HTMLElement {
  return h(
    "div",
    {},
    h("h3", {}, "Seats"),
    h(
      "ul",
      { class: "seats" },
      v.seatList.map((s) =>
        h("li", {}, `${s.powers.join(", ")}. ${s.name}: ${s.player ?? "free"}`),
      ),
    ),
  );
}

/** For observers and visitors: who plays. */
function seatsPanel(view: () => FamilyView): Panel {
  const el = h("div", {});
  return {
    title: "Seats",
    el,
    async show() {
      fill(el, seatList(view()));
      append(el, [
        h(
          "p",
          { class: "hint" },
          "Commands and reports are seen only by their power's player and the game master.",
        ),
      ]);
    },
  };
}
