/*
 * A small DAIDE client for the tests, written from the protocol: it sends the initial message,
 * then diplomacy messages written in the text form, and reads every message the server sends
 * back (as text, or an error code), with bounded waits.
 */
import { connect, type Socket } from "node:net";
import {
  diplomacyMessage,
  FrameReader,
  initialMessage,
  MESSAGE,
  representationEntries,
  tokensOf,
} from "./framing.ts";
import { fromText, type Names, toText } from "./language.ts";

export interface Received {
  readonly type: number;
  /** A DM's text form. */
  readonly text?: string;
  /** An EM's error code. */
  readonly code?: number;
  /** An RM's entries. */
  readonly entries?: { token: number; name: string }[];
}

export class TestClient {
  readonly socket: Socket;
  readonly #reader = new FrameReader();
  readonly #queue: Received[] = [];
  readonly log: Received[] = [];
  #waiter: (() => void) | null = null;
  #closed = false;
  names: Names;

  private constructor(socket: Socket, names: Names) {
    this.socket = socket;
    this.names = names;
    socket.on("data", (chunk: Buffer) => {
      for (const f of this.#reader.push(chunk)) {
        let r: Received;
        if (f.type === MESSAGE.DM)
          r = { type: f.type, text: toText(tokensOf(f.body) ?? [], this.names) };
        else if (f.type === MESSAGE.EM) r = { type: f.type, code: f.body.readUInt16BE(0) };
        else if (f.type === MESSAGE.RM)
          r = { type: f.type, entries: representationEntries(f.body) };
        else r = { type: f.type };
        this.#queue.push(r);
        this.log.push(r);
      }
      this.#wake();
    });
    socket.on("close", () => {
      this.#closed = true;
      this.#wake();
    });
    socket.on("error", () => {});
  }

  #wake() {
    const w = this.#waiter;
    this.#waiter = null;
    w?.();
  }

  static open(port: number, names: Names): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const s = connect(port, "127.0.0.1", () => {
        s.off("error", reject);
        resolve(new TestClient(s, names));
      });
      s.once("error", reject);
    });
  }

  /** Connects and sends the initial message; waits for the representation message. */
  static async join(port: number, names: Names): Promise<TestClient> {
    const c = await TestClient.open(port, names);
    c.raw(initialMessage());
    await c.next((m) => m.type === MESSAGE.RM);
    return c;
  }

  get closed(): boolean {
    return this.#closed;
  }

  raw(bytes: Buffer) {
    this.socket.write(bytes);
  }

  send(text: string) {
    this.raw(diplomacyMessage(fromText(text, this.names)));
  }

  /** The next message that matches (others before it are passed over and kept in `log`). */
  async next(match: (m: Received) => boolean, ms = 10_000): Promise<Received> {
    const until = Date.now() + ms;
    for (;;) {
      while (this.#queue.length > 0) {
        const m = this.#queue.shift()!;
        if (match(m)) return m;
      }
      if (this.#closed)
        throw new Error(`closed before a matching message came; got ${this.#tail()}`);
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no matching message within ${ms} ms; got ${this.#tail()}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  /** The next diplomacy message whose text starts with `prefix`; its text. */
  async text(prefix: string, ms?: number): Promise<string> {
    const m = await this.next((x) => x.text?.startsWith(prefix) === true, ms);
    return m.text!;
  }

  /** Joins as an observer (OBS) of a standard-map game: the server's MAP, answered YES. */
  async observe(): Promise<void> {
    this.send("OBS");
    await this.text("MAP");
    this.send("YES (MAP ('standard'))");
  }

  /** Waits for the server to close the connection. */
  async closedByServer(ms = 10_000): Promise<void> {
    const until = Date.now() + ms;
    while (!this.#closed) {
      const left = until - Date.now();
      if (left <= 0) throw new Error(`the server did not close the connection within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  #tail(): string {
    return this.log
      .slice(-5)
      .map((m) => m.text ?? (m.code !== undefined ? `EM ${m.code}` : `type ${m.type}`))
      .join(" | ");
  }

  close() {
    this.socket.destroy();
  }
}
