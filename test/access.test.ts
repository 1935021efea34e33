import assert from "node:assert/strict";
import type { TestContext } from "node:test";
import { test } from "node:test";
import { sql } from "kysely";
import { Judge, type User } from "../src/judge/judge.ts";
import { configureMailGame, setMailAddress } from "../src/judge/mail.ts";
import { Clock, POWERS } from "../src/judge/testing.ts";
import type { Route } from "../src/server/router.ts";
import { type RunningServer, startServer } from "../src/server/server.ts";
import { SseReader, waitFor } from "../src/server/testing.ts";
import type { Store } from "../src/store/db.ts";
import { testStore } from "../src/store/testing.ts";

/*
 * Access control, swept over the server's own route table (a route without a rule below fails
 * the test): as an anonymous caller, a user who is in no game, an observer, a player of
 * another power, and the game master of another game, every endpoint and the live channel
 * are tried for another power's orders before resolution, another player's private press,
 * who cast which vote, the author of grey press, another game's data, the invitation codes
 * and the GM's tools. Three ways of looking:
 * - refusals: who may not call a route gets 401 (anonymous) or 403/404 with a message, and a
 *   refused call changes nothing in the store (every table compared);
 * - markers: secret texts planted in the game appear only in the answers of those entitled;
 * - non-interference: a secret is changed (a vote flipped, an order set revised) and every
 *   answer to everybody not entitled to it must stay byte for byte the same.
 */

type Actor =
  | "anon"
  | "outsider"
  | "observer"
  | "england"
  | "france"
  | "germany"
  | "italy"
  | "austria"
  | "gmA"
  | "gmB"
  | "playerB";
const SWEEP_ACTORS: readonly Actor[] = [
  "anon",
  "outsider",
  "observer",
  "england",
  "france",
  "austria",
  "gmA",
  "gmB",
  "playerB",
];

/** Who may call a route: anyone (answers filtered per viewer), or only some. */
type Who =
  | "anyone"
  /** any logged-in user, for their own account or things */
  | "user"
  /** anybody who has joined the game (player, observer or GM) */
  | "member"
  /** a player with a seat, or the GM */
  | "player-or-gm"
  /** a player with a seat */
  | "player"
  | "gm";

interface Rule {
  readonly who: Who;
  /** A valid body, so that a refusal is about who calls, not what is sent. */
  readonly body?: (w: World) => unknown;
  /**
   * POST/DELETE routes that anyone entitled may call without storing anything (checks,
   * previews): swept like GET routes, and the store must not change.
   */
  readonly readOnly?: boolean;
  /** Why a route is left out of the sweep (it is exercised by a dedicated test here). */
  readonly skip?: string;
  /**
   * Routes acting on one thing (a token, a declaration): only these may, on game A's path;
   * on game B's path nobody (the thing is not in that game).
   */
  readonly owners?: readonly Actor[];
  /** Routes of europe1935's committee: tried on game C (europe1935) instead of A and B. */
  readonly committee?: boolean;
}

const ordersBody = () => ({ orders: ["A par H"], power: "france" });

/** One rule per route of the table, by "METHOD path". */
const RULES: Record<string, Rule> = {
  "GET /api/health": { who: "anyone" },
  "GET /api/variants": { who: "anyone" },
  "POST /api/users": {
    who: "anyone",
    skip: "creates accounts; rate limits in reliability.test.ts",
  },
  "POST /api/login": { who: "anyone", skip: "rate limits and hashing in reliability.test.ts" },
  "GET /api/me": { who: "user" },
  "POST /api/unsubscribe/{user}/{game}/{signature}": {
    who: "anyone",
    skip: "no login: its signature is the authority; src/mail/unsubscribe.test.ts refuses a wrong one and checks it changes nothing else",
  },
  "GET /api/tokens": { who: "user" },
  "POST /api/tokens": { who: "user", skip: "issues a token for the caller only" },
  "DELETE /api/tokens/{tokenId}": { who: "user", owners: ["gmA"] },
  "GET /api/games": { who: "anyone" },
  "POST /api/games": { who: "user", skip: "creates a new game with the caller as GM" },
  "POST /api/practice": {
    who: "user",
    skip: "creates a new game with the caller as its player (src/judge/bots.test.ts)",
  },
  "GET /api/games/{id}": { who: "anyone" },
  "GET /api/games/{id}/phases": { who: "anyone" },
  "GET /api/games/{id}/record": { who: "anyone" },
  "POST /api/games/{id}/invites": { who: "gm", body: () => ({ role: "player" }) },
  "GET /api/invites/{code}": { who: "anyone" },
  "POST /api/invites/{code}": {
    who: "user",
    skip: "whoever holds a code may join: the codes themselves are the secret (markers)",
  },
  "POST /api/games/{id}/orders": { who: "player", body: ordersBody },
  "GET /api/games/{id}/orders": { who: "player-or-gm" },
  // Global Diplomacy's reports and turns (test/global-judge.test.ts sweeps a global game).
  "GET /api/games/{id}/report": { who: "player-or-gm" },
  "GET /api/games/{id}/turns": { who: "gm" },
  "GET /api/games/{id}/moderator-map": { who: "gm" },
  // An Age of Discovery player's own map (test/e2e/family.test.ts, web-parts.test.ts).
  "GET /api/games/{id}/map": { who: "player-or-gm" },
  // The game so far as pictures, from the record anyone may read (src/server/pictures.test.ts).
  "GET /api/games/{id}/history.gif": { who: "anyone" },
  "GET /api/games/{id}/history.png": { who: "anyone" },
  "GET /api/games/{id}/votes": { who: "member" },
  "POST /api/games/{id}/votes": { who: "player", body: () => ({ kind: "draw" }) },
  "POST /api/games/{id}/votes/{pid}": { who: "player", body: () => ({ vote: "no" }) },
  "GET /api/games/{id}/press": { who: "anyone" },
  "POST /api/games/{id}/press": {
    who: "player-or-gm",
    body: () => ({ to: "all", body: "hello" }),
  },
  // Press held for the GM's review: the GM's all, a player's own (src/judge/press-review.test.ts).
  "GET /api/games/{id}/press/held": { who: "player-or-gm" },
  "GET /api/games/{id}/events": { who: "anyone" },
  "POST /api/games/{id}/gm/start": { who: "gm" },
  "POST /api/games/{id}/gm/pause": { who: "gm" },
  "POST /api/games/{id}/gm/resume": { who: "gm" },
  "POST /api/games/{id}/gm/deadline": { who: "gm", body: () => ({ extendMinutes: 60 }) },
  "POST /api/games/{id}/gm/correct": { who: "gm", body: () => ({ reason: "a mistake" }) },
  "POST /api/games/{id}/gm/remove-unit": {
    who: "gm",
    body: () => ({ power: "france", unit: "A par", reason: "an extra unit" }),
  },
  "POST /api/games/{id}/gm/relocate-unit": {
    who: "gm",
    body: () => ({ power: "france", unit: "A par", to: "gas", reason: "a misplaced unit" }),
  },
  "POST /api/games/{id}/gm/replace": {
    who: "gm",
    body: (w) => ({ seat: 2, user: w.names.outsider }),
  },
  "POST /api/games/{id}/gm/bot": { who: "gm", body: () => ({ seat: 2, bot: "off" }) },
  "POST /api/games/{id}/gm/end": { who: "gm", body: () => ({ result: "abandoned" }) },
  "POST /api/games/{id}/gm/declare-draw": { who: "gm", body: () => ({ warn: true }) },
  "POST /api/games/{id}/gm/approve-press": { who: "gm", body: () => ({ held: 1 }) },
  "POST /api/games/{id}/gm/refuse-press": {
    who: "gm",
    body: () => ({ held: 1, reason: "not to be published" }),
  },
  "POST /api/games/{id}/gm/refuse-proposal": {
    who: "gm",
    body: (w) => ({ proposal: w.proposal, reason: "the same draw as last phase" }),
  },
  // Sequential movement: the schedule is the GM's alone; contracts their powers' and the GM's.
  "GET /api/games/{id}/schedule": { who: "gm" },
  "POST /api/games/{id}/schedule/{season}": { who: "gm", body: () => ({ schedule: "generated" }) },
  "GET /api/games/{id}/contracts": { who: "player-or-gm" },
  "POST /api/games/{id}/contracts": {
    who: "player-or-gm",
    body: () => ({ with: "france", power: "england" }),
  },
  "DELETE /api/games/{id}/contracts/{cid}": { who: "player-or-gm", owners: ["england", "gmA"] },
  // The europe1935 committee: goals are their power's and the chairs' (the GM's).
  "GET /api/games/{id}/committee": { who: "anyone", committee: true },
  "POST /api/games/{id}/committee/goals": {
    who: "player-or-gm",
    committee: true,
    body: () => ({ text: "hold Paris", power: "france" }),
  },
  "POST /api/games/{id}/committee/goals/{goal}": {
    who: "gm",
    committee: true,
    body: () => ({ decision: "deny" }),
  },
  "POST /api/games/{id}/committee/conferences": {
    who: "player-or-gm",
    committee: true,
    body: () => ({
      name: "Munich Conference",
      goal: "peace",
      location: "Munich",
      participants: ["uk", "france", "germany"],
    }),
  },
  "POST /api/games/{id}/committee/conferences/close": { who: "gm", committee: true },
  "POST /api/games/{id}/committee/territory": {
    who: "gm",
    committee: true,
    body: () => ({ centres: 20 }),
  },
  // Play by mail: the secret is its owner's; the outbox (mail to every player) the GM's.
  "GET /api/me/mail": { who: "user" },
  "POST /api/me/mail": { who: "user", body: () => ({ address: "someone@example.org" }) },
  "GET /api/me/notices": { who: "user" },
  "POST /api/me/notices": { who: "user", body: () => ({ notices: true }) },
  "GET /api/games/{id}/mail": { who: "anyone" },
  "GET /api/games/{id}/outbox": { who: "gm" },
  "POST /api/games/{id}/gm/mail": {
    who: "gm",
    body: () => ({ abbreviation: "XYZ", address: "xyz@judge.example.org" }),
  },
  // Maps: a variant's shapes and start, public.
  "GET /api/variants/{id}/geometry": { who: "anyone" },
  "GET /api/variants/{id}/map.svg": { who: "anyone" },
  // The web client's routes.
  "GET /api/variants/{id}/start": { who: "anyone" },
  "GET /api/my/games": { who: "user" },
  "GET /api/games/{id}/legal": { who: "anyone" },
  "POST /api/games/{id}/check": {
    who: "player",
    readOnly: true,
    body: () => ({ orders: ["F lon - nth"] }),
  },
  "POST /api/sandbox/adjudicate": {
    who: "anyone",
    readOnly: true,
    body: () => ({
      phase: "S1901M",
      units: { england: ["F lon"], france: ["F bre"] },
      orders: { england: ["F lon - eng"], france: ["F bre - eng"] },
    }),
  },
  "POST /api/sandbox/legal": {
    who: "anyone",
    readOnly: true,
    body: () => ({ phase: "S1901M", units: { england: ["F lon"] } }),
  },
  "GET /api/games/{id}/chair": { who: "anyone" },
  "POST /api/games/{id}/chair": { who: "gm", body: () => ({ on: true }) },
  "POST /api/games/{id}/chair/resolve": { who: "gm" },
  "POST /api/games/{id}/chair/timer": {
    who: "gm",
    body: () => ({ action: "start", stage: "speech" }),
  },
};

/** Pages and documents served outside the route table. */
const EXTRA_GETS = (w: World) => [
  "/",
  "/index.html",
  "/api/docs",
  "/api/openapi.json",
  `/game/${w.gameA}`,
  `/chair/${w.gameA}`,
  `/join/${w.codes.a[0]}`,
  "/sandbox",
  "/login",
];

interface World {
  readonly server: RunningServer;
  readonly store: Store;
  readonly judge: Judge;
  readonly base: string;
  readonly gameA: string;
  readonly gameB: string;
  /** europe1935, run by gmA: England's player holds the UK, the observer watches. */
  readonly gameC: string;
  /** Each game's members: actor to role. */
  readonly roles: Record<string, Partial<Record<Actor, "gm" | "player" | "observer">>>;
  readonly tokens: Record<Actor, string | null>;
  readonly names: Record<string, string>;
  readonly users: Record<string, User>;
  /** Invitation codes of both games (GM-only secrets). */
  readonly codes: { a: string[]; b: string[] };
  /** England's player's mail secret (the line that authenticates order mails). */
  readonly mailSecret: string;
  readonly proposal: number;
  readonly contract: number;
  readonly gmTokenId: string;
  readonly goal: string;
}

const M = {
  englandOrders: "zqxsecret englandorders",
  privatePress: "zqxsecret privatepress france to germany",
  greyPress: "zqxsecret greypress unsigned",
  bOrders: "zqxsecret gameb orders",
  bPress: "zqxsecret gameb press",
  goal: "zqxsecret political goal of the uk",
};

/** Which actors may see each marker. */
const ENTITLED: Record<keyof typeof M | "codesA" | "codesB", readonly Actor[]> = {
  englandOrders: ["england", "gmA"],
  privatePress: ["france", "germany", "gmA"],
  // Sent to all: everybody reads it; who wrote it is checked apart (greyAuthorShown).
  greyPress: SWEEP_ACTORS,
  bOrders: ["playerB", "gmB"],
  bPress: ["playerB", "gmB"],
  goal: ["england", "gmA"],
  codesA: ["gmA"],
  codesB: ["gmB"],
};

async function build(t: TestContext): Promise<World> {
  const ts = await testStore(t, "sqlite");
  if (!ts) throw new Error("SQLite store unavailable");
  const clock = new Clock();
  const judge = new Judge({ store: ts.store, now: clock.now });
  const users: Record<string, User> = {};
  const tokens = { anon: null } as Record<Actor, string | null>;
  const reg = async (who: string) => {
    const r = await judge.accounts.register(`acc-${who}`, "correct horse battery");
    users[who] = r.user;
    tokens[who as Actor] = r.token;
    return r.user;
  };
  for (const who of ["gmA", "gmB", "outsider", "observer", "playerB", ...POWERS]) await reg(who);
  // Both games use sequential movement, whose schedule and contracts are secrets too.
  const rules = { movement: "sequential" };
  const a = await judge.games.createGame(users.gmA!, { name: "Game A", seed: 11, rules });
  const codeA = (role: string) => a.invites!.find((i) => i.role === role)!.code;
  for (const p of POWERS) await judge.games.acceptInvite(users[p]!, codeA("player"), { power: p });
  await judge.games.acceptInvite(users.observer!, codeA("observer"), {});
  const b = await judge.games.createGame(users.gmB!, { name: "Game B", seed: 12, rules });
  const codeB = b.invites!.find((i) => i.role === "player")!.code;
  await judge.games.acceptInvite(users.playerB!, codeB, { power: "england" });
  await judge.games.start(users.gmB!, b.id);
  // The secrets.
  await judge.submissions.submitOrders(users.england!, a.id, {
    orders: ["F lon H", "F edi H", "A lvp H", M.englandOrders],
  });
  await judge.press.sendPress(users.france!, a.id, {
    to: ["germany"],
    body: M.privatePress,
  });
  await judge.press.sendPress(users.italy!, a.id, {
    to: "all",
    body: M.greyPress,
    kind: "grey",
  });
  const prop = await judge.votes.propose(users.russia!, a.id, { kind: "draw" });
  await judge.votes.vote(users.austria!, a.id, prop.id, "yes");
  await judge.votes.vote(users.turkey!, a.id, prop.id, "abstain");
  const contract = await judge.gm.declareContract(users.england!, a.id, { with: "france" });
  await judge.submissions.submitOrders(users.playerB!, b.id, { orders: ["F lon H", M.bOrders] });
  await judge.press.sendPress(users.playerB!, b.id, { to: ["france"], body: M.bPress });
  const c = await judge.games.createGame(users.gmA!, {
    name: "Game C",
    variant: "europe1935",
    seed: 13,
  });
  const codeC = (role: string) => c.invites!.find((i) => i.role === role)!.code;
  await judge.games.acceptInvite(users.england!, codeC("player"), { power: "uk" });
  await judge.games.acceptInvite(users.observer!, codeC("observer"), {});
  await judge.games.start(users.gmA!, c.id);
  const goal = await judge.gm.committeeAct(users.england!, c.id, { act: "goal", text: M.goal });
  const mail = await setMailAddress(judge, users.england!, { address: "england@example.org" });
  await configureMailGame(judge, users.gmA!, a.id, {
    abbreviation: "ACC",
    address: "acc@judge.example.org",
  });
  // The sweep calls every route many times from one address: the quotas (tested in
  // test/reliability.test.ts) are set out of its way; who may call what is what it checks.
  const many = { max: 1_000_000, windowMs: 60_000 };
  const server = await startServer({
    judge,
    port: 0,
    host: "127.0.0.1",
    tickMs: 60_000,
    pollMs: 20,
    limits: { sandboxPerAddress: many, gamesPerUser: many, pressPerUser: many },
  });
  t.after(() => server.close());
  const invitesOf = async (id: string) =>
    (
      await judge.store.db.selectFrom("invites").select("code").where("game_id", "=", id).execute()
    ).map((r) => r.code);
  return {
    server,
    store: ts.store,
    judge,
    base: `http://127.0.0.1:${server.port}`,
    gameA: a.id,
    gameB: b.id,
    gameC: c.id,
    mailSecret: mail.secret,
    roles: await rolesOf(judge.store, users),
    goal: goalId(goal),
    tokens,
    names: Object.fromEntries(Object.entries(users).map(([k, u]) => [k, u.name])),
    users,
    codes: {
      a: [...(await invitesOf(a.id)), ...(await invitesOf(c.id))],
      b: await invitesOf(b.id),
    },
    proposal: prop.id,
    contract: contractId(contract),
    gmTokenId: (await judge.accounts.listTokens(users.gmA!))[0]!.id,
  };
}

/** Who is what in each game, as the store says. */
async function rolesOf(store: Store, users: Record<string, User>): Promise<World["roles"]> {
  const actorOf = new Map(Object.entries(users).map(([a, u]) => [u.id, a as Actor]));
  const rows = await store.db
    .selectFrom("members")
    .select(["game_id", "user_id", "role"])
    .execute();
  const out: World["roles"] = {};
  for (const r of rows) {
    const a = actorOf.get(r.user_id);
    if (!a) continue;
    const game = out[r.game_id] ?? {};
    game[a] = r.role as "gm" | "player" | "observer";
    out[r.game_id] = game;
  }
  return out;
}

/** The id of the goal just proposed: the goal whose text is the marker, in the answer. */
function goalId(view: unknown): string {
  let id: string | undefined;
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(visit);
    else if (x && typeof x === "object") {
      const o = x as Record<string, unknown>;
      if (o.text === M.goal && o.id !== undefined) id = String(o.id);
      Object.values(o).forEach(visit);
    }
  };
  visit(view);
  assert.ok(id, `the goal's id in ${JSON.stringify(view).slice(0, 2000)}`);
  return id;
}

/** The id of a contract declaration, from the answer to declaring it. */
function contractId(answer: unknown): number {
  const found = JSON.stringify(answer).match(/"id":(\d+)/);
  assert.ok(found, `a contract declaration's id in ${JSON.stringify(answer)}`);
  return Number(found[1]);
}

/** Every table, every row (tokens without their last-use time): to compare before and after. */
async function snapshot(store: Store): Promise<string> {
  const tables = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%'
    and name not like 'kysely_%' order by name`.execute(store.db);
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(
      store.db,
    );
    out[name] = rows.rows.map((r) => {
      const { last_used_at: _, ...rest } = r;
      return rest;
    });
  }
  return JSON.stringify(out);
}

interface Reply {
  status: number;
  text: string;
  type: string;
  headers: Headers;
}

async function call(
  w: World,
  actor: Actor,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  const token = w.tokens[actor];
  const res = await fetch(w.base + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return {
    status: res.status,
    text: await res.text(),
    type: res.headers.get("content-type") ?? "",
    headers: res.headers,
  };
}

/** The concrete paths a route is tried at: each game, or a sample of its parameter. */
function pathsOf(w: World, r: Route): string[] {
  const samples: Record<string, string[]> = {
    id: r.path.startsWith("/api/variants/")
      ? ["classical"]
      : RULES[`${r.method} ${r.path}`]?.committee
        ? [w.gameC]
        : [w.gameA, w.gameB],
    goal: [w.goal],
    code: [w.codes.a[0]!],
    pid: [String(w.proposal)],
    tokenId: [w.gmTokenId],
    cid: [String(w.contract)],
    season: ["S1902"],
  };
  let paths = [r.path];
  for (const name of r.paramNames) {
    const values = samples[name];
    assert.ok(
      values,
      `${r.method} ${r.path}: no sample value for {${name}}; add one to pathsOf in test/access.test.ts`,
    );
    paths = paths.flatMap((p) => values.map((v) => p.replace(`{${name}}`, encodeURIComponent(v))));
  }
  return paths;
}

/** Is `actor` allowed to call a route of this rule on this game? */
function allowed(w: World, rule: Rule, actor: Actor, game: string | null): boolean {
  const { who } = rule;
  if (rule.owners) return game !== w.gameB && rule.owners.includes(actor);
  if (who === "anyone") return true;
  if (actor === "anon") return false;
  if (who === "user") return true;
  const role = game === null ? undefined : w.roles[game]?.[actor];
  if (!role) return false;
  if (who === "member") return true;
  if (who === "gm") return role === "gm";
  if (who === "player") return role === "player";
  return role !== "observer"; // player-or-gm
}

function gameOf(w: World, path: string): string | null {
  return [w.gameA, w.gameB, w.gameC].find((g) => path.includes(`/${g}`)) ?? null;
}

function routesOf(w: World): { route: Route; rule: Rule }[] {
  const missing = w.server.routes.map((r) => `${r.method} ${r.path}`).filter((k) => !(k in RULES));
  assert.deepEqual(
    missing,
    [],
    `routes without an access rule in test/access.test.ts (say who may call them): ${missing.join(", ")}`,
  );
  return w.server.routes.map((route) => ({ route, rule: RULES[`${route.method} ${route.path}`]! }));
}

/** Every answer to every actor, for the routes that only read. */
async function readSweep(w: World): Promise<Map<string, Reply>> {
  const out = new Map<string, Reply>();
  for (const { route, rule } of routesOf(w)) {
    if (rule.skip || (route.method !== "GET" && !rule.readOnly)) continue;
    for (const path of pathsOf(w, route)) {
      const game = gameOf(w, path);
      for (const actor of SWEEP_ACTORS) {
        const before = rule.readOnly ? await snapshot(w.store) : "";
        const r = await call(w, actor, route.method, path, rule.body?.(w));
        if (rule.readOnly) {
          assert.equal(await snapshot(w.store), before, `${route.method} ${path} stored something`);
        }
        if (!allowed(w, rule, actor, game)) {
          assertRefused(r, actor, `${route.method} ${path} as ${actor}`);
        } else {
          assert.ok(r.status < 500, `${route.method} ${path} as ${actor}: ${r.status} ${r.text}`);
        }
        out.set(`${actor} ${route.method} ${path}`, r);
      }
    }
  }
  for (const path of EXTRA_GETS(w)) {
    for (const actor of SWEEP_ACTORS)
      out.set(`${actor} GET ${path}`, await call(w, actor, "GET", path));
  }
  return out;
}

function assertRefused(r: Reply, actor: Actor, what: string): void {
  const want = actor === "anon" ? [401] : [403, 404];
  assert.ok(
    want.includes(r.status),
    `${what}: expected ${want.join(" or ")}, got ${r.status} ${r.text}`,
  );
  const body = JSON.parse(r.text) as { error?: unknown };
  assert.ok(
    typeof body.error === "string" && body.error.length > 10,
    `${what}: the refusal says why (${r.text})`,
  );
}

/** The grey message's author (Italy, its player) must not show beside its text or event. */
function greyAuthorShown(w: World, r: Reply): boolean {
  if (!r.type.includes("json")) return false;
  const italy = [w.names.italy!, "italy", "Italy"];
  let shown = false;
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(visit);
    else if (x && typeof x === "object") {
      const o = x as Record<string, unknown>;
      const text = JSON.stringify(o);
      const about =
        (typeof o.body === "string" && o.body.includes(M.greyPress)) ||
        // Its event (each reader numbers it differently): game A's one grey message.
        (o.kind === "press" && (o.data as { kind?: unknown } | undefined)?.kind === "grey");
      if (about && italy.some((n) => text.includes(n))) shown = true;
      Object.values(o).forEach(visit);
    }
  };
  try {
    visit(JSON.parse(r.text));
  } catch {
    return false;
  }
  return shown;
}

test("access control: every route, every role; secrets only to those entitled; refusals store nothing", async (t) => {
  const w = await build(t);
  const answers = await readSweep(w);
  assert.ok(answers.size > 100, `the sweep made ${answers.size} calls`);

  // Markers: each secret only in the answers of those entitled to it.
  const secrets: [string, string[], readonly Actor[]][] = [
    ...(Object.keys(M) as (keyof typeof M)[]).map(
      (k) => [k, [M[k]], ENTITLED[k]] as [string, string[], readonly Actor[]],
    ),
    ["invitation codes of game A", w.codes.a, ENTITLED.codesA],
    ["invitation codes of game B", w.codes.b, ENTITLED.codesB],
    ["England's mail secret", [w.mailSecret], ["england"]],
  ];
  const seen = new Map<string, Set<Actor>>();
  for (const [key, r] of answers) {
    const actor = key.split(" ")[0] as Actor;
    for (const [name, texts, entitled] of secrets) {
      // An invitation code in the URL asked for (GET /api/invites/{code}) is the caller's own.
      const asked = w.codes.a.find((c) => key.includes(c));
      const text = asked ? r.text.replaceAll(asked, "") : r.text;
      if (!texts.some((s) => text.includes(s))) continue;
      if (!seen.has(name)) seen.set(name, new Set());
      seen.get(name)!.add(actor);
      assert.ok(
        entitled.includes(actor),
        `${name} leaked to ${actor} by ${key.slice(actor.length + 1)}`,
      );
    }
    assert.ok(
      !/scrypt\$|ent_[A-Za-z0-9_-]{20}/.test(r.text) || key.includes("POST"),
      `${key}: a password hash or a token in the answer`,
    );
    if (!["italy", "gmA"].includes(actor)) {
      assert.ok(!greyAuthorShown(w, r), `${key}: the author of grey press is shown`);
    }
  }
  // The test can see what it looks for: the entitled do get each secret somewhere.
  assert.ok(seen.get("englandOrders")?.has("england"), "England reads its own orders");
  assert.ok(seen.get("englandOrders")?.has("gmA"), "the GM reads England's orders");
  assert.ok(seen.get("privatePress")?.has("france"), "France reads its own message");
  assert.ok(seen.get("bOrders")?.has("playerB"), "game B's player reads their orders");
  assert.ok(seen.get("invitation codes of game A")?.has("gmA"), "the GM sees the invitations");
  assert.ok(seen.get("greyPress")?.has("anon"), "grey press to all is readable");
  assert.ok(seen.get("England's mail secret")?.has("england"), "England reads its mail secret");

  // Non-interference: change a secret; nobody else's answers change at all.
  const rounds: { what: string; change: () => Promise<unknown>; entitled: readonly Actor[] }[] = [
    {
      what: "Austria's vote flipped",
      change: () => w.judge.votes.vote(w.users.austria!, w.gameA, w.proposal, "no"),
      entitled: ["austria"],
    },
    {
      what: "England's orders revised",
      change: () =>
        w.judge.submissions.submitOrders(w.users.england!, w.gameA, { orders: ["A lvp - yor"] }),
      entitled: ["england", "gmA"],
    },
    {
      what: "game A's schedule set by the GM",
      change: () =>
        w.judge.gm.setSchedule(w.users.gmA!, w.gameA, "S1902", [
          "turkey",
          "russia",
          "italy",
          "germany",
          "france",
          "england",
          "austria",
        ]),
      entitled: ["gmA"],
    },
    {
      what: "England's contract withdrawn",
      change: () => w.judge.gm.withdrawContract(w.users.england!, w.gameA, w.contract),
      entitled: ["england", "gmA"],
    },
    {
      what: "game B's orders revised",
      change: () =>
        w.judge.submissions.submitOrders(w.users.playerB!, w.gameB, { orders: ["F lon - nth"] }),
      entitled: ["playerB", "gmB"],
    },
  ];
  let before = answers;
  for (const round of rounds) {
    await round.change();
    const after = await readSweep(w);
    let changed = 0;
    for (const [key, r] of after) {
      const actor = key.split(" ")[0] as Actor;
      const old = before.get(key)!;
      if (old.text !== r.text) changed++;
      if (round.entitled.includes(actor)) continue;
      assert.equal(r.text, old.text, `${round.what}: ${key} changed for ${actor}`);
    }
    assert.ok(changed > 0, `${round.what}: the change shows to someone entitled`);
    before = after;
  }

  // Refusals: every route that changes something, as everyone not allowed; nothing stored.
  let refused = 0;
  for (const { route, rule } of routesOf(w)) {
    if (rule.skip || route.method === "GET" || rule.readOnly) continue;
    for (const path of pathsOf(w, route)) {
      const game = gameOf(w, path);
      for (const actor of [...SWEEP_ACTORS, "germany", "italy"] as Actor[]) {
        if (allowed(w, rule, actor, game)) continue;
        const s = await snapshot(w.store);
        const r = await call(w, actor, route.method, path, rule.body?.(w));
        assertRefused(r, actor, `${route.method} ${path} as ${actor}`);
        assert.equal(
          await snapshot(w.store),
          s,
          `${route.method} ${path} as ${actor} changed the store`,
        );
        refused++;
      }
    }
  }
  assert.ok(refused > 50, `${refused} refused attempts`);

  // A player writing another power's orders: refused, and England's set is untouched.
  {
    const s = await snapshot(w.store);
    const r = await call(w, "france", "POST", `/api/games/${w.gameA}/orders`, {
      orders: ["F lon - nth"],
      power: "england",
    });
    assert.ok(
      r.status >= 400 && r.status < 500,
      `France ordering for England: ${r.status} ${r.text}`,
    );
    assert.equal(await snapshot(w.store), s, "France's attempt stored nothing");
    const viaLine = await call(w, "france", "POST", `/api/games/${w.gameA}/orders`, {
      orders: ["England", "F lon - nth"],
    });
    const stored = await w.store.db
      .selectFrom("submissions")
      .select(["power", "user_id"])
      .where("game_id", "=", w.gameA)
      .where("power", "=", "england")
      .execute();
    assert.ok(
      stored.every((x) => x.user_id === w.users.england!.id),
      `a power-switching line let France write England's orders (${viaLine.status} ${viaLine.text})`,
    );
  }

  // The GM's token, which others tried to revoke, still works.
  assert.equal((await call(w, "gmA", "GET", "/api/me")).status, 200, "the GM's token still works");
  t.diagnostic(
    `${w.server.routes.length} routes, ${answers.size} answers per sweep (${rounds.length + 1} sweeps), ${refused} refused attempts`,
  );
});

test("the live channel: each watcher gets only its events; a revoked token or a lost seat stops them at once", async (t) => {
  const w = await build(t);
  const { gameA } = w;
  const watchers = [
    "anon",
    "outsider",
    "observer",
    "england",
    "france",
    "germany",
    "gmA",
    "gmB",
  ] as const;
  // Germany watches with a second token, revoked below; Italy watches and loses its seat.
  const extra = await w.judge.accounts.issueToken(w.users.germany!.id, "phone");
  const readers = new Map<string, SseReader>();
  const open = async (key: string, token: string | null) => {
    const r = new SseReader();
    const q = token ? `?token=${encodeURIComponent(token)}` : "";
    await r.open(`${w.base}/api/games/${gameA}/events${q}`);
    readers.set(key, r);
  };
  for (const a of watchers) await open(a, w.tokens[a]);
  await open("germany-phone", extra.token);
  await open("italy", w.tokens.italy);
  t.after(async () => {
    for (const r of readers.values()) await r.close();
  });
  // A press event names its message by the reader's own id, so it is known by what it says.
  const pressTo = (key: string, to: unknown, kind = "white") =>
    readers
      .get(key)!
      .events.filter(
        (e) =>
          e.event === "press" &&
          e.data.data.kind === kind &&
          JSON.stringify(e.data.data.to) === JSON.stringify(to),
      );
  const backlogPrivate = (key: string) => pressTo(key, ["germany"]).length > 0;
  await waitFor("backlogs", async () => readers.get("gmA")!.events.length > 0);
  for (const key of readers.keys()) {
    const may = ["france", "germany", "germany-phone", "gmA"].includes(key);
    assert.equal(backlogPrivate(key), may, `${key}: the backlog's private press`);
  }

  // Revoke Germany's phone token, take Italy's seat away, then send new private press.
  const res = await fetch(`${w.base}/api/tokens/${extra.id}`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${w.tokens.germany}` },
  });
  assert.equal(res.status, 200, "Germany revokes its phone's token");
  const replaced = await fetch(`${w.base}/api/games/${gameA}/gm/replace`, {
    method: "POST",
    headers: { authorization: `Bearer ${w.tokens.gmA}`, "content-type": "application/json" },
    body: JSON.stringify({ seat: POWERS.indexOf("italy") }),
  });
  assert.equal(replaced.status, 200, `the GM vacates Italy's seat: ${await replaced.text()}`);
  await w.judge.press.sendPress(w.users.france!, gameA, {
    to: ["germany", "italy"],
    body: "second private note",
  });
  await w.judge.press.sendPress(w.users.austria!, gameA, {
    to: "all",
    body: "a grey note",
    kind: "grey",
  });
  // Two grey messages to all now: Italy's, before the streams opened, and Austria's.
  await waitFor("the grey press event", async () => pressTo("anon", "all", "grey").length === 2);
  await waitFor("Germany's event", async () => pressTo("germany", ["germany", "italy"]).length > 0);
  for (const key of readers.keys()) {
    const may = ["france", "germany", "gmA"].includes(key);
    assert.equal(
      pressTo(key, ["germany", "italy"]).length > 0,
      may,
      `${key}: press to Germany and Italy after the changes`,
    );
    for (const ev of pressTo(key, "all", "grey")) {
      assert.ok(
        !JSON.stringify(ev).includes("austria") &&
          !JSON.stringify(ev).includes(w.names.austria!) &&
          !JSON.stringify(ev).includes(w.names.italy!),
        `${key}: a grey press event names its author`,
      );
    }
  }
  // Each stream numbers its own events 1, 2, 3 ... (no gap where others' private events
  // went), and a press event names the message by the id its reader's press list gives it.
  for (const [key, r] of readers) {
    assert.deepEqual(
      r.events.map((e) => e.id),
      r.events.map((_, i) => i + 1),
      `${key}: the stream's ids`,
    );
    for (const e of r.events) {
      assert.equal((e.data as { id?: unknown }).id, e.id, `${key}: the event's own id`);
    }
  }
  for (const key of ["france", "germany", "gmA"] as const) {
    const list = await w.judge.press.press(w.users[key]!, gameA);
    const note = list.find((m) => m.body === "second private note")!;
    assert.deepEqual(
      pressTo(key, ["germany", "italy"]).map((e) => e.data.data.id),
      [note.id],
      `${key}: the press event's id is the message's id in ${key}'s own list`,
    );
  }
  // The revoked token cannot reopen the stream.
  const again = await fetch(`${w.base}/api/games/${gameA}/events?token=${extra.token}`, {
    headers: { accept: "text/event-stream" },
  });
  assert.equal(again.status, 401, "a revoked token is refused");
  await again.body?.cancel();
});

test("ids a viewer is shown are their own: 1 to n with no gaps where others wrote privately", async (t) => {
  const w = await build(t);
  const { gameA } = w;
  const call = async <T>(who: Actor, path: string): Promise<T> => {
    const token = w.tokens[who];
    const res = await fetch(`${w.base}/api/games/${gameA}${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    assert.equal(res.status, 200, `${who} ${path}: ${res.status}`);
    return (await res.json()) as T;
  };
  const send = (from: string, to: "all" | string[], body: string, kind = "white") =>
    w.judge.press.sendPress(from === "gmA" ? w.users.gmA! : w.users[from]!, gameA, {
      to,
      body,
      kind,
    });
  const idsOf = async (who: Actor, what: "press" | "events", after = 0) =>
    (await call<{ id: number }[]>(who, `/${what}${after ? `?after=${after}` : ""}`)).map(
      (x) => x.id,
    );
  const oneToN = (ids: number[], what: string) =>
    assert.deepEqual(
      ids,
      ids.map((_, i) => i + 1),
      what,
    );
  const readers: Actor[] = ["england", "france", "germany", "observer", "anon", "gmA"];
  const before = new Map<Actor, { press: number[]; events: number[] }>();
  for (const who of readers) {
    before.set(who, { press: await idsOf(who, "press"), events: await idsOf(who, "events") });
  }

  // England and France write to each other; between their messages others exchange private
  // press (white and grey), the GM writes privately, and private events happen (a contract).
  const first = await send("england", ["france"], "first, England to France");
  await send("germany", ["russia"], "Germany to Russia");
  await send("russia", ["germany"], "Russia to Germany", "grey");
  await send("austria", ["turkey", "italy"], "Austria to Turkey and Italy");
  await send("gmA", ["russia"], "the GM to Russia");
  const declared = await w.judge.gm.declareContract(w.users.germany!, gameA, { with: "russia" });
  const second = await send("france", ["england"], "second, France to England");
  await send("italy", ["austria"], "Italy to Austria");
  const third = await send("england", "all", "third, England to all");

  for (const who of readers) {
    const press = await idsOf(who, "press");
    const events = await idsOf(who, "events");
    oneToN(press, `${who}: press ids`);
    oneToN(events, `${who}: event ids`);
    // Stable: what a reader was shown before keeps its ids; new items only append.
    assert.deepEqual(press.slice(0, before.get(who)!.press.length), before.get(who)!.press);
    assert.deepEqual(events.slice(0, before.get(who)!.events.length), before.get(who)!.events);
  }
  // England's three messages follow each other in England's numbering, whatever others wrote
  // between them; the answer to the sender is the sender's own id.
  const englandPress = await call<{ id: number; body: string }[]>("england", "/press");
  const base = before.get("england")!.press.length;
  assert.deepEqual(
    englandPress.slice(base).map((m) => [m.id, m.body]),
    [
      [base + 1, "first, England to France"],
      [base + 2, "second, France to England"],
      [base + 3, "third, England to all"],
    ],
  );
  assert.deepEqual([first.id, third.id], [base + 1, base + 3], "sendPress answers England's ids");
  const francePress = await call<{ id: number; body: string }[]>("france", "/press");
  assert.equal(second.id, francePress.find((m) => m.body.startsWith("second"))!.id);
  // What a reader sees is exactly what they may read, with nothing in between.
  assert.equal(
    (await idsOf("observer", "press")).length,
    before.get("observer")!.press.length + 1,
    "the observer reads only England's message to all",
  );
  // The GM reads everything: their ids count every message of the game (not of other games).
  const all = await w.store.db
    .selectFrom("press")
    .select("id")
    .where("game_id", "=", gameA)
    .execute();
  assert.deepEqual(
    await idsOf("gmA", "press"),
    all.map((_, i) => i + 1),
  );
  // ?after= is a cursor in the reader's numbering.
  assert.deepEqual(await idsOf("england", "press", base + 1), [base + 2, base + 3]);
  const ev = await idsOf("england", "events");
  assert.deepEqual(await idsOf("england", "events", ev.length - 2), ev.slice(-2));
  assert.deepEqual(await idsOf("england", "press", 1_000_000), [], "past the end: nothing");
  for (const bad of ["-1", "1.5", "100000000000000000000", "x"]) {
    const res = await fetch(`${w.base}/api/games/${gameA}/press?after=${bad}`);
    assert.equal(res.status, 400, `after=${bad}`);
    assert.match(((await res.json()) as { error: string }).error, /"after" must be an id/);
  }
  // A press event names the message by the reader's own id for it.
  const events = await call<{ kind: string; data: { id?: number; to: unknown } }[]>(
    "england",
    "/events",
  );
  assert.deepEqual(
    events
      .filter((e) => e.kind === "press")
      .slice(-3)
      .map((e) => e.data.id),
    [base + 1, base + 2, base + 3],
  );
  // Contract declarations too: England declared one in the set-up, Germany its first now.
  assert.equal(declared.id, 1, "Germany's first declaration is its number 1");
  const declarations = async (who: Actor) =>
    (await w.judge.views.contracts(w.users[who]!, gameA)).declarations.map((d) => [d.id, d.power]);
  assert.deepEqual(await declarations("germany"), [[1, "germany"]]);
  assert.deepEqual(await declarations("england"), [[1, "england"]]);
  assert.deepEqual(await declarations("gmA"), [
    [1, "england"],
    [2, "germany"],
  ]);
  const contractEvent = async (who: Actor) =>
    (await call<{ kind: string; data: { id?: number; power?: string } }[]>(who, "/events"))
      .filter((e) => e.kind === "contract_declared" && e.data.power === "germany")
      .map((e) => e.data.id);
  assert.deepEqual(await contractEvent("germany"), [1], "Germany's event: its own id");
  assert.deepEqual(await contractEvent("gmA"), [2], "the GM's event: the GM's id");
  // A live stream from a cursor goes on in the same numbering.
  const sse = new SseReader();
  await sse.open(
    `${w.base}/api/games/${gameA}/events?after=${ev.length - 1}&token=${w.tokens.england}`,
  );
  t.after(() => sse.close());
  await waitFor("the backlog", async () => sse.events.length === 1);
  await send("germany", ["russia"], "more private press England does not see");
  await send("turkey", "all", "Turkey to all");
  await waitFor("the next event", async () => sse.events.length === 2);
  assert.deepEqual(
    sse.events.map((e) => [e.id, (e.data.data as { id?: number }).id]),
    [
      [ev.length, base + 3],
      [ev.length + 1, base + 4],
    ],
  );
});

test("proposals are numbered per game: 1, 2, 3 in each, whatever other games propose", async (t) => {
  const w = await build(t);
  const { gameA, gameB } = w;
  const api = async <T>(who: Actor, method: string, path: string, body?: unknown) => {
    const r = await call(w, who, method, path, body);
    assert.ok(
      r.status === 200 || r.status === 201,
      `${who} ${method} ${path}: ${r.status} ${r.text}`,
    );
    return JSON.parse(r.text) as T;
  };
  const listed = async (who: Actor, game: string) =>
    (
      await api<{ id: number; status: string; text: string }[]>(
        who,
        "GET",
        `/api/games/${game}/votes`,
      )
    ).map((p) => [p.id, p.status, p.text]);
  const eventIds = async (who: Actor, game: string) =>
    (await api<{ kind: string; data: { id?: number } }[]>(who, "GET", `/api/games/${game}/events`))
      .filter((e) => e.kind.startsWith("proposal") || e.kind === "vote_result")
      .map((e) => [e.kind, e.data.id]);

  // Game A made a proposal in the set-up (Russia's draw): its 1. Game B's first is its 1 too.
  assert.equal(w.proposal, 1, "game A's first proposal is its 1");
  const b1 = await api<{ id: number }>("playerB", "POST", `/api/games/${gameB}/votes`, {
    kind: "draw",
  });
  assert.equal(b1.id, 1, "game B's first proposal is its 1, though game A made one before");
  // Interleaved: A's second, B's second, each the 2 of its own game.
  const a2 = await w.judge.votes.propose(w.users.gmA!, gameA, {
    kind: "houserule",
    text: "rule A",
  });
  const b2 = await w.judge.votes.propose(w.users.gmB!, gameB, {
    kind: "houserule",
    text: "rule B",
  });
  assert.deepEqual([a2.id, b2.id], [2, 2]);
  // The store's rows went on counting across games (4 rows), and nobody is shown that.
  const rows = await w.store.db.selectFrom("proposals").select("id").execute();
  assert.equal(rows.length, 4);

  // Each number names its own game's proposal: B's player votes on B's 1, B's GM refuses B's
  // 2 (the API and the judge map the number to the game's row); A's are untouched.
  await api("playerB", "POST", `/api/games/${gameB}/votes/1`, { vote: "yes" });
  const refused = await api<{ proposal: number }>(
    "gmB",
    "POST",
    `/api/games/${gameB}/gm/refuse-proposal`,
    { proposal: 2, reason: "rule B again" },
  );
  assert.equal(refused.proposal, 2);
  assert.deepEqual(await listed("england", gameA), [
    [1, "open", "A draw including all survivors"],
    [2, "open", "rule A"],
  ]);
  assert.deepEqual(await listed("playerB", gameB), [
    [1, "open", "A draw including all survivors"],
    [2, "refused", "rule B"],
  ]);
  const yourVote = async (who: Actor, game: string) =>
    (
      await api<{ id: number; yourVote?: string | null }[]>(who, "GET", `/api/games/${game}/votes`)
    ).map((p) => [p.id, p.yourVote ?? null]);
  assert.deepEqual(await yourVote("playerB", gameB), [
    [1, "yes"],
    [2, null],
  ]);
  assert.deepEqual(await yourVote("austria", gameA), [
    [1, "yes"],
    [2, null],
  ]);
  // A number the game has not reached is not found there, whatever other games have.
  const missing = await call(w, "gmA", "POST", `/api/games/${gameA}/gm/refuse-proposal`, {
    proposal: 3,
    reason: "x",
  });
  assert.equal(missing.status, 404);
  assert.match(missing.text, /no proposal 3 in this game/);
  // A second proposal of a sort still open names the open one by its number.
  const again = await call(w, "france", "POST", `/api/games/${gameA}/votes`, { kind: "draw" });
  assert.equal(again.status, 409);
  assert.match(again.text, /proposal 1 \(draw/);

  // The events name proposals by the same numbers, for the players and the GM.
  assert.deepEqual(await eventIds("england", gameA), [
    ["proposal", 1],
    ["proposal", 2],
  ]);
  assert.deepEqual(await eventIds("playerB", gameB), [
    ["proposal", 1],
    ["proposal", 2],
    ["proposal_refused", 2],
  ]);
  assert.deepEqual(await eventIds("gmB", gameB), [
    ["proposal", 1],
    ["proposal", 2],
    ["proposal_refused", 2],
    ["proposal_refused_reason", 2],
  ]);
});
