/*
 * A tiny DOM helper: elements from a tag, attributes and children. Text is always added as
 * text nodes, so whatever users wrote (press, names, orders) can never become markup.
 */

export type Child = Node | string | number | null | undefined | false | readonly Child[];
type AttrValue = string | number | boolean | null | undefined | ((e: Event) => void);

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, AttrValue> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: readonly Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/**
 * A part of a page kept in place across live updates: `update(key, ...)` draws it again only
 * when `key` (what it shows, its data as text) differs from the last drawing, so a live event
 * that changed nothing it shows never replaces a link or button under the pointer.
 */
export function region<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, AttrValue> = {},
): { el: HTMLElementTagNameMap[K]; update(key: string, draw: () => Child): void } {
  const el = h(tag, attrs);
  let drawn: string | null = null;
  return {
    el,
    update(key, draw) {
      if (key === drawn) return;
      drawn = key;
      fill(el, draw());
    },
  };
}

/** Sets an element's text, leaving it untouched when it already says that. */
export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** Escapes text for the few places that build markup as a string. */
export const esc = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

/** "2h 05m", "4m 09s", "overdue" until a time. */
export function countdown(until: string | null, now = Date.now()): string {
  if (!until) return "no deadline";
  const ms = Date.parse(until) - now;
  if (ms <= 0) return "due now";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  const p2 = (n: number) => String(n).padStart(2, "0");
  if (d > 0) return `${d}d ${hh}h ${p2(mm)}m`;
  if (hh > 0) return `${hh}h ${p2(mm)}m`;
  return `${mm}m ${p2(ss)}s`;
}

/** Live countdowns: every element with data-deadline is rewritten each second. */
export function startClocks(): void {
  const tick = () => {
    for (const el of document.querySelectorAll<HTMLElement>("[data-deadline]")) {
      el.textContent = countdown(el.dataset.deadline || null);
    }
  };
  tick();
  setInterval(tick, 1000);
}

export function message(text: string, kind: "error" | "ok" | "info" = "info"): HTMLElement {
  return h("p", { class: `msg ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
}

/** A page's tab: its title, its element, and what to do when it is shown. */
export interface TabPanel {
  readonly title: string;
  readonly el: HTMLElement;
  show(): Promise<void>;
}

/** A panel that draws into a `div` of its own each time it is shown: its title and how it draws. */
export function drawnPanel(title: string, draw: (el: HTMLElement) => Promise<void>): TabPanel {
  const el = h("div", {});
  return { title, el, show: () => draw(el) };
}

/**
 * A tab bar over `panels` (ARIA tabs; arrow keys move between them) and the body that shows
 * the chosen one. `active()` is the panel shown, `choose` shows another.
 */
export function tabbed<P extends TabPanel>(
  panels: readonly P[],
  label: string,
): { tabs: HTMLElement; body: HTMLElement; choose(p: P): Promise<void>; active(): P | null } {
  let active: P | null = null;
  const tabs = h("div", { class: "tabs", role: "tablist", "aria-label": label });
  const body = h("div", { class: "panel", role: "tabpanel" });
  const choose = async (p: P) => {
    active = p;
    for (const b of tabs.querySelectorAll("button")) {
      // By its data-tab: a tab's text may carry more than the title (an unread count).
      const on = b.dataset.tab === p.title.toLowerCase();
      b.setAttribute("aria-selected", on ? "true" : "false");
      b.tabIndex = on ? 0 : -1;
    }
    fill(body, p.el);
    await p.show();
  };
  fill(
    tabs,
    panels.map((p) =>
      h(
        "button",
        {
          type: "button",
          role: "tab",
          "data-tab": p.title.toLowerCase(),
          onclick: () => void choose(p),
        },
        p.title,
      ),
    ),
  );
  tabs.addEventListener("keydown", (e) => {
    const k = (e as KeyboardEvent).key;
    if ((k !== "ArrowRight" && k !== "ArrowLeft") || active === null) return;
    const i = panels.indexOf(active);
    const next = panels[(i + (k === "ArrowRight" ? 1 : panels.length - 1)) % panels.length]!;
    void choose(next).then(() =>
      (tabs.querySelector(`[aria-selected="true"]`) as HTMLElement | null)?.focus(),
    );
  });
  return { tabs, body, choose, active: () => active };
}

/**
 * Draws `el` again with `draw`, keeping the keyboard's place: the element focused inside it
 * keeps the focus if `draw` put it back, or it goes to the button with the same `data-focus`
 * (or, without one, the same text): a panel redrawn by a live update while a keyboard user
 * is on one of its buttons.
 */
export function keepFocus(el: Element, draw: () => void): void {
  const had = document.activeElement;
  const inside = had instanceof HTMLElement && el.contains(had) ? had : null;
  draw();
  if (!inside || document.activeElement === inside) return;
  if (el.contains(inside)) inside.focus();
  else {
    const key = (e: Element) => e.getAttribute("data-focus") ?? e.textContent;
    [...el.querySelectorAll("button")].find((b) => key(b) === key(inside))?.focus();
  }
}
