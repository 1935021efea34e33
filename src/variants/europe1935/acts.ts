import { findPlace } from "../../engine/parse.ts";
import { readPosition } from "../../engine/position-json.ts";
import type { GameRecord, PhaseRecord, RecordAct } from "../../engine/record.ts";
import type { Position, PowerId, ProvinceId } from "../../engine/types.ts";
import type { Variant } from "../../engine/variant.ts";
import {
  type ConferenceState,
  closeConference,
  conferenceAfterPhase,
  NO_CONFERENCE,
  proposeConference,
} from "./conferences.ts";
import { findPower, readCommitteeOrder } from "./insurrection.ts";
import {
  CHAIRS_GOALS,
  DEFAULT_POINTS_OPTIONS,
  MAX_GOAL_POINTS,
  type PoliticalGoal,
  PROPOSED_GOALS,
  type Scoring,
  scoreVictoryPoints,
} from "./points.ts";

/*
 * The committee in a game record (docs/committee.md, "In game records"). The record keeps the
 * chairs' and the powers' acts (`GameRecord.committee`): political goals set, proposed,
 * approved, denied and recorded as achieved; conferences proposed and closed; the territory
 * threshold. Insurrections are read from the phases' results (each insurrection order that
 * turned up is there with result `succeeds`), and conferences end by the positions the phases
 * reach. So the whole committee, and the scores, follow from the record alone, and a replayed
 * record gives the same scores.
 */

/** Whether a variant plays with the committee's rules (europe1935). */
export function hasCommittee(variant: Variant): boolean {
  return variant.id === "europe1935";
}

/** The acts, as the record stores them (`by` is `gm` for the chairs, or a power id). */
export type CommitteeAct =
  | (RecordAct & {
      readonly act: "goal";
      readonly power: string;
      readonly source: "chairs" | "proposed";
      readonly text: string;
      /** Chairs' goals: the points awarded, 0 to 3. */
      readonly points?: number;
    })
  | (RecordAct & { readonly act: "approve"; readonly goal: string; readonly points: number })
  | (RecordAct & { readonly act: "deny"; readonly goal: string })
  | (RecordAct & { readonly act: "achieved"; readonly goal: string; readonly achieved: boolean })
  | (RecordAct & {
      readonly act: "conference";
      readonly organiser: string;
      readonly name: string;
      readonly goal: string;
      readonly location: string;
      readonly participants: readonly string[];
    })
  | (RecordAct & { readonly act: "close-conference" })
  | (RecordAct & { readonly act: "territory"; readonly centres: number });

export const ACT_KINDS = [
  "goal",
  "approve",
  "deny",
  "achieved",
  "conference",
  "close-conference",
  "territory",
] as const;

/** One eliminated power's insurrection in one season, as read from the phase's results. */
export interface InsurrectionEntry {
  /** The movement phase it happened in (`S1937M`). */
  readonly phase: string;
  /** The power to be revived. */
  readonly power: PowerId;
  /** The units that turned up and were disbanded for it. */
  readonly supporters: readonly { readonly power: PowerId; readonly province: string }[];
  readonly revived: boolean;
}

export interface Committee {
  readonly goals: readonly PoliticalGoal[];
  readonly insurrections: readonly InsurrectionEntry[];
  readonly conferences: ConferenceState;
  /** Centres for the territorial points (`PointsOptions.territorialCenters`). */
  readonly territorialCenters: number;
}

export const EMPTY_COMMITTEE: Committee = {
  goals: [],
  insurrections: [],
  conferences: NO_CONFERENCE,
  territorialCenters: DEFAULT_POINTS_OPTIONS.territorialCenters,
};

export type Applied =
  | { readonly ok: true; readonly committee: Committee }
  | { readonly ok: false; readonly reason: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads an act from JSON (a record's `committee` entry), checking its fields' types; what the
 * act may do is `applyAct`'s business.
 */
export function readAct(
  json: unknown,
): { ok: true; act: CommitteeAct } | { ok: false; reason: string } {
  const bad = (reason: string) => ({ ok: false as const, reason });
  if (!isRecord(json)) return bad("an act is a JSON object");
  const { at, by, act } = json;
  if (typeof at !== "number" || !Number.isInteger(at) || at < 0)
    return bad(`"at" must be a number of phases, not ${JSON.stringify(at)}`);
  if (typeof by !== "string" || by === "") return bad('"by" must be "gm" or a power');
  if (typeof act !== "string" || !(ACT_KINDS as readonly string[]).includes(act))
    return bad(`"act" must be one of ${ACT_KINDS.join(", ")}, not ${JSON.stringify(act)}`);
  const str = (k: string) => typeof json[k] === "string";
  const need = (ok: boolean, what: string) => (ok ? null : bad(`a ${act} act needs ${what}`));
  const problem =
    act === "goal"
      ? (need(str("power") && str("text"), "power and text") ??
        need(
          json.source === "chairs" || json.source === "proposed",
          'source "chairs" or "proposed"',
        ) ??
        need(json.points === undefined || typeof json.points === "number", "points as a number"))
      : act === "approve"
        ? need(str("goal") && typeof json.points === "number", "goal and points")
        : act === "deny"
          ? need(str("goal"), "goal")
          : act === "achieved"
            ? need(
                str("goal") && typeof json.achieved === "boolean",
                "goal and achieved (true or false)",
              )
            : act === "conference"
              ? need(
                  str("organiser") &&
                    str("name") &&
                    str("goal") &&
                    str("location") &&
                    Array.isArray(json.participants) &&
                    json.participants.every((p) => typeof p === "string"),
                  "organiser, name, goal, location and participants",
                )
              : act === "territory"
                ? need(typeof json.centres === "number", "centres")
                : null;
  return problem ?? { ok: true, act: json as CommitteeAct };
}

const validPoints = (n: number) => Number.isInteger(n) && n >= 0 && n <= MAX_GOAL_POINTS;

/**
 * Applies one act to the committee while the game is at `position`, or says why it is
 * refused. Chairs' acts need `by: "gm"`; a power proposes goals for itself and conferences
 * it organises (the chairs may enter either for it).
 */
export function applyAct(
  variant: Variant,
  committee: Committee,
  position: Position,
  act: CommitteeAct,
): Applied {
  const refuse = (reason: string): Applied => ({ ok: false, reason });
  const ok = (c: Partial<Committee>): Applied => ({ ok: true, committee: { ...committee, ...c } });
  const chairs = act.by === "gm";
  const isPower = (p: string) => variant.powers.some((x) => x.id === p);
  if (!chairs && !isPower(act.by)) return refuse(`unknown power ${act.by}`);
  const onlyChairs = (what: string) => refuse(`only the chairs (the game master) ${what}`);
  const goalOf = (id: string) => committee.goals.find((g) => g.id === id);
  const replaceGoal = (g: PoliticalGoal) =>
    ok({ goals: committee.goals.map((x) => (x.id === g.id ? g : x)) });
  switch (act.act) {
    case "goal": {
      if (!isPower(act.power)) return refuse(`unknown power ${act.power}`);
      const text = act.text.trim();
      if (text === "") return refuse("a goal needs its text");
      const own = committee.goals.filter((g) => g.power === act.power && g.source === act.source);
      if (act.source === "chairs") {
        if (!chairs) return onlyChairs("set a power's goals; propose one with source proposed");
        if (own.length >= CHAIRS_GOALS)
          return refuse(`${act.power} already has the ${CHAIRS_GOALS} goals the chairs set`);
        const points = act.points ?? MAX_GOAL_POINTS;
        if (!validPoints(points))
          return refuse(`points must be a whole number from 0 to ${MAX_GOAL_POINTS}`);
        return ok({
          goals: [
            ...committee.goals,
            goal(committee, act.power, "chairs", text, "approved", points),
          ],
        });
      }
      if (!chairs && act.by !== act.power)
        return refuse(`${act.by} cannot propose a goal for ${act.power}`);
      if (act.points !== undefined)
        return refuse("the chairs give a proposed goal its points when they approve it");
      if (own.length >= PROPOSED_GOALS)
        return refuse(`${act.power} has already proposed ${PROPOSED_GOALS} goals`);
      return ok({
        goals: [...committee.goals, goal(committee, act.power, "proposed", text, "pending", 0)],
      });
    }
    case "approve":
    case "deny": {
      if (!chairs) return onlyChairs(`${act.act} proposed goals`);
      const g = goalOf(act.goal);
      if (!g) return refuse(`no goal ${act.goal}`);
      if (g.source !== "proposed")
        return refuse(`${g.id} was set by the chairs: it needs no approval`);
      if (g.status !== "pending") return refuse(`${g.id} is already ${g.status}`);
      if (act.act === "deny") return replaceGoal({ ...g, status: "denied" });
      if (!validPoints(act.points))
        return refuse(`points must be a whole number from 0 to ${MAX_GOAL_POINTS}`);
      return replaceGoal({ ...g, status: "approved", points: act.points });
    }
    case "achieved": {
      if (!chairs) return onlyChairs("record whether a goal is achieved");
      const g = goalOf(act.goal);
      if (!g) return refuse(`no goal ${act.goal}`);
      if (g.status !== "approved")
        return refuse(`${g.id} is ${g.status}: only an approved goal can be achieved`);
      return replaceGoal({ ...g, achieved: act.achieved });
    }
    case "conference": {
      if (!chairs && act.by !== act.organiser)
        return refuse(`${act.by} cannot organise a conference for ${act.organiser}`);
      const r = proposeConference(variant, committee.conferences, position, {
        organiser: act.organiser as PowerId,
        name: act.name.trim(),
        goal: act.goal.trim(),
        location: act.location as ProvinceId,
        participants: act.participants as PowerId[],
      });
      return r.ok ? ok({ conferences: r.state }) : refuse(r.reason);
    }
    case "close-conference": {
      if (!chairs) return onlyChairs("close a conference");
      if (!committee.conferences.current) return refuse("no conference is running");
      return ok({ conferences: closeConference(committee.conferences, position.phase) });
    }
    case "territory": {
      if (!chairs) return onlyChairs("set the territory threshold");
      if (
        !Number.isInteger(act.centres) ||
        act.centres < 1 ||
        act.centres > variant.map.supplyCenters.length
      )
        return refuse(
          `centres must be a whole number from 1 to ${variant.map.supplyCenters.length}`,
        );
      return ok({ territorialCenters: act.centres });
    }
  }
}

function goal(
  committee: Committee,
  power: string,
  source: "chairs" | "proposed",
  text: string,
  status: PoliticalGoal["status"],
  points: number,
): PoliticalGoal {
  return {
    id: `g${committee.goals.length + 1}`,
    power: power as PowerId,
    source,
    text,
    status,
    points,
    achieved: false,
  };
}

/**
 * The insurrections of one adjudicated phase, read from its results: each insurrection order
 * whose unit turned up (result `succeeds`: disbanded for it), grouped by the power to be
 * revived, and whether the revival order succeeded.
 */
export function insurrectionsOfPhase(variant: Variant, phase: PhaseRecord): InsurrectionEntry[] {
  const byTarget = new Map<
    PowerId,
    { supporters: { power: PowerId; province: string }[]; revived: boolean }
  >();
  const entry = (p: PowerId) => {
    let e = byTarget.get(p);
    if (!e) {
      e = { supporters: [], revived: false };
      byTarget.set(p, e);
    }
    return e;
  };
  for (const [power, results] of Object.entries(phase.results)) {
    for (const r of results) {
      if (r.order !== null || r.text === null) continue;
      const o = readCommitteeOrder(r.text);
      if (!o) continue;
      if (o.kind === "revival") {
        const target = findPower(variant, power);
        if (target && (r.result === "succeeds" || r.result === "fails"))
          entry(target).revived ||= r.result === "succeeds";
        continue;
      }
      if (r.result !== "succeeds") continue;
      const target = findPower(variant, o.power);
      if (!target) continue;
      const place = findPlace(o.province, variant.map);
      entry(target).supporters.push({
        power: power as PowerId,
        province: place?.province ?? o.province,
      });
    }
  }
  return [...byTarget]
    .filter(([, e]) => e.supporters.length > 0)
    .map(([power, e]) => ({
      phase: phase.phase,
      power,
      supporters: e.supporters,
      revived: e.revived,
    }));
}

export interface CommitteeOfRecord {
  readonly committee: Committee;
  /** Acts the record holds that the rules refuse (each with its index and reason). */
  readonly errors: readonly string[];
}

/**
 * The committee as the record has it after its last phase: every act applied at its point in
 * the game (before the phase it precedes), insurrections read from each phase, and each new
 * position ending the running conference when due. `acts` defaults to the record's own.
 */
export function committeeOfRecord(
  variant: Variant,
  record: GameRecord,
  acts: readonly RecordAct[] = record.committee ?? [],
): CommitteeOfRecord {
  const errors: string[] = [];
  let committee = EMPTY_COMMITTEE;
  const positionAt = (k: number): Position => {
    const json = k === 0 ? record.start : record.phases[k - 1]!.position;
    return readPosition(json as unknown as Record<string, unknown>, variant);
  };
  const apply = (k: number, position: Position) => {
    acts.forEach((a, i) => {
      if (a.at !== k) return;
      const read = readAct(a);
      const r = read.ok ? applyAct(variant, committee, position, read.act) : read;
      if (r.ok) committee = r.committee;
      else errors.push(`act ${i} (${a.act} by ${a.by} after ${k} phases): ${r.reason}`);
    });
  };
  apply(0, positionAt(0));
  for (let k = 1; k <= record.phases.length; k++) {
    const phase = record.phases[k - 1]!;
    const position = positionAt(k);
    const found = insurrectionsOfPhase(variant, phase);
    if (found.length > 0)
      committee = { ...committee, insurrections: [...committee.insurrections, ...found] };
    const after = conferenceAfterPhase(committee.conferences, position);
    committee = { ...committee, conferences: after.state };
    apply(k, position);
  }
  acts.forEach((a, i) => {
    if (a.at > record.phases.length || a.at < 0 || !Number.isInteger(a.at))
      errors.push(
        `act ${i} (${a.act} by ${a.by}) is dated after ${a.at} phases; the record has ${record.phases.length}`,
      );
  });
  return { committee, errors };
}

/** The victory points on the record's last position (docs/committee.md). */
export function recordScores(variant: Variant, record: GameRecord, committee?: Committee): Scoring {
  const c = committee ?? committeeOfRecord(variant, record).committee;
  const last = record.phases[record.phases.length - 1];
  const position = readPosition(
    (last?.position ?? record.start) as unknown as Record<string, unknown>,
    variant,
  );
  return scoreVictoryPoints(variant, position, c, { territorialCenters: c.territorialCenters });
}
