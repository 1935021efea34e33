import { readFileSync } from "node:fs";
import { Argument, Command, InvalidArgumentError, Option } from "commander";
import {
  DEFAULT_MAP_SEED as DEFAULT_DISCOVERY_SEED,
  DEFAULT_PLAYERS,
} from "../variants/discovery/defaults.ts";
import { type Chunks, type LineOutput, textOutput } from "./lines.ts";
import type { ShellResult } from "./moderator.ts";
import type { Progress } from "./progress.ts";
import type { RenderArgs } from "./render.ts";
import { DEFAULT_YEARS, lastYear } from "./years.ts";

/*
 * Every command's code (the engine's games, the variants, the server, the store, the mail
 * gateway, the map renderer) is imported by the action that uses it, when it runs: a command
 * pays only for what it needs, in time and memory (`entente bench selfplay` loads the
 * classical game and the engine alone, docs/performance.md). Static imports here are the
 * definitions' own needs: commander, defaults shown in the help, the ids that complete.
 *
 * Every command of `bin/entente`, defined once with commander: its arguments, its options
 * with their defaults, its examples and its action. `--help`, `entente help`, the shell
 * completion (completion.ts), docs/cli.md's reference (reference.ts) and the README check
 * (cli-definitions.test.ts) are all read from these definitions. docs/cli.md says how to add
 * a command or an option.
 *
 * An action returns the exit status; a user's mistake is thrown as a UsageError (or the
 * commands' CliError) and becomes one line on stderr with status 2 (main.ts).
 */

/** Where a command writes: standard output and standard error (tests capture them). */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Standard input, read whole (commands that read it, when `input` is not given). */
  stdin(): string;
  /** Standard input as it comes (adjudicate, agent; main.ts gives process.stdin). */
  input?(): Chunks;
  /** Standard output for answers streamed as they are made (adjudicate, agent). */
  output?(): LineOutput;
}

/** Standard input as it comes: `io.input`, or else all of it at once. */
const inputOf = (io: Io): Chunks => (io.input ? io.input() : [io.stdin()]);
/** Standard output for streamed answers: `io.output`, or else `io.out`. */
const outputOf = (io: Io): LineOutput => (io.output ? io.output() : textOutput((t) => io.out(t)));

/** A mistake in how the command was called: one line on stderr, exit status 2. */
export class UsageError extends Error {}

export interface Example {
  /** The command line, starting with `entente`. */
  readonly command: string;
  /** What it does, in a few words. */
  readonly does: string;
}

const EXAMPLES = new WeakMap<Command, readonly Example[]>();
/**
 * A set of words an option's value completes to: the variant ids (with the game families) or
 * the rule profiles. Named, not listed: the variants are loaded by the commands that use them,
 * and by the completion script (completion.ts), which says what each set holds.
 */
export type Completion = "variants" | "profiles";
const COMPLETIONS = new WeakMap<Option | Argument, Completion>();
const JSON_ERRORS = new WeakSet<Command>();

/** A command's examples, as shown under its --help. */
export const examplesOf = (cmd: Command): readonly Example[] => EXAMPLES.get(cmd) ?? [];

/**
 * The words an option's or argument's value completes to, if it has a fixed set; `sets` says
 * what a named set holds.
 */
export function valuesOf(
  x: Option | Argument,
  sets: (set: Completion) => readonly string[],
): readonly string[] | undefined {
  const named = COMPLETIONS.get(x);
  if (named) return sets(named);
  const choices = "argChoices" in x ? x.argChoices : undefined;
  return choices && choices.length > 0 ? choices : undefined;
}

/** Whether a value names a file or folder (placeholders FILE, DIR, RECORD, GAME, ORDERS). */
export function takesPath(x: Option | Argument): boolean {
  const flags = x instanceof Option ? x.flags : x.name();
  return /FILE|DIR|RECORD|GAME|ORDERS|MAIL/.test(flags);
}

/** Commands whose errors are also written as a JSON line on stdout (adjudicate's contract). */
export const errorsAsJson = (cmd: Command): boolean => JSON_ERRORS.has(cmd);

/** Every command under `root`, depth first, the root included. */
export function allCommands(root: Command): Command[] {
  return [root, ...root.commands.flatMap((c) => allCommands(c))];
}

/** `entente variant show`: the words that call a command. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

function examples(cmd: Command, list: readonly (readonly [string, string])[]): Command {
  const all = list.map(([command, does]) => ({ command, does }));
  EXAMPLES.set(cmd, all);
  cmd.addHelpText(
    "after",
    `\nExamples:\n${all.map((e) => `  $ ${e.command}\n      ${e.does}`).join("\n")}\n`,
  );
  return cmd;
}

/** An option or argument whose value completes to a known set (variant ids, profiles). */
function completes<T extends Option | Argument>(x: T, values: Completion): T {
  COMPLETIONS.set(x, values);
  return x;
}

const whole =
  (min = Number.MIN_SAFE_INTEGER) =>
  (text: string): number => {
    const n = Number(text);
    if (text.trim() === "" || !Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(
        min === 1
          ? "it must be a whole number of at least 1"
          : min === 0
            ? "it must be a whole number of at least 0"
            : "it must be a whole number",
      );
    return n;
  };

/** A port: checked here, passed on as written (serve reads PORT from the environment too). */
const port = (text: string): string => {
  const n = Number(text);
  if (text.trim() === "" || !Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError("a port is a whole number from 0 to 65535");
  return text;
};

/** Every variant id, the game families' included (`entente variants`). */
export async function allVariants(): Promise<string[]> {
  const { gameIds, variantIds } = await import("../variants/registry.ts");
  return [...variantIds(), ...gameIds()];
}
const profiles: Completion = "profiles";

const variantOption = (what: string, dflt?: string) => {
  const o = completes(new Option("--variant <ID>", what), "variants");
  return dflt === undefined ? o : o.default(dflt);
};

/**
 * A failure (exit status 1) whose details are the command's output: one line on stderr
 * says what failed.
 */
function failed(io: Io, command: string, why: string): number {
  io.err(`entente ${command}: ${why}\n`);
  return 1;
}

/**
 * A moderator shell's result (global, discovery): its text, or its error as a usage error;
 * `command` and `why` say what failed when its status is 1.
 */
function shellOut(io: Io, r: ShellResult, command = "", why = "failed"): number {
  if (r.error !== undefined) throw new UsageError(r.error);
  io.out(r.text);
  return r.status === 1 ? failed(io, command, why) : r.status;
}

/**
 * The whole command line. `status()` is the exit status the action that ran returned (an
 * action may leave work running, as `serve` does, and return 0).
 */
export function buildProgram(io: Io): {
  program: Command;
  status: () => number;
  /** Whether commander printed help because a group was called without its command. */
  helpWasError: () => boolean;
} {
  let status = 0;
  let helpWasError = false;
  const run =
    <A extends unknown[]>(fn: (...args: A) => number | Promise<number>) =>
    async (...args: A): Promise<void> => {
      status = await fn(...args);
    };

  const program = new Command("entente")
    .description("Entente: a Diplomacy adjudicator and game host")
    .version(packageVersion(), "-V, --version", "print the version")
    .helpOption("-h, --help", "show the usage, the options and examples")
    .helpCommand("help [command]", "show the usage of a command")
    .configureOutput({
      writeOut: (s) => io.out(s),
      // Errors are written by run.ts, one line each; commander writes to stderr only the help
      // of a group called without its command, which run.ts replaces by one line.
      writeErr: () => {
        helpWasError = true;
      },
      outputError: () => {},
    })
    .showSuggestionAfterError(true);
  program.addHelpText(
    "after",
    `
Documentation: the adjudicate contract docs/adjudicate-json.md; rule profiles and options
docs/rules.md; game records and order files docs/records.md; the judge docs/judge.md; the
command line docs/cli.md. Exit status: 0 done, 1 a failure, 2 a usage error.`,
  );
  examples(program, [
    ["entente adjudicate < position.json", "adjudicate a position (JSON or JSON Lines)"],
    ["entente selfplay --variant europe1935 --years 10", "ten game-years of random play"],
    ["entente help selfplay", "one command's usage, options and examples"],
  ]);

  // --- adjudicate --------------------------------------------------------------------------
  const adjudicate = program
    .command("adjudicate")
    .summary("adjudicate positions: one JSON object or JSON Lines on stdin")
    .description(
      `Reads positions with orders on standard input, one JSON object or JSON Lines, and writes
one result per input object, one per line, in the same order (docs/adjudicate-json.md).
JSON Lines are a stream: each line is answered as soon as it is read, in bounded memory.
A bad line gets an {"error": ...} line and the others are still answered; the exit status
is then 1. Every error is a JSON line on standard output.`,
    )
    .addOption(
      completes(
        new Option(
          "--rules <PROFILE>",
          "rule profile for positions without rules of their own",
        ).default("datc"),
        profiles,
      ),
    )
    .action(
      run(async (o: { rules: string }) => {
        const { readRules } = await import("../engine/rules.ts");
        const { adjudicateStream } = await import("./adjudicate.ts");
        const rules = readRules(o.rules);
        if (!rules.ok) throw new UsageError(rules.error);
        return await adjudicateStream(inputOf(io), outputOf(io), rules.rules);
      }),
    );
  JSON_ERRORS.add(adjudicate);
  examples(adjudicate, [
    ["entente adjudicate < position.json", "one position, pretty-printed or not"],
    ["entente adjudicate --rules houserules < positions.jsonl", "JSON Lines, the house rules"],
  ]);

  // --- variants, variant show|check ----------------------------------------------------------
  examples(
    program
      .command("variants")
      .summary("list the variant ids, one per line")
      .description("Lists every variant id, the game families (global, discovery) included.")
      .action(
        run(async () => {
          io.out(`${(await allVariants()).join("\n")}\n`);
          return 0;
        }),
      ),
    [["entente variants", "classical, europe1935, global, discovery, ..."]],
  );
  const variant = program
    .command("variant")
    .summary("show a variant, or check a variant data file")
    .description("A variant as JSON, or a variant data file checked (docs/variant.schema.json).");
  examples(variant, [
    ["entente variant show classical", "powers, provinces, adjacency, start"],
    ["entente variant check my-map.json", "every problem of a variant file, or its summary"],
  ]);
  examples(
    variant
      .command("show")
      .summary("print a variant as JSON")
      .description("Prints a variant as JSON: powers, provinces with adjacency, the start.")
      .addArgument(completes(new Argument("<ID>", "the variant id (entente variants)"), "variants"))
      .action(run(async (id: string) => variantShow(io, id))),
    [["entente variant show europe1935", "the 1935 map as JSON"]],
  );
  examples(
    variant
      .command("check")
      .summary("validate a variant data file")
      .description(
        "Validates a variant data file (docs/variant.schema.json): every problem with its path,\nor a summary of the variant. Exit status 1 when it has problems.",
      )
      .argument("<FILE>", "the variant file (JSON)")
      .option("--json", "the result as one JSON line")
      .action(
        run(async (file: string, o: { json?: boolean }) => {
          const { checkVariantFile } = await import("./variant-check.ts");
          const r = checkVariantFile(file, o.json);
          io.out(r.report.endsWith("\n") ? r.report : `${r.report}\n`);
          return r.ok ? 0 : failed(io, "variant check", `${file} is not a valid variant file`);
        }),
      ),
    [
      ["entente variant check my-map.json", "a summary, or every problem"],
      ["entente variant check my-map.json --json", "the same as JSON"],
    ],
  );

  // --- new, play, history, replay -------------------------------------------------------------
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
      .option("--json", "with --out: the summary as one JSON line")
      .action(
        run(
          async (o: {
            variant: string;
            variantFile?: string;
            players?: string;
            rules?: string;
            seed: string;
            out?: string;
            json?: boolean;
          }) => {
            const { cmdNew } = await import("./games.ts");
            io.out(cmdNew(o));
            return 0;
          },
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
      .option("--json", "the phase played as one JSON line")
      .action(
        run(async (record: string, orders: string, o: { out?: string; json?: boolean }) => {
          const { cmdPlay } = await import("./games.ts");
          io.out(cmdPlay(record, orders, o.out, o.json));
          return 0;
        }),
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
        run(async (record: string) => {
          const { cmdHistory } = await import("./games.ts");
          io.out(cmdHistory(record));
          return 0;
        }),
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
      .option("--json", "the result as one JSON line")
      .action(
        run(async (record: string, o: { json?: boolean }) => {
          const { cmdReplay } = await import("./games.ts");
          const { progressBar } = await import("./progress.ts");
          let bar: Progress | undefined;
          const r = cmdReplay(record, {
            json: o.json,
            onPhase: (n, total) => {
              bar ??= progressBar(total, "phases replayed");
              bar(n);
            },
          });
          bar?.finish();
          io.out(r.text);
          return r.ok ? 0 : failed(io, "replay", `${record} does not replay exactly`);
        }),
      ),
    [
      ["entente replay game.json", "N phases replay exactly"],
      ["entente replay game.json --json", "the same as JSON"],
    ],
  );

  // --- selfplay, bench selfplay ---------------------------------------------------------------
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
        run(
          async (o: {
            variant: string;
            players?: string;
            games: number;
            seed: number;
            years?: number;
            until?: number;
            turns?: number;
            workers: number;
            shard?: string;
            rules?: string;
            out?: string;
          }) => {
            const { runSelfPlay } = await import("./selfplay.ts");
            const summary = await runSelfPlay(o);
            io.out(`${JSON.stringify(summary)}\n`);
            const n = summary.invariantViolations;
            return n === 0 ? 0 : failed(io, "selfplay", `${n} invariant violations in the games`);
          },
        ),
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
  const bench = program
    .command("bench")
    .summary("benchmarks (docs/performance.md)")
    .description(
      "Benchmarks: selfplay prints one JSON line (docs/performance.md); bots a table of the built-in players' results (docs/bots.md).",
    );
  examples(bench, [
    ["entente bench selfplay", "the self-play benchmark"],
    ["entente bench bots", "the built-in players against each other"],
  ]);
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
          const { benchSelfPlay, benchStartYear } = await import("./bench.ts");
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
            const { benchBots, benchBotsText } = await import("./bench-bots.ts");
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
          const { runAgent } = await import("./agent.ts");
          await runAgent(inputOf(io), outputOf(io));
          return 0;
        }),
      ),
    [["python3 examples/random_agent.py", "a random agent in Python, through entente agent"]],
  );

  // --- serve, mail ingest --------------------------------------------------------------------
  examples(
    program
      .command("serve")
      .summary("run the judge server (docs/judge.md)")
      .description(
        `Runs the judge: the web page, the API, deadlines, and play by email (docs/judge.md,
docs/email.md). SQLite in --data, or PostgreSQL when DATABASE_URL=postgres://... is set.
Runs until SIGINT or SIGTERM; its log goes to stderr.`,
      )
      .option("--port <N>", "the HTTP port (default: PORT, else 8080; 0 picks a free one)", port)
      .option("--host <H>", "the address to listen on (default: HOST, else 0.0.0.0)")
      .option("--data <DIR>", "the data folder: SQLite database, outbox (default: ./data)")
      .option(
        "--smtp-port <N>",
        "the mail receiver's port (default: ENTENTE_SMTP_PORT, or none)",
        port,
      )
      .option("--smtp-host <H>", "the mail receiver's address (default: ENTENTE_SMTP_HOST)")
      .option(
        "--public-url <URL>",
        "the judge's web address, for links in mail (default: ENTENTE_PUBLIC_URL, or none)",
      )
      .option(
        "--daide-ports <FIRST-LAST>",
        "ports for games with seats for DAIDE clients, one per game (docs/daide.md; default: ENTENTE_DAIDE_PORTS, or none)",
      )
      .action(
        run(
          (o: {
            port?: string;
            host?: string;
            data?: string;
            smtpPort?: string;
            smtpHost?: string;
            publicUrl?: string;
            daidePorts?: string;
          }) => {
            import("./serve.ts")
              .then(({ serve }) => serve(o))
              .catch((e: unknown) => {
                io.err(`entente serve: ${e instanceof Error ? e.message : String(e)}\n`);
                process.exit(1);
              });
            return 0;
          },
        ),
      ),
    [
      ["entente serve", "http://localhost:8080, data in ./data"],
      ["entente serve --port 9000 --data /var/lib/entente --smtp-port 2525", "and mail"],
      [
        "entente serve --daide-ports 16713-16812",
        "games with seats for DAIDE clients (AI players)",
      ],
    ],
  );
  for (const cmd of ["backup", "restore"] as const) {
    const c = program
      .command(cmd)
      .summary(
        cmd === "backup"
          ? "copy the judge's SQLite database, safe while the server runs"
          : "put a backup in place (the server stopped; docs/judge.md)",
      )
      .description(
        cmd === "backup"
          ? `Copies the judge's SQLite database (--data) to FILE with SQLite's online backup, safe
while the server runs; the copy is checked and its games counted. With DATABASE_URL set to
PostgreSQL it says which PostgreSQL tool does it instead (docs/judge.md, "Backups").`
          : `Puts a backup made by entente backup in place of the judge's SQLite database (--data),
after checking it. The server must be stopped: while a server (or, on Linux, any process)
has the database open the restore is refused, naming it, and nothing changes. An existing
database is replaced only with --force.`,
      )
      .argument("<FILE>", cmd === "backup" ? "where to write the copy" : "the backup to restore")
      .option("--data <DIR>", "the data folder (default: ./data)");
    if (cmd === "restore") c.option("--force", "replace an existing database");
    examples(
      c.action(
        run(async (file: string, o: { data?: string; force?: boolean }) => {
          const { cmdBackup } = await import("./backup.ts");
          io.out(await cmdBackup(cmd, { file, data: o.data, force: o.force ?? false }));
          return 0;
        }),
      ),
      cmd === "backup"
        ? [
            ["entente backup backups/entente-2026-11-24.sqlite", "a copy of ./data's database"],
            ["entente backup /mnt/b/club.sqlite --data /var/lib/entente", "another data folder"],
          ]
        : [["entente restore backups/entente-2026-11-24.sqlite --force", "the server stopped"]],
    );
  }
  const mail = program
    .command("mail")
    .summary("play by email tools (docs/email.md)")
    .description("Play by email tools (docs/email.md).");
  examples(mail, [["entente mail ingest order.eml", "handle a mail, print the reply"]]);
  examples(
    mail
      .command("ingest")
      .summary("handle a raw mail as the judge's receiver does; print the reply")
      .description(
        "Handles a raw mail exactly as the judge's mail receiver does (same store, the reply\nqueued in the outbox) and prints the reply. Exit status 1 if the mail was refused.",
      )
      .argument("<FILE.eml>", "the raw mail, or - for standard input")
      .option("--data <DIR>", "the data folder (default: ./data)")
      .action(
        run(async (file: string, o: { data?: string }) => {
          const { cmdMailIngest } = await import("./mail.ts");
          const r = await cmdMailIngest({ file, data: o.data });
          io.out(r.text);
          return r.ok
            ? 0
            : failed(io, "mail ingest", "the mail was not accepted (the reply says why)");
        }),
      ),
    [
      ["entente mail ingest order.eml", "the judge's reply"],
      ["entente mail ingest - --data ./data < order.eml", "from standard input"],
    ],
  );

  // --- daide host ----------------------------------------------------------------------------
  const daide = program
    .command("daide")
    .summary("DAIDE: host a game for AI clients over TCP (docs/daide.md)")
    .description("DAIDE, the protocol of Diplomacy AI programs (docs/daide.md).");
  examples(daide, [["entente daide host --port 16713", "one game for seven DAIDE clients"]]);
  examples(
    daide
      .command("host")
      .summary("one game on one port for DAIDE clients; a JSON summary line at the end")
      .description(
        `Hosts one game for DAIDE clients (no press by default; --level 10 for SND and FRM
between the clients) on --port: clients take the seats in the order they send NME
(IAM brings a dropped client back), OBS watches, --bots seats are played by a built-in player
(the last seats, or those --bot-powers names or draws). The game starts when every seat is taken; a phase ends when
every power is ready (GOF, or complete orders without NOT (GOF)) or its time runs out; the
game ends at a solo, a draw all survivors ask for (DRW), or the start of --until YEAR (a
draw among the survivors). Then every client gets SMR and OFF, one JSON line is printed
(game, phases, result, each power's centres and client) and the exit status is 0. The game
runs on the engine; with --data its record is written there (entente replay reads it).`,
      )
      .requiredOption("--port <N>", "the TCP port (0 picks a free one, said on stderr)", port)
      .option("--host <H>", "the address to listen on (default: 0.0.0.0)")
      .addOption(variantOption("the variant (classical, europe1935)", "classical"))
      .option("--players <N>", "the scenario (classical: 7, 6, 5, 4, 3, 3b, 2)")
      .option("--move-time <S>", "seconds per phase; 0: no time limit", whole(0), 60)
      .option("--until <YEAR>", "end the game at the start of this year (a draw)", whole())
      .option(
        "--bots <K>",
        "built-in players for K seats (the last, or those --bot-powers says)",
        whole(0),
        0,
      )
      .option(
        "--bot <ID>",
        "which built-in player (docs/bots.md: entente, greedy, random, hold)",
        "random",
      )
      .option(
        "--bot-powers <LIST>",
        "the built-in players' seats: powers (TUR,ENG), or random (drawn with --seed)",
      )
      .option("--level <L>", "press level: 0 (no press) or 10 (peace and alliances)", "0")
      .option("--seed <S>", "seeds the built-in players and the scenario's draws", whole(), 1)
      .option("--data <DIR>", "write the game's record here when it ends")
      .action(
        run(
          async (o: {
            port: string;
            host?: string;
            variant: string;
            players?: string;
            moveTime: number;
            until?: number;
            bots: number;
            bot: string;
            botPowers?: string;
            level?: string;
            seed: number;
            data?: string;
          }) => {
            const { cmdDaideHost } = await import("./daide.ts");
            return cmdDaideHost(
              o,
              (t) => io.out(t),
              (t) => io.err(t),
            );
          },
        ),
      ),
    [
      ["entente daide host --port 16713", "seven DAIDE clients, 60 s a phase"],
      [
        "entente daide host --port 16713 --bots 4 --move-time 5 --until 1910",
        "three clients and four built-in players, to 1910",
      ],
      [
        "entente daide host --port 16713 --bots 6 --bot entente --bot-powers random --seed 7",
        "one client against six built-in players, their seats drawn",
      ],
      ["entente daide host --port 16713 --variant europe1935 --data games", "keep the record"],
    ],
  );

  // --- render ---------------------------------------------------------------------------------
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
      .option("--json", "what was drawn as one JSON line")
      .action(
        run(async (o: RenderArgs) => {
          const { cmdRender } = await import("./render.ts");
          io.out(cmdRender(o));
          return 0;
        }),
      ),
    [
      ["entente render --variant europe1935 --out map.png", "a variant's start"],
      ["entente render --record game.json --phase S1901M --out s1901.svg", "a phase with orders"],
      ["entente render --record game.json --out frames/{phase}.png", "every phase of a game"],
      ["entente render --record game.json --gif game.gif", "the game as an animated GIF"],
      ["entente render --variant discovery --players 12 --out map.svg", "a generated map"],
    ],
  );

  // --- global, discovery ----------------------------------------------------------------------
  const convoy = () =>
    new Option("--convoy <RULE>", "convoy disruption rule (docs/global.md)").choices([
      "7.6",
      "5.5",
    ]);
  const global = program
    .command("global")
    .summary("moderate a Global Diplomacy game (docs/global.md)")
    .description("Moderates a game of Global Diplomacy from files (docs/global.md).");
  examples(global, [
    ["entente global new --seed 17 --out game.json", "turn 1, all neutral"],
    ["entente global play game.json orders.txt", "a turn; each power's report"],
  ]);
  examples(
    global
      .command("new")
      .summary("start a game file")
      .option("--seed <S>", "the game's seed", whole(), 1)
      .addOption(convoy())
      .requiredOption("--out <FILE>", "the game file to write (never over an existing one)")
      .option("--json", "the summary as one JSON line")
      .action(
        run(async (o: { seed: number; convoy?: string; out: string; json?: boolean }) =>
          shellOut(io, (await import("./global.ts")).globalNew(o)),
        ),
      ),
    [["entente global new --seed 17 --out game.json", "a new game"]],
  );
  moderatorTurns(
    global,
    {
      shell: "global",
      reports: "each power's report",
      play: async (...a) => (await import("./global.ts")).globalPlay(...a),
      replay: async (...a) => (await import("./global.ts")).globalReplay(...a),
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
            (await import("./global.ts")).globalSelfPlay(o),
            "global selfplay",
            "two units in one area in a game",
          ),
        ),
      ),
    [["entente global selfplay --games 3", "three games to their end (60 turns at most)"]],
  );

  const discovery = program
    .command("discovery")
    .summary("moderate an Age of Discovery game (docs/discovery.md)")
    .description("Moderates a game of Age of Discovery on a generated map (docs/discovery.md).");
  examples(discovery, [
    ["entente discovery new --players 12 --out game.json", "a game on a new map"],
    ["entente discovery map game.json --player 3", "what player 3 knows"],
  ]);
  examples(
    discovery
      .command("new")
      .summary("start a game file on a generated map")
      .option("--seed <S>", "the map's seed", whole(), 1)
      .option("--players <N>", "how many play (9-20)", whole(), DEFAULT_PLAYERS)
      .addOption(convoy())
      .requiredOption("--out <FILE>", "the game file to write (never over an existing one)")
      .option("--json", "the summary as one JSON line")
      .action(
        run(
          async (o: {
            seed: number;
            players: number;
            convoy?: string;
            out: string;
            json?: boolean;
          }) => shellOut(io, (await import("./discovery.ts")).discoveryNew(o)),
        ),
      ),
    [["entente discovery new --seed 5 --players 12 --out game.json", "twelve players"]],
  );
  moderatorTurns(
    discovery,
    {
      shell: "discovery",
      reports: "each player's report",
      play: async (...a) => (await import("./discovery.ts")).discoveryPlay(...a),
      replay: async (...a) => (await import("./discovery.ts")).discoveryReplay(...a),
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
          shellOut(io, (await import("./discovery.ts")).discoveryMap(game, o)),
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
          shellOut(io, (await import("./discovery.ts")).discoverySelfPlay(o)),
        ),
      ),
    [["entente discovery selfplay --players 12 --games 2", "two games on new maps"]],
  );

  // --- completion ------------------------------------------------------------------------------
  examples(
    program
      .command("completion")
      .summary("print a shell completion script (bash or zsh)")
      .description(
        "Prints a completion script for bash or zsh, made from these command definitions.",
      )
      .addArgument(new Argument("<SHELL>", "bash or zsh").choices(["bash", "zsh"]))
      .action(
        run(async (shell: string) => {
          const { completionScript } = await import("./completion.ts");
          io.out(completionScript(program, shell === "zsh" ? "zsh" : "bash"));
          return 0;
        }),
      ),
    [
      ["source <(entente completion bash)", "in ~/.bashrc"],
      ["entente completion zsh > ~/.zfunc/_entente", "with ~/.zfunc in fpath"],
    ],
  );

  // Descriptions are written over several lines above; commander wraps them to the terminal.
  for (const c of allCommands(program)) c.description(c.description().replace(/\s*\n\s*/g, " "));
  return { program, status: () => status, helpWasError: () => helpWasError };
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

/** `entente variant show ID`: a variant as JSON (a game family: its own description). */
async function variantShow(io: Io, id: string): Promise<number> {
  const { getGame, getVariant } = await import("../variants/registry.ts");
  const { writePosition } = await import("../engine/position-json.ts");
  const game = getGame(id);
  if (game) {
    io.out(`${JSON.stringify(game.describe(), null, 1)}\n`);
    return 0;
  }
  const v = getVariant(id);
  if (!v)
    throw new UsageError(`unknown variant "${id}"; known: ${(await allVariants()).join(", ")}`);
  const name = (l: { province: string; coast: string | null }) =>
    l.coast ? `${l.province}/${l.coast}` : l.province;
  const provinces = v.map.provinces.map((p) => ({
    id: p.id,
    name: p.name,
    aliases: p.aliases,
    type: p.kind,
    coasts: p.coasts,
    supplyCenter: p.supplyCenter,
    home: p.home,
    adjacency: {
      army: v.map.armyNeighbours(p.id),
      fleet:
        p.coasts.length > 0
          ? Object.fromEntries(
              p.coasts.map((c) => [
                c,
                v.map.fleetNeighbours({ province: p.id, coast: c }).map(name),
              ]),
            )
          : v.map.fleetNeighbours({ province: p.id, coast: null }).map(name),
    },
  }));
  const out = {
    id: v.id,
    name: v.name,
    victoryCenters: v.victoryCenters,
    powers: v.powers,
    provinces,
    start: writePosition(v, v.start),
  };
  io.out(`${JSON.stringify(out, null, 2)}\n`);
  return 0;
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
      .option("--json", "the turn's summary as one JSON line")
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
      .option("--json", "the result as one JSON line")
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
