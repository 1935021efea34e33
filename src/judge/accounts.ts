import { sql } from "kysely";
import { conflict, invalid, notFound, unauthenticated } from "./errors.ts";
import { iso } from "./game-data.ts";
import { lookAlike, nameKey, nameProblem, normaliseName } from "./names.ts";
import { hashPassword, newToken, randomId, tokenHash, verifyPassword } from "./password.ts";
import { passwordProblem } from "./password-policy.ts";
import type { User } from "./room.ts";
import { Room } from "./room.ts";
import { lineProblem } from "./text.ts";

/*
 * Accounts: registration, login, API tokens, and who a token belongs to.
 * A room of the judge (judge.ts builds the rooms; room.ts the shared helpers); calls no
 * other room.
 */

export class Accounts extends Room {
  async register(name: string, password: string): Promise<{ user: User; token: string }> {
    const n = normaliseName(name);
    const problem = nameProblem(n);
    if (problem) throw invalid(problem);
    const weak = await passwordProblem(password, n);
    if (weak) throw invalid(weak);
    const hash = await hashPassword(password);
    const user = { id: randomId(12), name: n };
    const now = this.now();
    try {
      await this.db.transaction().execute(async (trx) => {
        const taken = await trx
          .selectFrom("users")
          .select("id")
          .where(sql<string>`lower(name)`, "=", n.toLowerCase())
          .executeTakeFirst();
        if (taken) throw conflict(`the name "${n}" is taken`);
        // A name that looks like one taken is refused as taken (src/judge/names.ts).
        const names = await trx.selectFrom("users").select("name").execute();
        const like = lookAlike(
          n,
          names.map((r) => r.name),
        );
        if (like) {
          throw conflict(
            `the name "${n}" looks like "${like}", which is taken; choose a name that cannot be mistaken for it`,
          );
        }
        await trx
          .insertInto("users")
          .values({ id: user.id, name: n, password_hash: hash, created_at: now })
          .execute();
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(`the name "${n}" is taken`);
      throw e;
    }
    const token = await this.issueToken(user.id, "login");
    return { user, token: token.token };
  }

  /** `label`: what the token is for, as the token list shows it (the browser and system). */
  async login(
    name: string,
    password: string,
    label = "login",
  ): Promise<{ user: User; token: string }> {
    const row = await this.db
      .selectFrom("users")
      .selectAll()
      // SQLite's lower() folds ASCII only: a name with other capitals is also found as written.
      .where((eb) =>
        eb.or([
          eb(sql<string>`lower(name)`, "=", nameKey(name)),
          eb("name", "=", normaliseName(name)),
        ]),
      )
      .executeTakeFirst();
    // An unknown name costs a hash as a known one does: the answer's time tells nothing.
    DUMMY_HASH ??= hashPassword("no such user: a hash to spend the same time on");
    const stored = row?.password_hash ?? (await DUMMY_HASH);
    if (!(await verifyPassword(password, stored)) || !row) {
      throw unauthenticated("wrong user name or password");
    }
    const token = await this.issueToken(row.id, label);
    return { user: { id: row.id, name: row.name }, token: token.token };
  }

  async issueToken(userId: string, label: string): Promise<{ id: string; token: string }> {
    const bad = lineProblem(label, "a token's label");
    if (bad) throw invalid(bad);
    const token = newToken();
    const id = randomId(10);
    await this.db
      .insertInto("tokens")
      .values({
        id,
        user_id: userId,
        token_hash: tokenHash(token),
        label: label.slice(0, 100),
        created_at: this.now(),
        last_used_at: null,
      })
      .execute();
    return { id, token };
  }

  /**
   * The user's tokens, never their secrets: label, made, last used, when it expires unused;
   * `current` marks the one the caller used (`token`). Expired ones are deleted first.
   */
  async listTokens(user: User, token: string | null = null) {
    const idle = this.core.tokenIdleMs;
    if (idle !== null) {
      const before = this.now() - idle;
      await this.db
        .deleteFrom("tokens")
        .where("user_id", "=", user.id)
        .where((eb) =>
          eb.or([
            eb("last_used_at", "<", before),
            eb.and([eb("last_used_at", "is", null), eb("created_at", "<", before)]),
          ]),
        )
        .execute();
    }
    const rows = await this.db
      .selectFrom("tokens")
      .select(["id", "label", "created_at", "last_used_at", "token_hash"])
      .where("user_id", "=", user.id)
      .orderBy("created_at")
      .execute();
    const mine = token === null ? null : tokenHash(token);
    return rows.map((r) => ({
      id: r.id,
      label: r.label,
      createdAt: iso(r.created_at),
      lastUsedAt: iso(r.last_used_at),
      expiresAt: idle === null ? null : iso((r.last_used_at ?? r.created_at) + idle),
      current: r.token_hash === mine,
    }));
  }

  async revokeToken(user: User, id: string): Promise<void> {
    const r = await this.db
      .deleteFrom("tokens")
      .where("id", "=", id)
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw notFound(`no token "${id}" of yours`);
  }

  /**
   * Mails an account's owner at the address they gave (mail_users), through the judge's
   * outbox (sent by the postman, or kept as an .eml without a mail server). `account` is the
   * name as typed or its key. False when the account or its address is unknown.
   */
  async mailOwner(
    account: string,
    from: string,
    mail: { subject: string; text: string },
  ): Promise<boolean> {
    const row = await this.db
      .selectFrom("users")
      .innerJoin("mail_users", "mail_users.user_id", "users.id")
      .select(["users.id", "mail_users.address"])
      .where((eb) =>
        eb.or([
          eb(sql<string>`lower(users.name)`, "=", nameKey(account)),
          eb("users.name", "=", normaliseName(account)),
        ]),
      )
      .executeTakeFirst();
    if (!row) return false;
    await this.db
      .insertInto("outbox")
      .values({
        game_id: null,
        kind: "account",
        from_addr: from,
        to_addr: row.address,
        subject: mail.subject,
        body: mail.text,
        in_reply_to: null,
        list_unsubscribe: null,
        created_at: this.now(),
        sent_at: null,
        error: null,
      })
      .execute();
    return true;
  }

  /** The user a token belongs to, or null. */
  async authenticate(token: string): Promise<User | null> {
    const row = await this.db
      .selectFrom("tokens")
      .innerJoin("users", "users.id", "tokens.user_id")
      .select([
        "users.id",
        "users.name",
        "tokens.id as token_id",
        "tokens.last_used_at",
        "tokens.created_at",
      ])
      .where("tokens.token_hash", "=", tokenHash(token))
      .executeTakeFirst();
    if (!row) return null;
    const now = this.now();
    // A token unused for tokenIdleMs has expired: it is deleted, and the caller logs in again.
    const idle = this.core.tokenIdleMs;
    if (idle !== null && now - (row.last_used_at ?? row.created_at) > idle) {
      await this.db.deleteFrom("tokens").where("id", "=", row.token_id).execute();
      return null;
    }
    if (row.last_used_at === null || now - row.last_used_at > 60_000) {
      await this.db
        .updateTable("tokens")
        .set({ last_used_at: now })
        .where("id", "=", row.token_id)
        .execute();
    }
    return { id: row.id, name: row.name };
  }
}

/** A real hash, made once, to check wrong names against (login). */
let DUMMY_HASH: Promise<string> | null = null;

function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err.code === "23505" || err.code === "SQLITE_CONSTRAINT_UNIQUE";
}
