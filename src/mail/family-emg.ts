import { JudgeError } from "../judge/errors.ts";
import { type FamilyGame, isFamilyGame, loadFamilyGame } from "../judge/family.ts";
import type { Judge, User } from "../judge/judge.ts";
import { sameSecret } from "../judge/mail.ts";
import { EMG_FORMAT, EmgDialect, readEnvelope } from "./emg.ts";
import type { HandleResult, MailContext, MailDialect } from "./gateway.ts";
import { gameByAbbr, type MailGameRow } from "./identity.ts";
import type { IncomingMail, OutgoingMail } from "./message.ts";
import type { Postman } from "./postman.ts";

/*
 * Global Diplomacy's own mail (seed 004 §9.0) for the judge's games of another family
 * (src/judge/family.ts): EMGTURN hands in a turn, EMGREPORT asks for the player's report,
 * both in the EMGSTART / account id / game id / ... / EMGEND envelope that emg.ts reads.
 * The account id is the player's mail secret, the game id the game's mail abbreviation, and
 * the mail must come from the player's registered address (docs/email.md).
 *
 * Commands are read line by line with the family's reader (`readCommandSet` for global; for
 * discovery the same after each player's own XXYY spy targets are turned into area ids); as
 * for every EMG game, a set is stored only when every command is valid, and then it replaces
 * the last one whole. EMGREPORT answers with the player's own report of the last turn (the
 * opening report before the first), as the judge serves it at /api/games/{id}/report: only
 * what that power may see. Mail for games that are not of a family goes to `fallback`
 * (the EMG dialect for variant games), so this dialect is registered in its place.
 */

/** A family game's seated players with their mail identities (address, secret), if any. */
async function familyPlayers(judge: Judge, g: FamilyGame) {
  const seated = g.members.filter((m) => m.role === "player" && m.seat !== null);
  const ids = seated.map((m) => m.user_id);
  if (ids.length === 0) return [];
  const rows = await judge.store.db
    .selectFrom("mail_users")
    .innerJoin("users", "users.id", "mail_users.user_id")
    .select(["users.id", "users.name", "mail_users.address", "mail_users.secret"])
    .where("mail_users.user_id", "in", ids)
    .execute();
  return rows.map((r) => {
    const seat = seated.find((m) => m.user_id === r.id)!.seat!;
    const power = g.seats[seat]!;
    return {
      user: { id: r.id, name: r.name } as User,
      power: String(power.powers[0]!),
      powerName: power.name,
      address: r.address,
      secret: r.secret,
    };
  });
}

export class FamilyEmgDialect implements MailDialect {
  readonly name = "emg";

  constructor(private readonly fallback: MailDialect = new EmgDialect()) {}

  claims(mail: IncomingMail): boolean {
    return this.fallback.claims(mail);
  }

  async handle(mail: IncomingMail, ctx: MailContext): Promise<HandleResult> {
    const { judge } = ctx;
    const db = judge.store.db;
    const env = readEnvelope(mail.text);
    if ("error" in env) return this.fallback.handle(mail, ctx);
    const game = await gameByAbbr(judge, env.game);
    if (!game || !(await isFamilyGame(db, game.game_id))) return this.fallback.handle(mail, ctx);
    const g = await loadFamilyGame(db, game.game_id);
    const identities = await familyPlayers(judge, g);
    const mine = identities.find(
      (i) => i.address === mail.from && sameSecret(i.secret, env.account),
    );
    if (!mine) {
      const someone = identities.some((i) => sameSecret(i.secret, env.account));
      return this.answer(
        mail,
        game,
        false,
        `Not accepted: the account id "${env.account}" is invalid${someone ? ` for mail from ${mail.from}` : ""}.\n\nThe account id is your mail secret; the game id is the game's abbreviation; mail must come from your registered address.`,
      );
    }
    const { user, power } = mine;
    if (!/emgturn/i.test(mail.subject)) {
      const r = await judge.report(user, g.game.id, {});
      return {
        accepted: true,
        dialect: this.name,
        replies: [this.mail(mail, game, r.report, "report")],
      };
    }
    const checks = g.rules.check(g.position, power, env.commands);
    const invalid = checks.filter((c) => !c.ok);
    if (invalid.length > 0) {
      return this.answer(
        mail,
        game,
        false,
        [
          `Not accepted: ${invalid.length} of ${env.commands.length} commands are invalid; your previous commands stay on file.`,
          "",
          ...checks.map((c) => `  ${c.text}  -> ${c.ok ? "ok" : `INVALID: ${c.reason}`}`),
          "",
          EMG_FORMAT,
        ].join("\n"),
      );
    }
    try {
      await judge.submitOrders(user, g.game.id, { orders: [...env.commands] });
    } catch (e) {
      if (e instanceof JudgeError)
        return this.answer(mail, game, false, `Not accepted: ${e.message}.`);
      throw e;
    }
    const onFile = await judge.currentOrders(user, g.game.id);
    return this.answer(
      mail,
      game,
      true,
      [
        `Accepted: ${env.commands.length} command${env.commands.length === 1 ? "" : "s"} for game ${game.abbr}, turn ${onFile.phase}; they replace any sent before.`,
        "",
        ...env.commands.map((c) => `  ${c}`),
      ].join("\n"),
    );
  }

  private mail(mail: IncomingMail, game: MailGameRow, text: string, kind: string): OutgoingMail {
    return {
      from: game.address,
      to: mail.from,
      subject: `Re: ${mail.subject}`,
      text: `${text.trimEnd()}\n`,
      gameId: game.game_id,
      kind,
      inReplyTo: mail.messageId,
    };
  }

  private answer(
    mail: IncomingMail,
    game: MailGameRow,
    accepted: boolean,
    text: string,
  ): HandleResult {
    return { accepted, dialect: this.name, replies: [this.mail(mail, game, text, "reply")] };
  }
}

const when = (iso: string | null | undefined) =>
  iso ? iso.replace(/:\d\d\.\d{3}Z$/, " UTC").replace("T", " ") : "none";

/**
 * What the judge mails by itself for a family game played by mail (the notifier's part for
 * these games): at the start, each player's opening report; after each turn, each player's
 * own report of it (seed 004 §8: only what that power may see) and the next deadline; the GM,
 * with a registered address, a notice without anybody's commands. Claimed and queued in one
 * transaction on the game's last mailed event, as the notifier does for other games (each
 * mail goes out once). Returns the mails queued.
 */
export async function mailFamilyGame(
  judge: Judge,
  postman: Postman,
  game: MailGameRow,
): Promise<number> {
  const db = judge.store.db;
  const events = await judge.rawEvents(game.game_id, Number(game.last_event));
  if (events.length === 0) return 0;
  const g = await loadFamilyGame(db, game.game_id);
  const players = await familyPlayers(judge, g);
  const gmMember = g.members.find((m) => m.role === "gm");
  const gm = gmMember
    ? await db
        .selectFrom("mail_users")
        .select(["address"])
        .where("user_id", "=", gmMember.user_id)
        .executeTakeFirst()
    : undefined;
  const out = (to: string, subject: string, text: string, kind: string): OutgoingMail => ({
    from: game.address,
    to,
    subject: `${game.abbr}: ${subject}`,
    text: `${text.trimEnd()}\n\n-- \nEntente judge, game ${game.abbr}. Commands: subject EMGTURN To ${game.address}, EMGSTART, your account id, ${game.abbr}, one command per line, EMGEND (docs/${g.head.family}.md).\n`,
    gameId: game.game_id,
    kind,
  });
  const mails: OutgoingMail[] = [];
  for (const e of events) {
    const d = (e.data ?? {}) as {
      index?: number;
      phase?: string;
      next?: string | null;
      deadline?: string | null;
      winners?: string[];
    };
    if (e.kind === "started") {
      for (const p of players) {
        const r = await judge.report(p.user, g.game.id, {});
        mails.push(
          out(
            p.address,
            `the game has started: turn ${d.phase ?? ""}`,
            [
              `Game ${game.abbr} has started. You play ${p.power}-${p.powerName}.`,
              `Commands for ${d.phase ?? ""} are due by ${when(d.deadline)}.`,
              "",
              r.report,
            ].join("\n"),
            "started",
          ),
        );
      }
      if (gm)
        mails.push(
          out(gm.address, "the game has started", `Game ${game.abbr} has started.`, "started"),
        );
    } else if (e.kind === "phase_resolved") {
      const turn = g.turns[d.index ?? -1];
      if (!turn) continue;
      const next = d.winners
        ? `The game is over: won by ${d.winners.join(", ")}.`
        : `Next: turn ${d.next ?? ""}, commands due by ${when(d.deadline)}.`;
      for (const p of players) {
        mails.push(
          out(
            p.address,
            `report of turn ${turn.turn}`,
            [turn.reports[p.power] ?? "", "", next].join("\n"),
            "results",
          ),
        );
      }
      if (gm)
        mails.push(
          out(
            gm.address,
            `turn ${turn.turn} adjudicated`,
            `Turn ${turn.turn} of game ${game.abbr} is adjudicated; every power's commands and report are at GET /api/games/${g.game.id}/turns.\n${next}`,
            "results",
          ),
        );
    }
  }
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("mail_games")
      .set({ last_event: events.at(-1)!.id })
      .where("game_id", "=", game.game_id)
      .where("last_event", "=", Number(game.last_event))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return 0;
    if (mails.length > 0) await postman.queue(mails, trx);
    return mails.length;
  });
}
