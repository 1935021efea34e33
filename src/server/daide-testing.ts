import { connect } from "node:net";
import type { TestContext } from "node:test";
import type { Names } from "../daide/language.ts";
import { daideMap } from "../daide/mapdef.ts";
import { TestClient } from "../daide/testing.ts";
import type { StoreKind } from "../store/testing.ts";
import { getScenario } from "../variants/scenarios.ts";
import { type Api, type ServedJudge, serveJudge, waitFor } from "./testing.ts";

/*
 * Helpers for the tests of DAIDE clients in the judge's own games (daide.test.ts,
 * daide-press.test.ts): a judge served with DAIDE ports and a GM, a game with DAIDE seats and
 * its port, DAIDE clients that end with the test, and web players seated by invitation.
 */

/** What the tests read of a game's view (GET /api/games/:id). */
export interface View {
  id: string;
  status: string;
  phase: string;
  phaseIndex: number;
  deadline: string | null;
  toOrder: string[];
  daide?: { port: number | null };
  seatList: { index: number; name: string; daide?: { client: string | null } }[];
  position: { units: Record<string, string[]> };
  invites?: { code: string; role: string }[];
}

/** The classical map's DAIDE names. */
export const classicalNames = daideMap(getScenario("classical")!).names;

/** A range of four ports of the unprivileged area, a different one each run. */
export function portRange() {
  // Below Linux's ephemeral ports (32768 to 60999): a port there may be taken at any moment as
  // the local end of some connection, and a game whose port cannot be listened on moves to
  // another. (The restart test once waited 30 s in vain for port 49062 to listen again; this
  // is the likely cause, not a proven one.)
  const first = 20000 + Math.floor(Math.random() * 12000);
  return { first, last: first + 3 };
}

/** A DAIDE client joined to the port, closed when the test ends. */
export async function client(
  t: TestContext,
  port: number,
  names: Names = classicalNames,
): Promise<TestClient> {
  const c = await TestClient.join(port, names);
  t.after(() => c.close());
  return c;
}

/** Whether a TCP connection to the port is refused (nobody listens). */
export function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(false);
    });
    s.once("error", () => resolve(true));
  });
}

/** Waits until the game's port takes connections (the server listens at its next tick). */
export async function listening(port: number): Promise<void> {
  await waitFor(`port ${port} listening`, async () => !(await refused(port)), 30_000);
}

/**
 * A game the GM creates (`body`: POST /api/games's, its DAIDE seats among it), as the GM sees
 * it, and its DAIDE port, once the port takes connections.
 */
export async function daideGame(
  s: { api: Api; gm: string },
  body: Record<string, unknown>,
): Promise<{ game: View; port: number }> {
  const game = await s.api.ok<View>("POST", "/api/games", body, s.gm);
  const port = game.daide!.port!;
  await listening(port);
  return { game, port };
}

/** A judge served with DAIDE ports (serveJudge), and its GM's token; null: no such store. */
export async function setUp(
  t: TestContext,
  kind: StoreKind = "sqlite",
): Promise<(ServedJudge & { gm: string }) | null> {
  const s = await serveJudge(t, kind, null, { daidePorts: portRange() });
  if (!s) return null;
  const gm = await s.api.ok<{ token: string }>("POST", "/api/users", {
    name: "gamemaster",
    password: "gm secret words",
  });
  return { ...s, gm: gm.token };
}

/** A web player seated at `power` by the game's invitation; their token. */
export async function webPlayer(
  s: ServedJudge,
  game: { id: string; invites?: { code: string; role: string }[] },
  power: string,
): Promise<string> {
  const code = game.invites!.find((i) => i.role === "player")!.code;
  const u = await s.api.ok<{ token: string }>("POST", "/api/users", {
    name: `${power}-player`,
    password: "correct horse battery",
  });
  await s.api.ok("POST", `/api/invites/${code}`, { power }, u.token);
  return u.token;
}
