import { formatHistory } from "../engine/history.ts";
import { readSubject, writeSubject } from "../engine/orderset.ts";
import { describePhase, parsePhase, phaseName } from "../engine/phase.ts";
import { findPowerByName } from "../engine/powers.ts";
import type { PowerId } from "../engine/types.ts";
import type { Variant } from "../engine/variant.ts";
import { JudgeError } from "../judge/errors.ts";
import type { Judge } from "../judge/judge.ts";
import { powerLetters } from "../judge/mail.ts";
import { earlySetsOf, type LineDiagnostic } from "../judge/orders.ts";
import { emgRulesFor } from "./emg.ts";
import {
  type Envelope,
  type Letter,
  type MailDialect,
  type Outcome,
  type Refusal,
  submit,
  type Voice,
} from "./gateway.ts";
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

const FORMAT =
  'The subject is the game\'s abbreviation, a space, the year\'s last two digits, the season letter and the power letter: "SED 01SA" is game SED, 1901, spring moves, Austria. "SED PRESS" sends press, "SED VOTE" proposes and votes.';

/** A house-rules game's variant (a game of another family has none: it takes EMG mail). */
function variantOf(game: MailGame): Variant | null {
  return game.data?.scenario.variant ?? null;
}

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

  readonly voice: Voice = {
    serves: (game) => game.data !== null,
    phase: (name) => (name ? phaseText(name) : ""),
    power: (game, power) => {
      const variant = variantOf(game);
      return variant ? powerName(variant, power) : power;
    },
    sends: "orders",
    finalSets: true,
    votesByMail: true,
    footer: (game) => `Orders: subject "${game.abbr} YYSP" To ${game.address} (docs/email.md).`,
    howToOrder: (game, power) => {
      const variant = variantOf(game)!;
      const open = parsePhase(game.view.phase ?? "") ?? variant.start.phase;
      // The subject the dialect's own reader takes (readSubject), written by its inverse.
      const subject = writeSubject(game.abbr, open, power, variant);
      return subject
        ? `Orders go To ${game.address}, with the subject "${subject}" for ${phaseText(game.view.phase ?? "")} (the game's abbreviation, the year's last two digits, the season letter: ${SEASONS}; and your power letter), your secret line "Secret: ..." in the body, then one order a line.`
        : `Orders go To ${game.address}: the subject is the game's abbreviation, a space, the year's last two digits, the season letter and the power letter (${lettersText(variant)}).`;
    },
    // The letters name powers in order mail's subjects: a game played on the web has none.
    started: async (_judge, game) =>
      game.byMail ? [`Power letters for subjects: ${lettersText(variantOf(game)!)}.`] : [],
    results: async (judge, game, e, to, next) => {
      const d = e.data;
      const g = game.data!;
      const variant = g.scenario.variant;
      // One text for every recipient, as players may read it (a sequential game's schedule
      // never shows, seed 003).
      const phase = (await judge.views.phases(game.id, null))[d.index ?? -1];
      if (!phase) return [];
      // The history's "Civil disorder:" line is left out: a power whose player missed the
      // phase keeps its seat (seed 002 VII(6)); the lines below say who sent no orders.
      const history = withoutCentres(
        formatHistory(variant, { ...g.record, phases: [phase] })
          .split("\n")
          .slice(3)
          .filter((l) => !l.startsWith("Civil disorder: ")),
      );
      const corrected = e.kind === "phase_corrected";
      const rules = emgRulesFor(g.game.variant);
      const head = [
        corrected
          ? `These corrected results of ${phaseText(phase.phase)} replace those mailed earlier: the GM corrected the adjudication (${d.reason ?? "no reason given"}).`
          : `Results of ${phaseText(phase.phase)}:`,
        "",
      ];
      const tail = [...centreTable(variant, phase)];
      const nmr: string[] = [];
      for (const power of d.nmr ?? []) {
        // In an adjustment phase, a power that only could have built and did not has waived
        // its builds (seed 001 §3): that is no missed order.
        const adjusting = parsePhase(phase.phase)?.type === "A";
        if (adjusting && (phase.results[power] ?? []).length === 0) {
          nmr.push(`${powerName(variant, power)} sent no builds: they are waived.`);
        } else if (d.bots?.[power]) {
          nmr.push(
            `No orders received from ${powerName(variant, power)}: the built-in player ${d.bots[power]} played them (the game's option botTakeover).`,
          );
        } else {
          nmr.push(
            `No orders received from ${powerName(variant, power)}: ${nmrEffect(phase.phase)}.`,
          );
        }
      }
      // Powers nobody plays are in civil disorder indeed (their units hold, seed 001 §3).
      for (const power of phase.civilDisorder ?? []) {
        if ((d.nmr ?? []).includes(power)) continue;
        nmr.push(
          `${powerName(variant, power)} has no player (civil disorder): ${nmrEffect(phase.phase)}.`,
        );
      }
      if (nmr.length > 0) tail.push("", ...nmr);
      // The player list's mark: the powers built-in players play (src/judge/bots.ts).
      const botLines = game.view.seatList
        .filter((s) => s.bot)
        .map(
          (s) =>
            `  ${s.name}: the built-in player ${s.bot!.id}${s.bot!.kind === "takeover" ? ` (after missed orders; ${s.player ?? "no player"} may take it back)` : ""}`,
        );
      if (botLines.length > 0) tail.push("", "Played by built-in players:", ...botLines);
      if (next) tail.push("", next);
      const subject = corrected
        ? `corrected results of ${phaseText(phase.phase)} (replace the earlier results)`
        : `results of ${phaseText(phase.phase)}`;
      const out: { to: (typeof to)[number]; subject: string; text: string }[] = [];
      for (const p of to) {
        // The press published with this phase (seed 002 X(1)): white with its author's
        // orders, grey in its own section, never with its author's name.
        const press = (await judge.press.press(p.user, game.id)).filter(
          (m) => m.to === "all" && m.phase === phase.phase && !corrected,
        );
        const own =
          rules?.report && p.powers[0]
            ? [
                "",
                rules.report({ variant, position: g.position, power: p.powers[0] as PowerId }, []),
              ]
            : [];
        const text = [...head, ...publishPress(variant, history, press), ...tail, ...own];
        out.push({ to: p, subject, text: text.join("\n") });
      }
      return out;
    },
  };
}

/** What civil disorder did to a power that sent no orders, by the kind of phase (seed 001 §3). */
function nmrEffect(phase: string): string {
  const p = parsePhase(phase);
  if (p?.type === "M") return "its units held";
  if (p?.type === "A") return "its removals were made by the civil-disorder rule";
  return "its dislodged units were disbanded";
}

/** The history's lines without its own centre table (the results mail prints a fuller one). */
function withoutCentres(lines: readonly string[]): string[] {
  const out: string[] = [];
  let skipping = false;
  for (const l of lines) {
    if (l.startsWith("Supply centres")) skipping = true;
    else if (skipping && !l.startsWith("  ")) skipping = false;
    if (!skipping) out.push(l);
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

interface PublishedPress {
  readonly kind: string;
  readonly from: string | null;
  readonly fromName: string;
  readonly body: string;
}

/**
 * The orders with the phase's public press (seed 002 X(1)): each white message after its
 * author's orders (the GM's after all the orders), the grey ones in an "Anonymous Press"
 * section, without any author.
 */
function publishPress(
  variant: Variant,
  history: readonly string[],
  press: readonly PublishedPress[],
): string[] {
  const quote = (m: PublishedPress) => m.body.split("\n").map((l) => `    ${l}`);
  const white = press.filter((m) => m.kind === "white");
  const grey = press.filter((m) => m.kind !== "white");
  const out: string[] = [];
  let author: string | null = null;
  const flush = () => {
    if (author === null) return;
    for (const m of white.filter((x) => x.from === author))
      out.push(`  Press from ${powerName(variant, author)}:`, ...quote(m));
    author = null;
  };
  for (const l of history) {
    const header = variant.powers.find((p) => l === `${p.name}:`);
    if (header || !l.startsWith("  ")) flush();
    if (header) author = header.id;
    out.push(l);
  }
  flush();
  const known = new Set(variant.powers.map((p) => p.id as string));
  const others = white.filter((m) => m.from === null || !known.has(m.from));
  for (const m of others) out.push("", `Press from ${m.fromName}:`, ...quote(m));
  if (grey.length > 0) {
    out.push("", "Anonymous Press:");
    grey.forEach((m, k) => {
      if (k > 0) out.push("");
      out.push(...quote(m));
    });
  }
  return out;
}

/**
 * The supply-centre table after a phase that changes or settles ownership: after a fall
 * movement or retreat phase, the ownership as it will stand (each centre a unit stands on is
 * its power's) and what each power builds or removes; after a winter phase (the house rules'
 * combined winter too), the table as it stands. Empty after other phases.
 */
export function centreTable(
  variant: Variant,
  phase: {
    phase: string;
    position: {
      units: Record<string, string[]>;
      centers?: Record<string, string[]>;
      dislodged?: Record<string, readonly unknown[]>;
    };
  },
): string[] {
  const p = parsePhase(phase.phase);
  if (!p || (p.season !== "F" && p.season !== "W")) return [];
  const adjusting = p.season === "F";
  const owner = new Map<string, string>();
  for (const [power, list] of Object.entries(phase.position.centers ?? {}))
    for (const c of list) owner.set(c, power);
  const centres = new Set(variant.map.supplyCenters.map((c) => c.id as string));
  const units = new Map<string, number>();
  for (const [power, list] of Object.entries(phase.position.units)) {
    units.set(power, list.length);
    if (!adjusting) continue;
    for (const u of list) {
      const at = (u.split(" ")[1] ?? "").split("/")[0]!;
      if (centres.has(at)) owner.set(at, power);
    }
  }
  const lines = [
    "",
    `Supply centres after ${phase.phase}${adjusting ? ", as they will stand" : ""}:`,
  ];
  for (const power of variant.powers) {
    const cs = [...owner]
      .filter(([, o]) => o === power.id)
      .map(([c]) => c)
      .sort();
    const n = units.get(power.id) ?? 0;
    if (cs.length === 0 && n === 0) continue;
    const diff = cs.length - n;
    // Builds go on the power's own home centres that it owns and no unit stands on.
    const occupied = new Set(
      Object.values(phase.position.units).flatMap((l) =>
        l.map((u) => (u.split(" ")[1] ?? "").split("/")[0]!),
      ),
    );
    const open = variant.map
      .homeCenters(power.id)
      .filter((h) => owner.get(h.id) === power.id && !occupied.has(h.id)).length;
    const builds = Math.min(diff, open);
    const adjust = !adjusting
      ? ""
      : diff > 0
        ? `  builds ${builds}${builds < diff ? ` (of ${diff}: no more home centres free)` : ""}`
        : diff < 0
          ? `  removes ${-diff}`
          : "  no change";
    const out = phase.position.dislodged?.[power.id]?.length ?? 0;
    const away = out > 0 ? ` (+${out} dislodged)` : "";
    lines.push(
      `  ${power.name.padEnd(10)}${String(cs.length).padStart(2)} centres, ${String(n).padStart(2)} units${away}${adjust}  ${cs.join(" ")}`,
    );
  }
  const free = [...centres].filter((c) => !owner.has(c)).sort();
  if (free.length > 0)
    lines.push(`  Unowned   ${String(free.length).padStart(2)} centres  ${free.join(" ")}`);
  return lines;
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
