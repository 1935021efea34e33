import assert from "node:assert/strict";
import { test } from "node:test";
import { getVariant } from "../variants/registry.ts";
import { adjudicate } from "./adjudicate.ts";
import { minimalRouteSeas } from "./convoy.ts";
import { legalMovementOrders } from "./legal.ts";
import { formatOrder } from "./orders.ts";
import { parseOrder } from "./parse.ts";
import type { OrderTexts } from "./results.ts";
import { DATC_RULES, HOUSE_RULES, type RuleOptions } from "./rules.ts";
import type { Position, PowerId, ProvinceId, Unit } from "./types.ts";

/*
 * MILA's `VIA` notation, and the two DATC version 3.0 readings given as rule options:
 * unneeded convoy orders are illegal (6.G.19), and an explicit "via convoy" does not fall
 * back to the land route (6.G.8).
 */

const classical = getVariant("classical")!;

test("MILA's records: `A YOR - BEL VIA` is a move via convoy; the long forms still read", () => {
  for (const text of [
    "A YOR - BEL VIA",
    "A yor - bel via",
    "A pic - bel VIA",
    "A yor - bel via convoy",
    "A yor - bel VIA CONVOY",
    "A yor - bel by convoy",
  ]) {
    const r = parseOrder(text, classical.map, classical.powers);
    assert.ok(r.ok, `${text} reads`);
    if (!r.ok) continue;
    assert.equal(r.order.kind, "move", text);
    assert.ok(r.order.kind === "move" && r.order.viaConvoy, `${text} goes via convoy`);
  }
  const plain = parseOrder("A yor - bel", classical.map, classical.powers);
  assert.ok(plain.ok && plain.order.kind === "move" && !plain.order.viaConvoy, "no VIA, no convoy");
  const route = parseOrder("A yor - bel via nth", classical.map, classical.powers);
  assert.ok(!route.ok, "a route named after VIA is still refused where routes are not read");
});

const unit = (power: string, type: "A" | "F", province: string): Unit =>
  ({ power, type, province, coast: null }) as Unit;
const position = (units: Unit[]): Position => ({ ...classical.start, units });
const orders = (o: Record<string, string[]>): OrderTexts =>
  new Map(Object.entries(o)) as unknown as Map<PowerId, string[]>;

test("`VIA` is read as via convoy in every profile: an adjacent army is carried", () => {
  const pos = position([unit("france", "A", "pic"), unit("england", "F", "eng")]);
  for (const rules of [DATC_RULES, HOUSE_RULES, { ...DATC_RULES, convoyToAdjacent: "explicit" }]) {
    const res = adjudicate(
      classical,
      pos,
      orders({ france: ["A PIC - BEL VIA"], england: ["F eng C A pic - bel"] }),
      rules as RuleOptions,
    );
    const move = res.results.find((r) => r.power === "france")!;
    assert.equal(move.result, "succeeds", "the army moves");
    assert.match(move.explanation, /moved by convoy/, "by convoy");
  }
});

test("DATC 6.G.19: the seas some convoy route needs; a fleet no route needs may not convoy under `unneededConvoy: illegal`", () => {
  const seas = (a: string, b: string) =>
    [...minimalRouteSeas(classical.map, a as ProvinceId, b as ProvinceId)].map(String).sort();
  assert.deepEqual(seas("mar", "spa"), ["lyo"], "Marseilles to Spain needs only the Gulf of Lyon");
  assert.deepEqual(seas("pic", "wal"), ["eng"], "Picardy to Wales needs only the Channel");
  assert.ok(seas("lon", "nwy").includes("nth"), "London to Norway goes through the North Sea");
  assert.ok(!seas("lon", "bel").includes("nwg"), "the Norwegian Sea is never needed for Belgium");

  const pos = position([
    unit("france", "A", "mar"),
    unit("france", "F", "wes"),
    unit("italy", "F", "lyo"),
    unit("italy", "A", "spa"),
  ]);
  const strict = { ...DATC_RULES, unneededConvoy: "illegal" } as RuleOptions;
  const offered = (rules: RuleOptions, p: string) =>
    legalMovementOrders(classical, pos, rules)
      .get(p as ProvinceId)!
      .map(formatOrder)
      .filter((t) => t.includes(" C "));
  assert.ok(offered(DATC_RULES, "wes").includes("F wes C A mar - spa"), "legal by default (2.4)");
  assert.ok(!offered(strict, "wes").includes("F wes C A mar - spa"), "not offered when illegal");
  assert.ok(offered(strict, "wes").includes("F wes C A mar - tun"), "where it is needed, it is");
  assert.ok(offered(strict, "lyo").includes("F lyo C A mar - spa"), "the needed fleet is offered");

  const given = orders({
    france: ["A mar - spa", "F wes C A mar - spa"],
    italy: ["F lyo C A mar - spa", "A spa - mar"],
  });
  const res = adjudicate(classical, pos, given, strict);
  const wes = res.results.find((r) => r.text === "F wes C A mar - spa")!;
  assert.equal(wes.result, "invalid", "the unneeded convoy is illegal");
  assert.match(wes.reason ?? "", /needs a fleet in/, "and says why");
  for (const t of ["A mar - spa", "A spa - mar"]) {
    assert.equal(res.results.find((r) => r.text === t)!.result, "fails", `${t}: head to head`);
  }
  const swap = adjudicate(classical, pos, given, DATC_RULES);
  assert.equal(
    swap.results.find((r) => r.text === "A mar - spa")!.result,
    "succeeds",
    "by default France's fleet shows intent and the armies swap",
  );
});

test("DATC 6.G.8: with `viaConvoyFallback: none` an army ordered via convoy with no convoy stays, saying why", () => {
  const pos = position([
    unit("france", "A", "bel"),
    unit("england", "F", "nth"),
    unit("england", "A", "hol"),
  ]);
  const given = orders({
    france: ["A bel - hol via convoy"],
    england: ["F nth - hel", "A hol - kie"],
  });
  const none = adjudicate(classical, pos, given, { ...DATC_RULES, viaConvoyFallback: "none" });
  const bel = none.results.find((r) => r.power === "france")!;
  assert.equal(bel.result, "fails", "no fall back to the land route");
  assert.match(bel.reason ?? "", /^no convoy: no fleet was ordered to convoy it/);
  const land = adjudicate(classical, pos, given, DATC_RULES);
  assert.equal(land.results.find((r) => r.power === "france")!.result, "succeeds", "2.4: by land");
});
