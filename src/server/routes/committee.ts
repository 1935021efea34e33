import type { ActInput } from "../../judge/committee.ts";
import type { Judge } from "../../judge/judge.ts";
import * as R from "../responses.ts";
import { type Ctx, type Route, type RouteDef, route } from "../router.ts";
import { int, list, obj, oneOf, optional, str } from "../schema.ts";
import { need, power } from "./shared.ts";

/*
 * The europe1935 committee's routes (docs/committee.md): the committee, goals, conferences
 * and territory.
 */

export function committeeRoutes(judge: Judge): Route[] {
  /** A committee act, POST /api/games/{id}/committee/`path`: what the act recorded. */
  const act = <B>(
    path: string,
    def: Omit<RouteDef<B>, "method" | "path" | "response" | "tag" | "auth" | "handler">,
    input: (c: Ctx<B>) => ActInput,
  ): Route =>
    route<B>({
      method: "POST",
      path: `/api/games/{id}/committee/${path}`,
      response: R.documented("what the act recorded (docs/committee.md)").json,
      tag: "committee",
      auth: "required",
      ...def,
      handler: async (c) => judge.gm.committeeAct(need(c.user), c.params.id!, input(c)),
    });
  const gmOnly = { 403: "you are not the game master" };
  return [
    route({
      method: "GET",
      path: "/api/games/{id}/committee",
      response: R.documented(
        "victory points, conferences, insurrections and goals you may read (docs/committee.md)",
      ).json,
      tag: "committee",
      summary:
        "europe1935: victory points, conferences, insurrections and the political goals you may read",
      auth: "optional",
      handler: async (c) => judge.views.committee(c.user, c.params.id!),
    }),
    act(
      "goals",
      {
        summary:
          "A political goal: set by the chairs (the GM, up to 3 per power) or proposed by a power (up to 2)",
        description:
          "The GM sets a power's goal (source chairs, approved, points 0-3, default 3); a player proposes one for their power (source proposed, pending until the chairs approve or deny it). Goals are seen by their power and the GM until the game ends.",
        body: obj({
          text: str({ min: 1, max: 2000 }),
          power: optional(power),
          source: optional(oneOf(["chairs", "proposed"] as const)),
          points: optional(
            int({ min: 0, max: 3, description: "the chairs' goals: points awarded" }),
          ),
        }),
        successStatus: 201,
      },
      (c) => ({ act: "goal", ...c.body }),
    ),
    act(
      "goals/{goal}",
      {
        summary:
          "GM (the chairs): approve (with points) or deny a proposed goal, or record it achieved",
        body: obj({
          decision: oneOf(["approve", "deny", "achieved", "not-achieved"] as const),
          points: optional(int({ min: 0, max: 3, description: "approve: the points awarded" })),
        }),
        responses: gmOnly,
      },
      (c) => ({ act: c.body.decision, goal: c.params.goal!, points: c.body.points }),
    ),
    act(
      "conferences",
      {
        summary: "Propose a conference (opens at once unless refused)",
        description:
          "Refused while another conference runs, with fewer than three delegations, or while a unit of a power not taking part stands in the location. It lasts at most a year and ends at once when its location is conquered.",
        body: obj({
          name: str({ min: 1, max: 200, example: "Munich Conference" }),
          goal: str({ min: 1, max: 2000 }),
          location: str({ min: 1, max: 60, example: "Munich" }),
          participants: list(power, { min: 1, max: 20 }),
          organiser: optional(power),
        }),
        successStatus: 201,
      },
      (c) => ({ act: "conference", ...c.body }),
    ),
    act(
      "conferences/close",
      { summary: "GM (the chairs): close the running conference", responses: gmOnly },
      () => ({ act: "close-conference" }),
    ),
    act(
      "territory",
      {
        summary: "GM (the chairs): centres needed for the five territorial points (default 15)",
        body: obj({ centres: int({ min: 1, max: 1000 }) }),
        responses: gmOnly,
      },
      (c) => ({ act: "territory", centres: c.body.centres }),
    ),
  ];
}
