/* What the client reads from the API (the shapes of src/judge and src/server/web.ts). */

import type { BoardPosition } from "../render/types.ts";

export interface Seat {
  index: number;
  name: string;
  powers: string[];
  player: string | null;
  /** A built-in player plays the seat (src/judge/bots.ts): chosen by the GM, or a takeover. */
  bot?: { id: string; kind: "gm" | "takeover"; describe: string };
  /** The seat is kept for a DAIDE client (src/judge/daide.ts): the client, once one came. */
  daide?: { client: string | null; version: string | null };
}

/** Who plays a seat, in words: the player, the built-in player, or free. */
export function seatWho(s: Seat): string {
  if (s.daide)
    return s.daide.client
      ? `DAIDE client ${s.daide.client}${s.daide.version ? ` ${s.daide.version}` : ""}`
      : "free for a DAIDE client";
  if (!s.bot) return s.player ?? "free";
  if (s.bot.kind === "takeover")
    return `${s.player ?? "free"} (bot ${s.bot.id} plays after missed orders)`;
  return `bot ${s.bot.id}`;
}

/** How the viewer lost their seat, given to them alone (src/judge/seat-loss.ts). */
export interface LostSeat {
  seat: number;
  seatName: string;
  phase: string | null;
  at: string;
  cause: "civil_disorder" | "replaced";
  missed?: number;
  to?: string | null;
}

/** What a game's view and the lobby's list both say of it (src/judge/room.ts's GameSummary). */
export interface GameHead {
  id: string;
  name: string;
  variant: string;
  scenario: string;
  status: string;
  phase: string | null;
  deadline: string | null;
  seats: number;
  players: number;
}

export interface GameView extends GameHead {
  state: string;
  phaseIndex: number;
  seatList: Seat[];
  position: BoardPosition;
  toOrder: string[];
  result: unknown;
  options: {
    deadlines: { unit: string; movement: number; retreats: number; adjustments: number };
    civilDisorderAfter?: number;
    /** Seed 002 X(1): players' press held for the GM's review (press.review). */
    press?: { review?: boolean };
  };
  you: { role: "gm" | "player" | "observer"; seat: number | null; powers: string[] } | null;
  invites?: { code: string; role: string; seat: number | null }[];
  lostSeat?: LostSeat;
  /** DAIDE seats (docs/daide.md): the port clients connect to; null once the game is over. */
  daide?: { port: number | null };
  [more: string]: unknown;
}

export interface GameSummary extends GameHead {
  /** Seats played by built-in players, when any. */
  bots?: number;
  role?: string;
  /** /api/my/games: where the viewer lost the seat and holds none. */
  lostSeat?: LostSeat;
}

export interface LegalChoice {
  text: string;
  kind: string;
  target?: string;
  from?: string;
}

export interface LegalUnit {
  power: string;
  location: string;
  province: string;
  label: string;
  dislodged?: boolean;
  orders: LegalChoice[];
}

export interface LegalView {
  phase: string;
  type: "M" | "R" | "A";
  counts: Record<string, number>;
  units: LegalUnit[];
}

export interface LineDiag {
  line: number;
  text: string;
  kind: "order" | "power" | "final" | "comment" | "date";
  power: string | null;
  ok: boolean;
  order?: string;
  message?: string;
  /** Where the text could not be read (absent when it was read and the order is refused). */
  start?: number;
  suggestions?: string[];
}

export interface OrderOutcome {
  text: string | null;
  order: string | null;
  result: string;
  reason?: string;
  explanation?: string;
}

export interface PhaseRecord {
  phase: string;
  orders: Record<string, string[]>;
  results: Record<string, OrderOutcome[]>;
  dislodged?: Record<string, { unit: string; from: string | null; retreats: string[] }[]>;
  /** Powers that sent no orders in a movement phase (src/engine/record.ts). */
  civilDisorder?: string[];
  position: BoardPosition;
  winner?: string;
}

export interface GameRecord {
  variant: string;
  rules: unknown;
  start: BoardPosition;
  phases: PhaseRecord[];
}

export interface ResultJson {
  phase: string;
  orders: Record<string, OrderOutcome[]>;
  next: BoardPosition;
  dislodged?: PhaseRecord["dislodged"];
  winner?: string;
}

/** The viewer's own report of a turn (`GET /api/games/:id/report`, report.ts). */
export interface Report {
  power: string;
  turn: number;
  phase: string | null;
  report: string;
  /**
   * The accounting section (seed 004 §8: the account id, name, address, the last ten turns),
   * for the player reading its own power's report only; the GM never gets it.
   */
  accounting?: string;
}
