import { type Command, Option } from "commander";
import {
  completes,
  examples,
  failed,
  group,
  type Io,
  inputOf,
  outputOf,
  profiles,
  type Run,
  variantOption,
  whole,
} from "../define.ts";
import type { SelfPlayArgs } from "../selfplay.ts";
import { DEFAULT_YEARS, lastYear } from "../years.ts";

/*
 * `entente selfplay`, `entente bench selfplay` and `entente agent`: games played by the
 * built-in players, their speed measured, and the research API as JSON Lines.
 */

export function addSelfplay(program: Command, io: Io, run: Run): void {
  examples(
    program
      .command("selfplay")
      .summary("random legal play; a JSON summary line")
      .description(
        `Plays games of random legal orders and prints a JSON summary line (phases, winners,
invariant violations; exit status 1 if any). A game runs --years game-years from its
variant's start (${DEFAULT_YEARS} unless told), or to --until YEAR; the game families
(global, discovery) count turns instead (--turns). A progress bar on a terminal.`,
      )
      .addOption(variantOption("the variant (entente variants)", "classical"))
      .option("--players <N>", "the scenario (classical: 7, 6, 5, 4, 3, 3b, 2; discovery: 9-20)")
      .option("--games <N>", "how many games", whole(1), 1)
      .option("--seed <S>", "the first game's seed (game g plays seed S+g)", whole(), 1)
      .option(
        "--years <N>",
        `game-years to play from the variant's start (default: ${DEFAULT_YEARS})`,
        whole(1),
      )
      .option("--until <YEAR>", "or: the last calendar year to play", whole())
      .option(
        "--turns <N>",
        "global, discovery: the most turns a game is played (default: 60)",
        whole(1),
      )
      .option("--workers <K>", "threads playing: this one and K-1 workers", whole(1), 1)
      .option(
        "--shard <I/N>",
        "play the I-th of N consecutive parts of the games (their outputs concatenate)",
      )
      .addOption(completes(new Option("--rules <PROFILE>", "the rule profile"), profiles))
      .option("--out <FILE>", "write every game's record here, one JSON line each")
      .action(
        run(async (o: SelfPlayArgs) => {
          const { runSelfPlay } = await import("../selfplay.ts");
          const summary = await runSelfPlay(o);
          io.out(`${JSON.stringify(summary)}\n`);
          const n = summary.invariantViolations;
          return n === 0 ? 0 : failed(io, "selfplay", `${n} invariant violations in the games`);
        }),
      ),
    [
      ["entente selfplay --games 100 --seed 1", "100 classical games of 35 years"],
      ["entente selfplay --variant europe1935 --years 10 --out games.jsonl", "and keep records"],
      ["entente selfplay --variant global --turns 30", "Global Diplomacy, 30 turns at most"],
      [
        "entente selfplay --games 1000 --shard 2/4 --out part2.jsonl",
        "a quarter of a run, for another machine",
      ],
    ],
  );
  const bench = group(
    program,
    "bench",
    "benchmarks (docs/performance.md)",
    "Benchmarks: selfplay prints one JSON line (docs/performance.md); bots a table of the built-in players' results (docs/bots.md).",
    [
      ["entente bench selfplay", "the self-play benchmark"],
      ["entente bench bots", "the built-in players against each other"],
    ],
  );
  examples(
    bench
      .command("selfplay")
      .summary("the self-play benchmark: classical games, timed")
      .description(
        `Random self-play on the classical map timed as a whole (the typed path), then a complete
movement phase and the movement resolver alone over the same phases; one JSON line. Each game runs --years game-years from 1901
(${DEFAULT_YEARS} unless told), or to --until YEAR.`,
      )
      .option("--games <N>", "how many games", whole(1), 200)
      .option("--seed <S>", "the first game's seed", whole(1), 12345)
      .option(
        "--years <N>",
        `game-years to play from the start (default: ${DEFAULT_YEARS})`,
        whole(1),
      )
      .option("--until <YEAR>", "or: the last calendar year to play", whole(1))
      .action(
        run(async (o: { games: number; seed: number; years?: number; until?: number }) => {
          const { benchSelfPlay, benchStartYear } = await import("../bench.ts");
          const until = lastYear(benchStartYear(), o.years, o.until);
          io.out(`${JSON.stringify(benchSelfPlay(o.games, o.seed, until))}\n`);
          return 0;
        }),
      ),
    [
      ["entente bench selfplay", `200 games of ${DEFAULT_YEARS} years`],
      ["entente bench selfplay --games 20 --years 5", "a quick run"],
    ],
  );

  examples(
    bench
      .command("bots")
      .summary("built-in players against each other: mean centres, solos, draws")
      .description(
        `Plays one seat with --bot against every other seat played by each kind of --against, the
bot's seat rotating over the seats (game g: seat g mod seats, seed S+g), each game to a solo or
the end of the last year (a draw among the survivors), and prints per kind the mean centres a
seat ends with, solos, draws and eliminations, and the CPU time of the bot's movement decisions
(--json: one JSON line). Bots: entente, greedy, random, hold (docs/bots.md). The same seed
gives the same games.`,
      )
      .option("--bot <ID>", "the player measured", "entente")
      .option("--against <IDS>", "the opponents' kinds, comma-separated", "random,hold,greedy")
      .option("--games <N>", "games per opponent kind", whole(1), 7)
      .option("--seed <S>", "the first game's seed", whole(), 1)
      .option("--years <N>", "game-years to play from the variant's start (default: 10)", whole(1))
      .option("--until <YEAR>", "or: the last calendar year to play", whole())
      .addOption(variantOption("the variant (entente variants)", "classical"))
      .option("--players <N>", "the scenario (classical: 7, 6, 5, 4, 3, 3b, 2)")
      .addOption(completes(new Option("--rules <PROFILE>", "the rule profile"), profiles))
      .option("--json", "one JSON line instead of the table")
      .action(
        run(
          async (o: {
            bot: string;
            against: string;
            games: number;
            seed: number;
            years?: number;
            until?: number;
            variant: string;
            players?: string;
            rules?: string;
            json?: boolean;
          }) => {
            const { benchBots, benchBotsText } = await import("../bench-bots.ts");
            const r = benchBots({ ...o, years: o.until === undefined ? (o.years ?? 10) : o.years });
            io.out(o.json ? `${JSON.stringify(r)}\n` : benchBotsText(r));
            return 0;
          },
        ),
      ),
    [
      ["entente bench bots", "entente against random, hold and greedy players, 7 games each"],
      [
        "entente bench bots --against greedy --games 14 --until 1915",
        "a longer look at one matchup",
      ],
      ["entente bench bots --variant europe1935 --games 9", "on the 1935 map, each power once"],
    ],
  );

  // --- agent ---------------------------------------------------------------------------------
  examples(
    program
      .command("agent")
      .summary("the research API as JSON Lines on stdin/stdout (docs/research.md)")
      .description(
        `Serves the research API (docs/research.md) to an agent in another language: one JSON
request per line on standard input, one JSON answer per line on standard output, each as
soon as its request is read, until the input ends. Games by handle: new, board, state, legal, step, random, clone, save, load, drop.`,
      )
      .action(
        run(async () => {
          const { runAgent } = await import("../agent.ts");
          await runAgent(inputOf(io), outputOf(io));
          return 0;
        }),
      ),
    [["python3 examples/random_agent.py", "a random agent in Python, through entente agent"]],
  );
}
