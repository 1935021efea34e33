import { type Argument, type Command, InvalidArgumentError, Option } from "commander";
import { type Chunks, type LineOutput, textOutput } from "./lines.ts";
import type { ShellResult } from "./moderator.ts";

/*
 * The tools the command definitions are written with (program.ts and commands/): where a
 * command writes (Io), its examples, the value sets an option completes to, the checks of a
 * whole number and a port, and how a usage error or a failure is said. completion.ts and
 * reference.ts read the definitions through these.
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
export const inputOf = (io: Io): Chunks => (io.input ? io.input() : [io.stdin()]);
/** Standard output for streamed answers: `io.output`, or else `io.out`. */
export const outputOf = (io: Io): LineOutput =>
  io.output ? io.output() : textOutput((t) => io.out(t));

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
export const JSON_ERRORS = new WeakSet<Command>();

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

/** Examples as written: the command line and what it does. */
export type Examples = readonly (readonly [string, string])[];

export function examples(cmd: Command, list: Examples): Command {
  const all = list.map(([command, does]) => ({ command, does }));
  EXAMPLES.set(cmd, all);
  cmd.addHelpText(
    "after",
    `\nExamples:\n${all.map((e) => `  $ ${e.command}\n      ${e.does}`).join("\n")}\n`,
  );
  return cmd;
}

/**
 * A group of commands (`entente variant`, `mail`, `daide`, `bench`, `global`, `discovery`):
 * its name, summary, description and examples; its commands are added to what it returns.
 */
export function group(
  parent: Command,
  name: string,
  summary: string,
  description: string,
  list: Examples,
): Command {
  return examples(parent.command(name).summary(summary).description(description), list);
}

/** `--json`, its help `WHAT as one JSON line`. */
export const jsonOption = (what: string): Option =>
  new Option("--json", `${what} as one JSON line`);

/** An action that prints the text `fn` answers, whole; exit status 0. */
export const printed =
  <A extends unknown[]>(io: Io, fn: (...args: A) => string | Promise<string>) =>
  async (...args: A): Promise<number> => {
    io.out(await fn(...args));
    return 0;
  };

/**
 * A check's report printed (replay, variant check, mail ingest); when it failed, exit status 1
 * and one line on stderr (`failed`).
 */
export function reported(
  io: Io,
  r: { readonly text: string; readonly ok: boolean },
  command: string,
  why: string,
): number {
  io.out(r.text);
  return r.ok ? 0 : failed(io, command, why);
}

/** An option or argument whose value completes to a known set (variant ids, profiles). */
export function completes<T extends Option | Argument>(x: T, values: Completion): T {
  COMPLETIONS.set(x, values);
  return x;
}

export const whole =
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
export const port = (text: string): string => {
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
export const profiles: Completion = "profiles";

export const variantOption = (what: string, dflt?: string) => {
  const o = completes(new Option("--variant <ID>", what), "variants");
  return dflt === undefined ? o : o.default(dflt);
};

/**
 * A failure (exit status 1) whose details are the command's output: one line on stderr
 * says what failed.
 */
export function failed(io: Io, command: string, why: string): number {
  io.err(`entente ${command}: ${why}\n`);
  return 1;
}

/**
 * A moderator shell's result (global, discovery): its text, or its error as a usage error;
 * `command` and `why` say what failed when its status is 1.
 */
export function shellOut(io: Io, r: ShellResult, command = "", why = "failed"): number {
  if (r.error !== undefined) throw new UsageError(r.error);
  io.out(r.text);
  return r.status === 1 ? failed(io, command, why) : r.status;
}

/** How an action is run: its exit status kept for `status()` (program.ts). */
export type Run = <A extends unknown[]>(
  fn: (...args: A) => number | Promise<number>,
) => (...args: A) => Promise<void>;
