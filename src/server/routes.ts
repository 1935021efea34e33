import { invalid, unauthenticated } from "../judge/errors.ts";
import type { Judge, User } from "../judge/judge.ts";
import { variantIds } from "../variants/registry.ts";
import { scenariosOf } from "../variants/scenarios.ts";
import type { EventHub } from "./events.ts";
import { type Ctx, type Route, route } from "./router.ts";
import {
  anyJson,
  bool,
  dict,
  either,
  int,
  list,
  num,
  obj,
  oneOf,
  optional,
  str,
} from "./schema.ts";

/*
 * The REST API: every route, its input schema and its handler. The OpenAPI document at
 * /api/docs is generated from this table (openapi.ts).
 */

const name = str({ min: 2, max: 40, description: "user name", example: "alice" });
const password = str({ min: 8, max: 200, description: "at least 8 characters" });
const power = str({ min: 1, max: 40, description: "a power's id or name", example: "england" });

const optionsSchema = obj(
  {
    deadlines: optional(
      obj({
        unit: optional(oneOf(["days", "hours", "minutes"] as const, "default days")),
        movement: optional(
          num({ min: 0.001, max: 525_600, description: "default 3 (seed 002 VII(4))" }),
        ),
        retreats: optional(num({ min: 0.001, max: 525_600, description: "default 1" })),
        adjustments: optional(num({ min: 0.001, max: 525_600, description: "default 1" })),
      }),
    ),
    resolveEarly: optional(
      bool("resolve as soon as every power's orders are final; default false (seed 002 VII(2) A)"),
    ),
    civilDisorderAfter: optional(
      int({
        min: 0,
        max: 100,
        description: "missed phases in a row before civil disorder; 0 never; default 2",
      }),
    ),
    press: optional(
      obj({
        white: optional(bool("signed press; default true")),
        grey: optional(bool("anonymous press; default true")),
        duringRetreatsAndAdjustments: optional(bool("default false (seed 002 II(5))")),
      }),
    ),
    startWhenFull: optional(bool("start when the last seat is taken; default true")),
    drawAfterYearsWithoutChange: optional(
      int({ min: 1, max: 100, description: "seed 002 IX(2) A; default 2" }),
    ),
  },
  "judge options; every field optional (docs/judge.md)",
);

const ordersInput = either(
  list(str({ max: 200 }), { max: 500 }),
  str({ max: 50_000 }),
  "a list of order lines or one text",
);

const need = (u: User | null): User => {
  if (!u) throw unauthenticated("log in first: send Authorization: Bearer <token>");
  return u;
};

const afterParam = (q: URLSearchParams, header?: string | string[]): number => {
  const raw = q.get("after") ?? (typeof header === "string" ? header : undefined);
  if (raw === undefined || raw === null || raw === "") return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw invalid(`"after" must be an event id (a whole number), not "${raw}"`);
  return n;
};

const pid = (c: Ctx<unknown>): number => {
  const n = Number(c.params.pid);
  if (!Number.isInteger(n) || n < 1) throw invalid(`no proposal "${c.params.pid}"`);
  return n;
};

export function apiRoutes(judge: Judge, hub: EventHub, info: { database: string }): Route[] {
  return [
    route({
      method: "GET",
      path: "/api/health",
      tag: "server",
      summary: "Health: the server runs and reaches its database",
      auth: "none",
      handler: async () => ({
        status: "ok",
        database: info.database,
        time: new Date(judge.now()).toISOString(),
        pid: process.pid,
        adjudications: judge.adjudications,
      }),
    }),
    route({
      method: "GET",
      path: "/api/variants",
      tag: "games",
      summary: "Variants and their scenarios (who plays which powers)",
      auth: "none",
      handler: async () =>
        variantIds().map((id) => ({
          id,
          scenarios: scenariosOf(id).map((s) => ({
            id: s.id,
            description: s.description,
            seats: s.seats.map((x) => ({ name: x.name, powers: x.powers })),
          })),
        })),
    }),
    // Accounts
    route({
      method: "POST",
      path: "/api/users",
      tag: "accounts",
      summary: "Create an account; answers with a token",
      auth: "none",
      body: obj({ name, password }),
      successStatus: 201,
      responses: { 409: "the name is taken" },
      handler: async (c) => ({
        status: 201,
        body: await judge.register(c.body.name, c.body.password),
      }),
    }),
    route({
      method: "POST",
      path: "/api/login",
      tag: "accounts",
      summary: "Log in with name and password; answers with a new token",
      auth: "none",
      body: obj({ name, password: str({ min: 1, max: 200 }) }),
      responses: { 401: "wrong name or password" },
      handler: async (c) => judge.login(c.body.name, c.body.password),
    }),
    route({
      method: "GET",
      path: "/api/me",
      tag: "accounts",
      summary: "Who the token belongs to",
      auth: "required",
      handler: async (c) => ({ user: need(c.user) }),
    }),
    route({
      method: "GET",
      path: "/api/tokens",
      tag: "accounts",
      summary: "Your API tokens (never the secrets)",
      auth: "required",
      handler: async (c) => judge.listTokens(need(c.user)),
    }),
    route({
      method: "POST",
      path: "/api/tokens",
      tag: "accounts",
      summary: "A new API token, for a program acting for you (shown once)",
      auth: "required",
      body: obj({ label: str({ min: 1, max: 100, example: "my bot" }) }),
      successStatus: 201,
      handler: async (c) => ({
        status: 201,
        body: await judge.issueToken(need(c.user).id, c.body.label),
      }),
    }),
    route({
      method: "DELETE",
      path: "/api/tokens/{tokenId}",
      tag: "accounts",
      summary: "Revoke a token",
      auth: "required",
      handler: async (c) => {
        await judge.revokeToken(need(c.user), c.params.tokenId!);
        return { revoked: c.params.tokenId };
      },
    }),
    // Games
    route({
      method: "GET",
      path: "/api/games",
      tag: "games",
      summary: "All games",
      auth: "optional",
      handler: async () => judge.listGames(),
    }),
    route({
      method: "POST",
      path: "/api/games",
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
      }),
      successStatus: 201,
      handler: async (c) => ({ status: 201, body: await judge.createGame(need(c.user), c.body) }),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}",
      tag: "games",
      summary: "A game: phase, deadline, seats, position, your role (and invitations, for the GM)",
      auth: "optional",
      handler: async (c) => judge.gameView(c.user, c.params.id!),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/phases",
      tag: "games",
      summary: "Every adjudicated phase: orders, results with reasons, dislodgements, position",
      auth: "optional",
      handler: async (c) => judge.phases(c.params.id!),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/record",
      tag: "games",
      summary: "The game record (docs/records.md)",
      auth: "optional",
      handler: async (c) => judge.record(c.params.id!),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/invites",
      tag: "games",
      summary: "GM: a new invitation link (for a player, optionally to one seat, or an observer)",
      auth: "required",
      body: obj({
        role: oneOf(["player", "observer"] as const),
        seat: optional(int({ min: 0, max: 100 })),
      }),
      successStatus: 201,
      handler: async (c) => ({
        status: 201,
        body: await judge.createInvite(
          need(c.user),
          c.params.id!,
          c.body.role,
          c.body.seat ?? null,
        ),
      }),
    }),
    route({
      method: "GET",
      path: "/api/invites/{code}",
      tag: "games",
      summary: "What an invitation is for, and the free seats",
      auth: "none",
      handler: async (c) => judge.inviteInfo(c.params.code!),
    }),
    route({
      method: "POST",
      path: "/api/invites/{code}",
      tag: "games",
      summary: "Accept an invitation: join as observer, or take a seat (given, or the first free)",
      auth: "required",
      body: optional(obj({ seat: optional(int({ min: 0, max: 100 })), power: optional(power) })),
      handler: async (c) => judge.acceptInvite(need(c.user), c.params.code!, c.body ?? {}),
    }),
    // Orders
    route({
      method: "POST",
      path: "/api/games/{id}/orders",
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
      handler: async (c) => judge.submitOrders(need(c.user), c.params.id!, c.body),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/orders",
      tag: "orders",
      summary: "Your current order sets for the open phase (the GM: everybody's)",
      auth: "required",
      handler: async (c) => judge.currentOrders(need(c.user), c.params.id!),
    }),
    // Votes
    route({
      method: "GET",
      path: "/api/games/{id}/votes",
      tag: "votes",
      summary: "Proposals: open ones with your vote, decided ones with the counts",
      auth: "required",
      handler: async (c) => judge.proposals(need(c.user), c.params.id!),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/votes",
      tag: "votes",
      summary:
        "Propose a draw, a concession or a house-rule change (decided with this phase's orders)",
      auth: "required",
      body: obj({
        kind: oneOf(["draw", "concede", "houserule"] as const),
        powers: optional(list(power, { max: 50 })),
        text: optional(str({ max: 2000 })),
        options: optional(optionsSchema),
      }),
      successStatus: 201,
      handler: async (c) => ({
        status: 201,
        body: await judge.propose(need(c.user), c.params.id!, c.body),
      }),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/votes/{pid}",
      tag: "votes",
      summary: "Vote (or change your vote) on a proposal",
      auth: "required",
      body: obj({ vote: oneOf(["yes", "no", "abstain"] as const) }),
      handler: async (c) => judge.vote(need(c.user), c.params.id!, pid(c), c.body.vote),
    }),
    // Press
    route({
      method: "GET",
      path: "/api/games/{id}/press",
      tag: "press",
      summary: "Messages you may read (grey press without its author)",
      auth: "optional",
      query: { after: "only messages with a greater id" },
      handler: async (c) => judge.press(c.user, c.params.id!, afterParam(c.query)),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/press",
      tag: "press",
      summary: "Send press: white (signed) or grey (anonymous), to some powers or all",
      description:
        "Dark grey (signed as someone else) and black (signed as the GM) press are refused.",
      auth: "required",
      body: obj({
        to: either(
          oneOf(["all"] as const),
          list(power, { min: 1, max: 50 }),
          '"all" or a list of powers',
        ),
        body: str({ min: 1, max: 20_000 }),
        kind: optional(str({ max: 20, description: "white (default) or grey" })),
        signedAs: optional(str({ max: 40 })),
      }),
      successStatus: 201,
      handler: async (c) => ({
        status: 201,
        body: await judge.sendPress(need(c.user), c.params.id!, c.body),
      }),
    }),
    // Live updates
    route({
      method: "GET",
      path: "/api/games/{id}/events",
      tag: "events",
      summary:
        "Live updates as server-sent events (or, without Accept: text/event-stream, a JSON list)",
      description:
        "Events: started, phase_resolved, phase_corrected, press, proposal, vote_result, game_over, deadline, paused, resumed, joined, civil_disorder, ... Browsers' EventSource cannot send headers: give ?token=. Resumes after Last-Event-ID or ?after=.",
      auth: "optional",
      query: { after: "only events with a greater id", token: "the API token (for EventSource)" },
      handler: async (c) => {
        const after = afterParam(c.query, c.req.headers["last-event-id"]);
        if (!(c.req.headers.accept ?? "").includes("text/event-stream")) {
          return judge.events(c.user, c.params.id!, after);
        }
        await hub.stream(c.req, c.res, c.user, c.params.id!, after);
        return { streamed: true };
      },
    }),
    // Game master
    gm(
      judge,
      "start",
      "Start the game now (it also starts when the last seat is taken)",
      undefined,
      (u, id) => judge.start(u, id),
    ),
    gm(judge, "pause", "Pause the deadline", undefined, (u, id) => judge.pause(u, id)),
    gm(
      judge,
      "resume",
      "Resume: the deadline is what was left (at least a minute)",
      undefined,
      (u, id) => judge.resume(u, id),
    ),
    gm(
      judge,
      "deadline",
      "Move the deadline: later by some minutes, or to a time (now: adjudicate at once)",
      obj({
        extendMinutes: optional(num({ min: -525_600, max: 525_600 })),
        at: optional(str({ max: 40, example: "2030-01-01T12:00:00Z" })),
      }),
      (u, id, b) => judge.setDeadline(u, id, b),
    ),
    gm(
      judge,
      "correct",
      "Correct the last adjudication (seed 002 VIII(1)): play it again, some powers' orders replaced",
      obj({
        orders: optional(dict(list(str({ max: 200 }), { max: 200 }), 50)),
        reason: str({ min: 1, max: 2000 }),
      }),
      (u, id, b) => judge.correct(u, id, b),
    ),
    gm(
      judge,
      "remove-unit",
      "Remove an extra unit from the board (seed 002 VIII(2))",
      obj({
        power,
        unit: str({ min: 3, max: 20, example: "A par" }),
        reason: str({ min: 1, max: 2000 }),
      }),
      (u, id, b) => judge.removeUnit(u, id, b),
    ),
    gm(
      judge,
      "replace",
      "Replace a player (seed 002 VII(5)-(6)): give the seat to a user, or vacate it with a new invitation",
      obj({ seat: int({ min: 0, max: 100 }), user: optional(name) }),
      (u, id, b) => judge.replacePlayer(u, id, b),
    ),
    gm(
      judge,
      "end",
      "End the game: a draw (of the powers given, or all survivors), a concession, or abandoned",
      obj({
        result: oneOf(["draw", "concession", "abandoned"] as const),
        powers: optional(list(power, { max: 50 })),
        note: optional(str({ max: 2000 })),
      }),
      (u, id, b) => judge.endGame(u, id, b),
    ),
    gm(
      judge,
      "declare-draw",
      "Warn, then declare a draw of all survivors after years with no centre change (seed 002 IX(2) A)",
      obj({ warn: bool("true: give the warning; false: declare") }),
      (u, id, b) => judge.declareDraw(u, id, b),
    ),
  ];
}

function gm<B>(
  _judge: Judge,
  action: string,
  summary: string,
  body: import("./schema.ts").Schema<B> | undefined,
  run: (user: User, gameId: string, body: B) => Promise<unknown>,
): Route {
  return route<B>({
    method: "POST",
    path: `/api/games/{id}/gm/${action}`,
    tag: "game master",
    summary: `GM: ${summary}`,
    auth: "required",
    ...(body ? { body } : {}),
    responses: { 403: "you are not the game master", 409: "not possible in the game's state" },
    handler: async (c) => (await run(need(c.user), c.params.id!, c.body)) ?? { ok: true },
  });
}
