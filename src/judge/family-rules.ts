import { familyDecide, tallyStanding } from "../bots/family.ts";
import type { Opaque } from "../engine/game.ts";
import { gameFamilies, type HostedFamily } from "../variants/game-rules.ts";
import { invalid } from "./errors.ts";

/*
 * The game families the judge hosts (Global Diplomacy, Age of Discovery): each speaks through
 * its game rules (src/engine/game.ts `GameRules`, typed, its state opaque to the judge) and
 * the few things a host asks beyond them (src/variants/global/rules.ts `FamilyHosting`: the
 * per-power text reports, the options a game is created with, the seats of each player
 * count, the moderator's map, the store's JSON). Both come from the family's own folder
 * through the registry (src/variants/game-rules.ts). family.ts hosts the games with these.
 */

/**
 * The judge's game families as GET /api/variants lists them beside the variants: a note that
 * they are another game, the player counts, and a "scenario" per count (its id the count, as
 * POST /api/games takes it) with its seats.
 */
export function familyListing() {
  return gameFamilies().map(({ rules: f, hosting }) => {
    return {
      id: f.id,
      name: f.name,
      family: `${f.name} is a different game family (seed 004): its own commands, turns and per-player reports (docs/${f.id}.md); the web page's game page shows each player its report and takes its commands (docs/web.md); the sandbox and the clickable orders do not serve it`,
      players: f.players,
      scenarios: Array.from({ length: f.players.max - f.players.min + 1 }, (_, i) => {
        const n = f.players.min + i;
        return {
          id: String(n),
          description:
            f.players.min === f.players.max
              ? `${n} players, one power each`
              : `${n} players on a map generated for the game${n === f.players.default ? " (default)" : ""}`,
          seats: hosting.seats(n).map((p) => ({ name: p.name, powers: [p.power] })),
        };
      }),
    };
  });
}

/** The ids of the game families the judge serves. */
export function judgeFamilyIds(): string[] {
  return gameFamilies().map((f) => f.rules.id);
}

/**
 * A new game's player count: `players`, or `scenario` as the classical games name theirs (a
 * player count, as the lobby sends it), or the family's default; outside the family's range
 * (or the two disagreeing) a 400 that says what is allowed.
 */
export function familyPlayers(
  rules: Pick<HostedFamily["rules"], "name" | "players">,
  players: number | undefined,
  scenario: string | undefined,
): number {
  const { min, max } = rules.players;
  const allowed =
    min === max
      ? `${rules.name} is played by ${min} players, one power each: leave players and scenario out`
      : `${rules.name} is played by ${min} to ${max} players: give "players": ${min} to ${max} (default ${rules.players.default})`;
  const fromScenario =
    scenario === undefined || scenario.trim() === "" ? undefined : Number(scenario.trim());
  if (fromScenario !== undefined && !Number.isInteger(fromScenario))
    throw invalid(`scenario "${scenario}" is not a player count; ${allowed}`);
  if (players !== undefined && fromScenario !== undefined && players !== fromScenario)
    throw invalid(`players ${players} and scenario "${scenario}" disagree; ${allowed}`);
  const n = players ?? fromScenario ?? rules.players.default;
  if (!Number.isInteger(n) || n < min || n > max) throw invalid(`not ${n} players: ${allowed}`);
  return n;
}

/**
 * The family bot's command lines (src/bots/family.ts) for a power of a family game's open
 * turn: judged by the power's tally as the moderator sees it (supply points, units).
 */
export function familyBotLines(
  family: Pick<HostedFamily, "rules" | "hosting" | "lines">,
  state: Opaque<"state">,
  power: string,
  seed: number,
): string[] {
  const decision = familyDecide({
    rules: family.rules,
    state,
    power,
    seed,
    standing: (s, p) => tallyStanding(family.hosting.shown(s, GM).tally[p]),
    text: (o) => family.lines(o).join("\n"),
  });
  return [...family.lines(decision.orders)];
}

const GM = { kind: "gm" } as const;
