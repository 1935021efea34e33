import { readFileSync } from "node:fs";
import { Argument, Command } from "commander";
import { addAdjudicate } from "./commands/adjudicate.ts";
import { addFamilies } from "./commands/families.ts";
import { addGames } from "./commands/games.ts";
import { addRender } from "./commands/render.ts";
import { addSelfplay } from "./commands/selfplay.ts";
import { addServe } from "./commands/serve.ts";
import { addVariants } from "./commands/variants.ts";
import { allCommands, examples, type Io } from "./define.ts";

/*
 * The command line of `bin/entente`: the root command, the command groups added in the order
 * the help lists them (one file a group in commands/: adjudicate, variants, games, selfplay,
 * serve, render, families) and `completion`. Every command is defined once with commander:
 * its arguments, its options with their defaults, its examples and its action, written with
 * the tools of define.ts. `--help`, `entente help`, the shell completion (completion.ts),
 * docs/cli.md's reference (reference.ts) and the README check (cli-definitions.test.ts) are
 * all read from these definitions. docs/cli.md says how to add a command or an option.
 *
 * Every command's code (the engine's games, the variants, the server, the store, the mail
 * gateway, the map renderer) is imported by the action that uses it, when it runs: a command
 * pays only for what it needs, in time and memory (`entente bench selfplay` loads the
 * classical game and the engine alone, docs/performance.md). Static imports here and in
 * commands/ are the definitions' own needs: commander, defaults shown in the help, the ids
 * that complete.
 *
 * An action returns the exit status; a user's mistake is thrown as a UsageError (or the
 * commands' CliError) and becomes one line on stderr with status 2 (main.ts).
 */

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

  addAdjudicate(program, io, run);
  addVariants(program, io, run);
  addGames(program, io, run);
  addSelfplay(program, io, run);
  addServe(program, io, run);
  addRender(program, io, run);
  addFamilies(program, io, run);

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
