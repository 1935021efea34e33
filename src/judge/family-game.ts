import type { Kysely, Selectable } from "kysely";
import type { AnyGameRules, Opaque } from "../engine/game.ts";
import { applyEdits } from "../engine/record.ts";
import type { Seat } from "../engine/scenario.ts";
import { inSnapshot } from "../store/db.ts";
import type { DB, GamesTable, MembersTable, PhaseStateTable } from "../store/schema.ts";
import { gameFamily } from "../variants/game-rules.ts";
import type { FamilyHosting } from "../variants/global/rules.ts";
import { forbidden, notFound } from "./errors.ts";
import { FAMILY_SCENARIO, parseJson, recordEdits } from "./game-data.ts";
import { gameLabel } from "./labels.ts";
import type { GameOptions } from "./options.ts";

/*
 * A game of another family (Global Diplomacy, Age of Discovery) as the judge reads it: its
 * record head, its turns, its seats and members, its options, and the position of the open
 * turn decoded to its rules' state once (`loadFamilyGame`, `stateAt`); reading a command set
 * against the open turn (`readCommands`) and playing one turn (`playTurn`, the scheduler's
 * and a correction's). Read-only and no room: family.ts holds the games' changes,
 * family-views.ts what each viewer may read.
 */

type Json = Record<string, unknown>;

/** A family game's record head (games.record_head). */
export interface FamilyHead {
  readonly format: "entente-family-game";
  readonly family: string;
  readonly seed: number;
  readonly rules: Json;
  readonly seats: readonly Seat[];
  readonly start: Json;
}

/** One adjudicated turn (a phases row's record). */
export interface FamilyTurn {
  readonly turn: number;
  readonly phase: string;
  readonly orders: Readonly<Record<string, readonly string[]>>;
  readonly result: Json;
  readonly position: Json;
  readonly reports: Readonly<Record<string, string>>;
  /** Powers that sent no commands. */
  readonly missed: readonly string[];
}

/** A family game read back from the store. */
export interface FamilyGame {
  readonly game: Selectable<GamesTable>;
  readonly options: GameOptions;
  readonly state: Selectable<PhaseStateTable>;
  readonly seats: readonly Seat[];
  readonly members: readonly Selectable<MembersTable>[];
  readonly head: FamilyHead;
  /** The family's game rules, and what the judge asks of it beyond them. */
  readonly rules: AnyGameRules;
  readonly hosting: FamilyHosting<Opaque<"state">>;
  readonly turns: readonly FamilyTurn[];
  /** The position of the turn open for commands, as stored (the GM's edits applied). */
  readonly position: Json;
  /** That position as the rules' state: the game the judge asks its rules about. */
  readonly open: Opaque<"state">;
}

/** A stored position of a game (its start, a turn's) as its rules' state. */
export function stateAt(g: Pick<FamilyGame, "hosting" | "head">, position: Json) {
  return g.hosting.load(position, g.head.rules);
}

/** The number of the turn a state is at (a family's phase is a turn: `T3` is turn 3). */
export function turnAt(g: Pick<FamilyGame, "rules">, state: Opaque<"state">): number {
  return g.rules.phase(state).index + 1;
}

export interface User {
  readonly id: string;
  readonly name: string;
}

export interface FamilyContext {
  readonly db: Kysely<DB>;
  readonly now: () => number;
  readonly log: (m: string) => void;
}

/** Family-game ids seen (a game's family never changes): one read per game and process. */
const known = new Map<string, boolean>();

/** A game just created as a family game (family.ts `create`): no read needed to know it. */
export function knownFamilyGame(gameId: string): void {
  known.set(gameId, true);
}

/** Whether a game is a family game (false for an unknown id: the caller's path says 404). */
export async function isFamilyGame(db: Kysely<DB>, gameId: string): Promise<boolean> {
  const k = known.get(gameId);
  if (k !== undefined) return k;
  const row = await db
    .selectFrom("games")
    .select(["scenario"])
    .where("id", "=", gameId)
    .executeTakeFirst();
  if (!row) return false;
  const is = row.scenario === FAMILY_SCENARIO;
  if (known.size > 10_000) known.clear();
  known.set(gameId, is);
  return is;
}

/** A game of another family as stored, read on one snapshot of the database (`inSnapshot`). */
export function loadFamilyGame(db: Kysely<DB>, gameId: string): Promise<FamilyGame> {
  return inSnapshot(db, (snapshot) => readFamilyGame(snapshot, gameId));
}

async function readFamilyGame(db: Kysely<DB>, gameId: string): Promise<FamilyGame> {
  const game = await db.selectFrom("games").selectAll().where("id", "=", gameId).executeTakeFirst();
  if (!game || game.scenario !== FAMILY_SCENARIO) throw notFound(`no game "${gameId}"`);
  const head = parseJson<FamilyHead>(game.record_head);
  const family = gameFamily(head.family);
  if (!family) throw new Error(`game ${gameId}: the judge does not serve family ${head.family}`);
  const state = await db
    .selectFrom("phase_state")
    .selectAll()
    .where("game_id", "=", gameId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom("phases")
    .select(["record"])
    .where("game_id", "=", gameId)
    .where("superseded", "=", 0)
    .orderBy("idx")
    .execute();
  const members = await db
    .selectFrom("members")
    .selectAll()
    .where("game_id", "=", gameId)
    .execute();
  // The GM's removed units (unit-edits.ts), applied to the position after the turn they follow.
  const edits = recordEdits(
    await db.selectFrom("edits").selectAll().where("game_id", "=", gameId).orderBy("id").execute(),
  );
  const edited = <P extends Json>(p: P, after: number): P =>
    applyEdits(
      p,
      edits.filter((e) => e.after === after),
    );
  const turns = rows.map((r, i) => {
    const t = parseJson<FamilyTurn>(r.record);
    return { ...t, position: edited(t.position, i + 1) };
  });
  const start = edited(head.start, 0);
  const position = turns.at(-1)?.position ?? start;
  return {
    game,
    options: parseJson<GameOptions>(game.options),
    state,
    seats: head.seats,
    members,
    head: { ...head, start },
    rules: family.rules,
    hosting: family.hosting,
    turns,
    position,
    open: family.hosting.load(position, head.rules),
  };
}

export function viewer(g: FamilyGame, user: User | null) {
  const m = user ? g.members.find((x) => x.user_id === user.id) : undefined;
  const powers = m?.seat !== null && m?.seat !== undefined ? (g.seats[m.seat]?.powers ?? []) : [];
  return { role: m?.role ?? null, seat: m?.seat ?? null, powers: powers.map(String) };
}

/** A power named by id ("3") or name ("England"), as the game's seats name it. */
export function powerOf(g: FamilyGame, name: string): string | undefined {
  const n = name.trim().toLowerCase();
  return g.rules
    .powers(g.open)
    .find(
      (p) => p.id === n || p.name.toLowerCase() === n || `${p.id}-${p.name}`.toLowerCase() === n,
    )?.id;
}

/**
 * A command set as sent (one power's lines, by its id or name; the first power the player
 * holds when none is named) checked against the open turn: a verdict per line. Shared by
 * storing a set and by checking one without storing it (the EMG mail's all-or-nothing sets).
 */
export function readCommands(
  g: FamilyGame,
  held: readonly string[],
  input: { power?: string | undefined; orders: string | readonly string[] },
) {
  let power = held[0]!;
  if (input.power !== undefined) {
    const p = powerOf(g, input.power);
    if (p === undefined || !held.includes(p))
      throw forbidden(`you do not play "${input.power}"; you play ${held.join(", ")}`);
    power = p;
  }
  const raw = typeof input.orders === "string" ? input.orders.split(/\r?\n/) : input.orders;
  const lines = raw.map((l) => l.trim()).filter((l) => l !== "");
  const diagnostics = g.rules.read(g.open, power, lines.join("\n")).verdicts.map((c) => ({
    line: c.line,
    text: c.text,
    kind: "order" as const,
    power,
    ok: c.ok,
    ...(c.ok ? { order: c.order } : { message: c.reason }),
  }));
  return { power, lines, diagnostics };
}

/**
 * Plays one turn from `before` (a state of the game) with these command sets, each read by
 * the rules and resolved by them: the turn as stored (the result and position encoded for
 * the store, every power's report issued under the game's id as its players know it,
 * labels.ts), the phase open after it, and the winners if the game ended. The scheduler's
 * turn and a GM's correction of it (gm-tools.ts) are both played here.
 */
export function playTurn(
  g: FamilyGame,
  before: Opaque<"state">,
  orders: Readonly<Record<string, readonly string[]>>,
  missed: readonly string[],
): { turn: FamilyTurn; next: string; winners: string[] | null } {
  const sets = new Map(
    Object.entries(orders).map(([p, lines]) => [
      p,
      g.rules.read(before, p, lines.join("\n")).orders,
    ]),
  );
  const played = g.rules.resolve(before, sets);
  const result = g.hosting.storedTurn(played.next);
  if (result === null) throw new Error(`game ${g.game.id}: ${played.phase} resolved to no turn`);
  const label = gameLabel(g.game);
  const turn: FamilyTurn = {
    turn: turnAt(g, before),
    phase: played.phase,
    orders,
    result,
    position: g.hosting.store(played.next),
    reports: Object.fromEntries(
      g.rules.powers(played.next).map((p) => [p.id, g.hosting.report(played.next, p.id, label)]),
    ),
    missed,
  };
  return {
    turn,
    next: g.rules.phase(played.next).name,
    winners: played.ended ? [...played.ended.winners] : null,
  };
}
