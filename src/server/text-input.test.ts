import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { STORE_KINDS } from "../store/testing.ts";
import { serveJudge } from "./testing.ts";

/*
 * Text that no store keeps (issue 28): a NUL answered 500 on PostgreSQL; control characters
 * and bidirectional overrides in names, labels and addresses are refused on every store with
 * a 400 naming the character and the field; press keeps its lines and tabs.
 */

for (const kind of STORE_KINDS) {
  describe(`text the judge refuses, on ${kind}`, () => {
    test("NUL, controls and bidi overrides: 400 naming what and where; press keeps lines", async (t) => {
      const s = await serveJudge(t, kind);
      if (!s) return;
      const { api } = s;
      const gm = await api.ok<{ token: string }>("POST", "/api/users", {
        name: "textgm",
        password: "correct horse battery",
      });
      const refused = async (method: string, path: string, body: unknown, re: RegExp) => {
        const a = await api.call<{ error: string }>(method, path, body, gm.token);
        assert.equal(
          a.status,
          400,
          `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(a.body)}`,
        );
        assert.match(a.body.error, re);
      };
      /** POSTs `{ [field]: value }`: accepted, and the answer has the value as sent. */
      const kept = async (path: string, field: string, value: string) => {
        const a = await api.ok<Record<string, unknown>>("POST", path, { [field]: value }, gm.token);
        assert.equal(a[field], value);
      };
      await refused(
        "POST",
        "/api/games",
        { name: "club\u0000game" },
        /U\+0000 \(a NUL character\)/,
      );
      await refused(
        "POST",
        "/api/games",
        { name: "club\u202egame" },
        /U\+202E \(a right-to-left override\)/,
      );
      await refused(
        "POST",
        "/api/games",
        { name: "club\tgame" },
        /a game's name holds U\+0009 \(a tab\).*one line/,
      );
      await refused("POST", "/api/tokens", { label: "bot\u0000" }, /NUL/);
      await refused(
        "POST",
        "/api/tokens",
        { label: "bot\u2066x" },
        /body.label holds U\+2066 \(a left-to-right isolate\)/,
      );
      await refused(
        "POST",
        "/api/tokens",
        { label: "bot\nx" },
        /token's label holds U\+000A \(a line break\)/,
      );
      await refused("POST", "/api/me/mail", { address: "a\u0000@example.org" }, /NUL/);
      await refused("POST", "/api/me/mail", { address: "a\u202d@example.org" }, /override/);
      const game = await api.ok<{ id: string }>(
        "POST",
        "/api/games",
        { name: "Text game" },
        gm.token,
      );
      await refused(
        "POST",
        `/api/games/${game.id}/press`,
        { to: "all", body: "hi\u0000" },
        /body\.body holds U\+0000/,
      );
      await refused(
        "POST",
        `/api/games/${game.id}/press`,
        { to: "all", body: "hi\u202e" },
        /bidirectional/,
      );
      await refused(
        "POST",
        `/api/games/${game.id}/press`,
        { to: "all", body: "hi\u001b[31m" },
        /U\+001B \(an escape character\)/,
      );
      await refused(
        "POST",
        `/api/games/${game.id}/votes`,
        { kind: "houserule", text: "\u0000" },
        /NUL/,
      );
      // A path parameter or a query value with a NUL: 400, not a 500 from the store.
      const path = await api.call<{ error: string }>("GET", "/api/games/ab%00cd");
      assert.equal(path.status, 400, JSON.stringify(path.body));
      assert.match(path.body.error, /the path's id holds U\+0000/);
      // Still accepted: line breaks and tabs in press, right-to-left marks, any script.
      await kept("/api/games", "name", "Partie עברית 🎲");
      await api.ok("POST", "/api/tokens", { label: "laptop (Firefox)" }, gm.token);
      await kept("/api/me/mail", "address", "gm@example.org");
      const press = await api.call<{ error?: string }>(
        "POST",
        `/api/games/${game.id}/press`,
        { to: "all", body: "Dear all,\n\tlet us talk.\r\n" },
        gm.token,
      );
      assert.notEqual(press.status, 400, JSON.stringify(press.body));
    });
  });
}
