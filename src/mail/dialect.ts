import { JudgeError } from "../judge/errors.ts";
import type { Judge, SubmissionAnswer } from "../judge/judge.ts";
import type { ReadOptions } from "../judge/orders.ts";
import type { AccountGames, MailGame, Player, SenderProblem } from "./identity.ts";
import type { IncomingMail } from "./message.ts";

/*
 * What a mail dialect is: the interface each dialect implements (emg.ts, houserules.ts) and
 * the gateway (gateway.ts) calls, the envelope, letter and outcome they pass each other, the
 * voice the notifier speaks in (notify.ts), and `submit`, the one way a dialect stores a
 * letter's orders. The dialects, the notifier and the gateway import this file; it imports
 * none of them, so the arrows run one way: gateway -> commands -> dialects -> houserules ->
 * houserules-voice -> emg -> dialect (docs/architecture.md).
 */

/** What a mail asks. */
export type Request = "orders" | "report" | "press" | "vote";

/** A mail's envelope as its dialect reads it, before the game is looked at. */
export interface Envelope {
  /** How the mail names the game: its mail abbreviation (EMG's game id). */
  readonly game: string;
  readonly request: Request;
  /** The sender's secret (a `Secret:` line, EMG's account id), or null. */
  readonly secret: string | null;
  /** The body for the request: the secret line blanked, or EMG's command lines. */
  readonly body: string;
}

/** A refusal: what was wrong (each with how to write it), and anything to show after. */
export interface Refusal {
  readonly problems: readonly string[];
  readonly after?: string;
}

/** A mail read to the end: the envelope, the game, the sender, the power and phase named. */
export interface Letter {
  readonly judge: Judge;
  readonly mail: IncomingMail;
  readonly envelope: Envelope;
  readonly game: MailGame;
  readonly player: Player;
  /** The power the mail is for: the one it names, or the player's first. */
  readonly power: string;
  /** The phase it names, if it names one. */
  readonly phase: string | null;
}

/** What a dialect's request did: the answer (done, or partly), or a refusal. */
export type Outcome =
  | { readonly accepted: boolean; readonly text: string; readonly kind?: string }
  | Refusal;

/** How one game family's mail names a game, a power and a phase, and splits the body. */
export interface MailDialect {
  readonly name: string;
  /** What the dialect's mail is, for refusals: `EMG commands`. */
  readonly form: string;
  /** Whether this dialect reads the mail (by its subject). */
  claims(mail: IncomingMail): boolean;
  /** The envelope, or what is wrong with it. */
  envelope(mail: IncomingMail): Envelope | Refusal;
  /**
   * The answer when no game has the name the mail gives; `account` is the sender's account
   * when the mail proves it (its registered address and secret), with the games it plays.
   */
  unknownGame(envelope: Envelope, known: readonly string[], account: AccountGames | null): string;
  /** Whether the game takes mail in this dialect (its family's, or a variant with EmgRules). */
  takes(game: MailGame): boolean;
  /** Whether the game's address must be on the To line (seed 002 II(2)). */
  readonly toLine: boolean;
  /** The power and phase the mail names, read against the game; or what is wrong. */
  names(
    mail: IncomingMail,
    envelope: Envelope,
    game: MailGame,
  ): { power: string | null; phase: string | null } | { problem: string };
  /** What is wrong with the body before anything is done (press without a To: line). */
  bodyProblems?(envelope: Envelope, game: MailGame): string[];
  /** A sender problem in this dialect's words (`account` as for unknownGame). */
  sender(
    problem: SenderProblem,
    mail: IncomingMail,
    envelope: Envelope,
    game: MailGame,
    account: AccountGames | null,
  ): string;
  /** Carries out the request of a mail from a known player. */
  handle(letter: Letter): Promise<Outcome>;
  /** This dialect's words for the judge's own mail, for the games it serves. */
  readonly voice: Voice;
}

/** What the judge mails by itself, in a dialect's words (src/mail/notify.ts). */
export interface Voice {
  /** Whether this dialect speaks for the game's own mail (its start, results, reminders). */
  serves(game: MailGame): boolean;
  /** A phase as mails name it: `Spring 1901 movement (S1901M)`, `turn T2`. */
  phase(name: string | null | undefined): string;
  /** A power as mails name it: `Austria`, `3-England`. */
  power(game: MailGame, power: string): string;
  /** What players send: `orders`, `commands`. */
  readonly sends: string;
  /** Whether a set counts only once marked final (reminders name preliminary sets). */
  readonly finalSets: boolean;
  /** Whether the dialect takes votes by mail (EMG's commands have none: the page takes them). */
  readonly votesByMail: boolean;
  /** The last line of every mail for the game: how to write to it. */
  footer(game: MailGame): string;
  /**
   * How a player of `power` sends their orders for the open phase, in words: the subject the
   * dialect's own reader takes, the address and the secret (the JOIN reply, a replacement's
   * briefing).
   */
  howToOrder(game: MailGame, power: string): string;
  /** More of the start mail to a player: the power letters, the opening report. */
  started(judge: Judge, game: MailGame, player: Player): Promise<string[]>;
  /**
   * The results of an adjudicated (or corrected) phase, one mail per recipient; `next` is
   * the line saying what comes next.
   */
  results(
    judge: Judge,
    game: MailGame,
    event: { kind: string; data: ResultEvent },
    to: readonly Player[],
    next: string | null,
  ): Promise<{ to: Player; subject: string; text: string }[]>;
}

/** The data of a `phase_resolved` or `phase_corrected` event, for every family. */
export interface ResultEvent {
  readonly index?: number;
  readonly phase?: string;
  readonly next?: string | null;
  readonly deadline?: string | null;
  readonly nmr?: string[];
  /** The option botTakeover: the built-in player that played each missed power. */
  readonly bots?: Record<string, string>;
  readonly civilDisorder?: string[];
  readonly winner?: string;
  readonly winners?: string[];
  readonly reason?: string;
}

/**
 * Stores a letter's orders with the Judge's own method (the one order reader, every rule of
 * the API); a refusal of the judge's becomes the mail's.
 */
export async function submit(
  letter: Letter,
  orders: string | readonly string[],
  options: ReadOptions = {},
): Promise<SubmissionAnswer | Refusal> {
  try {
    return await letter.judge.submissions.submitOrders(
      letter.player.user,
      letter.game.id,
      { power: letter.power, orders, ...(letter.phase ? { phase: letter.phase } : {}) },
      options,
    );
  } catch (e) {
    if (e instanceof JudgeError) return { problems: [`${e.message}.`] };
    throw e;
  }
}
