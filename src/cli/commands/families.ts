import { type Command, Option } from "commander";
import { DEFAULT_PLAYERS } from "../../variants/discovery/defaults.ts";
import { examples, group, type Io, jsonOption, type Run, shellOut, whole } from "../define.ts";
import type { NewGameArgs, ShellResult } from "../moderator.ts";

/*
 * `entente global` and `entente discovery`: the game families' moderator shells (new, play,
 * replay, ...) over the family's own game files.
 */

export function addFamilies(program: Command, io: Io, run: Run): void {
  const global = group(
    program,
    "global",
    "moderate a Global Diplomacy game (docs/global.md)",
    "Moderates a game of Global Diplomacy from files (docs/global.md).",
    [
      ["entente global new --seed 17 --out game.json", "turn 1, all neutral"],
      ["entente global play game.json orders.txt", "a turn; each power's report"],
    ],
  );
  moderatorNew(
    global,
    {
      summary: "start a game file",
      seed: "the game's seed",
      make: async (o: NewGameArgs) => (await import("../global.ts")).globalNew(o),
      example: ["entente global new --seed 17 --out game.json", "a new game"],
    },
    run,
    io,
  );
  moderatorTurns(
    global,
    {
      shell: "global",
      reports: "each power's report",
      play: async (...a) => (await import("../global.ts")).globalPlay(...a),
      replay: async (...a) => (await import("../global.ts")).globalReplay(...a),
      playExample: ["entente global play game.json orders.txt --reports out/", "a turn"],
    },
    run,
    io,
  );
  examples(
    global
      .command("selfplay")
      .summary("random games, one JSON line per game")
      .option("--seed <S>", "the first game's seed", whole(), 1)
      .option("--games <N>", "how many games", whole(1), 1)
      .action(
        run(async (o: { seed: number; games: number }) =>
          shellOut(
            io,
            (await import("../global.ts")).globalSelfPlay(o),
            "global selfplay",
            "two units in one area in a game",
          ),
        ),
      ),
    [["entente global selfplay --games 3", "three games to their end (60 turns at most)"]],
  );

  const discovery = group(
    program,
    "discovery",
    "moderate an Age of Discovery game (docs/discovery.md)",
    "Moderates a game of Age of Discovery on a generated map (docs/discovery.md).",
    [
      ["entente discovery new --players 12 --out game.json", "a game on a new map"],
      ["entente discovery map game.json --player 3", "what player 3 knows"],
    ],
  );
  moderatorNew(
    discovery,
    {
      summary: "start a game file on a generated map",
      seed: "the map's seed",
      more: (c) => c.option("--players <N>", "how many play (9-20)", whole(), DEFAULT_PLAYERS),
      make: async (o: NewGameArgs & { players: number }) =>
        (await import("../discovery.ts")).discoveryNew(o),
      example: ["entente discovery new --seed 5 --players 12 --out game.json", "twelve players"],
    },
    run,
    io,
  );
  moderatorTurns(
    discovery,
    {
      shell: "discovery",
      reports: "each player's report",
      play: async (...a) => (await import("../discovery.ts")).discoveryPlay(...a),
      replay: async (...a) => (await import("../discovery.ts")).discoveryReplay(...a),
      playExample: ["entente discovery play game.json orders.txt", "a turn"],
    },
    run,
    io,
  );
  examples(
    discovery
      .command("map")
      .summary("the map as text: all of it (moderator), or what one player knows")
      .argument("<GAME>", "the game file")
      .option("--player <P>", "draw only what player P knows")
      .action(
        run(async (game: string, o: { player?: string }) =>
          shellOut(io, (await import("../discovery.ts")).discoveryMap(game, o)),
        ),
      ),
    [
      ["entente discovery map game.json", "the moderator's view"],
      ["entente discovery map game.json --player 3", "player 3's view"],
    ],
  );
  examples(
    discovery
      .command("selfplay")
      .summary("random games, one JSON line per game")
      .option("--seed <S>", "the first game's seed", whole(), 1)
      .option("--players <N>", "how many play (9-20)", whole(), DEFAULT_PLAYERS)
      .option("--games <N>", "how many games", whole(1), 1)
      .action(
        run(async (o: { seed: number; players: number; games: number }) =>
          shellOut(io, (await import("../discovery.ts")).discoverySelfPlay(o)),
        ),
      ),
    [["entente discovery selfplay --players 12 --games 2", "two games on new maps"]],
  );
}

/**
 * A moderator's shell's `new` (entente global, entente discovery): a game file started from the
 * seed (and what `more` adds: discovery's players), the convoy rule, the file, --json.
 */
function moderatorNew<O extends NewGameArgs>(
  parent: Command,
  spec: {
    summary: string;
    seed: string;
    more?: (c: Command) => Command;
    make: (o: O) => Promise<ShellResult>;
    example: readonly [string, string];
  },
  run: Run,
  io: Io,
): void {
  const c = parent.command("new").summary(spec.summary).option("--seed <S>", spec.seed, whole(), 1);
  examples(
    (spec.more ? spec.more(c) : c)
      .addOption(
        new Option("--convoy <RULE>", "convoy disruption rule (docs/global.md)").choices([
          "7.6",
          "5.5",
        ]),
      )
      .requiredOption("--out <FILE>", "the game file to write (never over an existing one)")
      .addOption(jsonOption("the summary"))
      .action(run(async (o: O) => shellOut(io, await spec.make(o)))),
    [spec.example],
  );
}

/**
 * A moderator's shell's `play` and `replay` (entente global, entente discovery): the same
 * commands over the family's own files; what differs is named in `shell`.
 */
function moderatorTurns(
  parent: Command,
  shell: {
    shell: "global" | "discovery";
    reports: string;
    play: (
      game: string,
      orders: string,
      o: { reports?: string | undefined; json?: boolean | undefined },
    ) => Promise<ShellResult>;
    replay: (game: string, o: { json?: boolean | undefined }) => Promise<ShellResult>;
    playExample: readonly [string, string];
  },
  run: <A extends unknown[]>(
    fn: (...args: A) => number | Promise<number>,
  ) => (...args: A) => Promise<void>,
  io: Io,
): void {
  examples(
    parent
      .command("play")
      .summary(`adjudicate a turn from an order file; write ${shell.reports}`)
      .argument("<GAME>", "the game file")
      .argument("<ORDERS>", `the order file (docs/${shell.shell}.md)`)
      .option("--reports <DIR>", "where the reports go (default: reports beside the game)")
      .addOption(jsonOption("the turn's summary"))
      .action(
        run(async (game: string, orders: string, o: { reports?: string; json?: boolean }) =>
          shellOut(io, await shell.play(game, orders, o)),
        ),
      ),
    [shell.playExample],
  );
  examples(
    parent
      .command("replay")
      .summary("check that a game file replays exactly")
      .argument("<GAME>", "the game file")
      .addOption(jsonOption("the result"))
      .action(
        run(async (game: string, o: { json?: boolean }) =>
          shellOut(
            io,
            await shell.replay(game, o),
            `${shell.shell} replay`,
            `${game} does not replay exactly`,
          ),
        ),
      ),
    [[`entente ${shell.shell} replay game.json`, "N turns replay exactly"]],
  );
}
