import type { Judge, User } from "../../judge/judge.ts";
import { configureMailGame } from "../../judge/mail.ts";
import * as R from "../responses.ts";
import { type Route, route } from "../router.ts";
import { bool, dict, int, list, num, obj, oneOf, optional, str } from "../schema.ts";
import { name, need, power } from "./shared.ts";

/*
 * The game master's routes, POST /api/games/{id}/gm/<action>: one `gm` line an action, what
 * it answers in GM_ANSWERS.
 */

export function gmRoutes(judge: Judge): Route[] {
  return [
    gm(
      "start",
      "Start the game now (it also starts when the last seat is taken)",
      undefined,
      (u, id) => judge.games.start(u, id),
    ),
    gm("pause", "Pause the deadline", undefined, (u, id) => judge.gm.pause(u, id)),
    gm("resume", "Resume: the deadline is what was left (at least a minute)", undefined, (u, id) =>
      judge.gm.resume(u, id),
    ),
    gm(
      "deadline",
      "Move the deadline: later by some minutes, or to a time (now: adjudicate at once)",
      obj({
        extendMinutes: optional(num({ min: -525_600, max: 525_600 })),
        at: optional(str({ max: 40, example: "2030-01-01T12:00:00Z" })),
      }),
      (u, id, b) => judge.gm.setDeadline(u, id, b),
    ),
    gm(
      "correct",
      "Correct the last adjudication (seed 002 VIII(1)): play it again, some powers' orders replaced",
      obj({
        orders: optional(dict(list(str({ max: 200 }), { max: 200 }), 50)),
        reason: str({ min: 1, max: 2000 }),
        phase: optional(str({ max: 20, example: "F1901M" })),
      }),
      (u, id, b) => judge.gm.correct(u, id, b),
    ),
    gm(
      "remove-unit",
      "Remove an extra unit from the board (seed 002 VIII(2)): the unit named, or the one the house rule names for how it came to be",
      obj({
        power,
        unit: optional(
          str({
            min: 1,
            max: 20,
            description: "the unit as the position writes it (`A par`, `F 233`), or its area",
            example: "A par",
          }),
        ),
        cause: optional(
          oneOf(
            ["built", "not-removed"] as const,
            "instead of a unit: built (too many built: the excess-builds rule, V(2)) or not-removed (too few removed: the civil-disorder rule, V(4))",
          ),
        ),
        phase: optional(
          str({
            max: 12,
            example: "W1901A",
            description:
              "the adjudicated phase that brought the extra unit (cause built: the adjustment phase of the excess builds); by default the record tells",
          }),
        ),
        reason: str({ min: 1, max: 2000 }),
      }),
      (u, id, b) => judge.units.removeUnit(u, id, b),
      "the game is over, or the extra unit came to be in the last adjudication (seed 002 VIII(2) asks more than one): an error of that adjudication, which gm/correct puts right (VIII(1)); the message says so",
    ),
    gm(
      "relocate-unit",
      "Put a unit an erroneous adjudication placed where it should not be (seed 002 VIII(3)) in the province where it should stand, or disband it",
      obj({
        power,
        unit: str({
          min: 1,
          max: 20,
          description: "the misplaced unit as the position writes it (`A par`), or its province",
          example: "A par",
        }),
        to: optional(
          str({
            min: 2,
            max: 12,
            description:
              "the province where it should stand: empty, one its type may stand in (a fleet with its coast where the province has two: `spa/sc`)",
            example: "gas",
          }),
        ),
        disband: optional(bool("true: disband the unit instead (no `to`)")),
        reason: str({ min: 1, max: 2000 }),
      }),
      (u, id, b) => judge.units.relocateUnit(u, id, b),
    ),
    gm(
      "replace",
      "Replace a player (seed 002 VII(5)-(6)): give the seat to a user, or vacate it with a new invitation",
      obj({ seat: int({ min: 0, max: 100 }), user: optional(name) }),
      (u, id, b) => judge.gm.replacePlayer(u, id, b),
    ),
    gm(
      "bot",
      'Seat a built-in player in a seat no player holds (bot: its id, or "default"), or take it off (bot: "off"); it sends its orders as each phase opens',
      obj({
        seat: optional(int({ min: 0, max: 100 })),
        power: optional(power),
        bot: str({
          min: 1,
          max: 40,
          description:
            'a built-in player\'s id, "default" (the strongest), or "off" to take it off',
        }),
      }),
      (u, id, b) =>
        judge.bots.setBot(u, id, { ...b, bot: b.bot.toLowerCase() === "off" ? null : b.bot }),
      "the seat is a player's (replace them first), or no bot plays it (taking one off), or the game is over",
    ),
    gm(
      "end",
      "End the game: a draw (of the powers given, or all survivors), a concession, abandoned, or (europe1935, the chairs closing the committee) on victory points: the power alone on the most points wins, a tie at the top draws",
      obj({
        result: oneOf(["draw", "concession", "abandoned", "points"] as const),
        powers: optional(list(power, { max: 50 })),
        note: optional(str({ max: 2000 })),
      }),
      (u, id, b) => judge.endings.endGame(u, id, b),
    ),
    gm(
      "mail",
      "Play the game by mail: its subject abbreviation (SED in 'SED 01SA'; by default the game's label) and the address orders go To",
      obj({
        abbreviation: optional(
          str({
            min: 1,
            max: 12,
            example: "SED",
            description: "the game's id in mail; default its label (chosen at creation)",
          }),
        ),
        address: str({ min: 3, max: 254, example: "sed@judge.example.org" }),
      }),
      (u, id, b) => configureMailGame(judge, u, id, b),
    ),
    gm(
      "refuse-proposal",
      "Refuse to conduct a vote on a repetitive or humorous proposal (seed 002 IX(5)); the reason goes to the proposer",
      obj({ proposal: int({ min: 1 }), reason: str({ min: 1, max: 2000 }) }),
      (u, id, b) => judge.votes.refuse(u, id, b.proposal, b.reason),
    ),
    gm(
      "approve-press",
      "Publish a held message (the option press.review, seed 002 X(1)): delivered to its recipients as sent, its time kept",
      obj({ held: int({ min: 1, description: "the held message's number (GET .../press/held)" }) }),
      (u, id, b) => judge.press.approvePress(u, id, b.held),
      "the message is no longer held (already approved or refused)",
    ),
    gm(
      "refuse-press",
      "Refuse to publish a held message (seed 002 X(1)); the reason goes to its author alone",
      obj({ held: int({ min: 1 }), reason: str({ min: 1, max: 2000 }) }),
      (u, id, b) => judge.press.refusePress(u, id, b.held, b.reason),
      "the message is no longer held (already approved or refused)",
    ),
    gm(
      "declare-draw",
      "Warn, then declare a draw of all survivors after years (turns) with no centre change (seed 002 IX(2) A)",
      obj({ warn: bool("true: give the warning; false: declare") }),
      (u, id, b) => judge.endings.declareDraw(u, id, b),
    ),
  ];
}

/** What the GM's actions answer: the game as the GM sees it, unless named here. */
const GM_ANSWERS: Readonly<Record<string, import("../schema.ts").Schema<unknown>>> = {
  replace: R.replaceAnswer,
  bot: R.botAnswer,
  "refuse-proposal": R.proposalRefused,
  "approve-press": R.pressDecided,
  "refuse-press": R.pressDecided,
  "remove-unit": R.unitRemoved,
  "relocate-unit": R.unitRelocated,
  mail: R.documented(
    "the game's mail settings: abbreviation, address, power letters (docs/email.md)",
  ),
};

function gm<B>(
  action: string,
  summary: string,
  body: import("../schema.ts").Schema<B> | undefined,
  run: (user: User, gameId: string, body: B) => Promise<unknown>,
  conflicts = "not possible in the game's state",
): Route {
  return route<B>({
    method: "POST",
    path: `/api/games/{id}/gm/${action}`,
    tag: "game master",
    summary: `GM: ${summary}`,
    auth: "required",
    ...(body ? { body } : {}),
    response: (GM_ANSWERS[action] ?? R.gameView).json,
    responses: { 403: "you are not the game master", 409: conflicts },
    handler: async (c) => (await run(need(c.user), c.params.id!, c.body)) ?? { ok: true },
  });
}
