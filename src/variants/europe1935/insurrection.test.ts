import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { adjudicateJson } from "../../cli/adjudicate.ts";
import { formatHistory } from "../../engine/history.ts";
import { type ResultJson, readPosition } from "../../engine/position-json.ts";
import { newRecord, playPhase, replayRecord } from "../../engine/record.ts";
import { DATC_RULES } from "../../engine/rules.ts";
import { standardScenario } from "../../engine/scenario.ts";
import type { PowerId, ProvinceId } from "../../engine/types.ts";
import { europe1935 } from "./index.ts";
import { judgeInsurrections, readCommitteeOrder, reclaimPlan } from "./insurrection.ts";
import { USSR_FALLEN_CENTERS, USSR_FALLEN_UNITS } from "./testing.ts";

/*
 * The committee's insurrections (docs/committee.md), through the public contract. The USSR
 * has lost its country: Germany holds Moscow, St. Petersburg and Murmansk, Turkey Rostov,
 * Poland Siberia; no Soviet unit is left.
 */

const UNITS = USSR_FALLEN_UNITS;
const CENTERS = USSR_FALLEN_CENTERS;

interface Input {
  phase?: string;
  units?: Record<string, string[]>;
  orders: Record<string, string[]>;
}

function run(input: Input): ResultJson {
  const r = adjudicateJson(
    { variant: "europe1935", phase: "S1936M", units: UNITS, centers: CENTERS, ...input },
    DATC_RULES,
  );
  if ("error" in r) assert.fail(r.error);
  return r;
}

function result(r: ResultJson, power: string, text: string): string {
  const o = r.orders[power]?.find((x) => x.text === text);
  if (!o) assert.fail(`no order ${JSON.stringify(text)} for ${power}`);
  return o.result;
}

const sorted = (l: readonly string[] | undefined) => [...(l ?? [])].sort();
const ussrCentres = (r: ResultJson) => sorted(r.next.centers?.ussr);
const unitsOf = (r: ResultJson, power: string) => sorted(r.next.units[power]);

const THREE = {
  uk: ["F I Lon-Russia"],
  france: ["A I Par-USSR"],
  italy: ["A I Ven-Russia"],
};

describe("europe1935 insurrections", () => {
  test("three supporters from three powers reclaim three unoccupied centres by preference", () => {
    const r = run({ orders: { ...THREE, ussr: ["Revive Mos > Stp > Mur > Ros > Sib"] } });
    // Moscow is occupied (German A mos) and there is no fourth supporter: it is passed over.
    assert.deepEqual(ussrCentres(r), ["mur", "ros", "stp"]);
    assert.deepEqual(unitsOf(r, "ussr"), ["A stp"]);
    for (const [p, [t]] of Object.entries(THREE)) assert.equal(result(r, p, t!), "succeeds");
    assert.equal(result(r, "ussr", "Revive Mos > Stp > Mur > Ros > Sib"), "succeeds");
    // The supporters are disbanded.
    assert.deepEqual(unitsOf(r, "uk"), ["A edi", "F ire"]);
    assert.deepEqual(unitsOf(r, "france"), ["F bri"]);
    assert.deepEqual(unitsOf(r, "italy"), ["F rom"]);
    // The losers lose the centres; Germany keeps its unit in Moscow, and Moscow.
    assert.deepEqual(sorted(r.next.centers?.germany), ["ber", "mos"]);
    assert.deepEqual(sorted(r.next.centers?.turkey), ["ank"]);
    assert.deepEqual(unitsOf(r, "germany"), ["A ber", "A mos"]);
  });

  test("three supporters from one power", () => {
    const r = run({
      orders: {
        uk: ["F I Lon-Russia", "A I Edi-Russia", "F I Ire-Russia"],
        ussr: ["Revive F Mur > Stp > Ros"],
      },
    });
    assert.deepEqual(ussrCentres(r), ["mur", "ros", "stp"]);
    assert.deepEqual(unitsOf(r, "ussr"), ["F mur"]);
    assert.equal(r.next.units.uk, undefined);
  });

  test("four supporters regain all five centres when none is occupied", () => {
    const r = run({
      orders: {
        ...THREE,
        turkey: ["F I Ank-Russia"],
        germany: ["A Mos-Ukr"],
        ussr: ["Revive Stp > Mos > Ros"],
      },
    });
    assert.deepEqual(ussrCentres(r), ["mos", "mur", "ros", "sib", "stp"]);
    assert.deepEqual(unitsOf(r, "ussr"), ["A stp"]);
    assert.deepEqual(unitsOf(r, "germany"), ["A ber", "A ukr"]);
  });

  test("four supporters with Moscow occupied regain the four free centres, never only three", () => {
    // The seed: four regain all five; Moscow, occupied, needs a fifth. Without it Moscow is
    // left out, and the four other centres are still theirs (no supporter is wasted).
    const r = run({
      orders: { ...THREE, turkey: ["F I Ank-Russia"], ussr: ["Revive Mos > Stp > Ros"] },
    });
    assert.equal(result(r, "ussr", "Revive Mos > Stp > Ros"), "succeeds");
    assert.deepEqual(ussrCentres(r), ["mur", "ros", "sib", "stp"]);
    // Germany keeps its army and Moscow; the revived power builds on its first choice taken.
    assert.deepEqual(unitsOf(r, "germany"), ["A ber", "A mos"]);
    assert.deepEqual(sorted(r.next.centers?.germany), ["ber", "mos"]);
    assert.deepEqual(unitsOf(r, "ussr"), ["A stp"]);
  });

  test("four supporters with two centres occupied: three, the spare one paying for the first choice", () => {
    // Moscow and St. Petersburg are occupied: all five would need six, four free centres are
    // not there; three centres cost three, so the fourth supporter pays for Moscow.
    const r = run({
      units: { ...UNITS, germany: ["A mos", "A ber", "A stp"] },
      orders: { ...THREE, turkey: ["F I Ank-Russia"], ussr: ["Revive Mos > Stp > Ros"] },
    });
    assert.deepEqual(ussrCentres(r), ["mos", "mur", "ros"]);
    assert.deepEqual(unitsOf(r, "germany"), ["A ber", "A stp"]);
    assert.deepEqual(unitsOf(r, "ussr"), ["A mos"]);
  });

  test("five supporters regain all five with Moscow occupied", () => {
    const r = run({
      orders: {
        ...THREE,
        turkey: ["F I Ank-Russia"],
        poland: ["A I War-Russia"],
        ussr: ["Revive Stp > Mos"],
      },
    });
    assert.deepEqual(ussrCentres(r), ["mos", "mur", "ros", "sib", "stp"]);
    assert.deepEqual(unitsOf(r, "germany"), ["A ber"]);
    assert.deepEqual(unitsOf(r, "ussr"), ["A stp"]);
  });

  test("a centre is judged occupied after the season's moves", () => {
    const r = run({
      orders: { ...THREE, germany: ["A Mos-Ukr"], ussr: ["Revive Mos > Stp > Ros"] },
    });
    assert.deepEqual(ussrCentres(r), ["mos", "ros", "stp"]);
    assert.deepEqual(unitsOf(r, "ussr"), ["A mos"]);
  });

  test("fails with two supporters; the supporters are disbanded all the same", () => {
    const r = run({
      orders: {
        uk: ["F I Lon-Russia"],
        france: ["A I Par-Russia"],
        ussr: ["Revive Stp > Mur > Ros"],
      },
    });
    assert.equal(result(r, "ussr", "Revive Stp > Mur > Ros"), "fails");
    assert.equal(r.next.centers?.ussr, undefined);
    assert.equal(r.next.units.ussr, undefined);
    assert.deepEqual(unitsOf(r, "uk"), ["A edi", "F ire"]);
    assert.deepEqual(unitsOf(r, "france"), ["F bri"]);
  });

  test("fails without a revival order", () => {
    const r = run({ orders: THREE });
    assert.equal(r.next.centers?.ussr, undefined);
    assert.deepEqual(unitsOf(r, "uk"), ["A edi", "F ire"]);
  });

  test("a revival order without order of preference is invalid and the insurrection fails", () => {
    const r = run({ orders: { ...THREE, ussr: ["Revive Stp, Mur, Ros"] } });
    assert.equal(result(r, "ussr", "Revive Stp, Mur, Ros"), "invalid");
    assert.equal(r.next.centers?.ussr, undefined);
    const single = run({ orders: { ...THREE, ussr: ["Revive Stp"] } });
    assert.equal(result(single, "ussr", "Revive Stp"), "invalid");
  });

  test("a revival order naming a centre that is not a home centre is invalid", () => {
    const r = run({ orders: { ...THREE, ussr: ["Revive Stp > War > Ros"] } });
    assert.equal(result(r, "ussr", "Revive Stp > War > Ros"), "invalid");
    assert.equal(r.next.centers?.ussr, undefined);
  });

  test("fails when a promised unit does not turn up", () => {
    const r = run({
      orders: {
        uk: ["F I Lon-Russia"],
        france: ["A I Par-Russia", "A I Mar-Russia"],
        ussr: ["Revive Stp > Mur > Ros"],
      },
    });
    assert.equal(result(r, "france", "A I Mar-Russia"), "invalid");
    assert.equal(result(r, "ussr", "Revive Stp > Mur > Ros"), "fails");
    assert.equal(r.next.centers?.ussr, undefined);
  });

  test("fails when the centres named cannot make three unoccupied ones", () => {
    const r = run({ orders: { ...THREE, ussr: ["Revive Mos > Stp > Mur"] } });
    assert.equal(result(r, "ussr", "Revive Mos > Stp > Mur"), "fails");
    assert.equal(r.next.centers?.ussr, undefined);
  });

  test("an insurrection for a power that has not lost its country is invalid: the unit holds", () => {
    const r = run({ orders: { uk: ["F I Lon-Turkey"] } });
    assert.equal(result(r, "uk", "F I Lon-Turkey"), "invalid");
    assert.deepEqual(unitsOf(r, "uk"), ["A edi", "F ire", "F lon"]);
  });

  test("a supporter leaves the board before the moves: its province can be entered", () => {
    const r = run({
      units: { ...UNITS, germany: ["A mos", "A ber", "A yor"] },
      orders: { ...THREE, germany: ["A Yor-Lon"] },
    });
    assert.equal(result(r, "germany", "A Yor-Lon"), "succeeds");
    assert.deepEqual(unitsOf(r, "germany"), ["A ber", "A lon", "A mos"]);
  });

  test("a fall revival leads to the adjustments, where the revived power builds", () => {
    const r = run({ phase: "F1936M", orders: { ...THREE, ussr: ["Revive Stp > Mur > Ros"] } });
    assert.equal(r.next.phase, "W1936A");
    assert.deepEqual(ussrCentres(r), ["mur", "ros", "stp"]);
    assert.deepEqual(unitsOf(r, "ussr"), ["A stp"]);
  });

  test("the classical variant does not know the order", () => {
    const r = adjudicateJson(
      {
        variant: "classical",
        phase: "S1901M",
        units: { england: ["F lon"] },
        orders: { england: ["F I Lon-Russia"] },
      },
      DATC_RULES,
    );
    if ("error" in r) assert.fail(r.error);
    assert.equal(r.orders.england?.[0]?.result, "invalid");
  });

  test("reading", () => {
    assert.deepEqual(readCommitteeOrder("F I Lon-Russia"), {
      kind: "insurrection",
      type: "F",
      province: "Lon",
      power: "Russia",
    });
    assert.equal(readCommitteeOrder("A Par - Bur"), null);
    assert.deepEqual(readCommitteeOrder("revive mos"), {
      kind: "revival",
      ok: false,
      reason:
        "gives no order of preference: write the centres from most to least wanted, separated by '>' (Revive Mos > Stp > Ros)",
    });
  });

  test("a game record plays, replays and prints an insurrection", () => {
    const start = readPosition({ phase: "S1936M", units: UNITS, centers: CENTERS }, europe1935);
    const scenario = standardScenario({ ...europe1935, start });
    const orders = new Map<PowerId, string[]>(
      Object.entries({ ...THREE, ussr: ["Revive Stp > Mur > Ros"] }).map(([p, l]) => [
        p as PowerId,
        l,
      ]),
    );
    const record = playPhase(scenario, newRecord(scenario, DATC_RULES, 1), orders);
    assert.deepEqual(sorted(record.phases[0]!.position.centers?.ussr), ["mur", "ros", "stp"]);
    assert.deepEqual(replayRecord(scenario, record), { ok: true });
    assert.match(formatHistory(scenario.variant, record), /Revive Stp > Mur > Ros/);
  });

  test("judgeInsurrections reports the outcome for the points", () => {
    const start = readPosition({ phase: "S1936M", units: UNITS, centers: CENTERS }, europe1935);
    const orders = new Map<PowerId, string[]>([
      ["uk" as PowerId, ["F I Lon-Russia", "F I Ire-Russia"]],
      ["ussr" as PowerId, ["Revive Stp > Mur > Ros"]],
    ]);
    const { outcomes } = judgeInsurrections(europe1935, start, orders, (p) => ({
      phase: p.phase,
      results: [],
      next: p,
      winner: null,
      dislodged: [],
    }));
    assert.equal(outcomes.length, 1);
    assert.equal(outcomes[0]!.revived, false);
    assert.deepEqual(
      outcomes[0]!.supporters.map((x) => x.power),
      ["uk", "uk"],
    );
    assert.match(outcomes[0]!.reason ?? "", /2 supporting units; three are needed/);
  });
  test("reclaimPlan: how many centres N supporters reclaim, given which are occupied", () => {
    const homes = ["a", "b", "c", "d", "e"] as ProvinceId[];
    const plan = (n: number, named: string, occupied: string) =>
      reclaimPlan(n, [...named] as ProvinceId[], homes, (c) => occupied.includes(c));
    const got = (n: number, named: string, occupied: string) => {
      const p = plan(n, named, occupied);
      return p.ok ? p.reclaimed.join("") : `fails (${p.best})`;
    };
    // [supporters, order of preference, occupied] -> centres reclaimed, in preference order.
    const table: [number, string, string, string][] = [
      [3, "abcde", "", "abc"],
      [3, "ab", "", "fails (2)"], // three supporters take only centres the order names
      [3, "abcde", "a", "bcd"], // no spare: the occupied first choice is passed over
      [3, "ab", "a", "fails (1)"],
      [4, "ab", "", "abcde"], // four: the whole country, named or not
      [4, "abcde", "a", "bcde"], // one occupied: the four free ones, not three
      [4, "abcde", "e", "abcd"],
      [4, "abcde", "ab", "acd"], // two occupied: three, the spare paying for the first choice
      [4, "cab", "ab", "cad"],
      [5, "abcde", "a", "abcde"], // the fifth pays for the occupied centre
      [5, "abcde", "ab", "acde"], // two occupied: four, one of them paid
      [5, "abcde", "abc", "abd"], // three, two of them paid: the order of preference decides
      [6, "abcde", "ab", "abcde"],
      [6, "abcde", "abcd", "abc"],
      [4, "abcde", "abcd", "fails (2)"],
      [9, "ab", "abcde", "abcde"],
    ];
    for (const [n, named, occupied, want] of table)
      assert.equal(
        got(n, named, occupied),
        want,
        `${n} supporters, ${named}, occupied ${occupied}`,
      );
    // More supporters never reclaim fewer centres.
    for (const occupied of ["", "a", "ab", "abc", "abcd", "abcde"]) {
      let last = 0;
      for (let n = 3; n <= 10; n++) {
        const p = plan(n, "abcde", occupied);
        const count = p.ok ? p.reclaimed.length : 0;
        assert.ok(count >= last, `${n} supporters, occupied ${occupied}: ${count} < ${last}`);
        last = count;
      }
    }
  });
});

test("a lost country is a province of its conqueror (seed 000): the conqueror holds its centres but builds only at home; the country stays the lost power's to revive", () => {
  // Germany took the USSR's last centres: they count for Germany (ownership) ...
  const winter = adjudicateJson(
    {
      variant: "europe1935",
      phase: "W1936A",
      units: { ...UNITS, germany: ["A mos"] },
      centers: CENTERS,
      orders: { germany: ["Build A Stp", "Build A Ber", "Build A Mur"] },
    },
    DATC_RULES,
  );
  if ("error" in winter) assert.fail(winter.error);
  const res = (text: string) => winter.orders.germany?.find((o) => o.text === text)?.result;
  // ... but Germany builds only in its own home centres ("It can't build units in supply
  // centres outside its home country"): Saint Petersburg and Murmansk are not made German.
  assert.equal(res("Build A Stp"), "invalid", "no German build in the conquered USSR");
  assert.equal(res("Build A Mur"), "invalid");
  assert.equal(res("Build A Ber"), "succeeds", "a build at home");
  // The renegade province is still the USSR's country: an insurrection reclaims its home
  // centres from their conqueror.
  const r = run({
    orders: {
      uk: ["F I Lon-Russia"],
      france: ["A I Par-USSR"],
      italy: ["A I Ven-USSR"],
      ussr: ["Revive Stp > Mur > Ros > Sib > Mos"],
    },
  });
  assert.deepEqual(ussrCentres(r), ["mur", "ros", "stp"], "the USSR's own centres, reclaimed");
});
