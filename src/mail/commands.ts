import { bots } from "../bots/index.ts";
import { familyBots } from "../judge/bot-list.ts";
import { drawPossibleFrom } from "../judge/endings.ts";
import { JudgeError } from "../judge/errors.ts";
import type { Judge, User } from "../judge/judge.ts";
import { gameLink, inviteLink } from "../judge/links.ts";
import { configureMailGame, normalAddress, sameSecret, setMailAddress } from "../judge/mail.ts";
import { DEFAULT_OPTIONS } from "../judge/options.ts";
import { randomId } from "../judge/password.ts";
import { gameIds, getGame } from "../variants/registry.ts";
import { defaultDialects } from "./dialects.ts";
import { type CommandAnswer, GM_COMMANDS, refuse } from "./gm-commands.ts";
import { gameByAbbr, loadMailGame, takeSecret } from "./identity.ts";
import type { IncomingMail } from "./message.ts";

/*
 * The judge's commands by mail: everything a player or a GM does outside a game's orders,
 * press and votes, so that a game can be run entirely by mail (the web page stays an option).
 * The subject is the command; the body carries the `Secret:` line (except for HELP and
 * REGISTER) and the command's details. Each command calls the Judge's own public methods, so
 * every rule of the API applies and its refusals are the reply. The GM's corrections (CORRECT,
 * REMOVE, RELOCATE, APPROVE/REFUSE ... PRESS) are read in gm-commands.ts.
 *
 *   HELP                          this list
 *   REGISTER [name]               an account for the sender's address; the secret is mailed back
 *   JOIN <code> [power]           join a game with its invitation code
 *   CREATE <ABBR> [rules]         (GM) a game played by mail; body lines `Name:`, `Address:`
 *   START|PAUSE|RESUME <ABBR>     (GM) start, pause or resume the game
 *   EXTEND <ABBR> <hours>         (GM) move the deadline later
 *   PROCESS <ABBR>                (GM) adjudicate now: the deadline is set to now
 *   REPLACE <ABBR> <power> [user] (GM) empty a seat, for a replacement (or give it to a user)
 *   BOT <ABBR> <power> [bot|OFF]  (GM) a built-in player plays a free seat, or leaves it
 *   CORRECT <ABBR> [power]        (GM) correct the last adjudication (seed 002 VIII(1))
 *   REMOVE <ABBR> <power> <how>   (GM) remove an extra unit (VIII(2)), by the house rule
 *   RELOCATE <ABBR> <power> <unit> <province|DISBAND>
 *                                 (GM) a misplaced unit put where it should stand (VIII(3))
 *   WARN|DRAW <ABBR>              (GM) warn of, then declare, a draw of all survivors (IX(2) A)
 *   REFUSE <ABBR> <proposal>      (GM) refuse to put a proposal to the vote (IX(5))
 *   APPROVE <ABBR> PRESS <n>      (GM) publish held press n (the option press.review, X(1))
 *   REFUSE <ABBR> PRESS <n>       (GM) refuse to publish it; the reason goes to its author
 */

/**
 * The commands as HELP lists them, each a usage (its first word is the command) and its lines;
 * the one list of the commands a subject may name.
 */
const COMMAND_HELP = [
  ["HELP", "this list"],
  ["REGISTER [name]", "an account for your address; the reply brings your secret"],
  ["JOIN <code> [power]", "join a game with its invitation code"],
  [
    "CREATE <ABBR> [rules]",
    "(GM) a new game played by mail (rules: houserules, datc,",
    "global, or discovery with a player count); body lines",
    '"Name: <the game\'s name>" and "Address: <its address>";',
    '"Press review: yes": you approve each player\'s press',
  ],
  ["START <ABBR>", "(GM) start the game"],
  ["PAUSE <ABBR>", "(GM) pause it"],
  ["RESUME <ABBR>", "(GM) resume it"],
  ["EXTEND <ABBR> <hours>", "(GM) move the deadline later"],
  ["PROCESS <ABBR>", "(GM) adjudicate the phase now"],
  ["REPLACE <ABBR> <power> [user]", "(GM) empty a power's seat for a replacement"],
  [
    "BOT <ABBR> <power> [bot|OFF]",
    "(GM) a built-in player plays a seat nobody holds (the",
    `strongest, or one of ${bots.map((b) => b.id).join(", ")}; in Global`,
    `Diplomacy and Age of Discovery ${familyBots.map((b) => b.id).join(" or ")}); OFF takes it off`,
  ],
  [
    "CORRECT <ABBR> [power] [phase]",
    "(GM) correct the last adjudication: body lines",
    '"Reason: <why>", then "<Power>:" and its orders',
  ],
  [
    "REMOVE <ABBR> <power> <how> [phase]",
    "(GM) remove an extra unit; <how> is BUILT (too many",
    "built: the excess-builds rule names it), NOT-REMOVED",
    "(too few removed: the civil-disorder rule names it), or",
    "the unit your own error put there (A par); [phase]: the",
    "one that brought it, if not the record's. One from the",
    "last adjudication is CORRECTed instead (VIII(1))",
  ],
  [
    "RELOCATE <ABBR> <power> <unit> <province>",
    "(GM) put a unit an erroneous adjudication misplaced",
    "where it should stand (A bur PAR), or DISBAND it",
  ],
  ["WARN <ABBR>", "(GM) warn that a draw of all survivors may be declared"],
  ["DRAW <ABBR>", "(GM) declare it, once the warning period has passed"],
  [
    "REFUSE <ABBR> <number>",
    "(GM) refuse to put a proposal to the vote; body line",
    '"Reason: <why>", mailed to the proposer',
  ],
  ["APPROVE <ABBR> PRESS <n>", "(GM) publish held press n (where press is reviewed)"],
  [
    "REFUSE <ABBR> PRESS <n>",
    '(GM) refuse to publish it; body line "Reason: <why>",',
    "mailed to its author alone",
  ],
] as const;

/** A usage's first word: the command it names ("START" of "START <ABBR>"). */
type FirstWord<S extends string> = S extends `${infer W} ${string}` ? W : S;
type Command = FirstWord<(typeof COMMAND_HELP)[number][0]>;
const COMMANDS: ReadonlySet<string> = new Set(COMMAND_HELP.map(([usage]) => usage.split(" ")[0]!));

/** A usage and its lines as HELP writes them: the lines in a column, a long usage on its own. */
const helpEntry = ([usage, ...text]: readonly string[]): string[] => {
  const column = " ".repeat(33);
  const first =
    usage!.length > 30
      ? [`  ${usage}`, `${column}${text[0]}`]
      : [`  ${usage!.padEnd(31)}${text[0]}`];
  return [...first, ...text.slice(1).map((line) => `${column}${line}`)];
};

export const HELP_TEXT = [
  "The judge's commands by mail: the subject is the command, the body has your secret line",
  '("Secret: ..."; not for HELP and REGISTER). docs/email.md explains each.',
  "",
  ...COMMAND_HELP.flatMap(helpEntry),
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
  if (!COMMANDS.has(first)) return null;
  return { command: first, args: words.slice(1) };
}

/**
 * Games one user may create by mail in a day: the server's quota (`gamesPerUser` in
 * src/server/limits.ts) for the mail path, counted in the store, so that every process and
 * every mail counts (docs/reliability.md).
 */
export const MAIL_GAMES_PER_USER = { max: 20, windowMs: 24 * 3_600_000 } as const;

/** Refuses when the user has created the day's most games; the refusal says until when. */
async function gamesQuota(judge: Judge, user: User): Promise<CommandAnswer | null> {
  const since = judge.now() - MAIL_GAMES_PER_USER.windowMs;
  const rows = await judge.store.db
    .selectFrom("games")
    .select("created_at")
    .where("created_by", "=", user.id)
    .where("created_at", ">", since)
    .orderBy("created_at")
    .limit(MAIL_GAMES_PER_USER.max)
    .execute();
  if (rows.length < MAIL_GAMES_PER_USER.max) return null;
  const free = new Date(Number(rows[0]!.created_at) + MAIL_GAMES_PER_USER.windowMs);
  return refuse(
    `you have created ${MAIL_GAMES_PER_USER.max} games in the last 24 hours, the most one user may create`,
    `the same mail after ${free.toISOString()}, or run one of the games you have`,
  );
}

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
      const reg = await judge.accounts.register(name, randomId(24));
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
        const view = await judge.games.acceptInvite(user, code, power ? { power } : {});
        // How to send orders, in the words (and the subject) of the game's own dialect.
        const row = await judge.store.db
          .selectFrom("mail_games")
          .selectAll()
          .where("game_id", "=", view.id)
          .executeTakeFirst();
        const powers = view.you?.powers ?? [];
        let mailInfo = "";
        if (row && powers[0]) {
          const game = await loadMailGame(judge, row);
          const voice = defaultDialects().find((d) => d.voice.serves(game))?.voice;
          if (voice) mailInfo = `\n${voice.howToOrder(game, powers[0])}`;
        }
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
        const quota = await gamesQuota(judge, user);
        if (quota) return quota;
        const field = (name: string) =>
          new RegExp(`^\\s*${name}\\s*:\\s*(.+)$`, "im").exec(body)?.[1]?.trim();
        // The abbreviation is the game's id from its creation: a taken one creates nothing.
        // The second word is a rule profile (houserules, datc), or a game family of its own
        // (global: Global Diplomacy; discovery: Age of Discovery, whose player count follows).
        const family = rules ? getGame(rules.toLowerCase()) : undefined;
        const count = c.args[2] ?? field("players");
        if (count !== undefined && (!family || !/^\d+$/.test(count)))
          return refuse(
            `"${count}" is not understood after "${rules ?? ""}"`,
            `"CREATE ${abbr} discovery 12" (a player count only for a game family that has a choice), or "CREATE ${abbr} ${rules ?? "houserules"}"`,
          );
        // "Press review: yes": the GM reviews press before it goes out (seed 002 X(1)).
        const review = field("press review");
        if (review !== undefined && !/^(yes|on|no|off)$/i.test(review))
          return refuse(
            `"Press review: ${review}" is neither yes nor no`,
            '"Press review: yes" to approve or refuse each player\'s press before it goes out, or no line (press goes out at once)',
          );
        // "DAIDE: England, France": seats kept for DAIDE clients (docs/daide.md).
        const daideLine = field("daide");
        const daide = daideLine
          ?.split(/[,;]/)
          .map((w) => w.trim())
          .filter((w) => w !== "");
        const options =
          review === undefined
            ? {}
            : { options: { press: { review: /^(yes|on)$/i.test(review) } } };
        let game: Awaited<ReturnType<Judge["games"]["createGame"]>>;
        try {
          game = await judge.games.createGame(
            user,
            family
              ? {
                  name: field("name") ?? abbr,
                  variant: family.id,
                  label: abbr,
                  ...(count ? { players: Number(count) } : {}),
                  ...(daide && daide.length > 0 ? { daide } : {}),
                  ...options,
                }
              : {
                  name: field("name") ?? abbr,
                  rules: rules ?? "houserules",
                  label: abbr,
                  ...(daide && daide.length > 0 ? { daide } : {}),
                  ...options,
                },
          );
        } catch (e) {
          if (!(e instanceof JudgeError) || !/rule profile/i.test(e.message)) throw e;
          return refuse(
            `${e.message}.`,
            `"CREATE ${abbr} houserules" (seed 002's house rules), "CREATE ${abbr} datc", or a game of its own family: ${gameIds()
              .map((id) => `"CREATE ${abbr} ${id}" (${getGame(id)!.name})`)
              .join(
                ", ",
              )}; Age of Discovery takes a player count after it ("CREATE ${abbr} discovery 12")`,
          );
        }
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
            ...(game.daide?.port
              ? [
                  `Seats kept for DAIDE clients (${game.seatList
                    .filter((s) => s.daide)
                    .map((s) => s.name)
                    .join(", ")}): they connect to this judge's port ${game.daide.port}.`,
                ]
              : []),
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
            await judge.games.start(user, gameId);
            return { accepted: true, text: `Game ${abbr!.toUpperCase()} has started.` };
          case "PAUSE":
            await judge.gm.pause(user, gameId);
            return { accepted: true, text: `Game ${abbr!.toUpperCase()} is paused.` };
          case "RESUME":
            await judge.gm.resume(user, gameId);
            return { accepted: true, text: `Game ${abbr!.toUpperCase()} is running again.` };
          case "EXTEND": {
            const hours = Number(c.args[1]);
            if (!Number.isFinite(hours) || hours <= 0) {
              return refuse(
                `"${c.args[1] ?? ""}" is not a number of hours`,
                `"EXTEND ${abbr} 24" to move the deadline a day later`,
              );
            }
            await judge.gm.setDeadline(user, gameId, { extendMinutes: Math.round(hours * 60) });
            return {
              accepted: true,
              text: `The deadline of ${abbr!.toUpperCase()} is ${hours} hours later.`,
            };
          }
          case "PROCESS":
            await judge.gm.setDeadline(user, gameId, { at: new Date(judge.now()).toISOString() });
            return {
              accepted: true,
              text: `The phase of ${abbr!.toUpperCase()} is adjudicated now; the results follow by mail.`,
            };
          case "REPLACE": {
            const power = (c.args[1] ?? "").toLowerCase();
            const view = await judge.views.gameView(user, gameId);
            const seat = view.seatList.find(
              (s) => s.powers.includes(power) || s.name.toLowerCase() === power,
            );
            if (!seat) {
              return refuse(
                `"${c.args[1] ?? ""}" is no power of ${abbr}`,
                `"REPLACE ${abbr} <power>", one of ${view.seatList.map((s) => s.name).join(", ")}`,
              );
            }
            const r = await judge.gm.replacePlayer(user, gameId, {
              seat: seat.index,
              ...(c.args[2] ? { user: c.args[2] } : {}),
            });
            return {
              accepted: true,
              text: `${seat.name}'s seat in ${abbr!.toUpperCase()} is ${c.args[2] ? `given to ${c.args[2]}` : "open for a replacement"}.${r.invite ? ` Invitation code for the replacement: ${r.invite}${judge.publicUrl ? ` (on the web: ${inviteLink(judge.publicUrl, r.invite)})` : ""}` : ""}`,
            };
          }
          case "BOT": {
            const word = c.args[1] ?? "";
            const choice = c.args[2] ?? "default";
            const r = await judge.bots.setBot(user, gameId, {
              power: word,
              bot: choice.toUpperCase() === "OFF" ? null : choice.toLowerCase(),
            });
            return {
              accepted: true,
              text: r.bot.bot
                ? `${r.bot.seatName} in ${abbr!.toUpperCase()} is played by the built-in player ${r.bot.bot}: it sends its orders as each phase opens, until a player takes the seat (JOIN with an invitation for it, or REPLACE ${abbr!.toUpperCase()} ${r.bot.seatName} <user>).`
                : `The built-in player left ${r.bot.seatName} in ${abbr!.toUpperCase()}: the seat is free (in civil disorder until a player takes it).`,
            };
          }
          case "CORRECT":
          case "REMOVE":
          case "RELOCATE":
          case "APPROVE":
          case "REFUSE":
            return await GM_COMMANDS[c.command]({
              judge,
              user,
              gameId,
              abbr: abbr!.toUpperCase(),
              command: c.command,
              words: c.args.slice(1),
              body,
            });
          case "WARN": {
            const view = await judge.endings.declareDraw(user, gameId, { warn: true });
            const years = view.options.drawWarningYears ?? DEFAULT_OPTIONS.drawWarningYears;
            return {
              accepted: true,
              text: [
                `The players of ${abbr!.toUpperCase()} are warned that a draw of all survivors may be declared (seed 002 IX(2)).`,
                `If no supply centre changes hands before ${drawPossibleFrom(view.phase ?? "", years)} (${years} game year(s)), send "DRAW ${abbr!.toUpperCase()}" then.`,
              ].join("\n"),
            };
          }
          case "DRAW": {
            const view = await judge.endings.declareDraw(user, gameId, { warn: false });
            const powers = (view.result as { powers?: string[] } | null)?.powers ?? [];
            return {
              accepted: true,
              text: `Game ${abbr!.toUpperCase()} is over: you declared a draw of all survivors (${powers.join(", ")}). Every player is told.`,
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
