import type { Judge } from "../judge/judge.ts";
import { gameLink, inviteLink } from "../judge/links.ts";
import type { Voice } from "./dialect.ts";
import type { MailGame, Player } from "./identity.ts";
import type { OutgoingMail } from "./message.ts";
import {
  capital,
  type EventData,
  type GameResult,
  type HeldData,
  heldTo,
  notice,
  noticeSubject,
  resultText,
  when,
} from "./notify-words.ts";

/*
 * What the notifier (notify.ts) mails for each kind of event in a game's log: the start, a
 * phase's results (or their correction), the end, votes and proposals, deadline changes, the
 * GM's notices (removed and relocated units, replacements, civil disorder, draw warnings,
 * refused proposals, held press, the database failing, the chair's timer), built-in players
 * taking seats, missed orders, and press to those who may read it (their words in
 * notify-words.ts). Which mail reaches whom (`Reach`, `reads`) is said here too.
 */

/**
 * Whether the opt-out stops a mail (docs/email.md). `"optional"`: the judge's ordinary mail,
 * sent only to those who did not opt out (`Player.notices`, filtered where its recipients are
 * chosen); it ends with how to stop it (`optOut`) and carries a List-Unsubscribe header.
 * `"duty"`: mail about the recipient's own seat (missed orders, or the seat taken from them)
 * or their duties as the game's GM (a seat to replace), sent whatever they chose; it offers no
 * opt-out that would not stop it (neither the line nor the header) and ends with why it came
 * (`whyAnyway`).
 */
export type Reach = "optional" | "duty";

/**
 * Whether a player (or the GM, seat -1) may read an event of this audience: as the judge's
 * views decide it (views.ts), so that mail tells nobody what the page would not show them
 * (a family game's civil disorder and removed units are the moderator's and the power's).
 */
export const reads = (audience: string, p: Player): boolean =>
  audience === "public" ||
  p.seat === -1 ||
  (audience.startsWith("powers:") &&
    audience
      .slice(7)
      .split(",")
      .some((x) => p.powers.includes(x)));

/** What the events' mail needs of the notifier: the judge, and its one way to write a mail. */
export interface Mailer {
  readonly judge: Judge;
  mail(
    game: MailGame,
    voice: Voice,
    to: Player,
    reach: Reach,
    kind: string,
    subject: string,
    text: string,
  ): OutgoingMail;
}

/** The same mail to each of `players` who gave an address, its text written for each. */
async function toAll(
  n: Mailer,
  game: MailGame,
  voice: Voice,
  players: readonly Player[],
  reach: Reach,
  kind: string,
  subject: string,
  text: (p: Player) => string | Promise<string>,
): Promise<OutgoingMail[]> {
  const out: OutgoingMail[] = [];
  for (const p of players)
    if (p.address) out.push(n.mail(game, voice, p, reach, kind, subject, await text(p)));
  return out;
}

export async function eventMail(
  n: Mailer,
  game: MailGame,
  voice: Voice,
  e: { id: number; kind: string; audience: string; data: unknown },
  told: readonly string[] = [],
  batch: readonly { kind: string; audience: string; data: unknown }[] = [],
): Promise<OutgoingMail[]> {
  const d = (e.data ?? {}) as EventData;
  // The judge's own mail ("optional", see Reach) goes to those who did not opt out
  // (docs/email.md); mail about a player's own seat (missed orders) and the GM's duties
  // ("duty") goes to them regardless, from game.players and game.gm unfiltered.
  const players = game.players.filter((p) => p.notices);
  const gm = game.gm?.notices ? game.gm : null;
  // The GM, with a registered address, gets a copy of what is published (not press).
  const everyone = (gm && e.kind !== "press" ? [...players, gm] : players).filter((p) =>
    reads(e.audience, p),
  );
  // The judge's own mail to everyone who reads the event.
  const toEveryone = (
    kind: string,
    subject: string,
    text: (p: Player) => string | Promise<string>,
  ) => toAll(n, game, voice, everyone, "optional", kind, subject, text);
  switch (e.kind) {
    case "started":
      return toEveryone("started", `the game has started: ${voice.phase(d.phase)}`, async (p) =>
        [
          p.seat === -1
            ? `Game ${game.abbr} has started; you are its game master.`
            : `Game ${game.abbr} has started. You play ${p.powers.map((x) => voice.power(game, x)).join(" and ")}.`,
          `${capital(voice.sends)} for ${voice.phase(d.phase)} are due by ${when(d.deadline)}.`,
          ...(p.seat === -1 ? [] : await voice.started(n.judge, game, p)),
        ].join("\n"),
      );
    case "phase_resolved":
    case "phase_corrected": {
      const next = d.winner
        ? `The game is over: ${d.winner} has won.`
        : d.winners
          ? `The game is over: won by ${d.winners.join(", ")}.`
          : d.next
            ? d.deadline
              ? `Next: ${voice.phase(d.next)}, ${voice.sends} due by ${when(d.deadline)}.`
              : `Next: ${voice.phase(d.next)}; no deadline is set while the game is paused.`
            : null;
      const votes = told.filter((t) => t.startsWith("Proposal "));
      const acts = told.filter((t) => !t.startsWith("Proposal "));
      const with_ = [
        ...(votes.length > 0
          ? ["Votes (counts only, seed 002 IX(4)):", ...votes.map((v) => `  ${v}`)]
          : []),
        ...(acts.length > 0
          ? ["The GM's acts since the last results:", ...acts.map((v) => `  ${v}`)]
          : []),
        ...(next ? [next] : []),
      ];
      const results = await voice.results(
        n.judge,
        game,
        { kind: e.kind, data: d },
        everyone.filter((p) => p.address),
        with_.length > 0 ? with_.join("\n") : null,
      );
      return results.map((r) =>
        n.mail(game, voice, r.to, "optional", "results", r.subject, r.text),
      );
    }
    case "game_over":
      return toEveryone("results", "the game is over", () =>
        [
          `Game ${game.abbr} is over.${d.kind === "draw" && (e.data as { by?: string }).by === "gm" ? ` The GM declared a draw of all survivors (${(d.powers ?? []).map((x) => voice.power(game, x)).join(", ")}), seed 002 IX(2).` : ""}`,
          "",
          `Result: ${resultText(voice, game, e.data as GameResult)}.`,
        ].join("\n"),
      );
    case "vote_result":
      return toEveryone(
        "results",
        `vote ${d.id}: ${d.passed ? "passed" : "failed"}`,
        () =>
          `The proposal "${d.text}" ${d.passed ? "passed" : "failed"}: ${d.for} for, ${d.against} against, ${d.abstain} abstaining.`,
      );
    case "proposal":
      return toEveryone("vote", `proposal ${d.id}: ${d.text}`, () =>
        [
          `A proposal was made (number ${d.id}): ${d.text}.`,
          `It is decided with the ${voice.sends} of ${voice.phase(d.due ?? d.phase)}.`,
          voice.votesByMail && game.byMail
            ? `Vote by mail: subject "${game.abbr} VOTE", a body line "vote ${d.id} yes" (or no, abstain) and your secret line.`
            : game.byMail
              ? "Vote on the game's page (the game's mail takes commands and report requests only)."
              : "Vote on the game's page.",
        ].join("\n"),
      );
    case "deadline":
    case "paused":
    case "resumed":
      return toEveryone(
        "notice",
        `${e.kind === "deadline" ? "new deadline" : e.kind}: ${voice.phase(d.phase)}`,
        () =>
          e.kind === "paused"
            ? `The GM paused the game in ${voice.phase(d.phase)}.`
            : `${capital(voice.sends)} for ${voice.phase(d.phase)} are now due by ${when(d.deadline)}.`,
      );
    case "unit_removed":
    case "unit_relocated":
    case "player_replaced":
    case "draw_warning":
    case "civil_disorder":
      return toEveryone("notice", noticeSubject(e.kind, d), () => notice(voice, e.kind, d));
    case "proposal_refused": {
      // The proposer, mailed the reason in this same batch, gets that one mail only.
      const reason = batch.find(
        (x) => x.kind === "proposal_refused_reason" && (x.data as EventData | null)?.id === d.id,
      );
      const proposer = reason ? audienceOf(players, reason.audience) : [];
      return toAll(
        n,
        game,
        voice,
        everyone.filter((p) => !proposer.includes(p)),
        "optional",
        "vote",
        `proposal ${d.id} refused`,
        () => notice(voice, e.kind, d),
      );
    }
    case "proposal_refused_reason":
      // To the proposer alone (who proposed is secret, seed 002 IX(4)); the GM gave it.
      return toAll(
        n,
        game,
        voice,
        audienceOf(players, e.audience),
        "optional",
        "vote",
        `proposal ${d.id} refused`,
        () =>
          [
            `The GM refused to put your proposal ${d.id} ("${d.text}") to the vote (seed 002 IX(5)): nobody votes on it.`,
            `The GM's reason: ${d.reason}`,
            "Every player is told that it was refused, not who proposed it nor why.",
          ].join("\n"),
      );
    case "bot_seated":
    case "bot_removed":
    case "bot_took_over": {
      // Public seatings go to everybody; a takeover and a hand-back to the seat's player and
      // the GM ("duty": about their own seat), unless the missed-orders mail says it.
      if (e.audience === "public")
        return toEveryone("notice", `${d.seatName}: a built-in player`, () =>
          notice(voice, e.kind, d),
        );
      const told = batch.some(
        (x) => x.kind === "missed_orders" && (x.data as EventData | null)?.seat === d.seat,
      );
      if (e.kind === "bot_took_over" && told) return [];
      const holder = game.players.filter((p) => p.seat === d.seat);
      return toAll(
        n,
        game,
        voice,
        game.gm ? [...holder, game.gm] : holder,
        "duty",
        "nmr",
        e.kind === "bot_took_over"
          ? `a built-in player plays ${d.seatName}`
          : `${d.seatName} is played by its player again`,
        () => notice(voice, e.kind, d),
      );
    }
    case "missed_orders": {
      // At once, to the seat's player and the GM: the player keeps the seat (seed 002 VII(6)).
      // Unless the seat fell into civil disorder with it: its player is then told so alone
      // (seatLost), and the GM is not told that they keep it.
      const holder = game.players.filter((p) => p.seat === d.seat);
      const to = game.gm ? [...holder, game.gm] : holder;
      const lost = batch.some(
        (x) => x.kind === "civil_disorder" && (x.data as EventData | null)?.seat === d.seat,
      );
      const names = (d.powers ?? []).map((x) => voice.power(game, x)).join(" and ");
      return toAll(
        n,
        game,
        voice,
        to,
        "duty",
        "nmr",
        `no orders received from ${d.seatName} for ${voice.phase(d.phase)}`,
        (p) =>
          [
            d.bot
              ? `No orders received from ${names || d.seatName} for ${voice.phase(d.phase)}: the built-in player ${d.bot} played them instead of holding (the game's option botTakeover), and plays the seat until ${p.seat === -1 ? "the player sends" : "you send"} orders again or a player is seated.`
              : `No orders received from ${names || d.seatName} for ${voice.phase(d.phase)}: the phase was adjudicated without them (civil disorder for that phase).`,
            p.seat === -1
              ? lost
                ? `${d.player ?? "The player"} no longer holds the seat: it is in civil disorder (the game's option civilDisorderAfter), and a replacement may be arranged.`
                : `${d.player ?? "The player"} keeps the seat. If there are still no orders from them by ${when(d.contactUntil)}, you will be told that a replacement may be arranged.`
              : `You keep your seat. Please send orders for the next phase, or write to the GM; if there are still no orders from you by ${when(d.contactUntil)}, the GM may arrange a replacement.`,
          ].join("\n"),
      );
    }
    case "replacement_suggested":
      // To the GM only, once the contact window has passed: the commands to replace.
      return toGm(n, game, voice, "nmr", `a replacement may be arranged for ${d.seatName}`, () =>
        [
          `No orders received from ${d.player} (${d.seatName}) since ${voice.phase(d.phase)} (${d.missed} phase(s) missed in a row), and the contact window has passed: a replacement may be arranged (seed 002 VII(6)).`,
          ...(game.byMail
            ? [
                `The player keeps the seat until you decide. To open it for a replacement, send`,
                `  REPLACE ${game.abbr} ${d.seatName}`,
                `with your secret line: the judge answers with the seat's invitation code, which the`,
                `replacement sends as "JOIN <code>". Or give it to a registered player at once:`,
                `  REPLACE ${game.abbr} ${d.seatName} <user>`,
              ]
            : [
                `The player keeps the seat until you decide. To open it for a replacement, or give it`,
                `to a registered player, use the game master's tab of the game's page`,
                `(POST /api/games/${game.id}/gm/replace {"seat": ${d.seat}} or {"seat": ${d.seat}, "user": ...}).`,
              ]),
        ].join("\n"),
      );
    case "replacement_needed":
      // To the GM only: the seat's invitation code and the mail command to replace.
      return toGm(n, game, voice, "notice", `a replacement may be arranged for ${d.seatName}`, () =>
        [
          `${d.seatName} is in civil disorder (seed 002 VII(6)); a replacement may be arranged.`,
          `Give the replacement the invitation code ${d.code} (they send "JOIN ${d.code}"${d.code && n.judge.publicUrl ? `, or open ${inviteLink(n.judge.publicUrl, d.code)}` : ""}),`,
          game.byMail
            ? `or send "REPLACE ${game.abbr} ${d.seatName} <user>" with your secret line.`
            : `or give the seat to a registered player on the game master's tab of the game's page.`,
        ].join("\n"),
      );
    case "store_fault": {
      // To the GM only: the judge's database could not read or write for a while
      // (src/server/readiness.ts); players' requests meanwhile were refused, not lost.
      const f = e.data as { cause?: string; since?: string; until?: string | null };
      return toGm(
        n,
        game,
        voice,
        "notice",
        f.until ? "the judge's database failed for a while" : "the judge's database is failing",
        () =>
          [
            `The judge's database ${f.until ? `could not be used from ${f.since} to ${f.until}` : `cannot be used since ${f.since}`}: ${f.cause}.`,
            `Meanwhile the judge refused requests it could not store (answered 503, "try again later"): nothing it acknowledged is lost, but orders, press or votes sent then were not taken. Players may need to send them again; a deadline may need extending (the game master's tools).`,
            f.until
              ? `It works again now.`
              : `It does not work yet; the server's log says the same to its administrator.`,
          ].join("\n"),
      );
    }
    case "chair_timer_ended": {
      // To the chair (the GM) only: the time of a stage is up (seed 000; src/judge/chair.ts).
      const t = e.data as { stage?: string; resolving?: boolean } | null;
      const stage =
        t?.stage === "orders"
          ? "order writing"
          : t?.stage === "diplomacy"
            ? "the diplomatic phase"
            : "the speech";
      return toGm(n, game, voice, "notice", `time is up: ${stage}`, () =>
        [
          `The chairs' timer for ${stage} has run out in ${voice.phase(d.phase)}.`,
          t?.resolving
            ? "The game's option resolveWhenOrdersTimerEnds is on: the judge resolves the phase now."
            : t?.stage === "orders"
              ? `Reveal and resolve the orders on the projector page (/chair/${game.id}) when the room is ready.`
              : "Start the next timer on the projector page when the room is ready.",
        ].join("\n"),
      );
    }
    case "press":
      return press(n, game, voice, d.id ?? 0);
    case "press_held": {
      // To the GM alone, once per message: a player's press awaits review (seed 002 X(1)).
      const h = e.data as HeldData;
      const abbr = game.abbr;
      return toGm(n, game, voice, "press", `press ${h.held} awaits your review`, () =>
        [
          `${h.from ? voice.power(game, h.from) : "A player"} sent ${h.kind === "grey" ? "grey (anonymous) " : ""}press to ${heldTo(game, voice, h.to)} in ${voice.phase(h.phase)}; it is held until you approve or refuse it (the game's option press.review, seed 002 X(1)). Nobody else reads it meanwhile.`,
          "",
          h.body,
          "",
          game.byMail
            ? `To publish it, send "APPROVE ${abbr} PRESS ${h.held}"; to refuse it, "REFUSE ${abbr} PRESS ${h.held}" with a body line "Reason: <why>" (the author alone reads it). Both with your secret line.`
            : `Approve or refuse it on the game master's tab of the game's page${gameLink(n.judge.publicUrl, game.id) ? ` (${gameLink(n.judge.publicUrl, game.id)})` : ""}.`,
        ].join("\n"),
      );
    }
    case "press_refused":
    case "press_approved": {
      // To the author alone (nobody else learns that a message was held or refused).
      const h = e.data as HeldData;
      const refused = e.kind === "press_refused";
      return toAll(
        n,
        game,
        voice,
        audienceOf(game.players, e.audience),
        "duty",
        "press",
        refused ? "the GM refused to publish your press" : "the GM published your press",
        () =>
          (refused
            ? [
                `The GM refused to publish your press to ${heldTo(game, voice, h.to)} of ${voice.phase(h.phase)} (seed 002 X(1)): nobody else reads it.`,
                `The GM's reason: ${h.reason}`,
                "",
                "Your message was:",
                h.body ?? "",
              ]
            : [
                `The GM approved your press to ${heldTo(game, voice, h.to)} of ${voice.phase(h.phase)}: it is delivered to its recipients now.`,
              ]
          ).join("\n"),
      );
    }
    default:
      return [];
  }
}

/**
 * A mail to the game's GM alone, about their duties (sent whatever they chose), if they gave
 * an address.
 */
function toGm(
  n: Mailer,
  game: MailGame,
  voice: Voice,
  kind: string,
  subject: string,
  text: () => string,
): Promise<OutgoingMail[]> {
  return toAll(n, game, voice, game.gm ? [game.gm] : [], "duty", kind, subject, text);
}

/** The players an event's audience (`powers:a,b`) names; nobody for "public" or "gm". */
function audienceOf(players: readonly Player[], audience: string): Player[] {
  if (!audience.startsWith("powers:")) return [];
  const powers = audience.slice(7).split(",");
  return players.filter((p) => p.powers.some((x) => powers.includes(x)));
}

/** A message to those who may read it (the judge decides that, as for the web page). */
async function press(n: Mailer, game: MailGame, voice: Voice, id: number): Promise<OutgoingMail[]> {
  const out: OutgoingMail[] = [];
  // The GM publishes press (seed 002 X(1)) and reads all of it: a copy of every message,
  // private ones too, with a grey message's author (never revealed to others, X(2)).
  for (const p of [...game.players, ...(game.gm ? [game.gm] : [])]) {
    if (!p.address || !p.notices) continue;
    // The event names the message by its row id; the player reads it as the judge lets them.
    const m = await n.judge.press.pressMessage(p.user, game.id, id);
    if (!m || m.yours) continue;
    const to = m.to === "all" ? "everybody" : (m.to as string[]).join(", ");
    out.push(
      n.mail(
        game,
        voice,
        p,
        "optional",
        "press",
        `press from ${m.fromName}`,
        [
          ...(p.seat < 0
            ? ["Your copy as the GM (every message of the game reaches you, seed 002 X(1)).", ""]
            : []),
          `From: ${m.fromName}${m.kind === "grey" ? " (grey press)" : ""}`,
          `To: ${to}`,
          `Phase: ${m.phase}`,
          "",
          m.body,
        ].join("\n"),
      ),
    );
  }
  return out;
}
