import type { Command, Option } from "commander";
import { allCommands, commandPath, examplesOf } from "./define.ts";

/*
 * docs/cli.md's command reference, written from the command definitions (program.ts):
 * `node --import tsx scripts/cli-docs.ts` puts it between the markers below, and
 * cli-definitions.test.ts fails when the file and the definitions differ.
 */

export const REFERENCE_START = "<!-- The command reference: written by scripts/cli-docs.ts. -->";
export const REFERENCE_END = "<!-- End of the command reference. -->";

const cell = (s: string): string => s.replaceAll("|", "\\|");

/** A Markdown table with its columns padded, as the formatter (Biome) writes it. */
function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(3, h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line), ""];
}

function optionRow(o: Option): string[] {
  const dflt =
    o.defaultValue === undefined ? "" : `\`${cell(String(o.defaultValue as string | number))}\``;
  const choices = o.argChoices ? ` (${o.argChoices.join(", ")})` : "";
  return [`\`${cell(o.flags)}\``, `${cell(o.description)}${cell(choices)}`, dflt];
}

function section(cmd: Command): string {
  const path = commandPath(cmd);
  const lines = [`### \`${path}\``, "", cmd.summary() || cmd.description(), ""];
  lines.push(`    ${path} ${cmd.usage()}`, "");
  if (cmd.summary() && cmd.description() && cmd.description() !== cmd.summary())
    lines.push(cmd.description(), "");
  if (cmd.registeredArguments.length > 0) {
    const rows = cmd.registeredArguments.map((a) => {
      const choices = a.argChoices ? ` (${a.argChoices.join(", ")})` : "";
      return [`\`${a.name()}\``, `${cell(a.description)}${cell(choices)}`];
    });
    lines.push(...table(["argument", ""], rows));
  }
  const options = cmd.options.filter((o) => !o.hidden);
  if (options.length > 0) lines.push(...table(["option", "", "default"], options.map(optionRow)));
  const subs = cmd.commands.map((c) => `\`${c.name()}\``);
  if (subs.length > 0) lines.push(`Commands: ${subs.join(", ")}.`, "");
  const examples = examplesOf(cmd);
  if (examples.length > 0) {
    const width = Math.max(...examples.map((e) => e.command.length));
    lines.push(
      "Examples:",
      "",
      ...examples.map((e) => `    ${e.command.padEnd(width)}   # ${e.does}`),
      "",
    );
  }
  return lines.join("\n");
}

/** The reference: every command, in the order `entente help` lists them. */
export function cliReference(program: Command): string {
  const commands = allCommands(program).filter((c) => c !== program);
  return `${REFERENCE_START}\n\n${commands.map(section).join("\n")}\n${REFERENCE_END}`;
}

/** `text` (docs/cli.md) with its reference replaced by `reference`. */
export function withReference(text: string, reference: string): string {
  const a = text.indexOf(REFERENCE_START);
  const b = text.indexOf(REFERENCE_END);
  if (a === -1 || b === -1) throw new Error(`docs/cli.md has lost its reference markers`);
  return text.slice(0, a) + reference + text.slice(b + REFERENCE_END.length);
}
