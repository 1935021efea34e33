/*
 * Colour arithmetic for telling colours apart (isomorphic, no imports): a tint laid over a
 * background, and the CIE76 colour difference (ΔE in CIELAB). A ΔE near 2 is the smallest
 * difference most people see; above 20 two colours read as different colours.
 */

type Rgb = [number, number, number];

/** The standard look's sea and unowned land (a variant's style may change them). */
export const SEA = "#b7d3ea";
export const LAND = "#f3ecd8";

/** The least ΔE between an owned province's tint and the sea: below it, owned land reads as water. */
export const FROM_SEA = 20;

/**
 * The opacity to tint an owned province with: the wanted one, raised (up to 0.9) until the
 * tinted land stands at least FROM_SEA from the sea (a light blue power on a light blue sea).
 */
export function tintOpacity(colour: string, wanted: number, land = LAND, sea = SEA): number {
  let o = wanted;
  while (o < 0.9 && deltaE(over(land, colour, o), sea) < FROM_SEA) o = Math.min(0.9, o + 0.05);
  return Math.round(o * 100) / 100;
}

function rgb(hex: string): Rgb {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const v = Number.parseInt(m[1] as string, 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

const hex = (c: Rgb) => `#${c.map((x) => Math.round(x).toString(16).padStart(2, "0")).join("")}`;

/** `tint` laid over `under` at this opacity (what an owned province looks like). */
export function over(under: string, tint: string, opacity: number): string {
  const a = rgb(under);
  const b = rgb(tint);
  return hex([0, 1, 2].map((i) => a[i]! * (1 - opacity) + b[i]! * opacity) as Rgb);
}

function lab(hexColour: string): Rgb {
  const lin = rgb(hexColour).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  const [r, g, b] = lin;
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** The CIE76 difference between two `#rrggbb` colours. */
export function deltaE(a: string, b: string): number {
  const p = lab(a);
  const q = lab(b);
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}
