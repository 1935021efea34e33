import { timingSafeEqual } from "node:crypto";
import type { Variant } from "../engine/variant.ts";
import { conflict, forbidden, invalid, notFound } from "./errors.ts";
import { isFamilyGame } from "./family.ts";
import { iso, loadGame } from "./game-data.ts";
import type { Judge, User } from "./judge.ts";
import { checkLabel, labelFree } from "./labels.ts";
import { mailUserRow } from "./mail-user.ts";
import { lastEventRow } from "./numbering.ts";
import { randomId } from "./password.ts";
import { lineProblem } from "./text.ts";

/*
 * The judge's side of play by email (docs/email.md): a player's mail address and secret, a
 * game's mail abbreviation and address (set by its GM), and the outbox the GM may read. The
 * mail gateway itself (src/mail) reads mails and goes through the Judge's own methods for
 * orders, press and votes; this file only keeps what those need.
 */

export interface MailIdentity {
  readonly address: string;
  /** The line to put in every order mail: `Secret: <secret>` (seed 002 X(6)). */
  readonly secret: string;
}

export interface MailGame {
  readonly gameId: string;
  readonly abbreviation: string;
  readonly address: string;
  /** Each power's subject letter: `A` Austria, ... */
  readonly letters: readonly { letter: string; power: string; name: string }[];
}

const ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/** A mail address as compared: trimmed, lower case. */
export function normalAddress(a: string): string {
  return a.trim().toLowerCase();
}

function checkAddress(a: string, what: string): string {
  const bad = lineProblem(a, what);
  if (bad) throw invalid(bad);
  const n = normalAddress(a);
  if (!ADDRESS.test(n) || n.length > 254) {
    throw invalid(`${what} must be a mail address like name@example.org, not "${a}"`);
  }
  return n;
}

/** Whether two secrets are equal (in time independent of where they differ). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The power letters of a variant, from its powers (docs/email.md, "Power letters"). */
export function powerLetters(variant: Variant): { letter: string; power: string; name: string }[] {
  return variant.powers.map((p) => ({ letter: p.letter.toUpperCase(), power: p.id, name: p.name }));
}

/**
 * Sets the address a user sends orders from; the secret is made the first time (or anew with
 * `newSecret`). Answers with both: the secret is shown only to its owner.
 */
export async function setMailAddress(
  judge: Judge,
  user: User,
  input: { address: string; newSecret?: boolean | undefined },
): Promise<MailIdentity> {
  const address = checkAddress(input.address, "address");
  const db = judge.store.db;
  const now = judge.now();
  const old = await mailUserRow(db, user.id);
  const secret = old && !input.newSecret ? old.secret : randomId(12);
  if (old) {
    await db
      .updateTable("mail_users")
      .set({ address, secret, updated_at: now })
      .where("user_id", "=", user.id)
      .execute();
  } else {
    await db
      .insertInto("mail_users")
      .values({ user_id: user.id, address, secret, updated_at: now })
      .execute();
  }
  return { address, secret };
}

export async function mailIdentity(judge: Judge, user: User): Promise<MailIdentity> {
  const row = await mailUserRow(judge.store.db, user.id);
  if (!row) throw notFound('you have no mail address yet: POST /api/me/mail {"address": ...}');
  return { address: row.address, secret: row.secret };
}

async function requireGm(judge: Judge, user: User, gameId: string): Promise<void> {
  const view = await judge.views.gameView(user, gameId);
  if (view.you?.role !== "gm") throw forbidden("only the game master may do this");
}

/**
 * Lets a game take orders by mail: its abbreviation for subjects (`SED` in `SED 01SA`, unique
 * among the judge's games) and the address orders must be sent To. The abbreviation is the
 * game's id (labels.ts): by default the one its GM chose at creation; a game without one gets
 * it now. Once the game has started, its id is in its players' reports and mail: it stays.
 */
export async function configureMailGame(
  judge: Judge,
  user: User,
  gameId: string,
  input: { abbreviation?: string | undefined; address: string },
): Promise<MailGame> {
  await requireGm(judge, user, gameId);
  const row = await judge.store.db
    .selectFrom("games")
    .select(["label", "status"])
    .where("id", "=", gameId)
    .executeTakeFirstOrThrow();
  if (input.abbreviation === undefined && row.label === null)
    throw invalid(
      'give the game an abbreviation (its id in every mail, like SED or GD001): {"abbreviation": ..., "address": ...}',
    );
  const abbr = checkLabel(input.abbreviation ?? row.label!, "an abbreviation");
  if (row.label !== null && abbr !== row.label && row.status !== "forming")
    throw conflict(
      `this game is ${row.label} in its players' reports and mail since it started: its abbreviation stays ${row.label}`,
    );
  const address = checkAddress(input.address, "the game's address");
  const db = judge.store.db;
  // Global Diplomacy's mail names no power in its subject (EMGTURN, seed 004 §9): no letters.
  const letters = (await isFamilyGame(db, gameId))
    ? []
    : powerLetters((await loadGame(db, gameId)).scenario.variant);
  const clash = letters.filter((l, i) => letters.findIndex((m) => m.letter === l.letter) !== i);
  if (clash.length > 0) {
    throw invalid(
      `this variant's power letters are not unique (${clash.map((l) => `${l.letter} ${l.name}`).join(", ")}): subjects could not name the power; fix the variant's "letter"s`,
    );
  }
  await labelFree(db, abbr, gameId);
  await db.updateTable("games").set({ label: abbr }).where("id", "=", gameId).execute();
  const old = await db
    .selectFrom("mail_games")
    .select("game_id")
    .where("game_id", "=", gameId)
    .executeTakeFirst();
  if (old) {
    await db
      .updateTable("mail_games")
      .set({ abbr, address })
      .where("game_id", "=", gameId)
      .execute();
  } else {
    // Mail goes out for what happens from now on, not for the game's past; a reminder the
    // judge already mailed to its web players (notice_games) is not sent again.
    const web = await db
      .selectFrom("notice_games")
      .select("reminded_idx")
      .where("game_id", "=", gameId)
      .executeTakeFirst();
    const last = await lastEventRow(db, gameId);
    await db
      .insertInto("mail_games")
      .values({
        game_id: gameId,
        abbr,
        address,
        last_event: last,
        reminded_idx: web ? Number(web.reminded_idx) : -1,
        created_at: judge.now(),
      })
      .execute();
  }
  return mailGame(judge, gameId);
}

/** A game's mail settings (public: the abbreviation, the address and the power letters). */
export async function mailGame(judge: Judge, gameId: string): Promise<MailGame> {
  const row = await judge.store.db
    .selectFrom("mail_games")
    .selectAll()
    .where("game_id", "=", gameId)
    .executeTakeFirst();
  if (!row) throw notFound("this game is not played by mail (its GM can set that up)");
  const letters = (await isFamilyGame(judge.store.db, gameId))
    ? []
    : powerLetters((await loadGame(judge.store.db, gameId)).scenario.variant);
  return { gameId, abbreviation: row.abbr, address: row.address, letters };
}

/**
 * The game's outbox, for its GM only: every mail the judge sent or keeps to send. Ids are the
 * game's own (the nth mail of the game is n; `afterId` is one of them), not the store's row
 * ids, which every game shares and would tell how much mail other games send.
 */
export async function outbox(judge: Judge, user: User, gameId: string, afterId = 0) {
  await requireGm(judge, user, gameId);
  const rows = await judge.store.db
    .selectFrom("outbox")
    .selectAll()
    .where("game_id", "=", gameId)
    .orderBy("id")
    .limit(500)
    .offset(afterId)
    .execute();
  return rows.map((r, i) => ({
    id: afterId + i + 1,
    kind: r.kind,
    to: r.to_addr,
    subject: r.subject,
    body: r.body,
    createdAt: iso(r.created_at),
    sentAt: iso(r.sent_at),
    error: r.error,
  }));
}

/** Who gets the judge's own mail (results, reports, reminders, notices): docs/email.md. */
export interface NoticeSettings {
  /** The registered address; null: none, so no mail at all. */
  readonly address: string | null;
  /** For the whole account: false stops the judge's own mail for every game. */
  readonly notices: boolean;
  /** Each game the user is in, and whether its mail goes out to them. */
  readonly games: readonly {
    readonly gameId: string;
    readonly name: string;
    readonly label: string | null;
    readonly role: string;
    /** This membership's choice (mail goes out only when this and the account's are true). */
    readonly notices: boolean;
  }[];
}

/** A user's notice settings: the account's, and each game's. */
export async function noticeSettings(judge: Judge, user: User): Promise<NoticeSettings> {
  const db = judge.store.db;
  const mail = await mailUserRow(db, user.id);
  const games = await db
    .selectFrom("members")
    .innerJoin("games", "games.id", "members.game_id")
    .select(["games.id", "games.name", "games.label", "members.role", "members.notices"])
    .where("members.user_id", "=", user.id)
    .where("members.role", "in", ["gm", "player"])
    .orderBy("games.created_at")
    .execute();
  return {
    address: mail?.address ?? null,
    notices: (mail?.notices ?? 1) === 1,
    games: games.map((g) => ({
      gameId: g.id,
      name: g.name,
      label: g.label,
      role: g.role,
      notices: g.notices === 1,
    })),
  };
}

/**
 * Turns the judge's own mail on or off: for one game (`game`, its id or its label, where the
 * user is a player or the GM), or for the whole account. Mail about the user's own seat (no
 * orders received, seed 002 VII(6)) and answers to their own mails still go out.
 */
export async function setNotices(
  judge: Judge,
  user: User,
  input: { notices: boolean; game?: string | undefined },
): Promise<NoticeSettings> {
  const db = judge.store.db;
  const value = input.notices ? 1 : 0;
  if (input.game === undefined) {
    const r = await db
      .updateTable("mail_users")
      .set({ notices: value })
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0)
      throw notFound(
        'you have no mail address, so the judge mails you nothing: POST /api/me/mail {"address": ...} first',
      );
    return noticeSettings(judge, user);
  }
  const key = input.game.trim();
  const game = await db
    .selectFrom("games")
    .select("id")
    .where((eb) => eb.or([eb("id", "=", key), eb("label", "=", key.toUpperCase())]))
    .executeTakeFirst();
  const r = game
    ? await db
        .updateTable("members")
        .set({ notices: value })
        .where("game_id", "=", game.id)
        .where("user_id", "=", user.id)
        .where("role", "in", ["gm", "player"])
        .executeTakeFirst()
    : null;
  if (!r || Number(r.numUpdatedRows) === 0) {
    const mine = (await noticeSettings(judge, user)).games;
    throw notFound(
      `you are no player or GM of a game "${input.game}"; your games: ${mine.map((g) => g.label ?? g.gameId).join(", ") || "none"}`,
    );
  }
  return noticeSettings(judge, user);
}
