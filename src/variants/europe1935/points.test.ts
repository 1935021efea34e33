import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type Position,
  type PowerId,
  type ProvinceId,
  powerId,
  provinceId,
} from "../../engine/types.ts";
import { europe1935 as v } from "./index.ts";
import {
  type CommitteeState,
  type PoliticalGoal,
  type PowerScore,
  scoreVictoryPoints,
} from "./points.ts";

const P = powerId;
const EMPTY: CommitteeState = { goals: [], insurrections: [] };

/** The start, with these centres handed to `power`. */
function withCentres(power: string, centres: readonly string[]): Position {
  const map = new Map<ProvinceId, PowerId>(v.start.centers);
  for (const c of centres) map.set(provinceId(c), P(power));
  return { ...v.start, centers: map };
}

function goal(id: string, power: string, extra: Partial<PoliticalGoal> = {}): PoliticalGoal {
  return {
    id,
    power: P(power),
    source: "chairs",
    text: id,
    status: "approved",
    points: 2,
    achieved: true,
    ...extra,
  };
}

function scored(pos: Position, state: CommitteeState, territorialCenters?: number) {
  const r = scoreVictoryPoints(
    v,
    pos,
    state,
    territorialCenters ? { territorialCenters } : undefined,
  );
  if (!r.ok) assert.fail(r.errors.join("; "));
  return r;
}

const of = (scores: readonly PowerScore[], p: string) => scores.find((s) => s.power === p)!;

// Fifteen centres for Germany: its five, plus ten taken from others and the neutrals.
const GERMAN_GAINS = ["hol", "bel", "den", "cze", "aus", "swe", "nwy", "hun", "par", "bri"];

describe("europe1935 victory points", () => {
  test("at the start nobody has points and all nine draw", () => {
    const r = scored(v.start, EMPTY);
    assert.equal(r.winner, null);
    assert.equal(r.leaders.length, 9);
    assert.ok(r.scores.every((s) => s.total === 0 && s.centres === 5));
  });

  test("five territorial points for the default fifteen centres, none for fourteen", () => {
    const r = scored(withCentres("germany", GERMAN_GAINS), EMPTY);
    assert.deepEqual(of(r.scores, "germany"), {
      power: P("germany"),
      centres: 15,
      territorial: 5,
      political: 0,
      insurrection: 0,
      total: 5,
    });
    assert.equal(r.winner, "germany");
    const less = scored(withCentres("germany", GERMAN_GAINS.slice(1)), EMPTY);
    assert.equal(of(less.scores, "germany").territorial, 0);
  });

  test("the threshold is an option", () => {
    const r = scored(withCentres("italy", ["aus"]), EMPTY, 6);
    assert.equal(of(r.scores, "italy").territorial, 5);
    assert.equal(r.winner, "italy");
  });

  test("only approved, achieved goals score, at the chairs' value", () => {
    const state: CommitteeState = {
      goals: [
        goal("uk1", "uk", { points: 3 }),
        goal("uk2", "uk", { points: 1, achieved: false }),
        goal("uk4", "uk", { source: "proposed", status: "approved", points: 2 }),
        goal("uk5", "uk", { source: "proposed", status: "denied", achieved: false }),
        goal("fr1", "france", { points: 2 }),
      ],
      insurrections: [],
    };
    const r = scored(v.start, state);
    assert.equal(of(r.scores, "uk").political, 5);
    assert.equal(of(r.scores, "france").political, 2);
    assert.equal(r.winner, "uk");
    assert.equal(r.scores[0]!.power, "uk");
  });

  test("a power investing two units in an insurrection gains a point, one unit none", () => {
    const state: CommitteeState = {
      goals: [],
      insurrections: [
        {
          power: P("ussr"),
          supporters: [{ power: P("uk") }, { power: P("uk") }, { power: P("france") }],
        },
        { power: P("ussr"), supporters: [{ power: P("uk") }, { power: P("uk") }] },
      ],
    };
    const r = scored(v.start, state);
    assert.equal(of(r.scores, "uk").insurrection, 2);
    assert.equal(of(r.scores, "france").insurrection, 0);
  });

  test("an eliminated power keeps its non-territorial points and may win", () => {
    const centres = [...v.start.centers].filter(([, o]) => o === "ussr").map(([c]) => c);
    const pos = withCentres("poland", centres);
    const r = scored(pos, { goals: [goal("su1", "ussr", { points: 3 })], insurrections: [] });
    assert.equal(of(r.scores, "ussr").centres, 0);
    assert.equal(r.winner, "ussr");
  });

  test("a tie on the highest score is a draw between the leaders", () => {
    const state: CommitteeState = {
      goals: [goal("it1", "italy", { points: 3 }), goal("tr1", "turkey", { points: 3 })],
      insurrections: [],
    };
    const r = scored(v.start, state);
    assert.equal(r.winner, null);
    assert.deepEqual([...r.leaders].sort(), ["italy", "turkey"]);
  });

  test("the chairs' record is checked", () => {
    const bad: CommitteeState = {
      goals: [
        goal("a", "uk", { points: 4 }),
        goal("b", "uk", { source: "proposed", status: "pending" }),
        goal("c", "uk", { source: "proposed", status: "denied", achieved: false }),
        goal("d", "uk", { source: "proposed", status: "approved" }),
        goal("e", "uk"),
        goal("f", "uk"),
        goal("g", "uk"),
        goal("g", "nowhere"),
      ],
      insurrections: [],
    };
    const r = scoreVictoryPoints(v, v.start, bad);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(r.errors, [
      "goal a: points must be a whole number from 0 to 3",
      "goal b: only an approved goal can be achieved",
      "goal g is entered twice",
      "goal g: unknown power nowhere",
      "uk has 4 goals from the chairs; at most 3",
      "uk proposed 3 goals; at most 2",
    ]);
    const opt = scoreVictoryPoints(v, v.start, EMPTY, { territorialCenters: 0 });
    assert.equal(opt.ok, false);
  });
});
