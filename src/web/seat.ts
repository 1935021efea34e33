import { h } from "./dom.ts";
import type { GameParts } from "./parts.ts";
import type { GameView, LostSeat } from "./types.ts";

/*
 * The notice a player who lost their seat reads on the game page (docs/web.md): which seat,
 * when, why, and what is left to them. The judge gives it to them alone (the game view's
 * `lostSeat`, src/judge/seat-loss.ts); its words follow the mail they are sent about it
 * (src/mail/notify.ts `seatLost`), so that both say the same. The lobby's "My games" says it
 * in a few words (`lostSeatShort`).
 */

/** An ISO time as the mail writes it: `2026-11-24 14:30 UTC`. */
const when = (iso: string) => iso.replace(/:\d\d(\.\d+)?Z$/, " UTC").replace("T", " ");

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The notice, or null when the viewer lost no seat (or holds one now). */
export function lostSeatNotice(view: GameView, parts: GameParts): HTMLElement | null {
  const lost = view.lostSeat;
  if (!lost) return null;
  const { phase: phaseWord, orders } = parts.words;
  const at = lost.phase
    ? [`in ${phaseWord} `, h("strong", {}, lost.phase), ` (${when(lost.at)})`]
    : [`on ${when(lost.at)}`];
  const after = view.options.civilDisorderAfter ?? 0;
  // Who holds the seat now, if anybody (the seat list is public).
  const holder = view.seatList[lost.seat]?.player ?? null;
  const why =
    lost.cause === "civil_disorder"
      ? [
          h("strong", {}, lost.seatName),
          " was declared in civil disorder ",
          ...at,
          `: you missed ${count(lost.missed ?? after, phaseWord)} in a row, and this game declares a seat in civil disorder after ${after} (its option civilDisorderAfter). ${holder ? `Its powers went on in civil disorder, adjudicated without ${orders}, until a replacement took the seat.` : `Its powers go on in civil disorder, adjudicated without ${orders}, until a replacement takes the seat.`}`,
        ]
      : lost.to
        ? [
            "The GM gave your seat, ",
            h("strong", {}, lost.seatName),
            `, to ${lost.to} `,
            ...at,
            ".",
          ]
        : [
            "The GM took your seat, ",
            h("strong", {}, lost.seatName),
            ", ",
            ...at,
            " and opened it for a replacement.",
          ];
  const since = holder && holder !== lost.to ? ` ${holder} holds it now.` : "";
  const invitation = (its: string) =>
    `directly or by sending you ${its} invitation (open its link, or enter its code under "Join with an invitation" in the lobby).`;
  const back = holder
    ? `Only the GM can give you a seat again, ${invitation("an")}`
    : lost.cause === "civil_disorder"
      ? `The seat is open for a replacement by an invitation the GM holds: the GM decides who takes it, and may give it back to you, ${invitation("its")}`
      : `Only the GM can give the seat back to you, ${invitation("its")}`;
  // Once the game is over nobody is seated again: what happened, and no more.
  const over = view.status === "finished";
  return h(
    "section",
    { class: "card lost-seat", role: "status", "aria-label": "your seat" },
    h("h2", {}, `You no longer hold ${lost.seatName}`),
    h("p", {}, ...why, since),
    over ? h("p", {}, "The game is over.") : null,
    over
      ? null
      : [
          h(
            "p",
            {},
            `You stay in the game as an observer: you can follow it here, but no longer send ${orders} or press.`,
          ),
          h("p", {}, back),
          h(
            "p",
            { class: "hint" },
            `Observers send no press, so this page cannot reach the GM for you: to play on${lost.cause === "replaced" ? ", or if you think this is a mistake" : ""}, tell the GM another way.`,
          ),
        ],
  );
}

/** The lobby's "You" column for a game where the viewer lost the seat: `observer: lost Italy (civil disorder)`. */
export function lostSeatShort(lost: LostSeat): string {
  return `observer: lost ${lost.seatName} (${lost.cause === "civil_disorder" ? "civil disorder" : "replaced by the GM"})`;
}
