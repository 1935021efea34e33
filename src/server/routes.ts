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
 * document at /api/docs lists them (it is generated from these tables: openapi.ts). The
 * server registers each resource as one Fastify plugin (server.ts), so that a hook or a
 * decorator a resource adds stays with its own routes.
 */

/** One resource of the API: its name (the plugin's, in `app.printPlugins()`) and its routes. */
export interface Resource {
  readonly name: string;
  readonly routes: readonly Route[];
}

export function apiResources(
  judge: Judge,
  hub: EventHub,
  info: { database: string; readiness: Readiness },
): Resource[] {
  return [
    { name: "catalogue", routes: catalogueRoutes(judge, info) },
    { name: "accounts", routes: accountRoutes(judge) },
    { name: "games", routes: gameRoutes(judge) },
    { name: "families", routes: familyRoutes(judge) },
    { name: "votes", routes: voteRoutes(judge) },
    { name: "press", routes: pressRoutes(judge) },
    { name: "mail", routes: mailRoutes(judge) },
    { name: "events", routes: eventRoutes(judge, hub) },
    { name: "sequential", routes: sequentialRoutes(judge) },
    { name: "committee", routes: committeeRoutes(judge) },
    { name: "gm", routes: gmRoutes(judge) },
    // The web client's routes: legal orders, typed-order checks, the sandbox, the chair.
    { name: "web", routes: webRoutes(judge) },
    // The game's history as pictures: the GIF and a phase's PNG (pictures.ts).
    { name: "pictures", routes: pictureRoutes(judge) },
  ];
}
