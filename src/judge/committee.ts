import type { Kysely } from "kysely";
import { findPlace } from "../engine/parse.ts";
import { phaseName } from "../engine/phase.ts";
import type { GameRecord, RecordAct } from "../engine/record.ts";
import type { Phase, PowerId } from "../engine/types.ts";
import type { DB } from "../store/schema.ts";
import {
  applyAct,
  type Committee,
  type CommitteeAct,
  committeeOfRecord,
  hasCommittee,
  type InsurrectionEntry,
  readAct,
  recordScores,
} from "../variants/europe1935/acts.ts";
import type { ClosedConference, Conference } from "../variants/europe1935/conferences.ts";
import { findPower } from "../variants/europe1935/insurrection.ts";
import type { PoliticalGoal } from "../variants/europe1935/points.ts";
import { conflict, forbidden, invalid } from "./errors.ts";
import type { GameData } from "./game-data.ts";
import type { Emit, RuleViewer } from "./viewer.ts";

/*
 * The Historical Committee in a judge game (europe1935; docs/committee.md, "In the judge").
 * The chairs are the game's GM: they set each power's goals, approve or deny the goals a power
 * proposes, record which goals are achieved, set the territory threshold and close a
 * conference. A power proposes goals and conferences. Every accepted act is a row of
 * `committee_acts` and an entry of the game record's `committee`; the committee's state (and
 * the scores) is always computed from the record and those acts, never stored beside them.
 *
 * Who sees what: the victory-point table and the conferences are public; a goal's text is seen
 * by its power and the chairs until the game ends, then by everybody.
 */

/** The game view's `scores` (docs/committee.md). */
export interface ScoresView {
  /** Centres a power needs for the five territorial points. */
  readonly territorialCenters: number;
  /** Every power, best first: its centres and points. */
  readonly rows: readonly {
    readonly power: string;
    readonly centres: number;
    readonly territorial: number;
    readonly political: number;
    readonly insurrection: number;
    readonly total: number;
  }[];
  /** The power alone on the highest total, or null (a draw between `leaders`). */
  readonly winner: string | null;
  readonly leaders: readonly string[];
}

export interface ConferenceView {
  readonly name: string;
  readonly goal: string;
  readonly organiser: string;
  readonly location: string;
  readonly participants: readonly string[];
  readonly opened: string;
  readonly endsBy: string;
  /** Past conferences: when and why it ended (`expired`, `conquered`, `closed`). */
  readonly ended?: string;
  readonly reason?: string;
}

export interface ConferencesView {
  readonly current: ConferenceView | null;
  readonly past: readonly ConferenceView[];
}

export interface GoalView {
  readonly id: string;
  readonly power: string;
  readonly source: "chairs" | "proposed";
  readonly text: string;
  readonly status: "approved" | "denied" | "pending";
  readonly points: number;
  readonly achieved: boolean;
}

export interface CommitteeView {
  readonly scores: ScoresView;
  readonly conferences: ConferencesView;
  /** The goals this viewer may read (all for the chairs; a power's own; all once over). */
  readonly goals: readonly GoalView[];
  readonly insurrections: readonly InsurrectionEntry[];
}

const isChair = (v: RuleViewer) => v.role === "gm";

/** The game's acts, in the order they were accepted. */
export async function committeeActs(db: Kysely<DB>, gameId: string): Promise<RecordAct[]> {
  const rows = await db
    .selectFrom("committee_acts")
    .select(["data"])
    .where("game_id", "=", gameId)
    .orderBy("id")
    .execute();
  return rows.map((r) => JSON.parse(r.data) as RecordAct);
}

function stateOf(g: GameData, acts: readonly RecordAct[]): Committee {
  return committeeOfRecord(g.scenario.variant, g.record, acts).committee;
}

const conferenceView = (c: Conference | ClosedConference): ConferenceView => ({
  name: c.name,
  goal: c.goal,
  organiser: c.organiser,
  location: c.location,
  participants: [...c.participants],
  opened: phaseName(c.opened),
  endsBy: phaseName(c.endsBy),
  ...("ended" in c ? { ended: phaseName(c.ended as Phase), reason: c.reason } : {}),
});

function scoresView(g: GameData, committee: Committee): ScoresView {
  const s = recordScores(g.scenario.variant, g.record, committee);
  // The acts were checked one by one when accepted, so the record is consistent.
  if (!s.ok) throw new Error(`game ${g.game.id}: committee: ${s.errors.join("; ")}`);
  return {
    territorialCenters: committee.territorialCenters,
    rows: s.scores.map((x) => ({ ...x })),
    winner: s.winner,
    leaders: [...s.leaders],
  };
}

function goalsFor(g: GameData, v: RuleViewer, goals: readonly PoliticalGoal[]): GoalView[] {
  const all = isChair(v) || g.game.status === "finished";
  return goals.filter((x) => all || v.powers.includes(x.power)).map((x) => ({ ...x }));
}

/** The game view's committee fields: `scores` and `conferences` (public), or nothing. */
export async function committeeFields(
  db: Kysely<DB>,
  g: GameData,
): Promise<{ scores?: ScoresView; conferences?: ConferencesView }> {
  if (!hasCommittee(g.scenario.variant)) return {};
  return publicFields(g, stateOf(g, await committeeActs(db, g.game.id)));
}

/** The committee's public fields: the scores and the conferences. */
function publicFields(g: GameData, c: Committee) {
  return {
    scores: scoresView(g, c),
    conferences: {
      current: c.conferences.current ? conferenceView(c.conferences.current) : null,
      past: c.conferences.past.map(conferenceView),
    },
  };
}

function requireCommittee(g: GameData): void {
  if (!hasCommittee(g.scenario.variant))
    throw invalid(
      `${g.scenario.variant.id} has no committee: political goals, conferences and victory points belong to europe1935`,
    );
}

/** Everything of the committee this viewer may see. */
export async function committeeView(
  db: Kysely<DB>,
  g: GameData,
  v: RuleViewer,
): Promise<CommitteeView> {
  requireCommittee(g);
  const c = stateOf(g, await committeeActs(db, g.game.id));
  return {
    ...publicFields(g, c),
    goals: goalsFor(g, v, c.goals),
    insurrections: c.insurrections,
  };
}

/**
 * The record with the committee's acts (`committee`), as this viewer may read it: while the
 * game is on, the text of another power's goal is withheld (its points still count).
 */
export async function withCommittee<R extends GameRecord>(
  db: Kysely<DB>,
  g: GameData,
  v: RuleViewer,
  record: R,
): Promise<R> {
  if (!hasCommittee(g.scenario.variant)) return record;
  const acts = await committeeActs(db, g.game.id);
  if (acts.length === 0) return record;
  const all = isChair(v) || g.game.status === "finished";
  const shown = acts.map((a) =>
    a.act === "goal" && !all && !v.powers.includes(a.power as PowerId)
      ? { ...a, text: "(withheld until the game ends)" }
      : a,
  );
  return { ...record, committee: shown };
}

/** What a person asks the committee to do, as the API takes it. */
export type ActInput =
  | {
      readonly act: "goal";
      readonly power?: string | undefined;
      readonly text: string;
      readonly source?: "chairs" | "proposed" | undefined;
      readonly points?: number | undefined;
    }
  | {
      readonly act: "approve" | "deny" | "achieved" | "not-achieved";
      readonly goal: string;
      readonly points?: number | undefined;
    }
  | {
      readonly act: "conference";
      readonly name: string;
      readonly goal: string;
      readonly location: string;
      readonly participants: readonly string[];
      readonly organiser?: string | undefined;
    }
  | { readonly act: "close-conference" }
  | { readonly act: "territory"; readonly centres: number };

/** The one power a player acts for: named, or the seat's only power. */
function actingPower(g: GameData, v: RuleViewer, named: string | undefined): PowerId {
  if (named !== undefined) {
    const p = findPower(g.scenario.variant, named);
    if (!p) throw invalid(`unknown power "${named}"`);
    if (!isChair(v) && !v.powers.includes(p))
      throw forbidden(`you do not play ${p}; you play ${v.powers.join(", ") || "no power"}`);
    return p;
  }
  if (isChair(v)) throw invalid("name the power");
  if (v.powers.length !== 1)
    throw invalid(`name the power you act for: one of ${v.powers.join(", ") || "none"}`);
  return v.powers[0]!;
}

/** The act a request stands for, stamped with who did it and when. */
function toAct(g: GameData, v: RuleViewer, input: ActInput): CommitteeAct {
  const variant = g.scenario.variant;
  const at = g.record.phases.length;
  const chair = isChair(v);
  if (!chair && v.powers.length === 0)
    throw forbidden(
      "only the chairs (the game master) and the powers' players act in the committee",
    );
  switch (input.act) {
    case "goal": {
      const source = input.source ?? (chair ? "chairs" : "proposed");
      const power = actingPower(g, v, input.power);
      const by = chair ? "gm" : power;
      return {
        at,
        by,
        act: "goal",
        power,
        source,
        text: input.text,
        ...(input.points !== undefined ? { points: input.points } : {}),
      };
    }
    case "approve":
      if (input.points === undefined) throw invalid("approving a goal gives it its points, 0 to 3");
      return {
        at,
        by: chair ? "gm" : v.powers[0]!,
        act: "approve",
        goal: input.goal,
        points: input.points,
      };
    case "deny":
      return { at, by: chair ? "gm" : v.powers[0]!, act: "deny", goal: input.goal };
    case "achieved":
    case "not-achieved":
      return {
        at,
        by: chair ? "gm" : v.powers[0]!,
        act: "achieved",
        goal: input.goal,
        achieved: input.act === "achieved",
      };
    case "conference": {
      const organiser = actingPower(g, v, input.organiser);
      const place = findPlace(input.location, variant.map);
      if (!place) throw invalid(`unknown province "${input.location}" for the conference`);
      const participants = input.participants.map((p) => {
        const id = findPower(variant, p);
        if (!id) throw invalid(`unknown power "${p}" among the participants`);
        return id as string;
      });
      if (!participants.includes(organiser)) participants.unshift(organiser);
      return {
        at,
        by: chair ? "gm" : organiser,
        act: "conference",
        organiser,
        name: input.name,
        goal: input.goal,
        location: place.province,
        participants,
      };
    }
    case "close-conference":
      return { at, by: chair ? "gm" : v.powers[0]!, act: "close-conference" };
    case "territory":
      return { at, by: chair ? "gm" : v.powers[0]!, act: "territory", centres: input.centres };
  }
}

/**
 * Takes one act (under the game's lock): checked against the committee as the game now
 * stands, refused with the rules' reason, else stored and announced.
 */
export async function recordCommitteeAct(
  trx: Kysely<DB>,
  g: GameData,
  v: RuleViewer,
  input: ActInput,
  now: number,
  emit: Emit,
): Promise<CommitteeView> {
  requireCommittee(g);
  if (g.game.status === "finished") throw conflict("the game is over");
  const act = toAct(g, v, input);
  const checked = readAct(act);
  if (!checked.ok) throw invalid(checked.reason);
  const acts = await committeeActs(trx, g.game.id);
  const before = stateOf(g, acts);
  const r = applyAct(g.scenario.variant, before, g.position, checked.act);
  if (!r.ok) {
    const chairsOnly = r.reason.startsWith("only the chairs");
    throw chairsOnly ? forbidden(r.reason) : invalid(r.reason);
  }
  await trx
    .insertInto("committee_acts")
    .values({
      game_id: g.game.id,
      after_idx: act.at,
      data: JSON.stringify(act),
      user_id: v.user?.id ?? "",
      at: now,
    })
    .execute();
  // Goals are private to their power (and the chairs); the rest is public.
  const goalPower =
    act.act === "goal"
      ? act.power
      : "goal" in act && typeof act.goal === "string" && act.act !== "conference"
        ? before.goals.find((x) => x.id === act.goal)?.power
        : undefined;
  await emit("committee", goalPower ? `powers:${goalPower}` : "public", act);
  const view = await committeeView(trx, g, v);
  await emit("scores", "public", view.scores);
  return view;
}
