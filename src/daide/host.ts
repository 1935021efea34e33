/*
 * One game hosted for DAIDE clients on one TCP port (`entente daide host`). The clients take
 * the seats in the order they send NME; built-in players (src/bots) may take the last seats,
 * or the seats named or drawn (`botPowers`). At level 10 the clients send each other press
 * (SND, passed on as FRM; session.ts reads it, press.ts says what level 10 is).
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
 * The connections and the protocol's messages are session.ts's (shared with the judge's games,
 * src/server/daide-game.ts); a phase's orders and messages are turn.ts's; what the game is
 * given, its bots' seats and its summary are host-options.ts's. This file is the game: seats,
 * phases, time, the end. A player's dropped connection keeps the seat for IAM.
 */
import { randomInt } from "node:crypto";
import type { Bot } from "../bots/bot.ts";
import { phaseName } from "../engine/phase.ts";
import {
  type GameRecord,
  type GameState,
  newRecord,
  phaseRecord,
  type Step,
  step,
} from "../engine/record.ts";
import { unplayedPowers } from "../engine/scenario.ts";
import type { Position, PowerId } from "../engine/types.ts";
import { botSeats, type GameSummary, type HostOptions } from "./host-options.ts";
import { type Item, itemsText, textItem } from "./language.ts";
import { type DaideMap, daideMap, type Side } from "./mapdef.ts";
import { type PhaseTables, phaseTables, turnItem } from "./orders.ts";
import type { PressAnswer, PressLevel } from "./press.ts";
import { type Conn, Sessions, type SubAnswer, type Table } from "./session.ts";
import { intToken, type Token, tok } from "./tokens.ts";
import {
  complete,
  hloMessage,
  misMessage,
  mustOrder,
  nowMessage,
  openTurn,
  ordMessages,
  powersOf,
  scoMessage,
  submit,
  type Turn,
  type UnitOrder,
  withdraw,
} from "./turn.ts";

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

export class DaideHost implements Table {
  readonly map: DaideMap;
  readonly #o: HostOptions;
  readonly #net: Sessions;
  readonly #sides: SideState[];
  #started = false;
  #over = false;
  #state: GameState;
  #record: GameRecord;
  #tables: PhaseTables | null = null;
  #deadline: number | null = null;
  #phaseTimer: NodeJS.Timeout | null = null;
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
    const botAt = botSeats(this.map, options);
    this.#sides = this.map.sides.map((side) => {
      return {
        side,
        bot: botAt.get(side) ?? null,
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
    this.#net = new Sessions({
      port: options.port,
      host: options.host,
      initialTimeout: options.initialTimeout,
      log: options.log,
    });
    this.#net.serve(this);
  }

  /** Listens; answers the port (useful with port 0). */
  listen(): Promise<number> {
    return this.#net.listen();
  }

  /** Seats that wait for a client. */
  get openSeats(): number {
    return this.#sides.filter((s) => this.#needsClient(s) && !s.conn).length;
  }

  /** Stops at once: every connection and the listener closed, without a summary. */
  async close(): Promise<void> {
    this.#over = true;
    this.#clearPhaseTimer();
    await this.#net.close();
    this.#rejectDone(new Error("the host was closed before the game ended"));
  }

  #log(line: string) {
    this.#o.log?.(line);
  }

  #needsClient(s: SideState): boolean {
    return s.side.seat !== null && s.bot === null;
  }

  #sideOf(conn: Conn): SideState | null {
    return conn.side === null ? null : (this.#sides[conn.side] ?? null);
  }

  // --- what the connections ask (session.ts) -------------------------------------------------

  started(): boolean {
    return this.#started;
  }

  over(): boolean {
    return this.#over;
  }

  left(conn: Conn) {
    const s = this.#sideOf(conn);
    if (!s || s.conn !== conn) return;
    s.conn = null;
    if (!this.#started) {
      // Before the start the seat is free again: nobody has its passcode yet.
      s.name = null;
      s.version = null;
      this.#log(`${s.side.name}: client left before the start; the seat is free`);
    } else if (!this.#over) {
      this.#log(`${s.side.name}: connection lost; the seat waits for IAM`);
      this.#net.broadcast(["CCD", [s.side.token]]);
    }
  }

  nme(conn: Conn, name: string, version: string): boolean {
    if (this.#started) return false;
    const i = this.#sides.findIndex((s) => this.#needsClient(s) && !s.conn);
    const free = this.#sides[i];
    if (!free) return false;
    free.conn = conn;
    free.name = name;
    free.version = version;
    conn.role = "player";
    conn.side = i;
    this.#log(`${free.side.name}: ${name} ${version} (connection ${conn.id})`);
    return true;
  }

  iam(conn: Conn, power: Token, passcode: number): boolean {
    const i = this.#sides.findIndex((x) => x.side.token === power);
    const s = this.#sides[i];
    if (
      !this.#started ||
      this.#over ||
      !s ||
      !this.#needsClient(s) ||
      s.conn !== null ||
      s.passcode !== passcode
    )
      return false;
    s.conn = conn;
    this.#log(`${s.side.name}: back (connection ${conn.id})`);
    this.#net.broadcast(["NOT", ["CCD", [s.side.token]]]);
    conn.role = "player";
    conn.side = i;
    return true;
  }

  mapAccepted(_conn: Conn) {
    this.#maybeStart();
  }

  hlo(conn: Conn): Item[] | null {
    const s = this.#sideOf(conn);
    return s ? this.#hlo(s) : null;
  }

  now(): Item[] {
    return nowMessage(this.map, this.#position, this.#state.seats, this.#tables);
  }

  sco(): Item[] {
    return scoMessage(this.map, this.#o.scenario.variant, this.#position, this.#state.seats);
  }

  lastOrd(): Item[][] {
    return this.#lastOrd;
  }

  history(turn: Item): Item[][] | null {
    return this.#history.get(itemsText([turn], this.map.names)) ?? null;
  }

  #turn(): Turn {
    return {
      map: this.map,
      variant: this.#o.scenario.variant,
      rules: this.#o.rules,
      position: this.#position,
      seats: this.#state.seats,
      tables: this.#tables!,
    };
  }

  sub(conn: Conn, turn: Item | null, orders: readonly Item[]): SubAnswer {
    const s = this.#sideOf(conn);
    if (!s || this.#processing || !this.#tables) return { rej: true };
    const t = this.#turn();
    if (!openTurn(t, turn)) return { rej: true };
    const r = submit(t, s.side, s.orders, orders);
    const answer = { ...r, mis: misMessage(t, s.side, s.orders) };
    if (r.stoppedAt === null) setImmediate(() => this.#checkReady());
    return answer;
  }

  withdraw(conn: Conn, named: readonly Item[]): boolean {
    const s = this.#sideOf(conn);
    return s ? withdraw(this.map, s.orders, named) : false;
  }

  mis(conn: Conn): Item[] | null {
    const s = this.#sideOf(conn);
    if (!s || !this.#tables) return null;
    return misMessage(this.#turn(), s.side, s.orders);
  }

  go(conn: Conn, on: boolean): boolean {
    const s = this.#sideOf(conn);
    if (!s) return false;
    s.go = on ? "go" : "not";
    if (on) setImmediate(() => this.#checkReady());
    return true;
  }

  draw(conn: Conn, on: boolean): boolean {
    const s = this.#sideOf(conn);
    if (!s) return false;
    s.draw = on;
    if (on) setImmediate(() => this.#checkDraw());
    return true;
  }

  deadline(): number | null {
    return this.#deadline;
  }

  pressLevel(): PressLevel {
    return this.#o.level ?? 0;
  }

  /**
   * SND between the clients: FRM to each recipient's client. Not sent (the answer names the
   * first recipient it fails for): a power out of the game (OUT), a seat whose client is not
   * connected (CCD); a built-in player's seat, which reads no press, gets REJ.
   */
  press(conn: Conn, to: readonly Token[], message: readonly Item[]): PressAnswer {
    const from = this.#sideOf(conn);
    if (!from || this.#over) return { kind: "rej" };
    const recipients = to.map((t) => this.#sides.find((s) => s.side.token === t)!);
    for (const r of recipients) {
      if (r.eliminated !== null || !this.#alive(r)) return { kind: "out", power: r.side.token };
      if (r.bot) return { kind: "rej" };
      if (!r.conn) return { kind: "ccd", power: r.side.token };
    }
    for (const r of recipients)
      this.#net.send(r.conn!, ["FRM", [from.side.token], [...to], message]);
    return { kind: "sent" };
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
      if (s.conn) this.#net.send(s.conn, this.#hlo(s));
      if (s.bot) {
        s.name = s.bot.id;
        s.version = "entente";
      }
    }
    this.#startPhase(true);
  }

  #hlo(s: SideState): Item[] {
    const t = this.#o.moveTime;
    return hloMessage(
      s.side,
      s.passcode,
      t > 0 ? { movement: t, retreats: t, builds: t } : null,
      this.pressLevel(),
    );
  }

  get #position(): Position {
    return this.#state.position;
  }

  #powersOf(s: SideState): PowerId[] {
    return powersOf(this.map, this.#o.scenario.variant, this.#state.seats, s.side);
  }

  #clearPhaseTimer() {
    if (this.#phaseTimer) clearTimeout(this.#phaseTimer);
    this.#phaseTimer = null;
    this.#net.clearTme();
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
        if (s.side.seat === null) this.#net.broadcast(["CCD", [s.side.token]]);
    }
    this.#net.broadcast(this.sco());
    this.#net.broadcast(this.now());
    this.#clearPhaseTimer();
    const t = this.#o.moveTime;
    const index = this.#state.index;
    this.#deadline = t > 0 ? Date.now() + t * 1000 : null;
    if (this.#deadline !== null) {
      this.#phaseTimer = setTimeout(() => {
        if (this.#processing) return;
        this.#timedOut++;
        this.#endPhase(index);
      }, t * 1000);
    }
    this.#net.phaseOpened(this.#deadline);
    this.#checkReady();
  }

  #checkReady() {
    if (!this.#started || this.#over || this.#processing || !this.#tables) return;
    const turn = this.#turn();
    for (const s of this.#sides) {
      if (s.side.seat === null || s.bot) continue;
      if (!mustOrder(turn, s.side)) continue;
      if (s.go === "go") continue;
      if (s.go === "default" && s.conn && complete(turn, s.side, s.orders)) continue;
      return;
    }
    this.#processing = true;
    const index = this.#state.index;
    setImmediate(() => this.#endPhase(index));
  }

  /** Whether a side still has a unit or a centre. */
  #alive(s: SideState): boolean {
    const pos = this.#position;
    const owners = new Set(pos.centers.values());
    return this.#powersOf(s).some((p) => owners.has(p) || pos.units.some((u) => u.power === p));
  }

  #survivors(): SideState[] {
    return this.#sides.filter((s) => s.side.seat !== null && this.#alive(s));
  }

  #checkDraw() {
    if (!this.#started || this.#over) return;
    const alive = this.#survivors();
    if (alive.length > 0 && alive.every((s) => s.draw || s.bot)) {
      if (alive.some((s) => !s.bot)) this.#end({ kind: "draw", reason: "agreed" });
    }
  }

  /** Adjudicates the phase `index` (once: the time limit and the last GOF may both ask). */
  #endPhase(index: number) {
    if (this.#over || this.#state.index !== index) return;
    this.#processing = true;
    this.#clearPhaseTimer();
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
    const byText = new Map<string, Item>();
    for (const s of this.#sides)
      for (const o of s.orders.values())
        if (!(Array.isArray(o.item) && o.item.length === 0))
          byText.set(`${o.power}\n${o.text}`, o.item);
    const ords = ordMessages(this.map, this.#state.seats, pos, st.result, byText);
    const turn = turnItem(pos.phase);
    this.#lastOrd = ords;
    for (const m of ords) this.#net.broadcast(m);
    this.#state = st.state;
    this.#tables = null;
    this.#history.set(itemsText([turn], this.map.names), [...ords]);
    this.#log(`${phaseName(pos.phase)} adjudicated`);

    // Eliminations.
    const after = this.#position;
    for (const s of this.#sides) {
      if (s.eliminated !== null || this.#alive(s)) continue;
      s.eliminated = pos.phase.year;
      this.#net.broadcast(["OUT", [s.side.token]]);
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
    this.#history.get(itemsText([turn], this.map.names))!.push(this.sco(), this.now());
  }

  #end(how: { kind: "solo"; side: Side } | { kind: "draw"; reason: "agreed" | "until" }) {
    if (this.#over) return;
    this.#over = true;
    this.#clearPhaseTimer();
    const alive = this.#survivors();
    if (how.kind === "solo") this.#net.broadcast(["SLO", [how.side.token]]);
    else this.#net.broadcast(["DRW"]);
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
    this.#net.broadcast(smr);
    this.#net.broadcast(["OFF"]);
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
    void this.#net.close().then(() => this.#resolveDone(summary));
  }
}
