import { invalid, notFound, unauthenticated } from "../judge/errors.ts";
import { familyListing } from "../judge/family.ts";
import type { Judge, User } from "../judge/judge.ts";
import {
  configureMailGame,
  mailGame,
  mailIdentity,
  noticeSettings,
  outbox,
  setMailAddress,
  setNotices,
} from "../judge/mail.ts";
import { oneClickUnsubscribe } from "../judge/unsubscribe.ts";
import { discoveryMapFor } from "../render/families.ts";
import { hasMap, sendMap } from "../render/serve.ts";
import { variantIds } from "../variants/registry.ts";
import { scenariosOf } from "../variants/scenarios.ts";
import type { EventHub } from "./events.ts";
import { pictureRoutes } from "./pictures.ts";
import type { Readiness } from "./readiness.ts";
import * as R from "./responses.ts";
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
  text,
} from "./schema.ts";
import { webRoutes } from "./web.ts";

/*
 * The REST API: every route, its input schema and its handler. The OpenAPI document at
 * /api/docs is generated from this table (openapi.ts).
 */

const name = str({ min: 2, max: 40, description: "user name", example: "alice" });
const password = str({
  min: 8,
  max: 200,
  description:
    "at least 8 characters, not white space only, not your name, not a commonly breached password (docs/judge.md)",
});
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
        description:
          "missed phases in a row after which the judge itself empties the seat (civil disorder); 0 never (the GM decides); default 0",
      }),
    ),
    contactWindowHours: optional(
      num({
        min: 0,
        max: 8760,
        description:
          "hours after a missed phase's results before the GM is told a replacement may be arranged; default 24 (seed 002 VII(6))",
      }),
    ),
    press: optional(
      obj({
        white: optional(bool("signed press; default true")),
        grey: optional(bool("anonymous press; default true")),
        duringRetreatsAndAdjustments: optional(bool("default false (seed 002 II(5))")),
        review: optional(
          bool(
            "hold players' press until the GM approves or refuses it (seed 002 X(1)); default false",
          ),
        ),
        daide: optional(
          bool(
            "DAIDE clients' press (level 10, docs/daide.md); false: they play at level 0 (no press); default true",
          ),
        ),
      }),
    ),
    startWhenFull: optional(bool("start when the last seat is taken; default true")),
    drawAfterYearsWithoutChange: optional(
      int({ min: 1, max: 100, description: "seed 002 IX(2) A; default 2" }),
    ),
    drawWarningYears: optional(
      int({
        min: 0,
        max: 100,
        description:
          "game years after the GM's draw warning, with no centre changing hands, before the draw may be declared; default 1 (seed 002 IX(2) A)",
      }),
    ),
    botTakeover: optional(
      either(
        bool("true: the strongest built-in player; false: off"),
        str({ max: 40, description: 'a built-in player\'s id, or "default"' }),
        "a built-in player plays a power whose orders are missing (its player missed them, or its seat is empty) from then on, instead of holding, until a player is seated again or sends orders; default false (docs/judge.md)",
      ),
    ),
    resolveWhenOrdersTimerEnds: optional(
      bool(
        "chaired play (seed 000): resolve the open phase when the chairs' orders timer runs out; default false (the chair is told and resolves)",
      ),
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
  if (!Number.isSafeInteger(n) || n < 0)
    throw invalid(`"after" must be an id (a whole number from 0), not "${raw}"`);
  return n;
};

/**
 * A login token's label: the browser and system it came from (`login: Firefox on Linux`),
 * from the User-Agent, so that the token list tells one device from another.
 */
export function loginLabel(agent: string | undefined): string {
  const a = agent ?? "";
  const browser =
    [
      ["Edge", /Edg\//],
      ["Opera", /OPR\//],
      ["Firefox", /Firefox\//],
      ["Chrome", /Chrome\//],
      ["Safari", /Safari\//],
      ["curl", /^curl\//],
      ["a program", /^(node|undici|python|Go-http|okhttp)/i],
    ].find(([, re]) => (re as RegExp).test(a))?.[0] ?? null;
  const system =
    [
      ["Android", /Android/],
      ["iOS", /iPhone|iPad/],
      ["Windows", /Windows/],
      ["macOS", /Mac OS X|Macintosh/],
      ["Linux", /Linux/],
    ].find(([, re]) => (re as RegExp).test(a))?.[0] ?? null;
  if (!browser && !system) return "login";
  return `login: ${browser ?? "a browser"}${system ? ` on ${system}` : ""}`;
}

const pid = (c: Ctx<unknown>): number => {
  const n = Number(c.params.pid);
  if (!Number.isInteger(n) || n < 1) throw invalid(`no proposal "${c.params.pid}"`);
  return n;
};

export function apiRoutes(
  judge: Judge,
  hub: EventHub,
  info: { database: string; readiness: Readiness },
): Route[] {
  return [
    route({
      method: "GET",
      path: "/api/health",
      response: R.healthAnswer.json,
      tag: "server",
      summary: "Health: the server runs and its database reads and writes (readiness)",
      description:
        '200 with status ok when a read and a write of the database (probed at most a second ago, bounded to 5 s) succeeded and no request met a storage error in the last 30 s; 503 with status unavailable, the cause and since when otherwise (docs/judge.md, "Health and readiness").',
      auth: "none",
      responses: {
        503: "the database cannot read or write: status unavailable, cause, since",
      },
      handler: async () => {
        const s = await info.readiness.state();
        const body = {
          status: s.ready ? ("ok" as const) : ("unavailable" as const),
          database: info.database,
          time: new Date(judge.now()).toISOString(),
          // No process id: it tells a stranger nothing they need and an attacker on the machine
          // something; the operator reads it in the start line of the log (entente serve).
          adjudications: judge.adjudications,
          ...(s.ready
            ? {}
            : { cause: s.cause ?? "", since: new Date(s.since ?? Date.now()).toISOString() }),
        };
        return s.ready ? body : { status: 503, body };
      },
    }),
    route({
      method: "GET",
      path: "/api/variants",
      response: R.variantsAnswer.json,
      tag: "games",
      summary: "Variants and their scenarios (who plays which powers)",
      description:
        "Then the game families the judge hosts (global, discovery): a different game, marked by `family` (a note) and `players`; their scenario ids are player counts.",
      auth: "none",
      handler: async () => [
        ...variantIds().map((id) => ({
          id,
          scenarios: scenariosOf(id).map((s) => ({
            id: s.id,
            description: s.description,
            seats: s.seats.map((x) => ({ name: x.name, powers: x.powers })),
          })),
        })),
        ...familyListing(),
      ],
    }),
    // Maps (src/render, docs/maps.md)
    route({
      method: "GET",
      path: "/api/variants/{id}/geometry",
      response: R.documented(
        "the MapGeometry: province shapes, label and unit places, base SVG (docs/maps.md)",
      ).json,
      tag: "games",
      summary: "A variant's map: province shapes, label and unit places, base SVG (MapGeometry)",
      auth: "none",
      responses: { 404: "no such variant, or it has no map" },
      handler: async (c) => {
        const id = c.params.id as string;
        if (!hasMap(id)) throw notFound(`no map for variant ${id}`);
        sendMap(id, "geometry", c.req, c.res);
        return { streamed: true };
      },
    }),
    route({
      method: "GET",
      path: "/api/variants/{id}/map.svg",
      response: text("the map as SVG (Content-Type image/svg+xml)").json,
      tag: "games",
      summary: "A variant's start position drawn as SVG",
      auth: "none",
      responses: { 404: "no such variant, or it has no map" },
      handler: async (c) => {
        const id = c.params.id as string;
        if (!hasMap(id)) throw notFound(`no map for variant ${id}`);
        sendMap(id, "start", c.req, c.res);
        return { streamed: true };
      },
    }),
    // Accounts
    route({
      method: "POST",
      path: "/api/users",
      response: R.authAnswer.json,
      tag: "accounts",
      summary: "Create an account; answers with a token",
      auth: "none",
      body: obj({ name, password }),
      successStatus: 201,
      responses: {
        409: "the name is taken",
        429: "too many accounts from your address: wait Retry-After seconds",
      },
      handler: async (c) => ({
        status: 201,
        body: await judge.accounts.register(c.body.name, c.body.password),
      }),
    }),
    route({
      method: "POST",
      path: "/api/login",
      response: R.authAnswer.json,
      tag: "accounts",
      summary: "Log in with name and password; answers with a new token",
      auth: "none",
      body: obj({
        name,
        password: str({ min: 1, max: 200 }),
        device: optional(
          str({
            max: 200,
            description:
              "the login device token an earlier login or registration of this account answered with",
          }),
        ),
        code: optional(
          str({
            max: 40,
            description: "the one-time code mailed to the owner of an account under attack",
          }),
        ),
      }),
      responses: {
        401: "wrong name or password",
        429: "too many logins from your address, or wrong passwords for the account: wait Retry-After seconds",
      },
      handler: async (c) =>
        judge.accounts.login(c.body.name, c.body.password, loginLabel(c.req.headers["user-agent"])),
    }),
    route({
      method: "GET",
      path: "/api/me",
      response: R.meAnswer.json,
      tag: "accounts",
      summary: "Who the token belongs to",
      auth: "required",
      handler: async (c) => ({ user: need(c.user) }),
    }),
    route({
      method: "GET",
      path: "/api/tokens",
      response: R.tokensAnswer.json,
      tag: "accounts",
      summary: "Your API tokens (never the secrets)",
      auth: "required",
      handler: async (c) => judge.accounts.listTokens(need(c.user), c.token),
    }),
    route({
      method: "POST",
      path: "/api/tokens",
      response: R.newTokenAnswer.json,
      tag: "accounts",
      summary: "A new API token, for a program acting for you (shown once)",
      auth: "required",
      body: obj({ label: str({ min: 1, max: 100, example: "my bot" }) }),
      successStatus: 201,
      handler: async (c) => ({
        status: 201,
        body: await judge.accounts.issueToken(need(c.user).id, c.body.label),
      }),
    }),
    route({
      method: "DELETE",
      path: "/api/tokens/{tokenId}",
      response: R.revokedAnswer.json,
      tag: "accounts",
      summary: "Revoke a token",
      auth: "required",
      handler: async (c) => {
        await judge.accounts.revokeToken(need(c.user), c.params.tokenId!);
        return { revoked: c.params.tokenId };
      },
    }),
    // Games
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
      handler: async (c) => ({
        status: 201,
        body: await judge.games.createGame(need(c.user), c.body),
      }),
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
      handler: async (c) => ({
        status: 201,
        body: await judge.bots.practice(need(c.user), c.body),
      }),
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
      handler: async (c) => ({
        status: 201,
        body: await judge.games.createInvite(
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
    // Global Diplomacy (seed 004, docs/global.md): per-player reports
    route({
      method: "GET",
      path: "/api/games/{id}/report",
      response: R.documented("the power's report (seed 004 §8; docs/global.md, docs/discovery.md)")
        .json,
      tag: "orders",
      summary: "Global Diplomacy: your report (seed 004 §8), the last turn's or ?turn=N's",
      description:
        "Only what your power may see. Before the first turn is adjudicated, the opening report. The GM reads any power's with ?power=. Other games have no reports (409).",
      auth: "required",
      query: {
        power: "the GM: whose report (a power's number or name); a player: only their own",
        turn: "an adjudicated turn's report (default: the last)",
      },
      responses: { 403: "not your power's report", 409: "the game has no reports" },
      handler: async (c) => {
        const raw = c.query.get("turn");
        const turn = raw === null || raw === "" ? undefined : Number(raw);
        if (turn !== undefined && (!Number.isInteger(turn) || turn < 1))
          throw invalid(`"turn" must be a turn number (1, 2, ...), not "${raw}"`);
        return judge.views.report(need(c.user), c.params.id!, {
          power: c.query.get("power") ?? undefined,
          turn,
        });
      },
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/turns",
      response: R.documented("every adjudicated turn: commands, results, reports (docs/global.md)")
        .json,
      tag: "game master",
      summary: "Global Diplomacy, GM: every adjudicated turn: commands, results, reports",
      auth: "required",
      responses: { 403: "you are not the game master", 409: "the game has no turns" },
      handler: async (c) => judge.views.familyTurns(need(c.user), c.params.id!),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/moderator-map",
      response: R.documented(
        "the whole generated map: areas, squares, adjacency, supply, grid (docs/discovery.md)",
      ).json,
      tag: "game master",
      summary: "Age of Discovery, GM: the game's whole generated map (never shown to players)",
      description:
        "Every area with its squares, adjacency and supply, and the grid geometry, in the map's own frame (docs/discovery.md). Players see only the map in their report, in their own X Y names.",
      auth: "required",
      responses: {
        403: "you are not the game master",
        409: "the game's map is not generated for it",
      },
      handler: async (c) => judge.views.moderatorMap(need(c.user), c.params.id!),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/map",
      response: R.ownMapAnswer.json,
      tag: "orders",
      summary: "Age of Discovery: your own map, as your report knows it (the GM: the whole map)",
      description:
        "A player's map holds only the areas it knows (been to or spied upon) and sees, in its own square names (`153 0503`, as its report writes them), with units and owners only where it sees this turn, and the frame of those areas. The game master gets the whole map in its own frame. Drawn by the judge from the game's position, which is never sent (docs/discovery.md).",
      auth: "required",
      responses: {
        403: "you neither play in the game nor master it",
        409: "the game's map is its variant's, the same for all (GET /api/variants/{id}/geometry)",
      },
      handler: async (c) => {
        const s = await judge.views.familyMapSource(need(c.user), c.params.id!);
        return discoveryMapFor({ ...s.position }, s.player);
      },
    }),
    // Votes
    route({
      method: "GET",
      path: "/api/games/{id}/votes",
      response: R.proposalsAnswer.json,
      tag: "votes",
      summary: "Proposals: open ones with your vote, decided ones with the counts",
      auth: "required",
      handler: async (c) => judge.votes.proposals(need(c.user), c.params.id!),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/votes",
      response: R.proposalCreated.json,
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
      responses: {
        409: "the game is not on, or a proposal of the same sort (to end the game, or a house-rule change) is still open",
      },
      handler: async (c) => ({
        status: 201,
        body: await judge.votes.propose(need(c.user), c.params.id!, c.body),
      }),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/votes/{pid}",
      response: R.voteAnswer.json,
      tag: "votes",
      summary: "Vote (or change your vote) on a proposal",
      auth: "required",
      body: obj({ vote: oneOf(["yes", "no", "abstain"] as const) }),
      handler: async (c) => judge.votes.vote(need(c.user), c.params.id!, pid(c), c.body.vote),
    }),
    // Press
    route({
      method: "GET",
      path: "/api/games/{id}/press",
      response: R.pressAnswer.json,
      tag: "press",
      summary: "Messages you may read (grey press without its author)",
      auth: "optional",
      query: {
        after: "only messages after your nth (ids are your own: 1 to n over what you may read)",
      },
      handler: async (c) => judge.press.press(c.user, c.params.id!, afterParam(c.query)),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/press/held",
      response: R.heldPressAnswer.json,
      tag: "press",
      summary:
        "Press held for the GM's review (option press.review): all of the game's for the GM, your own for a player",
      auth: "required",
      handler: async (c) => judge.press.heldPress(need(c.user), c.params.id!),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/press",
      response: R.pressSent.json,
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
        body: await judge.press.sendPress(need(c.user), c.params.id!, c.body),
      }),
    }),
    // Play by email (docs/email.md)
    route({
      method: "GET",
      path: "/api/me/mail",
      response: R.documented("your mail address and secret (docs/email.md)").json,
      tag: "mail",
      summary: "Your mail address and secret (the line to put in order mails)",
      auth: "required",
      responses: { 404: "no address set yet" },
      handler: async (c) => mailIdentity(judge, need(c.user)),
    }),
    route({
      method: "POST",
      path: "/api/me/mail",
      response: R.documented("your mail address and secret (docs/email.md)").json,
      tag: "mail",
      summary: "Set the address you send order mail from; answers with your secret",
      description:
        "Order mails must come from this address and carry the line 'Secret: <secret>' (seed 002 X(6)). The secret is made once; newSecret: true makes a new one.",
      auth: "required",
      body: obj({
        address: str({ min: 3, max: 254, example: "alice@example.org" }),
        newSecret: optional(bool("make a new secret (the old one stops working)")),
      }),
      handler: async (c) => setMailAddress(judge, need(c.user), c.body),
    }),
    route({
      method: "GET",
      path: "/api/me/notices",
      response: R.documented(
        "your address, whether the judge mails you, and each of your games' choice (docs/email.md)",
      ).json,
      tag: "mail",
      summary: "Whether the judge mails you results, reports and reminders, for each of your games",
      auth: "required",
      handler: async (c) => noticeSettings(judge, need(c.user)),
    }),
    route({
      method: "POST",
      path: "/api/me/notices",
      response: R.documented(
        "your address, whether the judge mails you, and each of your games' choice (docs/email.md)",
      ).json,
      tag: "mail",
      summary: "Opt out of (or back into) the judge's mail: for one game, or for every game",
      description:
        "notices false stops the judge's own mail (start, results and reports, reminders, press, votes, the GM's notices) to your address: for the game named by game (its id or label), or without game for your whole account. Mail about your own seat (no orders received) and answers to your own mails still come. Every such mail says how to stop it.",
      auth: "required",
      body: obj({
        notices: bool("true: mail me; false: do not"),
        game: optional(str({ min: 1, max: 40, description: "a game's id or label; default: all" })),
      }),
      responses: { 404: "no mail address yet, or not a game of yours" },
      handler: async (c) => setNotices(judge, need(c.user), c.body),
    }),
    route({
      method: "POST",
      path: "/api/unsubscribe/{user}/{game}/{signature}",
      response: R.documented("the game whose mail is now off for the link's user: notices false")
        .json,
      tag: "mail",
      summary: "One-click unsubscribe (RFC 8058): the link in a mail's List-Unsubscribe header",
      description:
        "The https link of the List-Unsubscribe header of the judge's own mail, POSTed by the mail program with the body List-Unsubscribe=One-Click (application/x-www-form-urlencoded or multipart/form-data, as RFC 8058 has it; JSON too). No login: the link's signature (made by the judge for that user and that game, unguessable) is the authority, and all it can do is turn that user's mail for that game off, as POST /api/me/notices {notices: false, game} would. NOTICES ON by mail or POST /api/me/notices undoes it (docs/email.md).",
      auth: "none",
      body: obj({
        "List-Unsubscribe": oneOf(["One-Click"] as const, "RFC 8058's one-click marker"),
      }),
      responses: {
        403: "the signature is not the judge's for this user and game",
        404: "no such account, or not a game of the account's",
        415: "the body is neither form data nor JSON",
      },
      handler: async (c) =>
        oneClickUnsubscribe(judge, c.params.user!, c.params.game!, c.params.signature!),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/mail",
      response: R.documented("the game's abbreviation, address and power letters (docs/email.md)")
        .json,
      tag: "mail",
      summary: "How to write to the game by mail: its abbreviation, address and power letters",
      auth: "optional",
      responses: { 404: "the game is not played by mail" },
      handler: async (c) => mailGame(judge, c.params.id!),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/outbox",
      response: R.documented("the mails sent or to send, in a list under their ids (docs/email.md)")
        .json,
      tag: "mail",
      summary: "GM: every mail the judge sent or keeps to send for this game",
      auth: "required",
      query: { after: "only mails with a greater id" },
      responses: { 403: "you are not the game master" },
      handler: async (c) => outbox(judge, need(c.user), c.params.id!, afterParam(c.query)),
    }),
    // Live updates
    route({
      method: "GET",
      path: "/api/games/{id}/events",
      response: R.eventsAnswer.json,
      tag: "events",
      summary:
        "Live updates as server-sent events (or, without Accept: text/event-stream, a JSON list)",
      description:
        "Events: started, phase_resolved, phase_corrected, press, proposal, vote_result, game_over, deadline, paused, resumed, joined, civil_disorder, ... Browsers' EventSource cannot send headers: give ?token=. Resumes after Last-Event-ID or ?after=.",
      auth: "optional",
      query: {
        after: "only events after your nth (ids are your own: 1 to n over what you may read)",
        token: "the API token (for EventSource)",
      },
      handler: async (c) => {
        const after = afterParam(c.query, c.req.headers["last-event-id"]);
        if (!(c.req.headers.accept ?? "").includes("text/event-stream")) {
          return judge.views.events(c.user, c.params.id!, after);
        }
        await hub.stream(c.req, c.res, c.user, c.token, c.params.id!, after);
        return { streamed: true };
      },
    }),
    // Sequential movement (seed 003, docs/sequential.md)
    route({
      method: "GET",
      path: "/api/games/{id}/schedule",
      response: R.documented("each season's schedule and the blocks' balance (docs/sequential.md)")
        .json,
      tag: "game master",
      summary: "GM: the sequential schedule of every season so far and some ahead",
      description:
        "Each season's order of resolution (set by the GM or generated), simultaneous seasons, the contracts that count, and for each whole block of sequential seasons whether every power is first once, second once, and so on. Players are refused: they are never told the schedule.",
      auth: "required",
      query: {
        ahead: "how many seasons after the first one still open (default twice the powers)",
      },
      responses: { 403: "you are not the game master", 409: "the game is not sequential" },
      handler: async (c) => {
        const raw = c.query.get("ahead");
        const ahead = raw === null ? undefined : Number(raw);
        if (ahead !== undefined && (!Number.isInteger(ahead) || ahead < 0 || ahead > 200))
          throw invalid(`"ahead" must be a whole number of seasons from 0 to 200, not "${raw}"`);
        return judge.views.schedule(need(c.user), c.params.id!, ahead);
      },
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/schedule/{season}",
      response: R.documented("the schedule after the change (docs/sequential.md)").json,
      tag: "game master",
      summary: "GM: set a season's schedule, make it simultaneous, or go back to the generated one",
      description:
        'season: S1902 or F1902, not yet adjudicated. schedule: the powers in the order their orders are resolved (every power with units or centres), "simultaneous", or "generated".',
      auth: "required",
      body: obj({
        schedule: either(
          list(power, { min: 1, max: 50 }),
          oneOf(["simultaneous", "generated"] as const),
          'a list of powers, "simultaneous" or "generated"',
        ),
      }),
      responses: { 403: "you are not the game master", 409: "the season has been adjudicated" },
      handler: async (c) =>
        judge.gm.setSchedule(need(c.user), c.params.id!, c.params.season!, c.body.schedule),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/contracts",
      response: R.documented(
        "contract declarations and whether they are matched (docs/sequential.md)",
      ).json,
      tag: "orders",
      summary: "Your contract declarations, and whether the other side matched them (the GM: all)",
      auth: "required",
      responses: { 403: "observers and outsiders see no contracts" },
      handler: async (c) => judge.views.contracts(need(c.user), c.params.id!),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/contracts",
      response: R.documented("the declaration stored (docs/sequential.md)").json,
      tag: "orders",
      summary: "Declare a support contract with another power, to the GM (sequential movement)",
      description:
        'A contract counts in a season when both powers declared it for that season. It covers support and convoys between the two powers\' units; their orders are then resolved together, in the slot of the power lower on the schedule. season: the first season (default the first not yet adjudicated); until: the last season (default the same) or "withdrawn".',
      auth: "required",
      body: obj({
        with: power,
        power: optional(power),
        season: optional(str({ max: 10, example: "S1902" })),
        until: optional(str({ max: 10, example: "withdrawn" })),
      }),
      successStatus: 201,
      responses: { 403: "not your power", 409: "the season has been adjudicated" },
      handler: async (c) => ({
        status: 201,
        body: await judge.gm.declareContract(need(c.user), c.params.id!, c.body),
      }),
    }),
    route({
      method: "DELETE",
      path: "/api/games/{id}/contracts/{cid}",
      response: R.documented("the declaration withdrawn (docs/sequential.md)").json,
      tag: "orders",
      summary: "Withdraw a contract declaration from the first season not yet adjudicated",
      auth: "required",
      responses: { 404: "no such declaration of yours" },
      handler: async (c) => {
        const id = Number(c.params.cid);
        if (!Number.isInteger(id) || id < 1)
          throw invalid(`no contract declaration "${c.params.cid}"`);
        return judge.gm.withdrawContract(need(c.user), c.params.id!, id);
      },
    }),
    // The europe1935 committee (docs/committee.md)
    route({
      method: "GET",
      path: "/api/games/{id}/committee",
      response: R.documented(
        "victory points, conferences, insurrections and goals you may read (docs/committee.md)",
      ).json,
      tag: "committee",
      summary:
        "europe1935: victory points, conferences, insurrections and the political goals you may read",
      auth: "optional",
      handler: async (c) => judge.views.committee(c.user, c.params.id!),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/committee/goals",
      response: R.documented("what the act recorded (docs/committee.md)").json,
      tag: "committee",
      summary:
        "A political goal: set by the chairs (the GM, up to 3 per power) or proposed by a power (up to 2)",
      description:
        "The GM sets a power's goal (source chairs, approved, points 0-3, default 3); a player proposes one for their power (source proposed, pending until the chairs approve or deny it). Goals are seen by their power and the GM until the game ends.",
      auth: "required",
      body: obj({
        text: str({ min: 1, max: 2000 }),
        power: optional(power),
        source: optional(oneOf(["chairs", "proposed"] as const)),
        points: optional(int({ min: 0, max: 3, description: "the chairs' goals: points awarded" })),
      }),
      successStatus: 201,
      handler: async (c) => ({
        status: 201,
        body: await judge.gm.committeeAct(need(c.user), c.params.id!, { act: "goal", ...c.body }),
      }),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/committee/goals/{goal}",
      response: R.documented("what the act recorded (docs/committee.md)").json,
      tag: "committee",
      summary:
        "GM (the chairs): approve (with points) or deny a proposed goal, or record it achieved",
      auth: "required",
      body: obj({
        decision: oneOf(["approve", "deny", "achieved", "not-achieved"] as const),
        points: optional(int({ min: 0, max: 3, description: "approve: the points awarded" })),
      }),
      responses: { 403: "you are not the game master" },
      handler: async (c) =>
        judge.gm.committeeAct(need(c.user), c.params.id!, {
          act: c.body.decision,
          goal: c.params.goal!,
          points: c.body.points,
        }),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/committee/conferences",
      response: R.documented("what the act recorded (docs/committee.md)").json,
      tag: "committee",
      summary: "Propose a conference (opens at once unless refused)",
      description:
        "Refused while another conference runs, with fewer than three delegations, or while a unit of a power not taking part stands in the location. It lasts at most a year and ends at once when its location is conquered.",
      auth: "required",
      body: obj({
        name: str({ min: 1, max: 200, example: "Munich Conference" }),
        goal: str({ min: 1, max: 2000 }),
        location: str({ min: 1, max: 60, example: "Munich" }),
        participants: list(power, { min: 1, max: 20 }),
        organiser: optional(power),
      }),
      successStatus: 201,
      handler: async (c) => ({
        status: 201,
        body: await judge.gm.committeeAct(need(c.user), c.params.id!, {
          act: "conference",
          ...c.body,
        }),
      }),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/committee/conferences/close",
      response: R.documented("what the act recorded (docs/committee.md)").json,
      tag: "committee",
      summary: "GM (the chairs): close the running conference",
      auth: "required",
      responses: { 403: "you are not the game master" },
      handler: async (c) =>
        judge.gm.committeeAct(need(c.user), c.params.id!, { act: "close-conference" }),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/committee/territory",
      response: R.documented("what the act recorded (docs/committee.md)").json,
      tag: "committee",
      summary: "GM (the chairs): centres needed for the five territorial points (default 15)",
      auth: "required",
      body: obj({ centres: int({ min: 1, max: 1000 }) }),
      responses: { 403: "you are not the game master" },
      handler: async (c) =>
        judge.gm.committeeAct(need(c.user), c.params.id!, {
          act: "territory",
          centres: c.body.centres,
        }),
    }),
    // Game master
    gm(
      judge,
      "start",
      "Start the game now (it also starts when the last seat is taken)",
      undefined,
      (u, id) => judge.games.start(u, id),
    ),
    gm(judge, "pause", "Pause the deadline", undefined, (u, id) => judge.gm.pause(u, id)),
    gm(
      judge,
      "resume",
      "Resume: the deadline is what was left (at least a minute)",
      undefined,
      (u, id) => judge.gm.resume(u, id),
    ),
    gm(
      judge,
      "deadline",
      "Move the deadline: later by some minutes, or to a time (now: adjudicate at once)",
      obj({
        extendMinutes: optional(num({ min: -525_600, max: 525_600 })),
        at: optional(str({ max: 40, example: "2030-01-01T12:00:00Z" })),
      }),
      (u, id, b) => judge.gm.setDeadline(u, id, b),
    ),
    gm(
      judge,
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
      judge,
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
      judge,
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
      judge,
      "replace",
      "Replace a player (seed 002 VII(5)-(6)): give the seat to a user, or vacate it with a new invitation",
      obj({ seat: int({ min: 0, max: 100 }), user: optional(name) }),
      (u, id, b) => judge.gm.replacePlayer(u, id, b),
    ),
    gm(
      judge,
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
      judge,
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
      judge,
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
      judge,
      "refuse-proposal",
      "Refuse to conduct a vote on a repetitive or humorous proposal (seed 002 IX(5)); the reason goes to the proposer",
      obj({ proposal: int({ min: 1 }), reason: str({ min: 1, max: 2000 }) }),
      (u, id, b) => judge.votes.refuse(u, id, b.proposal, b.reason),
    ),
    gm(
      judge,
      "approve-press",
      "Publish a held message (the option press.review, seed 002 X(1)): delivered to its recipients as sent, its time kept",
      obj({ held: int({ min: 1, description: "the held message's number (GET .../press/held)" }) }),
      (u, id, b) => judge.press.approvePress(u, id, b.held),
      "the message is no longer held (already approved or refused)",
    ),
    gm(
      judge,
      "refuse-press",
      "Refuse to publish a held message (seed 002 X(1)); the reason goes to its author alone",
      obj({ held: int({ min: 1 }), reason: str({ min: 1, max: 2000 }) }),
      (u, id, b) => judge.press.refusePress(u, id, b.held, b.reason),
      "the message is no longer held (already approved or refused)",
    ),
    gm(
      judge,
      "declare-draw",
      "Warn, then declare a draw of all survivors after years (turns) with no centre change (seed 002 IX(2) A)",
      obj({ warn: bool("true: give the warning; false: declare") }),
      (u, id, b) => judge.endings.declareDraw(u, id, b),
    ),
    // The web client's routes: legal orders, typed-order checks, the sandbox, the chair.
    ...webRoutes(judge),
    // The game's history as pictures: the GIF and a phase's PNG (pictures.ts).
    ...pictureRoutes(judge),
  ];
}

/** What the GM's actions answer: the game as the GM sees it, unless named here. */
const GM_ANSWERS: Readonly<Record<string, import("./schema.ts").Schema<unknown>>> = {
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
  _judge: Judge,
  action: string,
  summary: string,
  body: import("./schema.ts").Schema<B> | undefined,
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
