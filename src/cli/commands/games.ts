import { type Command, Option } from "commander";
import {
  completes,
  examples,
  type Io,
  jsonOption,
  printed,
  profiles,
  type Run,
  reported,
  variantOption,
} from "../define.ts";
import type { Progress } from "../progress.ts";

/* `entente new`, `play`, `history` and `replay`: a game kept in a file, played a phase at a time. */

export function addGames(program: Command, io: Io, run: Run): void {
  examples(
    program
      .command("new")
      .summary("start a game record")
      .description(
        "Starts a game record (docs/records.md): the record is printed, or written to --out.\nA variant file's data is kept in the record.",
      )
      .addOption(variantOption("the variant to play", "classical").conflicts("variantFile"))
      .option("--variant-file <FILE>", "a variant data file instead (docs/variant.schema.json)")
      .addOption(new Option("--players <N>", "the scenario: how many play (7, 6, 5, 4, 3, 3b, 2)"))
      .addOption(completes(new Option("--rules <PROFILE>", "the rule profile"), profiles))
      .option("--seed <S>", "the game's seed (civil disorder choices)", "1")
      .option("--out <FILE>", "write the record here (never over an existing file)")
      .addOption(jsonOption("with --out: the summary"))
      .action(
        run(
          printed(
            io,
            async (o: {
              variant: string;
              variantFile?: string;
              players?: string;
              rules?: string;
              seed: string;
              out?: string;
              json?: boolean;
            }) => (await import("../games.ts")).cmdNew(o),
          ),
        ),
      ),
    [
      ["entente new --players 7 --out game.json", "a classical game for seven"],
      ["entente new --variant europe1935 --out game.json", "a game of the 1935 map"],
    ],
  );
  examples(
    program
      .command("play")
      .summary("adjudicate a record's next phase from an order file")
      .description(
        "Adjudicates the record's next phase from an order file (a mail body's text, or JSON of\npower: [orders]) and writes the record back (or to --out); prints the phase's results.",
      )
      .argument("<RECORD>", "the game record")
      .argument("<ORDERS>", "the order file")
      .option("--out <FILE>", "write the new record here instead of over RECORD")
      .addOption(jsonOption("the phase played"))
      .action(
        run(
          printed(io, async (record: string, orders: string, o: { out?: string; json?: boolean }) =>
            (await import("../games.ts")).cmdPlay(record, orders, o.out, o.json),
          ),
        ),
      ),
    [
      ["entente play game.json orders.txt", "the next phase, results printed"],
      ["entente play game.json orders.json --json", "the phase played as JSON"],
    ],
  );
  examples(
    program
      .command("history")
      .summary("print the game as a judge publishes it")
      .argument("<RECORD>", "the game record")
      .action(
        run(
          printed(io, async (record: string) => (await import("../games.ts")).cmdHistory(record)),
        ),
      ),
    [["entente history game.json", "every phase: orders, results, centres"]],
  );
  examples(
    program
      .command("replay")
      .summary("check that a record replays exactly")
      .description(
        "Plays the record again from its start and orders; every phase must come out the same.\nExit status 1 when it does not. A progress bar on a terminal.",
      )
      .argument("<RECORD>", "the game record")
      .addOption(jsonOption("the result"))
      .action(
        run(async (record: string, o: { json?: boolean }) => {
          const { cmdReplay } = await import("../games.ts");
          const { progressBar } = await import("../progress.ts");
          let bar: Progress | undefined;
          const r = cmdReplay(record, {
            json: o.json,
            onPhase: (n, total) => {
              bar ??= progressBar(total, "phases replayed");
              bar(n);
            },
          });
          bar?.finish();
          return reported(io, r, "replay", `${record} does not replay exactly`);
        }),
      ),
    [
      ["entente replay game.json", "N phases replay exactly"],
      ["entente replay game.json --json", "the same as JSON"],
    ],
  );
}
