import type { IncomingMessage } from "node:http";
import { nameKey } from "../judge/names.ts";
import { SlidingWindow, type Window } from "../judge/rate.ts";

export { SlidingWindow, type Window };

/*
 * What the server lets in, and how it says no: login and registration rate limits (wrong
 * passwords per account and address, per account from new addresses, logins and
 * registrations per client address; 429 with Retry-After), the bound on request bodies (413),
 * where a malformed JSON body goes wrong (400), and the security headers every response
 * carries (a content security policy, nosniff, no framing, no referrer). server.ts calls
 * `Limits.around` for every route and sets `SECURITY_HEADERS` on every response.
 */

export interface LimitsConfig {
  /**
   * Wrong passwords for one account from one client address: past this, that address waits
   * (for that account only).
   */
  readonly loginFailuresPerAccountAddress: Window;
  /**
   * Wrong passwords for one account from all addresses together: past this, logins to the
   * account wait, except from an address it was logged in from before (`knownAddressMs`), so
   * that guessing from many addresses stays slow and the owner is never locked out by it.
   */
  readonly loginFailuresPerAccount: Window;
  /** How long an address an account logged in from counts as the owner's (ms). */
  readonly knownAddressMs: number;
  /** Login attempts per client address (right or wrong). */
  readonly loginPerAddress: Window;
  /** Accounts created per client address. */
  readonly registrationsPerAddress: Window;
  /** Request bodies larger than this (bytes) are refused with 413. */
  readonly maxBodyBytes: number;
  /**
   * Behind a reverse proxy every request comes from the proxy. With this set, a request
   * whose peer is a trusted proxy is counted by the address the proxy names: the rightmost
   * X-Forwarded-For entry that is not itself a trusted proxy (the entries left of it are
   * whatever the client wrote). `true` trusts proxies on this machine (loopback addresses);
   * a list names the proxies' addresses. A request from any other peer is counted by its
   * own address, whatever its headers say, so going around the proxy does not help.
   */
  readonly trustProxy: boolean | readonly string[];
}

const MINUTE = 60_000;

export const DEFAULT_LIMITS: LimitsConfig = {
  loginFailuresPerAccountAddress: { max: 10, windowMs: 15 * MINUTE },
  loginFailuresPerAccount: { max: 50, windowMs: 15 * MINUTE },
  knownAddressMs: 30 * 24 * 60 * MINUTE,
  loginPerAddress: { max: 60, windowMs: 10 * MINUTE },
  registrationsPerAddress: { max: 50, windowMs: 60 * MINUTE },
  maxBodyBytes: 1024 * 1024,
  trustProxy: false,
};

/** A request refused by a rate limit: 429, with the seconds to wait (Retry-After). */
export class RateLimited extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

const LOOPBACK = ["127.0.0.1", "::1"];

/** `::ffff:192.0.2.1` (IPv4 mapped in IPv6) is `192.0.2.1`. */
const plain = (a: string) =>
  a
    .trim()
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1")
    .toLowerCase();

/**
 * The client's address: the socket's peer, or, when the peer is a trusted proxy, the
 * rightmost X-Forwarded-For address that is not a trusted proxy.
 */
export function clientAddress(
  req: IncomingMessage,
  trustProxy: boolean | readonly string[],
): string {
  const peer = plain(req.socket.remoteAddress ?? "unknown");
  if (trustProxy === false) return peer;
  const trusted = new Set((trustProxy === true ? LOOPBACK : trustProxy).map(plain));
  if (!trusted.has(peer)) return peer;
  const fwd = req.headers["x-forwarded-for"];
  const chain = (Array.isArray(fwd) ? fwd.join(",") : (fwd ?? ""))
    .split(",")
    .map(plain)
    .filter((a) => a !== "");
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!trusted.has(chain[i]!)) return chain[i]!;
  }
  return chain[0] ?? peer;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

const minutes = (ms: number) => {
  const m = Math.round(ms / MINUTE);
  return m >= 60 && m % 60 === 0 ? `${m / 60} hour${m === 60 ? "" : "s"}` : `${m} minutes`;
};

/** The rate limits of one server: which routes they guard, and the counters. */
export class Limits {
  readonly config: LimitsConfig;
  private readonly loginFailures: SlidingWindow;
  private readonly loginFailuresHere: SlidingWindow;
  private readonly loginAddress: SlidingWindow;
  private readonly registerAddress: SlidingWindow;
  /** `account\naddress` → when the account last logged in from there (oldest first). */
  private readonly known = new Map<string, number>();

  constructor(
    config: Partial<LimitsConfig> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.config = { ...DEFAULT_LIMITS, ...config };
    this.loginFailures = new SlidingWindow(this.config.loginFailuresPerAccount);
    this.loginFailuresHere = new SlidingWindow(this.config.loginFailuresPerAccountAddress);
    this.loginAddress = new SlidingWindow(this.config.loginPerAddress);
    this.registerAddress = new SlidingWindow(this.config.registrationsPerAddress);
  }

  /**
   * Runs a route's handler under the limits that apply to it (`"POST /api/login"`): refuses
   * with RateLimited before running it when a limit is reached, and counts the attempt.
   */
  async around<T>(
    route: string,
    req: IncomingMessage,
    body: unknown,
    run: () => Promise<T>,
  ): Promise<T> {
    const address = clientAddress(req, this.config.trustProxy);
    const now = this.now();
    if (route === "POST /api/users") {
      this.refuseIf(
        this.registerAddress,
        address,
        now,
        `too many accounts created from your address (at most ${this.config.registrationsPerAddress.max} in ${minutes(this.config.registrationsPerAddress.windowMs)})`,
      );
      this.registerAddress.add(address, now);
      return run();
    }
    if (route === "POST /api/login") {
      const raw = (body as { name?: unknown } | undefined)?.name;
      const account = typeof raw === "string" ? nameKey(raw) : "";
      this.refuseIf(
        this.loginAddress,
        address,
        now,
        `too many logins from your address (at most ${this.config.loginPerAddress.max} in ${minutes(this.config.loginPerAddress.windowMs)})`,
      );
      const here = `${account}\n${address}`;
      this.refuseIf(
        this.loginFailuresHere,
        here,
        now,
        `too many wrong passwords for this account from your address (at most ${this.config.loginFailuresPerAccountAddress.max} in ${minutes(this.config.loginFailuresPerAccountAddress.windowMs)}); logins to it from your address are paused`,
      );
      // Guessing from many addresses is held back account-wide, but never on an address the
      // account was logged in from: the owner is not locked out by someone else's guesses.
      const knownAt = this.known.get(here);
      const isKnown = knownAt !== undefined && now - knownAt < this.config.knownAddressMs;
      if (!isKnown) {
        this.refuseIf(
          this.loginFailures,
          account,
          now,
          `too many wrong passwords for this account (at most ${this.config.loginFailuresPerAccount.max} in ${minutes(this.config.loginFailuresPerAccount.windowMs)} from addresses it has not logged in from); logins to it from new addresses are paused`,
        );
      }
      this.loginAddress.add(address, now);
      try {
        const out = await run();
        this.loginFailuresHere.clear(here);
        this.known.delete(here);
        this.known.set(here, this.now());
        while (this.known.size > 100_000) {
          this.known.delete(this.known.keys().next().value as string);
        }
        return out;
      } catch (e) {
        // A wrong name or password counts against the account; a malformed body does not.
        if ((e as { kind?: string }).kind === "unauthenticated") {
          const at = this.now();
          this.loginFailuresHere.add(here, at);
          this.loginFailures.add(account, at);
        }
        throw e;
      }
    }
    return run();
  }

  private refuseIf(w: SlidingWindow, key: string, now: number, why: string): void {
    const wait = w.wait(key, now);
    if (wait > 0) {
      const s = seconds(wait);
      throw new RateLimited(`${why}: try again in ${s} second${s === 1 ? "" : "s"}`, s);
    }
  }
}

/** Headers on every response: what a page may load, no MIME sniffing, no framing. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

/**
 * How deep a request body may nest (objects and lists inside one another). Rule options,
 * variant data and positions nest a few levels; the bound is checked on every body right
 * after parsing, before a schema, the judge or the engine recurses into it, so that valid
 * JSON nested thousands of levels deep is a 400 instead of a stack overflow.
 */
export const MAX_DEPTH = 64;

/**
 * The path of the first value nested deeper than `max` levels (counting the body as level
 * 0), or null. Iterative: it cannot overflow the stack itself.
 */
export function tooDeep(value: unknown, max = MAX_DEPTH): string | null {
  const stack: [unknown, number, string][] = [[value, 0, "body"]];
  while (stack.length > 0) {
    const [v, depth, path] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= max) return path;
    // The path names the first levels, then stops: a path thousands of levels long says no more.
    const at = (key: string) => (depth < 4 ? `${path}${key}` : path);
    const entries = Array.isArray(v)
      ? v.map((x, i) => [`[${i}]`, x] as const)
      : Object.entries(v).map(([k, x]) => [`.${k}`, x] as const);
    for (const [key, x] of entries) stack.push([x, depth + 1, at(key)]);
  }
  return null;
}

/** The message for a body that nests too deep: where, and the bound. */
export const tooDeepMessage = (path: string) =>
  `${path}: nested more than ${MAX_DEPTH} levels deep (lists and objects inside one another); no request needs that many`;

/**
 * Where a text stops being JSON, for the 400 answer: "line 3, column 7: expected ',' or '}'
 * after a property, found '\"'". JSON.parse has failed on `text` already; this scanner only
 * finds the place and says what was expected there.
 */
export function jsonErrorAt(text: string): string {
  let i = 0;
  const fail = (expected: string): never => {
    const before = text.slice(0, i);
    const line = before.split("\n").length;
    const column = i - before.lastIndexOf("\n");
    const found = i >= text.length ? "the end of the body" : JSON.stringify(text[i]);
    throw new Error(`line ${line}, column ${column}: expected ${expected}, found ${found}`);
  };
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const c of word) {
      if (text[i] !== c) fail(`"${word}"`);
      i++;
    }
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail('a closing "');
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c < " ") fail("no control character inside a string (write \\n, \\t)");
      if (c === "\\") {
        i++;
        const e = text[i];
        if (e === "u") {
          for (let k = 1; k <= 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i + k] ?? "")) {
              i += k;
              fail("four hex digits after \\u");
            }
          }
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail('an escape (\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u)');
      } else i++;
    }
  };
  const number = () => {
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else if (/[1-9]/.test(text[i] ?? "")) while (/[0-9]/.test(text[i] ?? "")) i++;
    else fail("a digit");
    if (text[i] === ".") {
      i++;
      if (!/[0-9]/.test(text[i] ?? "")) fail("a digit after the decimal point");
      while (/[0-9]/.test(text[i] ?? "")) i++;
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      if (!/[0-9]/.test(text[i] ?? "")) fail("a digit in the exponent");
      while (/[0-9]/.test(text[i] ?? "")) i++;
    }
  };
  const value = (depth: number): void => {
    if (depth > MAX_DEPTH) fail(`less nesting (at most ${MAX_DEPTH} levels)`);
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('a property name in double quotes ("name")');
        string();
        ws();
        if (text[i] !== ":") fail("':' after the property name");
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        fail("',' or '}' after a property");
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        fail("',' or ']' after an element");
      }
    }
    if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else if (c === "-" || /[0-9]/.test(c ?? "")) number();
    else
      fail("a value (an object, a list, a string in double quotes, a number, true, false or null)");
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail("nothing more after the value");
    return "it cannot be read as JSON";
  } catch (e) {
    return (e as Error).message;
  }
}
