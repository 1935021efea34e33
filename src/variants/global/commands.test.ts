import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseCommand, readCommandSet } from "./commands.ts";
import { initialState } from "./state.ts";
import { worldMap } from "./world.ts";

const read = (t: string) => parseCommand(t, worldMap);

describe("the command reader (appendix A)", () => {
  test("reads the seed's examples", () => {
    const cases: [string, unknown][] = [
      ["MO 20 19", { op: "MO", from: 20, to: 19 }],
      ["SA 20 17 3", { op: "SA", from: 20, to: 17, power: 3 }],
      ["SA 20 17", { op: "SA", from: 20, to: 17 }],
      ["SD 18 17", { op: "SD", from: 18, to: 17 }],
      ["GA 3 all", { op: "GA", power: 3, areas: "all" }],
      ["GA 3 0", { op: "GA", power: 3, areas: "all" }],
      ["GA 3", { op: "GA", power: 3, areas: "all" }],
      ["GA 3 16 17", { op: "GA", power: 3, areas: [16, 17] }],
      ["CO 7 234 237 44", { op: "CO", from: 7, seas: [234, 237], to: 44 }],
      ["CA 3 10", { op: "CA", ally: 3, enemy: 10 }],
      ["DA 3 10", { op: "DA", powers: [3, 10] }],
      ["dw 3", { op: "DW", powers: [3] }],
      ["AA 18", { op: "AA", area: 18 }],
      ["UU 226", { op: "UU", area: 226 }],
      ["SP 26 27 206 223 228 222", { op: "SP", areas: [26, 27, 206, 223, 228, 222] }],
      ["ME 3 Hello there, want to ally?", { op: "ME", to: 3, text: "Hello there, want to ally?" }],
      ["ME all hi", { op: "ME", to: "all", text: "hi" }],
      ["VC 20 400", { op: "VC", turns: 20, percent: 400 }],
    ];
    for (const [text, want] of cases) {
      const r = read(text);
      assert.ok(r.ok, `${text} reads`);
      if (r.ok) assert.deepEqual(r.command, want, text);
    }
  });

  test("gives a reason for every refusal", () => {
    const cases: [string, RegExp][] = [
      ["XX 1 2", /not a command/],
      ["MO 20", /2 numbers/],
      ["MO 20 999", /no area 999/],
      ["SA 20 17 12", /no power 12/],
      ["MO twenty 19", /not a number/],
      ["SP 1 2 3 4 5 6 7", /only 6 spies/],
      ["SP 1 1", /different area/],
      ["ME 3 this message is far too long for the forty-five limit", /split it/],
      ["VC 5 400", /between 10 and 40/],
      ["VC 20 600", /between 300 and 500/],
      ["CO 7 44", /at least one sea/],
    ];
    for (const [text, why] of cases) {
      const r = read(text);
      assert.equal(r.ok, false, `${text} refused`);
      if (!r.ok) assert.match(r.reason, why, text);
    }
  });

  test("readCommandSet: per line, against the state; one command per area", () => {
    const s = initialState(worldMap);
    const lines = readCommandSet(
      "MO 7 233\n\nMO 7 234\nMO 18 17\nMO 3 18\nVC 20 400\nDW 4\nDA 4\nMO 5 231\nSP 1 2 3 4\nSP 5 6 7",
      s,
      3,
      worldMap,
    );
    const by = (t: string) => lines.find((l) => l.text === t)!;
    assert.equal(by("MO 7 233").ok, true, "London to the Channel");
    assert.equal(lines.length, 10, "blank lines skipped");
    assert.equal(by("MO 7 234").line, 3, "numbered as in the text");
    assert.equal(by("MO 7 233").line, 1, "line numbers kept");
    const reason = (t: string) => {
      const l = by(t);
      return l.ok ? "" : l.reason;
    };
    assert.match(reason("MO 7 234"), /already has a command/, "second command for London");
    assert.match(reason("MO 18 17"), /belongs to 4-France/, "not England's unit");
    assert.match(reason("MO 3 18"), /not next to/, "not adjacent");
    assert.equal(by("VC 20 400").ok, true, "VC on turn 1");
    assert.match(reason("DW 4"), /first turn/, "no war on turn 1");
    assert.equal(by("DA 4").ok, true, "alliances may be offered");
    assert.match(reason("MO 5 231"), /sea area/, "armies cannot walk into the sea");
    assert.match(reason("SP 5 6 7"), /4 already sent/, "six spies a turn in all");
  });
});
