import assert from "node:assert/strict";
import type { TestContext } from "node:test";
import { Judge, type User } from "../judge/judge.ts";
import { configureMailGame, setMailAddress } from "../judge/mail.ts";
import type { OptionsPatch } from "../judge/options.ts";
import type { Bucket } from "../judge/rate.ts";
import { Clock, elevenPlayers, POWERS, type Power, user } from "../judge/testing.ts";
import type { Store } from "../store/db.ts";
import { testStore } from "../store/testing.ts";
import { type GatewayOptions, MailGateway } from "./gateway.ts";
import { Notifier, type NotifierOptions } from "./notify.ts";
import { Postman } from "./postman.ts";
import { defaultDialects } from "./service.ts";

/*
 * Helpers for the mail tests: a seven-player game played by mail and its players' mails, the
 * eleven players of a Global Diplomacy game by mail, raw mails, the judge's notifier, and the
 * outbox as the judge left it.
 */

export type { Power };

export const GAME_ADDRESS = "sed@judge.test";

export const addressOf = (p: string) => `${p}@players.test`;

export interface MailTestGame {
  readonly judge: Judge;
  readonly clock: Clock;
  readonly gm: User;
  readonly gameId: string;
  readonly players: Record<Power, User>;
  readonly secrets: Record<Power, string>;
}

export async function mailTestGame(
  store: Store,
  rules: string | Record<string, unknown> = "houserules",
  clock = new Clock(),
  /** The judge's orders-rate quota (default: the judge's own; null: none). */
  ordersRate?: Bucket | null,
  /** The game's judge options (docs/judge.md). */
  options?: OptionsPatch,
): Promise<MailTestGame> {
  const judge = new Judge({ store, now: clock.now, ordersRate });
  const gm = await user(judge, "gm");
  const game = await judge.games.createGame(gm, {
    name: "Speed Europa Debut",
    rules,
    seed: 7,
    options,
  });
  await configureMailGame(judge, gm, game.id, { abbreviation: "SED", address: GAME_ADDRESS });
  const code = game.invites!.find((i) => i.role === "player")!.code;
  const players = {} as Record<Power, User>;
  const secrets = {} as Record<Power, string>;
  for (const p of POWERS) {
    const u = await user(judge, p);
    secrets[p] = (await setMailAddress(judge, u, { address: addressOf(p) })).secret;
    await judge.games.acceptInvite(u, code, { power: p });
    players[p] = u;
  }
  return { judge, clock, gm, gameId: game.id, players, secrets };
}

/**
 * A SQLite store for the test, the seven-player game by mail on it (`mailTestGame`, played by
 * `rules`), a gateway for its mail (with `options`), and `sendAs` through that gateway.
 */
export async function gameByMail(
  t: TestContext,
  rules: string | Record<string, unknown> = "houserules",
  options: GatewayOptions = {},
) {
  const ts = await testStore(t, "sqlite");
  assert.ok(ts, "sqlite store");
  const g = await mailTestGame(ts.store, rules);
  const gw = gatewayOf(g.judge, options);
  /** A mail from a player to the game (`sendAs`): whether it was accepted, and the answer. */
  const send = (from: Power, subject: string, body: string, extra?: SendExtra) =>
    sendAs(g, gw, from, subject, body, extra);
  return { g, gw, send };
}

/** How a player's mail differs from the plain one: its To and Cc lines, its secret (null: none). */
export interface SendExtra {
  readonly to?: string;
  readonly cc?: string;
  readonly secret?: string | null;
}

/**
 * Sends a mail from a player of `g` through `gw` (To the game, with their secret unless told
 * otherwise); it must be answered once, to the sender. Whether it was accepted, and the answer.
 */
export async function sendAs(
  g: MailTestGame,
  gw: MailGateway,
  from: Power,
  subject: string,
  body: string,
  extra: SendExtra = {},
): Promise<{ accepted: boolean; text: string }> {
  const secret = extra.secret === undefined ? g.secrets[from] : extra.secret;
  const text = `${secret === null ? "" : `Secret: ${secret}\n`}${body}`;
  const r = await gw.receive(
    rawMail({ from: addressOf(from), to: extra.to ?? GAME_ADDRESS, cc: extra.cc, subject, text }),
  );
  assert.equal(r.replies.length, 1, "every mail is answered once");
  assert.equal(r.replies[0]!.to, addressOf(from), "the answer goes to the sender");
  return { accepted: r.accepted, text: r.replies[0]!.text };
}

/**
 * The eleven players of a Global Diplomacy game seated by its invitation (`elevenPlayers`),
 * player p with the mail address `address(p)`; `before` runs for each before they join.
 * Their users and mail secrets by power number.
 */
export async function elevenByMail(
  judge: Judge,
  game: { invites?: readonly { code: string; role: string }[] },
  name: string,
  address: (p: number) => string,
  before?: (p: number, u: User) => Promise<unknown>,
): Promise<{ players: Record<number, User>; secrets: Record<number, string> }> {
  const secrets: Record<number, string> = {};
  const players = await elevenPlayers(judge, game, name, async (p, u) => {
    secrets[p] = (await setMailAddress(judge, u, { address: address(p) })).secret;
    await before?.(p, u);
  });
  return { players, secrets };
}

/** A raw mail (RFC 5322), as a mail client would send it. */
export function rawMail(m: {
  from: string;
  to?: string | undefined;
  cc?: string | undefined;
  subject: string;
  text: string;
}): string {
  const head = [
    `From: ${m.from}`,
    ...(m.to !== undefined ? [`To: ${m.to}`] : []),
    ...(m.cc !== undefined ? [`Cc: ${m.cc}`] : []),
    `Subject: ${m.subject}`,
    `Message-ID: <${Math.random().toString(36).slice(2)}@players.test>`,
    "Date: Tue, 1 Jan 2030 12:00:00 +0000",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
  ];
  return `${head.join("\r\n")}\r\n\r\n${m.text.replace(/\r?\n/g, "\r\n")}`;
}

/** The body of an EMG mail (seed 004 §9): these lines between EMGSTART and EMGEND. */
export function emgBody(lines: readonly string[]): string {
  return ["EMGSTART", ...lines, "EMGEND"].join("\n");
}

/** A gateway without a postman: the replies are only returned. */
export function gatewayOf(judge: Judge, options: GatewayOptions = {}): MailGateway {
  return new MailGateway(judge, defaultDialects(), null, options);
}

/**
 * The judge's notifier as the tests run it: ticked by the test, on the judge's clock, its
 * postman writing to the outbox only (no SMTP, no folder).
 */
export function notifierOf(
  judge: Judge,
  options: Omit<NotifierOptions, "judge" | "postman"> = {},
): Notifier {
  const postman = new Postman({ store: judge.store, now: judge.now, folder: null });
  return new Notifier({ judge, postman, ...options });
}

/**
 * The mails in the outbox, in the order they were written: those of `kind` (all, if not
 * given) written after the mail whose id is `after`.
 */
export async function outboxMails(store: Store, kind?: string, after = 0) {
  return (await store.db.selectFrom("outbox").selectAll().orderBy("id").execute()).filter(
    (m) => (kind === undefined || m.kind === kind) && Number(m.id) > after,
  );
}

/** The id of the last mail in the outbox (0 while it is empty). */
export async function lastMailId(store: Store): Promise<number> {
  const last = await store.db
    .selectFrom("outbox")
    .select("id")
    .orderBy("id", "desc")
    .executeTakeFirst();
  return Number(last?.id ?? 0);
}
