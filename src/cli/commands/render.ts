import { type Command, Option } from "commander";
import { DEFAULT_MAP_SEED as DEFAULT_DISCOVERY_SEED } from "../../variants/discovery/defaults.ts";
import { examples, type Io, jsonOption, printed, type Run, variantOption } from "../define.ts";
import type { RenderArgs } from "../render.ts";

/* `entente render`: a position or a game record's phase drawn as SVG or PNG (docs/maps.md). */

export function addRender(program: Command, io: Io, run: Run): void {
  examples(
    program
      .command("render")
      .summary("draw a board as SVG or PNG (docs/maps.md)")
      .description(
        `Draws a board as SVG or PNG (docs/maps.md): a variant's start, a position file, or a phase
of a game record with its orders and results. With --record and {phase} in --out, every
phase of the game (a progress bar on a terminal); with --record and --gif, the whole game as
an animated GIF. Every picture has a legend of the powers. Global Diplomacy's world map and Age of
Discovery's generated maps too (discovery: map seed ${DEFAULT_DISCOVERY_SEED} unless --seed or --position).`,
      )
      .addOption(variantOption("the variant (default: the record's, position's, or classical)"))
      .option("--record <FILE>", "a game record: draw its --phase (default: the last)")
      .option("--phase <P>", "the record's phase, e.g. S1901M")
      .option("--position <FILE>", "a position JSON (with orders: drawn with their results)")
      .addOption(
        new Option("--palette <NAME>", "the colours")
          .choices(["standard", "colorblind"])
          .default("standard"),
      )
      .option("--width <PX>", "PNG width in pixels (100-10000)")
      .option(
        "--seed <S>",
        `discovery: the generated map's seed (default: ${DEFAULT_DISCOVERY_SEED})`,
      )
      .option("--players <N>", "discovery: how many play (9-20, default: 9)")
      .option("--player <P>", "discovery: draw what player P knows")
      .option("--out <FILE>", "the file to write: .svg or .png; {phase} for every phase")
      .option("--gif <FILE>", "with --record: the whole game as an animated GIF")
      .addOption(jsonOption("what was drawn"))
      .action(
        run(printed(io, async (o: RenderArgs) => (await import("../render.ts")).cmdRender(o))),
      ),
    [
      ["entente render --variant europe1935 --out map.png", "a variant's start"],
      ["entente render --record game.json --phase S1901M --out s1901.svg", "a phase with orders"],
      ["entente render --record game.json --out frames/{phase}.png", "every phase of a game"],
      ["entente render --record game.json --gif game.gif", "the game as an animated GIF"],
      ["entente render --variant discovery --players 12 --out map.svg", "a generated map"],
    ],
  );
}
