import type { ResultEvent, Voice } from "./dialect.ts";
import type { MailGame } from "./identity.ts";

/*
 * The words of the judge's own mail (notify.ts, notify-events.ts): a time, a held message's
 * recipients, what an event carries (EventData), a vote's outcome or a GM's notice as one
 * line of a results mail (`notice`), a GM's notice's subject, a game's result in words.
 */

/** A held message's event (src/judge/press.ts): press_held, press_refused, press_approved. */
export interface HeldData {
  held: number;
  from?: string | null;
  kind?: string;
  to: "all" | string[];
  phase: string;
  body?: string;
  reason?: string;
}

export const heldTo = (game: MailGame, voice: Voice, to: "all" | string[]) =>
  to === "all" ? "everybody" : to.map((p) => voice.power(game, p)).join(", ");

export const when = (iso: string | null | undefined) =>
  iso ? iso.replace(/:\d\d\.\d{3}Z$/, " UTC").replace("T", " ") : "none";

export interface EventData extends ResultEvent {
  power?: string;
  unit?: string;
  seatName?: string;
  player?: string | null;
  years?: number;
  turns?: number;
  missed?: number;
  code?: string;
  kind?: string;
  id?: number;
  powers?: string[];
  passed?: boolean;
  for?: number;
  against?: number;
  abstain?: number;
  text?: string;
  due?: string;
  contactUntil?: string;
  seat?: number;
  rule?: string;
  from?: string;
  period?: number;
  to?: string | null;
  /** player_replaced: who held the seat before (by name), if anybody else. */
  former?: string | null;
  /** player_replaced: the phases whose early orders of the former player were dropped. */
  dropped?: string[];
  /** bot_*, missed_orders: the built-in player (src/judge/bots.ts). */
  bot?: string;
  /** bot_removed: gm, player_seated or player_back. */
  cause?: string;
}

export const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A vote's outcome or a GM's notice, as one line of a results mail. */
export function notice(voice: Voice, kind: string, d: EventData): string {
  switch (kind) {
    case "vote_result":
      // Counts only: votes are secret (seed 002 IX(4)).
      return `Proposal ${d.id} ("${d.text}") ${d.passed ? "PASSED" : "failed"}: ${d.for} for, ${d.against} against, ${d.abstain} abstaining.`;
    case "paused":
      return `The GM paused the game in ${voice.phase(d.phase)}.`;
    case "resumed":
      return `The GM resumed the game: ${voice.sends} for ${voice.phase(d.phase)} are due by ${when(d.deadline)}.`;
    case "unit_removed":
      return `The GM removed ${d.power ? `${d.power}'s ` : ""}${d.unit ?? "a unit"}${d.reason ? `: ${d.reason}` : ""} (seed 002 VIII(2))${d.rule ? `; the unit by the house rule: ${d.rule}` : ""}.`;
    case "unit_relocated":
      return d.to
        ? `The GM put ${d.power ? `${d.power}'s ` : ""}${d.unit} where it should stand: ${d.to}${d.reason ? ` (${d.reason})` : ""}, seed 002 VIII(3).`
        : `The GM disbanded ${d.power ? `${d.power}'s ` : ""}${d.unit}, a unit an erroneous adjudication put where it should not be${d.reason ? ` (${d.reason})` : ""}, seed 002 VIII(3).`;
    case "player_replaced":
      return `The GM ${d.player ? `gave ${d.seatName}'s seat to ${d.player}` : `opened ${d.seatName}'s seat for a replacement`}.`;
    case "draw_warning":
      return `The GM warned that a draw of all survivors may be declared: no supply centre has changed hands for ${d.turns !== undefined ? `${d.turns} turn(s)` : `${d.years} game year(s)`} (seed 002 IX(2)).${d.from ? ` If none changes hands before ${voice.phase(d.from)}, the GM may declare it then.` : d.period !== undefined && d.turns !== undefined ? ` If none changes hands in the next ${d.period} turn(s), the GM may declare it then.` : ""}`;
    case "proposal_refused":
      return `The GM refused to put proposal ${d.id} ("${d.text}") to the vote (seed 002 IX(5)): nobody votes on it.`;
    case "civil_disorder":
      return `${d.seatName} missed ${d.missed} phases in a row and is in civil disorder; its seat is open for a replacement.`;
    case "bot_seated":
      return `The GM seated the built-in player ${d.bot} at ${d.seatName}: it plays the seat until a player takes it.`;
    case "bot_removed":
      return d.cause === "player_back"
        ? `${d.player} plays ${d.seatName} again: the built-in player ${d.bot} that played it after missed orders has left.`
        : d.cause === "player_seated"
          ? `${d.player} took ${d.seatName}'s seat from the built-in player ${d.bot}.`
          : `The GM took the built-in player ${d.bot} off ${d.seatName}: the seat is free.`;
    case "bot_took_over":
      return `The built-in player ${d.bot} plays ${d.seatName} from ${voice.phase(d.phase)} on, as the game's option botTakeover says, since ${d.player ? `${d.player} sent no orders` : "nobody holds the seat"}: until ${d.player ? "they send orders again or " : ""}a player is seated.`;
    default:
      return `The GM set the deadline: ${voice.sends} for ${voice.phase(d.phase)} are due by ${when(d.deadline)}.`;
  }
}

/** The subject of a GM's notice mailed on its own: what happened, not only who did it. */
export function noticeSubject(kind: string, d: EventData): string {
  switch (kind) {
    case "unit_removed":
      return `the GM removed ${d.power ? `${d.power}'s ` : ""}${d.unit ?? "a unit"}`;
    case "unit_relocated":
      return d.to
        ? `the GM put ${d.power ? `${d.power}'s ` : ""}${d.unit} where it should stand`
        : `the GM disbanded ${d.power ? `${d.power}'s ` : ""}${d.unit}`;
    case "player_replaced":
      return d.player
        ? `the GM gave ${d.seatName}'s seat to ${d.player}`
        : `${d.seatName}'s seat is open for a replacement`;
    case "draw_warning":
      return "the GM warns that a draw may be declared";
    case "civil_disorder":
      return `${d.seatName} is in civil disorder`;
    default:
      return "a notice from the GM";
  }
}

/** A game's result as stored (`games.result`, the `game_over` event). */
export interface GameResult {
  readonly kind?: string;
  readonly winner?: string;
  readonly winners?: readonly string[];
  readonly powers?: readonly string[];
  readonly by?: string;
  readonly note?: string;
}

/** A game's result in words, powers by their names (the game-over mail). */
export function resultText(voice: Voice, game: MailGame, r: GameResult): string {
  const names = (list: readonly string[] | undefined) =>
    (list ?? []).map((x) => voice.power(game, x)).join(", ");
  const how =
    r.kind === "solo" && r.winner
      ? `${voice.power(game, r.winner)} won`
      : r.kind === "victory" && r.winners
        ? `won by ${names(r.winners)}`
        : r.kind === "draw"
          ? `a draw of ${names(r.powers) || "all survivors"}${r.by === "gm" ? ", declared by the GM" : r.by === "vote" ? ", agreed by vote" : ""}`
          : r.kind === "concede" || r.kind === "concession"
            ? `conceded to ${r.winner ? voice.power(game, r.winner) : names(r.powers)}${r.by === "vote" ? " by vote" : ""}`
            : r.kind === "abandoned"
              ? "abandoned by the GM"
              : r.kind === "points"
                ? `decided on points${r.winner ? `: ${voice.power(game, r.winner)} first` : ""}`
                : r.winner
                  ? `${voice.power(game, r.winner)} won`
                  : `${r.kind ?? "ended"}`;
  return r.note ? `${how} (${r.note})` : how;
}
