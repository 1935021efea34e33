/*
 * The map-drawing contract (isomorphic: no Node imports). `geometry.ts` builds a
 * `MapGeometry` per variant on the server; `layers.ts` draws a board on top of it, in Node
 * and in the browser alike. It imports only the engine's types of an order's kind and of
 * the position JSON, which it draws.
 */
import type { PositionJson } from "../engine/position-json.ts";
import type { OrderKind } from "../engine/research-board.ts";

/** A point in the map's SVG coordinates (x to the right, y down). */
export type Point = [number, number];

export interface ProvinceGeometry {
  /** The full name, as printed on the board. */
  name: string;
  kind: "land" | "coast" | "sea";
  /** Whether it is a supply centre. */
  center: boolean;
  /** Where its name is written. */
  label: Point;
  /**
   * The least zoom (1 = the whole map at its own size) at which its name is worth showing:
   * set for names written smaller than the map's font (1.5 × font / size) or under the
   * province's unit (at least 2). Also `data-min-zoom` on the name in `base`, so a zooming
   * client can hide `.labels [data-min-zoom]` below it; absent: always shown.
   */
  labelMinZoom?: number;
  /** The zoom from which `zoomName` replaces the name (`data-max-zoom` on it in `base`). */
  labelMaxZoom?: number;
  /**
   * A province whose name is written as an abbreviation (a world area as its number): its
   * full name, smaller, for a zoomed-in view, shown from `minZoom` on in place of the
   * abbreviation. In `base` as `<text class="label zoom-name" data-min-zoom="Z"
   * display="none">`: hidden in pictures, shown by a zooming client.
   */
  zoomName?: { text: string; at: Point; size: number; minZoom: number };
  /** Where a unit standing in it is drawn. */
  unit: Point;
  /** Where a dislodged unit is drawn (offset from `unit`). */
  dislodged: Point;
  /** Split coasts: where a fleet on each coast is drawn, keyed `nc`, `sc`, ... */
  coasts?: Record<string, Point>;
  /** Where the supply-centre marker is drawn (centres only). */
  centerMark?: Point;
  /** The outline, as SVG path data (the same as the `prov-ID` path in `base`). */
  path?: string;
  /** The power whose home centre this is, or null. */
  home?: string | null;
  /** The id of the clipPath (in `base`) that cuts `path` to the coastline, if any. */
  clip?: string;
}

export interface PowerGeometry {
  id: string;
  name: string;
  /** One letter, drawn on units and patterns so colour is not the only cue. */
  letter: string;
}

export interface MapGeometry {
  variant: string;
  width: number;
  height: number;
  /**
   * SVG markup without the outer `<svg>`: background sea, land, each province as
   * `<path id="prov-ID" data-province="ID" class="prov land|coast|sea">`, supply-centre
   * markers, names.
   */
  base: string;
  provinces: Record<string, ProvinceGeometry>;
  /** The variant's powers in order (for colours and legends). */
  powers?: PowerGeometry[];
  /** The font size of province names, in viewBox units (units are sized from it). */
  fontSize?: number;
  /** The variant's own look (its geometry file's `style`), if it has one. */
  style?: MapStyle;
}

/**
 * A variant's own look, as data (the `style` of its geometry file, docs/maps.md): the
 * powers' colours, how units are drawn, the sea and land colours and how strongly owned
 * provinces are tinted. Anything left out takes the standard look.
 */
export interface MapStyle {
  /** A colour per power id (`#rrggbb`), used by the standard palette. */
  colours?: Record<string, string>;
  /**
   * `tokens`: armies round, fleets as hulls (the default). `blocks`: armies as square
   * pieces, fleets as narrow rectangles (the Historical Committee's board).
   */
  pieces?: "tokens" | "blocks";
  /** The sea's colour (`#rrggbb`). */
  sea?: string;
  /** Unowned land's colour (`#rrggbb`). */
  land?: string;
  /** The opacity of an owned province's tint (default 0.45). */
  tint?: number;
}

/** One order as drawn: locations are written as the position JSON writes them (`stp/sc`). */
export interface DrawnOrder {
  power: string;
  kind: OrderKind;
  /** `A`, `F`, or a variant's own unit letter. */
  unitType?: string;
  /** The ordered unit's location (for a build: where it is built). */
  unit: string;
  /** Where the moving, supported or convoyed unit goes; absent for support-to-hold. */
  target?: string;
  /** The supported or convoyed unit's location. */
  from?: string;
  result?: "succeeds" | "fails" | "invalid";
  /** A short explanation (shown as a tooltip). */
  note?: string;
}

/** The position JSON of docs/adjudicate-json.md (the engine's `PositionJson`), and a tally. */
export interface BoardPosition extends PositionJson {
  /**
   * What the legend and the supply table count per power where `centers` is not that count
   * (a game of another family: `centers` holds every area a power owns, land with no supply
   * value too): its supply centres and units, each with its points, and the surplus (+) or
   * deficit (−) of supply points over unit points. `null`: a power this viewer may not know
   * of (fog of war), said "unknown", never 0.
   */
  tally?: Record<string, PowerTally | null>;
}

/** One power's supply, as a game counted in points gives it (`BoardPosition.tally`). */
export interface PowerTally {
  centres: number;
  units: number;
  supplyPoints: number;
  unitPoints: number;
  /** supplyPoints − unitPoints: the points to spend (+) or to give up (−). */
  due: number;
}

export interface BoardView {
  position: BoardPosition;
  orders?: DrawnOrder[];
  /** Locations or provinces to highlight (e.g. the unit being ordered). */
  selected?: string[];
  /**
   * Locations or provinces a choice may go to next (a unit's legal moves, the units a support
   * or convoy may help): outlined and left bright while the rest of the map is dimmed.
   */
  targets?: string[];
  /** Locations of units these orders dislodged (marked on the board). */
  dislodgedHere?: string[];
}

export interface RenderOptions {
  palette?: "standard" | "colorblind";
  /** Whether to draw province names (default true). */
  labels?: boolean;
  /**
   * Whether to draw the legend at the side of the map: the phase, each power's piece in its
   * colour, its name, and its centres and units (default false: the map's own viewBox).
   */
  legend?: boolean;
}
