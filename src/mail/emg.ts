import { describePhase } from "../engine/phase.ts";
import { writePosition } from "../engine/position-json.ts";
import type { Position, PowerId } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import { JudgeError } from "../judge/errors.ts";
import { type GameData, loadGame } from "../judge/game-data.ts";
import type { Judge } from "../judge/judge.ts";
import { sameSecret } from "../judge/mail.ts";
import type { HandleResult, MailContext, MailDialect } from "./gateway.ts";
import { gameByAbbr, type MailGameRow, type Player, playersOf } from "./identity.ts";
import type { IncomingMail, OutgoingMail } from "./message.ts";

/*
 * Global Diplomacy's mail (seed 004 §9.0): the subject `EMGTURN` hands in a turn, `EMGREPORT`
 * asks for the player's current report. The body: a line `EMGSTART`, the account id, the game
 * id, then (for a turn) one command per line, and `EMGEND`; spacing and indentation do not
 * matter. Each new set of commands overwrites the last. The answer says whether the commands
 * were accepted, or which of the account id and the game id is invalid.
 *
 * Here the game id is the game's mail abbreviation and the account id is the player's mail
 * secret (docs/email.md); the mail must also come from the player's registered address. What
 * a command means is the variant's business: it supplies `EmgRules` (a validation callback and,
 * optionally, its per-player report), registered by variant id.
 */

export interface EmgCommandCheck {
  /** The command as written. */
  readonly command: string;
  readonly ok: boolean;
  /** Why it is not valid, and how to write it. */
  readonly message?: string;
}

export interface EmgGame {
  readonly variant: Variant;
  readonly position: Position;
  /** The power the commands are for. */
  readonly power: PowerId;
}

/** What a variant played with EMG mail supplies. */
export interface EmgRules {
  /** A verdict per command, in order. A turn is stored only when every command is valid. */
  validate(commands: readonly string[], game: EmgGame): readonly EmgCommandCheck[];
  /** The player's report (EMGREPORT and after each turn); default: units and commands on file. */
  report?(game: EmgGame, commandsOnFile: readonly string[]): string;
}

const registry = new Map<string, EmgRules>();

/** Makes a variant's games take EMG mail. */
export function registerEmgRules(variantId: string, rules: EmgRules): void {
  registry.set(variantId, rules);
}

export function emgRulesFor(variantId: string): EmgRules | null {
  return registry.get(variantId) ?? null;
}

interface Envelope {
  readonly account: string;
  readonly game: string;
  readonly commands: readonly string[];
}

/** Reads the EMGSTART ... EMGEND envelope, or says what is wrong with it. */
export function readEnvelope(text: string): Envelope | { error: string } {
  const lines = text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const start = lines.findIndex((l) => /^emgstart$/i.test(l));
  if (start === -1) return { error: "there is no line EMGSTART" };
  const end = lines.findIndex((l, i) => i > start && /^emgend$/i.test(l));
  if (end === -1) return { error: "there is no line EMGEND after EMGSTART" };
  const inner = lines.slice(start + 1, end);
  if (inner.length < 1) return { error: "the account id is missing (the line after EMGSTART)" };
  if (inner.length < 2) return { error: "the game id is missing (the second line after EMGSTART)" };
  return { account: inner[0]!, game: inner[1]!, commands: inner.slice(2) };
}

/** How an EMG mail is written: the tail of every refusal. */
export const EMG_FORMAT = [
  "Write it like this (spacing and indentation do not matter):",
  "",
  "    Subject: EMGTURN",
  "",
  "    EMGSTART",
  "      <your account id>",
  "      <the game id>",
  "      <one command per line>",
  "    EMGEND",
  "",
  "Subject EMGREPORT with EMGSTART, account id, game id and EMGEND asks for your report.",
].join("\n");

export class EmgDialect implements MailDialect {
  readonly name = "emg";

  constructor(private readonly rulesFor: (variantId: string) => EmgRules | null = emgRulesFor) {}

  claims(mail: IncomingMail): boolean {
    return /^\s*(?:(?:re|fwd?)\s*:\s*)*emg(?:turn|report)\s*$/i.test(mail.subject);
  }

  async handle(mail: IncomingMail, ctx: MailContext): Promise<HandleResult> {
    const { judge } = ctx;
    const turn = /emgturn/i.test(mail.subject);
    const env = readEnvelope(mail.text);
    if ("error" in env)
      return this.answer(mail, null, false, `Not accepted: ${env.error}.\n\n${EMG_FORMAT}`);
    const game = await gameByAbbr(judge, env.game);
    const g = game ? await loadGame(judge.store.db, game.game_id) : null;
    const player = g ? await this.account(judge, g, mail.from, env.account) : null;
    if (!game || !g || !player) {
      const bad = [
        ...(player || (g && (await this.anyAccount(judge, g, env.account)))
          ? []
          : [`the account id "${env.account}" is invalid`]),
        ...(game ? [] : [`the game id "${env.game}" is invalid`]),
      ];
      if (bad.length === 0)
        bad.push(`the account id "${env.account}" is invalid for mail from ${mail.from}`);
      return this.answer(
        mail,
        game,
        false,
        `Not accepted: ${bad.join(", and ")}.\n\nThe account id is your mail secret; the game id is the game's abbreviation; mail must come from your registered address.`,
      );
    }
    const rules = this.rulesFor(g.game.variant);
    if (!rules) {
      return this.answer(
        mail,
        game,
        false,
        `Not accepted: game ${game.abbr} (${g.scenario.variant.name}) does not take EMG commands; write to it as docs/email.md says.`,
      );
    }
    const power = player.powers[0]!;
    const emgGame: EmgGame = { variant: g.scenario.variant, position: g.position, power };
    if (!turn) {
      const report = await this.report(judge, g, player, rules, emgGame);
      return {
        accepted: true,
        dialect: this.name,
        replies: [this.mail(mail, game, report, "report")],
      };
    }
    const checks = rules.validate(env.commands, emgGame);
    const invalid = checks.filter((c) => !c.ok);
    if (invalid.length > 0) {
      return this.answer(
        mail,
        game,
        false,
        [
          `Not accepted: ${invalid.length} of ${env.commands.length} commands are invalid; your previous commands stay on file.`,
          "",
          ...checks.map(
            (c) =>
              `  ${c.command}  -> ${c.ok ? "ok" : `INVALID: ${c.message ?? "not understood"}`}`,
          ),
        ].join("\n"),
      );
    }
    try {
      await judge.submitOrders(player.user, g.game.id, { power, orders: [...env.commands] });
    } catch (e) {
      if (e instanceof JudgeError)
        return this.answer(mail, game, false, `Not accepted: ${e.message}.`);
      throw e;
    }
    const report = await this.report(judge, g, player, rules, emgGame);
    return this.answer(
      mail,
      game,
      true,
      [
        `Accepted: ${env.commands.length} command${env.commands.length === 1 ? "" : "s"} for game ${game.abbr}; they replace any sent before.`,
        "",
        ...env.commands.map((c) => `  ${c}`),
        "",
        report,
      ].join("\n"),
    );
  }

  /** The player whose secret is the account id and whose address sent the mail. */
  private async account(
    judge: Judge,
    g: GameData,
    from: string,
    account: string,
  ): Promise<Player | null> {
    return (
      (await playersOf(judge, g)).find(
        (p) => p.address === from && p.secret !== null && sameSecret(p.secret, account),
      ) ?? null
    );
  }

  private async anyAccount(judge: Judge, g: GameData, account: string): Promise<boolean> {
    return (await playersOf(judge, g)).some(
      (p) => p.secret !== null && sameSecret(p.secret, account),
    );
  }

  private async report(
    judge: Judge,
    g: GameData,
    player: Player,
    rules: EmgRules,
    game: EmgGame,
  ): Promise<string> {
    const current = await judge.currentOrders(player.user, g.game.id);
    const onFile = current.sets.find((s) => s.power === game.power)?.orders ?? [];
    if (rules.report) return rules.report(game, onFile);
    const pos = writePosition(game.variant, g.position);
    const view = await judge.gameView(player.user, g.game.id);
    return [
      `Report for ${game.variant.powers.find((p) => p.id === game.power)?.name ?? game.power}, ${describePhase(g.position.phase)}${view.deadline ? `, deadline ${view.deadline}` : ""}:`,
      `  units: ${(pos.units[game.power] ?? []).join(", ") || "none"}`,
      `  centres: ${(pos.centers?.[game.power] ?? []).join(", ") || "none"}`,
      "Commands on file:",
      ...(onFile.length > 0 ? onFile.map((c) => `  ${c}`) : ["  none"]),
    ].join("\n");
  }

  private mail(
    mail: IncomingMail,
    game: MailGameRow | null,
    text: string,
    kind: string,
  ): OutgoingMail {
    return {
      from: game?.address ?? null,
      to: mail.from,
      subject: `Re: ${mail.subject}`,
      text: `${text.trimEnd()}\n`,
      gameId: game?.game_id ?? null,
      kind,
      inReplyTo: mail.messageId,
    };
  }

  private answer(
    mail: IncomingMail,
    game: MailGameRow | null,
    accepted: boolean,
    text: string,
  ): HandleResult {
    return { accepted, dialect: this.name, replies: [this.mail(mail, game, text, "reply")] };
  }
}
