import type { Command, CommanderError } from "commander";
import { allCommands, commandPath, errorsAsJson, type Io, UsageError } from "./define.ts";
import { CliError } from "./errors.ts";
import { buildProgram } from "./program.ts";

/*
 * `bin/entente`: runs the command line defined in program.ts and turns what went wrong into
 * one line on stderr and an exit status: 2 for a usage error (a bad command, option or
 * argument, or a mistake the command found in what it was given), 1 for a failure (anything
 * else; ENTENTE_DEBUG=1 adds where it happened). docs/cli.md.
 */

/** A commander parse error, with the command it was raised for. */
class ParseError extends Error {
  constructor(
    readonly command: Command,
    readonly error: CommanderError,
  ) {
    super(error.message);
  }
}

/** Commander's message as one line: `unknown option '--yaers' (did you mean --years?)`. */
function parseErrorLine(e: ParseError): string {
  const path = commandPath(e.command);
  const text = e.error.message.replace(/^error: /, "");
  const hint = /\(Did you mean (.+?)\?\)/.exec(text)?.[1];
  const said = text
    .replace(/\s*\(Did you mean .+?\?\)/, "")
    .replace(/\s+/g, " ")
    .replace(/ is invalid\. /, " is invalid: ")
    .trim()
    .replace(/\.$/, "");
  const suggestion = hint ? ` (did you mean ${hint}?)` : "";
  if (e.error.code === "commander.unknownCommand") {
    const name = /'([^']*)'/.exec(said)?.[1] ?? said;
    const help = e.command.parent ? `${path} --help` : `${path} help`;
    return `${path}: unknown command "${name}"${suggestion}; run "${help}" for the list`;
  }
  if (e.error.code === "commander.help") {
    // A group called without its subcommand (`entente variant`).
    const subs = e.command.commands.map((c) => c.name()).filter((n) => n !== "help");
    return `${path}: needs a command: ${subs.join(", ")}; see "${path} --help"`;
  }
  return `${path}: ${said}${suggestion}; see "${path} --help"`;
}

/** `help A B` as `A B --help`; a name that is not a command is left to be reported. */
function helpArgs(program: Command, names: readonly string[]): string[] {
  const path: string[] = [];
  let at = program;
  for (const name of names) {
    if (at.commands.length === 0) break;
    const sub = at.commands.find((c) => c.name() === name);
    if (!sub) return [...path, name];
    path.push(name);
    at = sub;
  }
  return [...path, "--help"];
}

/**
 * Runs one command line (the arguments after `entente`) and returns its exit status. Work a
 * command leaves running (the server) goes on after it returns.
 */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  const { program, status, helpWasError } = buildProgram(io);
  let active: Command = program;
  program.hook("preAction", (_root, command) => {
    active = command;
  });
  for (const c of allCommands(program)) {
    c.exitOverride((err) => {
      throw new ParseError(c, err);
    });
  }
  if (argv.length === 0) {
    program.outputHelp();
    return 0;
  }
  // `entente help variant show` is `entente variant show --help` (and an unknown name gets
  // the unknown command's message, with its suggestion).
  const args = argv[0] === "help" && argv.length > 1 ? helpArgs(program, argv.slice(1)) : [...argv];
  try {
    await program.parseAsync(args, { from: "user" });
    return status();
  } catch (e) {
    // --help, --version, entente help: done (commander's status for help follows
    // process.exitCode, so it is not read here).
    if (
      e instanceof ParseError &&
      (e.error.exitCode === 0 || (e.error.code === "commander.help" && !helpWasError()))
    )
      return 0;
    const command = e instanceof ParseError ? e.command : active;
    let line: string;
    let code: number;
    if (e instanceof ParseError) {
      line = parseErrorLine(e);
      code = 2;
    } else if (e instanceof UsageError || e instanceof CliError) {
      line = `entente: ${e.message}`;
      code = 2;
    } else {
      const message = e instanceof Error ? e.message : String(e);
      line = `${commandPath(command)}: failed: ${message}`;
      if (process.env.ENTENTE_DEBUG && e instanceof Error && e.stack) line += `\n${e.stack}`;
      else line += " (ENTENTE_DEBUG=1 shows where)";
      code = 1;
    }
    // A program reading adjudicate's output gets its error as JSON on stdout too.
    if (errorsAsJson(command)) io.out(`${JSON.stringify({ error: line.split("\n")[0] })}\n`);
    io.err(`${line}\n`);
    return code;
  }
}
