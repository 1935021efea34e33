/*
 * One game hosted for DAIDE clients on one TCP port (`entente daide host`). The clients take
 * the seats in the order they send NME; built-in players (src/bots) may take the last seats.
 * The game starts when every seat is taken and runs on Entente's engine: each phase's orders,
 * read against the engine's legal orders (orders.ts), are adjudicated by `step` (the same
 * function the records and the judge play phases with), and the results go back as ORD.
 *
 * A phase ends when every side is ready, or when its time runs out: a side is ready when it
 * sent GOF, or when its orders are complete and it did not send NOT (GOF) (the protocol's
 * default go flag), or when it has nothing to order. The game ends at a solo (SLO), a draw
 * every surviving side asked for (DRW), or the start of the last year (a draw among the
 * survivors); then every client gets SMR and OFF.
 *
 * What a client sends wrong gets the protocol's answer and harms nothing else: an EM with its
 * error code for a framing fault (then its connection is closed), PRN for unbalanced brackets,
 * HUH with ERR where a message cannot be read, REJ for a message out of turn, an order note in
 * THX for an order that is not legal. A player's dropped connection keeps the seat for IAM.
 */
import { randomInt } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import type { Bot } from "../bots/bot.ts";
import { adjustmentCounts } from "../engine/adjustments.ts";
import { powersToOrder } from "../engine/must-order.ts";
import { phaseName } from "../engine/phase.ts";
import {
  type GameRecord,
  type GameState,
  newRecord,
  phaseRecord,
  type Step,
  step,
} from "../engine/record.ts";
import type { RuleOptions } from "../engine/rules.ts";
import { type Scenario, unplayedPowers } from "../engine/scenario.ts";
import { dislodgedKey, type Position, type PowerId } from "../engine/types.ts";
import {
  diplomacyMessage,
  ERROR,
  errorMessage,
  FrameReader,
  frame,
  initialFault,
  MESSAGE,
  representationMessage,
  tokensOf,
} from "./framing.ts";
import {
  flatten,
  type Item,
  itemsText,
  knownToken,
  msg,
  type Part,
  textItem,
  textOf,
  tree,
} from "./language.ts";
import { type DaideMap, daideMap, type Side } from "./mapdef.ts";
import {
  type AdjustmentSoFar,
  checkOrder,
  orderItem,
  type PhaseTables,
  phaseTables,
  resultTokens,
  turnItem,
  unitItem,
} from "./orders.ts";
import { intToken, intValue, isInteger, type Token, tok } from "./tokens.ts";

export interface HostOptions {
  readonly scenario: Scenario;
  readonly rules: RuleOptions;
  /** Seeds the scenario's own draws and the built-in players. */
  readonly seed: number;
  /** Seconds for a movement phase (retreats and adjustments too); 0: no time limit. */
  readonly moveTime: number;
  /** The game ends at the start of this year (a draw among the survivors); null: never. */
  readonly until: number | null;
  /** Built-in players for the last seats, one per seat. */
  readonly bots: readonly Bot[];
  readonly port: number;
  readonly host?: string;
  /** How long a new connection has to send its initial message (ms). */
  readonly initialTimeout?: number;
  /** A game id for the summary and the record file. */
  readonly id?: string;
  /** Lines for the operator (stderr in the CLI). */
  readonly log?: (line: string) => void;
}

/** How the game ended, and each side's end: the summary line `entente daide host` prints. */
export interface GameSummary {
  readonly game: string;
  readonly variant: string;
  readonly scenario: string;
  readonly map: string;
  readonly phases: number;
  /** The last phase played into (the position the game ended on). */
  readonly endPhase: string;
  /** Seconds from the start of the game (every seat taken) to its end. */
  readonly seconds: number;
  /** Phases that ended because their time ran out (not every power was ready). */
  readonly timedOut: number;
  readonly result:
    | { readonly kind: "solo"; readonly winner: string }
    | {
        readonly kind: "draw";
        readonly reason: "agreed" | "until";
        readonly powers: readonly string[];
      };
  readonly powers: readonly {
    readonly power: string;
    readonly plays: readonly string[];
    readonly centres: number;
    readonly client: string | null;
    readonly version: string | null;
    readonly bot: string | null;
    readonly eliminated: number | null;
  }[];
  readonly record: GameRecord;
}

interface Conn {
  readonly socket: Socket;
  readonly reader: FrameReader;
  readonly id: number;
  gotInitial: boolean;
  closed: boolean;
  role: "none" | "player" | "observer";
  side: SideState | null;
  mapAccepted: boolean;
  /** TME (n) requests: seconds before the deadline at which to be told. */
  readonly tme: Set<number>;
  timer: NodeJS.Timeout | null;
}

interface UnitOrder {
  readonly item: Item;
  readonly text: string;
  readonly power: PowerId;
  readonly adjustment: "build" | "remove" | "waive" | null;
}

interface SideState {
  readonly side: Side;
  readonly bot: Bot | null;
  conn: Conn | null;
  /** Whether a client was ever seated here (a seat is kept for IAM once the game started). */
  name: string | null;
  version: string | null;
  readonly passcode: number;
  /** Orders of the open phase, by unit (or build site, or `waive N`). */
  orders: Map<string, UnitOrder>;
  go: "default" | "go" | "not";
  draw: boolean;
  eliminated: number | null;
}

const T = tok;

/** How long a closed connection is read from before it is cut (ms). */
const LINGER = 5000;

export class DaideHost {
  readonly map: DaideMap;
  readonly #o: HostOptions;
  readonly #server: Server;
  readonly #conns = new Set<Conn>();
  readonly #sides: SideState[];
  #nextConn = 1;
  #started = false;
  #over = false;
  #state: GameState;
  #record: GameRecord;
  #tables: PhaseTables | null = null;
  #deadline: number | null = null;
  #phaseTimers: NodeJS.Timeout[] = [];
  #processing = false;
  /** When the game started (ms), and how many phases ended because their time ran out. */
  #startedAt = 0;
  #timedOut = 0;
  /** Per turn already played: its ORD messages, then the SCO and NOW after it (HST). */
  readonly #history = new Map<string, Item[][]>();
  #lastOrd: Item[][] = [];
  #resolveDone!: (s: GameSummary) => void;
  #rejectDone!: (e: Error) => void;
  /** Settles when the game has ended and every client was told (SMR, OFF). */
  readonly done: Promise<GameSummary>;

  constructor(options: HostOptions) {
    this.#o = options;
    const { scenario } = options;
    this.map = daideMap(scenario);
    const seated = this.map.sides.filter((s) => s.seat !== null);
    if (options.bots.length > seated.length)
      throw new Error(`--bots ${options.bots.length}: the game has only ${seated.length} seats`);
    if (options.bots.length === seated.length)
      throw new Error(
        `--bots ${options.bots.length} leaves no seat for a DAIDE client: give at most ${seated.length - 1}`,
      );
    const firstBot = seated.length - options.bots.length;
    this.#sides = this.map.sides.map((side) => {
      const i = seated.indexOf(side);
      return {
        side,
        bot: i >= firstBot && i >= 0 ? options.bots[i - firstBot]! : null,
        conn: null,
        name: null,
        version: null,
        passcode: randomInt(1, 8192),
        orders: new Map(),
        go: "default",
        draw: false,
        eliminated: null,
      };
    });
    this.#record = newRecord(scenario, options.rules, options.seed);
    this.#state = {
      position: scenario.variant.start,
      seats: scenario.seats,
      events: [],
      index: 0,
    };
    this.done = new Promise((resolve, reject) => {
      this.#resolveDone = resolve;
      this.#rejectDone = reject;
    });
    this.#server = createServer((socket) => this.#accept(socket));
  }

  /** Listens; answers the port (useful with port 0). */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(this.#o.port, this.#o.host ?? "0.0.0.0", () => {
        this.#server.off("error", reject);
        const a = this.#server.address();
        resolve(typeof a === "object" && a ? a.port : this.#o.port);
      });
    });
  }

  /** Seats that wait for a client. */
  get openSeats(): number {
    return this.#sides.filter((s) => this.#needsClient(s) && !s.conn).length;
  }

  /** Stops at once: every connection and the listener closed, without a summary. */
  async close(): Promise<void> {
    this.#over = true;
    this.#clearPhaseTimers();
    for (const c of this.#conns) this.#drop(c, null);
    await new Promise<void>((r) => this.#server.close(() => r()));
    this.#rejectDone(new Error("the host was closed before the game ended"));
  }

  #log(line: string) {
    this.#o.log?.(line);
  }

  #needsClient(s: SideState): boolean {
    return s.side.seat !== null && s.bot === null;
  }

  // --- connections -------------------------------------------------------------------------

  #accept(socket: Socket) {
    const conn: Conn = {
      socket,
      reader: new FrameReader(),
      id: this.#nextConn++,
      gotInitial: false,
      closed: false,
      role: "none",
      side: null,
      mapAccepted: false,
      tme: new Set(),
      timer: null,
    };
    this.#conns.add(conn);
    socket.setNoDelay(true);
    conn.timer = setTimeout(
      () => this.#fail(conn, ERROR.timerPopped),
      this.#o.initialTimeout ?? 30_000,
    );
    socket.on("data", (chunk: Buffer) => {
      if (conn.closed) return;
      try {
        for (const f of conn.reader.push(chunk)) {
          if (conn.closed) break;
          this.#frame(conn, f.type, f.body);
        }
      } catch (e) {
        this.#log(`connection ${conn.id}: ${e instanceof Error ? e.message : String(e)}`);
        this.#fail(conn, ERROR.unknownMessage);
      }
    });
    socket.on("error", () => this.#gone(conn));
    socket.on("close", () => this.#gone(conn));
  }

  /** An error message, then the connection closed (the protocol's rule after an EM). */
  #fail(conn: Conn, code: number) {
    if (conn.closed) return;
    this.#log(`connection ${conn.id}: error ${code}, closed`);
    this.#drop(conn, errorMessage(code));
  }

  /**
   * Closes our side after `last`, and keeps reading (and ignoring) what the client still
   * sends until it closes too, for at most LINGER ms: a socket closed with unread data sends
   * a reset, and a reset makes the client's system discard what it has not yet read (the EM,
   * or the SMR and OFF).
   */
  #drop(conn: Conn, last: Buffer | null) {
    if (conn.closed) return;
    conn.closed = true;
    if (last) conn.socket.end(last);
    else conn.socket.end();
    setTimeout(() => conn.socket.destroy(), LINGER).unref();
    this.#release(conn);
  }

  /** The client closed, or the connection failed. */
  #gone(conn: Conn) {
    conn.closed = true;
    if (!conn.socket.destroyed) conn.socket.destroy();
    this.#release(conn);
  }

  /** The connection no longer plays: its seat waits for IAM (or is free before the start). */
  #release(conn: Conn) {
    if (!this.#conns.has(conn)) return;
    this.#conns.delete(conn);
    if (conn.timer) clearTimeout(conn.timer);
    const s = conn.side;
    if (s && s.conn === conn) {
      s.conn = null;
      if (!this.#started) {
        // Before the start the seat is free again: nobody has its passcode yet.
        s.name = null;
        s.version = null;
        this.#log(`${s.side.name}: client left before the start; the seat is free`);
      } else if (!this.#over) {
        this.#log(`${s.side.name}: connection lost; the seat waits for IAM`);
        this.#broadcast(["CCD", [s.side.token]]);
      }
    }
  }

  #frame(conn: Conn, type: number, body: Buffer) {
    if (!conn.gotInitial) {
      if (type !== MESSAGE.IM) return this.#fail(conn, ERROR.notFirstMessage);
      const fault = initialFault(body);
      if (fault !== null) return this.#fail(conn, fault);
      conn.gotInitial = true;
      if (conn.timer) clearTimeout(conn.timer);
      conn.timer = null;
      const rm = this.map.standard
        ? frame(MESSAGE.RM)
        : representationMessage(this.map.representation());
      conn.socket.write(rm);
      return;
    }
    switch (type) {
      case MESSAGE.IM:
        return this.#fail(conn, ERROR.moreThanOneIM);
      case MESSAGE.RM:
        return this.#fail(conn, ERROR.rmFromClient);
      case MESSAGE.FM:
        return this.#drop(conn, frame(MESSAGE.FM));
      case MESSAGE.EM:
        return this.#drop(conn, null);
      case MESSAGE.DM: {
        const tokens = tokensOf(body);
        if (tokens === null || tokens.length === 0)
          return this.#fail(conn, ERROR.shorterThanExpected);
        if (!tokens.every((x) => knownToken(x, this.map.names)))
          return this.#fail(conn, ERROR.invalidToken);
        const t = tree(tokens);
        if (!t.ok) return this.#sendTokens(conn, [T("PRN"), ...tokensWithBrackets(tokens)]);
        return this.#message(conn, t.items);
      }
      default:
        return this.#fail(conn, ERROR.unknownMessage);
    }
  }

  #send(conn: Conn, items: readonly Part[]) {
    if (conn.closed) return;
    this.#sendTokens(conn, flatten(msg(...items)));
  }

  #sendTokens(conn: Conn, tokens: readonly Token[]) {
    if (conn.closed) return;
    conn.socket.write(diplomacyMessage(tokens));
  }

  /** To every client that has taken a seat or watches. */
  #broadcast(items: readonly Part[]) {
    for (const c of this.#conns) if (c.role !== "none") this.#send(c, items);
  }

  // --- messages ------------------------------------------------------------------------------

  #message(conn: Conn, items: readonly Item[]) {
    const head = items[0];
    if (typeof head !== "number") return this.#huh(conn, items, 0);
    const whole = items as Item[];
    switch (head) {
      case T("NME"):
        return this.#nme(conn, whole);
      case T("OBS"):
        if (items.length !== 1) return this.#huh(conn, items, 1);
        if (conn.role !== "none") return this.#rej(conn, whole);
        conn.role = "observer";
        this.#send(conn, ["YES", whole]);
        this.#send(conn, ["MAP", textItem(this.map.name)]);
        return;
      case T("IAM"):
        return this.#iam(conn, whole);
      case T("MAP"):
        if (items.length !== 1) return this.#huh(conn, items, 1);
        return this.#send(conn, ["MAP", textItem(this.map.name)]);
      case T("MDF"):
        if (items.length !== 1) return this.#huh(conn, items, 1);
        return this.#send(conn, ["MDF", ...this.map.mdf()]);
      case T("YES"):
      case T("REJ"):
        return this.#answer(conn, whole, head === T("YES"));
      case T("HLO"):
        if (!this.#started || conn.role !== "player" || !conn.side) return this.#rej(conn, whole);
        return this.#send(conn, this.#hlo(conn.side));
      case T("NOW"):
        if (!this.#started) return this.#rej(conn, whole);
        return this.#send(conn, this.#now());
      case T("SCO"):
        if (!this.#started) return this.#rej(conn, whole);
        return this.#send(conn, this.#sco());
      case T("ORD"):
        if (this.#lastOrd.length === 0) return this.#rej(conn, whole);
        for (const m of this.#lastOrd) this.#send(conn, m);
        return;
      case T("HST"): {
        const turn = items[1];
        const past =
          items.length === 2 && typeof turn !== "number" && turn
            ? this.#history.get(itemsText(turn, this.map.names))
            : undefined;
        if (!past) return this.#rej(conn, whole);
        for (const m of past) this.#send(conn, m);
        return;
      }
      case T("SUB"):
        return this.#sub(conn, whole);
      case T("MIS"):
        if (!this.#playing(conn)) return this.#rej(conn, whole);
        return this.#send(conn, this.#mis(conn.side!));
      case T("GOF"):
        if (items.length !== 1) return this.#huh(conn, items, 1);
        if (!this.#playing(conn)) return this.#rej(conn, whole);
        conn.side!.go = "go";
        this.#send(conn, ["YES", whole]);
        return this.#checkReady();
      case T("DRW"):
        if (items.length !== 1) return this.#rej(conn, whole); // partial draws: not offered
        if (!this.#playing(conn)) return this.#rej(conn, whole);
        conn.side!.draw = true;
        this.#send(conn, ["YES", whole]);
        return this.#checkDraw();
      case T("NOT"):
        return this.#not(conn, whole);
      case T("TME"):
        return this.#tme(conn, whole);
      case T("ADM"): {
        const name = textOf(items[1]);
        const text = textOf(items[2]);
        if (items.length !== 3 || name === null || text === null) return this.#huh(conn, items, 1);
        if (conn.role === "none") return this.#rej(conn, whole);
        return this.#broadcast(whole);
      }
      case T("SND"):
      case T("PRP"):
      case T("SVE"):
      case T("LOD"):
        // Press (levels 10 and up) and saved games are not offered at level 0.
        return this.#huh(conn, items, 0);
      default:
        return this.#huh(conn, items, 0);
    }
  }

  #playing(conn: Conn): boolean {
    return this.#started && !this.#over && conn.role === "player" && conn.side !== null;
  }

  #rej(conn: Conn, items: Item[]) {
    this.#send(conn, ["REJ", items]);
  }

  /** HUH with ERR before the item at `at` of the message. */
  #huh(conn: Conn, items: readonly Item[], at: number) {
    const marked = [...items.slice(0, at), T("ERR"), ...items.slice(at)];
    this.#send(conn, ["HUH", marked]);
  }

  #nme(conn: Conn, items: Item[]) {
    const name = textOf(items[1]);
    const version = textOf(items[2]);
    if (items.length !== 3 || name === null || version === null)
      return this.#huh(conn, items, Math.min(items.length, name === null ? 1 : 2));
    if (conn.role !== "none" || this.#started) return this.#rej(conn, items);
    const free = this.#sides.find((s) => this.#needsClient(s) && !s.conn);
    if (!free) return this.#rej(conn, items);
    free.conn = conn;
    free.name = name;
    free.version = version;
    conn.role = "player";
    conn.side = free;
    this.#log(`${free.side.name}: ${name} ${version} (connection ${conn.id})`);
    this.#send(conn, ["YES", items]);
    this.#send(conn, ["MAP", textItem(this.map.name)]);
  }

  #iam(conn: Conn, items: Item[]) {
    const power = items[1];
    const code = items[2];
    if (
      items.length !== 3 ||
      typeof power === "number" ||
      typeof code === "number" ||
      power?.length !== 1 ||
      code?.length !== 1 ||
      typeof power[0] !== "number" ||
      typeof code[0] !== "number" ||
      !isInteger(code[0])
    )
      return this.#huh(conn, items, 1);
    const s = this.#sides.find((x) => x.side.token === power[0]);
    if (
      conn.role !== "none" ||
      !this.#started ||
      this.#over ||
      !s ||
      !this.#needsClient(s) ||
      s.conn !== null ||
      s.passcode !== intValue(code[0])
    )
      return this.#rej(conn, items);
    s.conn = conn;
    conn.role = "player";
    conn.side = s;
    conn.mapAccepted = true;
    this.#log(`${s.side.name}: back (connection ${conn.id})`);
    this.#send(conn, ["YES", items]);
    for (const c of this.#conns)
      if (c !== conn && c.role !== "none") this.#send(c, ["NOT", ["CCD", [s.side.token]]]);
  }

  #answer(conn: Conn, items: Item[], yes: boolean) {
    const what = items[1];
    if (items.length !== 2 || typeof what === "number" || what === undefined)
      return this.#huh(conn, items, 1);
    if (what[0] !== T("MAP")) return this.#huh(conn, items, 1);
    if (!yes) {
      // The client refuses the map: it leaves, and its seat is free again.
      this.#log(`connection ${conn.id} refused the map`);
      this.#send(conn, ["OFF"]);
      return this.#drop(conn, null);
    }
    conn.mapAccepted = true;
    if (conn.role === "player" && !this.#started) return this.#maybeStart();
    if (this.#started) {
      this.#send(conn, this.#sco());
      this.#send(conn, this.#now());
    }
  }

  #not(conn: Conn, items: Item[]) {
    const what = items[1];
    if (items.length !== 2 || typeof what === "number" || what === undefined || what.length === 0)
      return this.#huh(conn, items, 1);
    const head = what[0];
    if (head === T("GOF") && what.length === 1) {
      if (!this.#playing(conn)) return this.#rej(conn, items);
      conn.side!.go = "not";
      return this.#send(conn, ["YES", items]);
    }
    if (head === T("DRW") && what.length === 1) {
      if (!this.#playing(conn)) return this.#rej(conn, items);
      conn.side!.draw = false;
      return this.#send(conn, ["YES", items]);
    }
    if (head === T("TME")) {
      const n = what[1];
      if (what.length === 1) conn.tme.clear();
      else if (
        what.length === 2 &&
        typeof n !== "number" &&
        n?.length === 1 &&
        typeof n[0] === "number" &&
        isInteger(n[0])
      )
        conn.tme.delete(intValue(n[0]));
      else return this.#huh(conn, items, 1);
      return this.#send(conn, ["YES", items]);
    }
    if (head === T("SUB")) {
      // Cancels orders given this phase: all of them, or the ones named.
      if (!this.#playing(conn)) return this.#rej(conn, items);
      const side = conn.side!;
      if (what.length === 1) side.orders.clear();
      else {
        const named = what.slice(1).map((o) => itemsText([o], this.map.names));
        let found = 0;
        for (const [k, v] of side.orders)
          if (named.includes(itemsText([v.item], this.map.names))) {
            side.orders.delete(k);
            found++;
          }
        if (found !== named.length) return this.#rej(conn, items);
      }
      return this.#send(conn, ["YES", items]);
    }
    return this.#huh(conn, items, 1);
  }

  #tme(conn: Conn, items: Item[]) {
    if (items.length === 1) {
      if (!this.#started || this.#deadline === null) return this.#rej(conn, items);
      const left = Math.max(0, Math.ceil((this.#deadline - Date.now()) / 1000));
      return this.#send(conn, ["TME", [intToken(Math.min(left, 8191))]]);
    }
    const n = items[1];
    if (
      items.length !== 2 ||
      typeof n === "number" ||
      n?.length !== 1 ||
      typeof n[0] !== "number" ||
      !isInteger(n[0]) ||
      intValue(n[0]) < 0
    )
      return this.#huh(conn, items, 1);
    conn.tme.add(intValue(n[0]));
    this.#send(conn, ["YES", items]);
    this.#scheduleTme(conn, intValue(n[0]));
  }

  #scheduleTme(conn: Conn, seconds: number) {
    if (this.#deadline === null) return;
    const at = this.#deadline - seconds * 1000 - Date.now();
    if (at < 0) return;
    this.#phaseTimers.push(
      setTimeout(() => {
        if (conn.tme.has(seconds)) this.#send(conn, ["TME", [intToken(seconds)]]);
      }, at),
    );
  }

  // --- the game ------------------------------------------------------------------------------

  #maybeStart() {
    if (this.#started) return;
    const waiting = this.#sides.filter((s) => this.#needsClient(s) && !s.conn?.mapAccepted);
    if (waiting.length > 0) return;
    this.#started = true;
    this.#startedAt = Date.now();
    this.#log(`the game starts: ${this.map.name}`);
    for (const s of this.#sides) {
      if (s.conn) this.#send(s.conn, this.#hlo(s));
      if (s.bot) {
        s.name = s.bot.id;
        s.version = "entente";
      }
    }
    this.#startPhase(true);
  }

  #hlo(s: SideState): Item[] {
    const params: Item[] = [[T("LVL"), intToken(0)]];
    const t = Math.min(this.#o.moveTime, 8191);
    if (t > 0)
      params.push([T("MTL"), intToken(t)], [T("RTL"), intToken(t)], [T("BTL"), intToken(t)]);
    return [T("HLO"), [s.side.token], [intToken(s.passcode)], params];
  }

  get #position(): Position {
    return this.#state.position;
  }

  #sco(): Item[] {
    const pos = this.#position;
    const owned = new Map<Token, Token[]>();
    const unowned: Token[] = [];
    for (const p of this.#o.scenario.variant.map.provinces) {
      if (!p.supplyCenter || p.impassable) continue;
      const owner = pos.centers.get(p.id);
      const x = this.map.provinceToken(p.id);
      if (owner === undefined) unowned.push(x);
      else {
        const side = this.map.sideOf(owner, this.#state.seats).token;
        owned.set(side, [...(owned.get(side) ?? []), x]);
      }
    }
    const out: Item[] = [T("SCO")];
    for (const s of this.map.sides) {
      const list = owned.get(s.token);
      if (list) out.push([s.token, ...list]);
    }
    if (unowned.length > 0) out.push([T("UNO"), ...unowned]);
    return out;
  }

  #now(): Item[] {
    const pos = this.#position;
    const seats = this.#state.seats;
    const out: Item[] = [T("NOW"), turnItem(pos.phase)];
    for (const u of pos.units) out.push(unitItem(this.map, seats, u));
    for (const d of pos.dislodged) {
      const retreats = this.#tables?.retreats?.get(dislodgedKey(d)) ?? [];
      const places = retreats.flatMap((o) =>
        o.kind === "retreat"
          ? [
              o.to.coast === null
                ? this.map.provinceToken(o.to.province)
                : ([this.map.provinceToken(o.to.province), tokCoast(o.to.coast)] as Item),
            ]
          : [],
      );
      out.push([...unitItem(this.map, seats, d), T("MRT"), places]);
    }
    return out;
  }

  /** The variant's powers a side plays now. */
  #powersOf(s: SideState): PowerId[] {
    return this.#o.scenario.variant.powers
      .map((p) => p.id)
      .filter((p) => this.map.sideOf(p, this.#state.seats).token === s.side.token);
  }

  /** What a side still has to order: units (with retreats) or a number of adjustments. */
  #missing(s: SideState): { units: Item[]; adjust: number } {
    const pos = this.#position;
    const powers = new Set(this.#powersOf(s));
    const seats = this.#state.seats;
    if (pos.phase.type === "M") {
      const units = pos.units
        .filter((u) => powers.has(u.power) && !s.orders.has(`${u.power} ${u.province}`))
        .map((u) => unitItem(this.map, seats, u));
      return { units, adjust: 0 };
    }
    if (pos.phase.type === "R") {
      const units = pos.dislodged
        .filter((d) => powers.has(d.power) && !s.orders.has(`${d.power} ${d.province}`))
        .map((d) => {
          const retreats = this.#tables?.retreats?.get(dislodgedKey(d)) ?? [];
          const places = retreats.flatMap((o) =>
            o.kind === "retreat" ? [this.map.provinceToken(o.to.province)] : [],
          );
          return [...unitItem(this.map, seats, d), T("MRT"), places];
        });
      return { units, adjust: 0 };
    }
    // Adjustments: positive, removals still owed; negative, builds still open (as MILA's
    // server counts them).
    let owed = 0;
    const counts = adjustmentCounts(this.#o.scenario.variant, pos);
    for (const p of powers) {
      const n = counts.get(p) ?? 0;
      const given = [...s.orders.values()].filter((o) => o.power === p);
      if (n < 0) owed += -n - given.filter((o) => o.adjustment === "remove").length;
      if (n > 0) {
        const due = this.#tables?.adjustments?.get(p)?.count ?? 0;
        const sites = this.#tables?.adjustments?.get(p)?.orders.some((o) => o.kind === "build")
          ? due
          : 0;
        owed -= Math.max(0, sites - given.length);
      }
    }
    return { units: [], adjust: owed };
  }

  #mis(s: SideState): Item[] {
    const m = this.#missing(s);
    if (this.#position.phase.type === "A") {
      return m.adjust === 0 ? [T("MIS")] : [T("MIS"), [intToken(m.adjust)]];
    }
    return [T("MIS"), ...m.units];
  }

  #complete(s: SideState): boolean {
    const m = this.#missing(s);
    return m.units.length === 0 && m.adjust === 0;
  }

  #mustOrder(s: SideState): boolean {
    const must = new Set(powersToOrder(this.#o.scenario.variant, this.#position, this.#o.rules));
    return this.#powersOf(s).some((p) => must.has(p));
  }

  #sub(conn: Conn, items: Item[]) {
    if (!this.#playing(conn) || this.#processing) return this.#rej(conn, items);
    const side = conn.side!;
    let orders = items.slice(1);
    // An optional turn first: (SPR 1901).
    const first = orders[0];
    if (
      first !== undefined &&
      typeof first !== "number" &&
      first.length === 2 &&
      typeof first[0] === "number" &&
      first[0] >> 8 === 0x47
    ) {
      if (
        itemsText(first, this.map.names) !==
        itemsText(turnItem(this.#position.phase), this.map.names)
      )
        return this.#rej(conn, items);
      orders = orders.slice(1);
    }
    if (orders.length === 0) return this.#huh(conn, items, 1);
    const variant = this.#o.scenario.variant;
    const answers: Item[][] = [];
    for (let i = 0; i < orders.length; i++) {
      const order = orders[i]!;
      const soFar = this.#soFar(side);
      const c = checkOrder(
        {
          map: this.map,
          variant,
          position: this.#position,
          seats: this.#state.seats,
          tables: this.#tables!,
          side: side.side,
          soFar,
        },
        order,
      );
      if (c.kind === "syntax") {
        // Orders before it stand; the rest of the message is not read.
        for (const a of answers) this.#send(conn, a);
        return this.#huh(conn, items, items.length - orders.length + i);
      }
      if (c.accepted) {
        const a = c.accepted;
        const key = a.adjustment === "waive" ? `waive ${side.orders.size}` : a.key;
        side.orders.set(key, {
          item: order,
          text: a.text,
          power: a.power,
          adjustment: a.adjustment,
        });
      }
      answers.push([T("THX"), order as Item, [c.note]]);
    }
    for (const a of answers) this.#send(conn, a);
    this.#send(conn, this.#mis(side));
    this.#checkReady();
  }

  #soFar(s: SideState): AdjustmentSoFar {
    const builds = new Map<PowerId, number>();
    const removes = new Map<PowerId, number>();
    const sites = new Set<string>();
    const removed = new Set<string>();
    for (const [key, o] of s.orders) {
      if (o.adjustment === "build" || o.adjustment === "waive") {
        builds.set(o.power, (builds.get(o.power) ?? 0) + 1);
        if (o.adjustment === "build") sites.add(key);
      }
      if (o.adjustment === "remove") {
        removes.set(o.power, (removes.get(o.power) ?? 0) + 1);
        removed.add(key);
      }
    }
    return {
      builds,
      removes,
      sites: sites as ReadonlySet<string> as AdjustmentSoFar["sites"],
      removed: removed as ReadonlySet<string> as AdjustmentSoFar["removed"],
    };
  }

  #clearPhaseTimers() {
    for (const t of this.#phaseTimers) clearTimeout(t);
    this.#phaseTimers = [];
  }

  #startPhase(first: boolean) {
    const pos = this.#position;
    const { variant } = this.#o.scenario;
    this.#tables = phaseTables(variant, pos, this.#o.rules);
    for (const s of this.#sides) {
      s.orders = new Map();
      s.go = "default";
    }
    // Built-in players order at once.
    for (const s of this.#sides) {
      if (!s.bot) continue;
      for (const power of this.#powersOf(s)) {
        const texts = s.bot.orders({
          scenario: this.#o.scenario,
          rules: this.#o.rules,
          position: pos,
          power,
          seed: (this.#o.seed * 7919 + this.#state.index * 131 + power.length) >>> 0,
        });
        texts.forEach((text, i) => {
          s.orders.set(`bot ${power} ${i}`, { item: [], text, power, adjustment: null });
        });
      }
      s.go = "go";
    }
    if (first) {
      for (const s of this.#sides)
        if (s.side.seat === null) this.#broadcast(["CCD", [s.side.token]]);
    }
    this.#broadcast(this.#sco());
    this.#broadcast(this.#now());
    this.#clearPhaseTimers();
    const t = this.#o.moveTime;
    const index = this.#state.index;
    this.#deadline = t > 0 ? Date.now() + t * 1000 : null;
    if (this.#deadline !== null) {
      this.#phaseTimers.push(
        setTimeout(() => {
          if (this.#processing) return;
          this.#timedOut++;
          this.#endPhase(index);
        }, t * 1000),
      );
      for (const c of this.#conns) for (const n of c.tme) this.#scheduleTme(c, n);
    }
    this.#checkReady();
  }

  #checkReady() {
    if (!this.#started || this.#over || this.#processing) return;
    for (const s of this.#sides) {
      if (s.side.seat === null || s.bot) continue;
      if (!this.#mustOrder(s)) continue;
      if (s.go === "go") continue;
      if (s.go === "default" && s.conn && this.#complete(s)) continue;
      return;
    }
    this.#processing = true;
    const index = this.#state.index;
    setImmediate(() => this.#endPhase(index));
  }

  #survivors(): SideState[] {
    const pos = this.#position;
    return this.#sides.filter(
      (s) =>
        s.side.seat !== null &&
        this.#powersOf(s).some(
          (p) => pos.units.some((u) => u.power === p) || [...pos.centers.values()].includes(p),
        ),
    );
  }

  #checkDraw() {
    const alive = this.#survivors();
    if (alive.length > 0 && alive.every((s) => s.draw || s.bot)) {
      if (alive.some((s) => !s.bot)) this.#end({ kind: "draw", reason: "agreed" });
    }
  }

  /** Adjudicates the phase `index` (once: the time limit and the last GOF may both ask). */
  #endPhase(index: number) {
    if (this.#over || this.#state.index !== index) return;
    this.#processing = true;
    this.#clearPhaseTimers();
    const scenario = this.#o.scenario;
    const pos = this.#position;
    const texts = new Map<PowerId, string[]>();
    const unplayed = new Set(unplayedPowers(scenario.variant, this.#state.seats));
    for (const s of this.#sides)
      for (const o of s.orders.values()) {
        if (unplayed.has(o.power)) continue;
        texts.set(o.power, [...(texts.get(o.power) ?? []), o.text]);
      }
    let st: Step;
    try {
      st = step(scenario, this.#o.rules, this.#o.seed, this.#state, texts);
    } catch (e) {
      this.#over = true;
      this.#rejectDone(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    this.#record = {
      ...this.#record,
      phases: [...this.#record.phases, phaseRecord(scenario, pos, texts, st)],
    };
    // ORD for every order the engine adjudicated, in the words the client used.
    const seats = this.#state.seats;
    const byText = new Map<string, Item>();
    for (const s of this.#sides)
      for (const o of s.orders.values())
        if (o.item !== undefined && !(Array.isArray(o.item) && o.item.length === 0))
          byText.set(`${o.power}\n${o.text}`, o.item);
    const dislodged = new Set(st.result.dislodged.map((d) => `${d.unit.power} ${d.unit.province}`));
    const turn = turnItem(pos.phase);
    const ords: Item[][] = [];
    for (const r of st.result.results) {
      if (!r.order) continue;
      const item =
        (r.text !== null ? byText.get(`${r.power}\n${r.text}`) : undefined) ??
        orderItem(this.map, seats, pos, r.order);
      if (!item) continue;
      const result = resultTokens(r.order, r.result === "succeeds", r.reason);
      if (r.order.kind !== "waive" && r.order.kind !== "build" && pos.phase.type === "M") {
        const u = r.order.unit;
        if (dislodged.has(`${u.power} ${u.province}`)) result.push(T("RET"));
      }
      if (result.length === 0) result.push(T("SUC"));
      ords.push([T("ORD"), turn, item, result]);
    }
    this.#lastOrd = ords;
    for (const m of ords) this.#broadcast(m);
    this.#state = st.state;
    this.#tables = null;
    this.#history.set(itemsText(turn, this.map.names), [...ords]);
    this.#log(`${phaseName(pos.phase)} adjudicated`);

    // Eliminations.
    const after = this.#position;
    for (const s of this.#sides) {
      if (s.eliminated !== null) continue;
      const powers = this.#powersOf(s);
      const alive =
        powers.some((p) => after.units.some((u) => u.power === p)) ||
        powers.some((p) => [...after.centers.values()].includes(p));
      if (!alive) {
        s.eliminated = pos.phase.year;
        this.#broadcast(["OUT", [s.side.token]]);
      }
    }
    this.#processing = false;
    const winner = st.result.winner ?? null;
    if (winner !== null) {
      return this.#end({ kind: "solo", side: this.map.sideOf(winner, this.#state.seats) });
    }
    if (st.seatWinner !== null) {
      const i = this.#state.seats.findIndex((x) => x.name === st.seatWinner);
      const side = this.#sides.find((s) => s.side.seat === i)?.side;
      if (side) return this.#end({ kind: "solo", side });
    }
    if (this.#o.until !== null && after.phase.year >= this.#o.until) {
      return this.#end({ kind: "draw", reason: "until" });
    }
    this.#checkDraw();
    if (this.#over) return;
    this.#startPhase(false);
    this.#history.get(itemsText(turn, this.map.names))!.push(this.#sco(), this.#now());
  }

  #end(how: { kind: "solo"; side: Side } | { kind: "draw"; reason: "agreed" | "until" }) {
    if (this.#over) return;
    this.#over = true;
    this.#clearPhaseTimers();
    const alive = this.#survivors();
    if (how.kind === "solo") this.#broadcast(["SLO", [how.side.token]]);
    else this.#broadcast(["DRW"]);
    const pos = this.#position;
    const centres = (s: SideState) =>
      [...pos.centers.values()].filter((p) => this.#powersOf(s).includes(p)).length;
    const smr: Item[] = [T("SMR"), turnItem(pos.phase)];
    for (const s of this.#sides) {
      const entry: Item[] = [
        s.side.token,
        textItem(s.name ?? (s.side.seat === null ? "nobody" : "absent")),
        textItem(s.version ?? ""),
        intToken(centres(s)),
      ];
      if (s.eliminated !== null) entry.push(intToken(s.eliminated));
      smr.push(entry);
    }
    this.#broadcast(smr);
    this.#broadcast(["OFF"]);
    const summary: GameSummary = {
      game: this.#o.id ?? "daide",
      variant: this.#o.scenario.variant.id,
      scenario: this.#o.scenario.id,
      map: this.map.name,
      phases: this.#record.phases.length,
      endPhase: phaseName(pos.phase),
      seconds: this.#startedAt === 0 ? 0 : Math.round((Date.now() - this.#startedAt) / 100) / 10,
      timedOut: this.#timedOut,
      result:
        how.kind === "solo"
          ? { kind: "solo", winner: how.side.name }
          : { kind: "draw", reason: how.reason, powers: alive.map((s) => s.side.name) },
      powers: this.#sides.map((s) => ({
        power: s.side.name,
        plays: this.#powersOf(s),
        centres: centres(s),
        client: s.bot ? null : s.name,
        version: s.bot ? null : s.version,
        bot: s.bot?.id ?? null,
        eliminated: s.eliminated,
      })),
      record: this.#record,
    };
    this.#log(`the game is over: ${JSON.stringify(summary.result)}`);
    // Let the OFF reach every client, then close.
    const conns = [...this.#conns];
    for (const c of conns) this.#drop(c, null);
    this.#server.close(() => this.#resolveDone(summary));
  }
}

/** A PRN's argument: the message as sent, brackets and all. */
function tokensWithBrackets(tokens: readonly Token[]): Token[] {
  return [T("("), ...tokens, T(")")];
}

function tokCoast(c: "nc" | "sc" | "ec" | "wc"): Token {
  return T({ nc: "NCS", sc: "SCS", ec: "ECS", wc: "WCS" }[c]);
}
