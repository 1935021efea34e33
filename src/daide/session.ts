/*
 * The DAIDE server's connections, for any game behind it (a `Table`: the standalone host's
 * engine game, host.ts, or a judge game, src/server/daide-game.ts): one TCP listener, the
 * framing (initial message, representation message, EM with its error code and the
 * connection closed, FM), each diplomacy message read into a tree (PRN for unbalanced
 * brackets, HUH with ERR where it cannot be read) and handed to the table by what it asks;
 * the table's answers sent back in order (a connection's messages are handled one after
 * another, the table may answer later: the judge's are read from its store). TME (n)
 * reminders are kept here, per connection, against the table's deadline.
 */
import { createServer, type Server, type Socket } from "node:net";
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
  knownToken,
  msg,
  type Part,
  textItem,
  textOf,
  tree,
} from "./language.ts";
import type { DaideMap } from "./mapdef.ts";
import { markFault, type PressAnswer, type PressLevel, pressFault } from "./press.ts";
import { intToken, intValue, isInteger, type Token, tok } from "./tokens.ts";

const T = tok;

/** How long a closed connection is read from before it is cut (ms). */
const LINGER = 5000;

type Awaitable<T> = T | Promise<T>;

export interface Conn {
  readonly socket: Socket;
  readonly reader: FrameReader;
  readonly id: number;
  gotInitial: boolean;
  closed: boolean;
  role: "none" | "player" | "observer";
  /** The seat's index in the table's sides (a player), set by the table. */
  side: number | null;
  mapAccepted: boolean;
  /** TME (n) requests: seconds before the deadline at which to be told. */
  readonly tme: Set<number>;
  timer: NodeJS.Timeout | null;
  /** The connection's messages, handled one after another. */
  queue: Promise<void>;
}

/** What a SUB comes to: REJ, or each order's THX, where reading stopped, then MIS. */
export type SubAnswer =
  | { readonly rej: true }
  | {
      readonly rej?: false;
      readonly answers: readonly Item[][];
      readonly stoppedAt: number | null;
      readonly mis: Item[];
    };

/** A game behind the protocol: what the connections ask of it. */
export interface Table {
  readonly map: DaideMap;
  /** Whether the game has started (HLO, NOW, SCO are answered) and whether it is over. */
  started(): boolean;
  over(): boolean;
  /** NME: seats the connection (role and side set) or refuses it (false). */
  nme(conn: Conn, name: string, version: string): Awaitable<boolean>;
  /** IAM: the seat back for its passcode (role and side set), or false. */
  iam(conn: Conn, power: Token, passcode: number): Awaitable<boolean>;
  /** YES (MAP): the player accepted the map (the game may start). */
  mapAccepted(conn: Conn): Awaitable<void>;
  hlo(conn: Conn): Awaitable<Item[] | null>;
  now(): Awaitable<Item[] | null>;
  sco(): Awaitable<Item[] | null>;
  /** The last adjudicated phase's ORDs (empty: none yet). */
  lastOrd(): Awaitable<Item[][]>;
  /** HST: a past turn's ORDs with the SCO and NOW after it, or null. */
  history(turn: Item): Awaitable<Item[][] | null>;
  /** SUB for the open phase (`turn`: the turn it names, if any). */
  sub(conn: Conn, turn: Item | null, orders: readonly Item[]): Awaitable<SubAnswer>;
  /** NOT (SUB [(order) ...]): false is REJ. */
  withdraw(conn: Conn, named: readonly Item[]): Awaitable<boolean>;
  mis(conn: Conn): Awaitable<Item[] | null>;
  /** GOF (true) and NOT (GOF) (false): false is REJ. */
  go(conn: Conn, on: boolean): Awaitable<boolean>;
  /** DRW (true) and NOT (DRW) (false): false is REJ. */
  draw(conn: Conn, on: boolean): Awaitable<boolean>;
  /** The open phase's deadline (ms since the epoch), or null: none. */
  deadline(): Awaitable<number | null>;
  /** The press level the game offers (HLO's LVL): 0, no press; 10. */
  pressLevel(): PressLevel;
  /**
   * SND at level 10: the press message (read and checked) to the sides whose tokens are
   * `to` (distinct, seated, not the sender's own).
   */
  press(conn: Conn, to: readonly Token[], message: readonly Item[]): Awaitable<PressAnswer>;
  /** The connection is gone (closed by either side). */
  left(conn: Conn): void;
}

export interface SessionsOptions {
  readonly port: number;
  readonly host?: string | undefined;
  /** How long a new connection has to send its initial message (ms). */
  readonly initialTimeout?: number | undefined;
  readonly log?: ((line: string) => void) | undefined;
  /** The clock the table's deadlines follow (ms; default Date.now). */
  readonly now?: (() => number) | undefined;
}

/** The listener and the connections of one game. */
export class Sessions {
  readonly #o: SessionsOptions;
  readonly #server: Server;
  readonly conns = new Set<Conn>();
  #table: Table | null = null;
  #nextConn = 1;
  #tmeTimers: NodeJS.Timeout[] = [];

  constructor(options: SessionsOptions) {
    this.#o = options;
    this.#server = createServer((socket) => this.#accept(socket));
  }

  /** The game the connections speak to (set once, before listening). */
  serve(table: Table) {
    this.#table = table;
  }

  get #t(): Table {
    return this.#table!;
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

  /** Every connection dropped (after what was sent) and the listener closed. */
  close(): Promise<void> {
    this.clearTme();
    for (const c of [...this.conns]) this.drop(c, null);
    return new Promise<void>((r) => this.#server.close(() => r()));
  }

  #log(line: string) {
    this.#o.log?.(line);
  }

  #now(): number {
    return (this.#o.now ?? Date.now)();
  }

  // --- connections ---------------------------------------------------------------------------

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
      queue: Promise.resolve(),
    };
    this.conns.add(conn);
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
    this.drop(conn, errorMessage(code));
  }

  /**
   * Closes our side after `last`, and keeps reading (and ignoring) what the client still
   * sends until it closes too, for at most LINGER ms: a socket closed with unread data sends
   * a reset, and a reset makes the client's system discard what it has not yet read (the EM,
   * or the SMR and OFF).
   */
  drop(conn: Conn, last: Buffer | null) {
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

  #release(conn: Conn) {
    if (!this.conns.has(conn)) return;
    this.conns.delete(conn);
    if (conn.timer) clearTimeout(conn.timer);
    this.#t.left(conn);
  }

  #frame(conn: Conn, type: number, body: Buffer) {
    if (!conn.gotInitial) {
      if (type !== MESSAGE.IM) return this.#fail(conn, ERROR.notFirstMessage);
      const fault = initialFault(body);
      if (fault !== null) return this.#fail(conn, fault);
      conn.gotInitial = true;
      if (conn.timer) clearTimeout(conn.timer);
      conn.timer = null;
      const map = this.#t.map;
      conn.socket.write(
        map.standard ? frame(MESSAGE.RM) : representationMessage(map.representation()),
      );
      return;
    }
    switch (type) {
      case MESSAGE.IM:
        return this.#fail(conn, ERROR.moreThanOneIM);
      case MESSAGE.RM:
        return this.#fail(conn, ERROR.rmFromClient);
      case MESSAGE.FM:
        return this.drop(conn, frame(MESSAGE.FM));
      case MESSAGE.EM:
        return this.drop(conn, null);
      case MESSAGE.DM: {
        const tokens = tokensOf(body);
        if (tokens === null || tokens.length === 0)
          return this.#fail(conn, ERROR.shorterThanExpected);
        if (!tokens.every((x) => knownToken(x, this.#t.map.names)))
          return this.#fail(conn, ERROR.invalidToken);
        const t = tree(tokens);
        if (!t.ok) return this.sendTokens(conn, [T("PRN"), T("("), ...tokens, T(")")]);
        conn.queue = conn.queue
          .then(() => (conn.closed ? undefined : this.#message(conn, t.items)))
          .catch((e: unknown) => {
            // A fault of the game behind (its store): the client is told the message was
            // not taken, and the connection goes on.
            this.#log(`connection ${conn.id}: ${(e as Error).stack ?? e}`);
            this.send(conn, ["REJ", t.items as Item[]]);
          });
        return;
      }
      default:
        return this.#fail(conn, ERROR.unknownMessage);
    }
  }

  send(conn: Conn, items: readonly Part[]) {
    if (conn.closed) return;
    this.sendTokens(conn, flatten(msg(...items)));
  }

  sendTokens(conn: Conn, tokens: readonly Token[]) {
    if (conn.closed) return;
    conn.socket.write(diplomacyMessage(tokens));
  }

  /** To every client that has taken a seat or watches. */
  broadcast(items: readonly Part[]) {
    for (const c of this.conns) if (c.role !== "none") this.send(c, items);
  }

  /** The connection playing a seat, if any. */
  playerOf(side: number): Conn | undefined {
    for (const c of this.conns) if (c.role === "player" && c.side === side) return c;
    return undefined;
  }

  // --- messages ------------------------------------------------------------------------------

  async #message(conn: Conn, items: readonly Item[]): Promise<void> {
    const head = items[0];
    if (typeof head !== "number") return this.#huh(conn, items, 0);
    const whole = items as Item[];
    const t = this.#t;
    const reply = (ok: boolean) => this.send(conn, [ok ? "YES" : "REJ", whole]);
    const answer = (m: Item[] | null) => (m ? this.send(conn, m) : this.#rej(conn, whole));
    switch (head) {
      case T("NME"): {
        const name = textOf(items[1]);
        const version = textOf(items[2]);
        if (items.length !== 3 || name === null || version === null)
          return this.#huh(conn, items, Math.min(items.length, name === null ? 1 : 2));
        if (conn.role !== "none" || !(await t.nme(conn, name, version)))
          return this.#rej(conn, whole);
        this.send(conn, ["YES", whole]);
        return this.send(conn, ["MAP", textItem(t.map.name)]);
      }
      case T("OBS"):
        if (items.length !== 1) return this.#huh(conn, items, 1);
        if (conn.role !== "none") return this.#rej(conn, whole);
        conn.role = "observer";
        this.send(conn, ["YES", whole]);
        return this.send(conn, ["MAP", textItem(t.map.name)]);
      case T("IAM"): {
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
        if (conn.role !== "none" || !(await t.iam(conn, power[0], intValue(code[0]))))
          return this.#rej(conn, whole);
        conn.mapAccepted = true;
        return this.send(conn, ["YES", whole]);
      }
      case T("MAP"):
        if (items.length !== 1) return this.#huh(conn, items, 1);
        return this.send(conn, ["MAP", textItem(t.map.name)]);
      case T("MDF"):
        if (items.length !== 1) return this.#huh(conn, items, 1);
        return this.send(conn, ["MDF", ...t.map.mdf()]);
      case T("YES"):
      case T("REJ"):
        return this.#answer(conn, whole, head === T("YES"));
      case T("HLO"):
        if (!t.started() || conn.role !== "player") return this.#rej(conn, whole);
        return answer(await t.hlo(conn));
      case T("NOW"):
        return answer(t.started() ? await t.now() : null);
      case T("SCO"):
        return answer(t.started() ? await t.sco() : null);
      case T("ORD"): {
        const ords = await t.lastOrd();
        if (ords.length === 0) return this.#rej(conn, whole);
        for (const m of ords) this.send(conn, m);
        return;
      }
      case T("HST"): {
        const turn = items[1];
        const past =
          items.length === 2 && typeof turn !== "number" && turn ? await t.history(turn) : null;
        if (!past) return this.#rej(conn, whole);
        for (const m of past) this.send(conn, m);
        return;
      }
      case T("SUB"):
        return this.#sub(conn, whole);
      case T("MIS"):
        if (!this.#playing(conn)) return this.#rej(conn, whole);
        return answer(await t.mis(conn));
      case T("GOF"):
        if (items.length !== 1) return this.#huh(conn, items, 1);
        return reply(this.#playing(conn) && (await t.go(conn, true)));
      case T("DRW"):
        // Partial draws (DRW (powers)) are not offered.
        if (items.length !== 1) return this.#rej(conn, whole);
        return reply(this.#playing(conn) && (await t.draw(conn, true)));
      case T("NOT"):
        return this.#not(conn, whole);
      case T("TME"):
        return this.#tme(conn, whole);
      case T("ADM"): {
        const name = textOf(items[1]);
        const text = textOf(items[2]);
        if (items.length !== 3 || name === null || text === null) return this.#huh(conn, items, 1);
        if (conn.role === "none") return this.#rej(conn, whole);
        return this.broadcast(whole);
      }
      case T("SND"):
        return this.#snd(conn, whole);
      default:
        // Saved games (SVE, LOD), and press words outside a SND, are not read.
        return this.#huh(conn, items, 0);
    }
  }

  #playing(conn: Conn): boolean {
    const t = this.#t;
    return t.started() && !t.over() && conn.role === "player" && conn.side !== null;
  }

  #rej(conn: Conn, items: Item[]) {
    this.send(conn, ["REJ", items]);
  }

  /** HUH with ERR before the item at `at` of the message. */
  #huh(conn: Conn, items: readonly Item[], at: number) {
    const marked = [...items.slice(0, at), T("ERR"), ...items.slice(at)];
    this.send(conn, ["HUH", marked]);
  }

  async #answer(conn: Conn, items: Item[], yes: boolean) {
    const what = items[1];
    if (items.length !== 2 || typeof what === "number" || what === undefined)
      return this.#huh(conn, items, 1);
    if (what[0] !== T("MAP")) return this.#huh(conn, items, 1);
    if (!yes) {
      // The client refuses the map: it leaves (a seat not yet started is free again).
      this.#log(`connection ${conn.id} refused the map`);
      this.send(conn, ["OFF"]);
      return this.drop(conn, null);
    }
    conn.mapAccepted = true;
    const t = this.#t;
    if (conn.role === "player" && !t.started()) return t.mapAccepted(conn);
    if (t.started()) {
      // A client seated in a game already on gets its HLO first.
      const hlo = conn.role === "player" ? await t.hlo(conn) : null;
      if (hlo) this.send(conn, hlo);
      const sco = await t.sco();
      const now = await t.now();
      if (sco) this.send(conn, sco);
      if (now) this.send(conn, now);
    }
  }

  async #sub(conn: Conn, items: Item[]) {
    if (!this.#playing(conn)) return this.#rej(conn, items);
    let orders = items.slice(1);
    // An optional turn first: (SPR 1901).
    const first = orders[0];
    let turn: Item | null = null;
    if (isTurn(first)) {
      turn = first;
      orders = orders.slice(1);
    }
    if (orders.length === 0) return this.#huh(conn, items, 1);
    const a = await this.#t.sub(conn, turn, orders);
    if (a.rej) return this.#rej(conn, items);
    for (const m of a.answers) this.send(conn, m);
    if (a.stoppedAt !== null)
      return this.#huh(conn, items, items.length - orders.length + a.stoppedAt);
    this.send(conn, a.mis);
  }

  /**
   * SND [(turn)] (power ...) (press message). No press in the game (level 0): REJ. What
   * level 10 cannot read: HUH with ERR where reading stopped. A recipient that is not a
   * power of the game's, or the sender itself: HUH with ERR before it. Then the game's
   * answer: YES, REJ, or OUT (power) / CCD (power) when a recipient is out of the game or
   * not connected (then nobody is sent the message).
   */
  async #snd(conn: Conn, items: Item[]) {
    const t = this.#t;
    let at = 1;
    const first = items[1];
    if (isTurn(first)) at = 2;
    const to = items[at];
    const message = items[at + 1];
    if (to === undefined || typeof to === "number" || to.length === 0)
      return this.#huh(conn, items, at);
    if (t.pressLevel() === 0 || !this.#playing(conn)) return this.#rej(conn, items);
    const own = conn.side === null ? undefined : t.map.sides[conn.side]?.token;
    const seated = new Set(t.map.sides.filter((s) => s.seat !== null).map((s) => s.token));
    const bad = to.findIndex(
      (x, i) => typeof x !== "number" || !seated.has(x) || x === own || to.indexOf(x) !== i,
    );
    if (bad >= 0) return this.send(conn, ["HUH", markFault(items, [at, bad])]);
    if (message === undefined || typeof message === "number") return this.#huh(conn, items, at + 1);
    const powers = new Set(t.map.sides.map((s) => s.token));
    const fault = pressFault(message, (x) => powers.has(x));
    if (fault) return this.send(conn, ["HUH", markFault(items, [at + 1, ...fault])]);
    if (items.length > at + 2) return this.#huh(conn, items, at + 2);
    const a = await t.press(conn, to as Token[], message);
    if (a.kind === "sent") return this.send(conn, ["YES", items]);
    if (a.kind === "rej") return this.#rej(conn, items);
    return this.send(conn, [a.kind === "out" ? "OUT" : "CCD", [a.power]]);
  }

  async #not(conn: Conn, items: Item[]) {
    const what = items[1];
    if (items.length !== 2 || typeof what === "number" || what === undefined || what.length === 0)
      return this.#huh(conn, items, 1);
    const head = what[0];
    const t = this.#t;
    const reply = (ok: boolean) => this.send(conn, [ok ? "YES" : "REJ", items]);
    if (head === T("GOF") && what.length === 1)
      return reply(this.#playing(conn) && (await t.go(conn, false)));
    if (head === T("DRW") && what.length === 1)
      return reply(this.#playing(conn) && (await t.draw(conn, false)));
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
      return reply(true);
    }
    if (head === T("SUB"))
      return reply(this.#playing(conn) && (await t.withdraw(conn, what.slice(1))));
    return this.#huh(conn, items, 1);
  }

  async #tme(conn: Conn, items: Item[]) {
    const t = this.#t;
    if (items.length === 1) {
      const deadline = t.started() ? await t.deadline() : null;
      if (deadline === null) return this.#rej(conn, items);
      const left = Math.max(0, Math.ceil((deadline - this.#now()) / 1000));
      return this.send(conn, ["TME", [intToken(Math.min(left, 8191))]]);
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
    this.send(conn, ["YES", items]);
    this.#scheduleTme(conn, intValue(n[0]), t.started() ? await t.deadline() : null);
  }

  /** A phase opened with this deadline (or none): every TME (n) asked for is set again. */
  phaseOpened(deadline: number | null) {
    this.clearTme();
    for (const c of this.conns) for (const n of c.tme) this.#scheduleTme(c, n, deadline);
  }

  clearTme() {
    for (const t of this.#tmeTimers) clearTimeout(t);
    this.#tmeTimers = [];
  }

  #scheduleTme(conn: Conn, seconds: number, deadline: number | null) {
    if (deadline === null) return;
    const at = deadline - seconds * 1000 - this.#now();
    if (at < 0) return;
    this.#tmeTimers.push(
      setTimeout(() => {
        if (conn.tme.has(seconds)) this.send(conn, ["TME", [intToken(seconds)]]);
      }, at),
    );
  }
}

/** Whether an item is a turn, `(SPR 1901)`: a season token (category 0x47) and a year. */
function isTurn(item: Item | undefined): item is readonly Item[] {
  return (
    item !== undefined &&
    typeof item !== "number" &&
    item.length === 2 &&
    typeof item[0] === "number" &&
    item[0] >> 8 === 0x47
  );
}
