// Where a position's time goes in `entente adjudicate` (issue 33), in one process, no pipes:
//   npx esbuild bench/contract-stages.ts --bundle --platform=node --format=esm \
//     --outfile=/tmp/contract-stages.mjs && node /tmp/contract-stages.mjs [--lines 5000]
//     [--rounds 8] [--seed 1]
// (bundled as bin/entente bundles the command, src/cli/plain.mjs; under tsx every function
// carries a name wrapper). The corpus is bench/contract.ts's: mid-game classical movement
// phases, orders as text, `--rules datc`. Each round runs, over every line:
// - session: the command's own handler (`AdjudicateSession.line`: JSON.parse, reading,
//   adjudicating, the answer's JSON), the figure to compare with bench/contract.ts's;
// - then the same work stage by stage, each stage over all lines before the next: JSON.parse;
//   reading the position; reading the order lists; reading the order texts (`parseOrder`,
//   answered from its cache: the adjudication below reads them again); adjudicating (reading
//   the texts, interpreting them against the board, resolving, the next position); the
//   results' words (`reason`, `explanation`); the answer's objects (`writeResult`, the next
//   position); JSON.stringify.
// Prints one JSON line: CPU microseconds a position (process.cpuUsage), the least of the
// rounds (the machine is shared: the least is the run the others disturbed least) and the
// median; the machine and its load. The stages hold every line's values at once, so their
// data is colder than the session's: their sum exceeds the session; read them as shares.
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { AdjudicateSession } from "../src/cli/adjudicate.ts";
import { adjudicate } from "../src/engine/adjudicate.ts";
import { parseOrder } from "../src/engine/parse.ts";
import { readOrders, readPosition, writeResult } from "../src/engine/position-json.ts";
import { parseOptionsFor } from "../src/engine/reading.ts";
import { DATC_RULES } from "../src/engine/rules.ts";
import { getVariant } from "../src/variants/registry.ts";
import { contractCorpus } from "./contract-corpus.ts";

const { values: args } = parseArgs({
  options: {
    lines: { type: "string", default: "5000" },
    rounds: { type: "string", default: "8" },
    seed: { type: "string", default: "1" },
  },
});
const lines = [...contractCorpus({ lines: Number(args.lines), seed: Number(args.seed) })];
const n = lines.length;
const variant = getVariant("classical");
if (!variant) throw new Error("no classical variant");
const reading = parseOptionsFor(DATC_RULES);
const loadBefore = loadavg();

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** One round: µs a position for the session and for each stage. */
function round(): Record<string, number> {
  const t: Record<string, number> = {};
  const session = new AdjudicateSession(DATC_RULES);
  let chars = 0;
  let c = cpu();
  const mark = (k: string) => {
    const now = cpu();
    t[k] = (now - c) / n;
    c = now;
  };
  for (const line of lines) chars += session.line(line).length;
  mark("session");
  const values = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  mark("JSON.parse");
  const positions = values.map((v) => readPosition(v, variant!));
  mark("readPosition");
  const orders = values.map((v) => readOrders(v, variant!));
  mark("readOrders");
  for (const o of orders)
    for (const texts of o.values())
      for (const text of texts) parseOrder(text, variant!.map, variant!.powers, reading);
  mark("parseOrder");
  const results = positions.map((p, i) => adjudicate(variant!, p, orders[i]!, DATC_RULES));
  mark("adjudicate");
  for (const r of results) for (const o of r.results) chars += o.explanation.length;
  mark("words");
  const answers = results.map((r) => writeResult(variant!, r));
  mark("writeResult");
  for (const a of answers) chars += JSON.stringify(a).length;
  mark("JSON.stringify");
  if (chars === 0) throw new Error("no output");
  return t;
}

const rounds: Record<string, number>[] = [];
for (let r = 0; r < Number(args.rounds); r++) rounds.push(round());
const fix = (x: number) => Math.round(x * 10) / 10;
const least: Record<string, number> = {};
const median: Record<string, number> = {};
for (const k of Object.keys(rounds[0]!)) {
  const xs = rounds.map((r) => r[k]!).sort((a, b) => a - b);
  least[k] = fix(xs[0]!);
  median[k] = fix(xs[xs.length >> 1]!);
}
console.log(
  JSON.stringify({
    lines: n,
    rounds: rounds.length,
    usPerPosition: { least, median },
    positionsPerCpuSecond: {
      least: Math.round(1e6 / least.session!),
      median: Math.round(1e6 / median.session!),
    },
    node: process.version,
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    loadAverage: { before: loadBefore.map(fix), after: loadavg().map(fix) },
  }),
);
