import { invalid } from "../../judge/errors.ts";
import type { Judge } from "../../judge/judge.ts";
import * as R from "../responses.ts";
import { type Route, route } from "../router.ts";
import { either, list, obj, oneOf, optional, str } from "../schema.ts";
import { need, power, wholeQuery } from "./shared.ts";

/*
 * Sequential movement's routes (seed 003, docs/sequential.md): the schedule of resolution
 * and the support contracts.
 */

export function sequentialRoutes(judge: Judge): Route[] {
  return [
    route({
      method: "GET",
      path: "/api/games/{id}/schedule",
      response: R.documented("each season's schedule and the blocks' balance (docs/sequential.md)")
        .json,
      tag: "game master",
      summary: "GM: the sequential schedule of every season so far and some ahead",
      description:
        "Each season's order of resolution (set by the GM or generated), simultaneous seasons, the contracts that count, and for each whole block of sequential seasons whether every power is first once, second once, and so on. Players are refused: they are never told the schedule.",
      auth: "required",
      query: {
        ahead: "how many seasons after the first one still open (default twice the powers)",
      },
      responses: { 403: "you are not the game master", 409: "the game is not sequential" },
      handler: async (c) => {
        const ahead = wholeQuery(
          c.query,
          "ahead",
          0,
          200,
          "a whole number of seasons from 0 to 200",
        );
        return judge.views.schedule(need(c.user), c.params.id!, ahead);
      },
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/schedule/{season}",
      response: R.documented("the schedule after the change (docs/sequential.md)").json,
      tag: "game master",
      summary: "GM: set a season's schedule, make it simultaneous, or go back to the generated one",
      description:
        'season: S1902 or F1902, not yet adjudicated. schedule: the powers in the order their orders are resolved (every power with units or centres), "simultaneous", or "generated".',
      auth: "required",
      body: obj({
        schedule: either(
          list(power, { min: 1, max: 50 }),
          oneOf(["simultaneous", "generated"] as const),
          'a list of powers, "simultaneous" or "generated"',
        ),
      }),
      responses: { 403: "you are not the game master", 409: "the season has been adjudicated" },
      handler: async (c) =>
        judge.gm.setSchedule(need(c.user), c.params.id!, c.params.season!, c.body.schedule),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/contracts",
      response: R.documented(
        "contract declarations and whether they are matched (docs/sequential.md)",
      ).json,
      tag: "orders",
      summary: "Your contract declarations, and whether the other side matched them (the GM: all)",
      auth: "required",
      responses: { 403: "observers and outsiders see no contracts" },
      handler: async (c) => judge.views.contracts(need(c.user), c.params.id!),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/contracts",
      response: R.documented("the declaration stored (docs/sequential.md)").json,
      tag: "orders",
      summary: "Declare a support contract with another power, to the GM (sequential movement)",
      description:
        'A contract counts in a season when both powers declared it for that season. It covers support and convoys between the two powers\' units; their orders are then resolved together, in the slot of the power lower on the schedule. season: the first season (default the first not yet adjudicated); until: the last season (default the same) or "withdrawn".',
      auth: "required",
      body: obj({
        with: power,
        power: optional(power),
        season: optional(str({ max: 10, example: "S1902" })),
        until: optional(str({ max: 10, example: "withdrawn" })),
      }),
      successStatus: 201,
      responses: { 403: "not your power", 409: "the season has been adjudicated" },
      handler: async (c) => judge.gm.declareContract(need(c.user), c.params.id!, c.body),
    }),
    route({
      method: "DELETE",
      path: "/api/games/{id}/contracts/{cid}",
      response: R.documented("the declaration withdrawn (docs/sequential.md)").json,
      tag: "orders",
      summary: "Withdraw a contract declaration from the first season not yet adjudicated",
      auth: "required",
      responses: { 404: "no such declaration of yours" },
      handler: async (c) => {
        const id = Number(c.params.cid);
        if (!Number.isInteger(id) || id < 1)
          throw invalid(`no contract declaration "${c.params.cid}"`);
        return judge.gm.withdrawContract(need(c.user), c.params.id!, id);
      },
    }),
  ];
}
