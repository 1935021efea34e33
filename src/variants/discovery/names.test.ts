import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { areaOf } from "./areas.ts";
import { generateMap } from "./generate.ts";
import { areaName, resolveTarget, squareName, squareOfName } from "./names.ts";

const m = generateMap({ seed: 21, players: 12 });
const squares = Array.from({ length: m.width * m.height }, (_, i) => i);

describe("per-player square names", () => {
  it("are a bijection for every player, XXYY with leading zeros, read back to the square", () => {
    for (let p = 1; p <= m.players; p++) {
      const names = squares.map((s) => squareName(m, p, s));
      assert.equal(new Set(names).size, squares.length, `player ${p}: one name per square`);
      for (const [s, name] of names.entries()) {
        assert.match(name, /^\d{4}$/, `player ${p}: ${name} is four digits`);
        const back = squareOfName(m, p, name);
        assert.ok(back.ok && back.square === s, `player ${p}: ${name} reads back to square ${s}`);
      }
      assert.ok(names.includes("0101"), "names start at 0101");
      const last = `${String(m.width).padStart(2, "0")}${String(m.height).padStart(2, "0")}`;
      assert.ok(names.includes(last), `names end at ${last}`);
    }
  });

  it("differ between any two players for every square, but keep the shape of the map", () => {
    for (let p = 1; p <= m.players; p++) {
      for (let q = p + 1; q <= m.players; q++) {
        const same = squares.filter((s) => squareName(m, p, s) === squareName(m, q, s));
        assert.equal(same.length, 0, `players ${p} and ${q} name no square alike`);
      }
    }
    // A shift: the square east of another is one column on (wrapping) for every player.
    const s = 5;
    const east = (s % m.width) + 1 === m.width ? s - m.width + 1 : s + 1;
    for (let p = 1; p <= m.players; p++) {
      const a = squareName(m, p, s);
      const b = squareName(m, p, east);
      const ax = Number(a.slice(0, 2));
      const bx = Number(b.slice(0, 2));
      assert.equal(bx, (ax % m.width) + 1, `player ${p}: east is the next column`);
      assert.equal(b.slice(2), a.slice(2), `player ${p}: same row`);
    }
  });

  it("name an area by its anchor square, and any of its squares finds it", () => {
    for (const a of m.areas.slice(0, 50)) {
      for (let p = 1; p <= 3; p++) {
        assert.equal(areaName(m, p, a.id), squareName(m, p, a.squares[0]!), "anchor name");
        for (const s of a.squares) {
          const r = resolveTarget(m, p, squareName(m, p, s));
          assert.ok(r.ok && r.area === a.id, `square ${squareName(m, p, s)} is area ${a.id}`);
        }
      }
    }
  });

  it("read area ids and squares apart, and explain what is wrong", () => {
    const r = resolveTarget(m, 1, "12");
    assert.ok(r.ok && r.area === 12, "a short number is an area id");
    assert.equal(areaOf(m, 12).id, 12, "area 12 exists");
    const cases: [string, RegExp][] = [
      ["0000", /no column 00/],
      [`${m.width + 1}01`, /no column/],
      ["0199", /no row 99/],
      [String(m.areas.length + 1), /no area/],
      ["0", /no area 0/],
      ["abc", /neither an area id .* nor a square \(XXYY/],
      ["12345", /neither/],
    ];
    for (const [t, why] of cases) {
      const x = resolveTarget(m, 1, t);
      assert.ok(!x.ok, `${t} is refused`);
      assert.match(x.reason, why, `${t}: the reason says why`);
    }
  });
});
