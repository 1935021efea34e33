import assert from "node:assert/strict";
import { test } from "node:test";
import { readPosition } from "../engine/position-json.ts";
import { DATC_RULES, HOUSE_RULES } from "../engine/rules.ts";
import { powerId } from "../engine/types.ts";
import { classical } from "../variants/classical/index.ts";
import { europe1935 } from "../variants/europe1935/index.ts";
import { powersToOrder, readSubmission } from "./orders.ts";

/* Who must send orders: what deadlines, NMRs, reminders and early resolution wait for. */

const at = (json: Record<string, unknown>) =>
  powersToOrder(classical, readPosition(json, classical), HOUSE_RULES);

test("movement and adjustment phases: the powers with units, and those that can build or must remove", () => {
  assert.deepEqual(
    at({ phase: "S1901M", units: { england: ["F lon"], france: ["A par"] } }),
    ["england", "france"],
    "every power with a unit",
  );
  assert.deepEqual(
    at({
      phase: "W1901A",
      units: { england: ["F lon"], france: ["A par", "A bur", "A pic", "A gas"] },
      centers: { england: ["lon", "edi", "lvp"], france: ["par", "bre", "mar"] },
    }),
    ["england", "france"],
    "England builds, France removes",
  );
});

test("the house rules' winter phase (W1901R): retreats and adjustments in one set, so every power that may adjust orders too", () => {
  // Austria is dislodged from Serbia and may retreat to Greece, an unowned centre; England
  // has a build whatever happens; Russia owns Rumania, where Austria might also retreat.
  const winter = {
    phase: "W1901R",
    units: {
      turkey: ["A ser", "F bla"],
      austria: ["A vie", "A bud"],
      england: ["F lon", "F nth"],
      russia: ["A mos"],
      italy: ["A rom"],
    },
    dislodged: { austria: [{ unit: "A ser", from: "bul" }] },
    centers: {
      austria: ["vie", "bud"],
      turkey: ["con", "ank"],
      england: ["lon", "edi", "lvp"],
      russia: ["mos", "rum"],
      italy: ["rom"],
    },
  };
  const need: readonly string[] = at(winter);
  assert.ok(need.includes("austria"), "Austria retreats (and may then adjust)");
  assert.ok(need.includes("england"), "England builds this winter: it must be asked now");
  assert.ok(
    need.includes("russia"),
    "Russia may lose Rumania to the retreat: it may have to remove",
  );
  assert.ok(need.includes("turkey"), "Turkey takes Serbia with the fall's move: it builds");
  assert.ok(!need.includes("italy"), "Italy has nothing to do whatever the retreat");
  assert.deepEqual(
    at({ ...winter, phase: "F1901R" }),
    ["austria"],
    "an ordinary fall retreat phase asks only the dislodged",
  );
});

test("each line's diagnostic is its own when a variant's own order follows an unreadable one", () => {
  const r = readSubmission(europe1935, europe1935.start, DATC_RULES, [powerId("france")], {
    orders: ["A par-bur", "A I Par-Russia", "A par - pic"],
  });
  assert.deepEqual(
    r.lines.map((l) => [l.text, l.ok, l.ok ? l.order : l.message]),
    [
      ["A par-bur", false, 'unknown province "bur": did you mean Barcelona, Berlin or Bordeaux?'],
      ["A I Par-Russia", false, "ussr has not lost its country"],
      ["A par - pic", true, "A par - pic"],
    ],
    "the insurrection's reason on the insurrection, the typo's on the typo",
  );
});

test("europe1935: a seat's orders under any name of its powers; the header a refusal recommends is accepted", () => {
  const v = europe1935;
  const uk = powerId("uk");
  const ussr = powerId("ussr");
  const read = (orders: string) =>
    readSubmission(v, v.start, DATC_RULES, [uk, ussr], { orders }, { mode: "mail" });
  for (const [header, power] of [
    ["UK:", uk],
    ["Great Britain", uk],
    ["England:", uk],
    ["United Kingdom", uk],
    ["Soviet Union:", ussr],
    ["Russia", ussr],
    ["USSR:", ussr],
  ] as const) {
    const r = read(`${header}\nA edi - cly\n`);
    assert.deepEqual([...r.sets.keys()], [power], `header ${header}`);
  }
  let message = "";
  try {
    read("F lon - nth\n");
  } catch (e) {
    message = (e as Error).message;
  }
  const m = /put e\.g\. "([^"]+)" on the line above/.exec(message);
  assert.ok(m, `the refusal recommends a header: ${message}`);
  const again = read(`${m[1]}\nF lon - nth\n`);
  assert.deepEqual([...again.sets.values()], [["F lon - nth"]], `${m[1]} is accepted`);
});
