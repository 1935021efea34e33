import type { Kysely } from "kysely";
import type { DB } from "../store/schema.ts";
import { accountingSection } from "../variants/global/report.ts";
import { conflict, forbidden, invalid, notFound } from "./errors.ts";
import {
  type FamilyGame,
  isFamilyGame,
  loadFamilyGame,
  powerOf,
  stateAt,
  turnAt,
  type User,
  viewer,
} from "./family-game.ts";
import { parseJson, viewHead } from "./game-data.ts";
import { gameLabel } from "./labels.ts";
import { mailUserRow } from "./mail-user.ts";
import { lostSeatField } from "./seat-loss.ts";

/*
 * What each viewer may read of a family game (seed 004 §8): the game view (a player's own
 * units and areas, the GM's whole position), a power's report, the moderator's list of every
 * turn and a generated map. Read-only; family.ts holds the games' changes.
 */

/** The game as the viewer may see it (shaped as the judge's GameView). */
export async function familyView(db: Kysely<DB>, user: User | null, gameId: string) {
  const g = await loadFamilyGame(db, gameId);
  const v = viewer(g, user);
  const head = await viewHead(db, g, v.role === "gm", true);
  const st = g.state;
  const seated = new Set(g.seats.flatMap((s) => s.powers.map(String)));
  return {
    ...head.summary,
    rules: g.head.rules,
    options: g.options,
    state: st.state,
    phaseIndex: st.phase_idx,
    seatList: head.seatList,
    position: visiblePosition(g, v.role === "gm" ? null : v.powers),
    toOrder: st.state === "done" ? [] : g.rules.mayOrder(g.open).filter((p) => seated.has(p)),
    result: g.game.result ? parseJson<unknown>(g.game.result) : null,
    you: v.role ? { role: v.role, seat: v.seat, powers: v.powers } : null,
    ...(head.invites ? { invites: head.invites } : {}),
    ...(await lostSeatField(db, { user, role: v.role, seat: v.seat }, gameId)),
    family: {
      id: g.rules.id,
      name: g.rules.name,
      turn: turnAt(g, g.open),
      turnsAdjudicated: g.turns.length,
      report: `/api/games/${g.game.id}/report`,
      players: g.seats.length,
      // The whole generated map, for the GM only (discovery).
      ...(g.hosting.moderatorMap && v.role === "gm"
        ? { moderatorMap: `/api/games/${g.game.id}/moderator-map` }
        : {}),
      // A map made for this game: each player's own, as it knows it; the GM's whole.
      ...(g.hosting.moderatorMap && (v.role === "gm" || v.powers.length > 0)
        ? { map: `/api/games/${g.game.id}/map` }
        : {}),
    },
  };
}

/**
 * The position in the judge's position shape (units and owned areas per power): all of it
 * for the GM (`powers` null), only the viewer's own powers' for anybody else.
 */
function visiblePosition(g: FamilyGame, powers: readonly string[] | null) {
  const shown = g.hosting.shown(
    g.open,
    powers === null ? { kind: "gm" } : { kind: "player", powers },
  );
  return { variant: g.rules.id, phase: g.rules.phase(g.open).name, ...shown };
}

/** Whether the user plays in the game (a seat) or is its GM: who may ask of its powers. */
async function playsOrRuns(db: Kysely<DB>, gameId: string, user: User): Promise<boolean> {
  const m = await db
    .selectFrom("members")
    .select(["role", "seat"])
    .where("game_id", "=", gameId)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  return m !== undefined && (m.role === "gm" || m.seat !== null);
}

/**
 * A power's report (seed 004 §8): the last adjudicated turn's, or turn `turn`'s; before the
 * first turn, the opening report. A player reads only its own power's; the GM any power's.
 */
export async function familyReport(
  db: Kysely<DB>,
  user: User,
  gameId: string,
  q: { power?: string | undefined; turn?: number | undefined },
): Promise<{
  power: string;
  turn: number;
  phase: string | null;
  report: string;
  accounting?: string;
}> {
  if (!(await isFamilyGame(db, gameId))) {
    if (!(await playsOrRuns(db, gameId, user)))
      throw forbidden("reports are read by the game's players and its game master");
    throw conflict(
      "this game has no per-player reports (only Global Diplomacy games do): read its phases at /api/games/{id}/phases",
    );
  }
  const g = await loadFamilyGame(db, gameId);
  const v = viewer(g, user);
  if (v.role !== "gm" && (v.role !== "player" || v.seat === null))
    throw forbidden("a report is read only by its power's player and the game master");
  let power: string;
  if (q.power !== undefined) {
    const p = powerOf(g, q.power);
    if (p === undefined) throw invalid(`no power "${q.power}"`);
    if (v.role !== "gm" && !v.powers.includes(p))
      throw forbidden("you may read only your own power's report");
    power = p;
  } else if (v.role === "gm") {
    throw invalid("say whose report: ?power=3 (a power's number or name)");
  } else power = v.powers[0]!;
  // The accounting section (seed 004 §8) names the account's id: its own player's alone.
  const own = v.role === "player" && v.powers.includes(power);
  const answer = async (turn: number, phase: string | null, report: string) => ({
    power,
    turn,
    phase,
    report,
    ...(own ? { accounting: await accounting(db, g, user, power, turn) } : {}),
  });
  if (q.turn !== undefined) {
    const t = g.turns.find((x) => x.turn === q.turn);
    if (!t)
      throw notFound(
        `no report for turn ${q.turn}: turns adjudicated so far are ${g.turns.map((x) => x.turn).join(", ") || "none"}`,
      );
    return answer(t.turn, t.phase, t.reports[power] ?? "");
  }
  const last = g.turns.at(-1);
  if (last) return answer(last.turn, last.phase, last.reports[power] ?? "");
  return answer(0, null, g.hosting.report(stateAt(g, g.head.start), power, gameLabel(g.game)));
}

const when = (ms: number | null) =>
  ms === null ? null : `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * The accounting section of a player's report of turn `upTo` (0: the opening report): the
 * account (its mail secret is EMG's account id, docs/email.md), and the last ten turns up to
 * that one with when each was processed and how many commands the power had on file.
 */
async function accounting(
  db: Kysely<DB>,
  g: FamilyGame,
  user: User,
  power: string,
  upTo: number,
): Promise<string> {
  const mail = await mailUserRow(db, user.id);
  const rows = await db
    .selectFrom("phases")
    .select(["phase", "adjudicated_at"])
    .where("game_id", "=", g.game.id)
    .where("superseded", "=", 0)
    .execute();
  const processed = new Map(rows.map((r) => [r.phase, Number(r.adjudicated_at)]));
  const turns = g.turns
    .filter((t) => upTo === 0 || t.turn <= upTo)
    .slice(-10)
    .map((t) => ({
      turn: t.turn,
      processed: when(processed.get(t.phase) ?? null) ?? "",
      commands: t.missed.includes(power) ? 0 : (t.orders[power]?.length ?? 0),
    }));
  const latest = upTo === 0 || upTo === g.turns.at(-1)?.turn;
  const open = g.state.state !== "done" && g.game.status !== "finished";
  const name = g.rules.powers(g.open).find((p) => p.id === power)?.name ?? power;
  return accountingSection({
    accountId: mail?.secret ?? null,
    name: user.name,
    address: mail?.address ?? null,
    game: gameLabel(g.game),
    power: `${power}-${name}`,
    turns: upTo === 0 ? [] : turns,
    // An older turn's report names the turn after it; the latest, the open turn's deadline.
    next: !latest
      ? { turn: upTo + 1, deadline: null }
      : open
        ? {
            turn: turnAt(g, g.open),
            deadline: g.state.state === "open" ? when(g.state.deadline_at) : null,
          }
        : null,
  });
}

/** The moderator's view of every adjudicated turn: commands, results, reports, positions. */
export async function familyTurns(db: Kysely<DB>, user: User, gameId: string) {
  if (!(await isFamilyGame(db, gameId))) {
    const m = await db
      .selectFrom("members")
      .select(["role"])
      .where("game_id", "=", gameId)
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    if (m?.role !== "gm") throw forbidden("only the game master reads every turn");
    throw conflict(
      "this game is not a Global Diplomacy game: its phases are at /api/games/{id}/phases",
    );
  }
  const g = await loadFamilyGame(db, gameId);
  if (viewer(g, user).role !== "gm")
    throw forbidden(
      "only the game master reads every power's turn; players read their report at /api/games/{id}/report",
    );
  return { family: g.head.family, seed: g.head.seed, start: g.head.start, turns: g.turns };
}

/**
 * The whole map of a game whose map was made for it (Age of Discovery), for the game
 * master only: every area with its squares, adjacency and supply, and the grid geometry, in
 * the map's own frame. Players see only their report's map, in their own names.
 */
export async function familyModeratorMap(db: Kysely<DB>, user: User, gameId: string) {
  const family = await isFamilyGame(db, gameId);
  const g = family ? await loadFamilyGame(db, gameId) : null;
  const role = g
    ? viewer(g, user).role
    : (
        await db
          .selectFrom("members")
          .select(["role"])
          .where("game_id", "=", gameId)
          .where("user_id", "=", user.id)
          .executeTakeFirst()
      )?.role;
  if (role !== "gm")
    throw forbidden(
      "only the game master reads the whole map; players see theirs in their report (/api/games/{id}/report)",
    );
  if (!g?.hosting.moderatorMap)
    throw conflict(
      `this game's map is not made for it (only Age of Discovery games are): ${g ? "its areas are the family's map (bin/entente global)" : "see /api/variants/{id}/geometry"}`,
    );
  return {
    family: g.head.family,
    seed: g.head.seed,
    players: g.seats.length,
    map: g.hosting.moderatorMap(stateAt(g, g.head.start)),
  };
}

/**
 * What a viewer's map of a game with a generated map (Age of Discovery) is drawn from: the
 * position and the player whose map it is (its first power: only the areas it knows, in its
 * own names), or null for the GM (the whole map). The server draws it (src/render/families.ts);
 * the position itself never leaves the judge.
 */
export async function familyMapSource(
  db: Kysely<DB>,
  user: User,
  gameId: string,
): Promise<{ position: Readonly<Record<string, unknown>>; player: number | null }> {
  const refused = () =>
    forbidden("a game's map is drawn for its players (each its own) and its game master");
  if (!(await isFamilyGame(db, gameId))) {
    if (!(await playsOrRuns(db, gameId, user))) throw refused();
    throw conflict(
      "this game's map is its variant's, the same for everybody: GET /api/variants/{id}/geometry",
    );
  }
  const g = await loadFamilyGame(db, gameId);
  const v = viewer(g, user);
  const power = v.powers[0];
  if (v.role !== "gm" && power === undefined) throw refused();
  if (!g.hosting.moderatorMap)
    throw conflict(
      `${g.rules.name} is played on one map for every game: GET /api/variants/${g.rules.id}/geometry`,
    );
  if (v.role === "gm") return { position: g.position, player: null };
  return { position: g.position, player: Number(power) };
}
