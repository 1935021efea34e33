import { phaseName, phaseOrdinal } from "../../engine/phase.ts";
import type { Phase, Position, PowerId, ProvinceId } from "../../engine/types.ts";
import type { Variant } from "../../engine/variant.ts";

/*
 * The committee's conferences (Historical Committee rules, "Organizing a conference";
 * docs/committee.md), as a pure state machine the chairs drive: a power proposes a conference
 * (goal, name, location, participants); it opens unless another is running, fewer than three
 * delegations take part, or a hostile unit stands in the location; it ends after one year at
 * most, at once if its location is conquered, or when the chairs close it.
 */

export interface ConferenceProposal {
  readonly organiser: PowerId;
  readonly name: string;
  readonly goal: string;
  readonly location: ProvinceId;
  /** The participating delegations; the organiser is one of them. */
  readonly participants: readonly PowerId[];
}

export interface Conference extends ConferenceProposal {
  /** The phase the game was in when it opened. */
  readonly opened: Phase;
  /** The phase at which it ends at the latest: the same phase a year on. */
  readonly endsBy: Phase;
}

export type EndReason = "expired" | "conquered" | "closed";

export interface ClosedConference extends Conference {
  readonly ended: Phase;
  readonly reason: EndReason;
}

export interface ConferenceState {
  readonly current: Conference | null;
  readonly past: readonly ClosedConference[];
}

export const NO_CONFERENCE: ConferenceState = { current: null, past: [] };
export const MIN_DELEGATIONS = 3;

export type Proposed =
  | { readonly ok: true; readonly state: ConferenceState; readonly conference: Conference }
  | { readonly ok: false; readonly reason: string };

/** Units hostile to a conference in its location: units of powers not taking part. */
export function hostileUnits(
  position: Position,
  location: ProvinceId,
  participants: readonly PowerId[],
) {
  return position.units.filter((u) => u.province === location && !participants.includes(u.power));
}

/** A power proposes a conference, while the game is at `position`. */
export function proposeConference(
  variant: Variant,
  state: ConferenceState,
  position: Position,
  proposal: ConferenceProposal,
): Proposed {
  const refuse = (reason: string): Proposed => ({ ok: false, reason });
  const powers = new Set<string>(variant.powers.map((p) => p.id));
  if (state.current)
    return refuse(`the conference ${JSON.stringify(state.current.name)} is still running`);
  if (proposal.name.trim() === "") return refuse("the conference has no name");
  if (proposal.goal.trim() === "") return refuse("the conference has no goal");
  if (!powers.has(proposal.organiser)) return refuse(`unknown power ${proposal.organiser}`);
  const unknown = proposal.participants.find((p) => !powers.has(p));
  if (unknown) return refuse(`unknown power ${unknown}`);
  if (new Set(proposal.participants).size !== proposal.participants.length)
    return refuse("a delegation is named twice");
  if (!proposal.participants.includes(proposal.organiser))
    return refuse("the organiser must take part");
  if (proposal.participants.length < MIN_DELEGATIONS)
    return refuse(`no conference can be held with less than ${MIN_DELEGATIONS} delegations`);
  const province = variant.map.province(proposal.location);
  if (!province) return refuse(`unknown province ${proposal.location}`);
  if (province.kind === "sea") return refuse(`${province.name} is a sea`);
  const hostile = hostileUnits(position, proposal.location, proposal.participants);
  if (hostile.length > 0) {
    const u = hostile[0]!;
    return refuse(
      `${province.name} holds ${u.type === "A" ? "an army" : "a fleet"} of ${u.power}, hostile to the conference`,
    );
  }
  const opened = position.phase;
  const conference: Conference = {
    ...proposal,
    participants: [...proposal.participants],
    opened,
    endsBy: { ...opened, year: opened.year + 1 },
  };
  return { ok: true, state: { ...state, current: conference }, conference };
}

function end(state: ConferenceState, phase: Phase, reason: EndReason): ConferenceState {
  if (!state.current) return state;
  return { current: null, past: [...state.past, { ...state.current, ended: phase, reason }] };
}

/**
 * The game has reached `position` (after any phase): a conference whose location is now
 * conquered (a unit of a power not taking part stands in it) ends at once; one that has run
 * a year ends.
 */
export function conferenceAfterPhase(
  state: ConferenceState,
  position: Position,
): { state: ConferenceState; ended: ClosedConference | null } {
  const c = state.current;
  if (!c) return { state, ended: null };
  let reason: EndReason | null = null;
  if (hostileUnits(position, c.location, c.participants).length > 0) reason = "conquered";
  else if (phaseOrdinal(position.phase) >= phaseOrdinal(c.endsBy)) reason = "expired";
  if (!reason) return { state, ended: null };
  const next = end(state, position.phase, reason);
  return { state: next, ended: next.past[next.past.length - 1]! };
}

/** The chairs close the running conference (its business done) at `phase`. */
export function closeConference(state: ConferenceState, phase: Phase): ConferenceState {
  return end(state, phase, "closed");
}

/** One line for the chairs' log. */
export function describeConference(c: Conference): string {
  return `${c.name} at ${c.location} (${c.participants.join(", ")}), ${phaseName(c.opened)} to ${phaseName(c.endsBy)} at the latest: ${c.goal}`;
}
