import type { Judge } from "../../judge/judge.ts";
import type { EventHub } from "../events.ts";
import * as R from "../responses.ts";
import { type Route, route } from "../router.ts";
import { afterParam } from "./shared.ts";

/* The live updates' route: a game's events as a server-sent stream (events.ts). */

export function eventRoutes(judge: Judge, hub: EventHub): Route[] {
  return [
    route({
      method: "GET",
      path: "/api/games/{id}/events",
      response: R.eventsAnswer.json,
      tag: "events",
      summary:
        "Live updates as server-sent events (or, without Accept: text/event-stream, a JSON list)",
      description:
        "Events: started, phase_resolved, phase_corrected, press, proposal, vote_result, game_over, deadline, paused, resumed, joined, civil_disorder, ... Browsers' EventSource cannot send headers: give ?token=. Resumes after Last-Event-ID or ?after=.",
      auth: "optional",
      query: {
        after: "only events after your nth (ids are your own: 1 to n over what you may read)",
        token: "the API token (for EventSource)",
      },
      handler: async (c) => {
        const after = afterParam(c.query, c.req.headers["last-event-id"]);
        if (!(c.req.headers.accept ?? "").includes("text/event-stream")) {
          return judge.views.events(c.user, c.params.id!, after);
        }
        await hub.stream(c.req, c.res, c.user, c.token, c.params.id!, after);
        return { streamed: true };
      },
    }),
  ];
}
