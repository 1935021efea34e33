import type { Judge } from "../judge/judge.ts";
import type { EventHub } from "./events.ts";
import { pictureRoutes } from "./pictures.ts";
import type { Readiness } from "./readiness.ts";
import type { Route } from "./router.ts";
import { accountRoutes } from "./routes/accounts.ts";
import { catalogueRoutes } from "./routes/catalogue.ts";
import { committeeRoutes } from "./routes/committee.ts";
import { eventRoutes } from "./routes/events.ts";
import { familyRoutes } from "./routes/families.ts";
import { gameRoutes } from "./routes/games.ts";
import { gmRoutes } from "./routes/gm.ts";
import { mailRoutes } from "./routes/mail.ts";
import { pressRoutes } from "./routes/press.ts";
import { sequentialRoutes } from "./routes/sequential.ts";
import { voteRoutes } from "./routes/votes.ts";
import { webRoutes } from "./web-routes.ts";

/*
 * The REST API: every route, its input schema and its handler, one file a resource in
 * routes/ (accounts, games, votes, press, ...), gathered here in the order the OpenAPI
 * document at /api/docs lists them (it is generated from this table: openapi.ts).
 */

export function apiRoutes(
  judge: Judge,
  hub: EventHub,
  info: { database: string; readiness: Readiness },
): Route[] {
  return [
    ...catalogueRoutes(judge, info),
    ...accountRoutes(judge),
    ...gameRoutes(judge),
    ...familyRoutes(judge),
    ...voteRoutes(judge),
    ...pressRoutes(judge),
    ...mailRoutes(judge),
    ...eventRoutes(judge, hub),
    ...sequentialRoutes(judge),
    ...committeeRoutes(judge),
    ...gmRoutes(judge),
    // The web client's routes: legal orders, typed-order checks, the sandbox, the chair.
    ...webRoutes(judge),
    // The game's history as pictures: the GIF and a phase's PNG (pictures.ts).
    ...pictureRoutes(judge),
  ];
}
