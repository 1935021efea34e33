import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Store } from "../store/db.ts";
import { forbidden, notFound } from "./errors.ts";
import type { Judge } from "./judge.ts";
import { setNotices } from "./mail.ts";

/*
 * One-click unsubscribe (RFC 8058) from the judge's own mail for one game: every such mail's
 * List-Unsubscribe header carries, besides its mailto: (`NOTICES OFF <game>`), an https link
 * POST /api/unsubscribe/{user}/{game}/{signature} when the judge has a public address. The
 * signature is an HMAC-SHA256 of the user and the game under a key the judge makes once and
 * keeps in the store (`judge_keys`), so a link cannot be guessed or made for another person
 * or game, and it reveals nothing of the account (not its secret or password). The link does
 * one thing, whoever follows it: it turns that user's mail for that game off (docs/email.md).
 */

const KEY_NAME = "unsubscribe";
const keys = new WeakMap<Store, Map<string, Promise<Buffer>>>();

/** The store's signing key, made by the first process that needs it (the same for all). */
export function unsubscribeKey(store: Store): Promise<Buffer> {
  return judgeKey(store, KEY_NAME);
}

/**
 * A signing key of the store's (`judge_keys`) by its name, made by the first process that
 * needs it: the same for every server on the store (unsubscribe links, login devices).
 */
export function judgeKey(store: Store, name: string): Promise<Buffer> {
  let byName = keys.get(store);
  if (!byName) {
    byName = new Map();
    keys.set(store, byName);
  }
  const named = byName;
  let key = named.get(name);
  if (!key) {
    key = (async () => {
      const db = store.db;
      await db
        .insertInto("judge_keys")
        .values({ name, value: randomBytes(32).toString("base64url") })
        .onConflict((oc) => oc.column("name").doNothing())
        .execute();
      const row = await db
        .selectFrom("judge_keys")
        .select("value")
        .where("name", "=", name)
        .executeTakeFirstOrThrow();
      return Buffer.from(row.value, "base64url");
    })();
    key.catch(() => named.delete(name));
    named.set(name, key);
  }
  return key;
}

const sign = (key: Buffer, userId: string, gameId: string) =>
  createHmac("sha256", key).update(`unsubscribe\0${userId}\0${gameId}`).digest("base64url");

/** The one-click link of one user's mail for one game, under the judge's public address. */
export function unsubscribeUrl(
  publicUrl: string,
  key: Buffer,
  userId: string,
  gameId: string,
): string {
  const path = [userId, gameId, sign(key, userId, gameId)].map(encodeURIComponent).join("/");
  return `${publicUrl.replace(/\/+$/, "")}/api/unsubscribe/${path}`;
}

/** Follows a one-click link: that user's mail for that game off, if the signature is theirs. */
export async function oneClickUnsubscribe(
  judge: Judge,
  userId: string,
  gameId: string,
  signature: string,
): Promise<{ readonly notices: false; readonly game: string }> {
  const want = Buffer.from(sign(await unsubscribeKey(judge.store), userId, gameId));
  const got = Buffer.from(signature);
  if (got.length !== want.length || !timingSafeEqual(got, want))
    throw forbidden(
      "this unsubscribe link is not one the judge made (copied wrong?): use the link in the mail's List-Unsubscribe, or mail the subject NOTICES OFF",
    );
  const user = await judge.store.db
    .selectFrom("users")
    .select(["id", "name"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) throw notFound("the account of this link no longer exists");
  await setNotices(judge, user, { notices: false, game: gameId });
  // Nothing else of the account: whoever holds the link learns no more than it says.
  return { notices: false, game: gameId };
}
