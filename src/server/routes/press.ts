import type { Judge } from "../../judge/judge.ts";
import * as R from "../responses.ts";
import { type Route, route } from "../router.ts";
import { either, list, obj, oneOf, optional, str } from "../schema.ts";
import { afterParam, need, power } from "./shared.ts";

/* The press routes: a game's messages (since an id), the held ones (review), sending one. */

export function pressRoutes(judge: Judge): Route[] {
  return [
    route({
      method: "GET",
      path: "/api/games/{id}/press",
      response: R.pressAnswer.json,
      tag: "press",
      summary: "Messages you may read (grey press without its author)",
      auth: "optional",
      query: {
        after: "only messages after your nth (ids are your own: 1 to n over what you may read)",
      },
      handler: async (c) => judge.press.press(c.user, c.params.id!, afterParam(c.query)),
    }),
    route({
      method: "GET",
      path: "/api/games/{id}/press/held",
      response: R.heldPressAnswer.json,
      tag: "press",
      summary:
        "Press held for the GM's review (option press.review): all of the game's for the GM, your own for a player",
      auth: "required",
      handler: async (c) => judge.press.heldPress(need(c.user), c.params.id!),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/press",
      response: R.pressSent.json,
      tag: "press",
      summary: "Send press: white (signed) or grey (anonymous), to some powers or all",
      description:
        "Dark grey (signed as someone else) and black (signed as the GM) press are refused.",
      auth: "required",
      body: obj({
        to: either(
          oneOf(["all"] as const),
          list(power, { min: 1, max: 50 }),
          '"all" or a list of powers',
        ),
        body: str({ min: 1, max: 20_000 }),
        kind: optional(str({ max: 20, description: "white (default) or grey" })),
        signedAs: optional(str({ max: 40 })),
      }),
      successStatus: 201,
      handler: async (c) => judge.press.sendPress(need(c.user), c.params.id!, c.body),
    }),
  ];
}
