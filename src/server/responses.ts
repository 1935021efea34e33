import {
  anyJson,
  bool,
  int,
  many,
  nullable,
  num,
  obj,
  oneOf,
  optional,
  type Schema,
  text,
} from "./schema.ts";

/*
 * The schemas of the API's successful answers, built with the same builders as the request
 * schemas (schema.ts) and documented in /api/openapi.json. They document, they do not filter:
 * answers are written with JSON.stringify as the judge returns them (server.ts), and
 * src/server/responses.test.ts checks that a played game's answers fit these schemas, so a
 * field the judge adds and the schema misses fails a test instead of going undocumented.
 * Objects list every field (unknown fields refused); values whose shape belongs to another
 * contract (positions, rule options, records: docs/records.md) are described, not repeated.
 */

const iso = (what: string) => text(`${what} (ISO 8601, UTC)`);

/** An object of another documented shape (described here, specified in the docs named). */
const described = (description: string): Schema<Record<string, unknown>> => ({
  json: { type: "object", description },
  optional: false,
});

const user = obj({ id: text("user id"), name: text() }, "a user");

export const authAnswer = obj(
  {
    user,
    token: text("the API token: send it as Authorization: Bearer <token>"),
    device: text(
      "this client's login device token for the account: send it as `device` with later logins, so that guessing by others never pauses them (docs/judge.md)",
    ),
  },
  "the account and a new token",
);

export const meAnswer = obj({ user });

export const tokensAnswer = many(
  obj({
    id: text("the token's id (for DELETE /api/tokens/{tokenId})"),
    label: text(),
    createdAt: iso("made"),
    lastUsedAt: nullable(iso("last used")),
    expiresAt: nullable(
      iso("when it expires if it is not used before (never: null); docs/judge.md"),
    ),
    current: bool("the token this request was made with"),
  }),
);

export const newTokenAnswer = obj({
  id: text("the token's id"),
  token: text("the secret, shown only now"),
});

export const revokedAnswer = obj({ revoked: text("the token id revoked") });

export const healthAnswer = obj({
  status: oneOf(["ok", "unavailable"] as const),
  database: text("sqlite or postgres"),
  time: iso("the server's clock"),
  adjudications: int({ description: "phases adjudicated since the server started" }),
  cause: optional(text("unavailable: why the database cannot read or write")),
  since: optional(iso("unavailable: since when")),
});

export const variantsAnswer = many(
  described(
    "a variant: id and scenarios (id, description, seats with their powers); or a game family (global, discovery): id, family, players, scenarios",
  ),
);
const summaryFields = {
  id: text("game id"),
  name: text(),
  variant: text("variant id"),
  scenario: text("scenario id"),
  status: oneOf(["forming", "active", "finished"] as const),
  phase: nullable(text("the open phase (S1901M); null while forming")),
  deadline: nullable(iso("the open phase's deadline; null unless a phase is open")),
  seats: int({ description: "seats in the game" }),
  players: int({ description: "seats taken" }),
  bots: optional(
    int({ description: "seats played by built-in players, when any (docs/judge.md)" }),
  ),
  label: optional(text("the game's id as its players know it (GD001), chosen by its GM")),
};

export const gameSummary = obj(summaryFields, "a game in the list");
export const gamesAnswer = many(gameSummary);

const seatView = obj({
  index: int(),
  name: text(),
  powers: many(text("power id")),
  player: nullable(text("the player's user name; null for a free seat")),
  bot: optional(
    obj(
      {
        id: text("the built-in player's id (src/bots)"),
        kind: oneOf(["gm", "takeover"] as const),
        describe: text("what it does"),
      },
      "a built-in player plays the seat: chosen by the GM (gm), or after missed orders (takeover, the option botTakeover)",
    ),
  ),
  daide: optional(
    obj(
      {
        client: nullable(text("the DAIDE client's name (NME); null while the seat waits for one")),
        version: nullable(text("the client's version (NME)")),
      },
      "the seat is kept for a DAIDE client (docs/daide.md)",
    ),
  ),
});

const gameViewFields = {
  ...summaryFields,
  rules: anyJson("the rule options in force (docs/rules.md)"),
  options: described("the judge options (docs/judge.md)"),
  state: text("the phase state: forming, open, paused, done"),
  phaseIndex: int(),
  seatList: many(seatView),
  position: described("the current position (docs/adjudicate-json.md, position)"),
  daide: optional(
    obj(
      {
        port: nullable(
          int({
            description:
              "the TCP port DAIDE clients connect to while the game is forming or running; null once it is over",
          }),
        ),
      },
      "a game with seats kept for DAIDE clients (docs/daide.md)",
    ),
  ),
  toOrder: many(text("power id"), "powers that have something to order in the open phase"),
  result: anyJson("how the game ended (null while it goes on)"),
  you: nullable(
    obj({
      role: oneOf(["gm", "player", "observer"] as const),
      seat: nullable(int()),
      powers: many(text("power id")),
    }),
  ),
  invites: optional(
    many(
      obj({
        code: text(),
        role: oneOf(["player", "observer"] as const),
        seat: nullable(int()),
      }),
      "the GM only: the open invitations",
    ),
  ),
  lostSeat: optional(
    obj(
      {
        seat: int(),
        seatName: text(),
        phase: nullable(
          text(
            "the phase that made it so (civil disorder) or open then (the GM); null if not known",
          ),
        ),
        at: iso("when"),
        cause: oneOf(["civil_disorder", "replaced"] as const),
        missed: optional(int({ description: "civil_disorder: phases missed in a row" })),
        to: optional(
          nullable(text("replaced: who the GM gave the seat to; null: opened for a replacement")),
        ),
      },
      "only to a member who lost their seat (civil disorder or the GM) and holds none: how; theirs alone (docs/judge.md)",
    ),
  ),
  scores: optional(described("europe1935: the victory-point table (docs/committee.md)")),
  conferences: optional(
    described("europe1935: the running conference and the past ones (docs/committee.md)"),
  ),
  family: optional(
    obj({
      id: text(),
      name: text(),
      turn: int(),
      turnsAdjudicated: int(),
      report: text("where the reports are"),
      players: optional(int({ description: "the number of players" })),
      moderatorMap: optional(text("the GM: where the whole generated map is (discovery)")),
      map: optional(
        text("the viewer's own map of a generated world (discovery): GET it for the drawing"),
      ),
    }),
  ),
};

export const gameView = obj(gameViewFields, "a game as the caller may see it");

/** The game as the GM sees it (a game's fields), and `more`: what the GM's act did. */
const gmSees = <S extends Record<string, Schema<unknown>>>(more: S, what: string) =>
  obj({ ...gameViewFields, ...more }, `the game as the GM sees it, and ${what}`);

export const botAnswer = gmSees(
  {
    bot: obj({
      seat: int(),
      seatName: text(),
      bot: nullable(text("the bot now playing the seat; null: taken off")),
    }),
  },
  "the seat's bot",
);

export const unitRemoved = gmSees(
  {
    removed: obj({
      power: text("power id"),
      unit: text("the unit removed (A par)"),
      rule: nullable(text("the house rule that named it, when the GM did not")),
    }),
  },
  "the unit removed",
);

export const unitRelocated = gmSees(
  {
    relocated: obj({
      power: text("power id"),
      unit: text("the misplaced unit as it stood (A par)"),
      to: nullable(text("the unit where it stands now (A gas); null: disbanded")),
    }),
  },
  "the unit relocated or disbanded (seed 002 VIII(3))",
);

export const phasesAnswer = many(
  obj({
    phase: text("the phase adjudicated (S1901M)"),
    orders: described("orders as submitted, per power"),
    results: described(
      "per power, the orders as understood with their results and reasons (docs/adjudicate-json.md, orders)",
    ),
    dislodged: optional(anyJson("units dislodged and where each may retreat")),
    civilDisorder: optional(many(text("power id"))),
    events: optional(many(anyJson("what the scenario's own rules did (a coin toss)"))),
    position: described("the position after the phase"),
    winner: optional(text("power id")),
    seatWinner: optional(text("seat name")),
  }),
);

export const recordAnswer = described(
  "the game record (docs/records.md); while the game is on, seed is null and seedHidden says why (the GM sees it)",
);

export const inviteCreated = obj({ code: text("the invitation code for /api/invites/{code}") });

export const inviteInfo = obj({
  game: obj({
    id: text(),
    name: text(),
    variant: text(),
    variantName: optional(text("the variant's name (Classical, Global Diplomacy)")),
    status: text(),
    phase: nullable(text("the phase open now; null before the start")),
    deadline: nullable(text("when the open phase is due (ISO 8601); null if none")),
  }),
  role: oneOf(["player", "observer"] as const),
  seat: nullable(int({ description: "the seat the invitation is for; null: any free one" })),
  freeSeats: many(
    obj({
      index: int(),
      name: text(),
      powers: many(text("power id")),
      bot: optional(text("the built-in player now playing the seat, which it leaves to you")),
    }),
  ),
});

const diagnostics = many(anyJson("a diagnostic for one line: what was understood or wrong"));

export const submissionAnswer = obj({
  phase: text("the phase the orders are for"),
  final: bool(),
  receivedAt: iso("stored"),
  powers: many(obj({ power: text(), orders: many(text("an order as understood")) })),
  diagnostics,
  early: optional(bool("kept for a later retreat or adjustment phase, not the open one")),
});

export const currentOrdersAnswer = described(
  "the open phase and your order sets: {phase, sets: [{power, orders, final, receivedAt, diagnostics}]} (Global Diplomacy and Age of Discovery: the turn's commands)",
);

const proposalNumber = int({ description: "the proposal's number in its game (1, 2, 3 ...)" });

export const proposalsAnswer = many(
  obj({
    id: proposalNumber,
    kind: oneOf(["draw", "concede", "houserule"] as const),
    text: nullable(text()),
    powers: nullable(many(text("power id"))),
    options: nullable(described("houserule: the options proposed")),
    status: text("open, passed, failed or refused (the GM would not put it to the vote)"),
    due: int({ description: "the phase index the proposal is decided with" }),
    counts: anyJson("decided proposals: the counts of yes, no and abstain"),
    yourVote: optional(nullable(oneOf(["yes", "no", "abstain"] as const))),
    yours: bool("you made it"),
    reason: optional(text("a refused proposal: the GM's reason, for its proposer and the GM")),
  }),
);

export const proposalCreated = obj({
  id: proposalNumber,
  kind: oneOf(["draw", "concede", "houserule"] as const),
  text: nullable(text()),
  powers: nullable(many(text("power id"))),
  options: nullable(described("houserule: the options proposed")),
  due: text("the phase it is decided with"),
  status: oneOf(["open"] as const),
  yourVote: optional(
    oneOf(
      ["yes"] as const,
      "the proposer's own vote: proposing is voting yes (seed 002 IX(5) C), changeable until the deadline",
    ),
  ),
});

export const voteAnswer = obj({
  proposal: proposalNumber,
  vote: oneOf(["yes", "no", "abstain"] as const),
  due: text("the phase it is decided with"),
});

export const proposalRefused = obj({
  proposal: proposalNumber,
  status: oneOf(["refused"] as const),
  reason: text("the GM's reason, told to the proposer"),
});

const recipients = anyJson('"all" or a list of power ids');

export const pressAnswer = many(
  obj({
    id: int({
      description:
        "the message's id for you: the nth message you may read in the game is n (for ?after=)",
    }),
    phase: text(),
    kind: oneOf(["white", "grey"] as const),
    from: nullable(text("the author's power, gm, or null for grey press not yours")),
    fromName: text("the author's seat name, GM, or Anonymous"),
    to: recipients,
    body: text(),
    at: iso("sent"),
    yours: optional(bool("you wrote it")),
  }),
);

export const pressSent = obj({
  id: optional(
    int({ description: "the message's id for you, the sender (as GET .../press gives it)" }),
  ),
  held: optional(
    int({
      description:
        "instead of id where the game's press is reviewed (press.review): your own number for the held message (your nth held message), awaiting the GM (GET .../press/held)",
    }),
  ),
  status: optional(oneOf(["held"] as const)),
  kind: oneOf(["white", "grey"] as const),
  to: recipients,
  phase: text(),
  at: iso("sent"),
});

export const heldPressAnswer = many(
  obj({
    n: int({
      description:
        "for the GM the held message's number in the game (what approve-press and refuse-press take); for its author their own (1, 2, 3 ...)",
    }),
    status: oneOf(["held", "approved", "refused"] as const),
    phase: text(),
    kind: oneOf(["white", "grey"] as const),
    from: nullable(text("the author's power")),
    fromName: text("the author's seat name"),
    to: recipients,
    body: text(),
    at: iso("sent"),
    reason: optional(text("the GM's reason for refusing it")),
    decidedAt: optional(iso("approved or refused")),
  }),
);

export const pressDecided = obj({
  held: int({ description: "the held message's number" }),
  status: oneOf(["approved", "refused"] as const),
  reason: optional(text("the GM's reason, told to the author")),
});

export const eventsAnswer = many(
  obj({
    id: int({
      description:
        "the event's id for you: the nth event you may read in the game is n (for ?after= and Last-Event-ID); a press event's data.id is your id for the message",
    }),
    kind: text("started, phase_resolved, press, ..."),
    data: anyJson("what happened"),
    at: iso("when"),
  }),
  "without Accept: text/event-stream; with it, the same events as a server-sent event stream",
);

export const replaceAnswer = described(
  "the game view, or for a vacated seat {seat, player, invite}",
);

export const okAnswer = obj({ ok: bool() });

/** Answers whose fields are given by another document (named in the description). */
export const documented = described;

export const mailIdentityAnswer = described("your mail address and secret (docs/email.md)");

export const noticesAnswer = described(
  "your address, whether the judge mails you, and each of your games' choice (docs/email.md)",
);

export const ownMapAnswer = obj(
  {
    geometry: described(
      "the MapGeometry of the viewer's map (docs/maps.md): a player's holds only the areas it knows, labelled as its report names them",
    ),
    view: described("the BoardView drawn on it: units and owners only where the player sees"),
    frame: nullable(
      many(num({ description: "x, y, width, height" }), "the part of the map a player knows"),
    ),
  },
  "a viewer's own generated map, to draw with drawBoard (src/render/layers.ts)",
);
