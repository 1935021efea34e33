import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parsePhase } from "../../engine/phase.ts";
import { type Position, powerId, provinceId, type Unit } from "../../engine/types.ts";
import {
  type ConferenceProposal,
  type ConferenceState,
  closeConference,
  conferenceAfterPhase,
  describeConference,
  NO_CONFERENCE,
  proposeConference,
} from "./conferences.ts";
import { europe1935 as v } from "./index.ts";

const P = powerId;
const phase = (s: string) => parsePhase(s)!;
const at = (p: string, units: readonly Unit[] = v.start.units): Position => ({
  ...v.start,
  phase: phase(p),
  units,
});
const unit = (power: string, type: "A" | "F", province: string): Unit => ({
  power: P(power),
  type,
  province: provinceId(province),
  coast: null,
});

const MUNICH: ConferenceProposal = {
  organiser: P("uk"),
  name: "Munich Conference",
  goal: "settle the Sudeten question",
  location: provinceId("mun"),
  participants: [P("uk"), P("france"), P("italy"), P("germany")],
};

function open(state: ConferenceState = NO_CONFERENCE, position = at("S1938M")): ConferenceState {
  const r = proposeConference(v, state, position, MUNICH);
  if (!r.ok) assert.fail(r.reason);
  return r.state;
}

const refusal = (proposal: ConferenceProposal, position = at("S1938M"), state = NO_CONFERENCE) => {
  const r = proposeConference(v, state, position, proposal);
  assert.equal(r.ok, false);
  return r.ok ? "" : r.reason;
};

describe("europe1935 conferences", () => {
  test("opens with three or more delegations and its own units in the location", () => {
    const s = open();
    assert.equal(s.current?.name, "Munich Conference");
    assert.deepEqual(s.current?.endsBy, phase("S1939M"));
    assert.equal(
      describeConference(s.current!),
      "Munich Conference at mun (uk, france, italy, germany), S1938M to S1939M at the latest: settle the Sudeten question",
    );
  });

  test("refused with fewer than three delegations", () => {
    assert.match(
      refusal({ ...MUNICH, participants: [P("uk"), P("germany")] }),
      /less than 3 delegations/,
    );
  });

  test("refused without the organiser, with a delegation twice, or an unknown power", () => {
    assert.match(
      refusal({ ...MUNICH, participants: [P("france"), P("italy"), P("germany")] }),
      /organiser must take part/,
    );
    assert.match(
      refusal({ ...MUNICH, participants: [P("uk"), P("uk"), P("germany")] }),
      /named twice/,
    );
    assert.match(
      refusal({ ...MUNICH, participants: [P("uk"), P("italy"), P("prussia")] }),
      /unknown power/,
    );
  });

  test("refused without a name or goal, at sea or in an unknown place", () => {
    assert.match(refusal({ ...MUNICH, name: " " }), /no name/);
    assert.match(refusal({ ...MUNICH, goal: "" }), /no goal/);
    assert.match(refusal({ ...MUNICH, location: provinceId("nth") }), /is a sea/);
    assert.match(refusal({ ...MUNICH, location: provinceId("xyz") }), /unknown province/);
  });

  test("refused while a hostile army or fleet stands in the location", () => {
    const units = [unit("ussr", "A", "mun")];
    assert.match(refusal(MUNICH, at("S1938M", units)), /army of ussr, hostile/);
    const yalta = { ...MUNICH, location: provinceId("cri") };
    assert.match(
      refusal(yalta, at("S1945M", [unit("turkey", "F", "cri")])),
      /a fleet of turkey, hostile/,
    );
    // A participant's unit is not hostile.
    assert.ok(
      proposeConference(v, NO_CONFERENCE, at("S1938M", [unit("germany", "A", "mun")]), MUNICH).ok,
    );
  });

  test("refused while another conference runs; possible again once it ended", () => {
    const s = open();
    assert.match(
      refusal({ ...MUNICH, name: "Stresa" }, at("F1938M"), s),
      /"Munich Conference" is still running/,
    );
    const closed = closeConference(s, phase("F1938M"));
    assert.equal(closed.current, null);
    assert.equal(closed.past[0]?.reason, "closed");
    assert.ok(proposeConference(v, closed, at("F1938M"), { ...MUNICH, name: "Stresa" }).ok);
  });

  test("lasts no longer than one year", () => {
    let s = open();
    for (const p of ["S1938R", "F1938M", "F1938R", "W1938A"]) {
      const r = conferenceAfterPhase(s, at(p));
      assert.equal(r.ended, null, p);
      s = r.state;
    }
    const r = conferenceAfterPhase(s, at("S1939M"));
    assert.equal(r.ended?.reason, "expired");
    assert.deepEqual(r.ended?.ended, phase("S1939M"));
    assert.equal(r.state.current, null);
  });

  test("ends at once if its location is conquered", () => {
    const s = open();
    const r = conferenceAfterPhase(s, at("F1938M", [unit("ussr", "A", "mun")]));
    assert.equal(r.ended?.reason, "conquered");
    assert.equal(r.state.current, null);
    assert.equal(r.state.past.length, 1);
    // To continue, the whole procedure again: refused while the army stands there.
    assert.match(refusal(MUNICH, at("F1938M", [unit("ussr", "A", "mun")]), r.state), /hostile/);
  });

  test("nothing to do without a conference", () => {
    const r = conferenceAfterPhase(NO_CONFERENCE, at("S1938M"));
    assert.equal(r.state, NO_CONFERENCE);
    assert.equal(closeConference(NO_CONFERENCE, phase("S1938M")), NO_CONFERENCE);
  });
});
