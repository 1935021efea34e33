import { ApiError, get, post, session } from "./api.ts";
import { countdown, fill, h, message } from "./dom.ts";
import { lostSeatShort } from "./seat.ts";
import { mailSettings } from "./settings.ts";
import { tokenSettings } from "./tokens.ts";
import type { GameSummary, GameView } from "./types.ts";

/*
 * The lobby: log in or create an account; your games with their deadlines; create a game
 * (variant, scenario, options, chaired play); join one with an invitation code; your mail
 * settings (settings.ts).
 */

interface VariantInfo {
  id: string;
  scenarios: { id: string; description: string; seats: { name: string; powers: string[] }[] }[];
}

function field(label: string, input: HTMLElement): HTMLElement {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

export function loginForm(after: () => void): HTMLElement {
  const name = h("input", { name: "name", autocomplete: "username", required: true, minlength: 2 });
  const password = h("input", {
    name: "password",
    type: "password",
    autocomplete: "current-password",
    required: true,
  });
  // The one-time code the judge mails an account's owner while strangers guess its password:
  // asked for only when a login is paused (docs/judge.md).
  const code = h("input", { name: "code", autocomplete: "one-time-code", hidden: true });
  const codeField = field("One-time code from the judge's mail", code);
  codeField.hidden = true;
  const out = h("div", { "aria-live": "polite" });
  const go = async (path: string) => {
    const who = name.value.trim();
    // This browser's login device token for the account: guessing by others never pauses it.
    const deviceKey = `entente.device.${who.normalize("NFKC").toLowerCase()}`;
    try {
      const device = localStorage.getItem(deviceKey);
      const r = await post<{ token: string; device?: string; user: { name: string } }>(path, {
        name: who,
        password: password.value,
        ...(device && path === "/api/login" ? { device } : {}),
        ...(code.value.trim() && path === "/api/login" ? { code: code.value.trim() } : {}),
      });
      if (r.device) localStorage.setItem(deviceKey, r.device);
      session.set(r.token, r.user.name);
      after();
    } catch (e) {
      if (e instanceof ApiError && e.status === 429 && /one-time code/.test(e.message)) {
        codeField.hidden = false;
        code.hidden = false;
      }
      fill(out, message((e as Error).message, "error"));
    }
  };
  const form = h(
    "form",
    { class: "card login", "aria-label": "log in" },
    h("h2", {}, "Log in"),
    field("Name", name),
    field("Password", password),
    codeField,
    h(
      "div",
      { class: "row" },
      h("button", { type: "submit" }, "Log in"),
      h(
        "button",
        { type: "button", class: "secondary", onclick: () => void go("/api/users") },
        "Create account",
      ),
    ),
    out,
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void go("/api/login");
  });
  return form;
}

/** The columns of a list of games; a phone shows each name before its value (style/). */
const COLUMNS = ["Game", "Variant", "You", "Status", "Phase", "Deadline", "Players"];

function gameRow(g: GameSummary): HTMLElement {
  const cells = [
    h("a", { href: `/game/${encodeURIComponent(g.id)}` }, g.name),
    `${g.variant} (${g.scenario})`,
    g.lostSeat ? lostSeatShort(g.lostSeat) : (g.role ?? ""),
    g.status,
    g.phase ?? "–",
    g.deadline ? h("span", { "data-deadline": g.deadline }, countdown(g.deadline)) : "–",
    g.bots
      ? `${g.players}/${g.seats} + ${g.bots} bot${g.bots === 1 ? "" : "s"}`
      : `${g.players}/${g.seats}`,
  ];
  return h(
    "tr",
    {},
    cells.map((c, i) => h("td", { "data-label": COLUMNS[i]! }, c)),
  );
}

function gameTable(games: GameSummary[], withRole: boolean): HTMLElement {
  if (games.length === 0) return h("p", {}, "None yet.");
  return h(
    "table",
    { class: "games" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        COLUMNS.map((t) => h("th", {}, t === "You" && !withRole ? "" : t)),
      ),
    ),
    h("tbody", {}, games.map(gameRow)),
  );
}

function createForm(variants: VariantInfo[]): HTMLElement {
  const name = h("input", { name: "game-name", required: true, maxlength: 80 });
  const label = h("input", {
    name: "game-label",
    maxlength: 12,
    placeholder: "GD001",
    autocomplete: "off",
  });
  const variant = h(
    "select",
    { name: "variant" },
    variants.map((v) => h("option", { value: v.id }, v.id)),
  );
  const scenario = h("select", { name: "scenario" });
  const fillScenarios = () => {
    const v = variants.find((x) => x.id === variant.value);
    fill(
      scenario,
      (v?.scenarios ?? []).map((s) =>
        h("option", { value: s.id }, `${s.id}: ${s.description}`.slice(0, 90)),
      ),
    );
  };
  variant.addEventListener("change", fillScenarios);
  fillScenarios();
  const unit = h(
    "select",
    { name: "unit" },
    ["days", "hours", "minutes"].map((u) => h("option", { value: u }, u)),
  );
  const num = (n: string, v: number) =>
    h("input", { name: n, type: "number", min: "0.01", step: "any", value: String(v) });
  const movement = num("movement", 3);
  const retreats = num("retreats", 1);
  const adjustments = num("adjustments", 1);
  const early = h("input", { type: "checkbox", name: "resolveEarly" });
  const chaired = h("input", { type: "checkbox", name: "chaired" });
  /** Powers, comma-separated. */
  const powers = (name: string, placeholder: string) =>
    h("input", { name, placeholder, autocomplete: "off", maxlength: 200 });
  // Seats for built-in players (docs/judge.md, "Built-in players").
  const bots = powers("bots", "e.g. France, Turkey");
  const takeover = h("input", { type: "checkbox", name: "botTakeover" });
  // Seats kept for DAIDE clients (docs/daide.md): on a judge started with --daide-ports.
  const daide = powers("daide", "e.g. England, Russia");
  const out = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card", "aria-label": "create a game" },
    h("h2", {}, "Create a game"),
    h("div", { class: "row" }, field("Name", name), field("Game id (optional)", label)),
    h("div", { class: "row" }, field("Variant", variant), field("Scenario", scenario)),
    h(
      "fieldset",
      {},
      h("legend", {}, "Deadlines"),
      h(
        "div",
        { class: "row" },
        field("Unit", unit),
        field("Movement", movement),
        field("Retreats", retreats),
        field("Adjustments", adjustments),
      ),
    ),
    h("label", { class: "check" }, early, " Resolve as soon as every power's orders are final"),
    h("div", { class: "row" }, field("Played by built-in players (optional)", bots)),
    h(
      "div",
      { class: "row" },
      field("Kept for DAIDE clients, AI programs (optional; docs/daide.md)", daide),
    ),
    h(
      "label",
      { class: "check" },
      takeover,
      " A built-in player plays a power whose player misses orders, until the player is back",
    ),
    h(
      "label",
      { class: "check" },
      chaired,
      " Chaired session: no deadlines, the chair reveals and resolves (seed 000)",
    ),
    h("button", { type: "submit" }, "Create"),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const botPowers = bots.value
        .split(/[,;]/)
        .map((w) => w.trim())
        .filter((w) => w !== "");
      const daidePowers = daide.value
        .split(/[,;]/)
        .map((w) => w.trim())
        .filter((w) => w !== "");
      const g = await post<GameView>("/api/games", {
        name: name.value,
        variant: variant.value,
        scenario: scenario.value,
        ...(label.value.trim() ? { label: label.value.trim() } : {}),
        options: {
          deadlines: {
            unit: unit.value,
            movement: Number(movement.value),
            retreats: Number(retreats.value),
            adjustments: Number(adjustments.value),
          },
          resolveEarly: early.checked,
          ...(takeover.checked ? { botTakeover: true } : {}),
        },
        ...(botPowers.length > 0
          ? { bots: Object.fromEntries(botPowers.map((p) => [p, "default"])) }
          : {}),
        ...(daidePowers.length > 0 ? { daide: daidePowers } : {}),
      });
      if (chaired.checked) await post(`/api/games/${g.id}/chair`, { on: true });
      location.href = `/game/${encodeURIComponent(g.id)}`;
    } catch (err) {
      fill(out, message((err as Error).message, "error"));
    }
  });
  return form;
}

/**
 * One click to a practice game: you play a power drawn at random, built-in players the others
 * (six in classical Diplomacy, ten in Global Diplomacy); it starts at once and each phase
 * resolves when your orders are final.
 */
function practiceForm(): HTMLElement {
  const out = h("div", { role: "status" });
  const buttons: HTMLElement[] = [];
  const start = (variant: string | undefined) => async () => {
    for (const b of buttons) b.setAttribute("disabled", "");
    try {
      const g = await post<GameView>("/api/practice", variant ? { variant } : {});
      location.href = `/game/${encodeURIComponent(g.id)}`;
    } catch (err) {
      for (const b of buttons) b.removeAttribute("disabled");
      fill(out, message((err as Error).message, "error"));
    }
  };
  buttons.push(
    h("button", { type: "button", onclick: start(undefined) }, "Practise against six bots"),
    h(
      "button",
      { type: "button", onclick: start("global") },
      "Practise Global Diplomacy against ten bots",
    ),
  );
  return h(
    "section",
    { class: "card", "aria-label": "practice" },
    h("h2", {}, "Practice"),
    h(
      "p",
      { class: "hint" },
      "A game of your own: you play one power, built-in players the others. It starts at once; each phase is resolved as soon as your orders are final.",
    ),
    h("div", { class: "row" }, ...buttons),
    out,
  );
}

function joinForm(): HTMLElement {
  const code = h("input", { name: "invite", required: true, autocomplete: "off" });
  const form = h(
    "form",
    { class: "card", "aria-label": "join a game" },
    h("h2", {}, "Join with an invitation"),
    field("Invitation code or link", code),
    h("button", { type: "submit" }, "Look"),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const c = code.value.trim().replace(/^.*\/join\//, "");
    if (c) location.href = `/join/${encodeURIComponent(c)}`;
  });
  return form;
}

export async function lobbyPage(app: HTMLElement): Promise<void> {
  const [games, variants] = await Promise.all([
    get<GameSummary[]>("/api/games"),
    get<VariantInfo[]>("/api/variants"),
  ]);
  if (!session.token) {
    fill(
      app,
      h("h1", {}, "Entente judge"),
      h(
        "div",
        { class: "cols" },
        loginForm(() => location.reload()),
        h("section", {}, h("h2", {}, `All games (${games.length})`), gameTable(games, false)),
      ),
    );
    return;
  }
  let mine: GameSummary[] = [];
  try {
    mine = await get<GameSummary[]>("/api/my/games");
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return lobbyPage(app);
    throw e;
  }
  fill(
    app,
    h("h1", {}, "Entente judge"),
    h("section", { "aria-label": "my games" }, h("h2", {}, "My games"), gameTable(mine, true)),
    h("div", { class: "cols" }, createForm(variants), joinForm()),
    practiceForm(),
    h("section", {}, h("h2", {}, `All games (${games.length})`), gameTable(games, false)),
    await mailSettings(),
    await tokenSettings(() => void lobbyPage(app)),
  );
}

interface InviteInfo {
  game: {
    id: string;
    name: string;
    variant: string;
    variantName?: string;
    status: string;
    phase: string | null;
    deadline: string | null;
  };
  role: string;
  seat: number | null;
  freeSeats: { index: number; name: string; powers: string[]; bot?: string }[];
}

/** What an invitation is for, in a line: the game's variant, its phase and deadline. */
function inviteSummary(i: Partial<InviteInfo>): string {
  const g = i.game;
  if (!g) return "";
  const variant = g.variantName ?? g.variant;
  const when =
    g.status === "forming"
      ? "it starts when its seats are taken"
      : g.phase
        ? `now ${g.phase}${g.deadline ? `, due by ${new Date(g.deadline).toUTCString()}` : ""}`
        : g.status;
  return `${variant}; ${when}.`;
}

export async function joinPage(app: HTMLElement, code: string): Promise<void> {
  // The invitation's public lookup: the game's name, variant and deadline, before any login.
  let info: Record<string, unknown> = {};
  try {
    info = await get<Record<string, unknown>>(`/api/invites/${encodeURIComponent(code)}`);
  } catch (e) {
    fill(app, h("h1", {}, "Join a game"), message((e as Error).message, "error"));
    return;
  }
  const i = info as unknown as Partial<InviteInfo> & Record<string, unknown>;
  if (!session.token) {
    fill(
      app,
      h("h1", {}, `Join ${i.game?.name ?? "a game"}`),
      h("p", {}, inviteSummary(i)),
      h(
        "p",
        {},
        `Invitation for a ${String(i.role ?? "player")}: log in or create an account to join.`,
      ),
      loginForm(() => location.reload()),
    );
    return;
  }
  const out = h("div", { "aria-live": "polite" });
  const accept = async (seat?: number) => {
    try {
      const g = await post<GameView>(
        `/api/invites/${encodeURIComponent(code)}`,
        seat === undefined ? {} : { seat },
      );
      location.href = `/game/${encodeURIComponent(g.id)}`;
    } catch (e) {
      fill(out, message((e as Error).message, "error"));
    }
  };
  const seats = Array.isArray(i.freeSeats) ? i.freeSeats : [];
  const gameName =
    typeof i.game === "object" && i.game ? (i.game as { name?: string }).name : undefined;
  fill(
    app,
    h("h1", {}, `Join ${gameName ?? "the game"}`),
    h("p", {}, inviteSummary(i)),
    h("p", {}, `Invitation for a ${String(i.role ?? "player")}.`),
    seats.length > 0
      ? h(
          "div",
          { class: "chips" },
          seats.map((s) =>
            h(
              "button",
              { type: "button", class: "chip", onclick: () => void accept(s.index) },
              s.bot ? `${seatWords(s)}: played by bot ${s.bot}` : seatWords(s),
            ),
          ),
        )
      : h("button", { type: "button", onclick: () => void accept() }, "Accept"),
    out,
  );
}

/**
 * A seat as a player reads it: its name, and its powers only where they say more than the
 * name ("Austria", not "Austria (austria)"; "Seat 1 (england, france)").
 */
export function seatWords(s: { name: string; powers: readonly string[] }): string {
  const same = (p: string) => p.toLowerCase() === s.name.toLowerCase();
  return s.powers.length === 0 || s.powers.every(same)
    ? s.name
    : `${s.name} (${s.powers.join(", ")})`;
}
