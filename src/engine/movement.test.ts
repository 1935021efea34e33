import assert from "node:assert/strict";
import { test } from "node:test";
import { adjudicateJson } from "../cli/adjudicate.ts";
import { classical } from "../variants/classical/index.ts";
import { adjudicate } from "./adjudicate.ts";
import { plainResult } from "./results.ts";
import { DATC_RULES } from "./rules.ts";
import { type PowerId, powerId } from "./types.ts";

/** Every ordering of a list (small lists only). */
function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [xs.slice()];
  return xs.flatMap((x, i) =>
    permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]),
  );
}

test("a convoy that cannot fail carries an army that cuts the support of its convoying fleet's supporter, in every order of the orders", () => {
  // F eng cannot be dislodged (1 against 1 even if F bel's support stood), so the convoy
  // holds, A lon cuts F bel's support and dislodges it with A pic's support, 2 against 1.
  const lines: [string, string][] = [
    ["austria", "A pic S A lon - bel"],
    ["austria", "F iri - eng"],
    ["england", "F bel S F eng"],
    ["germany", "A lon - bel"],
    ["italy", "F eng C A lon - bel"],
  ];
  const units = {
    austria: ["A pic", "F iri"],
    england: ["F bel"],
    germany: ["A lon"],
    italy: ["F eng"],
  };
  let seen = 0;
  for (const order of permutations(lines)) {
    const orders: Record<string, string[]> = {};
    for (const [power, text] of order) {
      orders[power] = [...(orders[power] ?? []), text];
    }
    const out = adjudicateJson(
      { variant: "classical", phase: "S1901M", units: { ...units }, orders },
      DATC_RULES,
    );
    assert.ok(!("error" in out), `no error for ${JSON.stringify(order)}`);
    if ("error" in out) return;
    const result = (power: string, text: string) =>
      out.orders[power]!.find((r) => r.text === text)!;
    assert.equal(result("germany", "A lon - bel").result, "succeeds", JSON.stringify(order));
    assert.equal(result("italy", "F eng C A lon - bel").result, "succeeds", "the convoy holds");
    assert.equal(result("england", "F bel S F eng").result, "fails", "F bel's support is cut");
    assert.deepEqual(out.next.units.germany, ["A bel"], "A lon reaches Belgium");
    assert.deepEqual(
      out.next.dislodged?.england?.map((d) => d.unit),
      ["F bel"],
      "F bel is dislodged",
    );
    seen++;
  }
  assert.equal(seen, 120, "all 120 orderings were adjudicated");
});

test("a movement phase's results word themselves when read: the same words, the same JSON as plain data, whenever read", () => {
  const variant = classical;
  const texts = new Map<PowerId, string[]>([
    [powerId("france"), ["A par - bur", "A mar S A par - bur", "F bre - mao"]],
    [powerId("germany"), ["A mun - bur", "F kie - hol"]],
    [powerId("austria"), ["A vie - tyr", "A bud - gal", "F tri - bogus"]],
  ]);
  const run = () => adjudicate(variant, variant.start, texts, DATC_RULES);
  const early = run();
  const late = run();
  // Read `late`'s words in reverse, `early`'s in order: the words never depend on when.
  const lateWords = [...late.results].reverse().map((r) => [r.reason, r.explanation]);
  lateWords.reverse();
  const plain = early.results.map(plainResult);
  assert.deepEqual(
    plain.map((r) => [r.reason, r.explanation]),
    lateWords,
    "the same words in any order of reading",
  );
  for (const [k, r] of early.results.entries()) {
    const p = plain[k]!;
    assert.deepEqual(Object.keys(p), ["power", "text", "order", "result", "reason", "explanation"]);
    assert.equal(JSON.stringify(r), JSON.stringify(p), "toJSON gives the plain result");
    assert.equal(p.reason === null, p.result === "succeeds", "a reason exactly when not succeeded");
  }
  const bur = plain.find((r) => r.text === "A par - bur")!;
  assert.equal(bur.result, "succeeds");
  assert.match(
    bur.explanation,
    /^moved with strength 2 \(supported by A mar\) against A mun - bur 1/,
  );
  const mun = plain.find((r) => r.text === "A mun - bur")!;
  assert.match(mun.reason!, /^bounced with A par - bur \(supported by A mar\): 1 against 2/);
});
