import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { STORE_KINDS } from "../store/testing.ts";
import { sevenPlayerGameOn } from "./testing.ts";
import { jsonTextProblem, lineProblem, textProblem } from "./text.ts";

/*
 * The characters the judge refuses (issue 28), by the judge itself: so that mail, which does
 * not pass the HTTP layer's body check, is refused with the same message and PostgreSQL is
 * never handed a NUL.
 */

test("one-line text, text of lines, and any JSON body", () => {
  assert.equal(lineProblem("Club game 1 — Ελληνικά 🎲", "a game's name"), null);
  assert.match(lineProblem("a\u0000b", "x") ?? "", /U\+0000 \(a NUL character\) at character 2/);
  assert.match(lineProblem("a\u202eb", "x") ?? "", /U\+202E \(a right-to-left override\)/);
  assert.match(lineProblem("a\u200fb", "x") ?? "", /right-to-left mark/);
  assert.match(lineProblem("a\u0085b", "x") ?? "", /U\+0085 \(an invisible control character\)/);
  assert.equal(textProblem("Dear all,\n\tyes.\r\n\u200f", "press"), null, "lines, tabs, marks");
  assert.match(textProblem("x\u0007", "press") ?? "", /U\+0007/);
  assert.match(textProblem("x\u2066y", "press") ?? "", /left-to-right isolate/);
  assert.match(
    jsonTextProblem({ a: ["ok", { b: "no\u0000" }] }) ?? "",
    /^body\.a\[1\]\.b holds U\+0000/,
  );
  assert.match(jsonTextProblem({ "k\u202e": 1 }) ?? "", /a field name in body holds U\+202E/);
  assert.equal(jsonTextProblem({ orders: ["A par H", "F bre - mao"], n: 3 }), null);
});

for (const kind of STORE_KINDS) {
  describe(`the judge refuses NUL and bidi overrides on ${kind}`, () => {
    test("orders and press (the mail path's calls) are a 400's refusal, not a store error", async (t) => {
      const g = await sevenPlayerGameOn(t, kind);
      if (!g) return;
      await g.judge.adjudication.tick();
      const france = g.players.france;
      await assert.rejects(
        g.judge.submissions.submitOrders(france, g.gameId, { orders: "A par H\u0000" }),
        (e: Error & { kind?: string }) =>
          e.kind === "invalid" && /the orders holds U\+0000/.test(e.message),
      );
      await assert.rejects(
        g.judge.submissions.submitOrders(france, g.gameId, {
          orders: ["A par H", "F bre\u202e H"],
        }),
        { kind: "invalid" },
      );
      await assert.rejects(
        g.judge.press.sendPress(france, g.gameId, { to: "all", body: "hello\u0000" }),
        { kind: "invalid" },
      );
      const ok = await g.judge.submissions.submitOrders(france, g.gameId, {
        orders: "A par H\r\nF bre H\n",
      });
      assert.ok(ok, "line breaks are fine");
    });
  });
}
