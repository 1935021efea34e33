import { closeSync, openSync, writeSync } from "node:fs";
import { readRules } from "../engine/rules.ts";
import { selfPlayGame } from "../engine/selfplay.ts";
import { getVariant, variantIds } from "../variants/registry.ts";
import { getScenario, scenariosOf } from "../variants/scenarios.ts";
import { CliError } from "./games.ts";

export interface SelfPlayArgs {
  variant: string;
  players?: string;
  games: number;
  seed: number;
  until: number;
  rules?: string;
  out?: string;
}

export interface SelfPlaySummary {
  variant: string;
  scenario: string;
  games: number;
  phases: number;
  movementPhases: number;
  seconds: number;
  phasesPerSecond: number;
  winners: Record<string, number>;
  unfinished: number;
  invariantViolations: number;
}

/** A progress bar on stderr, drawn only when stderr is a terminal. */
function progress(done: number, total: number): void {
  if (!process.stderr.isTTY) return;
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(
    `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} games`,
  );
  if (done === total) process.stderr.write("\n");
}

export function runSelfPlay(a: SelfPlayArgs): SelfPlaySummary {
  if (!getVariant(a.variant))
    throw new CliError(`unknown variant "${a.variant}"; known: ${variantIds().join(", ")}`);
  const scenario = getScenario(a.variant, a.players);
  if (!scenario) {
    throw new CliError(
      `${a.variant} has no scenario "${a.players}"; choose --players ${scenariosOf(a.variant)
        .map((s) => s.id)
        .join(", ")}`,
    );
  }
  const rules = readRules(a.rules);
  if (!rules.ok) throw new CliError(rules.error);
  if (!Number.isInteger(a.games) || a.games < 1)
    throw new CliError("--games must be a whole number of at least 1");
  const out = a.out ? openSync(a.out, "w") : null;
  const started = performance.now();
  const summary: SelfPlaySummary = {
    variant: a.variant,
    scenario: scenario.id,
    games: a.games,
    phases: 0,
    movementPhases: 0,
    seconds: 0,
    phasesPerSecond: 0,
    winners: {},
    unfinished: 0,
    invariantViolations: 0,
  };
  try {
    for (let g = 0; g < a.games; g++) {
      const game = selfPlayGame({
        scenario,
        rules: rules.rules,
        seed: a.seed + g,
        untilYear: a.until,
        keepRecord: out !== null,
      });
      summary.phases += game.phases;
      summary.movementPhases += game.movementPhases;
      summary.invariantViolations += game.problems.length;
      if (game.winner) summary.winners[game.winner] = (summary.winners[game.winner] ?? 0) + 1;
      else summary.unfinished++;
      if (out !== null && game.record) writeSync(out, `${JSON.stringify(game.record)}\n`);
      progress(g + 1, a.games);
    }
  } finally {
    if (out !== null) closeSync(out);
  }
  summary.seconds = Number(((performance.now() - started) / 1000).toFixed(3));
  summary.phasesPerSecond = Math.round(summary.phases / Math.max(summary.seconds, 1e-9));
  return summary;
}
