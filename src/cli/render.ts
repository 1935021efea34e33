import { readFileSync, writeFileSync } from "node:fs";
import { extname } from "node:path";
import { PositionError, readPosition, writePosition } from "../engine/position-json.ts";
import { DATC_RULES } from "../engine/rules.ts";
import { recordGif } from "../render/export.ts";
import { FamilyRenderError, renderFamily } from "../render/families.ts";
import { mapGeometry, NoGeometryError } from "../render/geometry.ts";
import { drawBoard } from "../render/layers.ts";
import { svgToPng } from "../render/png.ts";
import { boardOfRecordPhase, boardOfResult, recordPhases } from "../render/record-view.ts";
import type { BoardView, RenderOptions } from "../render/types.ts";
import { DEFAULT_MAP_SEED } from "../variants/discovery/index.ts";
import { getVariant, variantIds } from "../variants/registry.ts";
import { adjudicateJson } from "./adjudicate.ts";
import { CliError, readRecordFile } from "./games.ts";
import { progressBar } from "./progress.ts";

/*
 * `entente render`: draws a variant's board (its start, a position file, or a phase of a game
 * record with that phase's orders and results) as SVG or PNG. docs/maps.md.
 */

export interface RenderArgs {
  variant?: string;
  record?: string;
  phase?: string;
  position?: string;
  palette?: string;
  width?: string;
  /** Age of Discovery: the generated map's seed and players, and whose view (docs/maps.md). */
  seed?: string;
  players?: string;
  player?: string;
  /** The file to write; with --record, `{phase}` in it draws every phase of the game. */
  out?: string;
  /** With --record: the whole game as an animated GIF (render/export.ts). */
  gif?: string;
  /** The summary as a JSON line. */
  json?: boolean;
}

/** The line printed for what was drawn: text, or JSON with --json. */
function said(args: RenderArgs, fields: Record<string, unknown>, text: string): string {
  return args.json ? `${JSON.stringify({ out: args.out, ...fields })}\n` : `${args.out}: ${text}\n`;
}

/**
 * `--record GAME --out frames/{phase}.png`: every phase of the game, one file each, with a
 * progress bar on a terminal. Returns the line to print.
 */
function renderEveryPhase(args: RenderArgs & { record: string; out: string }): string {
  if (args.phase) throw new CliError("render: give --phase or {phase} in --out, not both");
  const { record } = readRecordFile(args.record);
  const phases = recordPhases(record);
  const progress = progressBar(phases.length, "phases drawn");
  const files: string[] = [];
  try {
    for (const [i, phase] of phases.entries()) {
      const out = args.out.replaceAll("{phase}", phase);
      cmdRender({ ...args, phase, out, json: false });
      files.push(out);
      progress(i + 1);
    }
  } finally {
    progress.finish();
  }
  return args.json
    ? `${JSON.stringify({ out: args.out, variant: record.variant, phases: phases.length, files })}\n`
    : `${args.out}: ${phases.length} phases of ${record.variant} drawn (${phases[0]} to ${phases.at(-1)})\n`;
}

/** The map seed `render --variant discovery` draws when given neither --seed nor --position. */

/** Global Diplomacy or Age of Discovery (drawn by render/families.ts), named or in the file. */
function familyOf(args: RenderArgs): "global" | "discovery" | undefined {
  let id = args.variant;
  if (!id && args.position) {
    try {
      const v = (JSON.parse(readFileSync(args.position, "utf8")) as { variant?: unknown }).variant;
      if (typeof v === "string") id = v;
    } catch {
      return undefined; // the usual path reports the unreadable file
    }
  }
  return id === "global" || id === "discovery" ? id : undefined;
}

/** Draws the board and writes it; returns the line to print. */
export function cmdRender(args: RenderArgs): string {
  if (args.gif !== undefined) return renderGif({ ...args, gif: args.gif });
  const out = args.out;
  if (out === undefined)
    throw new CliError(
      "render: required option '--out <FILE>' not specified (or --gif <FILE> with --record)",
    );
  if (out.includes("{phase}")) {
    if (!args.record) throw new CliError("render: {phase} in --out is for --record GAME");
    return renderEveryPhase({ ...args, record: args.record, out });
  }
  const format = extname(out).toLowerCase();
  if (format !== ".svg" && format !== ".png") {
    throw new CliError(`render: --out must end in .svg or .png, not ${out}`);
  }
  if (args.palette !== undefined && args.palette !== "standard" && args.palette !== "colorblind") {
    throw new CliError(`render: --palette is standard or colorblind, not ${args.palette}`);
  }
  if (args.record && args.position) {
    throw new CliError("render: give --record or --position, not both");
  }
  if (args.phase && !args.record) throw new CliError("render: --phase needs --record");
  let width: number | undefined;
  if (args.width !== undefined) {
    width = Number(args.width);
    if (!Number.isInteger(width) || width < 100 || width > 10000) {
      throw new CliError(
        `render: --width is a whole number of pixels (100-10000), not ${args.width}`,
      );
    }
  }

  const family = familyOf(args);
  if (family) {
    if (args.record) throw new CliError(`render: --record is not for ${family}; use --position`);
    let position: Record<string, unknown> | undefined;
    if (args.position) {
      try {
        position = JSON.parse(readFileSync(args.position, "utf8")) as Record<string, unknown>;
      } catch (e) {
        throw new CliError(`render: cannot read ${args.position}: ${(e as Error).message}`);
      }
      if (typeof position !== "object" || position === null || Array.isArray(position)) {
        throw new CliError(`render: ${args.position} must hold a ${family} position JSON object`);
      }
    }
    // A generated map needs a seed: without one (and without a position) the default's map.
    const seed =
      family === "discovery" && !position && args.seed === undefined
        ? String(DEFAULT_MAP_SEED)
        : args.seed;
    const seedNote =
      family !== "discovery" || position
        ? ""
        : args.seed === undefined
          ? ` (map seed ${seed}, the default; choose another with --seed S)`
          : ` (map seed ${seed})`;
    let drawn: { svg: string; summary: string };
    try {
      drawn = renderFamily({
        variant: family,
        ...(position ? { position } : {}),
        ...(seed !== undefined ? { seed } : {}),
        ...(args.players !== undefined ? { players: args.players } : {}),
        ...(args.player !== undefined ? { player: args.player } : {}),
        options: {
          palette: args.palette === "colorblind" ? "colorblind" : "standard",
          legend: true,
        },
      });
    } catch (e) {
      if (e instanceof FamilyRenderError) throw new CliError(`render: ${e.message}`);
      throw e;
    }
    if (format === ".svg") writeFileSync(out, drawn.svg);
    else writeFileSync(out, svgToPng(drawn.svg, width));
    return said(
      args,
      {
        variant: family,
        ...(seed !== undefined && !position ? { seed: Number(seed) } : {}),
        summary: drawn.summary,
      },
      `${drawn.summary}${seedNote}`,
    );
  }
  if (args.seed !== undefined || args.players !== undefined || args.player !== undefined) {
    throw new CliError("render: --seed, --players and --player are for --variant discovery");
  }

  let variantId = args.variant;
  let view: BoardView;
  if (args.record) {
    const { record } = readRecordFile(args.record);
    if (variantId && variantId !== record.variant) {
      throw new CliError(`render: the record is a game of ${record.variant}, not ${variantId}`);
    }
    variantId = record.variant;
    const phase = args.phase ?? (recordPhases(record).at(-1) as string);
    const board = boardOfRecordPhase(record, phase);
    if (!board.ok) throw new CliError(`render: ${args.record}: ${board.error}`);
    view = board.view;
  } else if (args.position) {
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(readFileSync(args.position, "utf8")) as Record<string, unknown>;
    } catch (e) {
      throw new CliError(`render: cannot read ${args.position}: ${(e as Error).message}`);
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      throw new CliError(
        `render: ${args.position} must hold a position JSON object (docs/adjudicate-json.md)`,
      );
    }
    const id = typeof json.variant === "string" ? json.variant : (variantId ?? "classical");
    if (variantId && variantId !== id) {
      throw new CliError(`render: the position is of ${id}, not ${variantId}`);
    }
    variantId = id;
    const variant = getVariant(id);
    if (!variant)
      throw new CliError(`render: unknown variant ${id}; known: ${variantIds().join(", ")}`);
    try {
      view = { position: writePosition(variant, readPosition(json, variant)) };
    } catch (e) {
      if (e instanceof PositionError) throw new CliError(`render: ${args.position}: ${e.message}`);
      throw e;
    }
    if (json.orders !== undefined) {
      // A position with orders (the adjudicate contract's input): drawn with their results.
      const result = adjudicateJson(json, DATC_RULES);
      if ("error" in result) throw new CliError(`render: ${args.position}: ${result.error}`);
      view = boardOfResult(view.position, result.orders, result.dislodged);
    }
  } else {
    const variant = getVariant(variantId ?? "classical");
    if (!variant) {
      throw new CliError(`render: unknown variant ${variantId}; known: ${variantIds().join(", ")}`);
    }
    view = { position: writePosition(variant, variant.start) };
  }

  const variant = getVariant(variantId ?? "classical");
  if (!variant)
    throw new CliError(`render: unknown variant ${variantId}; known: ${variantIds().join(", ")}`);
  const options: RenderOptions = {
    palette: args.palette === "colorblind" ? "colorblind" : "standard",
    legend: true,
  };
  let svg: string;
  try {
    svg = drawBoard(mapGeometry(variant), view, options);
  } catch (e) {
    if (e instanceof NoGeometryError) throw new CliError(`render: ${e.message}`);
    throw e;
  }
  if (format === ".svg") writeFileSync(out, svg);
  else writeFileSync(out, svgToPng(svg, width));
  return said(
    args,
    {
      variant: variant.id,
      phase: view.position.phase,
      ...(view.orders ? { orders: view.orders.length } : {}),
    },
    `${variant.id} ${view.position.phase}${view.orders ? `, ${view.orders.length} orders` : ""}`,
  );
}

/** `--record GAME --gif OUT.gif`: the whole game, a frame per phase (render/export.ts). */
function renderGif(args: RenderArgs & { gif: string }): string {
  if (!args.record) throw new CliError("render: --gif draws a game: give --record GAME");
  if (extname(args.gif).toLowerCase() !== ".gif") {
    throw new CliError(`render: --gif must end in .gif, not ${args.gif}`);
  }
  for (const [flag, v] of [
    ["--phase", args.phase],
    ["--position", args.position],
    ["--out", args.out],
  ] as const) {
    if (v !== undefined) throw new CliError(`render: --gif draws every phase; leave out ${flag}`);
  }
  if (args.palette !== undefined && args.palette !== "standard" && args.palette !== "colorblind") {
    throw new CliError(`render: --palette is standard or colorblind, not ${args.palette}`);
  }
  let width: number | undefined;
  if (args.width !== undefined) {
    width = Number(args.width);
    if (!Number.isInteger(width) || width < 100 || width > 4000) {
      throw new CliError(
        `render: --width for a GIF is a whole number of pixels (100-4000), not ${args.width}`,
      );
    }
  }
  const { record } = readRecordFile(args.record);
  if (args.variant && args.variant !== record.variant) {
    throw new CliError(`render: the record is a game of ${record.variant}, not ${args.variant}`);
  }
  const variant = getVariant(record.variant);
  if (!variant) {
    throw new CliError(`render: ${record.variant} has no map (known: ${variantIds().join(", ")})`);
  }
  let gif: Buffer;
  const progress = progressBar(recordPhases(record).length, "frames drawn");
  try {
    gif = recordGif(
      variant,
      record,
      {
        palette: args.palette === "colorblind" ? "colorblind" : "standard",
        ...(width ? { width } : {}),
      },
      (done) => progress(done),
    );
  } catch (e) {
    if (e instanceof NoGeometryError) throw new CliError(`render: ${e.message}`);
    throw e;
  } finally {
    progress.finish();
  }
  writeFileSync(args.gif, gif);
  const phases = recordPhases(record);
  if (args.json) {
    return `${JSON.stringify({ out: args.gif, variant: variant.id, phases: phases.length, bytes: gif.length })}\n`;
  }
  return `${args.gif}: ${variant.id}, ${phases.length} phases (${phases[0]} to ${phases.at(-1)}), ${Math.round(gif.length / 1024)} KB\n`;
}
