import type { ResultJson } from "../engine/position-json.ts";
import { DATC_RULES, type RuleOptions } from "../engine/rules.ts";
import { adjudicateJson } from "./adjudicate.ts";
import { runCli } from "./run.ts";

/*
 * Helpers for the command line's tests: a command run in the process, its output caught; and
 * the adjudication contract's answer for a classical position, with what the tests read of it
 * (the units after the phase, one order's entry).
 */

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

/** The contract's answer for a position of the classical map under `rules`; an error throws. */
export function run(input: Record<string, unknown>, rules: RuleOptions = DATC_RULES): ResultJson {
  const out = adjudicateJson({ variant: "classical", ...input }, rules);
  if ("error" in out) throw new Error(out.error);
  return out;
}

/** The units after the phase, each as `power:unit`, sorted. */
export const units = (r: ResultJson): string[] =>
  Object.entries(r.next.units)
    .flatMap(([p, us]) => us.map((u) => `${p}:${u}`))
    .sort();

/** The entry of a power's i-th order in the answer. */
export const entry = (r: ResultJson, power: string, i: number) => r.orders[power]![i]!;

/**
 * DATC 6.F.14, the simple convoy paradox (tried under each rule profile): France convoys an
 * army from Brest to London, whose fleet supports the Welsh fleet into the Channel, where the
 * convoying fleet stands.
 */
export const convoyParadox = {
  position: { england: ["F lon", "F wal"], france: ["A bre", "F eng"] },
  orders: {
    england: ["F lon S F wal - eng", "F wal - eng"],
    france: ["A bre - lon", "F eng C A bre - lon"],
  },
};

/** A fall in which France keeps a unit for each of its centres: no adjustments follow. */
export const quietFall = {
  phase: "F1901M",
  units: { france: ["A par", "A mar", "F bre"] },
  centers: { france: ["par", "bre", "mar"] },
  orders: {},
};
