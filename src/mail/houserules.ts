import { readSubject } from "../engine/orderset.ts";
import { phaseName } from "../engine/phase.ts";
import { findPowerByName } from "../engine/powers.ts";
import type { PowerId } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import { JudgeError } from "../judge/errors.ts";
import type { Judge } from "../judge/judge.ts";
import { powerLetters } from "../judge/mail.ts";
import { earlySetsOf, type LineDiagnostic } from "../judge/orders.ts";
import {
  type Envelope,
  type Letter,
  type MailDialect,
  type Outcome,
  type Refusal,
  submit,
  type Voice,
} from "./dialect.ts";
import {
  houseRulesVoice,
  lettersText,
  phaseText,
  powerName,
  SEASONS,
  variantOf,
} from "./houserules-voice.ts";
import {
  type MailGame,
  type Player,
  type SenderProblem,
  secretProblem,
  takeSecret,
} from "./identity.ts";
import type { IncomingMail } from "./message.ts";

/*
 * The house rules' mail (seed 002 II(2), X(6)): orders addressed To the game's address (not Cc
 * or Bcc), the subject `ABBR YYSP` (`SED 01SA`: game SED, 1901, spring moves, Austria), sent
 * from the registered address of the player of that power with the player's secret on a line
 * of the body. The body is read by the one order-set reader (src/engine/orderset.ts): chatter,
 * quoted lines and the signature are ignored, "Final" marks a final set, the last set before
 * the deadline counts, and a set for a later retreat or adjustment phase is kept for it.
 * Press (`SED PRESS`) and votes (`SED VOTE`) go through the Judge's own methods. Every mail is
 * answered: with the reading of each line and the whole set now on file, or with exactly what
 * was wrong and how to write it. docs/email.md has examples. How the judge's own mail words
 * such a game (the dialect's voice: results, centre table, published press) is
 * houserules-voice.ts's.
 */

function stripPrefixes(subject: string): string {
  return subject.replace(/^\s*(?:(?:re|fwd?|aw|sv|tr)\s*:\s*)+/i, "").trim();
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

const FORMAT =
  'The subject is the game\'s abbreviation, a space, the year\'s last two digits, the season letter and the power letter: "SED 01SA" is game SED, 1901, spring moves, Austria. "SED PRESS" sends press, "SED VOTE" proposes and votes.';
/** A press mail's body: the To: and Kind: lines, an empty line, the message. */
function readPress(body: string, variant: Variant, abbr: string) {
  const how = `Write press as: the subject "${abbr} PRESS"; in the body, a line "To: all" or "To: France, Germany" (names or letters: ${lettersText(variant)}), optionally a line "Kind: grey" for anonymous press, then an empty line, then the message.`;
  const lines = body.split(/\r\n|\r|\n/);
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === "") i++;
  let to: "all" | string[] | null = null;
  let kind = "white";
  const problems: string[] = [];
  for (; i < lines.length && lines[i]!.trim() !== ""; i++) {
    const m = /^\s*(to|kind)\s*:\s*(.*)$/i.exec(lines[i]!);
    if (!m) break;
    if (m[1]!.toLowerCase() === "kind") {
      kind = m[2]!.trim();
      continue;
    }
    const ws = words(m[2]!);
    if (ws.length === 1 && /^all$/i.test(ws[0]!)) to = "all";
    else {
      to = [];
      for (const w of ws) {
        const p = findPowerWord(variant, w);
        if (p) to.push(p);
        else
          problems.push(
            `"${w}" on the To: line is not a power (${lettersText(variant)}), nor "all".`,
          );
      }
    }
  }
  const message = cutSignature(lines.slice(i).join("\n")).trim();
  if (to === null) problems.push(`the body does not start with a "To:" line. ${how}`);
  else if (message === "") problems.push(`the message is empty. ${how}`);
  return {
    to,
    kind,
    message,
    problems: problems.map((p) => (p.endsWith(how) ? p : `${p} ${how}`)),
  };
}

const VOTE_HOW = `Write one command per line: "propose draw" (all survivors), "propose draw: Austria, France", "propose concede: England", "propose houserule: <text>", "vote 3 yes" (or no, abstain), "list".`;

function voteCommands(body: string): string[] {
  return cutSignature(body)
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith(">"));
}

export class HouseRulesDialect implements MailDialect {
  readonly name = "houserules";
  readonly form = "mail in the house rules' form (subjects like SED 01SA)";
  readonly toLine = true;

  /**
   * Claims subjects in its forms (`SED 01SA`, `SED PRESS`, `SED VOTE`); as the gateway's last
   * dialect it also answers every mail no dialect claims, with how to write it.
   */
  claims(mail: IncomingMail): boolean {
    return /^\S+\s+(?:\d\d[A-Z][A-Z]|PRESS|VOTE)\b/i.test(stripPrefixes(mail.subject));
  }

  envelope(mail: IncomingMail): Envelope | Refusal {
    const [abbr, ...rest] = stripPrefixes(mail.subject).split(/\s+/);
    if (!abbr) return { problems: [`the subject is empty. ${FORMAT}`] };
    const command = rest.join(" ").toUpperCase();
    const { secret, body } = takeSecret(mail.text);
    const request = command === "PRESS" ? "press" : command === "VOTE" ? "vote" : "orders";
    return { game: abbr, request, secret, body };
  }

  /** Games of a Diplomacy variant (another family's games take their own mail). */
  takes(game: MailGame): boolean {
    return game.data !== null;
  }

  unknownGame(envelope: Envelope, known: readonly string[]): string {
    return `no game here has the abbreviation "${envelope.game}" (${known.length > 0 ? `games played by mail: ${known.join(", ")}` : "no game is played by mail yet"}). ${FORMAT}`;
  }

  /** Orders name the power and the phase in the subject: `SED 01SA`. */
  names(mail: IncomingMail, envelope: Envelope, game: MailGame) {
    const variant = variantOf(game)!;
    if (envelope.request !== "orders") return { power: null, phase: null };
    const subject = readSubject(stripPrefixes(mail.subject), variant);
    if (!subject) {
      const code = stripPrefixes(mail.subject).split(/\s+/).slice(1).join(" ");
      return {
        problem: `the subject "${mail.subject}" is not in the house rules' form: ${explainCode(code, variant, game.abbr)}`,
      };
    }
    return { power: subject.power as string, phase: phaseName(subject.phase) };
  }

  bodyProblems(envelope: Envelope, game: MailGame): string[] {
    const variant = variantOf(game);
    if (!variant) return [];
    if (envelope.request === "press") return readPress(envelope.body, variant, game.abbr).problems;
    if (envelope.request === "vote" && voteCommands(envelope.body).length === 0)
      return [`the body has no command. ${VOTE_HOW}`];
    return [];
  }

  sender(problem: SenderProblem, mail: IncomingMail, envelope: Envelope, game: MailGame): string {
    const name = problem.power ? this.voice.power(game, problem.power) : "";
    switch (problem.kind) {
      case "nobody":
        return `nobody plays ${name} in ${game.abbr} now.`;
      case "not-holder":
        return `${mail.from} is not the registered address of the player of ${name}: orders for ${name} come from its player's registered address (seed 002 X(6)).`;
      case "unknown-sender":
        return `${mail.from || "(no From address)"} is not the registered address of any player in this game. Register the address you send from (POST /api/me/mail, docs/email.md) and send from it.`;
      default:
        return secretProblem(envelope.secret);
    }
  }

  handle(letter: Letter): Promise<Outcome> {
    const r = letter.envelope.request;
    return r === "press"
      ? this.press(letter)
      : r === "vote"
        ? this.votes(letter)
        : this.orders(letter);
  }

  private async orders(letter: Letter): Promise<Outcome> {
    const { judge, game, player } = letter;
    const answer = await submit(letter, letter.envelope.body, { mode: "mail" });
    if ("problems" in answer) return answer;
    const name = this.voice.power(game, letter.power);
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
    lines.push(...(await this.onFile(judge, player, game, answer.early === true)));
    return { accepted: true, text: lines.join("\n") };
  }

  /** The complete sets now on file for the player's powers. */
  private async onFile(
    judge: Judge,
    player: Player,
    game: MailGame,
    early: boolean,
  ): Promise<string[]> {
    const out: string[] = [];
    const current = await judge.submissions.currentOrders(player.user, game.id);
    const view = await judge.views.gameView(player.user, game.id);
    for (const power of player.powers) {
      const set = current.sets.find((s) => s.power === power);
      const name = this.voice.power(game, power);
      out.push(
        `Orders on file for ${name}, ${phaseText(current.phase)}${set ? ` (${set.final ? "FINAL" : "preliminary"}, received ${iso(Date.parse(set.receivedAt!))})` : ""}:`,
      );
      if (!set) out.push("  none yet");
      else if (set.orders.length === 0) out.push("  (an empty set)");
      else for (const o of set.orders) out.push(`  ${o}`);
    }
    const kept = await earlySetsOf(judge.store.db, game.data!, player.powers as PowerId[]);
    if (early || kept.length > 0) {
      for (const s of kept) {
        out.push(`Kept for ${phaseText(s.phase)}, ${this.voice.power(game, s.power)}:`);
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

  private async press({ judge, game, player, envelope }: Letter): Promise<Outcome> {
    const variant = variantOf(game)!;
    const { to, kind, message } = readPress(envelope.body, variant, game.abbr);
    try {
      const sent = await judge.press.sendPress(player.user, game.id, {
        to: to!,
        body: message,
        kind,
      });
      const toText =
        sent.to === "all" ? "everybody" : sent.to.map((p) => powerName(variant, p)).join(", ");
      const text = [
        "held" in sent && sent.held !== undefined
          ? `Your ${sent.kind} press to ${toText} in ${phaseText(sent.phase)} is held for the GM's review (held message ${sent.held}; seed 002 X(1)): nobody else reads it until the GM publishes it, and you are told either way.`
          : `Your ${sent.kind} press (number ${sent.id}) was sent to ${toText} in ${phaseText(sent.phase)}.`,
        sent.kind === "grey"
          ? "It is published without your name (seed 002 X(2))."
          : player.seat < 0
            ? "It is signed as the GM's."
            : "It is signed with your power's name.",
        "",
        "The message:",
        ...message.split("\n").map((l) => `  ${l}`),
      ].join("\n");
      return { accepted: true, text };
    } catch (e) {
      if (e instanceof JudgeError) return { problems: [`${e.message}.`] };
      throw e;
    }
  }

  // ------------------------------------------------------------------------------------------
  // Votes: `SED VOTE`

  private async votes({ judge, game, player, envelope }: Letter): Promise<Outcome> {
    const variant = variantOf(game)!;
    const commands = voteCommands(envelope.body);
    const out: string[] = [];
    let done = 0;
    for (const c of commands) {
      try {
        const m = /^propose\s+(draw|concede|concession|houserule|house rule)\s*:?\s*(.*)$/i.exec(c);
        const v = /^vote\s+#?(\d+)\s*:?\s*(yes|no|abstain)$/i.exec(c);
        if (m) {
          const kind = m[1]!.toLowerCase();
          const arg = m[2]!.trim();
          let r: Awaited<ReturnType<Judge["votes"]["propose"]>>;
          if (kind === "draw") {
            const powers = arg === "" ? undefined : words(arg).map((w) => powerOrThrow(variant, w));
            r = await judge.votes.propose(player.user, game.id, { kind: "draw", powers });
          } else if (kind === "concede" || kind === "concession") {
            r = await judge.votes.propose(player.user, game.id, {
              kind: "concede",
              powers: words(arg).map((w) => powerOrThrow(variant, w)),
            });
          } else {
            r = await judge.votes.propose(player.user, game.id, { kind: "houserule", text: arg });
          }
          out.push(`  ${c}  -> proposal ${r.id}: "${r.text}", decided with the orders of ${r.due}`);
          done++;
        } else if (v) {
          const r = await judge.votes.vote(
            player.user,
            game.id,
            Number(v[1]),
            v[2]!.toLowerCase() as "yes" | "no" | "abstain",
          );
          out.push(
            `  ${c}  -> your vote on proposal ${r.proposal} is ${r.vote} (decided with the orders of ${r.due})`,
          );
          done++;
        } else if (/^list$/i.test(c)) {
          const list = await judge.votes.proposals(player.user, game.id);
          const open = list.filter((p) => p.status === "open");
          out.push(`  ${c}  -> ${open.length === 0 ? "no open proposals" : "open proposals:"}`);
          for (const p of open)
            out.push(`       ${p.id}: ${p.text} (your vote: ${p.yourVote ?? "none yet"})`);
          done++;
        } else {
          out.push(`  ${c}  -> NOT UNDERSTOOD. ${VOTE_HOW}`);
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
    return { accepted: done > 0, text };
  }

  // ------------------------------------------------------------------------------------------
  // The judge's own mail for a Diplomacy variant game

  readonly voice: Voice = houseRulesVoice;
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
