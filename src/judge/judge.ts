import type { Store } from "../store/db.ts";
import { Accounts } from "./accounts.ts";
import { Adjudication } from "./adjudication.ts";
import { BotPlayers } from "./bots.ts";
import { DaideSeats } from "./daide.ts";
import { Endings } from "./endings.ts";
import { FamilyGames } from "./family.ts";
import { Games } from "./games.ts";
import { GmTools } from "./gm-tools.ts";
import { readPublicUrl } from "./links.ts";
import type { Reader } from "./numbering.ts";
import { Press } from "./press.ts";
import { TokenBuckets } from "./rate.ts";
import { DEFAULT_TOKEN_IDLE_MS, type JudgeConfig, type JudgeCore, type Rooms } from "./room.ts";
import { DEFAULT_ORDERS_RATE, Submissions } from "./submissions.ts";
import { UnitEdits } from "./unit-edits.ts";
import { Views } from "./views.ts";
import { Votes } from "./votes.ts";

export type {
  EventView,
  GameSummary,
  GameView,
  JudgeConfig,
  SeatView,
  SubmissionAnswer,
  User,
  Viewer,
} from "./room.ts";

/*
 * The judge: accounts, games, seats, order submission, deadlines and adjudication, missed
 * orders and civil disorder, votes, press and the game master's tools, over the store.
 *
 * This class is the facade the server, the mail gateway and the CLI speak to; the work is
 * done in rooms, one file each, every one extending `Room` (room.ts: the store, the clock,
 * the game's lock, the event log): accounts.ts, games.ts (games and seats), submissions.ts,
 * adjudication.ts (the scheduler: deadlines, early resolution, NMRs, civil disorder),
 * votes.ts, press.ts, gm-tools.ts, unit-edits.ts (the GM removing or relocating a unit),
 * endings.ts (the GM ending the game, the warned draw) and views.ts (what each viewer sees, events). Every change
 * to a game is one transaction that first takes the game's lock (room.ts says how).
 */

export class Judge {
  readonly store: Store;
  readonly now: () => number;
  /** The judge's web address for links in mail (links.ts); null: none known. */
  readonly publicUrl: string | null;
  private readonly core: JudgeCore;
  private readonly rooms: Rooms;

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
      rooms: undefined as unknown as Rooms,
    };
    this.rooms = {
      accounts: new Accounts(core),
      games: new Games(core),
      submissions: new Submissions(core),
      adjudication: new Adjudication(core),
      votes: new Votes(core),
      press: new Press(core),
      gm: new GmTools(core),
      units: new UnitEdits(core),
      endings: new Endings(core),
      views: new Views(core),
      bots: new BotPlayers(core),
      daide: new DaideSeats(core),
    };
    core.rooms = this.rooms;
    this.core = core;
  }

  /** Phases this process adjudicated (for /api/health and the tests). */
  get adjudications(): number {
    return this.core.adjudications;
  }

  // -------------------------------------------------------------------------------------------
  // Accounts: accounts.ts

  register(...a: Parameters<Accounts["register"]>): ReturnType<Accounts["register"]> {
    return this.rooms.accounts.register(...a);
  }

  login(...a: Parameters<Accounts["login"]>): ReturnType<Accounts["login"]> {
    return this.rooms.accounts.login(...a);
  }

  issueToken(...a: Parameters<Accounts["issueToken"]>): ReturnType<Accounts["issueToken"]> {
    return this.rooms.accounts.issueToken(...a);
  }

  listTokens(...a: Parameters<Accounts["listTokens"]>): ReturnType<Accounts["listTokens"]> {
    return this.rooms.accounts.listTokens(...a);
  }

  revokeToken(...a: Parameters<Accounts["revokeToken"]>): ReturnType<Accounts["revokeToken"]> {
    return this.rooms.accounts.revokeToken(...a);
  }

  mailOwner(...a: Parameters<Accounts["mailOwner"]>): ReturnType<Accounts["mailOwner"]> {
    return this.rooms.accounts.mailOwner(...a);
  }

  authenticate(...a: Parameters<Accounts["authenticate"]>): ReturnType<Accounts["authenticate"]> {
    return this.rooms.accounts.authenticate(...a);
  }

  // -------------------------------------------------------------------------------------------
  // Games and seats: games.ts

  // -------------------------------------------------------------------------------------------
  // Built-in players: bots.ts

  setBot(...a: Parameters<BotPlayers["setBot"]>): ReturnType<BotPlayers["setBot"]> {
    return this.rooms.bots.setBot(...a);
  }

  practice(...a: Parameters<BotPlayers["practice"]>): ReturnType<BotPlayers["practice"]> {
    return this.rooms.bots.practice(...a);
  }

  createGame(...a: Parameters<Games["createGame"]>): ReturnType<Games["createGame"]> {
    return this.rooms.games.createGame(...a);
  }

  listGames(...a: Parameters<Games["listGames"]>): ReturnType<Games["listGames"]> {
    return this.rooms.games.listGames(...a);
  }

  createInvite(...a: Parameters<Games["createInvite"]>): ReturnType<Games["createInvite"]> {
    return this.rooms.games.createInvite(...a);
  }

  inviteInfo(...a: Parameters<Games["inviteInfo"]>): ReturnType<Games["inviteInfo"]> {
    return this.rooms.games.inviteInfo(...a);
  }

  acceptInvite(...a: Parameters<Games["acceptInvite"]>): ReturnType<Games["acceptInvite"]> {
    return this.rooms.games.acceptInvite(...a);
  }

  start(...a: Parameters<Games["start"]>): ReturnType<Games["start"]> {
    return this.rooms.games.start(...a);
  }

  // -------------------------------------------------------------------------------------------
  // DAIDE clients' seats: daide.ts (the connections are src/server/daide-games.ts's)

  /** The room of DAIDE seats, for the server's DAIDE listeners. */
  get daide(): DaideSeats {
    return this.rooms.daide;
  }

  // -------------------------------------------------------------------------------------------
  // Submissions: submissions.ts

  submitOrders(
    ...a: Parameters<Submissions["submitOrders"]>
  ): ReturnType<Submissions["submitOrders"]> {
    return this.rooms.submissions.submitOrders(...a);
  }

  /** Who still owes orders in the open phase (reminders), for a game of any family. */
  ordersOwed(...a: Parameters<Submissions["ordersOwed"]>): ReturnType<Submissions["ordersOwed"]> {
    return this.rooms.submissions.ordersOwed(...a);
  }

  checkOrders(
    ...a: Parameters<Submissions["checkOrders"]>
  ): ReturnType<Submissions["checkOrders"]> {
    return this.rooms.submissions.checkOrders(...a);
  }

  currentOrders(
    ...a: Parameters<Submissions["currentOrders"]>
  ): ReturnType<Submissions["currentOrders"]> {
    return this.rooms.submissions.currentOrders(...a);
  }

  // -------------------------------------------------------------------------------------------
  // The adjudication scheduler: adjudication.ts

  tick(...a: Parameters<Adjudication["tick"]>): ReturnType<Adjudication["tick"]> {
    return this.rooms.adjudication.tick(...a);
  }

  adjudicateIfDue(
    ...a: Parameters<Adjudication["adjudicateIfDue"]>
  ): ReturnType<Adjudication["adjudicateIfDue"]> {
    return this.rooms.adjudication.adjudicateIfDue(...a);
  }

  // -------------------------------------------------------------------------------------------
  // Votes (seed 002 IX): votes.ts

  propose(...a: Parameters<Votes["propose"]>): ReturnType<Votes["propose"]> {
    return this.rooms.votes.propose(...a);
  }

  vote(...a: Parameters<Votes["vote"]>): ReturnType<Votes["vote"]> {
    return this.rooms.votes.vote(...a);
  }

  /** The GM refuses to conduct a vote on a proposal (seed 002 IX(5)), with a reason. */
  refuseProposal(...a: Parameters<Votes["refuse"]>): ReturnType<Votes["refuse"]> {
    return this.rooms.votes.refuse(...a);
  }

  proposals(...a: Parameters<Votes["proposals"]>): ReturnType<Votes["proposals"]> {
    return this.rooms.votes.proposals(...a);
  }

  // -------------------------------------------------------------------------------------------
  // Press (seed 002 X): press.ts

  sendPress(...a: Parameters<Press["sendPress"]>): ReturnType<Press["sendPress"]> {
    return this.rooms.press.sendPress(...a);
  }

  press(...a: Parameters<Press["press"]>): ReturnType<Press["press"]> {
    return this.rooms.press.press(...a);
  }

  heldPress(...a: Parameters<Press["heldPress"]>): ReturnType<Press["heldPress"]> {
    return this.rooms.press.heldPress(...a);
  }
  approvePress(...a: Parameters<Press["approvePress"]>): ReturnType<Press["approvePress"]> {
    return this.rooms.press.approvePress(...a);
  }
  refusePress(...a: Parameters<Press["refusePress"]>): ReturnType<Press["refusePress"]> {
    return this.rooms.press.refusePress(...a);
  }
  pressMessage(...a: Parameters<Press["pressMessage"]>): ReturnType<Press["pressMessage"]> {
    return this.rooms.press.pressMessage(...a);
  }

  // -------------------------------------------------------------------------------------------
  // The game master's tools: gm-tools.ts

  /** An event to the GM of every game in play (gm-tools.ts `tellEveryGm`). */
  tellGms(kind: string, data: unknown): Promise<number> {
    return this.rooms.gm.tellEveryGm(kind, data);
  }

  pause(...a: Parameters<GmTools["pause"]>): ReturnType<GmTools["pause"]> {
    return this.rooms.gm.pause(...a);
  }

  resume(...a: Parameters<GmTools["resume"]>): ReturnType<GmTools["resume"]> {
    return this.rooms.gm.resume(...a);
  }

  setDeadline(...a: Parameters<GmTools["setDeadline"]>): ReturnType<GmTools["setDeadline"]> {
    return this.rooms.gm.setDeadline(...a);
  }

  correct(...a: Parameters<GmTools["correct"]>): ReturnType<GmTools["correct"]> {
    return this.rooms.gm.correct(...a);
  }

  replacePlayer(...a: Parameters<GmTools["replacePlayer"]>): ReturnType<GmTools["replacePlayer"]> {
    return this.rooms.gm.replacePlayer(...a);
  }

  committeeAct(...a: Parameters<GmTools["committeeAct"]>): ReturnType<GmTools["committeeAct"]> {
    return this.rooms.gm.committeeAct(...a);
  }

  setSchedule(...a: Parameters<GmTools["setSchedule"]>): ReturnType<GmTools["setSchedule"]> {
    return this.rooms.gm.setSchedule(...a);
  }

  declareContract(
    ...a: Parameters<GmTools["declareContract"]>
  ): ReturnType<GmTools["declareContract"]> {
    return this.rooms.gm.declareContract(...a);
  }

  withdrawContract(
    ...a: Parameters<GmTools["withdrawContract"]>
  ): ReturnType<GmTools["withdrawContract"]> {
    return this.rooms.gm.withdrawContract(...a);
  }

  // -------------------------------------------------------------------------------------------
  // Removing and relocating a unit: unit-edits.ts

  removeUnit(...a: Parameters<UnitEdits["removeUnit"]>): ReturnType<UnitEdits["removeUnit"]> {
    return this.rooms.units.removeUnit(...a);
  }

  relocateUnit(...a: Parameters<UnitEdits["relocateUnit"]>): ReturnType<UnitEdits["relocateUnit"]> {
    return this.rooms.units.relocateUnit(...a);
  }

  // -------------------------------------------------------------------------------------------
  // Ending the game: endings.ts

  endGame(...a: Parameters<Endings["endGame"]>): ReturnType<Endings["endGame"]> {
    return this.rooms.endings.endGame(...a);
  }

  declareDraw(...a: Parameters<Endings["declareDraw"]>): ReturnType<Endings["declareDraw"]> {
    return this.rooms.endings.declareDraw(...a);
  }

  // -------------------------------------------------------------------------------------------
  // Views and events: views.ts

  gameView(...a: Parameters<Views["gameView"]>): ReturnType<Views["gameView"]> {
    return this.rooms.views.gameView(...a);
  }

  phases(...a: Parameters<Views["phases"]>): ReturnType<Views["phases"]> {
    return this.rooms.views.phases(...a);
  }

  record(...a: Parameters<Views["record"]>): ReturnType<Views["record"]> {
    return this.rooms.views.record(...a);
  }

  recordFor(...a: Parameters<Views["recordFor"]>): ReturnType<Views["recordFor"]> {
    return this.rooms.views.recordFor(...a);
  }

  committee(...a: Parameters<Views["committee"]>): ReturnType<Views["committee"]> {
    return this.rooms.views.committee(...a);
  }

  schedule(...a: Parameters<Views["schedule"]>): ReturnType<Views["schedule"]> {
    return this.rooms.views.schedule(...a);
  }

  contracts(...a: Parameters<Views["contracts"]>): ReturnType<Views["contracts"]> {
    return this.rooms.views.contracts(...a);
  }

  eventsFrom(...a: Parameters<Views["eventsFrom"]>): ReturnType<Views["eventsFrom"]> {
    return this.rooms.views.eventsFrom(...a);
  }

  withOwnIds<E extends { kind: string; data: unknown }>(
    gameId: string,
    reader: Reader,
    events: readonly E[],
  ): Promise<E[]> {
    return this.rooms.views.withOwnIds(gameId, reader, events);
  }

  audienceFilters(
    ...a: Parameters<Views["audienceFilters"]>
  ): ReturnType<Views["audienceFilters"]> {
    return this.rooms.views.audienceFilters(...a);
  }

  report(...a: Parameters<Views["report"]>): ReturnType<Views["report"]> {
    return this.rooms.views.report(...a);
  }

  familyTurns(...a: Parameters<Views["familyTurns"]>): ReturnType<Views["familyTurns"]> {
    return this.rooms.views.familyTurns(...a);
  }

  moderatorMap(...a: Parameters<Views["moderatorMap"]>): ReturnType<Views["moderatorMap"]> {
    return this.rooms.views.moderatorMap(...a);
  }

  familyMapSource(
    ...a: Parameters<Views["familyMapSource"]>
  ): ReturnType<Views["familyMapSource"]> {
    return this.rooms.views.familyMapSource(...a);
  }

  events(...a: Parameters<Views["events"]>): ReturnType<Views["events"]> {
    return this.rooms.views.events(...a);
  }

  rawEvents(...a: Parameters<Views["rawEvents"]>): ReturnType<Views["rawEvents"]> {
    return this.rooms.views.rawEvents(...a);
  }
}
