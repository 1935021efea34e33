import type { Judge } from "../../judge/judge.ts";
import * as R from "../responses.ts";
import { type Route, route } from "../router.ts";
import { anyJson, bool, dict, either, int, list, obj, oneOf, optional, str } from "../schema.ts";
import { need, optionsSchema, power } from "./shared.ts";

/*
 * The games' routes: list, create, practice, a game, its phases and record, invitations, and
 * the orders (send a set, read yours).
 */

const ordersInput = either(
  list(str({ max: 200 }), { max: 500 }),
  str({ max: 50_000 }),
  "a list of order lines or one text",
);

export function gameRoutes(judge: Judge): Route[] {
  return [
    route({
      method: "GET",
      path: "/api/games",
      response: R.gamesAnswer.json,
      tag: "games",
      summary: "All games",
      auth: "optional",
      handler: async () => judge.games.listGames(),
    }),
    route({
      method: "POST",
      path: "/api/games",
      response: R.gameView.json,
      tag: "games",
      summary: "Create a game; you are its game master",
      description:
        "Answers with the game, including two invitation codes (player and observer) for /api/invites/{code}.",
      auth: "required",
      body: obj({
        name: str({ min: 1, max: 80, example: "Club game 1" }),
        variant: optional(str({ max: 40, description: "default classical" })),
        scenario: optional(
          str({ max: 10, description: "players: 7 (default), 6, 5, 4, 3, 3b, 2" }),
        ),
        rules: optional(
          anyJson("a rule profile name or an object of rule options (docs/rules.md); default datc"),
        ),
        options: optional(optionsSchema),
        seed: optional(
          int({ min: 0, max: 2 ** 31, description: "seed of the game's random choices" }),
        ),
        label: optional(
          str({
            min: 1,
            max: 12,
            example: "GD001",
            description:
              "the game's id as its players know it (reports, mail subjects, EMG's game id): 1 to 12 letters or digits, unique; default none (the judge's id)",
          }),
        ),
        players: optional(
          int({
            min: 0,
            max: 1000,
            description:
              "discovery: the player count, 9 to 20 (default 9); the map is generated for it from the seed",
          }),
        ),
        variantData: optional(
          anyJson(
            "instead of variant: a variant data file (docs/variant.schema.json), checked and kept with the game; played one power per seat",
          ),
        ),
        bots: optional(
          dict(
            str({
              min: 1,
              max: 40,
              description:
                'seats played by built-in players: a power\'s id or name (or a seat\'s number) to a bot\'s id or "default", e.g. {"france": "random"}; in a game family (global, discovery) a power\'s id or name, and the family\'s bots (family, random)',
            }),
            50,
          ),
        ),
        daide: optional(
          list(
            str({
              min: 1,
              max: 40,
              description:
                'a seat kept for a DAIDE client (an AI program: docs/daide.md): a power\'s id or name, or a seat\'s number, e.g. ["england", "france"]; the game gets a DAIDE port (daide.port in its answer) while it is forming or running. Only on a judge started with --daide-ports (Diplomacy variants)',
            }),
            { max: 50 },
          ),
        ),
      }),
      successStatus: 201,
      handler: async (c) => judge.games.createGame(need(c.user), c.body),
    }),
    route({
      method: "POST",
      path: "/api/practice",
      response: R.gameView.json,
      tag: "games",
      summary: "Start a practice game: you play one power, built-in players the others",
      description:
        "One click from the lobby: a game where you play the power asked for (else one drawn at random) and the strongest built-in player (or `bot`) every other; it starts at once, each phase resolves as soon as your orders are final, else after a week. Nobody is its GM.",
      auth: "required",
      body: obj({
        variant: optional(
          str({
            max: 40,
            description:
              "default classical; a Diplomacy variant, or a game family (global, discovery: its default player count)",
          }),
        ),
        power: optional(power),
        bot: optional(
          str({
            min: 1,
            max: 40,
            description:
              "a built-in player's id the game takes (a family: family or random); default the strongest",
          }),
        ),
      }),
      successStatus: 201,
      handler: async (c) => judge.bots.practice(need(c.user), c.body),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}",
      response: R.gameView.json,
      tag: "games",
      summary: "A game: phase, deadline, seats, position, your role (and invitations, for the GM)",
      auth: "optional",
      handler: async (c) => judge.views.gameView(c.user, c.params.id!),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/phases",
      response: R.phasesAnswer.json,
      tag: "games",
      summary: "Every adjudicated phase: orders, results with reasons, dislodgements, position",
      auth: "optional",
      handler: async (c) => judge.views.phases(c.params.id!, c.user),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/record",
      response: R.recordAnswer.json,
      tag: "games",
      summary: "The game record (docs/records.md)",
      auth: "optional",
      handler: async (c) => judge.views.recordFor(c.user, c.params.id!),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/invites",
      response: R.inviteCreated.json,
      tag: "games",
      summary: "GM: a new invitation link (for a player, optionally to one seat, or an observer)",
      auth: "required",
      body: obj({
        role: oneOf(["player", "observer"] as const),
        seat: optional(int({ min: 0, max: 100 })),
      }),
      successStatus: 201,
      handler: async (c) =>
        judge.games.createInvite(need(c.user), c.params.id!, c.body.role, c.body.seat ?? null),
    }),
    route({
      method: "GET",
      path: "/api/invites/{code}",
      response: R.inviteInfo.json,
      tag: "games",
      summary: "What an invitation is for, and the free seats",
      auth: "none",
      handler: async (c) => judge.games.inviteInfo(c.params.code!),
    }),
    route({
      method: "POST",
      path: "/api/invites/{code}",
      response: R.gameView.json,
      tag: "games",
      summary: "Accept an invitation: join as observer, or take a seat (given, or the first free)",
      auth: "required",
      body: optional(obj({ seat: optional(int({ min: 0, max: 100 })), power: optional(power) })),
      handler: async (c) => judge.games.acceptInvite(need(c.user), c.params.code!, c.body ?? {}),
    }),
    // Orders
    route({
      method: "POST",
      path: "/api/games/{id}/orders",
      response: R.submissionAnswer.json,
      tag: "orders",
      summary: "Send an order set (preliminary unless final); it replaces your previous set whole",
      description:
        "Orders as lines or as one text; a line with a power's name switches power (seats with several), a line 'Final' marks the set final. The answer gives a diagnostic per line. Give 'phase' to make sure the orders land in the phase you wrote them for.",
      auth: "required",
      body: obj({
        orders: ordersInput,
        power: optional(power),
        final: optional(bool("default false: preliminary (seed 002 II(1) B)")),
        phase: optional(str({ max: 10, example: "S1901M" })),
      }),
      responses: { 409: "the phase named is no longer open, or the game is over" },
      handler: async (c) => judge.submissions.submitOrders(need(c.user), c.params.id!, c.body),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/orders",
      response: R.currentOrdersAnswer.json,
      tag: "orders",
      summary: "Your current order sets for the open phase (the GM: everybody's)",
      auth: "required",
      handler: async (c) => judge.submissions.currentOrders(need(c.user), c.params.id!),
    }),
  ];
}
