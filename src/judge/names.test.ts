import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { STORE_KINDS } from "../store/testing.ts";
import { lookAlike, nameProblem, normaliseName } from "./names.ts";
import { judgeOn } from "./testing.ts";

/* User names that cannot pass for one another (issue 21): NFKC, one script, skeletons. */

const refusal = async (f: () => Promise<unknown>): Promise<{ kind: string; message: string }> => {
  try {
    await f();
  } catch (e) {
    return e as { kind: string; message: string };
  }
  return assert.fail("the name was accepted");
};

test("names: normalised, one script, no invisible characters", () => {
  assert.equal(
    normaliseName(" ｐｌ＿ｉｔａｌｙ "),
    "pl_italy",
    "full-width letters are plain ones",
  );
  assert.equal(normaliseName("ℌ𝔢𝔩𝔤𝔞"), "Helga", "styled letters are plain ones");
  assert.equal(normaliseName("E\u0301mile"), "Émile", "a letter and its accent are one");
  assert.equal(nameProblem("pl_italy"), null, "a plain name");
  assert.equal(nameProblem("Émile"), null, "an accented one");
  assert.equal(nameProblem("Дмитрий"), null, "Cyrillic alone");
  assert.equal(nameProblem("山田たろう"), null, "Japanese: Han with kana");
  assert.equal(nameProblem("김철수"), null, "Korean");
  assert.match(nameProblem("pl_itаly") ?? "", /one script.*Latin and Cyrillic/, "Latin with а");
  assert.match(nameProblem("Αlice") ?? "", /Greek and Latin|Latin and Greek/, "a Greek Alpha");
  assert.match(nameProblem("pl\u200bitaly") ?? "", /invisible/, "a zero-width space");
  assert.match(nameProblem("pl\u00a0italy") ?? "", /no spaces/, "a no-break space");
});

test("names: a name that looks like a taken one is found by its skeleton", () => {
  const taken = ["pl_italy", "bobl", "rnary", "Ian", "0scar"];
  assert.equal(lookAlike("PL_ITALY", taken), "pl_italy", "case");
  assert.equal(lookAlike("bob1", taken), "bobl", "1 and l");
  assert.equal(lookAlike("mary", taken), "rnary", "m and rn");
  assert.equal(lookAlike("lan", taken), "Ian", "capital I and l");
  assert.equal(lookAlike("Oscar", taken), "0scar", "O and 0");
  assert.equal(lookAlike("pl_іtaly", taken), "pl_italy", "a Cyrillic і (refused anyway)");
  assert.equal(lookAlike("pl_france", taken), undefined, "a different name");
  assert.equal(lookAlike("bob2", taken), undefined, "another digit");
});

for (const kind of STORE_KINDS) {
  describe(`names on ${kind}`, () => {
    test("registration refuses look-alikes of taken names; login finds the normalised name", async (t) => {
      const judge = await judgeOn(t, kind);
      if (!judge) return;
      await judge.accounts.register("pl_italy", "correct horse battery");
      await judge.accounts.register("Émile", "correct horse battery");
      const cyrillic = await refusal(() =>
        judge.accounts.register("pl_itаly", "correct horse battery"),
      );
      assert.equal(cyrillic.kind, "invalid", cyrillic.message);
      assert.match(cyrillic.message, /Latin and Cyrillic/, cyrillic.message);
      const digit = await refusal(() =>
        judge.accounts.register("pl_ita1y", "correct horse battery"),
      );
      assert.equal(digit.kind, "conflict", digit.message);
      assert.match(digit.message, /looks like "pl_italy", which is taken/, digit.message);
      const wide = await refusal(() =>
        judge.accounts.register("ｐｌ＿ｉｔａｌｙ", "correct horse battery"),
      );
      assert.equal(wide.kind, "conflict", `full-width is the same name: ${wide.message}`);
      const invisible = await refusal(() =>
        judge.accounts.register("pl_\u200ditaly", "correct horse battery"),
      );
      assert.equal(invisible.kind, "invalid", invisible.message);
      const styled = await judge.accounts.register("𝐌𝐚𝐫𝐭𝐚", "correct horse battery");
      assert.equal(styled.user.name, "Marta", "stored normalised");
      assert.equal(
        (await judge.accounts.login("ｍａｒｔａ", "correct horse battery")).user.name,
        "Marta",
        "logs in",
      );
      assert.equal(
        (await judge.accounts.login("Émile", "correct horse battery")).user.name,
        "Émile",
        "as written",
      );
      assert.equal(
        (await judge.accounts.login("E\u0301mile", "correct horse battery")).user.name,
        "Émile",
        "decomposed",
      );
    });
  });
}

test("names: a name that differs from a taken one only by diacritics is taken (issue 28)", () => {
  const taken = ["plaaustria", "Emile"];
  assert.equal(lookAlike("plaausṭria", taken), "plaaustria", "t with a dot below");
  assert.equal(lookAlike("pláaustriа".replace("а", "a"), taken), "plaaustria", "an acute accent");
  assert.equal(lookAlike("E\u0301mile", taken), "Emile", "a combining accent");
  assert.equal(lookAlike("Émîlè", taken), "Emile", "several");
  assert.equal(lookAlike("plaausria", taken), undefined, "a different name");
});
