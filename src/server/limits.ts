import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { nameKey } from "../judge/names.ts";
import { SlidingWindow, type Window } from "../judge/rate.ts";

export { SlidingWindow, type Window };

/*
 * What the server lets in, and how it says no: login and registration rate limits (wrong
 * passwords per account and address, per account from new addresses, logins and
 * registrations per client address; 429 with Retry-After), the bound on request bodies (413;
 * their nesting and where bad JSON breaks: json-body.ts), and the security headers every
 * response carries (a content security policy, nosniff, no framing, no referrer). server.ts calls
 * `Limits.around` for every route and sets `SECURITY_HEADERS` on every response.
 */

export interface LimitsConfig {
  /**
   * Wrong passwords for one account from one client (its login device token when it shows
   * one, else its address): past this, that client waits (for that account only).
   */
  readonly loginFailuresPerAccountAddress: Window;
  /**
   * Wrong passwords for one account from all untrusted clients together: past this, logins
   * to the account wait, except from a client it trusts (a login device token it gave, an
   * address it was logged in from within `knownAddressMs`, or the one-time code mailed to
   * the owner), so that guessing from many addresses stays slow and the owner is never
   * locked out by it.
   */
  readonly loginFailuresPerAccount: Window;
  /** How long an address an account logged in from counts as the owner's (ms). */
  readonly knownAddressMs: number;
  /** Login attempts per client address (right or wrong). */
  readonly loginPerAddress: Window;
  /** Accounts created per client address. */
  readonly registrationsPerAddress: Window;
  /** Games one user may create. */
  readonly gamesPerUser: Window;
  /** Press messages one user may send, in all games together. */
  readonly pressPerUser: Window;
  /** Sandbox requests (adjudicate, legal orders) from one client address. */
  readonly sandboxPerAddress: Window;
  /** API tokens one user may make (POST /api/tokens), and all users of one address. */
  readonly tokensPerUser: Window;
  readonly tokensPerAddress: Window;
  /** Invitations one user (a GM) may make, and all users of one address. */
  readonly invitesPerUser: Window;
  readonly invitesPerAddress: Window;
  /** Votes cast or changed by one user, in all games together, and by one address. */
  readonly voteChangesPerUser: Window;
  readonly voteChangesPerAddress: Window;
  /** Mail-address (and secret) changes by one user, and by one address. */
  readonly mailChangesPerUser: Window;
  readonly mailChangesPerAddress: Window;
  /** Event streams (server-sent events) open at once from one address, and for one user. */
  readonly eventStreamsPerAddress: number;
  readonly eventStreamsPerUser: number;
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
  loginFailuresPerAccount: { max: 30, windowMs: 60 * MINUTE },
  knownAddressMs: 30 * 24 * 60 * MINUTE,
  loginPerAddress: { max: 60, windowMs: 10 * MINUTE },
  registrationsPerAddress: { max: 50, windowMs: 60 * MINUTE },
  gamesPerUser: { max: 20, windowMs: 24 * 60 * MINUTE },
  pressPerUser: { max: 60, windowMs: 10 * MINUTE },
  sandboxPerAddress: { max: 60, windowMs: MINUTE },
  tokensPerUser: { max: 20, windowMs: 60 * MINUTE },
  tokensPerAddress: { max: 60, windowMs: 60 * MINUTE },
  invitesPerUser: { max: 100, windowMs: 60 * MINUTE },
  invitesPerAddress: { max: 200, windowMs: 60 * MINUTE },
  voteChangesPerUser: { max: 60, windowMs: 10 * MINUTE },
  voteChangesPerAddress: { max: 300, windowMs: 10 * MINUTE },
  mailChangesPerUser: { max: 10, windowMs: 60 * MINUTE },
  mailChangesPerAddress: { max: 30, windowMs: 60 * MINUTE },
  eventStreamsPerAddress: 50,
  eventStreamsPerUser: 20,
  maxBodyBytes: 1024 * 1024,
  trustProxy: false,
};

/** What a route's quota counts, per user and per address (either may be absent). */
interface Quota {
  readonly what: string;
  readonly user: { readonly w: SlidingWindow; readonly bound: Window } | null;
  readonly address: { readonly w: SlidingWindow; readonly bound: Window } | null;
}

/** Seconds a client refused another event stream is told to wait (one may close by then). */
const STREAM_RETRY_S = 30;

/** An account whose wrong passwords reached the account-wide bound: what its owner is told. */
export interface Attack {
  /** The account's name key (nameKey). */
  readonly account: string;
  /** The bound reached: this many wrong passwords in `windowMs`. */
  readonly failures: number;
  readonly windowMs: number;
  /** Until when new devices and addresses wait (ms since the epoch). */
  readonly until: number;
  /** The one-time code that lets the owner in from a new device meanwhile. */
  readonly code: string;
}

/**
 * A login device token: a random id and its HMAC under the judge's key for the account,
 * given with every successful login and registration (`device` in the answer) and shown
 * back by the client at its next login (`device` in the body). Nothing is stored: the
 * signature is the proof that this client logged in to this account before.
 */
export function newDevice(key: Buffer, account: string): string {
  const id = randomBytes(12).toString("base64url");
  return `${id}.${deviceMac(key, account, id)}`;
}

const deviceMac = (key: Buffer, account: string, id: string) =>
  createHmac("sha256", key).update(`device\0${account}\0${id}`).digest("base64url").slice(0, 32);

export function checkDevice(key: Buffer, account: string, device: string): boolean {
  const [id, mac, more] = device.split(".");
  if (!id || !mac || more !== undefined || id.length > 64) return false;
  return sameText(mac, deviceMac(key, account, id));
}

/** The one-time code of an attack on an account (10 letters and digits that cannot be confused). */
export function unlockCode(key: Buffer, account: string, start: number): string {
  const mac = createHmac("sha256", key).update(`unlock\0${account}\0${start}`).digest();
  const alphabet = "abcdefghijkmnpqrstuvwxyz23456789";
  let out = "";
  for (let i = 0; i < 10; i++) out += alphabet[mac[i]! % alphabet.length];
  return out;
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** The mail to the owner of an account under attack. */
export function attackMail(a: Attack): { subject: string; text: string } {
  return {
    subject: "Someone is guessing your Entente password",
    text: [
      `Someone sent ${a.failures} wrong passwords for your account in the last ${minutes(a.windowMs)}, from devices and addresses you have not logged in from.`,
      "",
      `Until ${utc(a.until)} (longer if the guessing goes on) logins to your account from new devices and addresses are paused; your own devices and the addresses you logged in from are not affected.`,
      "",
      `To log in from a new device meanwhile, give this one-time code with your name and password (the web page asks for it): ${a.code}`,
      "",
      "If that was not you, nothing more is needed: your password was not found. If your password is one you use elsewhere, change it there. This mail is sent once for each such attack.",
    ].join("\n"),
  };
}

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
  return m >= 60 && m % 60 === 0
    ? `${m / 60} hour${m === 60 ? "" : "s"}`
    : `${m} minute${m === 1 ? "" : "s"}`;
};

/** The rate limits of one server: which routes they guard, and the counters. */
export class Limits {
  readonly config: LimitsConfig;
  private readonly loginFailures: SlidingWindow;
  private readonly loginFailuresHere: SlidingWindow;
  private readonly loginAddress: SlidingWindow;
  private readonly registerAddress: SlidingWindow;
  /** The quotas: route → what it counts, by user and by address. */
  private readonly quotas: ReadonlyMap<string, Quota>;
  /** Event streams open now, by `address` and by `user:id`. */
  private readonly streams = new Map<string, number>();
  /** `account\naddress` → when the account last logged in from there (oldest first). */
  private readonly known = new Map<string, number>();
  /** Accounts under attack: since when, the last wrong password, from where. */
  private readonly episodes = new Map<
    string,
    { start: number; last: number; addresses: Set<string> }
  >();
  private readonly key: () => Promise<Buffer>;
  private readonly onAttack: (attack: Attack) => Promise<void>;

  constructor(
    config: Partial<LimitsConfig> = {},
    private readonly now: () => number = Date.now,
    hooks: {
      /** The key login device tokens and one-time codes are signed with. */
      key?: () => Promise<Buffer>;
      /** Told once when an account's wrong passwords reach the account-wide bound. */
      onAttack?: (attack: Attack) => Promise<void>;
    } = {},
  ) {
    const own = randomBytes(32);
    this.key = hooks.key ?? (async () => own);
    this.onAttack = hooks.onAttack ?? (async () => {});
    this.config = { ...DEFAULT_LIMITS, ...config };
    this.loginFailures = new SlidingWindow(this.config.loginFailuresPerAccount);
    this.loginFailuresHere = new SlidingWindow(this.config.loginFailuresPerAccountAddress);
    this.loginAddress = new SlidingWindow(this.config.loginPerAddress);
    this.registerAddress = new SlidingWindow(this.config.registrationsPerAddress);
    const c = this.config;
    const sandbox = new SlidingWindow(c.sandboxPerAddress);
    const q = (what: string, user: Window | null, address: Window | null): Quota => ({
      what,
      user: user ? { w: new SlidingWindow(user), bound: user } : null,
      address: address ? { w: new SlidingWindow(address), bound: address } : null,
    });
    const sandboxQuota: Quota = {
      what: "sandbox requests",
      user: null,
      address: { w: sandbox, bound: c.sandboxPerAddress },
    };
    this.quotas = new Map([
      ["POST /api/games", q("games created", c.gamesPerUser, null)],
      ["POST /api/games/{id}/press", q("press messages sent", c.pressPerUser, null)],
      ["POST /api/sandbox/adjudicate", sandboxQuota],
      ["POST /api/sandbox/legal", sandboxQuota],
      ["POST /api/tokens", q("tokens made", c.tokensPerUser, c.tokensPerAddress)],
      [
        "POST /api/games/{id}/invites",
        q("invitations made", c.invitesPerUser, c.invitesPerAddress),
      ],
      [
        "POST /api/games/{id}/votes/{pid}",
        q("votes cast or changed", c.voteChangesPerUser, c.voteChangesPerAddress),
      ],
      [
        "POST /api/me/mail",
        q("mail-address changes", c.mailChangesPerUser, c.mailChangesPerAddress),
      ],
    ]);
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
    user: { readonly id: string } | null = null,
  ): Promise<T> {
    const address = clientAddress(req, this.config.trustProxy);
    const now = this.now();
    const quota = this.quotas.get(route);
    if (quota) {
      // Counted when accepted: a refused request (bad input, not allowed) costs nothing.
      const userKey = `user:${user?.id ?? address}`;
      if (quota.user)
        this.refuseIf(
          quota.user.w,
          userKey,
          now,
          `too many ${quota.what} by you (at most ${quota.user.bound.max} in ${minutes(quota.user.bound.windowMs)})`,
        );
      if (quota.address)
        this.refuseIf(
          quota.address.w,
          address,
          now,
          `too many ${quota.what} from your address (at most ${quota.address.bound.max} in ${minutes(quota.address.bound.windowMs)})`,
        );
      const out = await run();
      const at = this.now();
      quota.user?.w.add(userKey, at);
      quota.address?.w.add(address, at);
      return out;
    }
    if (
      route === "GET /api/games/{id}/events" &&
      (req.headers.accept ?? "").includes("text/event-stream")
    ) {
      return this.stream(req, address, user, run);
    }
    if (route === "POST /api/login" || route === "POST /api/users") {
      return this.login(route, address, body, now, run);
    }
    return run();
  }

  /**
   * An event stream, while it is open, counts against its address and its user (at most
   * `eventStreamsPerAddress` and `eventStreamsPerUser` at once); it is let go when the
   * connection closes.
   */
  private async stream<T>(
    req: IncomingMessage,
    address: string,
    user: { readonly id: string } | null,
    run: () => Promise<T>,
  ): Promise<T> {
    const c = this.config;
    const keys = [address, ...(user ? [`user:${user.id}`] : [])];
    if ((this.streams.get(address) ?? 0) >= c.eventStreamsPerAddress) {
      throw new RateLimited(
        `too many event streams open from your address (at most ${c.eventStreamsPerAddress} at once): close one (a browser tab), then try again in ${STREAM_RETRY_S} seconds`,
        STREAM_RETRY_S,
      );
    }
    if (user && (this.streams.get(keys[1]!) ?? 0) >= c.eventStreamsPerUser) {
      throw new RateLimited(
        `too many event streams open for you (at most ${c.eventStreamsPerUser} at once): close one (a browser tab), then try again in ${STREAM_RETRY_S} seconds`,
        STREAM_RETRY_S,
      );
    }
    for (const k of keys) this.streams.set(k, (this.streams.get(k) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      for (const k of keys) {
        const n = (this.streams.get(k) ?? 1) - 1;
        if (n <= 0) this.streams.delete(k);
        else this.streams.set(k, n);
      }
    };
    req.socket.once("close", release);
    req.once("close", release);
    try {
      return await run();
    } catch (e) {
      release();
      throw e;
    }
  }

  /**
   * Logins and registrations (docs/judge.md, "Logins: nobody in, nobody locked out"). Every
   * attempt is bounded per address; wrong passwords are bounded per account and client (the
   * address, or the login device the client shows) and per account over all untrusted
   * clients together. A client is trusted for an account when it shows a login device token
   * the judge gave it at an earlier login to that account, the one-time code mailed to the
   * account's owner when the attack began, or comes from an address the account logged in
   * from: it never waits for other clients' guesses. A paused attempt is refused before its
   * password is looked at, so that a paused guesser learns nothing, right or wrong.
   */
  private async login<T>(
    route: string,
    address: string,
    body: unknown,
    now: number,
    run: () => Promise<T>,
  ): Promise<T> {
    const c = this.config;
    const input = (body ?? {}) as { name?: unknown; device?: unknown; code?: unknown };
    const raw = input.name;
    const account = typeof raw === "string" ? nameKey(raw) : "";
    if (route === "POST /api/users") {
      this.refuseIf(
        this.registerAddress,
        address,
        now,
        `too many accounts created from your address (at most ${c.registrationsPerAddress.max} in ${minutes(c.registrationsPerAddress.windowMs)})`,
      );
      this.registerAddress.add(address, now);
      const out = await run();
      this.remember(account, address);
      return this.withDevice(out, account, null);
    }
    this.refuseIf(
      this.loginAddress,
      address,
      now,
      `too many logins from your address (at most ${c.loginPerAddress.max} in ${minutes(c.loginPerAddress.windowMs)})`,
    );
    this.loginAddress.add(address, now);
    const key = await this.key();
    const device =
      typeof input.device === "string" && checkDevice(key, account, input.device)
        ? input.device
        : null;
    const episode = this.episodes.get(account);
    const coded =
      episode !== undefined &&
      typeof input.code === "string" &&
      sameText(input.code.trim().toLowerCase(), unlockCode(key, account, episode.start));
    const knownAt = this.known.get(`${account}\n${address}`);
    const knownHere = knownAt !== undefined && now - knownAt < c.knownAddressMs;
    const trusted = device !== null || coded || knownHere;
    // Wrong passwords are counted per client: its device when it shows one, else its address.
    const here = device !== null ? `${account}\ndevice ${device}` : `${account}\n${address}`;
    this.refuseIf(
      this.loginFailuresHere,
      here,
      now,
      `too many wrong passwords for this account from ${device !== null ? "this device" : "your address"} (at most ${c.loginFailuresPerAccountAddress.max} in ${minutes(c.loginFailuresPerAccountAddress.windowMs)}); logins to it from ${device !== null ? "this device" : "your address"} are paused`,
    );
    if (!trusted) {
      this.refuseIf(
        this.loginFailures,
        account,
        now,
        `too many wrong passwords for this account from devices and addresses it has not logged in from (at most ${c.loginFailuresPerAccount.max} in ${minutes(c.loginFailuresPerAccount.windowMs)}); until then it takes logins from its owner's known devices and addresses, or with the one-time code mailed to its owner (send it as "code" with the name and password)`,
      );
    }
    try {
      const out = await run();
      this.loginFailuresHere.clear(here);
      this.remember(account, address);
      return this.withDevice(out, account, device);
    } catch (e) {
      // A wrong name or password counts against the account; a malformed body does not.
      if ((e as { kind?: string }).kind === "unauthenticated") {
        const at = this.now();
        this.loginFailuresHere.add(here, at);
        if (!trusted) {
          this.loginFailures.add(account, at);
          this.attacked(account, address, at, key);
        }
      }
      throw e;
    }
  }

  /** After a wrong password from an untrusted client: an attack's start is told to the owner, once. */
  private attacked(account: string, address: string, at: number, key: Buffer): void {
    const w = this.config.loginFailuresPerAccount;
    let e = this.episodes.get(account);
    if (e && at - e.last > w.windowMs) {
      this.episodes.delete(account);
      e = undefined;
    }
    if (e) {
      e.last = at;
      e.addresses.add(address);
      return;
    }
    if (this.loginFailures.wait(account, at) === 0) return;
    // The account-wide bound is reached: an episode begins (it ends a window after its last
    // wrong password), and the owner is mailed once for it.
    const start = at;
    this.episodes.set(account, { start, last: at, addresses: new Set([address]) });
    while (this.episodes.size > 10_000) {
      this.episodes.delete(this.episodes.keys().next().value as string);
    }
    const code = unlockCode(key, account, start);
    void this.onAttack({
      account,
      failures: w.max,
      windowMs: w.windowMs,
      until: at + this.loginFailures.wait(account, at),
      code,
    }).catch(() => {});
  }

  private remember(account: string, address: string): void {
    const here = `${account}\n${address}`;
    this.known.delete(here);
    this.known.set(here, this.now());
    while (this.known.size > 100_000) {
      this.known.delete(this.known.keys().next().value as string);
    }
  }

  /** The answer with the client's login device token for the account (a new one, or its own). */
  private async withDevice<T>(out: T, account: string, device: string | null): Promise<T> {
    if (!out || typeof out !== "object") return out;
    const body = "status" in out && "body" in out ? (out as { body: unknown }).body : out;
    if (!body || typeof body !== "object") return out;
    const d = device ?? newDevice(await this.key(), account);
    (body as Record<string, unknown>).device = d;
    return out;
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
