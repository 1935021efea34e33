/*
 * One judge game behind the DAIDE protocol (`entente serve --daide-ports`): the `Table` the
 * connections (src/daide/session.ts) speak to, over the judge. NME takes a seat the game keeps
 * for DAIDE clients (src/judge/daide.ts), IAM brings a client back with its passcode, OBS
 * watches. A SUB is read as the standalone host reads it (src/daide/turn.ts) and the seat's
 * whole set is then stored through the judge (the players' path: its validation, deadlines,
 * early resolution, NMRs); GOF and the default go flag make the set final. DRW is the seat's
 * vote for a draw of every survivor. What the clients are told of the game (the start, each
 * adjudicated phase's ORD, SCO and NOW, the end) is read from the judge's stored game by
 * `refresh`, which the server calls after each scheduler tick (daide-games.ts): the judge
 * adjudicates, this only tells. Nobody is told another power's orders before the phase is
 * adjudicated (ORD is made from stored phases only). A seat's orders of the open phase are
 * read back from the stored set when this server has none (after a restart). Press (level 10)
 * goes through the judge's press path as the seat's white press; `refresh` passes the game's
 * new press in DAIDE's words on to the recipients' clients as FRM.
 */

import { fromText, type Item, itemsText, textItem, tree } from "../daide/language.ts";
import { type DaideMap, daideMap } from "../daide/mapdef.ts";
import { type PhaseTables, phaseTables, turnItem } from "../daide/orders.ts";
import { type PressAnswer, type PressLevel, pressFault, pressGloss } from "../daide/press.ts";
import { type Conn, Sessions, type SubAnswer, type Table } from "../daide/session.ts";
import { intToken, type Token, tok } from "../daide/tokens.ts";
import {
  complete,
  hloMessage,
  misMessage,
  mustOrder,
  nowMessage,
  openTurn,
  ordMessages,
  powersOf,
  restore,
  scoMessage,
  submit,
  type Turn,
  type UnitOrder,
  withdraw,
} from "../daide/turn.ts";
import { phaseName } from "../engine/phase.ts";
import { readPosition } from "../engine/position-json.ts";
import { type GameRecord, recordState, step } from "../engine/record.ts";
import type { PowerId } from "../engine/types.ts";
import { botSeatsOf } from "../judge/bot-list.ts";
import type { GameData } from "../judge/game-data.ts";
import type { Judge } from "../judge/judge.ts";
import { phaseLengthMs } from "../judge/options.ts";
import { eliminations } from "./daide-record.ts";

const T = tok;

interface SideState {
  /** The phase index these orders are for. */
  phaseIdx: number;
  orders: Map<string, UnitOrder>;
  go: "default" | "go" | "not";
}

export class DaideGame implements Table {
  readonly map: DaideMap;
  readonly gameId: string;
  readonly #judge: Judge;
  readonly #net: Sessions;
  readonly #log: (line: string) => void;
  #g: GameData;
  #tables: PhaseTables | null = null;
  /** Per side (index in map.sides): the orders of the open phase. */
  readonly #sides = new Map<number, SideState>();
  /** ORD messages of each adjudicated phase, by its index (made once). */
  readonly #ords = new Map<number, Item[][]>();
  #ended = false;

  private constructor(
    judge: Judge,
    g: GameData,
    options: { port: number; host?: string | undefined; log: (line: string) => void },
  ) {
    this.#judge = judge;
    this.#g = g;
    this.gameId = g.game.id;
    this.#log = (l) => options.log(`game ${g.game.id} (DAIDE port ${options.port}): ${l}`);
    this.map = daideMap(g.scenario);
    this.#net = new Sessions({
      port: options.port,
      host: options.host,
      log: this.#log,
      now: judge.now,
    });
    this.#net.serve(this);
    this.#setTables();
  }

  /** The game's listener on its port (rejects when the port cannot be listened on). */
  static async open(
    judge: Judge,
    gameId: string,
    options: { port: number; host?: string | undefined; log: (line: string) => void },
  ): Promise<DaideGame> {
    const game = new DaideGame(judge, await judge.daide.game(gameId), options);
    // Press is passed on from now: what was sent before is not sent again (after a restart).
    game.#pressSeen = await judge.daide.lastPressId(gameId);
    await game.#net.listen();
    return game;
  }

  close(): Promise<void> {
    return this.#net.close();
  }

  get ended(): boolean {
    return this.#ended;
  }

  #setTables() {
    const g = this.#g;
    this.#tables =
      g.state.state === "open" ? phaseTables(g.scenario.variant, g.position, g.record.rules) : null;
  }

  // --- what the judge did: told to the clients ------------------------------------------------

  /**
   * Reads the game again and tells the clients what changed: the start (HLO, SCO, NOW), each
   * phase adjudicated (its ORDs, then SCO and NOW of the phase opened), the end (SLO or DRW,
   * SMR, OFF; then the listener closes).
   */
  refresh(): Promise<void> {
    // One at a time (the tick and a client's SUB may both ask): each compares with the last.
    this.#refreshing = this.#refreshing.catch(() => {}).then(() => this.#refresh());
    return this.#refreshing;
  }

  #refreshing: Promise<void> = Promise.resolve();

  async #refresh(): Promise<void> {
    if (this.#ended) return;
    await this.#changes();
    if (!this.#ended) await this.#passPress();
  }

  async #changes(): Promise<void> {
    // Every change to a game moves its lock's version on: an unchanged game is not read.
    const version = await this.#judge.daide.version(this.gameId);
    if (version !== null && version === Number(this.#g.state.version)) return;
    const before = this.#g;
    const g = await this.#judge.daide.game(this.gameId);
    this.#g = g;
    const started = before.game.status === "forming" && g.game.status !== "forming";
    const phasesNow = g.record.phases.length;
    // A phase the GM corrected (played again: gm-tools.ts) is told again from where it
    // changed, its ORDs and the position after it (DAIDE has no message for a correction).
    let phasesBefore = before.record.phases.length;
    for (let i = Math.max(0, phasesBefore - 2); i < Math.min(phasesBefore, phasesNow); i++)
      if (JSON.stringify(before.record.phases[i]) !== JSON.stringify(g.record.phases[i])) {
        for (let j = i; j < phasesBefore; j++) this.#ords.delete(j);
        phasesBefore = i;
        break;
      }
    if (started || phasesNow !== phasesBefore || before.state.phase_idx !== g.state.phase_idx)
      this.#setTables();
    if (started) {
      this.#log("the game starts");
      for (const c of this.#net.conns)
        if (c.role === "player" && c.mapAccepted) {
          const hlo = await this.hlo(c);
          if (hlo) this.#net.send(c, hlo);
        }
    }
    for (let i = phasesBefore; i < phasesNow; i++)
      for (const m of this.#ordsOf(i)) this.#net.broadcast(m);
    if (g.game.status === "finished") return await this.#end();
    if (started || phasesNow !== phasesBefore) {
      this.#net.broadcast(this.sco());
      this.#net.broadcast(this.now());
    }
    if (
      started ||
      phasesNow !== phasesBefore ||
      before.state.deadline_at !== g.state.deadline_at ||
      before.state.state !== g.state.state
    )
      this.#net.phaseOpened(this.deadline());
  }

  /** The last press row passed on to the clients (FRM). */
  #pressSeen = 0;

  /**
   * The game's new press, passed on as FRM to the recipients whose DAIDE client is connected:
   * white press from a power (a DAIDE client's, or a web or mail player's) whose first line
   * is a level 10 press message (`PRP (PCE (ENG FRA))`; the lines after it are not sent).
   * Other press (grey, the GM's, prose) is the web's and mail's only: DAIDE cannot say who
   * sent it, or what it says.
   */
  async #passPress(): Promise<void> {
    if (this.pressLevel() === 0 || this.#net.conns.size === 0) {
      // Nobody to tell (or no press): skip to the last row, once in a while.
      this.#pressSeen = Math.max(this.#pressSeen, await this.#judge.daide.lastPressId(this.gameId));
      return;
    }
    const rows = await this.#judge.daide.pressAfter(this.gameId, this.#pressSeen);
    const g = this.#g;
    const powers = new Set(this.map.sides.map((s) => s.token));
    for (const r of rows) {
      this.#pressSeen = Math.max(this.#pressSeen, r.id);
      if (r.kind !== "white" || r.from === null) continue;
      let items: Item[];
      try {
        // The first line: a DAIDE client's press is its DAIDE text, then its English.
        const t = tree(fromText(r.body.split("\n")[0]!, this.map.names));
        if (!t.ok) continue;
        items = t.items as Item[];
      } catch {
        continue;
      }
      if (pressFault(items, (x) => powers.has(x)) !== null) continue;
      const from = this.map.sideOf(r.from as PowerId, g.seats);
      const to =
        r.to === "all"
          ? this.map.sides.filter((s) => s.seat !== null && s !== from)
          : [...new Set(r.to.map((p) => this.map.sideOf(p as PowerId, g.seats)))];
      const tokens = to.map((s) => s.token);
      for (const side of to) {
        const c = this.#net.playerOf(this.map.sides.indexOf(side));
        if (c) this.#net.send(c, ["FRM", [from.token], tokens, items]);
      }
    }
  }

  /** The ORD messages of phase `i` of the record: the phase played again from its orders. */
  #ordsOf(i: number): Item[][] {
    const known = this.#ords.get(i);
    if (known) return known;
    const g = this.#g;
    const record: GameRecord = { ...g.record, phases: g.record.phases.slice(0, i) };
    const state = recordState(g.scenario, record);
    const phase = g.record.phases[i]!;
    const orders = new Map(Object.entries(phase.orders) as [PowerId, string[]][]);
    const st = step(g.scenario, g.record.rules, g.record.seed, state, orders);
    // The clients' own words for their orders of that phase, where known.
    const byText = new Map<string, Item>();
    for (const s of this.#sides.values())
      if (s.phaseIdx === i)
        for (const o of s.orders.values()) byText.set(`${o.power}\n${o.text}`, o.item);
    const ords = ordMessages(this.map, state.seats, state.position, st.result, byText);
    this.#ords.set(i, ords);
    return ords;
  }

  async #end() {
    this.#ended = true;
    const g = this.#g;
    const result = (g.game.result ? JSON.parse(g.game.result) : {}) as {
      kind?: string;
      winner?: string;
    };
    if ((result.kind === "solo" || result.kind === "concession") && result.winner)
      this.#net.broadcast(["SLO", [this.map.sideOf(result.winner as PowerId, g.seats).token]]);
    else if (result.kind === "draw") this.#net.broadcast(["DRW"]);
    const bots = new Map(
      (await botSeatsOf(this.#judge.store.db, this.gameId)).map((b) => [b.seat, b.bot]),
    );
    const pos = g.position;
    const smr: Item[] = [T("SMR"), turnItem(pos.phase)];
    const out = eliminations(this.map, g);
    for (const [i, s] of this.map.sides.entries()) {
      const powers = powersOf(this.map, g.scenario.variant, g.seats, s);
      const centres = [...pos.centers.values()].filter((p) => powers.includes(p)).length;
      const who = this.#who(i, bots);
      const entry: Item[] = [s.token, textItem(who.name), textItem(who.version), intToken(centres)];
      const year = out.get(i);
      if (year !== undefined) entry.push(intToken(year));
      smr.push(entry);
    }
    this.#net.broadcast(smr);
    this.#net.broadcast(["OFF"]);
    this.#log(`the game is over: ${JSON.stringify(result)}`);
    void this.#net.close();
  }

  /** Who plays a side, for SMR: its DAIDE client, player, built-in player, or nobody. */
  #who(side: number, bots: ReadonlyMap<number, string>): { name: string; version: string } {
    const seat = this.map.sides[side]!.seat;
    if (seat === null) return { name: "nobody", version: "" };
    const d = this.#daideRows.get(seat);
    if (d?.client) return { name: d.client, version: d.version ?? "" };
    const bot = bots.get(seat);
    if (bot) return { name: bot, version: "built-in" };
    return {
      name: this.#g.members.some((m) => m.seat === seat) ? "player" : "absent",
      version: "",
    };
  }

  /** The seats kept for DAIDE clients, as last read (claim and IAM read them again). */
  #daideRows = new Map<
    number,
    { client: string | null; version: string | null; passcode: number }
  >();

  async #readSeats() {
    const d = await this.#judge.daideSeats.of(this.#judge.store.db, this.gameId);
    this.#daideRows = new Map((d?.seats ?? []).map((r) => [r.seat, r]));
  }

  // --- what the connections ask (session.ts) -------------------------------------------------

  started(): boolean {
    return this.#g.game.status !== "forming";
  }

  over(): boolean {
    return this.#g.game.status === "finished" || this.#ended;
  }

  left(conn: Conn) {
    if (conn.role !== "player" || conn.side === null) return;
    const s = this.map.sides[conn.side]!;
    if (!this.started()) {
      // Before the start the seat waits for a client again: nobody was given its passcode.
      this.#log(`${s.name}: client left before the start; the seat is free`);
      void this.#judge.daide
        .unclaim(this.gameId, s.seat!)
        .then(() => this.#readSeats())
        .catch((e: unknown) => this.#log(`freeing ${s.name}: ${(e as Error).message}`));
      return;
    }
    if (this.over()) return this.#log(`${s.name}: left after the end`);
    this.#log(`${s.name}: connection lost; the seat waits for IAM`);
    this.#net.broadcast(["CCD", [s.token]]);
  }

  async nme(conn: Conn, name: string, version: string): Promise<boolean> {
    if (this.over()) return false;
    const got = await this.#judge.daide.claim(this.gameId, name, version);
    if (!got) return false;
    await this.#readSeats();
    conn.role = "player";
    conn.side = this.map.sides.findIndex((s) => s.seat === got.seat);
    this.#log(`${this.map.sides[conn.side]!.name}: ${name} ${version} (connection ${conn.id})`);
    // The claim may have started the game (startWhenFull): read it again.
    await this.refresh();
    return true;
  }

  async iam(conn: Conn, power: Token, passcode: number): Promise<boolean> {
    if (this.over()) return false;
    const side = this.map.sides.findIndex((s) => s.token === power);
    const seat = this.map.sides[side]?.seat ?? null;
    if (seat === null || this.#net.playerOf(side)) return false;
    if (!(await this.#judge.daide.rejoin(this.gameId, seat, passcode))) return false;
    await this.#readSeats();
    this.#log(`${this.map.sides[side]!.name}: back (connection ${conn.id})`);
    this.#net.broadcast(["NOT", ["CCD", [power]]]);
    conn.role = "player";
    conn.side = side;
    return true;
  }

  mapAccepted(_conn: Conn) {
    // The judge starts the game (the GM, or the last seat taken): refresh tells the clients.
  }

  async hlo(conn: Conn): Promise<Item[] | null> {
    if (conn.side === null) return null;
    const side = this.map.sides[conn.side]!;
    if (side.seat === null) return null;
    if (!this.#daideRows.has(side.seat)) await this.#readSeats();
    const row = this.#daideRows.get(side.seat);
    if (!row) return null;
    // The phases' lengths in seconds, when DAIDE can say them (at most 8191 seconds).
    const o = this.#g.options;
    const s = (t: "M" | "R" | "A") => phaseLengthMs(o, t) / 1000;
    const times = { movement: s("M"), retreats: s("R"), builds: s("A") };
    const fits = Object.values(times).every((x) => x > 0 && x <= 8191);
    return hloMessage(side, row.passcode, fits ? times : null, this.pressLevel());
  }

  now(): Item[] {
    const g = this.#g;
    return nowMessage(this.map, g.position, g.seats, this.#tables);
  }

  sco(): Item[] {
    const g = this.#g;
    return scoMessage(this.map, g.scenario.variant, g.position, g.seats);
  }

  lastOrd(): Item[][] {
    const n = this.#g.record.phases.length;
    return n === 0 ? [] : this.#ordsOf(n - 1);
  }

  history(turn: Item): Item[][] | null {
    const want = itemsText([turn], this.map.names);
    const g = this.#g;
    for (let i = 0; i < g.record.phases.length; i++) {
      const p = g.record.phases[i]!;
      const before = i === 0 ? g.record.start : g.record.phases[i - 1]!.position;
      const pos = readPosition(before as unknown as Record<string, unknown>, g.scenario.variant);
      if (itemsText([turnItem(pos.phase)], this.map.names) !== want) continue;
      const after = readPosition(
        p.position as unknown as Record<string, unknown>,
        g.scenario.variant,
      );
      return [
        ...this.#ordsOf(i),
        scoMessage(this.map, g.scenario.variant, after, g.seats),
        nowMessage(this.map, after, g.seats, null),
      ];
    }
    return null;
  }

  #turn(): Turn | null {
    const g = this.#g;
    if (!this.#tables || g.state.state !== "open") return null;
    return {
      map: this.map,
      variant: g.scenario.variant,
      rules: g.record.rules,
      position: g.position,
      seats: g.seats,
      tables: this.#tables,
    };
  }

  /**
   * The side's orders of the open phase: kept here while the phase is open, read back from
   * the judge's stored set when this server has none for it (the first message of the
   * phase, or after a restart: the stored set stands, and MIS says what it lacks).
   */
  async #side(conn: Conn): Promise<SideState | null> {
    if (conn.side === null) return null;
    const idx = this.#g.state.phase_idx;
    const known = this.#sides.get(conn.side);
    if (known && known.phaseIdx === idx) return known;
    const s: SideState = { phaseIdx: idx, orders: new Map(), go: "default" };
    const t = this.#turn();
    const side = this.map.sides[conn.side]!;
    if (t && side.seat !== null) {
      const powers = powersOf(this.map, t.variant, t.seats, side);
      const stored = await this.#judge.daide.storedSets(
        this.gameId,
        idx,
        this.#g.state.phase,
        powers,
      );
      if (stored.final !== null) {
        s.orders = restore(t, side, stored.texts);
        // The go flag as the stored set says: final with orders missing was a GOF; complete
        // but not final was a NOT (GOF).
        const done = complete(t, side, s.orders);
        s.go = stored.final ? (done ? "default" : "go") : done ? "not" : "default";
      }
    }
    const again = this.#sides.get(conn.side);
    if (again && again.phaseIdx === idx) return again;
    this.#sides.set(conn.side, s);
    return s;
  }

  /** Stores the side's whole set through the judge; false if the phase is no longer open. */
  async #store(conn: Conn, s: SideState, t: Turn): Promise<boolean> {
    const side = this.map.sides[conn.side!]!;
    if (side.seat === null || !mustOrder(t, side)) return true;
    const sets = new Map<PowerId, string[]>();
    for (const p of powersOf(this.map, t.variant, t.seats, side)) sets.set(p, []);
    for (const o of s.orders.values()) sets.get(o.power)?.push(o.text);
    const final = s.go === "go" || (s.go === "default" && complete(t, side, s.orders));
    const r = await this.#judge.daide.submit(this.gameId, side.seat, s.phaseIdx, sets, final);
    return r;
  }

  async sub(conn: Conn, turn: Item | null, orders: readonly Item[]): Promise<SubAnswer> {
    await this.refresh();
    const t = this.#turn();
    const s = await this.#side(conn);
    if (!t || !s || this.over() || !openTurn(t, turn)) return { rej: true };
    const side = this.map.sides[conn.side!]!;
    const r = submit(t, side, s.orders, orders);
    if (!(await this.#store(conn, s, t))) return { rej: true };
    return { ...r, mis: misMessage(t, side, s.orders) };
  }

  async withdraw(conn: Conn, named: readonly Item[]): Promise<boolean> {
    const t = this.#turn();
    const s = await this.#side(conn);
    if (!t || !s) return false;
    if (!withdraw(this.map, s.orders, named)) return false;
    return this.#store(conn, s, t);
  }

  async mis(conn: Conn): Promise<Item[] | null> {
    const t = this.#turn();
    const s = await this.#side(conn);
    if (!t || !s) return null;
    return misMessage(t, this.map.sides[conn.side!]!, s.orders);
  }

  async go(conn: Conn, on: boolean): Promise<boolean> {
    const t = this.#turn();
    const s = await this.#side(conn);
    if (!t || !s) return false;
    s.go = on ? "go" : "not";
    return this.#store(conn, s, t);
  }

  async draw(conn: Conn, on: boolean): Promise<boolean> {
    const seat = conn.side === null ? null : this.map.sides[conn.side]!.seat;
    if (seat === null || this.over()) return false;
    return this.#judge.daide.draw(this.gameId, seat, on);
  }

  deadline(): number | null {
    const st = this.#g.state;
    return st.state === "open" ? st.deadline_at : null;
  }

  /**
   * Level 10 when the game takes white press (a DAIDE message names its sender) and its
   * option press.daide is not false; else 0.
   */
  pressLevel(): PressLevel {
    const p = this.#g.options.press;
    return p.white && p.daide !== false ? 10 : 0;
  }

  /**
   * SND: the press goes through the judge's press path as the seat's white press (its
   * options, phases and review); the recipients' clients are told FRM by #passPress, web and
   * mail players read its DAIDE text. Not sent: a power out of the game (OUT), a seat kept
   * for a DAIDE client whose client is not connected (CCD); the judge's refusal is REJ.
   */
  async press(conn: Conn, to: readonly Token[], message: readonly Item[]): Promise<PressAnswer> {
    const from = conn.side === null ? null : this.map.sides[conn.side]!;
    if (!from || from.seat === null) return { kind: "rej" };
    await this.refresh();
    const g = this.#g;
    if (g.game.status !== "active") return { kind: "rej" };
    await this.#readSeats();
    const recipients: string[] = [];
    for (const t of to) {
      const i = this.map.sides.findIndex((s) => s.token === t);
      const side = this.map.sides[i]!;
      const powers = powersOf(this.map, g.scenario.variant, g.seats, side);
      const alive = powers.some(
        (p) =>
          [...g.position.centers.values()].includes(p) ||
          g.position.units.some((u) => u.power === p),
      );
      if (!alive) return { kind: "out", power: t };
      if (side.seat !== null && this.#daideRows.has(side.seat) && !this.#net.playerOf(i))
        return { kind: "ccd", power: t };
      recipients.push(...powers);
    }
    try {
      // Its DAIDE text first (a reply copies it), then what it says in English.
      const named = (x: Token) => {
        const side = this.map.sides.find((y) => y.token === x);
        return (side?.seat != null ? g.seats[side.seat]?.name : undefined) ?? side?.name ?? "?";
      };
      const gloss = pressGloss(message, named);
      const text = itemsText(message, this.map.names);
      await this.#judge.daide.press(
        this.gameId,
        from.seat,
        recipients,
        gloss ? `${text}\n\n${gloss}` : text,
      );
    } catch (e) {
      if (!(e instanceof Error && "kind" in e)) throw e;
      this.#log(`${from.name}: press refused: ${e.message}`);
      return { kind: "rej" };
    }
    await this.refresh();
    return { kind: "sent" };
  }

  /** The phase open now, for the log. */
  get phase(): string {
    return phaseName(this.#g.position.phase);
  }
}
