/*
 * A raster of the drawn cells: which cell covers each pixel. It answers the questions the
 * vector shapes make awkward: which cells touch (and how long their shared border is), how
 * far a pixel is from its cell's edge (to place names and units), whether a box fits in a
 * cell. Node or browser; no I/O.
 */

export type Ring = [number, number][];
export type Poly = Ring[];
export type MultiPoly = Poly[];

export class Raster {
  readonly w: number;
  readonly h: number;
  /** Cell index + 1 per pixel; 0 where no cell is drawn. */
  readonly cell: Int32Array;
  private dist: Float32Array | null = null;

  /** `scale` pixels per map unit. */
  constructor(
    readonly width: number,
    readonly height: number,
    readonly scale: number,
  ) {
    this.w = Math.ceil(width * scale);
    this.h = Math.ceil(height * scale);
    this.cell = new Int32Array(this.w * this.h);
  }

  /** Fills a shape (even-odd over all its rings) with cell `index`. */
  fill(shape: MultiPoly, index: number): void {
    const s = this.scale;
    const edges: [number, number, number, number][] = [];
    let minY = Number.POSITIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (const poly of shape) {
      for (const ring of poly) {
        for (let i = 0; i < ring.length; i++) {
          const a = ring[i] as [number, number];
          const b = ring[(i + 1) % ring.length] as [number, number];
          if (a[1] === b[1]) continue;
          edges.push([a[0] * s, a[1] * s, b[0] * s, b[1] * s]);
          minY = Math.min(minY, a[1] * s);
          maxY = Math.max(maxY, a[1] * s);
        }
      }
    }
    const y0 = Math.max(0, Math.floor(minY));
    const y1 = Math.min(this.h - 1, Math.ceil(maxY));
    const xs: number[] = [];
    for (let y = y0; y <= y1; y++) {
      const cy = y + 0.5;
      xs.length = 0;
      for (const [ax, ay, bx, by] of edges) {
        if ((ay <= cy && by > cy) || (by <= cy && ay > cy)) {
          xs.push(ax + ((cy - ay) / (by - ay)) * (bx - ax));
        }
      }
      xs.sort((p, q) => p - q);
      for (let k = 0; k + 1 < xs.length; k += 2) {
        const from = Math.max(0, Math.round(xs[k] as number));
        const to = Math.min(this.w, Math.round(xs[k + 1] as number));
        const row = y * this.w;
        for (let x = from; x < to; x++) this.cell[row + x] = index + 1;
      }
    }
  }

  /** The cell index at a map point, or -1. */
  at(x: number, y: number): number {
    const px = Math.floor(x * this.scale);
    const py = Math.floor(y * this.scale);
    if (px < 0 || py < 0 || px >= this.w || py >= this.h) return -1;
    return (this.cell[py * this.w + px] as number) - 1;
  }

  /** Pairs of cells that share a border, with its length in pixels ("a|b", a < b). */
  contacts(): Map<string, number> {
    const out = new Map<string, number>();
    const add = (a: number, b: number) => {
      if (a === b || a === 0 || b === 0) return;
      const key = a < b ? `${a - 1}|${b - 1}` : `${b - 1}|${a - 1}`;
      out.set(key, (out.get(key) ?? 0) + 1);
    };
    const { w, h, cell } = this;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const c = cell[y * w + x] as number;
        if (x + 1 < w) add(c, cell[y * w + x + 1] as number);
        if (y + 1 < h) add(c, cell[(y + 1) * w + x] as number);
      }
    }
    return out;
  }

  /** Distance in pixels from each pixel to the nearest pixel of another cell (or the frame). */
  distances(): Float32Array {
    if (this.dist) return this.dist;
    const { w, h, cell } = this;
    const d = new Float32Array(w * h);
    const big = 1e9;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        const c = cell[i];
        const edge =
          x === 0 ||
          y === 0 ||
          x === w - 1 ||
          y === h - 1 ||
          cell[i - 1] !== c ||
          cell[i + 1] !== c ||
          cell[i - w] !== c ||
          cell[i + w] !== c;
        d[i] = edge ? 1 : big;
      }
    }
    const diag = Math.SQRT2;
    for (let y = 1; y < h - 1; y++) {
      for (let x = 1; x < w - 1; x++) {
        const i = y * w + x;
        let v = d[i] as number;
        v = Math.min(v, (d[i - 1] as number) + 1, (d[i - w] as number) + 1);
        v = Math.min(v, (d[i - w - 1] as number) + diag, (d[i - w + 1] as number) + diag);
        d[i] = v;
      }
    }
    for (let y = h - 2; y > 0; y--) {
      for (let x = w - 2; x > 0; x--) {
        const i = y * w + x;
        let v = d[i] as number;
        v = Math.min(v, (d[i + 1] as number) + 1, (d[i + w] as number) + 1);
        v = Math.min(v, (d[i + w + 1] as number) + diag, (d[i + w - 1] as number) + diag);
        d[i] = v;
      }
    }
    this.dist = d;
    return d;
  }

  /** The pixels of each cell, as flat indices. */
  pixelsByCell(count: number): number[][] {
    const out: number[][] = Array.from({ length: count }, () => []);
    for (let i = 0; i < this.cell.length; i++) {
      const c = this.cell[i] as number;
      if (c > 0) out[c - 1]?.push(i);
    }
    return out;
  }

  /** Whether the box (map units) lies wholly in cell `index`. */
  boxIn(index: number, cx: number, cy: number, halfW: number, halfH: number): boolean {
    const s = this.scale;
    const x0 = Math.floor((cx - halfW) * s);
    const x1 = Math.ceil((cx + halfW) * s);
    const y0 = Math.floor((cy - halfH) * s);
    const y1 = Math.ceil((cy + halfH) * s);
    if (x0 < 0 || y0 < 0 || x1 >= this.w || y1 >= this.h) return false;
    for (let y = y0; y <= y1; y++) {
      const row = y * this.w;
      for (let x = x0; x <= x1; x++) if (this.cell[row + x] !== index + 1) return false;
    }
    return true;
  }
}
