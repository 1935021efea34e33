import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classical } from "../variants/classical/index.ts";
import { getScenario } from "../variants/scenarios.ts";
import { adjudicate } from "./adjudicate.ts";
import { adjustmentCounts } from "./adjustments.ts";
import { seaRoute } from "./convoy.ts";
import { legalMovementOrders } from "./legal.ts";
import { legalAdjustmentOrders } from "./legal-adjustments.ts";
import { legalRetreatOrders } from "./legal-retreats.ts";
import { formatOrder, type Order } from "./orders.ts";
import { rng } from "./random.ts";
import { retreatOptions } from "./retreats.ts";
import { DATC_RULES } from "./rules.ts";
import { dislodgedKey, type Position, type PowerId, type ProvinceId, type Unit } from "./types.ts";
import type { Variant } from "./variant.ts";

const variant = classical;
const map = variant.map;
const rules = DATC_RULES;
const start = variant.start;

/** The engine's seeded generator (mulberry32), as a plain function. */
const mulberry32 = (seed: number): (() => number) => {
  const r = rng(seed);
  return () => r.next();
};

const pick = <T>(rand: () => number, list: readonly T[]): T =>
  list[Math.floor(rand() * list.length)]!;

function shuffled<T>(rand: () => number, list: readonly T[]): T[] {
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

function addText(orders: Map<PowerId, string[]>, power: PowerId, text: string): void {
  const list = orders.get(power);
  if (list) list.push(text);
  else orders.set(power, [text]);
}

/** Random legal orders for every unit / power of the position, as text per power. */
function randomOrders(
  rand: () => number,
  pos: Position,
  variant: Variant = classical,
): Map<PowerId, string[]> {
  const orders = new Map<PowerId, string[]>();
  if (pos.phase.type === "M") {
    for (const list of legalMovementOrders(variant, pos, rules).values()) {
      // Moves more often than their share, so that games go somewhere.
      const r = rand();
      const kind = r < 0.55 ? "move" : r < 0.65 ? "hold" : r < 0.9 ? "support" : "convoy";
      const some = list.filter((o) => o.kind === kind);
      const o = pick(rand, some.length > 0 ? some : list);
      addText(orders, o.unit.power, formatOrder(o));
    }
  } else if (pos.phase.type === "R") {
    for (const list of legalRetreatOrders(variant, pos, rules).values()) {
      const o = pick(rand, list);
      if (o.kind !== "waive") addText(orders, o.unit.power, formatOrder(o));
    }
  } else {
    for (const [power, { count, orders: list }] of legalAdjustmentOrders(variant, pos, rules)) {
      for (const o of shuffled(rand, list).slice(0, count)) addText(orders, power, formatOrder(o));
    }
  }
  return orders;
}

/**
 * `count` positions met in random games from the start (restarting now and then): every
 * retreat phase met, a third of the others, so that retreats are not too rare.
 */
function randomPositions(seed: number, count: number, variant: Variant = classical): Position[] {
  const rand = mulberry32(seed);
  const out: Position[] = [];
  const start = variant.start;
  let pos = start;
  while (out.length < count) {
    const res = adjudicate(variant, pos, randomOrders(rand, pos, variant), rules);
    pos = res.next;
    if (res.winner !== null || pos.phase.year > start.phase.year + 24) pos = start;
    if (pos.phase.type === "R" || rand() < 1 / 3) out.push(pos);
  }
  return out;
}

const has = (list: readonly string[], ...texts: string[]) => {
  for (const text of texts) assert.equal(list.includes(text), true, `${text} is missing`);
};
const lacks = (list: readonly string[], ...texts: string[]) => {
  for (const text of texts) assert.equal(list.includes(text), false, `${text} is there`);
};

const sortedTexts = (orders: readonly Order[]): string[] => orders.map(formatOrder).sort();

/** Adjudicates one order as text for its power; its result. */
function judgeOne(pos: Position, power: PowerId, text: string, variant: Variant = classical) {
  const res = adjudicate(variant, pos, new Map([[power, [text]]]), rules);
  const r = res.results.find((x) => x.text === text);
  assert.ok(r, `no result for ${text}`);
  return r;
}

/**
 * Feeds every generated order back to `adjudicate` as text, many units' orders per call (one
 * order per unit per call, so that no unit is ordered twice), and checks each is understood
 * as the same order and not declared invalid. Returns how many orders were checked.
 */
function roundTrip(pos: Position, variant: Variant = classical): number {
  const lists: { power: PowerId; orders: readonly Order[] }[] = [];
  if (pos.phase.type === "M") {
    for (const l of legalMovementOrders(variant, pos, rules).values())
      lists.push({ power: l[0]!.unit.power, orders: l });
  } else if (pos.phase.type === "R") {
    for (const l of legalRetreatOrders(variant, pos, rules).values()) {
      const o = l[0]!;
      if (o.kind === "waive") assert.fail("a waive in a retreat phase");
      lists.push({ power: o.unit.power, orders: l });
    }
  } else {
    // Adjustment orders do not void each other: all of a power's go in at once.
    for (const [power, { orders }] of legalAdjustmentOrders(variant, pos, rules)) {
      lists.push(...orders.map((o) => ({ power, orders: [o] })));
    }
  }
  const rounds = Math.max(0, ...lists.map((l) => l.orders.length));
  let checked = 0;
  for (let k = 0; k < rounds; k++) {
    const texts = new Map<PowerId, string[]>();
    const expected = new Map<string, Order>();
    for (const { power, orders } of lists) {
      const o = orders[k];
      if (!o) continue;
      const text = formatOrder(o);
      addText(texts, power, text);
      assert.ok(!expected.has(`${power} ${text}`), `duplicate ${text}`);
      expected.set(`${power} ${text}`, o);
    }
    const res = adjudicate(variant, pos, texts, rules);
    for (const r of res.results) {
      if (r.text === null) continue;
      const o = expected.get(`${r.power} ${r.text}`);
      assert.ok(o, `unexpected result for ${r.text}`);
      assert.notEqual(r.result, "invalid", `${r.text}: ${r.reason}`);
      assert.deepEqual(r.order, o, r.text);
      checked++;
    }
    assert.equal(res.results.filter((r) => r.text !== null).length, expected.size);
  }
  return checked;
}

const positions = randomPositions(20240601, 200);
/** Those of `positions` in a phase of this type. */
const positionsIn = (type: Position["phase"]["type"]) =>
  positions.filter((p) => p.phase.type === type);

describe("legalMovementOrders on the classical start", () => {
  const legal = legalMovementOrders(variant, start, rules);
  const textsOf = (p: string) => (legal.get(p as ProvinceId) ?? []).map(formatOrder);

  test("one list per unit, each starting with hold", () => {
    assert.equal(legal.size, 22);
    for (const u of start.units) {
      const list = legal.get(u.province)!;
      assert.deepEqual(list[0], { kind: "hold", unit: u });
      assert.ok(list.length >= 6 && list.length <= 20, `${u.province}: ${list.length}`);
    }
  });

  /** A unit's whole list at the start: the test's name, its province, its orders sorted. */
  const lists: [name: string, province: string, orders: string[]][] = [
    [
      "A par: hold, 4 moves, 1 support to hold, 5 supports to move",
      "par",
      [
        "A par - bre",
        "A par - bur",
        "A par - gas",
        "A par - pic",
        "A par H",
        "A par S A mar - bur",
        "A par S A mar - gas",
        "A par S A mun - bur",
        "A par S F bre",
        "A par S F bre - gas",
        "A par S F bre - pic",
      ],
    ],
    [
      "F lon: hold, 4 moves, 5 supports to move",
      "lon",
      [
        "F lon - eng",
        "F lon - nth",
        "F lon - wal",
        "F lon - yor",
        "F lon H",
        "F lon S A lvp - wal",
        "F lon S A lvp - yor",
        "F lon S F bre - eng",
        "F lon S F edi - nth",
        "F lon S F edi - yor",
      ],
    ],
    [
      "F kie: hold, 5 moves, S A ber, S A mun - ber",
      "kie",
      [
        "F kie - bal",
        "F kie - ber",
        "F kie - den",
        "F kie - hel",
        "F kie - hol",
        "F kie H",
        "F kie S A ber",
        "F kie S A mun - ber",
      ],
    ],
  ];
  for (const [name, province, orders] of lists) {
    test(name, () => {
      assert.deepEqual(textsOf(province).sort(), orders);
    });
  }

  test("A lvp: hold, 4 moves, 1 support to hold, 4 supports to move", () => {
    assert.equal(textsOf("lvp").length, 10);
    assert.deepEqual(
      textsOf("lvp").filter((t) => t.includes(" S ")),
      [
        "A lvp S F edi",
        "A lvp S F edi - cly",
        "A lvp S F lon - wal",
        "A lvp S F lon - yor",
        "A lvp S F edi - yor",
      ],
    );
  });

  test("F stp/sc moves to bot, fin, lvn and nowhere else", () => {
    const moves = legal.get("stp" as ProvinceId)!.filter((o) => o.kind === "move");
    assert.deepEqual(
      moves.map((o) => (o.kind === "move" ? `${o.to.province}/${o.to.coast}` : "")).sort(),
      ["bot/null", "fin/null", "lvn/null"],
    );
    assert.equal(legal.get("stp" as ProvinceId)!.length, 6);
  });

  test("no convoys and no convoyed moves at the start (no fleet at sea)", () => {
    for (const list of legal.values()) {
      for (const o of list) {
        assert.notEqual(o.kind, "convoy");
        if (o.kind === "move") assert.equal(o.viaConvoy, false);
      }
    }
  });

  test("total orders at the start", () => {
    let total = 0;
    for (const l of legal.values()) total += l.length;
    assert.equal(total, 238);
  });
});

const u = (power: string, type: "A" | "F", province: string): Unit => ({
  power: power as PowerId,
  type,
  province: province as ProvinceId,
  coast: null,
});

/** Two English fleets at sea (eng, nth), armies on the coasts around them. */
const convoyPosition: Position = {
  ...start,
  units: [
    u("england", "A", "lon"),
    u("england", "F", "nth"),
    u("england", "F", "eng"),
    u("france", "A", "bre"),
    u("france", "A", "pic"),
  ],
};

describe("convoys", () => {
  const pos = convoyPosition;
  const legal = legalMovementOrders(variant, pos, rules);
  const texts = (p: string) => legal.get(p as ProvinceId)!.map(formatOrder);

  test("armies move by the fleets' chain, and both ways where also adjacent", () => {
    const lon = texts("lon").filter((t) => t.startsWith("A lon - "));
    // Land neighbours: wal, yor. By sea through eng + nth: every coast those touch.
    has(lon, "A lon - wal", "A lon - wal via convoy", "A lon - bel", "A lon - nwy", "A lon - bre");
    lacks(lon, "A lon - bel via convoy", "A lon - spa");
    has(texts("bre"), "A bre - pic via convoy", "A bre - lon");
  });

  test("a fleet convoys each army its group of seas joins to each coast it touches", () => {
    const nth = texts("nth").filter((t) => t.includes(" C "));
    has(nth, "F nth C A lon - bel", "F nth C A bre - nwy", "F nth C A pic - wal");
    lacks(nth, "F nth C A lon - lon");
    // Coasts of eng + nth: bel bre den edi hol lon nwy pic wal yor.
    const coasts = 10;
    assert.equal(nth.length, 3 * (coasts - 1));
    assert.deepEqual(
      texts("eng")
        .filter((t) => t.includes(" C "))
        .sort(),
      [...nth].map((t) => t.replace("F nth", "F eng")).sort(),
    );
  });

  test("supports of convoyed moves", () => {
    has(texts("eng"), "F eng S A lon - bel");
    has(texts("nth"), "F nth S A bre - nwy");
    lacks(texts("eng"), "F eng S A lon - eng");
  });
});

describe("round trip through adjudicate", () => {
  test("the start position", () => {
    assert.equal(roundTrip(start), 238);
  });

  test("200 random positions (movement, retreat, adjustment)", () => {
    const phases = { M: 0, R: 0, A: 0 };
    let checked = 0;
    for (const pos of positions) {
      phases[pos.phase.type]++;
      checked += roundTrip(pos);
    }
    assert.ok(phases.M > 80 && phases.R > 10 && phases.A > 5, JSON.stringify(phases));
    assert.ok(checked > 20000, `${checked}`);
  });

  test("retreats agree with retreatOptions", () => {
    let n = 0;
    for (const pos of positionsIn("R")) {
      const legal = legalRetreatOrders(variant, pos, rules);
      assert.equal(legal.size, pos.dislodged.length);
      for (const d of pos.dislodged) {
        const got = legal.get(dislodgedKey(d))!;
        const plain = { power: d.power, type: d.type, province: d.province, coast: d.coast };
        assert.deepEqual(got[got.length - 1], { kind: "disband", unit: plain }, "disband last");
        const options = retreatOptions(variant, pos, d, rules);
        assert.deepEqual(
          sortedTexts(got.slice(0, -1)),
          sortedTexts(options.map((to) => ({ kind: "retreat", unit: d, to }))),
        );
        n++;
      }
    }
    assert.ok(n > 5, `only ${n}`);
  });
});

describe("completeness: brute force over what adjudicate accepts", () => {
  const coastsOf = (p: ProvinceId): string[] => [p, ...map.get(p).coasts.map((c) => `${p}/${c}`)];
  const unitText = (u: Unit) => `${u.type} ${u.coast ? `${u.province}/${u.coast}` : u.province}`;

  /** Every order adjudicate accepts for this unit, narrowed as legal.ts narrows them. */
  function bruteMovement(pos: Position, unit: Unit, variant: Variant = classical): Order[] {
    const fleetSeas = new Set(
      pos.units
        .filter((x) => x.type === "F" && map.get(x.province).kind === "sea")
        .map((x) => x.province),
    );
    const route = (a: ProvinceId, b: ProvinceId, through?: ProvinceId) =>
      seaRoute(map, a, b, (s) => fleetSeas.has(s), through);
    const canMove = new Map<string, boolean>();
    /** Whether adjudicate accepts some move of `x` to `d`. */
    const couldMove = (x: Unit, d: ProvinceId): boolean => {
      const key = `${x.province} ${d}`;
      let ok = canMove.get(key);
      if (ok === undefined) {
        ok = coastsOf(d).some(
          (spec) =>
            judgeOne(pos, x.power, `${unitText(x)} - ${spec}`, variant).result !== "invalid",
        );
        canMove.set(key, ok);
      }
      return ok;
    };
    const ut = unitText(unit);
    const texts: string[] = [`${ut} H`];
    for (const p of map.provinces) {
      for (const spec of coastsOf(p.id)) {
        texts.push(`${ut} - ${spec}`);
        if (unit.type === "A") texts.push(`${ut} - ${spec} via convoy`);
      }
      const x = pos.units.find((v) => v.province === p.id);
      if (x) {
        texts.push(`${ut} S ${x.type} ${p.id}`);
        for (const d of map.provinces) {
          texts.push(`${ut} S ${x.type} ${p.id} - ${d.id}`);
          if (x.type === "A") texts.push(`${ut} C A ${p.id} - ${d.id}`);
        }
      }
    }
    const out: Order[] = [];
    for (const text of texts) {
      const r = judgeOne(pos, unit.power, text, variant);
      if (r.result === "invalid") continue;
      const o = r.order!;
      if (o.kind === "move" && o.viaConvoy) {
        // Said "via convoy": kept only for a land neighbour that fleets could also reach.
        if (!map.armyAdjacent(o.unit.province, o.to.province)) continue;
        if (!route(o.unit.province, o.to.province)) continue;
      }
      if (o.kind === "support" && o.to !== null) {
        const x = pos.units.find((v) => v.province === o.target)!;
        if (!couldMove(x, o.to)) continue;
      }
      if (o.kind === "convoy" && !route(o.from, o.to, o.unit.province)) continue;
      out.push(o);
    }
    return out;
  }

  /** The same orders, by their text and in full; no order generated twice. */
  function checkSame(generated: readonly Order[], brute: readonly Order[], what: string) {
    const g = new Map(generated.map((o) => [formatOrder(o), o]));
    assert.equal(g.size, generated.length, `${what}: an order generated twice`);
    const b = new Map(brute.map((o) => [formatOrder(o), o]));
    for (const [text, o] of b) {
      const mine = g.get(text);
      assert.ok(mine, `${what}: ${text} is accepted but not generated`);
      assert.deepEqual(mine, o, text);
    }
    for (const text of g.keys()) assert.ok(b.has(text), `${what}: ${text} generated, not accepted`);
  }

  test("movement: sampled units, including fleets at sea", () => {
    const rand = mulberry32(7);
    const movement = positionsIn("M");
    let sampled = 0;
    let seaFleets = 0;
    for (let i = 0; i < 8; i++) {
      const pos = pick(rand, movement);
      const atSea = pos.units.filter((u) => u.type === "F" && map.get(u.province).kind === "sea");
      // Half the samples are fleets at sea, to exercise convoys.
      const unit = i % 2 === 0 && atSea.length > 0 ? pick(rand, atSea) : pick(rand, pos.units);
      if (atSea.includes(unit)) seaFleets++;
      const generated = legalMovementOrders(variant, pos, rules).get(unit.province)!;
      const brute = bruteMovement(pos, unit);
      checkSame(generated, brute, `${pos.phase.season}${pos.phase.year} ${unitText(unit)}`);
      sampled++;
    }
    assert.equal(sampled, 8);
    assert.ok(seaFleets >= 2, `${seaFleets} fleets at sea`);
  });

  test("movement: every unit of a position with fleets at sea", () => {
    const legal = legalMovementOrders(variant, convoyPosition, rules);
    let convoys = 0;
    for (const unit of convoyPosition.units) {
      const brute = bruteMovement(convoyPosition, unit);
      convoys += brute.filter((o) => o.kind === "convoy").length;
      checkSame(legal.get(unit.province)!, brute, unitText(unit));
    }
    assert.equal(convoys, 2 * 27);
  });

  test("closed provinces (the two-player game: Italy's land until 1915)", () => {
    const ww1 = getScenario("classical", "2")!.variant;
    const pos = ww1.start;
    const closed = ww1.closed!(pos.phase);
    assert.ok(closed.has("ven" as ProvinceId), "ven closed in 1914");
    const legal = legalMovementOrders(ww1, pos, rules);
    for (const list of legal.values()) {
      for (const o of list) {
        const into =
          o.kind === "move"
            ? o.to.province
            : o.kind === "support" || o.kind === "convoy"
              ? o.to
              : null;
        assert.equal(into !== null && closed.has(into), false, formatOrder(o));
      }
    }
    const texts = legal.get("mar" as ProvinceId)!.map(formatOrder);
    lacks(texts, "A mar - pie");
    has(texts, "A mar - bur");
    has(legal.get("ven" as ProvinceId)!.map(formatOrder), "A ven - tyr");
    for (const p of ["mar", "tri", "ven", "rom", "mun"]) {
      const unit = pos.units.find((v) => v.province === p)!;
      checkSame(legal.get(unit.province)!, bruteMovement(pos, unit, ww1), `1914 ${p}`);
    }
    let checked = 0;
    for (const q of randomPositions(5, 30, ww1)) checked += roundTrip(q, ww1);
    assert.ok(checked > 1000, `${checked}`);
  });

  test("retreats: every dislodged unit, every province", () => {
    let n = 0;
    for (const pos of positionsIn("R")) {
      const legal = legalRetreatOrders(variant, pos, rules);
      for (const d of pos.dislodged) {
        const ut = unitText(d);
        const brute: Order[] = [];
        for (const text of [
          `${ut} D`,
          ...map.provinces.flatMap((p) => coastsOf(p.id).map((s) => `${ut} - ${s}`)),
        ]) {
          const r = judgeOne(pos, d.power, text);
          if (r.result !== "invalid") brute.push(r.order!);
        }
        checkSame(legal.get(dislodgedKey(d))!, brute, `retreat ${ut}`);
        n++;
      }
    }
    assert.ok(n > 5, `only ${n}`);
  });

  test("adjustments: every build and remove of every province", () => {
    let n = 0;
    for (const pos of positionsIn("A")) {
      const legal = legalAdjustmentOrders(variant, pos, rules);
      const counts = adjustmentCounts(variant, pos);
      for (const power of variant.powers) {
        const texts = map.provinces.flatMap((p) => [
          `remove ${p.id}`,
          ...coastsOf(p.id).flatMap((s) => [`build A ${s}`, `build F ${s}`]),
        ]);
        // All at once: these orders are judged one by one, so none voids another.
        const res = adjudicate(variant, pos, new Map([[power.id, texts]]), rules);
        const accepted = res.results
          .filter((r) => r.text !== null && r.result !== "invalid")
          .map((r) => r.order!);
        const due = counts.get(power.id) ?? 0;
        const entry = legal.get(power.id);
        if (due === 0) {
          assert.equal(entry, undefined, power.id);
          continue;
        }
        assert.ok(entry, power.id);
        assert.equal(entry.count, Math.abs(due));
        assert.deepEqual(entry.orders[entry.orders.length - 1]!.kind, due > 0 ? "waive" : "remove");
        const wanted = accepted.filter((o) => o.kind === (due > 0 ? "build" : "remove"));
        const mine = entry.orders.filter((o) => o.kind !== "waive");
        checkSame(mine, wanted, `${power.id} adjustments`);
        n++;
      }
    }
    assert.ok(n > 5, `only ${n}`);
  });
});
