import { JudgeError } from "../judge/errors.ts";
import type { Judge, User } from "../judge/judge.ts";
import { gameLink, inviteLink } from "../judge/links.ts";
import {
  configureMailGame,
  mailGame,
  normalAddress,
  sameSecret,
  setMailAddress,
} from "../judge/mail.ts";
import { randomId } from "../judge/password.ts";
import { gameByAbbr, takeSecret } from "./identity.ts";
import type { IncomingMail } from "./message.ts";

/*
 * The judge's commands by mail: everything a player or a GM does outside a game's orders,
 * press and votes, so that a game can be run entirely by mail (the web page stays an option).
 * The subject is the command; the body carries the `Secret:` line (except for HELP and
 * REGISTER) and the command's details. Each command calls the Judge's own public methods, so
 * every rule of the API applies and its refusals are the reply.
 *
 *   HELP                          this list
 *   REGISTER [name]               an account for the sender's address; the secret is mailed back
 *   JOIN <code> [power]           join a game with its invitation code
 *   CREATE <ABBR> [rules]         (GM) a game played by mail; body lines `Name:`, `Address:`
 *   START|PAUSE|RESUME <ABBR>     (GM) start, pause or resume the game
 *   EXTEND <ABBR> <hours>         (GM) move the deadline later
 *   PROCESS <ABBR>                (GM) adjudicate now: the deadline is set to now
 *   REPLACE <ABBR> <power> [user] (GM) empty a seat, for a replacement (or give it to a user)
 */

const COMMANDS = [
  "HELP",
  "REGISTER",
  "JOIN",
  "CREATE",
  "START",
  "PAUSE",
  "RESUME",
  "EXTEND",
  "PROCESS",
  "REPLACE",
] as const;
type Command = (typeof COMMANDS)[number];

export const HELP_TEXT = [
  "The judge's commands by mail: the subject is the command, the body has your secret line",
  '("Secret: ..."; not for HELP and REGISTER). docs/email.md explains each.',
  "",
  "  HELP                           this list",
  "  REGISTER [name]                an account for your address; the reply brings your secret",
  "  JOIN <code> [power]            join a game with its invitation code",
  "  CREATE <ABBR> [rules]          (GM) a new game played by mail; body lines",
  '                                 "Name: <the game\'s name>" and "Address: <its address>"',
  "  START <ABBR>                   (GM) start the game",
  "  PAUSE <ABBR>                   (GM) pause it",
  "  RESUME <ABBR>                  (GM) resume it",
  "  EXTEND <ABBR> <hours>          (GM) move the deadline later",
  "  PROCESS <ABBR>                 (GM) adjudicate the phase now",
  "  REPLACE <ABBR> <power> [user]  (GM) empty a power's seat for a replacement",
  "",
  'Orders, press and votes go to the game\'s address with the subject "ABBR 01SA",',
  '"ABBR PRESS" or "ABBR VOTE".',
  "",
  '"NOTICES OFF [ABBR]" stops the judge\'s own mail to you (one game, or all); "NOTICES ON" undoes it.',
].join("\n");

/** The command a subject gives, with its words; null when the subject is no command. */
export function commandOf(subject: string): { command: Command; args: string[] } | null {
  const words = subject
    .replace(/^\s*(?:re|fwd?)\s*:\s*/i, "")
    .trim()
    .split(/\s+/)
    .filter((w) => w !== "");
  const first = (words[0] ?? "").toUpperCase() as Command;
  if (!COMMANDS.includes(first)) return null;
  return { command: first, args: words.slice(1) };
}

/** A command's answer: whether it was done, and the text of the reply. */
export interface CommandAnswer {
  readonly accepted: boolean;
  readonly text: string;
}

const refuse = (what: string, instead: string): CommandAnswer => ({
  accepted: false,
  text: `Your command was NOT done: nothing was changed.\n\nWhat was wrong: ${what}\nWhat to send instead: ${instead}`,
});

/** The account whose registered address the mail comes from, and its secret. */
async function accountOf(judge: Judge, address: string) {
  const row = await judge.store.db
    .selectFrom("mail_users")
    .innerJoin("users", "users.id", "mail_users.user_id")
    .select(["users.id", "users.name", "mail_users.secret"])
    .where("mail_users.address", "=", normalAddress(address))
    .executeTakeFirst();
  return row ? { user: { id: row.id, name: row.name } as User, secret: row.secret } : null;
}

/** Carries out a command mail. */
export async function runCommand(judge: Judge, mail: IncomingMail): Promise<CommandAnswer> {
  const c = commandOf(mail.subject);
  if (!c) return refuse("the subject is no command", `a subject from this list:\n\n${HELP_TEXT}`);
  if (c.command === "HELP") return { accepted: true, text: HELP_TEXT };
  const { secret, body } = takeSecret(mail.text);
  const account = await accountOf(judge, mail.from);
  try {
    if (c.command === "REGISTER") {
      if (account) {
        // The secret goes to the registered address only: whoever forged the sender never sees it.
        return {
          accepted: true,
          text: `${mail.from} is already registered (user ${account.user.name}). Your secret: ${account.secret}\nPut the line "Secret: ${account.secret}" in every mail you send the judge.`,
        };
      }
      const name = c.args[0] ?? mail.from.split("@")[0]!.replace(/[^\p{L}\p{N}_.-]/gu, "");
      const reg = await judge.register(name, randomId(24));
      const id = await setMailAddress(judge, reg.user, { address: mail.from });
      return {
        accepted: true,
        text: [
          `You are registered as ${reg.user.name}, with the address ${id.address}.`,
          `Your secret: ${id.secret}`,
          `Put the line "Secret: ${id.secret}" in every mail you send the judge. Keep it to yourself.`,
          'To join a game: the subject "JOIN <invitation code>" (and a power if you wish).',
        ].join("\n"),
      };
    }
    if (!account) {
      return refuse(
        `${mail.from} is not registered with the judge`,
        'a mail with the subject "REGISTER" (or "REGISTER yourname") first; the reply brings your secret',
      );
    }
    if (secret === null) {
      return refuse(
        "the mail has no secret line",
        `the same mail with a line "Secret: <your secret>" in the body (the secret came with your registration; "REGISTER" mails it to you again)`,
      );
    }
    if (!sameSecret(secret, account.secret)) {
      return refuse(
        `the secret is not the one registered for ${mail.from}`,
        'the same mail with your own secret ("REGISTER" mails it to your registered address again)',
      );
    }
    const user = account.user;
    const gameIdOf = async (abbr: string | undefined) => {
      if (!abbr) return null;
      return (await gameByAbbr(judge, abbr))?.game_id ?? null;
    };
    switch (c.command) {
      case "JOIN": {
        const [code, power] = c.args;
        if (!code) return refuse("no invitation code", '"JOIN <code>", as the GM gave it');
        const view = await judge.acceptInvite(user, code, power ? { power } : {});
        let mailInfo = "";
        try {
          const m = await mailGame(judge, view.id);
          mailInfo = `\nOrders go To ${m.address}, with subjects such as "${m.abbreviation} ${String(
            view.phase ? view.phase.slice(3, 5) : "01",
          )}S${m.letters.find((l) => view.you?.powers.includes(l.power))?.letter ?? "A"}".`;
        } catch {
          mailInfo = "";
        }
        const powers = view.you?.powers ?? [];
        const link = gameLink(judge.publicUrl, view.id);
        return {
          accepted: true,
          text: [
            `You joined ${view.name}${powers.length > 0 ? ` as ${powers.join(" and ")}` : ""}.`,
            `Your secret for its mail: ${account.secret} (the line "Secret: ${account.secret}" in every mail).${mailInfo}`,
            ...(link ? [`The game on the web: ${link}`] : []),
          ].join("\n"),
        };
      }
      case "CREATE": {
        const [abbr, rules] = c.args;
        if (!abbr)
          return refuse("no abbreviation", '"CREATE SED houserules", the abbreviation first');
        const field = (name: string) =>
          new RegExp(`^\\s*${name}\\s*:\\s*(.+)$`, "im").exec(body)?.[1]?.trim();
        // The abbreviation is the game's id from its creation: a taken one creates nothing.
        const game = await judge.createGame(user, {
          name: field("name") ?? abbr,
          rules: rules ?? "houserules",
          label: abbr,
        });
        const address = field("address") ?? mail.to[0] ?? "";
        await configureMailGame(judge, user, game.id, { abbreviation: abbr, address });
        const codes = (game.invites ?? []).map((i) => {
          const link = inviteLink(judge.publicUrl, i.code);
          return `  ${i.role}: ${i.code}${link ? `  (or on the web: ${link})` : ""}`;
        });
        return {
          accepted: true,
          text: [
            `Game ${abbr.toUpperCase()} ("${game.name}") is created; you are its game master.`,
            `Its orders go To ${address}. The invitation codes (players send "JOIN <code>"):`,
            ...codes,
            `When the seats are taken, send "START ${abbr.toUpperCase()}".`,
          ].join("\n"),
        };
      }
      default: {
        const abbr = c.args[0];
        const gameId = await gameIdOf(abbr);
        if (!gameId) {
          return refuse(
            abbr ? `no game here has the abbreviation "${abbr}"` : "no game named",
            `"${c.command} <ABBR>", with the game's abbreviation`,
          );
        }
        switch (c.command) {
          case "START":
            await judge.start(user, gameId);
            return { accepted: true, text: `Game ${abbr!.toUpperCase()} has started.` };
          case "PAUSE":
            await judge.pause(user, gameId);
            return { accepted: true, text: `Game ${abbr!.toUpperCase()} is paused.` };
          case "RESUME":
            await judge.resume(user, gameId);
            return { accepted: true, text: `Game ${abbr!.toUpperCase()} is running again.` };
          case "EXTEND": {
            const hours = Number(c.args[1]);
            if (!Number.isFinite(hours) || hours <= 0) {
              return refuse(
                `"${c.args[1] ?? ""}" is not a number of hours`,
                `"EXTEND ${abbr} 24" to move the deadline a day later`,
              );
            }
            await judge.setDeadline(user, gameId, { extendMinutes: Math.round(hours * 60) });
            return {
              accepted: true,
              text: `The deadline of ${abbr!.toUpperCase()} is ${hours} hours later.`,
            };
          }
          case "PROCESS":
            await judge.setDeadline(user, gameId, { at: new Date(judge.now()).toISOString() });
            return {
              accepted: true,
              text: `The phase of ${abbr!.toUpperCase()} is adjudicated now; the results follow by mail.`,
            };
          case "REPLACE": {
            const power = (c.args[1] ?? "").toLowerCase();
            const view = await judge.gameView(user, gameId);
            const seat = view.seatList.find(
              (s) => s.powers.includes(power) || s.name.toLowerCase() === power,
            );
            if (!seat) {
              return refuse(
                `"${c.args[1] ?? ""}" is no power of ${abbr}`,
                `"REPLACE ${abbr} <power>", one of ${view.seatList.map((s) => s.name).join(", ")}`,
              );
            }
            const r = await judge.replacePlayer(user, gameId, {
              seat: seat.index,
              ...(c.args[2] ? { user: c.args[2] } : {}),
            });
            return {
              accepted: true,
              text: `${seat.name}'s seat in ${abbr!.toUpperCase()} is ${c.args[2] ? `given to ${c.args[2]}` : "open for a replacement"}.${r.invite ? ` Invitation code for the replacement: ${r.invite}${judge.publicUrl ? ` (on the web: ${inviteLink(judge.publicUrl, r.invite)})` : ""}` : ""}`,
            };
          }
          default:
            return refuse("the command is not known", HELP_TEXT);
        }
      }
    }
  } catch (e) {
    if (e instanceof JudgeError) {
      return refuse(`${e.message}.`, `the command corrected; "HELP" lists them all`);
    }
    throw e;
  }
}
