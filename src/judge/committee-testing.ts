import { type Api, waitFor } from "../server/testing.ts";
import type { Clock } from "./testing.ts";

/*
 * Helpers for the tests that play a game through the HTTP API (committee.test.ts,
 * committee-victory.test.ts): accounts, a game with its players seated, the next phase.
 */

/** A game as `GET /api/games/:id` shows it, as far as these helpers read it. */
export interface PhaseJson {
  id: string;
  phase: string | null;
  phaseIndex: number;
  deadline: string | null;
  invites?: { code: string; role: string }[];
}

let n = 0;
/** A new account `NAME-n` (n counts up, so that a name may be asked again): its token. */
export async function account(api: Api, name: string): Promise<string> {
  const u = await api.ok<{ token: string }>("POST", "/api/users", {
    name: `${name}-${++n}`,
    password: "correct horse battery",
  });
  return u.token;
}

/**
 * A game named `name` that a new account `chair` creates (`body` as `POST /api/games` takes
 * it; no civil disorder: phases pass with everybody holding), with a new account seated at
 * each of `powers`: its id, the chair's token, the players' tokens by power, the game as
 * created.
 */
export async function seatedGame<G extends PhaseJson>(
  api: Api,
  name: string,
  body: Record<string, unknown>,
  powers: readonly string[],
): Promise<{ id: string; gm: string; tok: Record<string, string>; game: G }> {
  const gm = await account(api, "chair");
  const game = await api.ok<G>(
    "POST",
    "/api/games",
    { name, options: { civilDisorderAfter: 0 }, ...body },
    gm,
  );
  const code = game.invites!.find((i) => i.role === "player")!.code;
  const tok: Record<string, string> = {};
  for (const p of powers) {
    tok[p] = await account(api, p);
    await api.ok("POST", `/api/invites/${code}`, { power: p }, tok[p]);
  }
  return { id: game.id, gm, tok, game };
}

/** Sets the clock past the game's deadline and waits for the next phase: the game then. */
export async function nextPhase<G extends PhaseJson>(
  api: Api,
  clock: Clock,
  id: string,
): Promise<G> {
  const before = await api.ok<G>("GET", `/api/games/${id}`);
  clock.t = Date.parse(before.deadline!) + 1;
  return waitFor(`the phase after ${before.phase}`, async () => {
    const g = await api.ok<G>("GET", `/api/games/${id}`);
    return g.phaseIndex > before.phaseIndex ? g : undefined;
  });
}
