import { invalid } from "../../judge/errors.ts";
import type { Judge } from "../../judge/judge.ts";
import * as R from "../responses.ts";
import { type Ctx, type Route, route } from "../router.ts";
import { list, obj, oneOf, optional, str } from "../schema.ts";
import { need, optionsSchema, power } from "./shared.ts";

/* The votes' routes: the proposals of a game, a new proposal, a vote on one. */

const pid = (c: Ctx<unknown>): number => {
  const n = Number(c.params.pid);
  if (!Number.isInteger(n) || n < 1) throw invalid(`no proposal "${c.params.pid}"`);
  return n;
};

export function voteRoutes(judge: Judge): Route[] {
  return [
    route({
      method: "GET",
      path: "/api/games/{id}/votes",
      response: R.proposalsAnswer.json,
      tag: "votes",
      summary: "Proposals: open ones with your vote, decided ones with the counts",
      auth: "required",
      handler: async (c) => judge.votes.proposals(need(c.user), c.params.id!),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/votes",
      response: R.proposalCreated.json,
      tag: "votes",
      summary:
        "Propose a draw, a concession or a house-rule change (decided with this phase's orders)",
      auth: "required",
      body: obj({
        kind: oneOf(["draw", "concede", "houserule"] as const),
        powers: optional(list(power, { max: 50 })),
        text: optional(str({ max: 2000 })),
        options: optional(optionsSchema),
      }),
      successStatus: 201,
      responses: {
        409: "the game is not on, or a proposal of the same sort (to end the game, or a house-rule change) is still open",
      },
      handler: async (c) => judge.votes.propose(need(c.user), c.params.id!, c.body),
    }),
    route({
      method: "POST",
      path: "/api/games/{id}/votes/{pid}",
      response: R.voteAnswer.json,
      tag: "votes",
      summary: "Vote (or change your vote) on a proposal",
      auth: "required",
      body: obj({ vote: oneOf(["yes", "no", "abstain"] as const) }),
      handler: async (c) => judge.votes.vote(need(c.user), c.params.id!, pid(c), c.body.vote),
    }),
  ];
}
