import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { writePosition } from "../../engine/position-json.ts";
import {
  type GameRecord,
  newRecord,
  playPhase,
  type RecordAct,
  replayRecord,
} from "../../engine/record.ts";
import { readRules } from "../../engine/rules.ts";
import { standardScenario } from "../../engine/scenario.ts";
import type { PowerId } from "../../engine/types.ts";
import { committeeOfRecord, insurrectionsOfPhase, recordScores } from "./acts.ts";
import { europe1935 as v } from "./index.ts";
import { USSR_FALLEN_CENTERS, USSR_FALLEN_UNITS } from "./testing.ts";

/*
 * The committee in game records (docs/committee.md, "In game records"): acts applied at their
 * point in the game, insurrections read from the phases, conferences ended by the positions,
 * and the scores that follow, the same after a replay.
 */

const scenario = standardScenario(v);
const rules = (() => {
  const r = readRules(undefined, v.rules);
  if (!r.ok) throw new Error(r.error);
  return r.rules;
})();

const holdAll = (rec: GameRecord): GameRecord => playPhase(scenario, rec, new Map());
const act = (
  at: number,
  by: string,
  a: string,
  fields: Record<string, unknown> = {},
): RecordAct => ({
  at,
  by,
  act: a,
  ...fields,
});

function total(rec: GameRecord, power: string): number {
  const s = recordScores(v, rec);
  if (!s.ok) assert.fail(s.errors.join("; "));
  const row = s.scores.find((x) => x.power === power);
  assert.ok(row, `a score for ${power}`);
  return row.total;
}

describe("europe1935 committee acts in a record", () => {
  test("goals: set by the chairs, proposed, approved, denied, achieved; the limits", () => {
    const base = newRecord(scenario, rules, 1);
    const acts: RecordAct[] = [
      act(0, "gm", "goal", {
        power: "uk",
        source: "chairs",
        text: "Peace for our time",
        points: 2,
      }),
      act(0, "gm", "goal", { power: "uk", source: "chairs", text: "Hold Egypt" }),
      act(0, "gm", "goal", { power: "uk", source: "chairs", text: "Hold Gibraltar", points: 1 }),
      act(0, "gm", "goal", { power: "uk", source: "chairs", text: "A fourth", points: 1 }),
      act(0, "uk", "goal", { power: "uk", source: "proposed", text: "Dunkirk" }),
      act(0, "uk", "goal", { power: "uk", source: "proposed", text: "Yalta" }),
      act(0, "uk", "goal", { power: "uk", source: "proposed", text: "A third proposal" }),
      act(0, "france", "goal", { power: "uk", source: "proposed", text: "not mine" }),
      act(0, "uk", "goal", { power: "uk", source: "chairs", text: "self-set", points: 3 }),
      act(0, "uk", "approve", { goal: "g4", points: 3 }),
      act(0, "gm", "approve", { goal: "g4", points: 3 }),
      act(0, "gm", "deny", { goal: "g5" }),
      act(0, "gm", "achieved", { goal: "g5", achieved: true }),
      act(0, "gm", "achieved", { goal: "g1", achieved: true }),
      act(0, "gm", "achieved", { goal: "g4", achieved: true }),
    ];
    const c = committeeOfRecord(v, { ...base, committee: acts });
    assert.equal(c.committee.goals.length, 5, "three chairs' goals and two proposed");
    const reasons = c.errors.join("\n");
    assert.match(reasons, /act 3 .*already has the 3 goals/, "a fourth chairs' goal");
    assert.match(reasons, /act 6 .*already proposed 2/, "a third proposal");
    assert.match(reasons, /act 7 .*france cannot propose a goal for uk/, "for another power");
    assert.match(reasons, /act 8 .*only the chairs/, "a power setting a chairs' goal");
    assert.match(reasons, /act 9 .*only the chairs/, "a power approving");
    assert.match(reasons, /act 12 .*only an approved goal/, "a denied goal achieved");
    assert.equal(c.errors.length, 6, reasons);
    const g4 = c.committee.goals.find((g) => g.id === "g4");
    assert.deepEqual(
      [g4?.status, g4?.points, g4?.achieved],
      ["approved", 3, true],
      "the approved proposal",
    );
    assert.equal(c.committee.goals.find((g) => g.id === "g2")?.points, 3, "default 3 points");
    // 2 (g1) + 3 (g4): only approved goals recorded achieved count.
    assert.equal(total({ ...base, committee: acts }, "uk"), 5, "the UK's points");
    assert.equal(total({ ...base, committee: acts }, "france"), 0, "France's points");
  });

  test("a record with committee acts replays to the same scores; a version 1 record still loads", () => {
    let rec = newRecord(scenario, rules, 1);
    rec = {
      ...rec,
      committee: [
        act(0, "gm", "goal", {
          power: "germany",
          source: "chairs",
          text: "Remilitarise",
          points: 3,
        }),
        act(0, "gm", "territory", { centres: 5 }),
      ],
    };
    rec = holdAll(rec);
    rec = {
      ...rec,
      committee: [
        ...(rec.committee ?? []),
        act(1, "gm", "achieved", { goal: "g1", achieved: true }),
        act(1, "uk", "conference", {
          organiser: "uk",
          name: "Munich",
          goal: "Sudetenland",
          location: "mun",
          participants: ["uk", "france", "germany"],
        }),
      ],
    };
    rec = holdAll(rec);
    const text = JSON.stringify(rec);
    const back = JSON.parse(text) as GameRecord;
    assert.equal(back.version, 2, "records are version 2");
    assert.deepEqual(replayRecord(scenario, back), { ok: true }, "it replays");
    const again = [...back.phases].reduce<GameRecord>(
      (r, p) =>
        playPhase(
          scenario,
          r,
          new Map(Object.entries(p.orders).map(([k, l]) => [k as PowerId, l])),
        ),
      { ...back, phases: [] },
    );
    assert.deepEqual(recordScores(v, again), recordScores(v, back), "the same scores");
    // Every power has its five centres: five territorial points each (threshold 5), Germany 3 more.
    assert.equal(total(back, "germany"), 8, "Germany: 5 territorial + 3 political");
    assert.equal(total(back, "uk"), 5, "the UK: 5 territorial");
    const c = committeeOfRecord(v, back);
    assert.deepEqual(c.errors, [], "every act holds");
    assert.equal(c.committee.conferences.current?.name, "Munich", "the conference runs");
    // A version 1 record: no committee, no variantData.
    const { committee: _c, ...v1 } = { ...back, version: 1 };
    assert.deepEqual(replayRecord(scenario, v1), { ok: true }, "a version 1 record replays");
    const s = recordScores(v, v1);
    assert.ok(s.ok && s.scores.every((x) => x.total === 0), "no points without the committee");
    assert.equal(s.ok && s.winner, null, "all draw");
  });

  test("conferences: refused while one runs or where a hostile unit stands; expire after a year; end when conquered", () => {
    const munich = (at: number, by = "uk") =>
      act(at, by, "conference", {
        organiser: by,
        name: `Conference ${at}`,
        goal: "talk",
        location: "mun",
        participants: [by, "france", "germany"],
      });
    let rec = newRecord(scenario, rules, 1);
    rec = { ...rec, committee: [munich(0), munich(0, "france")] };
    let c = committeeOfRecord(v, rec);
    assert.match(c.errors.join(), /still running/, "one at a time");
    // Hostile: Poland is not in it and... Germany's army stands in Munich: hostile if Germany is out.
    const withoutGermany = act(0, "uk", "conference", {
      organiser: "uk",
      name: "Without Germany",
      goal: "talk",
      location: "mun",
      participants: ["uk", "france", "italy"],
    });
    c = committeeOfRecord(v, { ...rec, committee: [withoutGermany] });
    assert.match(c.errors.join(), /hostile to the conference/, "a hostile army in the location");
    // Expiry: opened in S1935M, it ends when the game reaches S1936M.
    rec = { ...rec, committee: [munich(0)] };
    for (let i = 0; i < 2; i++) rec = holdAll(rec);
    assert.equal(rec.phases[1]!.position.phase, "S1936M", "a year on");
    c = committeeOfRecord(v, { ...rec, phases: rec.phases.slice(0, 1) });
    assert.equal(c.committee.conferences.current?.name, "Conference 0", "still running in F1935M");
    c = committeeOfRecord(v, rec);
    assert.equal(c.committee.conferences.current, null, "ended");
    assert.equal(c.committee.conferences.past[0]?.reason, "expired", "expired");
    // Conquest: a German army (Germany takes no part) enters Munich.
    let war = newRecord(scenario, rules, 1);
    war = {
      ...war,
      start: writePosition(v, {
        ...v.start,
        units: v.start.units.filter((u) => u.province !== "mun"),
      }),
      committee: [withoutGermany],
    };
    war = playPhase(scenario, war, new Map([["germany" as PowerId, ["A Fra-Mun"]]]));
    c = committeeOfRecord(v, war);
    assert.deepEqual(c.errors, [], "no refused act");
    assert.equal(c.committee.conferences.past[0]?.reason, "conquered", "conquered");
    assert.equal(c.committee.conferences.past[0]?.ended.season, "F", "at once, in the next phase");
  });

  test("insurrections are read from the phase results and score a point for two units or more", () => {
    // The USSR has lost its country (testing.ts); the UK gives two units.
    let rec = newRecord(scenario, rules, 1);
    rec = {
      ...rec,
      start: {
        ...rec.start,
        phase: "S1936M",
        units: USSR_FALLEN_UNITS,
        centers: USSR_FALLEN_CENTERS,
      },
    };
    rec = playPhase(
      scenario,
      rec,
      new Map([
        ["uk" as PowerId, ["F I Lon-Russia", "A I Edi-Russia", "A I Nowhere-Russia"]],
        ["france" as PowerId, ["A I Par-USSR"]],
        ["ussr" as PowerId, ["Revive Stp > Mur > Ros"]],
      ]),
    );
    const found = insurrectionsOfPhase(v, rec.phases[0]!);
    assert.deepEqual(
      found,
      [
        {
          phase: "S1936M",
          power: "ussr",
          supporters: [
            { power: "uk", province: "lon" },
            { power: "uk", province: "edi" },
            { power: "france", province: "par" },
          ],
          revived: true,
        },
      ],
      "three units turned up (the invalid one does not count); the USSR revived",
    );
    const s = recordScores(v, rec);
    assert.ok(s.ok, "scores");
    const points = Object.fromEntries(s.scores.map((x) => [x.power, x.insurrection]));
    assert.equal(points.uk, 1, "two British units: one point");
    assert.equal(points.france, 0, "one French unit: none");
    assert.equal(s.winner, "uk", "the UK leads alone");
  });
});
