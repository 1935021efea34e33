import { describePhase } from "../engine/phase.ts";
import { writePosition } from "../engine/position-json.ts";
import type { Position, PowerId } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import type { Judge } from "../judge/judge.ts";
import { gameLink } from "../judge/links.ts";
import {
  type Envelope,
  type Letter,
  type MailDialect,
  type Outcome,
  type Refusal,
  submit,
  type Voice,
} from "./dialect.ts";
import type { AccountGames, MailGame, Player, SenderProblem } from "./identity.ts";
import type { IncomingMail } from "./message.ts";

/*
 * EMG's mail (seed 004 §9.0), the dialect of Global Diplomacy and Age of Discovery games and
 * of any variant that registers `EmgRules`: the subject `EMGTURN` hands in a turn, `EMGREPORT`
 * asks for the player's current report. The body: a line `EMGSTART`, the account id, the game
 * id, then (for a turn) one command per line, and `EMGEND`; spacing and indentation do not
 * matter. A set is stored only when every command is valid, and then it replaces the last one
 * whole. The answer says whether the commands were accepted, or what was invalid.
 *
 * Here the game id is the game's mail abbreviation and the account id is the player's mail
 * secret (docs/email.md); the mail must also come from the player's registered address. The
 * gateway (gateway.ts) does the rest, as for every dialect. What a command means is the
 * game's business: a game family's own reader (through the Judge's `checkOrders`), or a
 * variant's `EmgRules` (a validation callback and, optionally, its per-player report).
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

interface EmgEnvelope {
  readonly account: string;
  readonly game: string;
  readonly commands: readonly string[];
}

/** Reads the EMGSTART ... EMGEND envelope, or says what is wrong with it. */
export function readEnvelope(text: string): EmgEnvelope | { error: string } {
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

/** How an EMG mail is written, for a game named by its id (the tail of every refusal). */
export function emgFormat(gameId = "<the game id>"): string {
  return [
    "Write it like this (spacing and indentation do not matter):",
    "",
    "    Subject: EMGTURN",
    "",
    "    EMGSTART",
    "      <your account id>",
    `      ${gameId}`,
    "      <one command per line>",
    "    EMGEND",
    "",
    `Subject EMGREPORT with EMGSTART, account id, ${gameId} and EMGEND asks for your report.`,
  ].join("\n");
}

/** How an EMG mail is written, before its game is known. */
export const EMG_FORMAT = emgFormat();

const IDS =
  "The account id is your mail secret; the game id is the game's abbreviation; mail must come from your registered address.";

/** The games an account plays by mail, for a mail that named another. */
const playsIn = (a: AccountGames): string =>
  a.games.length === 0
    ? `account ${a.name} plays in no game by mail here (a GM's invitation code joins one: "JOIN <code>").`
    : `account ${a.name} plays ${a.games.map((g) => `${g.abbr} (${g.seat})`).join(", ")}: write that game id on the line after your account id.`;

const listing = (checks: readonly EmgCommandCheck[]) =>
  checks.map(
    (c) => `  ${c.command}  -> ${c.ok ? "ok" : `INVALID: ${c.message ?? "not understood"}`}`,
  );

export class EmgDialect implements MailDialect {
  readonly name = "emg";
  readonly form = "EMG commands";
  readonly toLine = false;

  constructor(private readonly rulesFor: (variantId: string) => EmgRules | null = emgRulesFor) {}

  claims(mail: IncomingMail): boolean {
    return /^\s*(?:(?:re|fwd?)\s*:\s*)*emg(?:turn|report)\s*$/i.test(mail.subject);
  }

  envelope(mail: IncomingMail): Envelope | Refusal {
    const env = readEnvelope(mail.text);
    if ("error" in env) return { problems: [`${env.error}.`], after: EMG_FORMAT };
    return {
      game: env.game,
      request: /emgturn/i.test(mail.subject) ? "orders" : "report",
      secret: env.account,
      body: env.commands.join("\n"),
    };
  }

  /** Games of another family, and variant games whose variant has EmgRules. */
  takes(game: MailGame): boolean {
    return game.data === null || this.rulesFor(game.view.variant) !== null;
  }

  unknownGame(envelope: Envelope, _known: readonly string[], account: AccountGames | null) {
    // A valid account id is not called invalid: the game id is what is wrong.
    if (account)
      return `the game id "${envelope.game}" is invalid: no game here has it. Your account id is valid; ${playsIn(account)}`;
    return `the game id "${envelope.game}" is invalid. ${IDS}`;
  }

  /** EMG names no power and no phase: the account's power, the turn open. */
  names() {
    return { power: null, phase: null };
  }

  sender(
    problem: SenderProblem,
    mail: IncomingMail,
    envelope: Envelope,
    game: MailGame,
    account: AccountGames | null,
  ): string {
    // Mail from an address that plays no power here: the game id is the likelier mistake,
    // and the account id (perhaps valid for the sender's own game) is not called invalid.
    if (problem.kind === "unknown-sender" && account) {
      return `${mail.from} plays no power in game ${game.abbr}: the game id is wrong (the line after your account id). Your account id is valid; ${playsIn(account)}`;
    }
    if (problem.kind === "unknown-sender" && !problem.elsewhere) {
      return `${mail.from} plays no power in game ${game.abbr}: check the game id (the line after your account id); the account id was not checked. ${IDS}`;
    }
    if (problem.kind === "no-secret") return `the account id is missing. ${IDS}`;
    return `the account id "${envelope.secret}" is invalid${problem.elsewhere ? ` for mail from ${mail.from}` : ""}. ${IDS}`;
  }

  async handle(letter: Letter): Promise<Outcome> {
    const { game, envelope } = letter;
    const commands = envelope.body.split("\n").filter((c) => c !== "");
    const rules = game.data ? this.rulesFor(game.view.variant) : null;
    if (envelope.request === "report")
      return { accepted: true, text: await this.report(letter, rules), kind: "report" };
    const { phase, checks } = await this.check(letter, rules, commands);
    const invalid = checks.filter((c) => !c.ok);
    if (invalid.length > 0) {
      return {
        problems: [
          `${invalid.length} of ${commands.length} commands are invalid; your previous commands stay on file.`,
        ],
        after: [...listing(checks), "", emgFormat(game.abbr)].join("\n"),
      };
    }
    // Stored for the turn it was checked against, or refused if that turn has just ended.
    const answer = await submit({ ...letter, phase }, commands);
    if ("problems" in answer) return answer;
    return {
      accepted: true,
      text: [
        `Accepted: ${commands.length} command${commands.length === 1 ? "" : "s"} for game ${game.abbr}, turn ${answer.phase}; they replace any sent before.`,
        "",
        ...commands.map((c) => `  ${c}`),
        "",
        await this.report(letter, rules),
      ].join("\n"),
    };
  }

  /** A verdict per command: the variant's EmgRules, or the game family's own reader. */
  private async check(
    letter: Letter,
    rules: EmgRules | null,
    commands: readonly string[],
  ): Promise<{ phase: string | null; checks: readonly EmgCommandCheck[] }> {
    const { judge, game, player, power } = letter;
    if (rules) {
      return {
        phase: game.view.phase,
        checks: rules.validate(commands, emgGame(game, power)),
      };
    }
    const read = await judge.submissions.checkOrders(player.user, game.id, {
      power,
      orders: commands,
    });
    return {
      phase: read.phase,
      checks: read.diagnostics.map((d) => ({
        command: d.text,
        ok: d.ok,
        ...(d.message ? { message: d.message } : {}),
      })),
    };
  }

  /** The player's report: the family's own (seed 004 §8), the variant's, or a short one. */
  private async report(letter: Letter, rules: EmgRules | null): Promise<string> {
    const { judge, game, player, power } = letter;
    if (!game.data) return ownReport(judge, player, game.id);
    const current = await judge.submissions.currentOrders(player.user, game.id);
    const onFile = current.sets.find((s) => s.power === power)?.orders ?? [];
    const g = emgGame(game, power);
    if (rules?.report) return rules.report(g, onFile);
    const pos = writePosition(g.variant, g.position);
    const view = await judge.views.gameView(player.user, game.id);
    return [
      `Report for ${g.variant.powers.find((p) => p.id === power)?.name ?? power}, ${describePhase(g.position.phase)}${view.deadline ? `, deadline ${view.deadline}` : ""}:`,
      `  units: ${(pos.units[power] ?? []).join(", ") || "none"}`,
      `  centres: ${(pos.centers?.[power] ?? []).join(", ") || "none"}`,
      "Commands on file:",
      ...(onFile.length > 0 ? onFile.map((c) => `  ${c}`) : ["  none"]),
    ].join("\n");
  }

  // ------------------------------------------------------------------------------------------
  // The judge's own mail for a game of another family (Global Diplomacy, Age of Discovery)

  readonly voice: Voice = {
    serves: (game) => game.data === null,
    phase: (name) => (name ? `turn ${name}` : ""),
    power: (game, power) => {
      const seat = game.view.seatList.find((s) => s.powers.includes(power));
      // Seed 004 names a Great Power by number and name (3-England); an Age of Discovery
      // seat's name already carries its number (1-Avalon).
      if (!seat) return power;
      return seat.name.startsWith(`${power}-`) ? seat.name : `${power}-${seat.name}`;
    },
    sends: "commands",
    finalSets: false,
    votesByMail: false,
    footer: (game) =>
      `Commands: subject EMGTURN To ${game.address}, EMGSTART, your account id, ${game.abbr}, one command per line, EMGEND (docs/${game.view.family?.id ?? "email"}.md).`,
    howToOrder: (game) =>
      `Commands go To ${game.address} with the subject EMGTURN; the body: EMGSTART, your account id (your secret) on the next line, then ${game.abbr}, one command per line, EMGEND (docs/${game.view.family?.id ?? "email"}.md).`,
    started: async (judge, game, player) => ["", await ownReport(judge, player, game.id)],
    results: async (judge, game, e, to, next) => {
      const turn = /^T(\d+)$/.exec(e.data.phase ?? "");
      if (!turn) return [];
      const out: { to: Player; subject: string; text: string }[] = [];
      // A correction's mail says in its subject and first line that it replaces the earlier
      // one, and why (the GM's reason).
      const corrected = e.kind === "phase_corrected";
      const replaces = (what: string) =>
        corrected
          ? [
              `This corrected ${what} of turn ${turn[1]} replaces the one mailed earlier: the GM corrected the turn (${e.data.reason ?? "no reason given"}).`,
              "",
            ]
          : [];
      for (const p of to) {
        if (p.seat < 0) {
          out.push({
            to: p,
            subject: corrected
              ? `turn ${turn[1]} corrected (replaces the earlier turn mail)`
              : `turn ${turn[1]} adjudicated`,
            text: [
              ...replaces("summary"),
              ...(await moderatorSummary(judge, game, p, Number(turn[1]))),
              "",
              next ?? "",
            ].join("\n"),
          });
          continue;
        }
        const report = await ownReport(judge, p, game.id, Number(turn[1]));
        out.push({
          to: p,
          subject: corrected
            ? `corrected report of turn ${turn[1]} (replaces the earlier report)`
            : `report of turn ${turn[1]}`,
          text: [...replaces("report"), report, "", next ?? ""].join("\n"),
        });
      }
      return out;
    },
  };
}

/**
 * What the world's GM needs of a turn, in the mail itself (seed 004's moderator): every Great
 * Power's commands as adjudicated, who sent none, and where each power's whole report is.
 */
async function moderatorSummary(
  judge: Judge,
  game: MailGame,
  gm: Player,
  turn: number,
): Promise<string[]> {
  const { turns } = await judge.views.familyTurns(gm.user, game.id);
  const t = turns.find((x) => x.turn === turn) ?? turns.at(-1);
  const lines = [`Turn ${turn} of game ${game.abbr} is adjudicated.`];
  if (!t) return lines;
  const name = (power: string) => {
    const seat = game.view.seatList.find((s) => s.powers.includes(power));
    if (!seat) return power;
    return seat.name.startsWith(`${power}-`) ? seat.name : `${power}-${seat.name}`;
  };
  const powers = [...new Set([...Object.keys(t.orders), ...t.missed])].sort(
    (a, b) => Number(a) - Number(b) || a.localeCompare(b),
  );
  lines.push("", "Commands adjudicated, by power:");
  for (const p of powers) {
    const list = t.orders[p] ?? [];
    lines.push(
      t.missed.includes(p)
        ? `  ${name(p)}: none received (its units held)`
        : `  ${name(p)}: ${list.length === 0 ? "an empty set" : list.join("; ")}`,
    );
  }
  const link = gameLink(judge.publicUrl, game.id);
  lines.push(
    "",
    `Each power's whole report: GET /api/games/${game.id}/turns${link ? `, or the game's page ${link}` : ""}.`,
  );
  return lines;
}

/**
 * A player's report as mailed to them (seed 004 §8): the accounting section (their account id,
 * name, address, the last ten turns) and the report of the turn (default: the last).
 */
async function ownReport(
  judge: Judge,
  player: Player,
  gameId: string,
  turn?: number,
): Promise<string> {
  const r = await judge.views.report(player.user, gameId, turn === undefined ? {} : { turn });
  return `${r.accounting ?? ""}${r.report}`;
}

function emgGame(game: MailGame, power: string): EmgGame {
  const g = game.data!;
  return { variant: g.scenario.variant, position: g.position, power: power as PowerId };
}
