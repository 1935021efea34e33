import type { Kysely } from "kysely";
import {
  type AnyGameRules,
  hosted,
  type Opaque,
  type PhaseInfo,
  type PowerInfo,
} from "../engine/game.ts";
import type { Seat } from "../engine/scenario.ts";
import type { DB } from "../store/schema.ts";
import { diplomacyRules } from "../variants/diplomacy.ts";
import { type FamilyGame, isFamilyGame, loadFamilyGame, stateAt } from "./family.ts";
import { type GameData, loadGame, yearsWithoutCentreChange } from "./game-data.ts";
import type { HostedGame } from "./types.ts";

/*
 * A hosted game with what the hosting tools ask of its rules, for a game of any family: its
 * powers, the open phase, who must order and who is still in the game (the one interface,
 * src/engine/game.ts), and how long no supply centre has changed hands. Votes, press, the
 * GM's end of a game, declared draws and removed units (votes.ts, press.ts, endings.ts,
 * unit-edits.ts) read only this, so
 * one path serves a Diplomacy game and a Global Diplomacy or Age of Discovery game alike.
 */

/** A game of any family, as the hosting tools read it. */
export interface PlayedGame extends HostedGame {
  /** The game's powers: ids as orders, seats and records name them, and their names. */
  readonly powers: readonly PowerInfo[];
  /** The open phase as the rules name it: its kind says whether it is a negotiation phase. */
  readonly phase: PhaseInfo;
  /** Powers that must order in the open phase (the rules' `mustOrder`). */
  readonly mustOrder: readonly string[];
  /** Powers still in the game (the rules' `mayOrder`): who survives, for draws and votes. */
  readonly alive: readonly string[];
  /**
   * Game periods in a row, up to the last completed one, in which no supply centre changed
   * hands (seed 002 IX(2)), and what a period is: a game year in Diplomacy, a turn in a game
   * counted in turns (Global Diplomacy: each turn is a whole round of negotiation and moves).
   */
  quiet(): { readonly periods: number; readonly unit: "game year" | "turn" };
  /** The family's own game, for what only it has (a unit's removal, victory points). */
  readonly own:
    | { readonly kind: "diplomacy"; readonly game: GameData }
    | { readonly kind: "family"; readonly game: FamilyGame };
}

type Asked = Pick<PlayedGame, "powers" | "phase" | "mustOrder" | "alive">;

/**
 * A game's base data with what its rules say of its stored state, asked once and only when
 * first read (the scheduler reads none of it for a phase with no vote due).
 */
function played(
  g: HostedGame,
  rules: () => AnyGameRules,
  stateOf: (rules: AnyGameRules) => Opaque<"state">,
  rest: Pick<PlayedGame, "quiet" | "own">,
): PlayedGame {
  let memo: Asked | undefined;
  const ask = (): Asked => {
    if (memo) return memo;
    const r = rules();
    const state = stateOf(r);
    memo = {
      powers: r.powers(state),
      phase: r.phase(state),
      mustOrder: r.mustOrder(state),
      alive: r.mayOrder(state),
    };
    return memo;
  };
  return {
    game: g.game,
    state: g.state,
    members: g.members,
    seats: g.seats,
    options: g.options,
    get powers() {
      return ask().powers;
    },
    get phase() {
      return ask().phase;
    },
    get mustOrder() {
      return ask().mustOrder;
    },
    get alive() {
      return ask().alive;
    },
    ...rest,
  };
}

/** A Diplomacy game as the hosting tools read it. */
export function playedDiplomacy(g: GameData): PlayedGame {
  return played(
    g,
    () => hosted(diplomacyRules(g.scenario.variant, [g.scenario])),
    (r) => r.decode(g.record),
    {
      quiet: () => ({ periods: yearsWithoutCentreChange(g.record), unit: "game year" }),
      own: { kind: "diplomacy", game: g },
    },
  );
}

/** A family game as the hosting tools read it. */
export function playedFamily(g: FamilyGame): PlayedGame {
  return played(
    g,
    () => g.rules,
    // The open turn's state, decoded once when the game was read (family.ts).
    () => g.open,
    {
      quiet: () => ({ periods: turnsWithoutCentreChange(g), unit: "turn" }),
      own: { kind: "family", game: g },
    },
  );
}

/** Any game read back as the hosting tools read it. */
export async function loadPlayed(db: Kysely<DB>, gameId: string): Promise<PlayedGame> {
  if (await isFamilyGame(db, gameId)) return playedFamily(await loadFamilyGame(db, gameId));
  return playedDiplomacy(await loadGame(db, gameId));
}

/** Adjudicated turns in a row, up to the last, after which no supply area changed hands. */
function turnsWithoutCentreChange(g: FamilyGame): number {
  const key = (p: Record<string, unknown>) =>
    JSON.stringify([...g.hosting.centres(stateAt(g, p))].sort(([a], [b]) => a.localeCompare(b)));
  let quiet = 0;
  let after = key(g.position);
  for (let i = g.turns.length - 2; i >= -1; i--) {
    const before = key(i >= 0 ? g.turns[i]!.position : g.head.start);
    if (before !== after) break;
    quiet++;
    after = before;
  }
  return quiet;
}

/** Seats still in the game: one of their powers is (`alive`, from the game's rules). */
export function survivingSeats(seats: readonly Seat[], alive: readonly string[]): number[] {
  const in_ = new Set(alive);
  return seats.flatMap((s, i) => (s.powers.some((p) => in_.has(p)) ? [i] : []));
}

/** The powers of the surviving seats. */
export function survivingPowers(g: Pick<PlayedGame, "seats" | "alive">): string[] {
  return survivingSeats(g.seats, g.alive).flatMap((i) => g.seats[i]!.powers.map(String));
}

/** A power named by a person: its id or its name, in any case (`england`, `3`, `China`). */
export function powerNamed(powers: readonly PowerInfo[], word: string): string | undefined {
  const w = word.trim().toLowerCase();
  return powers.find((p) => p.id.toLowerCase() === w || p.name.toLowerCase() === w)?.id;
}

/** The powers as a message lists them: `england`, or `3 (England)` where the id is not the name. */
export function powerList(powers: readonly PowerInfo[]): string {
  return powers
    .map((p) => (p.id.toLowerCase() === p.name.toLowerCase() ? p.id : `${p.id} (${p.name})`))
    .join(", ");
}
