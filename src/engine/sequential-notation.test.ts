import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { adjudicateJson } from "../cli/adjudicate.ts";
import { getVariant } from "../variants/registry.ts";
import { getScenario } from "../variants/scenarios.ts";
import { adjudicate } from "./adjudicate.ts";
import { parseOrder } from "./parse.ts";
import type { ResultJson } from "./position-json.ts";
import { rng } from "./random.ts";
import { DATC_RULES, type RuleOptions } from "./rules.ts";
import { randomTexts } from "./sequential.fixture.ts";
import { hideSchedule } from "./sequential-schedule.ts";
import { movementPositions } from "./testing.ts";

/*
 * Seed 003's own notation, `A(Rum) S A(Vie in Gal)`, read by the order parser; and what a
 * judge shows players of a sequential season's results (`hideSchedule`: no slots).
 */

const classical = getVariant("classical")!;

function parsed(text: string) {
  const r = parseOrder(text, classical.map, classical.powers);
  if (!r.ok) assert.fail(`${JSON.stringify(text)} did not parse: ${r.error.message}`);
  return r.order;
}

describe("the seed's parenthesised notation", () => {
  test("reads as the same order as the plain notation", () => {
    const pairs: [string, string][] = [
      ["A(Rum) S A(Vie in Gal)", "A rum S A vie in gal"],
      ["A(Par) S A(Mar)-Bur", "A par S A mar - bur"],
      ["A(Bud) S A(Vie)-Gal", "A bud S A vie - gal"],
      ["A(Ruh) S A(Mun)-Bur", "A ruh S A mun - bur"],
      ["A(Vie)-Gal", "A vie - gal"],
      ["A (Vie) - Gal", "A vie - gal"],
      ["Army(Paris) - Burgundy", "A par - bur"],
      ["F(Nth) C A(Lon)-Nwy", "F nth C A lon - nwy"],
      ["F(StP(sc)) - Bot", "F stp/sc - bot"],
      ["F(StP/sc) - Bot", "F stp/sc - bot"],
      ["German A(Mun) - Bur", "German A mun - bur"],
      ["A(Rum) S A(Vie) in Gal", "A rum S A vie in gal"],
      ["A(Gal) H", "A gal H"],
    ];
    for (const [seed, plain] of pairs) {
      assert.deepEqual(parsed(seed), parsed(plain), `${seed} reads as ${plain}`);
    }
  });

  test("the retrospective form is marked as such", () => {
    const o = parsed("A(Rum) S A(Vie in Gal)");
    assert.equal(o.kind, "support", "a support");
    assert.equal(o.kind === "support" && o.arrived, true, "of a unit that arrived");
  });

  test("coasts in parentheses are still coasts", () => {
    assert.deepEqual(parsed("F StP(sc) - Bot"), parsed("F stp/sc - bot"), "StP(sc)");
    assert.deepEqual(parsed("F Spa (nc) - Por"), parsed("F spa/nc - por"), "Spa (nc)");
    const r = parseOrder("F (nc) - Por", classical.map, classical.powers);
    assert.equal(r.ok, false, "a coast alone is no unit");
  });

  test("an unclosed parenthesis says what to write", () => {
    const r = parseOrder("A(Rum S A(Vie in Gal)", classical.map, classical.powers);
    assert.equal(r.ok, false, "refused");
    assert.match(
      r.ok ? "" : r.error.message,
      /missing "\)" after "A\(Rum": write the unit as "A\(Rum\)" or without parentheses/,
      "the message",
    );
  });

  function run(units: Record<string, string[]>, orders: Record<string, string[]>, rules: object) {
    const out = adjudicateJson(
      { variant: "classical", phase: "S1901M", units, orders, rules },
      DATC_RULES,
    );
    if ("error" in out) throw new Error(out.error);
    return out;
  }

  const outcomes = (r: ResultJson) =>
    Object.fromEntries(Object.entries(r.orders).map(([p, l]) => [p, l.map((o) => o.result)]));

  test("the seed's examples written its way come out as written", () => {
    const seven = ["austria", "england", "france", "germany", "italy", "russia", "turkey"];
    // Rule 5: France first, then Germany dislodges the French army in Burgundy.
    const schedule = [
      "france",
      "germany",
      ...seven.filter((p) => p !== "france" && p !== "germany"),
    ];
    const units = { france: ["A mar", "A par"], germany: ["A mun", "A ruh"] };
    const r = run(
      units,
      {
        france: ["A(Mar)-Bur", "A(Par) S A(Mar)-Bur"],
        germany: ["A(Mun)-Bur", "A(Ruh) S A(Mun)-Bur"],
      },
      { movement: "sequential", schedule },
    );
    assert.deepEqual(
      r.next.dislodged,
      { france: [{ unit: "A bur", from: "mun", viaConvoy: false }] },
      "French A bur dislodged",
    );
    // Rule 4: Austria dislodges the Russian army in Galicia, and A(Rum) S A(Vie in Gal)
    // then holds it against Russia's counter-attack.
    const austriaFirst = ["austria", ...seven.filter((p) => p !== "austria")];
    const galicia = run(
      { austria: ["A vie", "A bud", "A rum"], russia: ["A gal", "A war", "A ukr"] },
      {
        austria: ["A(Vie)-Gal", "A(Bud) S A(Vie)-Gal", "A(Rum) S A(Vie in Gal)"],
        russia: ["A(War) S A(Ukr)-Gal", "A(Ukr)-Gal"],
      },
      { movement: "sequential", schedule: austriaFirst },
    );
    const plain = run(
      { austria: ["A vie", "A bud", "A rum"], russia: ["A gal", "A war", "A ukr"] },
      {
        austria: ["A vie - gal", "A bud S A vie - gal", "A rum S A vie in gal"],
        russia: ["A war S A ukr - gal", "A ukr - gal"],
      },
      { movement: "sequential", schedule: austriaFirst },
    );
    assert.deepEqual(outcomes(galicia), outcomes(plain), "same outcomes either way");
    assert.deepEqual(galicia.next, plain.next, "same next position either way");
    assert.deepEqual(
      [...(galicia.next.units.austria ?? [])].sort(),
      ["A bud", "A gal", "A rum"],
      "Austria holds Galicia",
    );
    const ukr = galicia.orders.russia!.find((o) => o.text === "A(Ukr)-Gal");
    assert.equal(ukr?.result, "fails", "Russia's attack fails against the retrospective support");
    assert.deepEqual(
      galicia.next.dislodged,
      { russia: [{ unit: "A gal", from: "vie", viaConvoy: false }] },
      "the Russian army in Galicia was dislodged",
    );
  });
});

describe("what players are shown of a sequential season", () => {
  test("the Burgundy example without its slots", () => {
    const seven = ["france", "germany", "austria", "england", "italy", "russia", "turkey"];
    const out = adjudicateJson(
      {
        variant: "classical",
        phase: "S1901M",
        units: { france: ["A mar", "A par"], germany: ["A mun", "A ruh"] },
        orders: {
          france: ["A mar - bur", "A par S A mar - bur"],
          germany: ["A mun - bur", "A ruh S A mun - bur"],
        },
        rules: { movement: "sequential", schedule: seven },
      },
      DATC_RULES,
    );
    if ("error" in out) throw new Error(out.error);
    const mar = out.orders.france!.find((o) => o.text === "A mar - bur")!;
    assert.match(mar.explanation ?? "", /slot 1 of 7/, "the GM's text names the slot");
    assert.equal(
      hideSchedule(mar.explanation ?? ""),
      "moved with strength 2 (supported by A par) unopposed; then dislodged from bur by A mun - bur",
      "the players' text does not",
    );
  });

  test("every phrase that names a slot: a hold dislodged later, a cut standing support, a disbanded unit", () => {
    const seven = ["austria", "england", "france", "germany", "italy", "russia", "turkey"];
    const first = (...p: string[]) => [...p, ...seven.filter((x) => !p.includes(x))];
    const shown = (
      units: Record<string, string[]>,
      orders: Record<string, string[]>,
      schedule: string[],
    ) => {
      const out = adjudicateJson(
        {
          variant: "classical",
          phase: "S1901M",
          units,
          orders,
          rules: { movement: "sequential", schedule },
        },
        DATC_RULES,
      );
      if ("error" in out) throw new Error(out.error);
      const texts = new Map<string, string>();
      for (const list of Object.values(out.orders)) {
        for (const o of list) {
          assert.match(o.explanation ?? "", /slot \d of 7/, `${o.text}: the GM's text has a slot`);
          texts.set(o.text ?? "", hideSchedule(o.explanation ?? ""));
        }
      }
      return texts;
    };
    const burgundy = shown(
      { france: ["A bur", "A mar"], germany: ["A mun", "A ruh"], italy: ["A pie"] },
      {
        france: ["A bur H", "A mar S A bur"],
        italy: ["A pie - mar"],
        germany: ["A mun - bur", "A ruh S A mun - bur"],
      },
      first("france", "italy", "germany"),
    );
    assert.equal(burgundy.get("A bur H"), "dislodged by A mun - bur", "a hold dislodged later");
    assert.equal(
      burgundy.get("A mar S A bur"),
      "support given, then support cut by A pie - mar",
      "a standing support cut",
    );
    const galicia = shown(
      { austria: ["A vie", "A bud"], russia: ["A gal", "A war", "A ukr"] },
      {
        austria: ["A vie - gal", "A bud S A vie - gal"],
        russia: ["A gal H", "A war - gal", "A ukr S A war - gal"],
      },
      first("austria", "russia"),
    );
    assert.equal(
      galicia.get("A gal H"),
      "dislodged by A vie - gal, before its own turn",
      "a unit dislodged before its turn (it retreats, as the Austrian army dislodged after it does)",
    );
    // Three dislodgements in Galicia: Russia's army, Austria's, then the Russian army that
    // retook it. Russia's retreat orders could not tell its two apart: the first is disbanded.
    const thrice = shown(
      {
        austria: ["A vie", "A bud"],
        russia: ["A gal", "A war", "A ukr"],
        germany: ["A sil", "A boh"],
      },
      {
        austria: ["A vie - gal", "A bud S A vie - gal"],
        russia: ["A gal H", "A war - gal", "A ukr S A war - gal"],
        germany: ["A sil - gal", "A boh S A sil - gal"],
      },
      first("austria", "russia", "germany"),
    );
    assert.equal(
      thrice.get("A gal H"),
      "dislodged by A vie - gal, before its own turn; it is disbanded: another unit of its power was dislodged from gal later in the season, by A sil - gal, and retreat orders name a power's dislodged unit by its province",
      "a unit dislodged before its turn, then disbanded",
    );
    for (const t of [...burgundy.values(), ...galicia.values(), ...thrice.values()]) {
      assert.doesNotMatch(t, /slot|'s orders/, `no slot in ${t}`);
    }
  });

  test("no result of any sequential or simultaneous season tells the schedule", () => {
    const scenario = getScenario("classical")!;
    const v = scenario.variant;
    const positions = movementPositions(scenario, 5, 1905);
    const ids = v.powers.map((p) => p.id);
    const r = rng(17);
    let texts = 0;
    for (let k = 0; k < 60; k++) {
      const pos = positions[k % positions.length]!;
      const orders = randomTexts(v, pos, r);
      const a = r.pick(ids);
      const b = r.pick(ids.filter((p) => p !== a));
      const rules: RuleOptions = {
        ...DATC_RULES,
        movement: "sequential",
        scheduleSeed: k,
        contracts: [[a, b]],
        ...(k % 5 === 0 ? { schedule: "simultaneous" as const } : {}),
      };
      for (const res of adjudicate(v, pos, orders, rules).results) {
        for (const t of [res.reason, res.explanation]) {
          if (!t) continue;
          texts++;
          const shown = hideSchedule(t);
          assert.doesNotMatch(
            shown,
            /slot|schedule|simultaneous|'s orders|under contract|turn in/,
            `${t} -> ${shown}`,
          );
          assert.ok(shown.trim().length > 0 || t.trim().length === 0, `nothing left of ${t}`);
          assert.doesNotMatch(
            shown,
            /(were|in|by|from)\s*(;|,|$)|; ;|\s{2}|^;/,
            `dangling: ${shown}`,
          );
        }
      }
    }
    assert.ok(texts > 500, `texts checked: ${texts}`);
  });
});
