import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { runSync } from "../testing/children.ts";
import { CliError } from "./games.ts";
import { cmdRender } from "./render.ts";

/* `entente render`: SVG and PNG, the start, a position file, a phase of a game record. */

const BIN = fileURLToPath(new URL("../../bin/entente", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "entente-render-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("bin/entente render writes an SVG of a variant's start", () => {
  const out = join(dir, "start.svg");
  const r = runSync(BIN, ["render", "--variant", "classical", "--out", out], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, `render failed: ${r.stderr}`);
  assert.match(r.stdout, /start\.svg: classical S1901M/, "it says what it drew");
  const svg = readFileSync(out, "utf8");
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/, "an SVG file");
  assert.equal(svg.match(/class="unit"/g)?.length, 22, "the 22 units of 1901");
});

test("render draws a record's phase with its orders, as PNG, in the colour-blind palette", () => {
  const record = join(dir, "game.json");
  const orders = join(dir, "orders.json");
  assert.equal(runSync(BIN, ["new", "--out", record]).status, 0, "new record");
  writeFileSync(
    orders,
    JSON.stringify({ france: ["A par - bur"], germany: ["A mun - bur"], england: ["F lon - nth"] }),
  );
  assert.equal(runSync(BIN, ["play", record, orders, "--out", record]).status, 0, "play a phase");

  const svgOut = join(dir, "s1901.svg");
  assert.match(
    cmdRender({ record, phase: "S1901M", out: svgOut }),
    /classical S1901M, 22 orders/,
    "22 orders drawn",
  );
  const svg = readFileSync(svgOut, "utf8");
  assert.equal(
    svg.match(/class="order move fails"/g)?.length,
    2,
    "the two bounced moves on Burgundy",
  );
  assert.match(svg, /class="order move succeeds"/, "the fleet's move");

  const pngOut = join(dir, "s1901.png");
  cmdRender({ record, phase: "S1901M", palette: "colorblind", width: "800", out: pngOut });
  const png = readFileSync(pngOut);
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], "a PNG file");
  assert.equal(png.readUInt32BE(16), 800, "800 pixels wide");

  assert.match(
    cmdRender({ record, out: join(dir, "now.svg") }),
    /F1901M$/m,
    "the current phase by default",
  );
  assert.throws(
    () => cmdRender({ record, phase: "F1950M", out: svgOut }),
    /no phase F1950M; its phases are S1901M, F1901M/,
    "an unknown phase",
  );
});

test("render reads a position file and refuses bad arguments with what would be right", () => {
  const pos = join(dir, "pos.json");
  writeFileSync(
    pos,
    JSON.stringify({
      variant: "europe1935",
      phase: "F1936M",
      units: { uk: ["F nth"] },
      centers: { uk: ["lon"] },
    }),
  );
  const out = join(dir, "pos.svg");
  cmdRender({ position: pos, out });
  assert.equal(readFileSync(out, "utf8").match(/class="unit"/g)?.length, 1, "one unit");
  writeFileSync(
    pos,
    JSON.stringify({
      variant: "classical",
      phase: "S1901M",
      units: { england: ["F lon", "F nth"], france: ["F eng"] },
      orders: { england: ["F lon - eng", "F nth S F lon - eng"], france: ["F eng H"] },
    }),
  );
  cmdRender({ position: pos, out });
  const adjudicated = readFileSync(out, "utf8");
  assert.match(adjudicated, /class="order move succeeds"/, "a position with orders is adjudicated");
  assert.match(
    adjudicated,
    /class="dislodged-mark" data-location="eng"/,
    "the French fleet is dislodged",
  );
  assert.throws(
    () => cmdRender({ out: join(dir, "x.gif") }),
    /--out must end in \.svg or \.png/,
    "format",
  );
  assert.throws(
    () => cmdRender({ palette: "pastel", out }),
    /--palette is standard or colorblind/,
    "palette",
  );
  assert.throws(() => cmdRender({ variant: "nowhere", out }), CliError, "unknown variant");
  writeFileSync(
    pos,
    JSON.stringify({ variant: "classical", phase: "S1901M", units: { england: ["A nth"] } }),
  );
  assert.throws(() => cmdRender({ position: pos, out }), /nth/, "a bad position names the unit");
});
