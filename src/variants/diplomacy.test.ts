import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { GameRulesError } from "../engine/game.ts";
import { playPhase } from "../engine/record.ts";
import { readRules } from "../engine/rules.ts";
import type { PowerId } from "../engine/types.ts";
import { classical } from "./classical/index.ts";
import { type DiplomacyState, diplomacyRules } from "./diplomacy.ts";
import { europe1935 } from "./europe1935/index.ts";
import { gameRules } from "./game-rules.ts";
import { scenariosOf } from "./scenarios.ts";

/* The Diplomacy variants through the one game interface (src/engine/game.ts). */

const rules = diplomacyRules(classical, scenariosOf("classical"));

describe("Diplomacy game rules", () => {
  test("setup: the spring 1901 movement phase, every power must order; counts outside refused", () => {
    const s = rules.setup(7, 7);
    assert.deepEqual(
      rules.phase(s),
      { name: "S1901M", kind: "movement", year: 1901, index: 0 },
      "the first phase",
    );
    assert.equal(rules.mustOrder(s).length, 7, "seven powers with units");
    assert.deepEqual(rules.players, { min: 2, max: 7, default: 7 }, "the rulebook's 2 to 7");
    assert.throws(() => rules.setup(7, 8), GameRulesError, "eight players refused");
    assert.throws(() => rules.setup(7, 8), /played by 7, 6, 5, 4, 3, 2 players, not 8/);
  });

  test("a scenario for fewer players: the unplayed power neither must nor may order", () => {
    const s = rules.setup(3, 2);
    assert.equal(
      rules.mustOrder(s).includes("italy"),
      false,
      "Italy is neutral in the 2-player game",
    );
    assert.equal(rules.mayOrder(s).includes("italy"), false, "and may not order");
    assert.equal(rules.mustOrder(s).length, 6, "the six others do");
  });

  test("read: a verdict per line, canonical orders, another power's lines refused, Final", () => {
    const s = rules.setup(1);
    const r = rules.read(
      s,
      "france",
      "1. A par-bur\nF bre - mid\nF bre-xyz\nGermany:\nA ber-kie\nFinal",
    );
    assert.deepEqual(
      r.verdicts.map((v) => [v.line, v.ok, v.ok ? v.order : v.reason]),
      [
        [1, true, "A par - bur"],
        [2, true, "F bre - mao"],
        [3, false, 'unknown province "xyz"'],
        [5, false, "this is Germany's order, not france's"],
      ],
      "each order line judged",
    );
    assert.deepEqual(
      r.orders,
      ["A par-bur", "F bre - mid", "F bre-xyz"],
      "France's set as written",
    );
    assert.equal(r.final, true, "marked final");
  });

  test("read: a variant's own orders (europe1935 insurrections) get their own verdicts", () => {
    const g = diplomacyRules(europe1935, scenariosOf("europe1935"));
    const s = g.setup(1);
    const r = g.read(s, "france", "A I Par-Russia\nA par - pic");
    assert.deepEqual(
      r.verdicts.map((v) => [v.text, v.ok, v.ok ? v.order : v.reason]),
      [
        ["A I Par-Russia", false, "ussr has not lost its country"],
        ["A par - pic", true, "A par - pic"],
      ],
      "the insurrection is read as one and refused for its reason; the move after it is judged on its own",
    );
  });

  test("resolve: results with reasons, the next state, who was silent; the same as the record", () => {
    const s = rules.setup(1);
    const sets = new Map([
      ["france", rules.read(s, "france", "A par-bur").orders],
      ["germany", rules.read(s, "germany", "A mun-bur").orders],
    ]);
    const r = rules.resolve(s, sets);
    assert.equal(r.phase, "S1901M", "the phase resolved");
    const bounce = r.results.filter((x) => x.order === "A par-bur" || x.order === "A mun-bur");
    assert.deepEqual(
      bounce.map((x) => x.outcome),
      ["fails", "fails"],
      "the two moves to Burgundy bounce",
    );
    assert.ok(
      bounce.every((x) => x.reason),
      "with a reason each",
    );
    assert.equal(rules.phase(r.next).name, "F1901M", "no retreats: fall movement next");
    assert.deepEqual(
      [...r.silent].sort(),
      ["austria", "england", "italy", "russia", "turkey"],
      "the five powers that sent nothing",
    );
    assert.equal(r.ended, null, "no winner");
    const record = playPhase(
      s.scenario,
      s.record,
      new Map([
        ["france" as PowerId, ["A par-bur"]],
        ["germany" as PowerId, ["A mun-bur"]],
      ]),
    );
    assert.deepEqual(r.next.record, record, "the state's record is the engine's record");
  });

  test("encode/decode: a stored game reads back and plays on the same", () => {
    const s0 = rules.setup(9);
    const s1 = rules.resolve(s0, new Map([["england", ["F lon-nth"]]])).next;
    const back = rules.decode(JSON.parse(JSON.stringify(rules.encode(s1))));
    assert.deepEqual(rules.phase(back), rules.phase(s1), "the same phase");
    const a = rules.resolve(s1, new Map([["england", ["F nth-nwy"]]]));
    const b = rules.resolve(back, new Map([["england", ["F nth-nwy"]]]));
    assert.deepEqual(rules.encode(a.next), rules.encode(b.next), "the same game after");
    assert.throws(() => rules.decode({ format: "other" }), GameRulesError, "not a record");
    assert.throws(
      () => rules.decode({ ...(rules.encode(s1) as object), variant: "europe1935" }),
      /europe1935 game, not classical/,
      "another variant's record",
    );
  });

  test("random: legal orders that read back without a fault, the same for the same seed", () => {
    const s = rules.setup(4);
    for (const p of rules.mustOrder(s)) {
      const set = rules.random(s, p, 11);
      assert.deepEqual(set, rules.random(s, p, 11), `${p}: reproducible`);
      assert.ok(set.length > 0, `${p}: some orders`);
      const read = rules.read(s, p, set.join("\n"));
      assert.ok(
        read.verdicts.every((v) => v.ok),
        `${p}: every random order is legal`,
      );
    }
  });

  test("a game that is over: nobody must order, another phase is refused", () => {
    const s = rules.setup(1);
    const won: DiplomacyState = { ...s, winner: "france" };
    assert.deepEqual(rules.mustOrder(won), [], "nobody orders in a game that is over");
    assert.throws(() => rules.resolve(won, new Map()), /the game is over: france has won/);
  });

  test("view and board: the public board, the viewer's powers; adjacency as data", () => {
    const s = rules.setup(1);
    const v = rules.view(s, { kind: "player", powers: ["france"] });
    assert.deepEqual(v.yours, ["france"], "the viewer's powers");
    assert.equal(v.position.units.length, 22, "all 22 units: the board is public");
    const b = rules.board(s, { kind: "public" });
    assert.equal(b.areas.length, 75, "the 75 provinces");
    const par = b.areas.find((a) => a.id === "par");
    assert.deepEqual(par?.neighbours, ["bre", "bur", "gas", "pic"], "Paris's neighbours");
    assert.equal(par?.supply, true, "Paris is a centre");
  });

  test("the registry gives every variant and family the one interface", () => {
    for (const id of ["classical", "europe1935", "global", "discovery"]) {
      const g = gameRules(id);
      assert.ok(g, `${id} registered`);
      const s = g.setup(2);
      assert.ok(g.mustOrder(s).length > 0, `${id}: somebody must order at the start`);
      assert.equal(g.phase(s).index, 0, `${id}: the first phase`);
    }
    assert.equal(gameRules("nope"), undefined, "an unknown id");
  });

  test("a rule profile (the house rules) stays with the game through encode and decode", () => {
    const house = readRules("houserules");
    assert.ok(house.ok, "the house rules profile");
    const g = diplomacyRules(classical, scenariosOf("classical"), house.rules);
    const s = g.setup(1);
    assert.equal(s.record.rules.seasons, house.rules.seasons, "the record keeps the options");
    const back = rules.decode(JSON.parse(JSON.stringify(g.encode(s))));
    assert.deepEqual(back.record.rules, house.rules, "and a decoded game plays by them");
  });
});
