import { h } from "./dom.ts";

/*
 * Zoom and pan of the board, on the SVG's viewBox (no framework): the wheel (around the
 * pointer), a pinch of two fingers, a drag to pan, the + / − / fit buttons, and the keyboard
 * on the focused map (+, −, the arrows, 0 to fit). The view is kept in map units, so it stays
 * while the board is drawn again (a new phase, an order clicked). Labels carrying a
 * `data-min-zoom` (small provinces, names a unit would cover: src/render/geometry.ts) are
 * shown only from that zoom on, and those carrying a `data-max-zoom` (an abbreviation, a world
 * area's number) only below it, where the province's full name (`.zoom-name`, hidden in the
 * drawing itself) takes its place. The deepest zoom reaches every name's: at least 12, and
 * 1.25 × the highest `data-min-zoom` of the board (the world's small names).
 */

type Box = [number, number, number, number];

const MAX = 12;

/** The deepest zoom of a board: MAX, or deeper where its smallest names need it. */
function deepest(svg: SVGSVGElement): number {
  let top = 0;
  for (const l of svg.querySelectorAll("[data-min-zoom]")) {
    top = Math.max(top, Number(l.getAttribute("data-min-zoom")) || 0);
  }
  return Math.max(MAX, Math.ceil(top * 1.25));
}

export class Zoom {
  /** The view the user chose (map units), or null: the board fitted whole. */
  private view: Box | null = null;
  private fit: Box = [0, 0, 1, 1];
  private max = MAX;
  private svg: SVGSVGElement | null = null;
  readonly controls: HTMLElement;

  constructor(private readonly host: HTMLElement) {
    const button = (label: string, text: string, act: () => void) =>
      h(
        "button",
        { type: "button", class: "secondary", "aria-label": label, title: label, onclick: act },
        text,
      );
    this.controls = h(
      "div",
      { class: "zoom-controls", role: "group", "aria-label": "zoom" },
      button("zoom in", "+", () => this.by(1.5)),
      button("zoom out", "−", () => this.by(1 / 1.5)),
      // One tap to the whole board (a phone opens close up: board.ts `readable`).
      button("fit the map", "whole map", () => this.reset()),
    );
    host.tabIndex = 0;
    host.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    host.addEventListener("keydown", (e) => this.key(e));
    this.touch();
  }

  /** The zoom: the fitted width over the width shown (1 when fitted). */
  get level(): number {
    return this.fit[2] / (this.view ?? this.fit)[2];
  }

  get zoomed(): boolean {
    return this.view !== null;
  }

  /**
   * A board just drawn: `fit` is its whole view (its viewBox as drawn, or a frame's); the
   * user's view, if any, is put back on it.
   */
  attach(svg: SVGSVGElement | null, fit?: Box): void {
    this.svg = svg;
    if (!svg) return;
    // The board's own viewBox, kept on it before any zoom changes the attribute.
    svg.dataset.fit ??= svg.getAttribute("viewBox") ?? "0 0 1 1";
    this.fit = fit ?? (svg.dataset.fit.split(/\s+/).map(Number) as Box);
    this.max = deepest(svg);
    // The element takes the shape of what it shows (a player's frame is not the whole map's
    // shape): no band of the page's background beside the drawing.
    svg.style.aspectRatio = fit ? `${fit[2]} / ${fit[3]}` : "";
    this.apply();
  }

  /** The board's whole view (map units): the fitted board, or the frame it was given. */
  get whole(): Box {
    return this.fit;
  }

  /** The deepest zoom of this board. */
  get deepest(): number {
    return this.max;
  }

  /** Shows the board at `level` around a point of the map (kept inside the board). */
  look(level: number, at: [number, number]): void {
    const l = Math.min(this.max, Math.max(1, level));
    if (l === 1) {
      this.reset();
      return;
    }
    const w = this.fit[2] / l;
    const hgt = this.fit[3] / l;
    this.set([at[0] - w / 2, at[1] - hgt / 2, w, hgt]);
  }

  reset(): void {
    this.view = null;
    this.apply();
  }

  /** Zooms by `f` around a point of the map (its centre when none is given). */
  by(f: number, at?: [number, number]): void {
    const v = this.view ?? this.fit;
    const level = Math.min(this.max, Math.max(1, this.fit[2] / (v[2] / f)));
    if (level === 1) {
      this.reset();
      return;
    }
    const w = this.fit[2] / level;
    const hgt = this.fit[3] / level;
    const [cx, cy] = at ?? [v[0] + v[2] / 2, v[1] + v[3] / 2];
    // The point under the pointer stays under it.
    const x = cx - ((cx - v[0]) / v[2]) * w;
    const y = cy - ((cy - v[1]) / v[3]) * hgt;
    this.set([x, y, w, hgt]);
  }

  /** Moves the view by a part of its own size. */
  pan(dx: number, dy: number): void {
    const v = this.view ?? this.fit;
    if (!this.view) return;
    this.set([v[0] + dx * v[2], v[1] + dy * v[3], v[2], v[3]]);
  }

  private set(b: Box): void {
    const [fx, fy, fw, fh] = this.fit;
    const x = Math.min(Math.max(b[0], fx), fx + fw - b[2]);
    const y = Math.min(Math.max(b[1], fy), fy + fh - b[3]);
    this.view = [x, y, b[2], b[3]];
    this.apply();
  }

  private apply(): void {
    const svg = this.svg;
    if (!svg) return;
    const v = this.view ?? this.fit;
    svg.setAttribute("viewBox", v.map((n) => Math.round(n * 10) / 10).join(" "));
    const level = this.level;
    this.host.dataset.zoom = String(Math.round(level * 100) / 100);
    this.host.classList.toggle("zoomed", this.view !== null);
    for (const l of svg.querySelectorAll<SVGElement>("[data-min-zoom], [data-max-zoom]")) {
      const min = Number(l.getAttribute("data-min-zoom") ?? 0);
      const max = Number(l.getAttribute("data-max-zoom") ?? Number.POSITIVE_INFINITY);
      // "inline" over the drawing's own display="none" of a zoomed-in name.
      l.style.display = level >= min && level < max ? "inline" : "none";
    }
  }

  /** A point of the screen in map units. */
  private point(clientX: number, clientY: number): [number, number] | undefined {
    const r = this.svg?.getBoundingClientRect();
    if (!r || r.width === 0) return undefined;
    const v = this.view ?? this.fit;
    return [
      v[0] + ((clientX - r.left) / r.width) * v[2],
      v[1] + ((clientY - r.top) / r.height) * v[3],
    ];
  }

  private wheel(e: WheelEvent): void {
    if (!this.svg) return;
    // Out at the fitted view lets the page scroll on.
    if (e.deltaY > 0 && !this.view) return;
    e.preventDefault();
    this.by(e.deltaY < 0 ? 1.25 : 0.8, this.point(e.clientX, e.clientY));
  }

  private key(e: KeyboardEvent): void {
    if (e.target !== this.host || e.ctrlKey || e.metaKey || e.altKey) return;
    const step = 0.15;
    const act: Record<string, () => void> = {
      "+": () => this.by(1.5),
      "=": () => this.by(1.5),
      "-": () => this.by(1 / 1.5),
      "0": () => this.reset(),
      ArrowLeft: () => this.pan(-step, 0),
      ArrowRight: () => this.pan(step, 0),
      ArrowUp: () => this.pan(0, -step),
      ArrowDown: () => this.pan(0, step),
    };
    const f = act[e.key];
    if (!f || (e.key.startsWith("Arrow") && !this.view)) return;
    e.preventDefault();
    f();
  }

  /** Pointers: one drags the view, two pinch it. */
  private touch(): void {
    const down = new Map<number, [number, number]>();
    let moved = false;
    const dist = () => {
      const [a, b] = [...down.values()];
      return a && b ? Math.hypot(a[0] - b[0], a[1] - b[1]) : 0;
    };
    this.host.addEventListener("pointerdown", (e) => {
      down.set(e.pointerId, [e.clientX, e.clientY]);
      moved = false;
    });
    this.host.addEventListener("pointermove", (e) => {
      const was = down.get(e.pointerId);
      if (!was || !this.svg) return;
      const r = this.svg.getBoundingClientRect();
      if (down.size === 2) {
        const before = dist();
        down.set(e.pointerId, [e.clientX, e.clientY]);
        const after = dist();
        const [a, b] = [...down.values()];
        if (before > 0 && a && b) {
          this.by(after / before, this.point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2));
          moved = true;
        }
        e.preventDefault();
        return;
      }
      const dx = e.clientX - was[0];
      const dy = e.clientY - was[1];
      if (!this.view || (!moved && Math.hypot(dx, dy) < 6)) return;
      moved = true;
      down.set(e.pointerId, [e.clientX, e.clientY]);
      this.pan(-dx / r.width, -dy / r.height);
      e.preventDefault();
    });
    const up = (e: PointerEvent) => {
      down.delete(e.pointerId);
    };
    this.host.addEventListener("pointerup", up);
    this.host.addEventListener("pointercancel", up);
    // A drag is not a click on the province where it ends.
    this.host.addEventListener(
      "click",
      (e) => {
        if (moved) {
          e.stopImmediatePropagation();
          moved = false;
        }
      },
      true,
    );
  }
}
