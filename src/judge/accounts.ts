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
 * A room of the judge (src/judge/judge.ts is the facade; room.ts the shared helpers).
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

  async login(name: string, password: string): Promise<{ user: User; token: string }> {
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
    const token = await this.issueToken(row.id, "login");
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

  async listTokens(user: User) {
    const rows = await this.db
      .selectFrom("tokens")
      .select(["id", "label", "created_at", "last_used_at"])
      .where("user_id", "=", user.id)
      .orderBy("created_at")
      .execute();
    return rows.map((r) => ({
      id: r.id,
      label: r.label,
      createdAt: iso(r.created_at),
      lastUsedAt: iso(r.last_used_at),
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

  /** The user a token belongs to, or null. */
  async authenticate(token: string): Promise<User | null> {
    const row = await this.db
      .selectFrom("tokens")
      .innerJoin("users", "users.id", "tokens.user_id")
      .select(["users.id", "users.name", "tokens.id as token_id", "tokens.last_used_at"])
      .where("tokens.token_hash", "=", tokenHash(token))
      .executeTakeFirst();
    if (!row) return null;
    const now = this.now();
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
