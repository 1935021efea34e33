import { type Command, Option } from "commander";
import {
  completes,
  examples,
  type Io,
  inputOf,
  JSON_ERRORS,
  outputOf,
  profiles,
  type Run,
  UsageError,
} from "../define.ts";

/* `entente adjudicate`: positions with orders on stdin, one result a line (docs/adjudicate-json.md). */

export function addAdjudicate(program: Command, io: Io, run: Run): void {
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
        const { readRules } = await import("../../engine/rules.ts");
        const { adjudicateStream } = await import("../adjudicate.ts");
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
}
