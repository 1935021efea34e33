import assert from "node:assert/strict";
import { test } from "node:test";
import { testStore } from "../store/testing.ts";
import { Judge } from "./judge.ts";
import { passwordProblem } from "./password-policy.ts";

/* Passwords an account may not have (issue 28): breached, the user's name, white space. */

test("passwords: the commonly breached ones, the user's name and white space are refused", async () => {
  for (const pw of ["password", "password1", "12345678", "qwertyuiop", "iloveyou", "Password1!"]) {
    assert.match(
      (await passwordProblem(pw, "ann")) ?? "accepted",
      /refused: it is .*(most often|breach|keyboard|sequence).*; choose at least 8 characters/,
      pw,
    );
  }
  assert.match(
    (await passwordProblem("        ", "ann")) ?? "accepted",
    /white space only is refused: choose/,
  );
  assert.match((await passwordProblem(" \t \n    ", "ann")) ?? "accepted", /white space only/);
  for (const pw of ["Annabelle", "annabelle1990!", "ELLEBANNA", "anna_belle"]) {
    assert.match(
      (await passwordProblem(pw, "annabelle")) ?? "accepted",
      /your user name|made from your user name/,
      pw,
    );
  }
  assert.match((await passwordProblem("short", "ann")) ?? "accepted", /at least 8 characters/);
  for (const pw of [
    "correct horse battery",
    "lantern violet orbit",
    "Tr0ub4dor&3",
    "ann-secret!",
  ]) {
    assert.equal(await passwordProblem(pw, "ann"), null, pw);
  }
});

test("passwords: registration refuses a weak one with a 400's message and stores nothing", async (t) => {
  const ts = await testStore(t, "sqlite");
  if (!ts) return;
  const judge = new Judge({ store: ts.store });
  await assert.rejects(
    judge.accounts.register("marta", "password"),
    (e: Error & { kind?: string }) => {
      assert.equal(e.kind, "invalid");
      assert.match(e.message, /most often used.*three or four unrelated words/);
      return true;
    },
  );
  await assert.rejects(judge.accounts.register("marta", "Marta2026"), { kind: "invalid" });
  const rows = await ts.store.db.selectFrom("users").select("id").execute();
  assert.equal(rows.length, 0, "no account was made");
  await judge.accounts.register("marta", "lantern violet orbit");
});
