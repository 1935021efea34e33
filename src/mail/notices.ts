import { JudgeError } from "../judge/errors.ts";
import type { Judge } from "../judge/judge.ts";
import { normalAddress, setNotices } from "../judge/mail.ts";
import type { IncomingMail } from "./message.ts";

/*
 * Opting out of the judge's own mail by mail (docs/email.md): the subject `NOTICES OFF` (every
 * game) or `NOTICES OFF <game id>` (one game), `NOTICES ON ...` to undo it. Every mail the
 * notifier sends says so. Like an unsubscribe it needs no secret: it only ever acts on the
 * account registered at the sender's address, and the answer goes to that address, so the
 * owner of the address learns of it at once. The same choice is POST /api/me/notices.
 */

const SUBJECT = /^\s*(?:(?:re|fwd?)\s*:\s*)*notices\b\s*(.*)$/i;

/** Whether the subject is a NOTICES command. */
export function isNoticesCommand(subject: string): boolean {
  return SUBJECT.test(subject);
}

const USAGE =
  'The subject "NOTICES OFF" stops the judge\'s mail for every game of yours, "NOTICES OFF <game id>" for one game (GD001, SED); "NOTICES ON" and "NOTICES ON <game id>" undo it.';

/** Carries out a NOTICES mail: whether it was done, and the answer. */
export async function runNotices(
  judge: Judge,
  mail: IncomingMail,
): Promise<{ accepted: boolean; text: string }> {
  const words = (SUBJECT.exec(mail.subject)?.[1] ?? "").trim().split(/\s+/).filter(Boolean);
  const refuse = (what: string) => ({
    accepted: false,
    text: `Your command was NOT done: nothing was changed.\n\nWhat was wrong: ${what}\n${USAGE}`,
  });
  const onOff = (words[0] ?? "").toUpperCase();
  if (onOff !== "ON" && onOff !== "OFF")
    return refuse(`"NOTICES" needs ON or OFF${words[0] ? `, not "${words[0]}"` : ""}.`);
  if (words.length > 2) return refuse(`"${words.slice(2).join(" ")}" is more than a game id.`);
  const account = await judge.store.db
    .selectFrom("mail_users")
    .innerJoin("users", "users.id", "mail_users.user_id")
    .select(["users.id", "users.name"])
    .where("mail_users.address", "=", normalAddress(mail.from))
    .executeTakeFirst();
  if (!account)
    return refuse(`${mail.from} is not registered with the judge: it mails you nothing.`);
  const game = words[1];
  try {
    const after = await setNotices(
      judge,
      { id: account.id, name: account.name },
      { notices: onOff === "ON", ...(game ? { game } : {}) },
    );
    const one = game
      ? after.games.find((g) => g.label === game.toUpperCase() || g.gameId === game)
      : null;
    const what = one
      ? `the judge's mail for game ${one.label ?? one.gameId} (${one.name}) is ${one.notices ? "ON" : "OFF"} for ${account.name}`
      : `the judge's mail for every game of ${account.name} is ${after.notices ? "ON" : "OFF"}`;
    return {
      accepted: true,
      text: [
        `Done: ${what}.`,
        after.notices
          ? `Games: ${after.games.map((g) => `${g.label ?? g.gameId} ${g.notices ? "on" : "off"}`).join(", ") || "none"}.`
          : "Nothing is mailed to you now but answers to your own mails, notices about your own seat (no orders received, the seat taken from you) and, as a game's GM, missed orders and seats to replace.",
        USAGE,
      ].join("\n"),
    };
  } catch (e) {
    if (e instanceof JudgeError) return refuse(`${e.message}.`);
    throw e;
  }
}
