import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePhase, phaseName } from "../engine/phase.ts";
import { readPosition } from "../engine/position-json.ts";
import { DATC_RULES, HOUSE_RULES } from "../engine/rules.ts";
import { powerId } from "../engine/types.ts";
import { classical } from "../variants/classical/index.ts";
import { europe1935 } from "../variants/europe1935/index.ts";
import {
  EARLY_YEARS_AHEAD,
  phasesToCome,
  powersToOrder,
  readSubmission,
  submissionPhase,
} from "./orders.ts";

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

test("an order mail in sentences (III(1)-(2)): each line's verdict names the order it was read as", () => {
  const winter = readPosition(
    {
      phase: "W1901A",
      units: { germany: ["A mun"] },
      centers: { germany: ["ber", "kie", "mun"] },
    },
    classical,
  );
  const r = readSubmission(
    classical,
    winter,
    HOUSE_RULES,
    [powerId("germany")],
    { orders: "1. Build an army in Berlin.\n2) Build a fleet in Kiel;\nThanks, GM!" },
    { mode: "mail" },
  );
  assert.deepEqual(
    r.lines.map((l) => [l.kind, l.ok, l.order ?? null]),
    [
      ["order", true, "build A ber"],
      ["order", true, "build F kie"],
      ["comment", true, null],
    ],
    "the builds are shown as read; the thanks is a comment",
  );
  const waive = readSubmission(classical, winter, HOUSE_RULES, [powerId("germany")], {
    orders: "no build",
  });
  assert.deepEqual(
    waive.lines.map((l) => [l.ok, l.order ?? null]),
    [[true, "waive"]],
    "`no build` is a waive",
  );
});

test("early orders: only for the retreat and adjustment phases that can still come before the next movement", () => {
  const toCome = (open: string, seasons: "standard" | "summer-winter") =>
    phasesToCome(parsePhase(open)!, seasons).map(phaseName);
  assert.deepEqual(toCome("S1901M", "standard"), ["S1901R"], "spring: its retreats");
  assert.deepEqual(toCome("F1901M", "standard"), ["F1901R", "W1901A"], "fall: retreats, winter");
  assert.deepEqual(toCome("F1901R", "standard"), ["W1901A"], "fall retreats: winter");
  assert.deepEqual(toCome("S1901R", "standard"), [], "spring retreats: a movement comes next");
  assert.deepEqual(toCome("W1901A", "standard"), [], "winter: a movement comes next");
  assert.deepEqual(toCome("S1901M", "summer-winter"), ["U1901R"], "summer retreats");
  assert.deepEqual(toCome("F1901M", "summer-winter"), ["W1901R"], "winter, one phase");
  assert.deepEqual(toCome("W1901R", "summer-winter"), [], "then a movement");

  assert.deepEqual(submissionPhase("s1901r", "S1901M"), { kind: "early", phase: "S1901R" });
  assert.deepEqual(submissionPhase("U1901R", "S1901M", "summer-winter"), {
    kind: "early",
    phase: "U1901R",
  });
  assert.deepEqual(submissionPhase("W1901A", "F1901M"), { kind: "early", phase: "W1901A" });
  assert.deepEqual(
    submissionPhase("W1901A", "F1901R"),
    { kind: "early", phase: "W1901A" },
    "with standard seasons the winter adjustments are kept for their phase while the fall retreats are open",
  );
  assert.deepEqual(
    submissionPhase("W1901R", "W1901R", "summer-winter"),
    { kind: "open" },
    "the house rules' winter phase is one",
  );
  // Seed 002 II(5) C: "submit your fall 1914 retreat orders in 1901".
  assert.deepEqual(submissionPhase("W1914R", "S1901M", "summer-winter"), {
    kind: "early",
    phase: "W1914R",
  });
  assert.deepEqual(submissionPhase("W1921R", "F1901M", "summer-winter"), {
    kind: "early",
    phase: "W1921R",
  });
  // Not for phases beyond EARLY_YEARS_AHEAD: what one player keeps on file stays bounded.
  for (const far of ["U1922R", "W9999R"]) {
    assert.throws(
      () => submissionPhase(far, "F1901M", "summer-winter"),
      (e: { kind: string; message: string }) =>
        e.kind === "invalid" &&
        e.message ===
          `these orders are for ${far}, more than ${EARLY_YEARS_AHEAD} years after F1901M: early orders are kept for the phases of the next ${EARLY_YEARS_AHEAD} years (to 1921); send them later`,
      far,
    );
  }
  assert.deepEqual(submissionPhase("S1901M", "S1901M"), { kind: "open" }, "the open phase");
  const refusal = (wanted: string, open: string, seasons: "standard" | "summer-winter") => {
    try {
      submissionPhase(wanted, open, seasons);
    } catch (e) {
      return e as { kind: string; message: string };
    }
    return assert.fail(`${wanted} while ${open} is open was accepted`);
  };
  for (const [wanted, open, seasons, may] of [
    ["U1901R", "S1901M", "standard", "S1901M, or early for S1901R"],
    ["S1901R", "S1901M", "summer-winter", "S1901M, or early for U1901R or a later summer"],
    ["W1901A", "F1901M", "summer-winter", "F1901M, or early for W1901R or a later summer"],
    ["S1902R", "S1901M", "standard", "S1901M, or early for S1901R"],
    ["F1901R", "S1901M", "standard", "S1901M, or early for S1901R"],
    ["W1901A", "S1901R", "standard", "only for S1901R"],
    ["W1902A", "F1901M", "standard", "F1901M, or early for F1901R or W1901A"],
  ] as const) {
    const e = refusal(wanted, open, seasons);
    assert.equal(e.kind, "invalid", `${wanted} while ${open} is open: a 400`);
    assert.ok(
      e.message.includes(`${wanted}, a phase that cannot follow ${open}`) &&
        e.message.includes(may),
      `${wanted} while ${open}: says which phases may be sent: ${e.message}`,
    );
  }
  const movement = refusal("F1901M", "S1901M", "standard");
  assert.equal(movement.kind, "conflict", "a later movement phase: not open yet (409)");
  assert.match(movement.message, /open for orders is S1901M.*early for S1901R/, movement.message);
});

test("a dated sheet (seed 000): its date is no order; a date of another phase refuses the sheet whole", () => {
  const germany = powerId("germany");
  /** Germany's sheet of orders in 1935, read on `position` (null: the phase is `options`'). */
  const sheet = (
    position: typeof europe1935.start | null,
    orders: string,
    options?: Parameters<typeof readSubmission>[5],
  ) => readSubmission(europe1935, position, DATC_RULES, [germany], { orders }, options);
  const r = sheet(europe1935.start, "Germany, Spring 1935\n1. A Mun - Sax\n2) F Ham H");
  assert.deepEqual(
    r.lines.map((l) => [l.kind, l.ok]),
    [
      ["date", true],
      ["order", true],
      ["order", true],
    ],
  );
  assert.deepEqual(r.sets.get(germany), ["A Mun - Sax", "F Ham H"], "the orders, without marks");
  assert.throws(
    () => sheet(europe1935.start, "Orders for Spring 1936\nA Mun - Sax"),
    /dated "Orders for Spring 1936", but the phase open for orders is Spring 1935 movement \(S1935M\)/,
  );
  assert.throws(
    () =>
      sheet(europe1935.start, "Spring 1935\nA Mun - Sax", { mode: "mail" }) &&
      sheet(null, "Fall 1935\nA Mun H", { phase: parsePhase("F1935R")!, mode: "mail" }) &&
      sheet(null, "Spring 1936\nA Mun H", { phase: parsePhase("F1935R")! }),
    /phase open for orders is Fall 1935 retreats/,
    "early orders are checked against the phase they are for",
  );
});
