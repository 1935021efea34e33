import type { Selectable } from "kysely";
import type { PowerId } from "../engine/types.ts";
import { type GameData, loadGame, seatOf } from "../judge/game-data.ts";
import type { Judge, User } from "../judge/judge.ts";
import { sameSecret } from "../judge/mail.ts";
import type { MailGamesTable } from "../store/schema.ts";

/*
 * Who a mail is from (seed 002 X(6)): the registered address of a player and, in the body,
 * that player's secret on a line of its own (`Secret: 4hT9xQ2mKp7L`). Both are needed: a From
 * line is easily forged, and a secret alone could be sent from anywhere.
 */

export type MailGameRow = Selectable<MailGamesTable>;

const SECRET_LINE = /^\s*secret\s*[:=]\s*(\S+)\s*$/i;

/** The secret line of a body, and the body with it blanked (line numbers stay). */
export function takeSecret(text: string): { secret: string | null; body: string } {
  let secret: string | null = null;
  const lines = text.split(/\r\n|\r|\n/).map((l) => {
    const m = SECRET_LINE.exec(l);
    if (!m) return l;
    secret ??= m[1]!;
    return "";
  });
  return { secret, body: lines.join("\n") };
}

export async function gameByAbbr(judge: Judge, abbr: string): Promise<MailGameRow | null> {
  return (
    (await judge.store.db
      .selectFrom("mail_games")
      .selectAll()
      .where("abbr", "=", abbr.toUpperCase())
      .executeTakeFirst()) ?? null
  );
}

export async function mailGameOf(judge: Judge, gameId: string): Promise<MailGameRow | null> {
  return (
    (await judge.store.db
      .selectFrom("mail_games")
      .selectAll()
      .where("game_id", "=", gameId)
      .executeTakeFirst()) ?? null
  );
}

/** The games played by mail, by abbreviation (for "no such game" answers). */
export async function mailGameNames(judge: Judge): Promise<string[]> {
  const rows = await judge.store.db
    .selectFrom("mail_games")
    .select("abbr")
    .orderBy("abbr")
    .execute();
  return rows.map((r) => r.abbr);
}

export interface Player {
  readonly user: User;
  readonly seat: number;
  readonly powers: readonly PowerId[];
  /** The registered address, or null. */
  readonly address: string | null;
  readonly secret: string | null;
}

/** The players of a game with their mail identities (seat order). */
export async function playersOf(judge: Judge, g: GameData): Promise<Player[]> {
  const members = g.members.filter((m) => m.role === "player" && m.seat !== null);
  if (members.length === 0) return [];
  const ids = members.map((m) => m.user_id);
  const db = judge.store.db;
  const users = await db
    .selectFrom("users")
    .select(["id", "name"])
    .where("id", "in", ids)
    .execute();
  const mail = await db.selectFrom("mail_users").selectAll().where("user_id", "in", ids).execute();
  return members
    .map((m) => {
      const u = users.find((x) => x.id === m.user_id);
      const id = mail.find((x) => x.user_id === m.user_id);
      return {
        user: { id: m.user_id, name: u?.name ?? m.user_id },
        seat: m.seat!,
        powers: g.seats[m.seat!]?.powers ?? [],
        address: id?.address ?? null,
        secret: id?.secret ?? null,
      };
    })
    .sort((a, b) => a.seat - b.seat);
}

/** The game master with their mail identity, if they registered an address (seat -1). */
export async function gmOf(judge: Judge, g: GameData): Promise<Player | null> {
  const m = g.members.find((x) => x.role === "gm");
  if (!m) return null;
  const db = judge.store.db;
  const u = await db
    .selectFrom("users")
    .select(["id", "name"])
    .where("id", "=", m.user_id)
    .executeTakeFirst();
  const id = await db
    .selectFrom("mail_users")
    .selectAll()
    .where("user_id", "=", m.user_id)
    .executeTakeFirst();
  if (!u || !id) return null;
  return { user: u, seat: -1, powers: [], address: id.address, secret: id.secret };
}

/** The player who holds a power now, or null. */
export async function holderOf(judge: Judge, g: GameData, power: PowerId): Promise<Player | null> {
  const seat = seatOf(g.seats, power);
  return (await playersOf(judge, g)).find((p) => p.seat === seat) ?? null;
}

/** The player of a game a mail is from: From is their address and the secret is theirs. */
export async function senderIn(
  judge: Judge,
  g: GameData,
  from: string,
  secret: string | null,
): Promise<{ player: Player | null; problem: string | null }> {
  const players = (await playersOf(judge, g)).filter((p) => p.address === from);
  if (players.length === 0) {
    return {
      player: null,
      problem: `${from || "(no From address)"} is not the registered address of any player in this game. Register the address you send from (POST /api/me/mail, docs/email.md) and send from it.`,
    };
  }
  const player = players.find((p) => secret !== null && sameSecret(p.secret ?? "", secret));
  if (!player) return { player: null, problem: secretProblem(secret) };
  return { player, problem: null };
}

export function secretProblem(secret: string | null): string {
  return secret === null
    ? 'the body has no secret line. Put your secret on a line of its own: "Secret: <your secret>" (GET /api/me/mail shows it).'
    : 'the secret in the body is not yours. Put your own secret on a line of its own: "Secret: <your secret>" (GET /api/me/mail shows it).';
}

export { loadGame };
