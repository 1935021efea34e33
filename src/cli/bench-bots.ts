import { botIds, getBot } from "../bots/index.ts";
import { playMatch } from "../bots/match.ts";
import { readRules } from "../engine/rules.ts";
import { getVariant, variantIds } from "../variants/registry.ts";
import { CliError } from "./errors.ts";
import { scenarioArg } from "./scenario-arg.ts";
import { lastYear } from "./years.ts";

/*
 * `entente bench bots`: built-in players against each other. For each opponent kind, games
 * of one seat played by the bot measured against every other seat played by that kind, the
 * bot's seat rotating over the seats (game g: seat g mod seats), each game seeded seed+g and
 * played to a solo or the end of the last year (a draw among the survivors). Per kind: the
 * mean centres a seat ends with, solos, draws shared and eliminations. Deterministic for a
 * seed; only the decision times (the bot's mean and slowest movement decision, in CPU time)
 * vary.
 */

export interface BenchBotsArgs {
  readonly bot: string;
  readonly against: string;
  readonly games: number;
  readonly seed: number;
  readonly years?: number;
  readonly until?: number;
  readonly variant: string;
  readonly players?: string;
  readonly rules?: string;
}

export interface KindFigures {
  readonly bot: string;
  /** Seats this kind played over the games. */
  readonly seats: number;
  readonly meanCentres: number;
  readonly solos: number;
  /** Seats still owning a centre when a game ended without a solo. */
  readonly draws: number;
  readonly eliminated: number;
}

export interface Matchup {
  readonly bot: KindFigures;
  readonly against: KindFigures;
  /** The games' ends: a solo's seat, or "draw", and the year. */
  readonly games: readonly {
    readonly seed: number;
    readonly seat: string;
    readonly winner: string;
    readonly year: number;
  }[];
  /** The bot's movement decisions: mean and slowest, in ms of this process's CPU time. */
  readonly decisionMs: { readonly mean: number; readonly max: number; readonly count: number };
}

export interface BenchBotsResult {
  readonly variant: string;
  readonly scenario: string;
  readonly rules: string;
  readonly seed: number;
  readonly gamesPerMatchup: number;
  readonly untilYear: number;
  readonly matchups: readonly Matchup[];
}

/** This process's CPU time in ms: on a busy machine the wall clock times the others too. */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export function benchBots(a: BenchBotsArgs): BenchBotsResult {
  if (!getVariant(a.variant))
    throw new CliError(`unknown variant "${a.variant}"; known: ${variantIds().join(", ")}`);
  const scenario = scenarioArg(a.variant, a.players);
  const rules = readRules(a.rules, scenario.variant.rules);
  if (!rules.ok) throw new CliError(rules.error);
  const known = () => botIds().join(", ");
  const bot = getBot(a.bot);
  if (!bot) throw new CliError(`unknown bot "${a.bot}"; known: ${known()}`);
  const others = a.against
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((id) => {
      const b = getBot(id);
      if (!b) throw new CliError(`unknown bot "${id}" in --against; known: ${known()}`);
      return b;
    });
  if (others.length === 0) throw new CliError("--against names no bot; give e.g. random,hold");
  if (!Number.isInteger(a.games) || a.games < 1)
    throw new CliError("--games must be a whole number of at least 1");
  const until = lastYear(scenario.variant.start.phase.year, a.years, a.until);
  const seatCount = scenario.seats.length;
  const round = (x: number) => Math.round(x * 100) / 100;
  const matchups = others.map((other): Matchup => {
    const tally = (id: string) => ({ id, seats: 0, centres: 0, solos: 0, draws: 0, eliminated: 0 });
    const mine = tally(bot.id);
    const theirs = tally(other.id);
    const games: Matchup["games"][number][] = [];
    const times: number[] = [];
    for (let g = 0; g < a.games; g++) {
      const seat = g % seatCount;
      const r = playMatch({
        scenario,
        rules: rules.rules,
        seed: a.seed + g,
        untilYear: until,
        players: scenario.seats.map((_, k) => (k === seat ? bot : other)),
        clock: cpuMs,
      });
      r.seats.forEach((s, k) => {
        const t = k === seat ? mine : theirs;
        t.seats++;
        t.centres += s.centres;
        if (s.solo) t.solos++;
        if (s.draw) t.draws++;
        if (s.eliminated) t.eliminated++;
      });
      // The decisions of the bot measured (the opponents may be the same kind: its seat only).
      const own = r.decisions.get(bot.id) ?? [];
      if (other.id !== bot.id) times.push(...own);
      games.push({
        seed: a.seed + g,
        seat: scenario.seats[seat]!.name,
        winner: r.winner ?? "draw",
        year: r.year,
      });
    }
    const figures = (t: ReturnType<typeof tally>): KindFigures => ({
      bot: t.id,
      seats: t.seats,
      meanCentres: round(t.centres / t.seats),
      solos: t.solos,
      draws: t.draws,
      eliminated: t.eliminated,
    });
    const mean = times.length === 0 ? 0 : times.reduce((x, y) => x + y, 0) / times.length;
    return {
      bot: figures(mine),
      against: figures(theirs),
      games,
      decisionMs: {
        mean: round(mean),
        max: round(times.length === 0 ? 0 : Math.max(...times)),
        count: times.length,
      },
    };
  });
  return {
    variant: scenario.variant.id,
    scenario: scenario.id,
    // The profile, and the variant's own defaults over it (europe1935: moveWithoutCoast).
    rules: [
      a.rules ?? "datc",
      ...Object.entries(scenario.variant.rules ?? {}).map(([k, v]) => `${k}=${String(v)}`),
    ].join(" + "),
    seed: a.seed,
    gamesPerMatchup: a.games,
    untilYear: until,
    matchups,
  };
}

/** The figures as a table for people. */
export function benchBotsText(r: BenchBotsResult): string {
  const lines = [
    `${r.variant} (${r.scenario} seats), rules ${r.rules}, ${r.gamesPerMatchup} games a matchup to the end of ${r.untilYear}, seeds ${r.seed}-${r.seed + r.gamesPerMatchup - 1}`,
    "",
    "player     against      seats  mean centres  solos  draws  eliminated",
  ];
  const row = (k: KindFigures, against: string) =>
    `${k.bot.padEnd(10)} ${against.padEnd(12)} ${String(k.seats).padStart(5)}  ${k.meanCentres.toFixed(2).padStart(12)}  ${String(k.solos).padStart(5)}  ${String(k.draws).padStart(5)}  ${String(k.eliminated).padStart(10)}`;
  for (const m of r.matchups) {
    lines.push(row(m.bot, `${m.against.bot} x${m.against.seats / r.gamesPerMatchup}`));
    lines.push(row(m.against, `${m.bot.bot} x1`));
  }
  lines.push("");
  for (const m of r.matchups)
    if (m.decisionMs.count > 0)
      lines.push(
        `${m.bot.bot} against ${m.against.bot}: ${m.decisionMs.count} movement decisions, CPU time mean ${m.decisionMs.mean} ms, slowest ${m.decisionMs.max} ms`,
      );
  return `${lines.join("\n")}\n`;
}
