import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { serveJudge } from "../server/testing.ts";
import { STORE_KINDS } from "../store/testing.ts";
import { europe1935 } from "../variants/europe1935/index.ts";
import { nextPhase, seatedGame } from "./committee-testing.ts";

/*
 * How a game is won (issue 16, seed 000): a variant says it in its data. With a centre
 * victory the judge ends the game when a power reaches it; a variant without one
 * (`victoryCenters: null`, as europe1935) is never ended by centres. The Historical
 * Committee is won on victory points when the chairs end the session: the power alone on
 * the highest total wins, a tie at the top draws.
 */

interface GameJson {
  id: string;
  phase: string | null;
  phaseIndex: number;
  deadline: string | null;
  state: string;
  status: string;
  result: Record<string, unknown> | null;
  invites?: { code: string; role: string }[];
}

/** Three land centres in a triangle; Red takes the neutral one and holds two of three. */
function duel(victoryCenters: number | null): Record<string, unknown> {
  const land = (id: string, home: string | null, army: string[]) => ({
    id,
    name: `Land ${id.toUpperCase()}`,
    kind: "land",
    supplyCenter: true,
    ...(home ? { home } : {}),
    army,
    fleet: [],
  });
  return {
    id: `duel${victoryCenters ?? "none"}`,
    name: "Duel",
    victoryCenters,
    startPhase: "S1901M",
    powers: [
      { id: "red", name: "Redland", adjective: "Red", letter: "R" },
      { id: "blue", name: "Blueland", adjective: "Blue", letter: "B" },
    ],
    provinces: [
      land("aaa", "red", ["bbb", "ccc"]),
      land("bbb", "blue", ["aaa", "ccc"]),
      land("ccc", null, ["aaa", "bbb"]),
    ],
    startUnits: { red: ["A aaa"], blue: ["A bbb"] },
  };
}

for (const kind of STORE_KINDS) {
  describe(`how a game is won, in the judge on ${kind}`, () => {
    test("a centre victory ends the game; a variant without one goes on past the same position", async (t) => {
      const s = await serveJudge(t, kind);
      if (!s) return;
      const { api, clock } = s;
      const play = async (victoryCenters: number | null) => {
        const { id, tok, gm } = await seatedGame(
          api,
          "Victory",
          { variantData: duel(victoryCenters) },
          ["red", "blue"],
        );
        for (const orders of [["A aaa - ccc"], ["A ccc H"]]) {
          await api.ok("POST", `/api/games/${id}/orders`, { orders }, tok.red);
          await nextPhase(api, clock, id);
        }
        return { view: await api.ok<GameJson>("GET", `/api/games/${id}`), id, gm };
      };
      const solo = await play(2);
      assert.equal(solo.view.status, "finished", "two centres of three win: the game is over");
      assert.deepEqual(solo.view.result, { kind: "solo", winner: "red" }, "Red's solo");
      const none = await play(null);
      assert.equal(none.view.status, "active", "no centre count ends this one");
      assert.equal(none.view.result, null, "no result");
      assert.equal(none.view.phase, "W1901A", "Red builds for its second centre");
      // Only a variant with victory points can be ended on them.
      const r = await api.call(
        "POST",
        `/api/games/${none.id}/gm/end`,
        { result: "points" },
        none.gm,
      );
      assert.equal(r.status, 400, "no victory points here");
      assert.match(JSON.stringify(r.body), /has no victory points/, "says so");
    });

    test("the chairs end the committee: the most victory points win, a tie draws", async (t) => {
      const s = await serveJudge(t, kind);
      if (!s) return;
      const { api } = s;
      const powers = europe1935.powers.map((p) => p.id as string);
      const nine = async () => seatedGame(api, "Victory", { variant: "europe1935" }, powers);
      // Poland achieves a goal worth 2: it alone leads and wins.
      const won = await nine();
      const goals = `/api/games/${won.id}/committee/goals`;
      await api.ok("POST", goals, { power: "poland", text: "Hold Danzig", points: 2 }, won.gm);
      await api.ok("POST", `${goals}/g1`, { decision: "achieved" }, won.gm);
      await api.ok("POST", `/api/games/${won.id}/gm/end`, { result: "points" }, won.gm);
      const g = await api.ok<GameJson>("GET", `/api/games/${won.id}`);
      assert.equal(g.status, "finished", "over");
      assert.equal(g.result?.kind, "points", "ended on victory points");
      assert.equal(g.result?.winner, "poland", "the power alone on the most points");
      assert.deepEqual(g.result?.powers, ["poland"], "the leaders");
      assert.equal(
        (g.result?.scores as Record<string, number> | undefined)?.poland,
        2,
        "with the totals",
      );
      // Two powers on the same highest total: a draw between them, no winner.
      const tied = await nine();
      const tg = `/api/games/${tied.id}/committee/goals`;
      await api.ok("POST", tg, { power: "spain", text: "Hold Gibraltar", points: 1 }, tied.gm);
      await api.ok("POST", tg, { power: "italy", text: "Take Abyssinia", points: 1 }, tied.gm);
      await api.ok("POST", `${tg}/g1`, { decision: "achieved" }, tied.gm);
      await api.ok("POST", `${tg}/g2`, { decision: "achieved" }, tied.gm);
      await api.ok("POST", `/api/games/${tied.id}/gm/end`, { result: "points" }, tied.gm);
      const d = await api.ok<GameJson>("GET", `/api/games/${tied.id}`);
      assert.equal(d.result?.winner, null, "no winner");
      assert.deepEqual(
        [...((d.result?.powers as string[] | undefined) ?? [])].sort(),
        ["italy", "spain"],
        "a draw between the leaders",
      );
    });
  });
}
