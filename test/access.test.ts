import assert from "node:assert/strict";
import { test } from "node:test";
import type { Route } from "../src/server/router.ts";
import { type Actor, build, call, M, type Reply, type World } from "./access-world.ts";
import { snapshot } from "./served.ts";

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
 * The world swept (three games, their members and secrets) is built by access-world.ts; the
 * live channel is tried in access-live.test.ts, the ids each viewer is shown in
 * access-ids.test.ts.
 */

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
