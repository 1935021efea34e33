import { drawBoard, drawnOrderFromText, legendEntries } from "../render/layers.ts";
import type { BoardPosition, BoardView, DrawnOrder, MapGeometry } from "../render/types.ts";
import { get } from "./api.ts";
import { h } from "./dom.ts";
import { Zoom } from "./zoom.ts";

/*
 * The map on a page: the variant's geometry fetched once (GET /api/variants/:id/geometry) and
 * the board drawn by src/render/layers.ts. Clicks on a province reach `onProvince`.
 */

const geometries = new Map<string, Promise<MapGeometry>>();

export function geometry(variant: string): Promise<MapGeometry> {
  let g = geometries.get(variant);
  if (!g) {
    g = get<MapGeometry>(`/api/variants/${encodeURIComponent(variant)}/geometry`);
    g.catch(() => geometries.delete(variant));
    geometries.set(variant, g);
  }
  return g;
}

export const palette = (): "standard" | "colorblind" =>
  localStorage.getItem("entente.palette") === "colorblind" ? "colorblind" : "standard";

export class Board {
  readonly el: HTMLElement;
  /**
   * The legend (layers.ts' legendEntries): each power's pieces in its colour and its name, and
   * the supply-centre marker; the page places it beside the map (game.ts).
   */
  readonly legend: HTMLElement = h("ul", { class: "legend", "aria-label": "legend" });
  /** Zoom and pan (zoom.ts): its buttons go beside the map. */
  readonly zoom: Zoom;
  private drawn = 0;
  /** Whether the board was opened close up (`readable`): done once, then the user's. */
  private opened = false;

  constructor(
    className = "map",
    private readonly onProvince?: (province: string) => void,
  ) {
    this.el = h("div", { class: className, "aria-label": "map" });
    this.zoom = new Zoom(this.el);
    this.el.addEventListener("click", (e) => {
      if (!this.onProvince) return;
      // A click on a name, a unit or an arrow counts for the province beneath it.
      const under = [e.target as Element, ...document.elementsFromPoint(e.clientX, e.clientY)];
      for (const el of under) {
        const p = el.closest?.("[data-province]")?.getAttribute("data-province");
        if (p) {
          this.onProvince(p);
          return;
        }
      }
    });
  }

  async show(
    position: BoardPosition,
    orders: DrawnOrder[] = [],
    selected: string[] = [],
    targets: string[] = [],
  ) {
    await this.draw(async () => ({
      g: await geometry(position.variant),
      view: { position, orders, selected, targets },
    }));
  }

  /** Draws a map made for this page (a player's own generated map) with its view. */
  async showOn(load: () => Promise<{ geometry: MapGeometry; view: BoardView }>): Promise<void> {
    await this.draw(async () => {
      const r = await load();
      return { g: r.geometry, view: r.view };
    });
  }

  private async draw(load: () => Promise<{ g: MapGeometry; view: BoardView }>): Promise<void> {
    const n = ++this.drawn;
    try {
      const { g, view } = await load();
      if (n !== this.drawn) return;
      this.el.innerHTML = drawBoard(g, view, { palette: palette() });
      this.el.classList.toggle("clickable", !!this.onProvince);
      this.showLegend(g, view.position);
      this.zoom.attach(this.el.querySelector("svg"));
    } catch (e) {
      if (n === this.drawn)
        this.el.textContent = `The map cannot be drawn: ${(e as Error).message}`;
    }
  }

  /**
   * On a narrow screen (the page in one column: a phone), opens the board once at a zoom where
   * a unit is READABLE px across, around the units of `powers` (the viewer's). Nothing happens
   * for a viewer without units (the GM, an observer: the whole board), where the units are
   * readable whole, or once the view was chosen (a zoom, a pan, the whole map).
   */
  readable(powers: readonly string[]): void {
    const svg = this.el.querySelector("svg");
    if (this.opened || !svg || this.zoom.zoomed || !matchMedia(NARROW).matches) return;
    const all = [...svg.querySelectorAll<SVGGraphicsElement>("g.unit")];
    const width = svg.getBoundingClientRect().width;
    if (all.length === 0 || width === 0) return;
    this.opened = true;
    const mine = all.filter((u) => powers.includes(u.getAttribute("data-power") ?? ""));
    if (mine.length === 0) return;
    const boxes = mine.map((u) => u.getBBox());
    // Across: a fleet drawn narrow (the committee's) is as readable as an army as wide.
    const sizes = all.map((u) => u.getBBox().width).sort((a, b) => a - b);
    // Pixels a map unit at the whole view, and the size of a middling unit.
    const scale = width / this.zoom.whole[2];
    const unit = (sizes[sizes.length >> 1] ?? 0) * scale;
    if (unit === 0 || unit >= READABLE) return;
    // Centred where the most of those units are in view: on one of them or on them all.
    const level = Math.min(READABLE / unit, this.zoom.deepest);
    const [, , fw, fh] = this.zoom.whole;
    const [w, hgt] = [fw / level, fh / level];
    const mid = (b: DOMRect): [number, number] => [b.x + b.width / 2, b.y + b.height / 2];
    const x0 = Math.min(...boxes.map((b) => b.x));
    const y0 = Math.min(...boxes.map((b) => b.y));
    const x1 = Math.max(...boxes.map((b) => b.x + b.width));
    const y1 = Math.max(...boxes.map((b) => b.y + b.height));
    const middle: [number, number] = [(x0 + x1) / 2, (y0 + y1) / 2];
    const seen = ([cx, cy]: [number, number]) =>
      boxes.filter(
        (b) =>
          Math.abs(b.x + b.width / 2 - cx) <= (w - b.width) / 2 &&
          Math.abs(b.y + b.height / 2 - cy) <= (hgt - b.height) / 2,
      ).length;
    let best = middle;
    let most = seen(middle);
    for (const b of boxes) {
      // Between that unit and the middle of them all, where as many or more are in view.
      const c = mid(b);
      const between: [number, number] = [(c[0] + middle[0]) / 2, (c[1] + middle[1]) / 2];
      for (const at of [between, c]) {
        const k = seen(at);
        if (k > most) [best, most] = [at, k];
      }
    }
    this.zoom.look(level, best);
  }

  private showLegend(g: MapGeometry, position: BoardPosition): void {
    const item = (svg: string, name: string, power?: string) => {
      const mark = h("span", { class: "swatch" });
      mark.innerHTML = svg; // drawn by layers.ts, every text escaped
      return h(
        "li",
        power ? { "data-power": power } : { class: "key" },
        mark,
        h("span", { class: "name" }, name),
      );
    };
    this.legend.replaceChildren(
      ...legendEntries(g, position, palette()).map((e) => item(e.swatch, e.name, e.power)),
      item(CENTRE, "supply centre"),
    );
  }
}

/** A unit's width on a phone when the board opens (at least 20 px: issue 29). */
const READABLE = 28;
/** The page in one column (style/): a phone. */
const NARROW = "(max-width: 900px)";

/** The supply-centre marker as the base map draws it. */
const CENTRE =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true"><circle cx="10" cy="10" r="4" fill="#fff" stroke="#333" stroke-width="1.4"/></svg>';

/** Canonical orders (power, text) as the board draws them. */
export function drawnOrders(list: readonly { power: string; text: string }[]): DrawnOrder[] {
  const out: DrawnOrder[] = [];
  for (const o of list) {
    const d = drawnOrderFromText(o.power, o.text);
    if (d) out.push(d);
  }
  return out;
}
