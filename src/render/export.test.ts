import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { newRecord, playPhase } from "../engine/record.ts";
import type { OrderTexts } from "../engine/results.ts";
import { DATC_RULES } from "../engine/rules.ts";
import type { Variant } from "../engine/variant.ts";
import { runSync } from "../testing/children.ts";
import { getVariant } from "../variants/registry.ts";
import { getScenario } from "../variants/scenarios.ts";
import { recordFrames, recordGif, recordPngs } from "./export.ts";
import { BIN, scratchDir } from "./testing.ts";

/* A game's history as pictures: a PNG per phase and an animated GIF (docs/maps.md). */

const variant = getVariant("classical") as Variant;
const scenario = getScenario("classical")!;
let record = newRecord(scenario, DATC_RULES, 1);
const orders = (o: Record<string, string[]>) => new Map(Object.entries(o)) as unknown as OrderTexts;
record = playPhase(
  scenario,
  record,
  orders({ france: ["A par - bur"], germany: ["A mun - bur"], england: ["F lon - nth"] }),
);
record = playPhase(scenario, record, orders({ england: ["F nth - nwy"] }));
record = playPhase(scenario, record, orders({ england: ["build F lon"] }));
// S1901M, F1901M, then the winter's builds and the current spring.
const phases = ["S1901M", "F1901M", "W1901A", "S1902M"];

/** The frames of a GIF: its image descriptors, each after a graphic control extension. */
function gifFrames(gif: Buffer): { delays: number[]; width: number; height: number } {
  assert.equal(gif.subarray(0, 6).toString("latin1"), "GIF89a", "a GIF89a file");
  const delays: number[] = [];
  for (let i = 0; i + 8 < gif.length; i++) {
    // 0x21 0xF9 0x04 flags delay(2, little-endian) transparent 0x00, then an image (0x2C).
    if (gif[i] === 0x21 && gif[i + 1] === 0xf9 && gif[i + 2] === 0x04 && gif[i + 8] === 0x2c) {
      delays.push(gif.readUInt16LE(i + 4) * 10);
    }
  }
  return { delays, width: gif.readUInt16LE(6), height: gif.readUInt16LE(8) };
}

describe("a game exported as pictures", () => {
  it("draws every phase with its orders and the legend", () => {
    const frames = recordFrames(variant, record);
    assert.deepEqual(
      frames.map((f) => f.phase),
      phases,
      "a frame per phase, then the current one",
    );
    const [spring] = frames;
    assert.equal(spring?.svg.match(/class="order move fails"/g)?.length, 2, "the bounce");
    assert.match(spring?.svg ?? "", /class="legend"/, "a legend");
    assert.match(
      frames[3]?.svg ?? "",
      /data-power="england" data-centres="4">.*?>4 centres, 4 units<\/text>/,
      "England's fourth centre and its build counted in 1902",
    );
  });

  it("makes a PNG per phase", () => {
    const pngs = recordPngs(variant, record, { width: 300 });
    assert.equal(pngs.length, 4, "four pictures");
    for (const p of pngs) {
      assert.deepEqual([...p.png.subarray(1, 4)], [0x50, 0x4e, 0x47], `${p.phase} is a PNG`);
      assert.equal(p.png.readUInt32BE(16), 300, `${p.phase} is 300 pixels wide`);
    }
  });

  it("makes an animated GIF that loops, one frame per phase, the last held longer", () => {
    let seen = 0;
    const gif = recordGif(variant, record, { width: 320, delay: 1000 }, (done) => {
      seen = done;
    });
    const { delays, width } = gifFrames(gif);
    assert.equal(width, 320, "320 pixels wide");
    assert.deepEqual(delays, [1000, 1000, 1000, 3000], "four frames, the last held");
    assert.ok(gif.includes(Buffer.from("NETSCAPE2.0")), "it loops");
    assert.equal(seen, 4, "progress reported per frame");
  });
});

describe("bin/entente render --gif", () => {
  const dir = scratchDir("entente-gif-");

  it("writes the game as a GIF, and says what is wrong with bad arguments", () => {
    const game = join(dir, "game.json");
    writeFileSync(game, JSON.stringify(record));
    const out = join(dir, "game.gif");
    const r = runSync(BIN, ["render", "--record", game, "--gif", out, "--width", "400"], {
      encoding: "utf8",
    });
    assert.equal(r.status, 0, `render --gif failed: ${r.stderr}`);
    assert.match(r.stdout, /classical, 4 phases \(S1901M to S1902M\)/, "what it drew");
    const { delays, width } = gifFrames(readFileSync(out));
    assert.equal(delays.length, 4, "four frames");
    assert.equal(width, 400, "400 pixels wide");
    const bad = (args: string[], why: RegExp) => {
      const b = runSync(BIN, ["render", ...args], { encoding: "utf8" });
      assert.notEqual(b.status, 0, `${args.join(" ")} accepted`);
      assert.match(b.stderr, why, `${args.join(" ")}: ${b.stderr}`);
    };
    bad(["--gif", out], /--gif draws a game: give --record GAME/);
    bad(["--record", game, "--gif", join(dir, "x.png")], /--gif must end in \.gif/);
    bad(["--record", game, "--gif", out, "--phase", "S1901M"], /leave out --phase/);
  });
});
