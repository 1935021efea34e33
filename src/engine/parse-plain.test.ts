/**
 * The plain order forms read directly (parse-plain.ts) read as the full reader reads them:
 * the same reading, field for field and in the same order of fields, for every text of a
 * contract corpus, for every pair of provinces of each variant in each form, and for texts
 * that look plain but are not (those go to the full reader).
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { contractCorpus } from "../../bench/contract-corpus.ts";
import { getVariant, variantIds } from "../variants/registry.ts";
import { parseChecked, parseOrder } from "./parse.ts";
import { readPlain } from "./parse-plain.ts";
import type { ParseOptions } from "./parse-types.ts";
import { parseOptionsFor } from "./reading.ts";
import { DATC_RULES } from "./rules.ts";
import type { Variant } from "./variant.ts";

const DATC: ParseOptions = parseOptionsFor(DATC_RULES);

function classical(): Variant {
  const v = getVariant("classical");
  if (!v) throw new Error("no classical variant");
  return v;
}

/** `parseOrder`'s answer is the full reader's, and the plain reading (if any) is that too. */
function sameAsReader(v: Variant, text: string, options: ParseOptions = DATC): boolean {
  const full = parseChecked(text, v.map, v.powers, options);
  assert.equal(
    JSON.stringify(parseOrder(text, v.map, v.powers, options)),
    JSON.stringify(full),
    text,
  );
  assert.deepEqual(parseOrder(text, v.map, v.powers, options), full, text);
  const plain = readPlain(text, v.map, v.powers, (t) => parseChecked(t, v.map, v.powers, options));
  if (plain === null) return false;
  assert.equal(JSON.stringify(plain), JSON.stringify(full), text);
  assert.deepEqual(plain, full, text);
  return true;
}

describe("order texts in the plain form", () => {
  test("every text of a contract corpus reads as the full reader reads it", () => {
    const v = classical();
    const texts = new Set<string>();
    for (const line of contractCorpus({ lines: 600, seed: 11 })) {
      const orders = (JSON.parse(line) as { orders: Record<string, string[]> }).orders;
      for (const list of Object.values(orders)) for (const t of list) texts.add(t);
    }
    let plain = 0;
    for (const t of texts) if (sameAsReader(v, t)) plain++;
    // Nearly all of a corpus's texts are plain (coasts are not): the direct reading is used.
    assert.ok(plain > texts.size * 0.9, `${plain} of ${texts.size} read directly`);
  });

  test("each variant: every province in every place of every form", () => {
    for (const id of variantIds()) {
      const v = getVariant(id)!;
      const ids = v.map.provinces.map((p) => p.id);
      let plain = 0;
      for (let i = 0; i < ids.length; i++) {
        const a = ids[i]!;
        const b = ids[(i * 7 + 3) % ids.length]!;
        const c = ids[(i * 13 + 5) % ids.length]!;
        for (const t of [
          `A ${a} H`,
          `F ${a} H`,
          `A ${a} - ${b}`,
          `F ${b} - ${a}`,
          `F ${a} S A ${b}`,
          `A ${b} S F ${a}`,
          `A ${a} S F ${b} - ${c}`,
          `F ${c} S A ${a} - ${b}`,
          `F ${a} C A ${b} - ${c}`,
          `F ${b} C F ${c} - ${a}`,
        ])
          if (sameAsReader(v, t)) plain++;
      }
      assert.ok(plain > 0, `${id}: no text read directly`);
    }
  });

  test("texts that look plain and are not: the full reader's answer", () => {
    const v = classical();
    for (const t of [
      "A par - bur via convoy",
      "A par - bur by convoy",
      "A par-bur",
      "A par  - bur",
      " A par - bur",
      "A par - bur ",
      "a par - bur",
      "A Par - bur",
      "A par - Bur",
      "A par -> bur",
      "A par - bur - mar",
      "A par - xyz",
      "A pa - bur",
      "A paris - bur",
      "A par H H",
      "A par h",
      "A par",
      "A par S",
      "A par S A",
      "A par S A bur -",
      "A par S A bur - ",
      "A par S A bur H",
      "A par S bur",
      "A par C A bur",
      "F nth C A lon -nwy",
      "F nth C X lon - nwy",
      "F stp/sc - bot",
      "F bot - stp/sc",
      "F stp/sc S A mos",
      "F nth S F stp/nc - nwy",
      "A mun S A par - bur/nc",
      "F spa/nc H",
      "X par - bur",
      "A par R bur",
      "A par - bur\n",
      "A par\t- bur",
      "A par – bur",
      "",
    ])
      sameAsReader(v, t);
  });

  test("with typo correction or convoy routes the full reader reads every text", () => {
    const v = classical();
    for (const options of [{ typos: "correct" }, { convoyRoutes: true }] as ParseOptions[])
      for (const t of ["A par - bur", "A lon - nth - nwy", "F nth C A lon - nwy", "A pr - bur"]) {
        assert.deepEqual(
          parseOrder(t, v.map, v.powers, options),
          parseChecked(t, v.map, v.powers, options),
          t,
        );
      }
  });
});
