import { readFileSync } from "node:fs";
import type { Io } from "./define.ts";
import { descriptorChunks, streamOutput } from "./lines.ts";
import { runCli } from "./run.ts";

/* `bin/entente`: the command line (program.ts) on the process's standard streams. */

const io: Io = {
  out: (text) => {
    process.stdout.write(text);
  },
  err: (text) => {
    process.stderr.write(text);
  },
  stdin: () => readFileSync(0, "utf8"),
  // Read by descriptor into one buffer (lines.ts says why); process.stdin if it cannot block.
  input: () => descriptorChunks(0, () => process.stdin),
  output: () => streamOutput(process.stdout),
};

// A reader that stops early (`entente variant show classical | head`) closes the pipe: that
// is not an error of ours, so stop quietly instead of crashing with EPIPE.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
  process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
});

process.exitCode = await runCli(process.argv.slice(2), io);
