import { fill, h } from "./dom.ts";
import type { LegalChoice, LegalUnit, LegalView, LineDiag } from "./types.ts";

/*
 * Giving orders two ways, one text. Clicking: a unit (on the map or in the list), then an
 * action, then a target (on the map or in the list); only legal choices are offered (from
 * the legal orders the server computed). Typing: the same text area, read by the server's
 * order reader as you type (debounced), with a diagnostic per line. A click writes the
 * canonical order into the text (replacing that unit's line), so both ways end in the same
 * order set, and the canonical orders listed are what the reader understood.
 */

/**
 * Why a line was refused, as a player says it: "illegal" when the judge read the order and
 * the rules refuse it (a move to a province not adjacent), "not understood" when the text
 * could not be read (the parser points at where) or could be read several ways.
 */
export function refusal(d: LineDiag): "illegal" | "not understood" {
  if (d.start !== undefined || d.suggestions?.length || !d.message) return "not understood";
  return d.message === "not understood" ? "not understood" : "illegal";
}

export interface PadOptions {
  /** Write a power's name above its orders (a seat or a sandbox with several powers). */
  readonly headers: boolean;
  /** Reads the text: a diagnostic per line, or an error for the whole set. */
  readonly check: (text: string) => Promise<LineDiag[]>;
  /** The orders understood, after every check (to draw them). */
  readonly onOrders: (orders: { power: string; text: string }[]) => void;
  /**
   * The unit being ordered and the places clicked so far (to highlight them), and where the
   * next click may go (its legal moves, or the units a support or convoy may help).
   */
  readonly onSelect?: (selected: string[], targets: string[]) => void;
  readonly powerName?: (id: string) => string;
}

const KIND_LABEL: Record<string, string> = {
  hold: "Hold",
  move: "Move",
  support: "Support",
  convoy: "Convoy",
  retreat: "Retreat",
  disband: "Disband",
  build: "Build",
  remove: "Remove",
  waive: "Waive",
};

/** The province an order's unit stands in (`A stp/sc S ...` → stp); null for waive. */
export function orderProvince(order: string): string | null {
  const m =
    /^(?:build\s+)?[A-Za-z]\s+([a-z0-9_]+)/i.exec(order) ?? /^remove\s+([a-z0-9_]+)/i.exec(order);
  return m ? m[1]!.toLowerCase() : null;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/**
 * What a power's orders understood do of its adjustments: builds (a waive counts, as a build
 * given up on purpose) and removals.
 */
export function adjustmentsOrdered(
  orders: readonly { power: string; text: string }[],
  power: string,
): { builds: number; removals: number } {
  const mine = orders.filter((o) => o.power === power).map((o) => o.text);
  return {
    builds: mine.filter((t) => /^(?:build|waive)\b/i.test(t)).length,
    removals: mine.filter((t) => /^remove\b/i.test(t)).length,
  };
}

/**
 * Whether a power's adjustment is builds or removals: the legal view's `counts` say how many
 * orders it gives either way (a positive count), its choices say which.
 */
function removing(legal: LegalView, power: string): boolean {
  return legal.units.some((u) => u.power === power && u.orders.some((o) => o.kind === "remove"));
}

/** A power's adjustment as a signed number: builds due (+) or removals owed (−). */
export function signedDue(legal: LegalView, power: string): number {
  const n = Math.abs(legal.counts[power] ?? 0);
  return removing(legal, power) ? -n : n;
}

/**
 * An adjustment set that leaves builds or removals unordered, said as the player must hear
 * it before sending it final (the judge accepts it: builds not ordered are waived, removals not
 * ordered are chosen by the civil-disorder rule); null when every one is ordered.
 */
export function shortAdjustments(
  legal: LegalView | null,
  orders: readonly { power: string; text: string }[],
  powers: readonly string[],
  name: (p: string) => string,
): string | null {
  if (legal?.type !== "A") return null;
  const said: string[] = [];
  for (const p of powers) {
    const due = signedDue(legal, p);
    const done = adjustmentsOrdered(orders, p);
    if (due > done.builds) {
      const n = due - done.builds;
      said.push(
        `${name(p)}: ${plural(due, "build")} due, ${done.builds} ordered; ${n === 1 ? "1 build" : `${n} builds`} will be waived`,
      );
    } else if (-due > done.removals) {
      const n = -due - done.removals;
      said.push(
        `${name(p)}: ${plural(-due, "removal")} due, ${done.removals} ordered; the rules will remove ${plural(n, "unit")} for you (civil disorder)`,
      );
    }
  }
  return said.length ? said.join(". ") : null;
}

/** The places a choice is clicked through: the target; or the unit helped, then its goal. */
const steps = (c: LegalChoice): (string | undefined)[] =>
  c.from !== undefined ? [c.from, c.target ?? c.from] : [c.target];

export class OrderPad {
  readonly el: HTMLElement;
  readonly textarea: HTMLTextAreaElement;
  private legal: LegalView | null = null;
  private diags: LineDiag[] = [];
  private unit: LegalUnit | null = null;
  private kind: string | null = null;
  private picks: string[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private checking = 0;
  private readonly unitsEl = h("div", {
    class: "chips units",
    role: "group",
    "aria-label": "units",
  });
  private readonly actionsEl = h("div", { class: "chips", role: "group", "aria-label": "actions" });
  private readonly choicesEl = h("div", {
    class: "chips choices",
    role: "group",
    "aria-label": "targets",
  });
  private readonly diagEl = h("ol", { class: "diags", "aria-live": "polite" });
  private readonly errorEl = h("div", { "aria-live": "assertive" });

  constructor(private readonly opts: PadOptions) {
    this.textarea = h("textarea", {
      class: "orders-text",
      rows: 7,
      spellcheck: "false",
      autocapitalize: "off",
      autocomplete: "off",
      "aria-label": "orders, one per line",
      placeholder: "A par - bur\nF bre - mid\n…",
    });
    this.textarea.addEventListener("input", () => this.scheduleCheck());
    this.el = h(
      "div",
      { class: "orderpad" },
      h("h3", {}, "By clicking"),
      h(
        "p",
        { class: "hint" },
        "Choose a unit (or click it on the map), an action, then a target.",
      ),
      this.unitsEl,
      this.actionsEl,
      this.choicesEl,
      h("h3", {}, h("label", { for: "orders-text" }, "By typing")),
      this.textarea,
      this.errorEl,
      h("h3", {}, "Orders as understood"),
      this.diagEl,
    );
    this.textarea.id = "orders-text";
    this.el.addEventListener("keydown", (e) => {
      if ((e as KeyboardEvent).key === "Escape") this.select(null);
    });
  }

  setLegal(legal: LegalView | null): void {
    this.legal = legal;
    this.select(null);
  }

  get text(): string {
    return this.textarea.value;
  }

  setText(text: string): void {
    this.textarea.value = text;
    void this.runCheck();
  }

  /** The orders understood in the last check, per power. */
  get orders(): { power: string; text: string }[] {
    return this.diags
      .filter((d) => d.kind === "order" && d.ok && d.order && d.power)
      .map((d) => ({ power: d.power!, text: d.order! }));
  }

  /** A click on the map. */
  clickProvince(p: string): void {
    if (!this.legal) return;
    if (!this.unit || !this.kind) {
      const u = this.legal.units.find((x) => x.province === p);
      if (u) this.select(u);
      return;
    }
    this.picks.push(p);
    const left = this.filtered();
    if (left.length === 1) this.apply(left[0]!);
    else if (left.length === 0) {
      this.picks.pop();
      const u = this.legal.units.find((x) => x.province === p);
      if (u) this.select(u);
    } else this.render();
  }

  private filtered(): LegalChoice[] {
    if (!this.unit || !this.kind) return [];
    const all = this.unit.orders.filter((o) => o.kind === this.kind);
    return all.filter((c) => this.picks.every((p, i) => steps(c)[i] === p));
  }

  /**
   * Where the next click may go: with only a unit chosen, its moves (or retreats); with an
   * action, the next step of the choices left: the unit to help, then where it goes.
   */
  private targets(): string[] {
    const u = this.unit;
    if (!u) return [];
    const next = this.kind
      ? this.filtered().map((c) => steps(c)[this.picks.length])
      : u.orders.filter((o) => o.kind === "move" || o.kind === "retreat").map((o) => o.target);
    return [...new Set(next.filter((t): t is string => t !== undefined))];
  }

  private select(u: LegalUnit | null, kind: string | null = null): void {
    this.unit = u;
    // A build site or a unit to remove has one kind of order: offer its choices at once
    // (army or fleet, or the removal), so a click on a home centre is a build a click away.
    const kinds = new Set(u?.orders.map((o) => o.kind) ?? []);
    const only = kinds.size === 1 ? [...kinds][0]! : null;
    this.kind = kind ?? (only === "build" || only === "remove" ? only : null);
    this.picks = [];
    this.render();
  }

  private render(): void {
    // Whether the keyboard is in the pad: the buttons are drawn again, the focus goes on.
    const focused = this.el.contains(document.activeElement);
    const legal = this.legal;
    if (!legal || legal.units.length === 0) {
      fill(this.unitsEl, h("p", { class: "hint" }, "Nothing to order in this phase."));
      fill(this.actionsEl);
      fill(this.choicesEl);
      this.opts.onSelect?.([], []);
      return;
    }
    const current = new Map<string, string>();
    for (const o of this.orders) {
      const p = orderProvince(o.text);
      if (p) current.set(`${o.power}:${p}`, o.text);
    }
    const due = Object.keys(legal.counts).map((p) => [p, signedDue(legal, p)] as const);
    const counts = [
      due.map(([p, n]) => {
        const done = adjustmentsOrdered(this.orders, p);
        return h(
          "p",
          { class: "hint", "data-due": p },
          n > 0
            ? `${this.name(p)}: ${plural(n, "build")} due, ${done.builds} ordered.`
            : `${this.name(p)}: ${plural(-n, "unit")} to remove, ${done.removals} ordered.`,
        );
      }),
      due.some(([, n]) => n > 0)
        ? h(
            "p",
            { class: "hint" },
            "To build, click an empty home centre on the map (or a site here), then army or fleet.",
          )
        : null,
      due.some(([, n]) => n < 0)
        ? h("p", { class: "hint" }, "To remove, click the unit on the map (or here).")
        : null,
    ];
    fill(
      this.unitsEl,
      counts,
      legal.units.map((u) => {
        const cur = current.get(`${u.power}:${u.province}`);
        return h(
          "button",
          {
            type: "button",
            class: "chip",
            "data-unit": u.location,
            "aria-pressed": this.unit === u ? "true" : "false",
            onclick: () => this.select(this.unit === u ? null : u),
          },
          // Several powers on one pad (a sandbox): a waive names whose build it gives up.
          u.location === "waive" && Object.keys(legal.counts).length > 1
            ? `${this.name(u.power)}: ${u.label}`
            : u.label,
          cur ? h("small", {}, ` ${cur.replace(/^(?:build\s+)?\S+\s+\S+\s*/, "") || cur}`) : null,
        );
      }),
    );
    const u = this.unit;
    if (!u) {
      fill(this.actionsEl);
      fill(this.choicesEl);
      // Adjustments: the build sites and the units that may be removed, outlined on the map.
      this.opts.onSelect?.(
        [],
        legal.type === "A"
          ? legal.units.filter((x) => x.location !== "waive").map((x) => x.province)
          : [],
      );
      return;
    }
    const kinds = [...new Set(u.orders.map((o) => o.kind))];
    fill(
      this.actionsEl,
      kinds.map((k) =>
        h(
          "button",
          {
            type: "button",
            class: "chip action",
            "data-action": k,
            "aria-pressed": this.kind === k ? "true" : "false",
            onclick: () => {
              const list = u.orders.filter((o) => o.kind === k);
              if (list.length === 1) this.apply(list[0]!);
              else this.select(u, k);
            },
          },
          KIND_LABEL[k] ?? k,
        ),
      ),
    );
    const choices = this.filtered();
    const needs =
      this.kind === "support" || this.kind === "convoy"
        ? this.picks.length === 0
          ? "click the unit to help on the map, or choose:"
          : "now where it goes, or choose:"
        : this.kind === "build"
          ? `build in ${u.province}: choose`
          : this.kind === "remove"
            ? "remove this unit:"
            : "click the target on the map, or choose:";
    fill(
      this.choicesEl,
      this.kind
        ? [
            h("p", { class: "hint" }, needs),
            choices.map((c) =>
              h(
                "button",
                { type: "button", class: "chip choice", onclick: () => this.apply(c) },
                c.text,
              ),
            ),
          ]
        : null,
    );
    const firstFocus =
      this.choicesEl.querySelector("button") ?? this.actionsEl.querySelector("button");
    if (firstFocus && focused) (firstFocus as HTMLElement).focus();
    this.opts.onSelect?.([u.location, ...this.picks], this.targets());
  }

  private name(p: string): string {
    return this.opts.powerName ? this.opts.powerName(p) : p;
  }

  /** Writes a chosen order into the text: replaces the unit's line, or adds one. */
  private apply(c: LegalChoice): void {
    const u = this.unit;
    if (!u) return;
    const lines = this.textarea.value.split(/\r?\n/);
    if (lines.length === 1 && lines[0] === "") lines.length = 0;
    const province = c.kind === "waive" ? null : u.province;
    const mine = this.diags.find(
      (d) =>
        d.kind === "order" &&
        d.power === u.power &&
        province !== null &&
        d.order !== undefined &&
        orderProvince(d.order) === province,
    );
    if (mine && lines[mine.line - 1] !== undefined) {
      lines[mine.line - 1] = c.text;
    } else if (this.opts.headers) {
      const header = this.diags.find((d) => d.kind === "power" && d.power === u.power);
      if (!header) {
        lines.push(`${this.name(u.power)}:`, c.text);
      } else {
        // After the last line of that power's block.
        let at = header.line;
        for (const d of this.diags) if (d.line > at && d.power === u.power) at = d.line;
        lines.splice(at, 0, c.text);
      }
    } else {
      lines.push(c.text);
    }
    this.textarea.value = lines.join("\n");
    this.select(null);
    void this.runCheck();
  }

  private scheduleCheck(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.runCheck(), 300);
  }

  async runCheck(): Promise<void> {
    const n = ++this.checking;
    const text = this.textarea.value;
    try {
      const diags = text.trim() === "" ? [] : await this.opts.check(text);
      if (n !== this.checking) return;
      this.diags = diags;
      fill(this.errorEl);
    } catch (e) {
      if (n !== this.checking) return;
      this.diags = [];
      fill(this.errorEl, h("p", { class: "msg error", role: "alert" }, (e as Error).message));
    }
    this.showDiags();
    this.render();
    this.opts.onOrders(this.orders);
  }

  private showDiags(): void {
    fill(
      this.diagEl,
      this.diags
        .filter((d) => d.kind === "order" || d.kind === "power")
        .map((d) =>
          d.kind === "power"
            ? h("li", { class: "power" }, this.name(d.power ?? d.text))
            : h(
                "li",
                { class: d.ok ? "ok" : "bad", "data-line": d.line },
                h("span", { class: "mark", "aria-hidden": "true" }, d.ok ? "✓" : "✗"),
                d.ok
                  ? h("code", {}, d.order ?? d.text)
                  : [
                      h("code", {}, d.text),
                      " — ",
                      h("strong", { class: "refusal" }, refusal(d)),
                      d.message && d.message !== refusal(d) ? `: ${d.message}` : "",
                      d.suggestions?.length && !/did you mean/i.test(d.message ?? "")
                        ? ` (did you mean ${d.suggestions.join(", ")}?)`
                        : "",
                    ],
              ),
        ),
    );
  }
}
