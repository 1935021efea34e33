import type { Store } from "../store/db.ts";
import { Accounts } from "./accounts.ts";
import { Adjudication } from "./adjudication.ts";
import { BotPlay } from "./bot-play.ts";
import { BotSeats } from "./bot-seats.ts";
import { BotPlayers } from "./bots.ts";
import { DaideClients } from "./daide.ts";
import { DaideSeats } from "./daide-seats.ts";
import { Endings } from "./endings.ts";
import { FamilyGames } from "./family.ts";
import { Games } from "./games.ts";
import { GmTools } from "./gm-tools.ts";
import { readPublicUrl } from "./links.ts";
import { Press } from "./press.ts";
import { type Bucket, TokenBuckets } from "./rate.ts";
import { DEFAULT_TOKEN_IDLE_MS, type JudgeCore } from "./room.ts";
import { DEFAULT_ORDERS_RATE, Submissions } from "./submissions.ts";
import type { DaidePorts } from "./types.ts";
import { UnitEdits } from "./unit-edits.ts";
import { Views } from "./views.ts";
import { Votes } from "./votes.ts";

export type {
  EventView,
  GameSummary,
  GameView,
  SeatView,
  SubmissionAnswer,
  User,
  Viewer,
} from "./types.ts";

/*
 * The judge: accounts, games, seats, order submission, deadlines and adjudication, missed
 * orders and civil disorder, votes, press and the game master's tools, over the store.
 *
 * This class builds the judge's rooms, one file each, every one extending `Room` (room.ts:
 * the store, the clock, the game's lock, the event log), and holds them as public fields: a
 * caller speaks to the room it needs (`judge.submissions.submitOrders(...)`,
 * `judge.views.gameView(...)`). A room that calls another is given it in its constructor,
 * so the rooms are built below in the order of their dependencies, and no room reaches one
 * built after it (docs/architecture.md, "The judge's rooms", draws the graph). Every change
 * to a game is one transaction that first takes the game's lock (room.ts says how).
 */

export interface JudgeConfig {
  readonly store: Store;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
  /** Test hook: kill this process at a named point (`adjudicate-before-commit`). */
  readonly failpoint?: string | undefined;
  /** Where the web page is reached (links.ts), checked; null or absent: mails carry no links. */
  readonly publicUrl?: string | null | undefined;
  /**
   * The orders-rate quota: order sets one player may send in one game, at once (`burst`) and
   * then per second (submissions.ts; default DEFAULT_ORDERS_RATE); null: none.
   */
  readonly ordersRate?: Bucket | null | undefined;
  /**
   * API tokens unused this long (ms) expire: the next request with one is refused and it is
   * deleted (accounts.ts; default DEFAULT_TOKEN_IDLE_MS, 90 days); null: never.
   */
  readonly tokenIdleMs?: number | null | undefined;
  /**
   * The ports games with DAIDE seats are given (`entente serve --daide-ports`; daide.ts);
   * null or absent: no game may have DAIDE seats.
   */
  readonly daidePorts?: DaidePorts | null | undefined;
}

export class Judge {
  readonly store: Store;
  readonly now: () => number;
  /** The judge's web address for links in mail (links.ts); null: none known. */
  readonly publicUrl: string | null;
  private readonly core: JudgeCore;

  // The rooms, in the order they are built: each may call only rooms above it.
  /** Registration, login, tokens. */
  readonly accounts: Accounts;
  /** The `bot_seats` rows: who plays which seat among the built-in players. */
  readonly botSeats: BotSeats;
  /** The DAIDE seats' rows and ports (the server's DAIDE listeners open and free them). */
  readonly daideSeats: DaideSeats;
  /** What each viewer sees: the game view, history, record, events, reports. */
  readonly views: Views;
  /** Order sets for the open phase, the sets on file, the orders-rate quota. */
  readonly submissions: Submissions;
  /** Proposals and ballots (draws, concessions, house rules). */
  readonly votes: Votes;
  /** White and grey press, press held for the GM's review. */
  readonly press: Press;
  /** The built-in players' orders: as each phase opens, the scheduler's sweep, takeovers. */
  readonly botPlay: BotPlay;
  /** Games and seats: create, list, invitations, taking a seat, starting. */
  readonly games: Games;
  /** The scheduler: due phases claimed once and played, the next deadline. */
  readonly adjudication: Adjudication;
  /** The GM's tools: pause, resume, deadlines, correct, replace, committee and sequential. */
  readonly gm: GmTools;
  /** The GM's edits of the board: remove an extra unit, relocate a misplaced one. */
  readonly units: UnitEdits;
  /** The GM ending a game, the declared draw. */
  readonly endings: Endings;
  /** Built-in players: the GM seating one (gm/bot), the practice game. */
  readonly bots: BotPlayers;
  /** What a DAIDE client does at its seat (the server's DAIDE connections). */
  readonly daide: DaideClients;

  constructor(cfg: JudgeConfig) {
    this.store = cfg.store;
    this.now = cfg.now ?? Date.now;
    this.publicUrl = readPublicUrl(cfg.publicUrl);
    const log = cfg.log ?? (() => {});
    const core: JudgeCore = {
      store: cfg.store,
      now: this.now,
      log,
      failpoint: cfg.failpoint,
      families: new FamilyGames({ db: cfg.store.db, now: this.now, log }),
      adjudications: 0,
      orderBuckets:
        cfg.ordersRate === null ? null : new TokenBuckets(cfg.ordersRate ?? DEFAULT_ORDERS_RATE),
      tokenIdleMs: cfg.tokenIdleMs === undefined ? DEFAULT_TOKEN_IDLE_MS : cfg.tokenIdleMs,
      daidePorts: cfg.daidePorts ?? null,
    };
    this.core = core;
    this.accounts = new Accounts(core);
    this.botSeats = new BotSeats(core);
    this.daideSeats = new DaideSeats(core);
    this.views = new Views(core, this.daideSeats);
    this.submissions = new Submissions(core, this.botSeats);
    this.votes = new Votes(core, this.daideSeats);
    this.press = new Press(core);
    this.botPlay = new BotPlay(core, this.submissions, this.botSeats);
    this.games = new Games(core, this.views, this.botSeats, this.botPlay, this.daideSeats);
    this.adjudication = new Adjudication(core, this.votes, this.botPlay);
    this.gm = new GmTools(core, this.views, this.botSeats, this.botPlay);
    this.units = new UnitEdits(core, this.views);
    this.endings = new Endings(core, this.views);
    this.bots = new BotPlayers(
      core,
      this.games,
      this.views,
      this.botSeats,
      this.botPlay,
      this.daideSeats,
    );
    this.daide = new DaideClients(
      core,
      this.daideSeats,
      this.botSeats,
      this.games,
      this.submissions,
      this.votes,
      this.press,
    );
  }

  /** Phases this process adjudicated (for /api/health and the tests). */
  get adjudications(): number {
    return this.core.adjudications;
  }
}
