import assert from "node:assert/strict";
import type { TestContext } from "node:test";
import { Judge, type User } from "../src/judge/judge.ts";
import { configureMailGame, setMailAddress } from "../src/judge/mail.ts";
import { Clock, POWERS } from "../src/judge/testing.ts";
import { type RunningServer, startServer } from "../src/server/server.ts";
import type { Store } from "../src/store/db.ts";
import { testStore } from "../src/store/testing.ts";

/*
 * The world the access tests are run in (access.test.ts, access-live.test.ts,
 * access-ids.test.ts): a served judge with two classical games and a europe1935 one, their
 * GMs, players, an observer and an outsider, each with a token, and secret texts (markers)
 * planted in game A and B; and `call`, a request as one of them.
 */

export type Actor =
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

export interface World {
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

export const M = {
  englandOrders: "zqxsecret englandorders",
  privatePress: "zqxsecret privatepress france to germany",
  greyPress: "zqxsecret greypress unsigned",
  bOrders: "zqxsecret gameb orders",
  bPress: "zqxsecret gameb press",
  goal: "zqxsecret political goal of the uk",
};

export async function build(t: TestContext): Promise<World> {
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

export interface Reply {
  status: number;
  text: string;
  type: string;
  headers: Headers;
}

export async function call(
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
