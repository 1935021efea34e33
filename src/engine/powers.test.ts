import assert from "node:assert/strict";
import { test } from "node:test";
import { readOrderFile } from "../cli/games.ts";
import { classical } from "../variants/classical/index.ts";
import { europe1935 } from "../variants/europe1935/index.ts";
import { findPower } from "../variants/europe1935/insurrection.ts";
import { getScenario } from "../variants/scenarios.ts";
import { readOrderSet } from "./orderset.ts";
import { findPowerByName, powerNames } from "./powers.ts";
import { DATC_RULES } from "./rules.ts";
import type { Variant } from "./variant.ts";

/*
 * A power is recognised by every name a delegate would write (seed 000, issue 16): the
 * variant's aliases, read the same way by order-set headers (mail, order files, the judge),
 * the committee's insurrection orders, and orders naming a unit's nationality.
 */

/** The names delegates write, per europe1935 power. */
const DELEGATES: Record<string, string[]> = {
  uk: [
    "UK",
    "U.K.",
    "United Kingdom",
    "the United Kingdom",
    "Britain",
    "Great Britain",
    "England",
    "British",
  ],
  france: ["France", "Republic of France", "French"],
  italy: ["Italy", "Kingdom of Italy", "Italian"],
  germany: ["Germany", "German Empire", "German Reich", "Reich", "German"],
  ussr: [
    "USSR",
    "U.S.S.R.",
    "Soviet Union",
    "Union of Soviet Socialist Republics",
    "Russia",
    "Soviet",
  ],
  turkey: ["Turkey", "Türkiye", "Turkish"],
  yugoslavia: ["Yugoslavia", "Kingdom of Yugoslavia", "Yugoslav"],
  spain: ["Spain", "España", "Spanish"],
  poland: ["Poland", "Republic of Poland", "Polish"],
};

test("every name a delegate writes names the right europe1935 power", () => {
  for (const [power, names] of Object.entries(DELEGATES)) {
    for (const name of names) {
      assert.equal(findPowerByName(europe1935.powers, name), power, name);
      assert.equal(findPowerByName(europe1935.powers, `${name.toUpperCase()}:`), power, name);
      assert.equal(findPower(europe1935, name), power, `the insurrection order's ${name}`);
    }
  }
  assert.equal(findPowerByName(europe1935.powers, "Prussia"), null, "a province is no power");
  assert.equal(findPowerByName(classical.powers, "UK"), null, "aliases are the variant's own");
});

test("a header with any of a power's names starts its orders, in a mail body and an order file", () => {
  for (const [power, names] of Object.entries(DELEGATES)) {
    for (const name of names) {
      for (const header of [name, `${name}:`, `${name} orders`, `Orders for ${name}`]) {
        const set = readOrderSet(`${header}\nA xyz H`, europe1935, null, { rules: DATC_RULES });
        assert.deepEqual(set.powers, [power], `header ${JSON.stringify(header)}`);
      }
    }
  }
  const scenario = getScenario("europe1935");
  assert.ok(scenario, "the europe1935 scenario");
  const file = readOrderFile("UK:\nF lon - nth\nSoviet Union:\nA mos - ukr\n", scenario);
  assert.deepEqual(file.get(europe1935.powers[0]!.id), ["F lon - nth"]);
  assert.deepEqual(file.get(europe1935.powers[4]!.id), ["A mos - ukr"]);
  const json = readOrderFile(JSON.stringify({ "Great Britain": ["F lon - nth"] }), scenario);
  assert.deepEqual(json.get(europe1935.powers[0]!.id), ["F lon - nth"], "a JSON order file's keys");
});

test("an order may name a unit's power by an alias", () => {
  const set = readOrderSet("Soviet Union:\nRussian A mos - ukr", europe1935, null, {
    rules: DATC_RULES,
    position: europe1935.start,
  });
  const line = set.lines.find((l) => l.text === "Russian A mos - ukr");
  assert.equal(line?.status, "understood", JSON.stringify(line));
  assert.equal(line?.order, "A mos - ukr");
});

test("the header an order file's message recommends is one the reader accepts, for every variant", () => {
  for (const id of ["classical", "europe1935"]) {
    const scenario = getScenario(id);
    assert.ok(scenario, id);
    let message = "";
    try {
      readOrderFile("A par - bur\n", scenario);
    } catch (e) {
      message = (e as Error).message;
    }
    const m = /put e\.g\. "([^"]+)" on the line above/.exec(message);
    assert.ok(m, `${id}: the message recommends a header: ${message}`);
    const first = scenario.variant.powers[0]!;
    const orders = readOrderFile(`${m[1]}\nA par H\n`, scenario);
    assert.deepEqual([...orders.keys()], [first.id], `${id}: ${m[1]} is accepted`);
  }
});

test("the variant file refuses a name that stands for two powers", async () => {
  const { loadVariant } = await import("../variants/data.ts");
  const { variantToData } = await import("../variants/data-format.ts");
  const data = variantToData(europe1935 as Variant) as unknown as {
    powers: { aliases?: string[] }[];
  };
  assert.deepEqual(
    data.powers[0]!.aliases,
    europe1935.powers[0]!.aliases ? [...europe1935.powers[0]!.aliases] : undefined,
    "the aliases are written back",
  );
  data.powers[2]!.aliases = ["Kingdom of Italy", "Britain"];
  const r = loadVariant(data);
  assert.equal(r.ok, false, "refused");
  if (!r.ok)
    assert.ok(
      r.errors.some((e) =>
        /powers\[2\]\.aliases\[1\]: "Britain" already names powers\[0\]/.test(e),
      ),
      r.errors.join("\n"),
    );
  assert.ok(powerNames(europe1935.powers[0]!).includes("Great Britain"));
});
