import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { type GameRecord, replayRecord } from "../engine/record.ts";
import { type Api, serveJudge } from "../server/testing.ts";
import { STORE_KINDS } from "../store/testing.ts";
import { recordScores } from "../variants/europe1935/acts.ts";
import { europe1935 } from "../variants/europe1935/index.ts";
import { scenarioOfRecord } from "../variants/variant-files.ts";
import { account, nextPhase, seatedGame } from "./committee-testing.ts";

/*
 * The Historical Committee in the judge, through the HTTP API (docs/committee.md, "In the
 * judge"): goals set, proposed, approved and achieved; the scores in the game view for
 * everyone; conferences refused, conquered and expired; the record with the committee replays
 * to the same scores; a game with an uploaded variant.
 */

const POWERS = europe1935.powers.map((p) => p.id as string);

interface Scores {
  territorialCenters: number;
  rows: { power: string; total: number; political: number; centres: number }[];
  winner: string | null;
  leaders: string[];
}
interface ConferenceJson {
  name: string;
  location: string;
  participants: string[];
  opened: string;
  endsBy: string;
  ended?: string;
  reason?: string;
}
interface GameJson {
  id: string;
  phase: string | null;
  phaseIndex: number;
  deadline: string | null;
  rules: Record<string, unknown>;
  seats: number;
  variant: string;
  invites?: { code: string; role: string }[];
  scores?: Scores;
  conferences?: { current: ConferenceJson | null; past: ConferenceJson[] };
}
interface CommitteeJson {
  scores: Scores;
  goals: { id: string; power: string; text: string; status: string; achieved: boolean }[];
}

/** A game of nine players; no civil disorder (phases pass with everybody holding). */
const nineGame = (api: Api, body: Record<string, unknown>) =>
  seatedGame<GameJson>(api, "Historical Committee", body, POWERS);

for (const kind of STORE_KINDS) {
  describe(`the committee in the judge on ${kind}`, () => {
    test("goals, scores in the game view, conferences refused, conquered and expired; the record replays to the same scores", async (t) => {
      const s = await serveJudge(t, kind);
      if (!s) return;
      const { api, clock } = s;
      const { id, gm, tok, game } = await nineGame(api, { variant: "europe1935" });
      assert.equal(game.rules.moveWithoutCoast, "required", "the variant's rule default");
      const base = `/api/games/${id}/committee`;
      const view = () => api.ok<GameJson>("GET", `/api/games/${id}`);
      const advance = () => nextPhase<GameJson>(api, clock, id);

      // Everybody sees the table from the start: nine powers on 0, a nine-way draw.
      let g = await view();
      assert.equal(g.scores?.rows.length, 9, "nine rows");
      assert.equal(g.scores?.territorialCenters, 15, "the documented default");
      assert.deepEqual(g.scores?.winner, null, "no winner");
      assert.equal(g.scores?.leaders.length, 9, "all lead");

      // Goals: the chairs set one, the UK proposes one; only the chairs approve.
      await api.ok(
        "POST",
        `${base}/goals`,
        { power: "uk", text: "Peace for our time", points: 2 },
        gm,
      );
      const proposed = await api.ok<CommitteeJson>(
        "POST",
        `${base}/goals`,
        { text: "Dunkirk" },
        tok.uk,
      );
      assert.deepEqual(
        proposed.goals.map((x) => [x.id, x.status]),
        [
          ["g1", "approved"],
          ["g2", "pending"],
        ],
        "the UK sees its two goals",
      );
      let r = await api.call(
        "POST",
        `${base}/goals/g2`,
        { decision: "approve", points: 3 },
        tok.france,
      );
      assert.equal(r.status, 403, "France cannot approve");
      r = await api.call(
        "POST",
        `${base}/goals`,
        { power: "uk", text: "Mine", source: "chairs" },
        tok.uk,
      );
      assert.equal(r.status, 403, "a power cannot set a chairs' goal");
      r = await api.call("POST", `${base}/goals/g1`, { decision: "deny" }, gm);
      assert.equal(r.status, 400, "a chairs' goal needs no approval");
      assert.match(JSON.stringify(r.body), /set by the chairs/, "says why");
      await api.ok("POST", `${base}/goals/g2`, { decision: "approve", points: 3 }, gm);
      await api.ok("POST", `${base}/goals/g1`, { decision: "achieved" }, gm);
      await api.ok("POST", `${base}/goals/g2`, { decision: "achieved" }, gm);
      g = await view();
      const uk = g.scores?.rows.find((x) => x.power === "uk");
      assert.deepEqual([uk?.political, uk?.total], [5, 5], "the UK's two goals: 2 + 3");
      assert.equal(g.scores?.winner, "uk", "the UK leads alone");
      const france = await api.ok<CommitteeJson>("GET", base, undefined, tok.france);
      assert.deepEqual(france.goals, [], "France does not read the UK's goals");
      assert.equal(france.scores.winner, "uk", "but sees the scores");
      const anon = await api.ok<GameRecord>("GET", `/api/games/${id}/record`);
      assert.ok(
        anon.committee?.some((a) => a.text === "(withheld until the game ends)"),
        "the public record withholds goal texts",
      );
      assert.ok(
        !JSON.stringify(anon.committee).includes("Dunkirk"),
        "no goal text in the public record",
      );

      // Conferences. Munich holds a German army; Germany is not invited: refused.
      const conference = (who: string | undefined, body: Record<string, unknown>) =>
        api.call<{ error?: string; conferences?: unknown }>(
          "POST",
          `${base}/conferences`,
          body,
          who,
        );
      /** A conference called by `who` that the judge refuses (400, `what`), saying `why`. */
      const refused = async (
        who: string | undefined,
        body: Record<string, unknown>,
        what: string,
        why: RegExp,
      ) => {
        const answer = await conference(who, body);
        assert.equal(answer.status, 400, what);
        assert.match(JSON.stringify(answer.body), why, "says why");
      };
      const munich = { name: "Munich", goal: "Sudetenland", location: "Munich" };
      await refused(
        tok.uk,
        { ...munich, participants: ["France", "Italy"] },
        "hostile army",
        /hostile to the conference/,
      );
      const dresden = { name: "Dresden", goal: "talk", location: "Saxony" };
      await refused(
        tok.uk,
        { ...dresden, participants: ["France"] },
        "two delegations",
        /less than 3 delegations/,
      );
      r = await conference(tok.uk, { ...dresden, participants: ["france", "italy"] });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const paris = { name: "Paris", goal: "more talk", location: "Paris" };
      await refused(
        tok.france,
        { ...paris, participants: ["uk", "italy"] },
        "one at a time",
        /still running/,
      );
      g = await view();
      assert.equal(g.conferences?.current?.name, "Dresden", "shown to everyone");
      assert.deepEqual(
        g.conferences?.current?.participants,
        ["uk", "france", "italy"],
        "participants",
      );

      // Germany (not taking part) marches into Saxony: the conference ends at once.
      await api.ok("POST", `/api/games/${id}/orders`, { orders: ["A Ber-Sax"] }, tok.germany);
      g = await advance();
      assert.equal(g.phase, "F1935M", "the next phase");
      assert.equal(g.conferences?.current, null, "cut short");
      assert.deepEqual(
        [g.conferences?.past[0]?.reason, g.conferences?.past[0]?.ended],
        ["conquered", "F1935M"],
        "conquered",
      );

      // A new one at Paris (French army, France invited) lasts a year at most.
      r = await conference(tok.france, { ...paris, participants: ["uk", "italy"] });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      for (g = await advance(); g.phase !== "F1936M"; g = await advance()) {
        assert.equal(g.conferences?.current?.name, "Paris", `still running in ${g.phase}`);
      }
      assert.equal(g.conferences?.current, null, "over after a year");
      assert.deepEqual(
        [
          g.conferences?.past[1]?.reason,
          g.conferences?.past[1]?.opened,
          g.conferences?.past[1]?.ended,
        ],
        ["expired", "F1935M", "F1936M"],
        "expired",
      );

      // The chairs lower the territory threshold: every power with five centres scores five.
      r = await api.call("POST", `${base}/territory`, { centres: 5 }, tok.uk);
      assert.equal(r.status, 403, "only the chairs");
      await api.ok("POST", `${base}/territory`, { centres: 5 }, gm);
      g = await view();
      assert.equal(g.scores?.territorialCenters, 5, "the new threshold");
      assert.equal(g.scores?.rows.find((x) => x.power === "uk")?.total, 10, "the UK: 5 + 5");
      assert.equal(g.scores?.rows.find((x) => x.power === "italy")?.total, 5, "Italy: 5");

      // The GM's record carries the committee and replays to the same scores.
      const record = await api.ok<GameRecord>("GET", `/api/games/${id}/record`, undefined, gm);
      assert.equal(record.committee?.length, 8, "five goal acts, two conferences, the threshold");
      const scenario = scenarioOfRecord(record);
      assert.ok(scenario, "its scenario");
      assert.deepEqual(replayRecord(scenario, record), { ok: true }, "it replays");
      const again = recordScores(europe1935, record);
      assert.ok(again.ok, "scores from the record");
      assert.deepEqual(
        again.scores.map((x) => [x.power, x.total]),
        g.scores?.rows.map((x) => [x.power, x.total]),
        "the same scores as the game view",
      );
    });

    test("a game with an uploaded variant; a bad upload is refused with the errors", async (t) => {
      const s = await serveJudge(t, kind);
      if (!s) return;
      const { api, clock } = s;
      const data = JSON.parse(
        readFileSync(new URL("../variants/europe1935/europe1935.json", import.meta.url), "utf8"),
      ) as Record<string, unknown>;
      const mine = { ...data, id: "mymap", name: "My map" };
      const gm = await account(api, "gm");
      let r = await api.call(
        "POST",
        "/api/games",
        { name: "x", variantData: { ...mine, id: "europe1935" } },
        gm,
      );
      assert.equal(r.status, 400, "a built-in id");
      assert.match(JSON.stringify(r.body), /built-in variant/, "says why");
      r = await api.call(
        "POST",
        "/api/games",
        { name: "x", variantData: { ...mine, startPhase: "X" } },
        gm,
      );
      assert.equal(r.status, 400, "an invalid file");
      assert.match(JSON.stringify(r.body), /startPhase/, "names the field");
      const { id, tok, game, gm: chair } = await nineGame(api, { variantData: mine });
      assert.equal(game.variant, "mymap", "the uploaded variant");
      assert.equal(game.seats, 9, "one seat per power");
      assert.equal(game.rules.moveWithoutCoast, "required", "the file's rule defaults");
      assert.equal(game.scores, undefined, "no committee for a file variant");
      await api.ok("POST", `/api/games/${id}/orders`, { orders: ["A Ber-Sax"] }, tok.germany);
      assert.equal((await nextPhase<GameJson>(api, clock, id)).phaseIndex, 1, "the first phase");
      const record = await api.ok<GameRecord>("GET", `/api/games/${id}/record`, undefined, chair);
      assert.equal(record.variant, "mymap", "the record names it");
      assert.deepEqual(record.variantData, mine, "and carries it");
      const scenario = scenarioOfRecord(record);
      assert.ok(scenario, "found from the record alone");
      assert.deepEqual(replayRecord(scenario, record), { ok: true }, "it replays");
      assert.ok(
        record.phases[0]!.position.units.germany?.includes("A sax"),
        "the phase was played on the uploaded map",
      );
    });
  });
}
