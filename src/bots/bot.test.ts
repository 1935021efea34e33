import assert from "node:assert/strict";
import { test } from "node:test";
import { adjudicate } from "../engine/adjudicate.ts";
import { DATC_RULES } from "../engine/rules.ts";
import { standardScenario } from "../engine/scenario.ts";
import { type PowerId, powerId } from "../engine/types.ts";
import { getVariant } from "../variants/registry.ts";
import { holdBot, randomBot } from "./bot.ts";

const variant = getVariant("classical")!;
const scenario = standardScenario(variant);
const input = (power: PowerId | string, seed = 1) => ({
  scenario,
  rules: DATC_RULES,
  position: variant.start,
  power: powerId(power),
  seed,
});

test("the hold player holds each of its own units and nobody else's", () => {
  assert.deepEqual(holdBot.orders(input("england")).sort(), ["A lvp H", "F edi H", "F lon H"]);
});

test("the random player gives each of its units one legal order, the same for the same seed", () => {
  for (const power of variant.powers.map((p) => p.id)) {
    const orders = randomBot.orders(input(power, 7));
    const mine = variant.start.units.filter((u) => u.power === power).length;
    assert.equal(orders.length, mine, `${power}: one order per unit`);
    assert.deepEqual(randomBot.orders(input(power, 7)), orders, "reproducible");
    const r = adjudicate(variant, variant.start, new Map([[power, orders]]), DATC_RULES);
    for (const x of r.results.filter((x) => x.power === power))
      assert.notEqual(x.result, "invalid", `${power}: ${x.text} is legal`);
  }
});
