import assert from "node:assert/strict";
import { test } from "node:test";
import { getScenario } from "../variants/scenarios.ts";
import { FrameReader, frame, MESSAGE } from "./framing.ts";
import { fromText, itemsText, NO_NAMES, toText, tree } from "./language.ts";
import { daideMap } from "./mapdef.ts";
import { fixedNames, intToken, intValue, tok } from "./tokens.ts";

test("the standard map's tokens are the protocol's values", () => {
  const m = daideMap(getScenario("classical")!);
  assert.equal(m.name, "standard");
  assert.equal(m.standard, true);
  const values: Record<string, number> = {
    BOH: 0x5000,
    BUD: 0x5107,
    ADR: 0x520e,
    ECH: 0x5214,
    GOB: 0x5215,
    GOL: 0x5216,
    YOR: 0x542f,
    ANK: 0x5530,
    VEN: 0x5547,
    BUL: 0x5748,
    SPA: 0x5749,
    STP: 0x574a,
    AUS: 0x4100,
    TUR: 0x4106,
  };
  for (const [name, v] of Object.entries(values)) assert.equal(m.names.tokenOf(name), v, name);
  assert.equal(m.representation().length, 7 + 75);
  const mdf = itemsText(m.mdf(), m.names);
  assert.ok(
    mdf.startsWith(
      "(AUS ENG FRA GER ITA RUS TUR) (((AUS BUD TRI VIE) (ENG EDI LON LVP) (FRA BRE MAR PAR)",
    ),
  );
  assert.match(
    mdf,
    /\(STP \(AMY FIN LVN MOS NWY\) \(\(FLT NCS\) BAR NWY\) \(\(FLT SCS\) GOB FIN LVN\)\)/,
  );
  assert.match(mdf, /\(AEG \(FLT \(BUL SCS\) CON EAS GRE ION SMY\)\)/);
});

test("another map or scenario is named by its RM: unique three-letter names, no fixed token's", () => {
  for (const [v, s, sides] of [
    ["europe1935", undefined, 9],
    ["classical", "4", 4],
    ["classical", "6", 7],
    ["classical", "2", 3],
  ] as const) {
    const m = daideMap(getScenario(v, s)!);
    assert.equal(m.sides.length, sides, `${v} ${s}`);
    const rm = m.representation();
    const names = rm.map((e) => e.name);
    assert.equal(new Set(names).size, names.length, "names are unique");
    assert.equal(new Set(rm.map((e) => e.token)).size, rm.length, "tokens are unique");
    for (const n of names) {
      assert.match(n, /^[A-Z0-9]{3}$/);
      assert.ok(!fixedNames().has(n), `${n} is a fixed token's name`);
    }
    // The MDF reads back through its own names.
    const text = itemsText(m.mdf(), m.names);
    assert.equal(toText(fromText(text, m.names), m.names), text);
  }
  const six = daideMap(getScenario("classical", "6")!);
  assert.equal(six.standard, true, "six players: the standard map, Italy unplayed");
  assert.equal(six.sides.find((x) => x.name === "ITA")?.seat, null);
  const four = daideMap(getScenario("classical", "4")!);
  assert.equal(four.name, "classical-4");
  assert.deepEqual(
    four.sides.map((x) => [x.name, x.powers.join("+")]),
    [
      ["AFU", "austria+france"],
      ["ENG", "england"],
      ["GTE", "germany+turkey"],
      ["IRT", "italy+russia"],
    ],
  );
  const e = daideMap(getScenario("europe1935")!);
  assert.ok(e.names.tokenOf("ANO"), "Andalusia is not AND (a press token)");
  assert.throws(
    () => e.provinceToken("swi" as never),
    /not on the DAIDE map/,
    "impassable: no token",
  );
});

test("integers, text and brackets: tokens and the text form", () => {
  for (const n of [0, 1, 1901, 8191, -1, -8192]) assert.equal(intValue(intToken(n)), n);
  assert.throws(() => intToken(8192));
  const tokens = fromText("NME ('Dumb''s bot') ('1.0')", NO_NAMES);
  assert.equal(toText(tokens, NO_NAMES), "NME ('Dumb''s bot') ('1.0')");
  const t = tree(fromText("A ( B ( C ) )".replace(/[ABC]/g, "HLO"), NO_NAMES));
  assert.ok(t.ok);
  const bad = tree([tok("HLO"), tok("("), tok("HLO")]);
  assert.deepEqual(bad, { ok: false, at: 3 });
  assert.equal(tree([tok(")")]).ok, false);
});

test("frames come whole from a stream cut anywhere", () => {
  const bytes = Buffer.concat([frame(MESSAGE.DM, Buffer.from([0x48, 0x10])), frame(MESSAGE.FM)]);
  const r = new FrameReader();
  const out = [];
  for (const b of bytes) out.push(...r.push(Buffer.from([b])));
  assert.deepEqual(
    out.map((f) => [f.type, [...f.body]]),
    [
      [MESSAGE.DM, [0x48, 0x10]],
      [MESSAGE.FM, []],
    ],
  );
  assert.equal(r.buffered, 0);
});
