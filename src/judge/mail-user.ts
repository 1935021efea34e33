import type { Kysely } from "kysely";
import type { DB } from "../store/schema.ts";

/*
 * A user's mail account (mail_users): the address they send orders from, their secret, and
 * whether the judge's own mail goes to them. Read here once for mail.ts (the address, the
 * notice settings) and family-views.ts (a report's accounting: EMG's account id).
 */

/** The user's mail account row, or undefined when they gave no address. */
export const mailUserRow = (db: Kysely<DB>, userId: string) =>
  db.selectFrom("mail_users").selectAll().where("user_id", "=", userId).executeTakeFirst();
