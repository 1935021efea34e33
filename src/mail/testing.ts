import { Judge, type User } from "../judge/judge.ts";
import { configureMailGame, setMailAddress } from "../judge/mail.ts";
import type { OptionsPatch } from "../judge/options.ts";
import type { Bucket } from "../judge/rate.ts";
import { Clock, elevenPlayers, POWERS, user } from "../judge/testing.ts";
import type { Store } from "../store/db.ts";
import { type GatewayOptions, MailGateway } from "./gateway.ts";
import { defaultDialects } from "./service.ts";

/*
 * Helpers for the mail tests: a seven-player game played by mail, the eleven players of a
 * Global Diplomacy game by mail, and raw mails.
 */

export type Power = (typeof POWERS)[number];

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

/** A gateway without a postman: the replies are only returned. */
export function gatewayOf(judge: Judge, options: GatewayOptions = {}): MailGateway {
  return new MailGateway(judge, defaultDialects(), null, options);
}
