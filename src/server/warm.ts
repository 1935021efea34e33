import type { FastifyInstance } from "fastify";
import { Judge } from "../judge/judge.ts";
import { randomId } from "../judge/password.ts";
import { openStore } from "../store/db.ts";

/*
 * The warm-up before a server listens (issue 21, cold start): a throwaway game in an
 * in-memory SQLite store, played through the real routes of an app built like the real one
 * (Fastify's `inject`: no socket): players authenticate with their tokens, send order sets,
 * read them back, read the game. V8 then has compiled the hot paths (the router, the token
 * check, the order reader, the store's queries, the answers) before the first player arrives,
 * so that 500 players arriving in the server's first second are not served by code still
 * being compiled (docs/performance.md, "Cold start"). Nothing of it reaches the real store;
 * the throwaway store is closed after.
 */

/** Order sets for France, in turn: each differs from the last, all legal. */
const FRANCE = [
  ["A par - bur", "A mar H", "F bre H"],
  ["A par - pic", "A mar H", "F bre H"],
  ["A par - gas", "A mar H", "F bre - mao"],
  ["A par H", "A mar - spa", "F bre - eng"],
];

const POWERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"];

export interface WarmUpResult {
  readonly requests: number;
  readonly ms: number;
}

/**
 * Builds a throwaway app over an in-memory judge (`build`) and sends it `rounds` order sets
 * (every fifth followed by a read-back and a read of the game). Throws if any answer is not
 * a 200: the warm-up is also a check that the server's own paths work.
 */
export async function warmUp(
  build: (judge: Judge) => Promise<FastifyInstance>,
  rounds = 200,
): Promise<WarmUpResult> {
  const t0 = performance.now();
  const store = await openStore({ sqlitePath: ":memory:" });
  let requests = 0;
  try {
    const judge = new Judge({ store, ordersRate: null });
    const app = await build(judge);
    try {
      // Users written straight into the store: no password hashing for a throwaway game.
      const users: { id: string; name: string; token: string }[] = [];
      for (const role of ["gm", ...POWERS]) {
        const id = randomId(12);
        const name = `warm-up-${role}-${randomId(4)}`;
        await store.db
          .insertInto("users")
          .values({ id, name, password_hash: "none: warm-up user", created_at: Date.now() })
          .execute();
        users.push({ id, name, token: (await judge.accounts.issueToken(id, "warm-up")).token });
      }
      const [gm, ...players] = users;
      const game = await judge.games.createGame(gm!, { name: "Warm-up" });
      const code = game.invites!.find((i) => i.role === "player")!.code;
      for (const [i, p] of players.entries()) {
        await judge.games.acceptInvite(p, code, { power: POWERS[i]! });
      }
      const france = players[POWERS.indexOf("france")]!;
      const auth = { authorization: `Bearer ${france.token}` };
      const call = async (method: "GET" | "POST", url: string, payload?: unknown) => {
        requests++;
        const res = await app.inject({
          method,
          url,
          headers: payload ? { ...auth, "content-type": "application/json" } : auth,
          ...(payload ? { payload: JSON.stringify(payload) } : {}),
        });
        if (res.statusCode !== 200)
          throw new Error(`warm-up: ${method} ${url} answered ${res.statusCode}: ${res.body}`);
      };
      const base = `/api/games/${game.id}`;
      for (let n = 0; n < rounds; n++) {
        await call("POST", `${base}/orders`, {
          orders: FRANCE[n % FRANCE.length],
          phase: "S1901M",
        });
        if (n % 5 === 4) {
          await call("GET", `${base}/orders`);
          await call("GET", base);
        }
      }
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
  }
  return { requests, ms: Math.round(performance.now() - t0) };
}
