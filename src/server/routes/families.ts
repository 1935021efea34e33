import type { Judge } from "../../judge/judge.ts";
import { discoveryMapFor } from "../../render/families.ts";
import * as R from "../responses.ts";
import { type Route, route } from "../router.ts";
import { need, wholeQuery } from "./shared.ts";

/*
 * The game families' routes (global, seed 004, docs/global.md; discovery): a power's report,
 * the turns, the moderator's map and a player's map.
 */

export function familyRoutes(judge: Judge): Route[] {
  return [
    route({
      method: "GET",
      path: "/api/games/{id}/report",
      response: R.documented("the power's report (seed 004 §8; docs/global.md, docs/discovery.md)")
        .json,
      tag: "orders",
      summary: "Global Diplomacy: your report (seed 004 §8), the last turn's or ?turn=N's",
      description:
        "Only what your power may see. Before the first turn is adjudicated, the opening report. The GM reads any power's with ?power=. Other games have no reports (409).",
      auth: "required",
      query: {
        power: "the GM: whose report (a power's number or name); a player: only their own",
        turn: "an adjudicated turn's report (default: the last)",
      },
      responses: { 403: "not your power's report", 409: "the game has no reports" },
      handler: async (c) => {
        const turn = wholeQuery(
          c.query,
          "turn",
          1,
          Number.MAX_SAFE_INTEGER,
          "a turn number (1, 2, ...)",
        );
        return judge.views.report(need(c.user), c.params.id!, {
          power: c.query.get("power") ?? undefined,
          turn,
        });
      },
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/turns",
      response: R.documented("every adjudicated turn: commands, results, reports (docs/global.md)")
        .json,
      tag: "game master",
      summary: "Global Diplomacy, GM: every adjudicated turn: commands, results, reports",
      auth: "required",
      responses: { 403: "you are not the game master", 409: "the game has no turns" },
      handler: async (c) => judge.views.familyTurns(need(c.user), c.params.id!),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/moderator-map",
      response: R.documented(
        "the whole generated map: areas, squares, adjacency, supply, grid (docs/discovery.md)",
      ).json,
      tag: "game master",
      summary: "Age of Discovery, GM: the game's whole generated map (never shown to players)",
      description:
        "Every area with its squares, adjacency and supply, and the grid geometry, in the map's own frame (docs/discovery.md). Players see only the map in their report, in their own X Y names.",
      auth: "required",
      responses: {
        403: "you are not the game master",
        409: "the game's map is not generated for it",
      },
      handler: async (c) => judge.views.moderatorMap(need(c.user), c.params.id!),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/map",
      response: R.ownMapAnswer.json,
      tag: "orders",
      summary: "Age of Discovery: your own map, as your report knows it (the GM: the whole map)",
      description:
        "A player's map holds only the areas it knows (been to or spied upon) and sees, in its own square names (`153 0503`, as its report writes them), with units and owners only where it sees this turn, and the frame of those areas. The game master gets the whole map in its own frame. Drawn by the judge from the game's position, which is never sent (docs/discovery.md).",
      auth: "required",
      responses: {
        403: "you neither play in the game nor master it",
        409: "the game's map is its variant's, the same for all (GET /api/variants/{id}/geometry)",
      },
      handler: async (c) => {
        const s = await judge.views.familyMapSource(need(c.user), c.params.id!);
        return discoveryMapFor({ ...s.position }, s.player);
      },
    }),
  ];
}
