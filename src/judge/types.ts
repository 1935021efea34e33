import type { Kysely } from "kysely";
import type { PositionJson } from "../engine/position-json.ts";
import type { PhaseType } from "../engine/types.ts";
import type { DB, Role } from "../store/schema.ts";
import type { ConferencesView, ScoresView } from "./committee.ts";
import type { DaideMark, GameData, SeatView } from "./game-data.ts";
import type { GameOptions } from "./options.ts";
import type { LineDiagnostic } from "./orders.ts";
import type { LostSeat } from "./seat-loss.ts";
import type { Emit, RuleViewer, User, Viewer } from "./viewer.ts";

export type { DaideMark, Emit, RuleViewer, SeatView, User, Viewer };

/*
 * The judge's shapes, imported by the rooms and by the judge's callers (judge.ts re-exports
 * them): who is asking (User, Viewer: viewer.ts, re-exported), what a game looks like to
 * them (GameSummary, GameView; SeatView from game-data.ts, which builds it), a submission's
 * answer, an event, a transaction (Tx) and what every hosted game has (HostedGame). Types
 * only, and `phaseTypeOf`; nothing here imports a room, and no module this file imports
 * imports it (no circle, type-only imports included).
 */

/** The ports `entente serve --daide-ports FIRST-LAST` gives games with DAIDE seats. */
export interface DaidePorts {
  readonly first: number;
  readonly last: number;
}

export interface GameSummary {
  readonly id: string;
  readonly name: string;
  readonly variant: string;
  readonly scenario: string;
  readonly status: string;
  readonly phase: string | null;
  readonly deadline: string | null;
  readonly seats: number;
  readonly players: number;
  /** Seats played by built-in players (bot-seats.ts), when there are any. */
  readonly bots?: number;
  /** The game's id as its players know it (`GD001`, labels.ts), when its GM chose one. */
  readonly label?: string;
}

export interface GameView extends GameSummary {
  readonly rules: unknown;
  readonly options: GameOptions;
  readonly state: string;
  readonly phaseIndex: number;
  readonly seatList: readonly SeatView[];
  readonly position: PositionJson;
  /**
   * DAIDE clients' seats (daide-seats.ts): the port they connect to while the game is forming or
   * running (null once it is over).
   */
  readonly daide?: { readonly port: number | null };
  /** Powers that have something to order in the open phase. */
  readonly toOrder: readonly string[];
  readonly result: unknown;
  readonly you: {
    readonly role: Role;
    readonly seat: number | null;
    readonly powers: readonly string[];
  } | null;
  /** For the GM: the open invitations. */
  readonly invites?: readonly { code: string; role: string; seat: number | null }[];
  /** For a member who lost their seat and holds none: how (seat-loss.ts), theirs alone. */
  readonly lostSeat?: LostSeat;
  /** europe1935: the victory-point table, public at any time (docs/committee.md). */
  readonly scores?: ScoresView;
  /** europe1935: the running conference and the past ones. */
  readonly conferences?: ConferencesView;
  /** A game of another family (Global Diplomacy): its turn and where the reports are. */
  readonly family?: {
    readonly id: string;
    readonly name: string;
    readonly turn: number;
    readonly turnsAdjudicated: number;
    readonly report: string;
  };
}

export interface SubmissionAnswer {
  readonly phase: string;
  readonly final: boolean;
  readonly receivedAt: string;
  readonly powers: readonly { power: string; orders: readonly string[] }[];
  readonly diagnostics: readonly LineDiagnostic[];
  /** Kept for a later retreat or adjustment phase (`phase`), not the open one. */
  readonly early?: boolean;
}

export interface EventView {
  readonly id: number;
  readonly kind: string;
  readonly data: unknown;
  readonly at: string;
}

export type Tx = Kysely<DB>;

/**
 * What every hosted game has, whatever its family: its row, its phase state (the lock), its
 * seats, members and options. The operations that serve every family (seats, deadlines,
 * replacement, missed orders) take this.
 */
export type HostedGame = Pick<GameData, "game" | "state" | "members" | "seats" | "options">;

/** The kind of a phase by its name, for its deadline: a family's turn (`T3`) is a movement. */
export function phaseTypeOf(phase: string): PhaseType {
  const t = phase.slice(-1);
  return t === "R" || t === "A" ? t : "M";
}
