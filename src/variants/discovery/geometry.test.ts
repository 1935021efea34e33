import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateMap } from "./generate.ts";
import { mapGeometry, playerGeometry } from "./geometry.ts";
import { squareName } from "./names.ts";

const m = generateMap({ seed: 9, players: 10 });

describe("grid geometry for drawing", () => {
  it("gives every area its squares and an outline with no inner edges", () => {
    const g = mapGeometry(m);
    assert.equal(g.areas.length, m.areas.length, "every area");
    const cells = new Set<string>();
    for (const a of g.areas) {
      for (const [x, y] of a.squares) cells.add(`${x},${y}`);
      // A closed outline: every corner is met an even number of times.
      const ends = new Map<string, number>();
      for (const [p, q] of a.outline) {
        for (const e of [p, q]) ends.set(`${e[0]},${e[1]}`, (ends.get(`${e[0]},${e[1]}`) ?? 0) + 1);
      }
      assert.ok(
        [...ends.values()].every((n) => n % 2 === 0),
        `area ${a.id}'s outline is closed`,
      );
      const unwrapped = a.squares.every(([x, y]) =>
        a.squares.every(([u, v]) => Math.abs(u - x) + Math.abs(v - y) <= 2),
      );
      if (unwrapped) {
        assert.equal(
          a.outline.length,
          4 * a.squares.length - 2 * (a.squares.length - 1),
          `area ${a.id}: no inner edge`,
        );
      }
    }
    assert.equal(cells.size, m.width * m.height, "the squares tile the grid");
  });

  it("shows a player only the areas it knows, in its own frame", () => {
    const known = m.starts[2]!.areas;
    const g = playerGeometry(m, 3, known);
    assert.deepEqual(
      g.areas.map((a) => a.id),
      [...known].sort((a, b) => a - b),
      "only the known areas",
    );
    for (const a of g.areas) {
      const area = m.areas[a.id - 1]!;
      for (const [i, [x, y]] of a.squares.entries()) {
        const name = `${String(x + 1).padStart(2, "0")}${String(y + 1).padStart(2, "0")}`;
        assert.equal(name, squareName(m, 3, area.squares[i]!), "squares in the player's frame");
      }
    }
  });
});
