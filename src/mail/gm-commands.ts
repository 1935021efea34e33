import { parsePhase } from "../engine/phase.ts";
import { ExtraUnitTooNew, JudgeError } from "../judge/errors.ts";
import type { Judge, User } from "../judge/judge.ts";

/*
 * The GM's corrections by mail (mail/commands.ts reads the subject): REVIEW's held press
 * (APPROVE/REFUSE ... PRESS n), REFUSE a proposal (seed 002 IX(5)), CORRECT the last
 * adjudication (VIII(1)), RELOCATE a misplaced unit (VIII(3)), REMOVE an extra unit (VIII(2)),
 * each with its "Reason:" line; and the answer every mail command gives (CommandAnswer), with
 * the one form of refusal.
 */

/** A command's answer: whether it was done, and the text of the reply. */
export interface CommandAnswer {
  readonly accepted: boolean;
  readonly text: string;
}

export const refuse = (what: string, instead: string): CommandAnswer => ({
  accepted: false,
  text: `Your command was NOT done: nothing was changed.\n\nWhat was wrong: ${what}\nWhat to send instead: ${instead}`,
});

/**
 * A GM's command mail as its reader takes it: the game (its id, its abbreviation in capitals),
 * the GM, the command and the subject's words after the abbreviation, the body.
 */
export interface GmMail {
  readonly judge: Judge;
  readonly user: User;
  readonly gameId: string;
  readonly abbr: string;
  readonly command: string;
  readonly words: readonly string[];
  readonly body: string;
}

/** A body line "Reason: <why>" (the first one gives the reason; an empty one gives none). */
const REASON_LINE = /^[ \t]*reason[ \t]*:[ \t]*(.*)$/im;

/**
 * The GM's reason for an edit of the game (CORRECT, REMOVE, RELOCATE, REFUSE): the body's
 * first "Reason: <why>" line. Without one (or with nothing after the colon), the command's
 * `fallback`, or where the reason is required a refusal saying what it is for and what to
 * send instead.
 */
function reasonIn(body: string, fallback: string): string;
function reasonIn(body: string, required: { for: string; how: string }): string | CommandAnswer;
function reasonIn(body: string, missing: string | { for: string; how: string }) {
  const given = REASON_LINE.exec(body)?.[1]?.trim();
  if (given) return given;
  return typeof missing === "string"
    ? missing
    : refuse(`no line "Reason: ..." saying ${missing.for}`, missing.how);
}

/** The number a subject's word gives (`3`, `#3`), or null. */
function numberIn(word: string | undefined): number | null {
  const n = Number((word ?? "").replace(/^#/, ""));
  return Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * APPROVE|REFUSE <ABBR> PRESS <n>: the GM publishes, or refuses to publish, a held message
 * (the option press.review, seed 002 X(1)); a refusal's reason is the body's "Reason:" line
 * (or the subject's words after the number), mailed to the author alone.
 */
async function reviewByMail(m: GmMail): Promise<CommandAnswer> {
  const { judge, user, gameId, abbr, body } = m;
  const words = /^press$/i.test(m.words[0] ?? "") ? m.words.slice(1) : m.words;
  const n = numberIn(words[0]);
  const how =
    m.command === "APPROVE"
      ? `"APPROVE ${abbr} PRESS 2" with your secret line: the held message's number, as the judge's mail about it gives`
      : `"REFUSE ${abbr} PRESS 2" with the body lines "Secret: ..." and "Reason: <why>" (the author alone reads the reason)`;
  if (n === null) return refuse(`"${words[0] ?? ""}" is not the number of a held message`, how);
  if (m.command === "APPROVE") {
    await judge.press.approvePress(user, gameId, n);
    return {
      accepted: true,
      text: `Held press ${n} of ${abbr} is published: its recipients read it now, as it was sent.`,
    };
  }
  const inSubject = words.slice(1).join(" ").trim();
  const reason = inSubject !== "" ? inSubject : reasonIn(body, { for: "why", how });
  if (typeof reason !== "string") return reason;
  const r = await judge.press.refusePress(user, gameId, n, reason);
  return {
    accepted: true,
    text: `Held press ${n} of ${abbr} is refused: nobody reads it (seed 002 X(1)). Its author alone is told, with your reason: ${r.reason}`,
  };
}

/**
 * REFUSE <ABBR> <proposal>: the GM refuses to put a proposal to the vote (seed 002 IX(5)),
 * the body's "Reason:" line mailed to the proposer; REFUSE <ABBR> PRESS <n> is REVIEW's.
 */
async function refuseByMail(m: GmMail): Promise<CommandAnswer> {
  if (/^press$/i.test(m.words[0] ?? "")) return reviewByMail(m);
  const id = numberIn(m.words[0]);
  const how = `"REFUSE ${m.abbr} 3" with the body lines "Secret: ..." and "Reason: <why>" (the proposer reads the reason)`;
  if (id === null) return refuse(`"${m.words[0] ?? ""}" is not a proposal's number`, how);
  const reason = reasonIn(m.body, { for: "why", how });
  if (typeof reason !== "string") return reason;
  const r = await m.judge.votes.refuse(m.user, m.gameId, id, reason);
  return {
    accepted: true,
    text: `Proposal ${r.proposal} of ${m.abbr} is refused: nobody votes on it (seed 002 IX(5)). Every player is told; the proposer also reads your reason: ${r.reason}`,
  };
}

/**
 * CORRECT: the last adjudicated phase played again (seed 002 VIII(1)), some powers' orders
 * replaced: the subject's power takes the order lines before any "<Power>:" line; each such
 * line starts another power's orders. The reply shows the corrected orders as read, with
 * their results, so that a mistyped correction is seen at once.
 */
async function correctByMail(m: GmMail): Promise<CommandAnswer> {
  const { judge, user, gameId, abbr, words, body } = m;
  // The subject's words after the game: a power, a phase (S1901M, or T3 in an EMG game), both.
  const isPhase = (w: string) => parsePhase(w.toUpperCase()) !== null || /^T\d+$/i.test(w);
  const phases = words.filter(isPhase);
  const named = words.filter((w) => !isPhase(w));
  const subjectPower = named.length > 0 ? named.join(" ") : undefined;
  const how = `"CORRECT ${abbr} Germany" (or "CORRECT ${abbr} Germany <the last adjudicated phase>") with the body lines "Secret: ...", "Reason: <why>" and Germany's orders, one a line (or several powers: a line "Germany:" before each power's orders)`;
  if (phases.length > 1) return refuse(`the subject names ${phases.length} phases`, how);
  const phase = phases[0];
  const reason = reasonIn(body, { for: "what the correction is for", how });
  if (typeof reason !== "string") return reason;
  const orders: Record<string, string[]> = {};
  let current = subjectPower;
  if (current !== undefined) orders[current] = [];
  for (const raw of body.split(/\r?\n/)) {
    // A signature ends the orders; quoted lines (a reply's) are not the GM's.
    if (/^--\s*$/.test(raw)) break;
    const line = raw.trim();
    if (line === "" || line.startsWith(">") || REASON_LINE.test(line)) continue;
    const head = /^([\p{L}][\p{L} .'-]*?)\s*:$/u.exec(line);
    if (head) {
      current = head[1]!;
      orders[current] = orders[current] ?? [];
      continue;
    }
    if (current === undefined) {
      return refuse(`the order "${line}" comes before any power is named`, how);
    }
    orders[current]!.push(line.replace(/^\d+[.)]\s*/, ""));
  }
  let view: Awaited<ReturnType<Judge["gm"]["correct"]>>;
  try {
    view = await judge.gm.correct(user, gameId, { orders, reason, ...(phase ? { phase } : {}) });
  } catch (e) {
    // A phase that cannot be corrected: say which one can (seed 002 VIII(1)).
    if (!(e instanceof JudgeError) || !phase) throw e;
    const last = /only the last adjudication, (\S+), can be corrected/i.exec(e.message)?.[1];
    if (!last) throw e;
    return refuse(
      `${e.message}.`,
      `"CORRECT ${abbr}${subjectPower ? ` ${subjectPower}` : ""} ${last}" with a line "Reason: ..." and the orders ${last} should have had; an error of an earlier phase stands, except an extra unit, which "REMOVE ${abbr} <power> ..." removes (VIII(2))`,
    );
  }
  const corrected = (await judge.views.phases(gameId, user).catch(() => [])).at(-1)?.phase ?? phase;
  const lines = [
    `The last adjudication of ${abbr}${corrected ? `, ${corrected},` : ""} is corrected (${reason}).`,
    `The corrected results go to every player. Now: ${view.phase ?? "the game is over"}${view.deadline ? `, due by ${view.deadline}` : ""}.`,
  ];
  if (!view.family) {
    const last = (await judge.views.phases(gameId, user)).at(-1);
    const powers = Object.keys(orders).map((name) => {
      const w = name.toLowerCase();
      const seat = view.seatList.find((s) => s.name.toLowerCase() === w || s.powers.includes(w));
      return { name: seat?.name ?? name, id: seat?.powers.includes(w) ? w : seat?.powers[0] };
    });
    if (last && powers.length > 0) {
      lines.push("", `${last.phase}, the corrected orders as read:`);
      for (const p of powers) {
        const results = last.results[p.id ?? p.name.toLowerCase()] ?? [];
        lines.push(`  ${p.name}:${results.length === 0 ? " no orders" : ""}`);
        for (const r of results)
          lines.push(`    ${r.order ?? r.text}: ${r.result}${r.reason ? ` (${r.reason})` : ""}`);
      }
    }
  }
  return { accepted: true, text: lines.join("\n") };
}

/**
 * RELOCATE: a unit an erroneous adjudication put where it should not be (seed 002 VIII(3)),
 * put in the province where it should stand, or disbanded: `RELOCATE SED France A bur PAR`,
 * `RELOCATE SED France A bur DISBAND`.
 */
async function relocateByMail(m: GmMail): Promise<CommandAnswer> {
  const { judge, user, gameId, abbr, words: args, body } = m;
  const how = `"RELOCATE ${abbr} France A bur PAR" (the unit as it stands, then the province where it should stand; a fleet's coast where the province has two: SPA/SC), or "RELOCATE ${abbr} France A bur DISBAND"`;
  const [power, ...rest] = args;
  if (!power || rest.length < 2) return refuse("no power, unit, or where it should stand", how);
  const where = rest.at(-1)!;
  const unit = rest.slice(0, -1).join(" ");
  const disband = where.toUpperCase() === "DISBAND";
  const reason = reasonIn(body, "a unit an erroneous adjudication misplaced");
  const r = await judge.units.relocateUnit(user, gameId, {
    power,
    unit,
    ...(disband ? { disband: true } : { to: where }),
    reason,
  });
  const { unit: was, to } = r.relocated;
  return {
    accepted: true,
    text: [
      to
        ? `${capitalize(r.relocated.power)}'s ${was} now stands as ${to} on the board of ${abbr} (seed 002 VIII(3); ${reason}).`
        : `${capitalize(r.relocated.power)}'s ${was} is disbanded from the board of ${abbr} (seed 002 VIII(3); ${reason}).`,
      "Orders on file for it as it stood no longer apply. Every player is told.",
    ].join("\n"),
  };
}

/**
 * REMOVE: an extra unit off the board (seed 002 VIII(2)). BUILT: too many built, the
 * excess-builds rule names it; NOT-REMOVED: too few removed, the civil-disorder rule names it;
 * otherwise the unit named (one the GM's own error put on the board). A phase may follow: the
 * one whose adjudication brought the extra unit. One the last adjudication brought is refused,
 * the CORRECT to send instead named (VIII(1)).
 */
async function removeByMail(m: GmMail): Promise<CommandAnswer> {
  const { judge, user, gameId, abbr, words: args, body } = m;
  const [power, ...words] = args;
  const how = `"REMOVE ${abbr} France BUILT" (too many built), "REMOVE ${abbr} France NOT-REMOVED" (too few removed), or "REMOVE ${abbr} France A par" (a unit your own error put on the board); a phase such as W1901A may follow any of them: the phase whose adjudication brought the extra unit`;
  // A last word that is a phase (W1901A): the phase that brought the extra unit.
  const last = words.at(-1);
  const phase = words.length > 1 && last && parsePhase(last) ? last : undefined;
  const rest = phase ? words.slice(0, -1) : words;
  if (!power || rest.length === 0) return refuse("no power, or no unit or cause", how);
  const word = rest.join(" ").toUpperCase();
  const cause =
    rest[0]!.toUpperCase() === "BUILT"
      ? ("built" as const)
      : /^NOT[- ]?REMOVED$/.test(word)
        ? ("not-removed" as const)
        : undefined;
  if (cause === "built" && rest.length > 1)
    return refuse(`"${words.join(" ")}" is not understood`, how);
  const reason = reasonIn(
    body,
    cause === "built"
      ? "too many units built (seed 002 VIII(2))"
      : cause === "not-removed"
        ? "too few units removed (seed 002 VIII(2))"
        : "a unit an error put on the board (seed 002 VIII(2))",
  );
  let r: Awaited<ReturnType<Judge["units"]["removeUnit"]>>;
  try {
    r = await judge.units.removeUnit(user, gameId, {
      power,
      ...(cause ? { cause } : { unit: rest.join(" ") }),
      ...(phase ? { phase } : {}),
      reason,
    });
  } catch (e) {
    // The extra unit came in the last adjudication: VIII(1)'s correction, not VIII(2).
    if (!(e instanceof ExtraUnitTooNew)) throw e;
    return refuse(
      e.message,
      `"CORRECT ${abbr} ${capitalize(e.power)}" with a line "Reason: ..." and the orders ${capitalize(e.power)} should have had in ${e.phase} (seed 002 VIII(1)), which plays ${e.phase} again; or, once another adjudication is published, this REMOVE again`,
    );
  }
  return {
    accepted: true,
    text: [
      `${capitalize(r.removed.power)}'s ${r.removed.unit} is removed from the board of ${abbr} (${reason}).`,
      ...(r.removed.rule ? [`Why this unit: ${r.removed.rule}.`] : []),
      "Every player is told.",
    ].join("\n"),
  };
}

/** The GM's corrections and reviews by mail, one reader a command. */
export const GM_COMMANDS = {
  CORRECT: correctByMail,
  REMOVE: removeByMail,
  RELOCATE: relocateByMail,
  APPROVE: reviewByMail,
  REFUSE: refuseByMail,
} as const;

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
