import { readSubject } from "../engine/orderset.ts";
import { describePhase, parsePhase, phaseName } from "../engine/phase.ts";
import { findPowerByName } from "../engine/powers.ts";
import type { PowerId } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import { JudgeError } from "../judge/errors.ts";
import { type GameData, loadGame } from "../judge/game-data.ts";
import type { Judge } from "../judge/judge.ts";
import { powerLetters, sameSecret } from "../judge/mail.ts";
import { earlySetsOf, type LineDiagnostic } from "../judge/orders.ts";
import type { HandleResult, MailContext, MailDialect } from "./gateway.ts";
import {
  gameByAbbr,
  gmOf,
  holderOf,
  type MailGameRow,
  mailGameNames,
  type Player,
  secretProblem,
  senderIn,
  takeSecret,
} from "./identity.ts";
import type { IncomingMail, OutgoingMail } from "./message.ts";

/*
 * The house rules' mail (seed 002 II(2), X(6)): orders addressed To the game's address (not Cc
 * or Bcc), the subject `ABBR YYSP` (`SED 01SA`: game SED, 1901, spring moves, Austria), sent
 * from the registered address of the player of that power with the player's secret on a line
 * of the body. The body is read by the one order-set reader (src/engine/orderset.ts): chatter,
 * quoted lines and the signature are ignored, "Final" marks a final set, the last set before
 * the deadline counts, and a set for a later retreat or adjustment phase is kept for it.
 * Press (`SED PRESS`) and votes (`SED VOTE`) go through the Judge's own methods. Every mail is
 * answered: with the reading of each line and the whole set now on file, or with exactly what
 * was wrong and how to write it. docs/email.md has examples.
 */

const SEASONS =
  "S (spring moves), U (summer retreats), F (fall moves), W (winter retreats and adjustments)";

function stripPrefixes(subject: string): string {
  return subject.replace(/^\s*(?:(?:re|fwd?|aw|sv|tr)\s*:\s*)+/i, "").trim();
}

function lettersText(variant: Variant): string {
  return powerLetters(variant)
    .map((l) => `${l.letter} ${l.name}`)
    .join(", ");
}

/** What is wrong with a subject's `YYSP` part, and how to write it. */
export function explainCode(code: string, variant: Variant, abbr: string): string {
  const example = `${abbr} ${String(variant.start.phase.year % 100).padStart(2, "0")}S${powerLetters(variant)[0]?.letter ?? "A"}`;
  const m = /^(\d*)([A-Za-z]?)([A-Za-z]?)(.*)$/.exec(code)!;
  const how = `The subject is the game's abbreviation, a space, the year's last two digits, the season letter and the power letter, e.g. "${example}".`;
  if (m[1]!.length !== 2) {
    return `the year in "${code}" must be two digits (${example.slice(abbr.length + 1, abbr.length + 3)} for ${variant.start.phase.year}). ${how}`;
  }
  if (!/^[SUFW]$/i.test(m[2]!)) {
    return `"${m[2] || code}" is not a season letter: use ${SEASONS}. ${how}`;
  }
  if (m[3] === "" || m[4] !== "") {
    return `"${code}" must end with one power letter (${lettersText(variant)}). ${how}`;
  }
  return `no power has the letter "${m[3]!.toUpperCase()}" in this game: the letters are ${lettersText(variant)}. ${how}`;
}

const iso = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/:\d\d\.\d{3}Z$/, " UTC")
    .replace("T", " ");

function powerName(variant: Variant, p: string): string {
  return variant.powers.find((x) => x.id === p)?.name ?? p;
}

function phaseText(name: string): string {
  const p = parsePhase(name);
  return p ? `${describePhase(p)} (${name})` : name;
}

/** Each line as read: the reply's first part. */
export function formatReading(lines: readonly LineDiagnostic[]): string[] {
  const out: string[] = [];
  for (const d of lines) {
    const at = `  line ${String(d.line).padStart(2)}: ${d.text}`;
    if (d.kind === "comment") {
      // A line with a move dash that was not read as an order: say how to write one.
      const moveLike = /\w\s*(?:-+>?|→|=>)\s*\w/u.test(d.text) && !/^>/.test(d.text);
      out.push(
        `${at}  -> ignored (not an order)${moveLike ? '; if it is meant as one, it was not understood: write e.g. "A bud - ser", spaces around the dash' : ""}`,
      );
    } else if (d.kind === "power") out.push(`${at}  -> the orders below are ${d.power}'s`);
    else if (d.kind === "final") out.push(`${at}  -> the set is FINAL`);
    else if (d.ok) {
      const notes = d.notes && d.notes.length > 0 ? ` (${d.notes.join("; ")})` : "";
      out.push(`${at}  -> ${d.order ?? "understood"}${notes}`);
    } else {
      const hint =
        d.suggestions && d.suggestions.length > 0
          ? `; did you mean ${d.suggestions.join(" or ")}?`
          : "";
      out.push(`${at}  -> NOT VALID: ${d.message ?? "not understood"}${hint}`);
    }
  }
  return out;
}

function reply(
  mail: IncomingMail,
  game: MailGameRow | null,
  text: string,
  subject?: string,
): OutgoingMail {
  const s = subject ?? mail.subject;
  return {
    from: game?.address ?? null,
    to: mail.from,
    subject: /^re:/i.test(s) ? s : `Re: ${s}`,
    text: `${text.trimEnd()}\n\n-- \nEntente judge${game ? `, game ${game.abbr}` : ""}. How to write to the judge: docs/email.md.\n`,
    gameId: game?.game_id ?? null,
    kind: "reply",
    inReplyTo: mail.messageId,
  };
}

function rejected(
  mail: IncomingMail,
  game: MailGameRow | null,
  problems: readonly string[],
): HandleResult {
  const text = [
    "Your mail was NOT accepted: nothing was changed.",
    "",
    ...(problems.length === 1
      ? [`What was wrong: ${problems[0]}`]
      : ["What was wrong:", ...problems.map((p, i) => `  ${i + 1}. ${p}`)]),
  ].join("\n");
  return { accepted: false, dialect: "houserules", replies: [reply(mail, game, text)] };
}

/** The To check of seed 002 II(2): the game's address on the To line, not Cc or Bcc. */
function toProblem(mail: IncomingMail, game: MailGameRow): string | null {
  if (mail.to.includes(game.address)) return null;
  const where = mail.cc.includes(game.address) ? "on the Cc line" : "not on the To line (Bcc?)";
  return `the game's address ${game.address} was ${where}. Mails to the judge must be addressed To ${game.address} (seed 002 II(2)).`;
}

export class HouseRulesDialect implements MailDialect {
  readonly name = "houserules";

  /**
   * Claims subjects in its forms (`SED 01SA`, `SED PRESS`, `SED VOTE`); as the gateway's last
   * dialect it also answers every mail no dialect claims, with how to write it.
   */
  claims(mail: IncomingMail): boolean {
    return /^\S+\s+(?:\d\d[A-Z][A-Z]|PRESS|VOTE)\b/i.test(stripPrefixes(mail.subject));
  }

  async handle(mail: IncomingMail, ctx: MailContext): Promise<HandleResult> {
    const { judge } = ctx;
    const subject = stripPrefixes(mail.subject);
    const [abbr, ...rest] = subject.split(/\s+/);
    const known = await mailGameNames(judge);
    const format =
      'The subject is the game\'s abbreviation, a space, the year\'s last two digits, the season letter and the power letter: "SED 01SA" is game SED, 1901, spring moves, Austria. "SED PRESS" sends press, "SED VOTE" proposes and votes.';
    if (!abbr) return rejected(mail, null, [`the subject is empty. ${format}`]);
    const game = await gameByAbbr(judge, abbr);
    if (!game) {
      return rejected(mail, null, [
        `no game here has the abbreviation "${abbr}" (${known.length > 0 ? `games played by mail: ${known.join(", ")}` : "no game is played by mail yet"}). ${format}`,
      ]);
    }
    const g = await loadGame(judge.store.db, game.game_id);
    const command = rest.join(" ").toUpperCase();
    if (command === "PRESS") return this.press(mail, game, g, judge);
    if (command === "VOTE") return this.votes(mail, game, g, judge);
    return this.orders(mail, game, g, judge, rest.join(" "));
  }

  private async orders(
    mail: IncomingMail,
    game: MailGameRow,
    g: GameData,
    judge: Judge,
    code: string,
  ): Promise<HandleResult> {
    const variant = g.scenario.variant;
    const problems: string[] = [];
    const to = toProblem(mail, game);
    if (to) problems.push(to);
    const subject = readSubject(stripPrefixes(mail.subject), variant);
    if (!subject)
      problems.push(
        `the subject "${mail.subject}" is not in the house rules' form: ${explainCode(code, variant, game.abbr)}`,
      );
    const { secret, body } = takeSecret(mail.text);
    let player: Player | null = null;
    // A wrong secret from a player's address: perhaps impersonation (seed 002 X(6)).
    let suspicious: string | null = null;
    if (subject) {
      const holder = await holderOf(judge, g, subject.power);
      const name = powerName(variant, subject.power);
      if (!holder) problems.push(`nobody plays ${name} in ${game.abbr} now.`);
      else if (holder.address !== mail.from) {
        problems.push(
          `${mail.from} is not the registered address of the player of ${name}: orders for ${name} come from its player's registered address (seed 002 X(6)).`,
        );
      } else if (secret === null || !sameSecret(holder.secret ?? "", secret)) {
        problems.push(secretProblem(secret));
        if (secret !== null) suspicious = name;
      } else player = holder;
    } else {
      // Still say whether the sender would have been recognised.
      const who = await senderIn(judge, g, mail.from, secret);
      if (who.problem) problems.push(who.problem);
    }
    if (problems.length > 0 || !subject || !player) {
      const result = rejected(mail, game, problems);
      const gm = suspicious ? await gmOf(judge, g) : null;
      if (!gm?.address) return result;
      const alert: OutgoingMail = {
        from: game.address,
        to: gm.address,
        subject: `${game.abbr}: a mail for ${suspicious} refused: wrong secret`,
        text: `A mail from ${mail.from} with the subject "${mail.subject}" gave orders for ${suspicious} with a secret that is not its player's. It was refused and nothing changed; the reply went to ${mail.from}. Impersonation is grounds for replacement (seed 002 X(6)).\n`,
        gameId: game.game_id,
        kind: "alert",
      };
      return { ...result, replies: [...result.replies, alert] };
    }
    const phase = phaseName(subject.phase);
    let answer: Awaited<ReturnType<Judge["submitOrders"]>>;
    try {
      answer = await judge.submitOrders(
        player.user,
        g.game.id,
        { power: subject.power, orders: body, phase },
        { mode: "mail" },
      );
    } catch (e) {
      if (e instanceof JudgeError) return rejected(mail, game, [`${e.message}.`]);
      throw e;
    }
    const name = powerName(variant, subject.power);
    const lines = [
      `Your orders for ${name}, ${phaseText(answer.phase)}, were received at ${iso(Date.parse(answer.receivedAt))} (${answer.final ? "FINAL" : "preliminary"}).`,
    ];
    if (answer.early) {
      lines.push(
        `${phaseText(answer.phase)} is still to come: this set is kept for it (seed 002 II(5)). When that phase comes, the orders still possible then are used, unless you send another set for it.`,
      );
    }
    lines.push("", "How each line was read:", ...formatReading(answer.diagnostics), "");
    const bad = answer.diagnostics.filter((d) => d.kind === "order" && !d.ok).length;
    if (bad > 0) {
      lines.push(
        `${bad} order${bad === 1 ? " is" : "s are"} not valid as written: ${bad === 1 ? "that unit" : "those units"} will hold (or do nothing) unless you send a corrected set.`,
        "",
      );
    }
    lines.push(...(await this.onFile(judge, player, g, answer.early === true)));
    return { accepted: true, dialect: this.name, replies: [reply(mail, game, lines.join("\n"))] };
  }

  /** The complete sets now on file for the player's powers. */
  private async onFile(
    judge: Judge,
    player: Player,
    g: GameData,
    early: boolean,
  ): Promise<string[]> {
    const variant = g.scenario.variant;
    const out: string[] = [];
    const current = await judge.currentOrders(player.user, g.game.id);
    const view = await judge.gameView(player.user, g.game.id);
    for (const power of player.powers) {
      const set = current.sets.find((s) => s.power === power);
      const name = powerName(variant, power);
      out.push(
        `Orders on file for ${name}, ${phaseText(current.phase)}${set ? ` (${set.final ? "FINAL" : "preliminary"}, received ${iso(Date.parse(set.receivedAt!))})` : ""}:`,
      );
      if (!set) out.push("  none yet");
      else if (set.orders.length === 0) out.push("  (an empty set)");
      else for (const o of set.orders) out.push(`  ${o}`);
    }
    const early2 = await earlySetsOf(judge.store.db, g, player.powers);
    if (early || early2.length > 0) {
      for (const s of early2) {
        out.push(`Kept for ${phaseText(s.phase)}, ${powerName(variant, s.power)}:`);
        if (s.orders.length === 0) out.push("  (an empty set)");
        for (const o of s.orders) out.push(`  ${o}`);
      }
    }
    if (view.deadline) {
      out.push(
        "",
        `Deadline for ${phaseText(current.phase)}: ${iso(Date.parse(view.deadline))}. The last set received before it counts; a line "Final" marks a set final.`,
      );
    }
    return out;
  }

  // ------------------------------------------------------------------------------------------
  // Press: `SED PRESS`

  private async identify(mail: IncomingMail, game: MailGameRow, g: GameData, judge: Judge) {
    const problems: string[] = [];
    const to = toProblem(mail, game);
    if (to) problems.push(to);
    const { secret, body } = takeSecret(mail.text);
    const who = await senderIn(judge, g, mail.from, secret);
    if (who.problem) problems.push(who.problem);
    return { problems, body, player: who.player };
  }

  private async press(
    mail: IncomingMail,
    game: MailGameRow,
    g: GameData,
    judge: Judge,
  ): Promise<HandleResult> {
    const { problems, body, player } = await this.identify(mail, game, g, judge);
    const variant = g.scenario.variant;
    const how = `Write press as: the subject "${game.abbr} PRESS"; in the body, a line "To: all" or "To: France, Germany" (names or letters: ${lettersText(variant)}), optionally a line "Kind: grey" for anonymous press, then an empty line, then the message.`;
    const lines = body.split(/\r\n|\r|\n/);
    let i = 0;
    while (i < lines.length && lines[i]!.trim() === "") i++;
    let to: "all" | string[] | null = null;
    let kind = "white";
    const headerProblems: string[] = [];
    for (; i < lines.length && lines[i]!.trim() !== ""; i++) {
      const m = /^\s*(to|kind)\s*:\s*(.*)$/i.exec(lines[i]!);
      if (!m) break;
      if (m[1]!.toLowerCase() === "kind") {
        kind = m[2]!.trim();
        continue;
      }
      const words = m[2]!.split(/[\s,;]+/).filter((w) => w !== "" && !/^and$/i.test(w));
      if (words.length === 1 && /^all$/i.test(words[0]!)) to = "all";
      else {
        to = [];
        for (const w of words) {
          const p = findPowerWord(variant, w);
          if (p) to.push(p);
          else
            headerProblems.push(
              `"${w}" on the To: line is not a power (${lettersText(variant)}), nor "all".`,
            );
        }
      }
    }
    const message = cutSignature(lines.slice(i).join("\n")).trim();
    if (to === null) headerProblems.push(`the body does not start with a "To:" line. ${how}`);
    else if (message === "") headerProblems.push(`the message is empty. ${how}`);
    problems.push(...headerProblems.map((p) => (p.endsWith(how) ? p : `${p} ${how}`)));
    if (problems.length > 0 || !player || to === null) return rejected(mail, game, problems);
    try {
      const sent = await judge.sendPress(player.user, g.game.id, { to, body: message, kind });
      const toText =
        sent.to === "all" ? "everybody" : sent.to.map((p) => powerName(variant, p)).join(", ");
      const text = [
        `Your ${sent.kind} press (number ${sent.id}) was sent to ${toText} in ${phaseText(sent.phase)}.`,
        sent.kind === "grey"
          ? "It is published without your name (seed 002 X(2))."
          : "It is signed with your power's name.",
        "",
        "The message:",
        ...message.split("\n").map((l) => `  ${l}`),
      ].join("\n");
      return { accepted: true, dialect: this.name, replies: [reply(mail, game, text)] };
    } catch (e) {
      if (e instanceof JudgeError) return rejected(mail, game, [`${e.message}.`]);
      throw e;
    }
  }

  // ------------------------------------------------------------------------------------------
  // Votes: `SED VOTE`

  private async votes(
    mail: IncomingMail,
    game: MailGameRow,
    g: GameData,
    judge: Judge,
  ): Promise<HandleResult> {
    const { problems, body, player } = await this.identify(mail, game, g, judge);
    const variant = g.scenario.variant;
    const how = `Write one command per line: "propose draw" (all survivors), "propose draw: Austria, France", "propose concede: England", "propose houserule: <text>", "vote 3 yes" (or no, abstain), "list".`;
    const commands = cutSignature(body)
      .split(/\r\n|\r|\n/)
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith(">"));
    if (commands.length === 0) problems.push(`the body has no command. ${how}`);
    if (problems.length > 0 || !player) return rejected(mail, game, problems);
    const out: string[] = [];
    let done = 0;
    for (const c of commands) {
      try {
        const m = /^propose\s+(draw|concede|concession|houserule|house rule)\s*:?\s*(.*)$/i.exec(c);
        const v = /^vote\s+#?(\d+)\s*:?\s*(yes|no|abstain)$/i.exec(c);
        if (m) {
          const kind = m[1]!.toLowerCase();
          const arg = m[2]!.trim();
          let r: Awaited<ReturnType<Judge["propose"]>>;
          if (kind === "draw") {
            const powers = arg === "" ? undefined : words(arg).map((w) => powerOrThrow(variant, w));
            r = await judge.propose(player.user, g.game.id, { kind: "draw", powers });
          } else if (kind === "concede" || kind === "concession") {
            r = await judge.propose(player.user, g.game.id, {
              kind: "concede",
              powers: words(arg).map((w) => powerOrThrow(variant, w)),
            });
          } else {
            r = await judge.propose(player.user, g.game.id, { kind: "houserule", text: arg });
          }
          out.push(`  ${c}  -> proposal ${r.id}: "${r.text}", decided with the orders of ${r.due}`);
          done++;
        } else if (v) {
          const r = await judge.vote(
            player.user,
            g.game.id,
            Number(v[1]),
            v[2]!.toLowerCase() as "yes" | "no" | "abstain",
          );
          out.push(
            `  ${c}  -> your vote on proposal ${r.proposal} is ${r.vote} (decided with the orders of ${r.due})`,
          );
          done++;
        } else if (/^list$/i.test(c)) {
          const list = await judge.proposals(player.user, g.game.id);
          const open = list.filter((p) => p.status === "open");
          out.push(`  ${c}  -> ${open.length === 0 ? "no open proposals" : "open proposals:"}`);
          for (const p of open)
            out.push(`       ${p.id}: ${p.text} (your vote: ${p.yourVote ?? "none yet"})`);
          done++;
        } else {
          out.push(`  ${c}  -> NOT UNDERSTOOD. ${how}`);
        }
      } catch (e) {
        if (!(e instanceof JudgeError)) throw e;
        out.push(`  ${c}  -> NOT DONE: ${e.message}`);
      }
    }
    const text = [
      done === commands.length
        ? "Your vote mail was read; every command was done:"
        : `Your vote mail was read; ${done} of ${commands.length} commands were done:`,
      ...out,
      "",
      "Votes are secret: only the counts are published (seed 002 IX(4)).",
    ].join("\n");
    return { accepted: done > 0, dialect: this.name, replies: [reply(mail, game, text)] };
  }
}

function words(s: string): string[] {
  return s.split(/[\s,;]+/).filter((w) => w !== "" && !/^and$/i.test(w));
}

/** A power by id, name, adjective, the variant's aliases, or subject letter. */
function findPowerWord(variant: Variant, w: string): PowerId | null {
  const x = w.trim().toLowerCase().replace(/[.:]$/, "");
  const byLetter = variant.powers.find((q) => q.letter.toLowerCase() === x);
  return byLetter?.id ?? findPowerByName(variant.powers, x);
}

function powerOrThrow(variant: Variant, w: string): string {
  const p = findPowerWord(variant, w);
  if (!p) throw new JudgeError("invalid", `"${w}" is not a power (${lettersText(variant)})`);
  return p;
}

/** The text before a signature line (`-- `). */
function cutSignature(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  const i = lines.findIndex((l) => /^--\s*$/.test(l));
  return (i === -1 ? lines : lines.slice(0, i)).join("\n");
}
