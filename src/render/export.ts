import { createRequire } from "node:module";
import type { GameRecord } from "../engine/record.ts";
import type { Variant } from "../engine/variant.ts";
import { mapGeometry } from "./geometry.ts";
import { drawBoard } from "./layers.ts";
import { svgToPng, svgToRgba } from "./png.ts";
import { boardOfRecordPhase, recordPhases } from "./record-view.ts";
import type { RenderOptions } from "./types.ts";

/*
 * A game's history as pictures (docs/maps.md): every phase of a record drawn with its orders
 * and results and the legend, as one PNG per phase or one animated GIF of the whole game.
 * Frames are drawn by resvg as every PNG is; the GIF is encoded by gifenc (quantised to 256
 * colours per frame). The CLI (`entente render --record GAME --gif OUT`) and the server (a
 * download button) call these.
 */

export interface ExportOptions {
  palette?: RenderOptions["palette"];
  /** Pixels wide (default: 1200 for a GIF, 1.5 times the map for a PNG). */
  width?: number;
  /** Milliseconds each GIF frame is shown (default 1500); the last is held three times as long. */
  delay?: number;
}

/** One phase of the game drawn: its name and the SVG. */
export interface Frame {
  phase: string;
  svg: string;
}

/** Every phase of the record (each played phase with its orders, then the current one). */
export function recordFrames(
  variant: Variant,
  record: GameRecord,
  options: ExportOptions = {},
): Frame[] {
  const geometry = mapGeometry(variant);
  return recordPhases(record).map((phase) => {
    const board = boardOfRecordPhase(record, phase);
    if (!board.ok) throw new Error(board.error); // cannot happen: the phases are the record's
    const svg = drawBoard(geometry, board.view, {
      palette: options.palette ?? "standard",
      legend: true,
    });
    return { phase, svg };
  });
}

/** Every phase as a PNG. */
export function recordPngs(
  variant: Variant,
  record: GameRecord,
  options: ExportOptions = {},
): { phase: string; png: Buffer }[] {
  return recordFrames(variant, record, options).map((f) => ({
    phase: f.phase,
    png: svgToPng(f.svg, options.width),
  }));
}

interface GifEncoder {
  writeFrame(
    index: Uint8Array,
    width: number,
    height: number,
    options: { palette: number[][]; delay?: number; repeat?: number },
  ): void;
  finish(): void;
  bytes(): Uint8Array;
}
interface GifencModule {
  GIFEncoder(): GifEncoder;
  quantize(rgba: Uint8Array, maxColors: number): number[][];
  applyPalette(rgba: Uint8Array, palette: number[][]): Uint8Array;
}
let gifenc: GifencModule | null = null;

/** The whole game as an animated GIF that loops, one frame per phase. */
export function recordGif(
  variant: Variant,
  record: GameRecord,
  options: ExportOptions = {},
  onFrame?: (done: number, total: number) => void,
): Buffer {
  gifenc ??= createRequire(import.meta.url)("gifenc") as GifencModule;
  const frames = recordFrames(variant, record, options);
  const gif = gifenc.GIFEncoder();
  const delay = options.delay ?? 1500;
  for (const [i, f] of frames.entries()) {
    const image = svgToRgba(f.svg, options.width ?? 1200);
    const rgba = new Uint8Array(image.pixels.buffer, image.pixels.byteOffset, image.pixels.length);
    const palette = gifenc.quantize(rgba, 256);
    const index = gifenc.applyPalette(rgba, palette);
    gif.writeFrame(index, image.width, image.height, {
      palette,
      delay: i === frames.length - 1 ? delay * 3 : delay,
      ...(i === 0 ? { repeat: 0 } : {}),
    });
    onFrame?.(i + 1, frames.length);
  }
  gif.finish();
  return Buffer.from(gif.bytes());
}
