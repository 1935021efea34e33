import type { Selectable } from "kysely";
import { type GameData, loadGame } from "../judge/game-data.ts";
import type { GameView, Judge, User } from "../judge/judge.ts";
import { normalAddress, sameSecret } from "../judge/mail.ts";
import type { MailGamesTable } from "../store/schema.ts";

/*
 * A game as mail sees it, the same for every game family: its mail settings, its public view
 * (phase, deadline, seats), and its players and game master with their mail identities. And
 * who a mail is from (seed 002 X(6)): the registered address of a player and that player's
 * secret (house rules: a `Secret:` line; EMG: the account id). Both are needed: a From line is
 * easily forged, and a secret alone could be sent from anywhere.
 *
 * Everything here is read through the Judge's public methods and the mail tables, except a
 * Diplomacy variant game's own data (`data`: its variant, record and position), which only
 * the house rules' dialect and its results need.
 */

export type MailGameRow = Selectable<MailGamesTable>;

/** `Player.seat` of a member who holds no seat (an observer). */
export const NO_SEAT = -2;

export interface Player {
  readonly user: User;
  /** The seat; -1 for the game master, NO_SEAT for a member without one. */
  readonly seat: number;
  readonly powers: readonly string[];
  /** The registered address, or null. */
  readonly address: string | null;
  readonly secret: string | null;
  /**
   * Whether the judge's own mail for this game goes to them: neither their account nor this
   * membership opted out (docs/email.md). Answers to their mails and mail about their own
   * seat go regardless.
   */
  readonly notices: boolean;
}

export interface MailGame {
  readonly row: MailGameRow;
  readonly id: string;
  readonly abbr: string;
  readonly address: string;
  /** The game as anybody may see it (phase, deadline, seats, options). */
  readonly view: GameView;
  /** A Diplomacy variant game's own data; null for a game of another family (Global Diplomacy). */
  readonly data: GameData | null;
  /** Seated players, in seat order. */
  readonly players: readonly Player[];
  /**
   * The members without a seat (observers, among them players who lost theirs), with seat
   * and powers as when they held none: the judge's mail goes to seated players and the GM
   * only; these are mailed only that they lost a seat (src/mail/notify.ts).
   */
  readonly unseated: readonly Player[];
  /** The game master, if they registered an address. */
  readonly gm: Player | null;
  /**
   * Whether the game is set up for mail (`gm/mail`: orders, press and votes by mail to its
   * address); false for a game played on the web page whose players who gave an address get
   * the judge's own mail from the judge's address (src/mail/notify.ts).
   */
  readonly byMail: boolean;
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

/** The games played by mail, by abbreviation (for "no such game" answers). */
export async function mailGameNames(judge: Judge): Promise<string[]> {
  const rows = await judge.store.db
    .selectFrom("mail_games")
    .select("abbr")
    .orderBy("abbr")
    .execute();
  return rows.map((r) => r.abbr);
}

/**
 * A game played by mail, read for the gateway and the notifier; `byMail` false: a game played
 * on the web page, mailed from the judge's address (its `row` then made by the notifier).
 */
export async function loadMailGame(
  judge: Judge,
  row: MailGameRow,
  byMail = true,
): Promise<MailGame> {
  const db = judge.store.db;
  const view = await judge.views.gameView(null, row.game_id);
  const data = view.family ? null : await loadGame(db, row.game_id);
  const members = await db
    .selectFrom("members")
    .select(["user_id", "role", "seat", "notices"])
    .where("game_id", "=", row.game_id)
    .execute();
  const ids = members.map((m) => m.user_id);
  const users =
    ids.length === 0
      ? []
      : await db
          .selectFrom("users")
          .leftJoin("mail_users", "mail_users.user_id", "users.id")
          .select([
            "users.id",
            "users.name",
            "mail_users.address",
            "mail_users.secret",
            "mail_users.notices",
          ])
          .where("users.id", "in", ids)
          .execute();
  const person = (m: (typeof members)[number], seat: number): Player => {
    const u = users.find((x) => x.id === m.user_id);
    return {
      user: { id: m.user_id, name: u?.name ?? m.user_id },
      seat,
      powers: seat < 0 ? [] : (view.seatList[seat]?.powers ?? []),
      address: u?.address ?? null,
      secret: u?.secret ?? null,
      notices: m.notices === 1 && (u?.notices ?? 1) === 1,
    };
  };
  const players = members
    .filter((m) => m.role === "player" && m.seat !== null)
    .map((m) => person(m, m.seat!))
    .sort((a, b) => a.seat - b.seat);
  const unseated = members
    .filter((m) => m.role === "observer" || (m.role === "player" && m.seat === null))
    .map((m) => person(m, NO_SEAT));
  const gmMember = members.find((m) => m.role === "gm");
  const gm = gmMember ? person(gmMember, -1) : null;
  return {
    row,
    id: row.game_id,
    abbr: row.abbr,
    address: row.address,
    view,
    data,
    players,
    unseated,
    gm: gm?.address ? gm : null,
    byMail,
  };
}

// ------------------------------------------------------------------------------------------
// Who a mail is from

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

/** Why a mail is not taken as a player's (each dialect words it its own way). */
export interface SenderProblem {
  /**
   * `nobody`: nobody plays the power named; `not-holder`: From is not the address of the
   * named power's player; `unknown-sender`: From is no player's address; `no-secret`, and
   * `wrong-secret`: the secret is not the sender's.
   */
  readonly kind: "nobody" | "not-holder" | "unknown-sender" | "no-secret" | "wrong-secret";
  /** The power the mail named, if it named one. */
  readonly power: string | null;
  /** The secret is another player's of this game. */
  readonly elsewhere: boolean;
}

/**
 * The player a mail is from: with a power named, the player who holds it now, who must have
 * sent it from their registered address with their secret; without, the player whose address
 * and secret these are, or (`gmMay`: press and votes) the game's GM, by the GM's.
 */
export function identify(
  game: MailGame,
  from: string,
  secret: string | null,
  power: string | null,
  /** The GM may send it too (press and votes, seed 002 IX(3), X(1)); never orders. */
  gmMay = false,
): { player: Player } | { problem: SenderProblem } {
  const mine = (p: Player) => secret !== null && p.secret !== null && sameSecret(p.secret, secret);
  const problem = (kind: SenderProblem["kind"]) => ({
    problem: { kind, power, elsewhere: game.players.some(mine) },
  });
  if (power !== null) {
    const holder = game.players.find((p) => p.powers.includes(power));
    if (!holder) return problem("nobody");
    if (holder.address !== from) return problem("not-holder");
    if (secret === null) return problem("no-secret");
    return mine(holder) ? { player: holder } : problem("wrong-secret");
  }
  const here = [...game.players, ...(gmMay && game.gm ? [game.gm] : [])].filter(
    (p) => p.address === from,
  );
  if (here.length === 0) return problem("unknown-sender");
  if (secret === null) return problem("no-secret");
  const player = here.find(mine);
  return player ? { player } : problem("wrong-secret");
}

export function secretProblem(secret: string | null): string {
  return secret === null
    ? 'the body has no secret line. Put your secret on a line of its own: "Secret: <your secret>" (GET /api/me/mail shows it).'
    : 'the secret in the body is not yours. Put your own secret on a line of its own: "Secret: <your secret>" (GET /api/me/mail shows it).';
}

/** An account as a mail proves it (its registered address and its secret), and its games. */
export interface AccountGames {
  readonly name: string;
  /** The games played by mail where the account holds a seat: the game id and the seat. */
  readonly games: readonly { readonly abbr: string; readonly seat: string }[];
}

/**
 * The account a mail is from when its From line is the account's registered address and the
 * secret (EMG's account id) is that account's; null otherwise. With the games it plays by
 * mail, so that a mail naming the wrong game can be told which ones are its.
 */
export async function accountGames(
  judge: Judge,
  from: string,
  secret: string | null,
): Promise<AccountGames | null> {
  if (secret === null) return null;
  const db = judge.store.db;
  const row = await db
    .selectFrom("mail_users")
    .innerJoin("users", "users.id", "mail_users.user_id")
    .select(["users.id", "users.name", "mail_users.secret"])
    .where("mail_users.address", "=", normalAddress(from))
    .executeTakeFirst();
  if (!row || !sameSecret(row.secret, secret)) return null;
  const seats = await db
    .selectFrom("members")
    .innerJoin("mail_games", "mail_games.game_id", "members.game_id")
    .select(["mail_games.abbr", "members.game_id", "members.seat"])
    .where("members.user_id", "=", row.id)
    .where("members.role", "=", "player")
    .orderBy("mail_games.abbr")
    .execute();
  const games: { abbr: string; seat: string }[] = [];
  for (const s of seats) {
    if (s.seat === null) continue;
    const view = await judge.views.gameView(null, s.game_id);
    games.push({ abbr: s.abbr, seat: view.seatList[s.seat]?.name ?? `seat ${s.seat}` });
  }
  return { name: row.name, games };
}
