import type { Generated } from "kysely";

/*
 * The tables, as Kysely sees them. Times are milliseconds since 1970 (bigint columns read back
 * as numbers); JSON is kept as text; flags are 0/1 integers. The same types serve SQLite and
 * PostgreSQL: migrations.ts creates them for either.
 */

export interface UsersTable {
  id: string;
  name: string;
  /** `scrypt$N$r$p$salt$hash` (base64url), see src/judge/password.ts. */
  password_hash: string;
  created_at: number;
}

export interface TokensTable {
  id: string;
  user_id: string;
  /** SHA-256 of the token (hex): a leaked database does not leak working tokens. */
  token_hash: string;
  label: string;
  created_at: number;
  last_used_at: number | null;
}

export type GameStatus = "forming" | "active" | "finished";

export interface GamesTable {
  id: string;
  name: string;
  variant: string;
  scenario: string;
  /** JSON: the judge options (src/judge/options.ts). */
  options: string;
  /** JSON: the game record without its phases (format, variant, rules, seed, seats, start). */
  record_head: string;
  status: GameStatus;
  /** JSON: how the game ended (solo, draw, concession, ended by the GM). */
  result: string | null;
  created_by: string;
  created_at: number;
  /** The game's id as its players know it (`GD001`): chosen by its GM, upper case, unique. */
  label: string | null;
}

export type PhaseStateName = "forming" | "open" | "paused" | "done";

/**
 * One row per game: the phase now open for orders. Every change to a game's course (an order
 * set, an adjudication, a GM action) first updates this row with a condition on `phase_idx`
 * and `version`; that takes the row's lock (PostgreSQL) or the database's write lock (SQLite)
 * and is how two processes never adjudicate one phase twice.
 */
export interface PhaseStateTable {
  game_id: string;
  /** Index of the phase open for orders: the number of phases adjudicated so far. */
  phase_idx: number;
  /** Its name (`S1901M`). */
  phase: string;
  state: PhaseStateName;
  deadline_at: number | null;
  /** While paused: what was left of the deadline. */
  remaining_ms: number | null;
  /** 1 when every power that must order has a final set (for early resolution). */
  ready: number;
  version: number;
  updated_at: number;
}

export interface PhasesTable {
  id: Generated<number>;
  game_id: string;
  idx: number;
  phase: string;
  /** JSON: the engine's PhaseRecord (orders, results, dislodged, position, ...). */
  record: string;
  /** 1 when a GM correction replaced it (kept for the audit). */
  superseded: number;
  adjudicated_at: number;
}

export type Role = "gm" | "player" | "observer";

export interface MembersTable {
  game_id: string;
  user_id: string;
  role: Role;
  /** The seat index (into the record's seats) for players. */
  seat: number | null;
  joined_at: number;
  /** 1: the player gets the judge's mail for this game (results, reminders); 0: opted out. */
  notices: Generated<number>;
}

export interface InvitesTable {
  code: string;
  game_id: string;
  role: "player" | "observer";
  /** A particular seat (for a replacement), or null: any free seat. */
  seat: number | null;
  created_by: string;
  created_at: number;
  revoked: number;
}

export interface SubmissionsTable {
  id: Generated<number>;
  game_id: string;
  phase_idx: number;
  phase: string;
  power: string;
  user_id: string;
  /** JSON: the order lines of this power, as written. */
  orders: string;
  final: number;
  /** JSON: the per-line diagnostics given back. */
  diagnostics: string;
  received_at: number;
}

export interface NmrsTable {
  id: Generated<number>;
  game_id: string;
  phase_idx: number;
  phase: string;
  power: string;
  seat: number | null;
  user_id: string | null;
  at: number;
}

export type ProposalKind = "draw" | "concede" | "houserule";
export type ProposalStatus = "open" | "passed" | "failed" | "refused";

export interface ProposalsTable {
  /** The store's own key (one sequence over every game): never shown. */
  id: Generated<number>;
  game_id: string;
  /** The proposal's number in its game (1, 2, 3 ...): what everybody knows it by. */
  num: number;
  kind: ProposalKind;
  /** JSON: the powers of a draw, or the one power a win is conceded to. */
  powers: string | null;
  text: string;
  /** JSON: option changes a house-rule proposal makes if it passes. */
  options: string | null;
  /** Kept for the audit, never shown to players (seed 002 IX(4)). */
  proposer_user: string;
  proposer_seat: number | null;
  /** Decided when this phase is adjudicated: votes are due with the orders. */
  due_idx: number;
  status: ProposalStatus;
  /** JSON: {for, against, abstain} once decided. */
  counts: string | null;
  created_at: number;
  closed_at: number | null;
}

export interface BallotsTable {
  proposal_id: number;
  /** `seat:N` or `gm`. */
  voter: string;
  vote: "yes" | "no" | "abstain";
  user_id: string;
  at: number;
}

/** Press held for the GM's review (migration 0013_held_press; src/judge/press.ts). */
/** A message's columns, as published (`press`) or held for the GM's review (`held_press`). */
interface PressColumns {
  game_id: string;
  phase_idx: number;
  phase: string;
  author_user: string;
  /** The author's power; null for the GM. */
  author_power: string | null;
  kind: "white" | "grey";
  /** JSON: the recipient powers, or "all". */
  recipients: string;
  body: string;
  /** When the author sent it (a held message, once approved, is published with this time). */
  at: number;
}

export interface HeldPressTable extends PressColumns {
  id: Generated<number>;
  /** The game's nth held message (what the GM names to approve or refuse it). */
  n: number;
  status: "held" | "approved" | "refused";
  reason: string | null;
  decided_at: number | null;
  /** The `press` row it became when approved. */
  press_id: number | null;
}

export interface PressTable extends PressColumns {
  id: Generated<number>;
}

export interface EventsTable {
  id: Generated<number>;
  game_id: string;
  kind: string;
  /** "public", "gm", or "powers:a,b" (those powers and the GM). */
  audience: string;
  data: string;
  at: number;
}

export interface EditsTable {
  id: Generated<number>;
  game_id: string;
  /** Applies to the position after this many phases. */
  after_idx: number;
  kind: string;
  data: string;
  reason: string;
  user_id: string;
  at: number;
}

/** A player's mail identity (docs/email.md): the address orders come from, and the secret. */
export interface MailUsersTable {
  user_id: string;
  /** Lower case. */
  address: string;
  /** The line a player puts in every order mail (seed 002 X(6)). */
  secret: string;
  updated_at: number;
  /** 1: the judge's own mail (results, reminders) goes to this address; 0: opted out. */
  notices: Generated<number>;
}

/**
 * A game not set up for mail whose players may still get the judge's own mail (results,
 * reminders; src/mail/notify.ts): how far it was mailed, as `mail_games` keeps it.
 */
export interface NoticeGamesTable {
  game_id: string;
  /** The last event mailed out (or passed over while nobody of the game had an address). */
  last_event: number;
  /** The phase index whose deadline reminder has been sent. */
  reminded_idx: number;
}

/** A game played by mail: its subject abbreviation (`SED`) and the address orders go To. */
export interface MailGamesTable {
  game_id: string;
  /** Upper case, unique. */
  abbr: string;
  /** Lower case. */
  address: string;
  /** The last event mailed out (phase results, game over). */
  last_event: number;
  /** The phase index whose deadline reminder has been sent. */
  reminded_idx: number;
  created_at: number;
}

/** Mail to send (or, with no SMTP configured, kept for the GM). */
export interface OutboxTable {
  id: Generated<number>;
  game_id: string | null;
  /** reply, results, reminder, report. */
  kind: string;
  from_addr: string;
  to_addr: string;
  subject: string;
  body: string;
  in_reply_to: string | null;
  created_at: number;
  sent_at: number | null;
  error: string | null;
  /**
   * The judge's own mail: its List-Unsubscribe (RFC 2369, RFC 8058) as JSON, nodemailer's
   * `list.unsubscribe` (a mailto: address with its subject, an https one-click URL); null:
   * none (answers to a player's own mail).
   */
  list_unsubscribe: string | null;
}

/** Keys the judge keeps for itself: `unsubscribe` signs the one-click unsubscribe links. */
export interface JudgeKeysTable {
  name: string;
  value: string;
}

/** Sequential movement (docs/sequential.md): the GM's schedule for one season. */
export interface SchedulesTable {
  game_id: string;
  /** `S1901`, `F1903`. */
  season: string;
  /** JSON: the powers in the order their orders are resolved, or "simultaneous". */
  schedule: string;
  set_by: string;
  set_at: number;
}

/** Sequential movement: one power's declaration of a support contract with another. */
export interface ContractsTable {
  id: Generated<number>;
  game_id: string;
  power: string;
  partner: string;
  /** The first season it covers (`S1902`). */
  from_season: string;
  /** The last season it covers; null: until withdrawn. */
  until_season: string | null;
  /** Withdrawn: the first season it no longer covers. */
  withdrawn_from: string | null;
  declared_by: string;
  declared_at: number;
  withdrawn_at: number | null;
}

/** An order set sent early for a later retreat or adjustment phase (seed 002 II(5)). */
export interface EarlyOrdersTable {
  id: Generated<number>;
  game_id: string;
  power: string;
  /** The phase it is for: `U1901R`, `W1901R`, `S1901R`, `F1901R`, `W1901A`. */
  phase: string;
  /** JSON: the order lines, as written. */
  orders: string;
  user_id: string;
  received_at: number;
}

/** An act of the europe1935 committee (src/variants/europe1935/acts.ts), in order. */
export interface CommitteeActsTable {
  id: Generated<number>;
  game_id: string;
  /** Phases adjudicated when it was done (the record act's `at`). */
  after_idx: number;
  /** JSON: the record's act (`{at, by, act, ...}`). */
  data: string;
  user_id: string;
  at: number;
}

/** A chaired game's timer (src/judge/chair.ts): its state, and when a running one ends. */
export interface ChairTimersTable {
  game_id: string;
  /** JSON: the timer (`ChairTimerState`). */
  data: string;
  /** When the running timer ends; null while paused or stopped. */
  ends_at: number | null;
  /** 1 once the end of the timer has been announced (and acted on). */
  told: Generated<number>;
  updated_at: number;
}

export interface DB {
  users: UsersTable;
  tokens: TokensTable;
  games: GamesTable;
  phase_state: PhaseStateTable;
  phases: PhasesTable;
  members: MembersTable;
  invites: InvitesTable;
  submissions: SubmissionsTable;
  nmrs: NmrsTable;
  proposals: ProposalsTable;
  ballots: BallotsTable;
  press: PressTable;
  held_press: HeldPressTable;
  events: EventsTable;
  edits: EditsTable;
  committee_acts: CommitteeActsTable;
  mail_users: MailUsersTable;
  mail_games: MailGamesTable;
  notice_games: NoticeGamesTable;
  outbox: OutboxTable;
  judge_keys: JudgeKeysTable;
  early_orders: EarlyOrdersTable;
  schedules: SchedulesTable;
  contracts: ContractsTable;
  health_probe: HealthProbeTable;
  chair_timers: ChairTimersTable;
  bot_seats: BotSeatsTable;
  daide_games: DaideGamesTable;
  daide_seats: DaideSeatsTable;
}

/**
 * Seats played by a built-in player (migration 0014_bot_seats; src/judge/bots.ts): chosen by
 * the GM (`kind` gm) or taken over after missed orders (`kind` takeover, the game option
 * botTakeover). One row per seat; the bot's order sets are ordinary `submissions` rows whose
 * `user_id` is `bot:<id>`. `played_idx`: the last phase index the bot has sent orders for.
 */
export interface BotSeatsTable {
  game_id: string;
  seat: number;
  /** The bot's id (src/bots/index.ts). */
  bot: string;
  kind: "gm" | "takeover";
  played_idx: number;
  /** The phase in which the bot took the seat (null: before the game started). */
  since: string | null;
  created_at: number;
}

/**
 * A judge's game with seats kept for DAIDE clients (migration 0015_daide_seats;
 * src/judge/daide.ts): its port from `entente serve --daide-ports` while the game is forming
 * or running; null once it is over (the port is free again).
 */
export interface DaideGamesTable {
  game_id: string;
  port: number | null;
  created_at: number;
}

/**
 * A seat kept for a DAIDE client: the client that took it (NME: its name and version; null
 * while the seat waits) and the passcode of its HLO (IAM). Its orders are `submissions`
 * whose `user_id` is `daide:<seat>`.
 */
export interface DaideSeatsTable {
  game_id: string;
  seat: number;
  client: string | null;
  version: string | null;
  passcode: number;
  /** The phase in which a client took the seat (null: before the game started). */
  since: string | null;
}

/** The readiness probe's one row (src/server/readiness.ts): when it last wrote. */
export interface HealthProbeTable {
  id: number;
  at: number;
}
