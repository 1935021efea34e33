import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { writePosition } from "../engine/position-json.ts";
import { getVariant } from "../variants/registry.ts";
import { familyMap } from "./families.ts";
import { geometrySpec, mapGeometry } from "./geometry.ts";
import { drawBoard } from "./layers.ts";

/*
 * The map over HTTP: a variant's MapGeometry as JSON and its start position as SVG, each
 * built once, gzipped once and served with a long cache lifetime and an ETag (the map only
 * changes with a new release).
 */

interface Body {
  type: string;
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

const cache = new Map<string, Body>();

function body(key: string, type: string, make: () => string): Body {
  const hit = cache.get(key);
  if (hit) return hit;
  const raw = Buffer.from(make());
  const b = {
    type,
    body: raw,
    gzip: gzipSync(raw),
    etag: `"${createHash("sha256").update(raw).digest("hex").slice(0, 20)}"`,
  };
  cache.set(key, b);
  return b;
}

/** Whether the variant exists and has a map (otherwise the route answers 404). */
export function hasMap(variantId: string): boolean {
  if (familyMap(variantId)) return true;
  return getVariant(variantId) !== undefined && geometrySpec(variantId) !== undefined;
}

/** Sends the variant's MapGeometry (JSON) or its start position (SVG). */
export function sendMap(
  variantId: string,
  what: "geometry" | "start",
  req: IncomingMessage,
  res: ServerResponse,
): void {
  // Global Diplomacy's world is no Variant: render/families.ts draws it.
  const family = familyMap(variantId);
  let b: Body;
  if (family) {
    b =
      what === "geometry"
        ? body(`${variantId}/geometry`, "application/json; charset=utf-8", () =>
            JSON.stringify(family.geometry()),
          )
        : body(`${variantId}/start`, "image/svg+xml; charset=utf-8", family.start);
  } else {
    const variant = getVariant(variantId);
    if (!variant) throw new Error(`unknown variant ${variantId}`);
    b =
      what === "geometry"
        ? body(`${variantId}/geometry`, "application/json; charset=utf-8", () =>
            JSON.stringify(mapGeometry(variant)),
          )
        : body(`${variantId}/start`, "image/svg+xml; charset=utf-8", () =>
            drawBoard(mapGeometry(variant), { position: writePosition(variant, variant.start) }),
          );
  }
  if (req.headers["if-none-match"] === b.etag) {
    res.writeHead(304, { etag: b.etag, "cache-control": "public, max-age=86400" });
    res.end();
    return;
  }
  const gz = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  const data = gz ? b.gzip : b.body;
  res.writeHead(200, {
    "content-type": b.type,
    "content-length": data.length,
    "cache-control": "public, max-age=86400",
    etag: b.etag,
    "x-content-type-options": "nosniff",
    vary: "accept-encoding",
    ...(gz ? { "content-encoding": "gzip" } : {}),
  });
  res.end(req.method === "HEAD" ? undefined : data);
}
