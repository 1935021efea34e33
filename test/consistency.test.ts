import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { adjudicate } from "../src/engine/adjudicate.ts";
import type { OrderResult, PhaseResult } from "../src/engine/results.ts";
import { DATC_RULES, type RuleOptions } from "../src/engine/rules.ts";
import { biasedCases, scenario } from "./biased.ts";

/*
 * Every result explains itself, and the explanations agree with each other: an order that
 * did not succeed names a real cause (never a bare "failed"); a convoy that carried its army
 * means the army was not stopped by a broken convoy; a cut support names its cutters, and
 * each really moved against the supporter (another power's unit, its convoy holding); a
 * dislodged unit names the move that dislodged it, and that move succeeded into its province.
 */

/** `A lon - bel` in a reason: a move the resolver described. */
const MOVE = /([AF]) ([^\s,;:()]+) - ([^\s,;:()]+)/g;
const CONVOY_TROUBLE = /^(no convoy|convoy disrupted|convoy paradox)/;

function check(res: PhaseResult): void {
  const byUnit = new Map<string, OrderResult>();
  for (const r of res.results) {
    if (r.order && r.order.kind !== "waive" && r.result !== "invalid")
      byUnit.set(r.order.unit.province, r);
  }
  const moveFrom = (from: string): OrderResult | undefined => {
    const r = byUnit.get(from);
    return r?.order?.kind === "move" ? r : undefined;
  };
  for (const r of res.results) {
    const what = `${r.power}: ${r.text ?? "(no order)"}`;
    if (r.result === "succeeds") {
      assert.equal(r.reason, null, `${what}: a success has no reason`);
      const carried = /^carried the army from (\S+) to (\S+)$/.exec(r.explanation);
      if (carried) {
        const army = moveFrom(carried[1]!);
        assert.ok(army, `${what}: the army it carried is ordered to move`);
        assert.equal(army.order?.kind === "move" && army.order.to.province, carried[2]);
        assert.ok(
          army.result === "succeeds" || !CONVOY_TROUBLE.test(army.reason ?? ""),
          `${what} carried the army, yet the army says: ${army.reason}`,
        );
      }
      continue;
    }
    const reason = r.reason ?? "";
    assert.ok(reason.length > 0, `${what}: an unsuccessful order has a reason`);
    assert.ok(!/^failed\b/.test(reason), `${what}: "${reason}" names no cause`);
    assert.ok(!reason.includes("resolver error"), `${what}: ${reason}`);
    const lost = /^convoy disrupted: the convoying fleets? (.*) (was|were) dislodged/.exec(reason);
    if (lost) {
      for (const [text, , from] of lost[1]!.matchAll(/([AF]) ([^\s,;:()]+)/g)) {
        const fleet = byUnit.get(from!);
        assert.ok(fleet?.order?.kind === "convoy", `${what}: ${text} convoyed it`);
        assert.ok(
          res.dislodged.some((d) => d.unit.province === from),
          `${what}: ${text} was dislodged`,
        );
      }
    }
    const unit = r.order && r.order.kind !== "waive" ? r.order.unit : null;
    const cut = /^support cut by (.*)$/.exec(reason);
    if (cut && unit) {
      const cutters = [...cut[1]!.matchAll(MOVE)];
      assert.ok(cutters.length > 0, `${what}: "${reason}" names its cutter`);
      for (const [text, , from, to] of cutters) {
        const m = moveFrom(from!);
        assert.ok(m, `${what}: its cutter ${text} was ordered to move`);
        assert.equal(to, unit.province, `${what}: its cutter ${text} moved against it`);
        assert.notEqual(m.power, r.power, `${what}: its cutter ${text} is another power's`);
        assert.ok(
          m.result === "succeeds" || !CONVOY_TROUBLE.test(m.reason ?? ""),
          `${what}: its cutter ${text} failed by its convoy (${m.reason})`,
        );
      }
    }
    const dislodged = /dislodged by ([AF] [^\s,;:()]+ - [^\s,;:()]+)/.exec(reason);
    if (dislodged && unit) {
      const [[, , from, to]] = [...dislodged[1]!.matchAll(MOVE)] as [RegExpExecArray];
      const m = moveFrom(from!);
      assert.ok(m && m.result === "succeeds", `${what}: ${dislodged[1]} succeeded`);
      assert.equal(to, unit.province, `${what}: ${dislodged[1]} went into its province`);
    }
  }
  for (const { unit } of res.dislodged) {
    const r = byUnit.get(unit.province);
    if (!r) continue;
    assert.match(
      r.reason ?? "",
      new RegExp(`dislodged by [AF] ${unit.attackerFrom} - ${unit.province}\\b`),
      `${r.power}: ${r.text}: the dislodged unit names its dislodger`,
    );
  }
}

const CASES: { variant: string; rules: RuleOptions; runs: number }[] = [
  { variant: "classical", rules: DATC_RULES, runs: 30 },
  { variant: "classical", rules: { ...DATC_RULES, convoyParadox: "all-hold" }, runs: 20 },
  { variant: "classical", rules: { ...DATC_RULES, convoyParadox: "alternative-c" }, runs: 20 },
  { variant: "europe1935", rules: DATC_RULES, runs: 12 },
];

for (const { variant, rules, runs } of CASES) {
  test(`every result names a real cause and agrees with the others (${variant}, convoyParadox ${rules.convoyParadox})`, () => {
    const sc = scenario(variant);
    fc.assert(
      fc.property(biasedCases(sc, rules), ({ position, orders }) => {
        check(adjudicate(sc.variant, position, orders, rules));
      }),
      { numRuns: runs, seed: 20261125 },
    );
  });
}

test("the issue's reproduction explains itself: the army cuts the support and dislodges the supporter", () => {
  const sc = scenario("classical");
  const pos = {
    ...sc.variant.start,
    units: [
      { power: "austria", type: "A", province: "pic", coast: null },
      { power: "austria", type: "F", province: "iri", coast: null },
      { power: "england", type: "F", province: "bel", coast: null },
      { power: "germany", type: "A", province: "lon", coast: null },
      { power: "italy", type: "F", province: "eng", coast: null },
    ],
  } as unknown as Parameters<typeof adjudicate>[1];
  const orders = new Map([
    ["austria", ["A pic S A lon - bel", "F iri - eng"]],
    ["england", ["F bel S F eng"]],
    ["germany", ["A lon - bel"]],
    ["italy", ["F eng C A lon - bel"]],
  ]) as unknown as Parameters<typeof adjudicate>[2];
  const res = adjudicate(sc.variant, pos, orders, DATC_RULES);
  check(res);
  const bel = res.results.find((r) => r.text === "F bel S F eng")!;
  assert.match(bel.reason ?? "", /dislodged by A lon - bel/, "F bel names its dislodger");
});
