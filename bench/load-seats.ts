// The load bench's players (bench/load.ts): their users, games and seats written straight into
// the store, each power's order sets (every one legal, each differing from the last) and the
// revisions a soak reaches, stored before the server starts (--prefill).
import SQLite from "better-sqlite3";
import { legalMovementOrders } from "../src/engine/legal.ts";
import { formatOrder } from "../src/engine/orders.ts";
import { DATC_RULES } from "../src/engine/rules.ts";
import { Judge } from "../src/judge/judge.ts";
import { randomId } from "../src/judge/password.ts";
import type { Store } from "../src/store/db.ts";
import { classical } from "../src/variants/classical/index.ts";
import { getScenario } from "../src/variants/scenarios.ts";

/**
 * Each power's order sets: revision n holds every unit but one, which takes one of its legal
 * orders (the units and their orders in turn), so that each set differs from the last and all
 * are orders a player could send (nothing for the reader to puzzle over as chatter).
 */
export const REVISIONS: ReadonlyMap<string, readonly (readonly string[])[]> = (() => {
  const legal = legalMovementOrders(classical, classical.start, DATC_RULES);
  const byPower = new Map<string, { hold: string; others: string[] }[]>();
  for (const u of classical.start.units) {
    const orders = (legal.get(u.province) ?? []).map(formatOrder);
    const hold = orders.find((o) => o.endsWith(" H"))!;
    const list = byPower.get(u.power) ?? [];
    list.push({ hold, others: orders.filter((o) => o !== hold) });
    byPower.set(u.power, list);
  }
  const out = new Map<string, string[][]>();
  for (const [power, units] of byPower) {
    const sets: string[][] = [];
    units.forEach((u, i) => {
      for (const o of u.others) sets.push(units.map((v, j) => (j === i ? o : v.hold)));
    });
    out.set(power, sets);
  }
  return out;
})();

/** Each power's sets as the store keeps them (JSON). */
export const TEXTS: ReadonlyMap<string, readonly string[]> = new Map(
  [...REVISIONS].map(([power, sets]) => [power, sets.map((o) => JSON.stringify(o))]),
);

export interface Seat {
  readonly game: string;
  readonly power: string;
  readonly token: string;
  readonly user: string;
  /**
   * Every accepted set, in order, as its index in the power's REVISIONS: small integers, where
   * a soak's 750,000 sets kept as their texts would hold some 100 MB in the bench's own heap,
   * on the two cores the server uses too.
   */
  readonly accepted: number[];
}

/** Users, games and seats, written straight into the store (no password hashing per user). */
export async function setUp(store: Store, players: number): Promise<Seat[]> {
  const judge = new Judge({ store });
  const scenario = getScenario("classical", "5")!;
  const perGame = scenario.seats.length;
  const games = Math.max(1, Math.round(players / perGame));
  const gm = await judge.accounts.register(`load-gm-${randomId(4)}`, "load-password");
  const seats: Seat[] = [];
  let n = 0;
  for (let i = 0; i < games; i++) {
    const game = await judge.games.createGame(gm.user, {
      name: `Load ${i}`,
      scenario: "5",
      options: { deadlines: { unit: "days", movement: 30 } },
    });
    const code = game.invites!.find((x) => x.role === "player")!.code;
    for (const seat of scenario.seats) {
      const id = randomId(12);
      const name = `load-${++n}-${randomId(4)}`;
      await store.db
        .insertInto("users")
        .values({ id, name, password_hash: "none: load-test user", created_at: Date.now() })
        .execute();
      const { token } = await judge.accounts.issueToken(id, "load");
      const power = seat.powers[0]!;
      await judge.games.acceptInvite({ id, name }, code, { power });
      seats.push({ game: game.id, power, token, user: id, accepted: [] });
    }
  }
  return seats;
}

/**
 * Stores `revisions` order sets in the seats' open phases, seat after seat in turn (revision
 * i is seat i mod the seats' number's, its (i div that)th set), as the paced players would
 * have sent them, 500 rows a statement, and counts them as the seats' accepted sets, so that
 * the check for lost submissions covers them too.
 */
export async function prefill(
  store: Store,
  path: string,
  seats: Seat[],
  revisions: number,
): Promise<void> {
  if (store.dialect !== "sqlite") throw new Error("--prefill is for SQLite only");
  if (!Number.isInteger(revisions) || revisions < 0) {
    throw new Error(`--prefill takes a whole number of revisions, not ${revisions}`);
  }
  const now = Date.now();
  // One transaction: one commit, not one per statement.
  await store.db.transaction().execute(async (trx) => {
    for (let from = 0; from < revisions; from += 500) {
      const rows = [];
      for (let i = from; i < Math.min(revisions, from + 500); i++) {
        const s = seats[i % seats.length]!;
        const j = Math.floor(i / seats.length) % TEXTS.get(s.power)!.length;
        rows.push({
          game_id: s.game,
          phase_idx: 0,
          phase: "S1901M",
          power: s.power,
          user_id: s.user,
          orders: TEXTS.get(s.power)![j]!,
          final: 0,
          // As the judge writes them for a set of legal orders (about the same size).
          diagnostics: JSON.stringify(
            REVISIONS.get(s.power)![j]!.map((o, k) => ({
              line: k + 1,
              text: o,
              kind: "order",
              power: s.power,
              ok: true,
              order: o,
            })),
          ),
          received_at: now,
        });
        s.accepted.push(j);
      }
      await trx.insertInto("submissions").values(rows).execute();
    }
  });
  // Copied into the database file and the log emptied, as a server that has run a while has
  // it: on a connection of its own (the store's runs every statement inside a transaction,
  // where SQLite refuses a checkpoint).
  const own = new SQLite(path);
  try {
    own.pragma("busy_timeout = 10000");
    // The store's own checkpointer (a worker) may be copying the same log: try again.
    for (let attempt = 1; ; attempt++) {
      const [r] = own.pragma("wal_checkpoint(TRUNCATE)") as { busy: number; log: number }[];
      if (r?.busy === 0 && r.log === 0) break;
      if (attempt >= 300) {
        throw new Error(`prefill: the log was not emptied (${JSON.stringify(r)})`);
      }
      await new Promise((ok) => setTimeout(ok, 100));
    }
  } finally {
    own.close();
  }
}
