import { runCli } from "./run.ts";

/* A helper for the command line's tests: a command run in the process, its output caught. */

/** Runs `entente ARGS` with `stdin` as its input: the exit status, what it wrote out and err. */
export async function cli(args: string[], stdin = "") {
  let out = "";
  let err = "";
  const status = await runCli(args, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    stdin: () => stdin,
  });
  return { status, out, err };
}
