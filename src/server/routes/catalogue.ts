import { notFound } from "../../judge/errors.ts";
import { familyListing } from "../../judge/family.ts";
import type { Judge } from "../../judge/judge.ts";
import { hasMap, sendMap } from "../../render/serve.ts";
import { variantIds } from "../../variants/registry.ts";
import { scenariosOf } from "../../variants/scenarios.ts";
import type { Readiness } from "../readiness.ts";
import * as R from "../responses.ts";
import { type Route, route } from "../router.ts";
import { type Schema, text } from "../schema.ts";

/*
 * The routes anybody may call without an account: the server's health, the variants and
 * their scenarios, and a variant's map (its geometry and its start drawn as SVG).
 */

export function catalogueRoutes(
  judge: Judge,
  info: { database: string; readiness: Readiness },
): Route[] {
  return [
    route({
      method: "GET",
      path: "/api/health",
      response: R.healthAnswer.json,
      tag: "server",
      summary: "Health: the server runs and its database reads and writes (readiness)",
      description:
        '200 with status ok when a read and a write of the database (probed at most a second ago, bounded to 5 s) succeeded and no request met a storage error in the last 30 s; 503 with status unavailable, the cause and since when otherwise (docs/judge.md, "Health and readiness").',
      auth: "none",
      responses: {
        503: "the database cannot read or write: status unavailable, cause, since",
      },
      handler: async () => {
        const s = await info.readiness.state();
        const body = {
          status: s.ready ? ("ok" as const) : ("unavailable" as const),
          database: info.database,
          time: new Date(judge.now()).toISOString(),
          // No process id: it tells a stranger nothing they need and an attacker on the machine
          // something; the operator reads it in the start line of the log (entente serve).
          adjudications: judge.adjudications,
          ...(s.ready
            ? {}
            : { cause: s.cause ?? "", since: new Date(s.since ?? Date.now()).toISOString() }),
        };
        return s.ready ? body : { status: 503, body };
      },
    }),
    route({
      method: "GET",
      path: "/api/variants",
      response: R.variantsAnswer.json,
      tag: "games",
      summary: "Variants and their scenarios (who plays which powers)",
      description:
        "Then the game families the judge hosts (global, discovery): a different game, marked by `family` (a note) and `players`; their scenario ids are player counts.",
      auth: "none",
      handler: async () => [
        ...variantIds().map((id) => ({
          id,
          scenarios: scenariosOf(id).map((s) => ({
            id: s.id,
            description: s.description,
            seats: s.seats.map((x) => ({ name: x.name, powers: x.powers })),
          })),
        })),
        ...familyListing(),
      ],
    }),
    // Maps (src/render, docs/maps.md)
    mapRoute(
      "geometry",
      "geometry",
      R.documented(
        "the MapGeometry: province shapes, label and unit places, base SVG (docs/maps.md)",
      ),
      "A variant's map: province shapes, label and unit places, base SVG (MapGeometry)",
    ),
    mapRoute(
      "map.svg",
      "start",
      text("the map as SVG (Content-Type image/svg+xml)"),
      "A variant's start position drawn as SVG",
    ),
  ];
}

/** A variant's map, streamed from src/render (`what`: its geometry, or its start as SVG). */
function mapRoute(
  file: string,
  what: "geometry" | "start",
  response: Schema<unknown>,
  summary: string,
): Route {
  return route({
    method: "GET",
    path: `/api/variants/{id}/${file}`,
    response: response.json,
    tag: "games",
    summary,
    auth: "none",
    responses: { 404: "no such variant, or it has no map" },
    handler: async (c) => {
      const id = c.params.id as string;
      if (!hasMap(id)) throw notFound(`no map for variant ${id}`);
      sendMap(id, what, c.req, c.res);
      return { streamed: true };
    },
  });
}
